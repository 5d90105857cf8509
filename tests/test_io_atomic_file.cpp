// core/io/atomic_file: what is at the output path is respected. A new or regular file is replaced
// atomically (the old one stays on discard); a symbolic link is written through to its file, next
// to it, and stays a link; a FIFO and a character device are written directly and stay what they
// are; a directory, a socket and a loop of links are refused with one line naming the path;
// Writer::ByName gives other libraries a file to write and copies it into a stream at commit.

#include "core/io/atomic_file.hpp"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

using namespace ricochet;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

mode_t typeOf(const fs::path& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

/// Names in `dir` (hidden temporaries included).
QStringList entries(const fs::path& dir) {
  QStringList names;
  for (const auto& e : fs::directory_iterator(dir))
    names << QString::fromStdString(e.path().filename().string());
  names.sort();
  return names;
}

bool contains(const std::string& text, const char* needle) {
  return text.find(needle) != std::string::npos;
}

/// Reads a FIFO to its end on another thread (what `cat FIFO` does).
std::future<std::string> readFifo(const fs::path& fifo) {
  return std::async(std::launch::async, [fifo] { return readAll(fifo); });
}

}  // namespace

class TestIoAtomicFile : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  fs::path dir() const { return fs::path(tmp_.path().toStdString()); }

 private slots:
  void init() {  // every test starts in an empty folder
    for (const auto& e : fs::directory_iterator(dir())) fs::remove_all(e.path());
  }

  void aNewFileAppearsOnlyAtCommit() {
    const fs::path target = dir() / "new.csv";
    io::AtomicFile f;
    QVERIFY(f.open(target).empty());
    QCOMPARE(int(f.kind()), int(io::AtomicFile::Kind::File));
    QVERIFY(f.write("a,b\n").empty());
    QVERIFY(!fs::exists(target));
    QCOMPARE(f.temporaryPath().parent_path(), fs::canonical(dir()));
    QVERIFY(f.commit().empty());
    QCOMPARE(readAll(target), std::string("a,b\n"));
    QCOMPARE(entries(dir()), QStringList{"new.csv"});
  }

  void aRegularFileIsReplacedOrKept() {
    const fs::path target = dir() / "old.csv";
    QVERIFY(io::writeFileAtomically(target, "old\n").empty());
    {
      io::AtomicFile f;
      QVERIFY(f.open(target).empty());
      QVERIFY(f.write("half").empty());
      f.discard();
    }
    QCOMPARE(readAll(target), std::string("old\n"));
    QVERIFY(io::writeFileAtomically(target, "new\n").empty());
    QCOMPARE(readAll(target), std::string("new\n"));
    QCOMPARE(typeOf(target), mode_t(S_IFREG));
  }

  // A link stays a link: the file it names is replaced, through a temporary file next to that
  // file (in its own folder), even along a chain of links and for a link to a file not yet there.
  void aSymbolicLinkIsWrittenThrough() {
    const fs::path elsewhere = dir() / "elsewhere";
    fs::create_directory(elsewhere);
    const fs::path real = elsewhere / "real.csv";
    QVERIFY(io::writeFileAtomically(real, "old\n").empty());
    const fs::path link = dir() / "link.csv", chain = dir() / "chain.csv";
    fs::create_symlink("elsewhere/real.csv", link);
    fs::create_symlink("link.csv", chain);

    io::AtomicFile f;
    QVERIFY(f.open(chain).empty());
    QCOMPARE(f.resolvedTarget(), fs::canonical(real));
    QCOMPARE(f.temporaryPath().parent_path(), fs::canonical(elsewhere));
    QVERIFY(f.write("new\n").empty());
    QVERIFY(f.commit().empty());
    QCOMPARE(typeOf(link), mode_t(S_IFLNK));
    QCOMPARE(typeOf(chain), mode_t(S_IFLNK));
    QCOMPARE(fs::read_symlink(link), fs::path("elsewhere/real.csv"));
    QCOMPARE(readAll(real), std::string("new\n"));
    QCOMPARE(entries(elsewhere), QStringList{"real.csv"});

    const fs::path dangling = dir() / "dangling.csv";
    fs::create_symlink("elsewhere/later.csv", dangling);
    QVERIFY(io::writeFileAtomically(dangling, "later\n").empty());
    QCOMPARE(typeOf(dangling), mode_t(S_IFLNK));
    QCOMPARE(readAll(elsewhere / "later.csv"), std::string("later\n"));

    const fs::path broken = dir() / "broken.csv";
    fs::create_symlink("no-such-folder/x.csv", broken);
    const std::string e = io::writeFileAtomically(broken, "x");
    QVERIFY2(contains(e, "broken.csv: cannot write: directory") &&
                 contains(e, "no-such-folder' does not exist"),
             e.c_str());
  }

  // A FIFO is written directly and stays a FIFO (before, the temporary file was renamed onto it).
  void aFifoIsWrittenDirectly() {
    const fs::path fifo = dir() / "pipe";
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    QVERIFY(io::checkOutput(fifo).empty());  // looks without opening: no reader is woken
    auto reader = readFifo(fifo);
    io::AtomicFile f;
    QVERIFY(f.open(fifo).empty());
    QCOMPARE(int(f.kind()), int(io::AtomicFile::Kind::Stream));
    QVERIFY(f.temporaryPath().empty());
    QVERIFY(f.write("step,t\n").empty());
    QVERIFY(f.write("0,0\n").empty());
    QVERIFY(f.commit().empty());
    QCOMPARE(reader.get(), std::string("step,t\n0,0\n"));
    QCOMPARE(typeOf(fifo), mode_t(S_IFIFO));
    QCOMPARE(entries(dir()), QStringList{"pipe"});
  }

  // Writer::ByName (HDF5, ffmpeg): the library writes a temporary file in the system's temporary
  // folder, whose bytes commit() copies into the stream; nothing is left behind.
  void byNameIntoAFifoCopiesTheFinishedFile() {
    const fs::path fifo = dir() / "pipe";
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    auto reader = readFifo(fifo);
    io::AtomicFile f;
    QVERIFY(f.open(fifo, io::AtomicFile::Writer::ByName).empty());
    const fs::path temp = f.temporaryPath();
    QVERIFY(!temp.empty() && temp.parent_path() != dir());
    {
      std::ofstream other(temp, std::ios::binary);  // what the other library does
      other << std::string(100000, 'x') << "end";
    }
    QVERIFY(f.commit().empty());
    const std::string got = reader.get();
    QCOMPARE(got.size(), std::size_t(100003));
    QVERIFY(got.ends_with("xend"));
    QVERIFY(!fs::exists(temp));
    QCOMPARE(typeOf(fifo), mode_t(S_IFIFO));
  }

  // A character device stays one: /dev/null takes the bytes and is still the null device.
  void aCharacterDeviceStaysADevice() {
    struct stat before {};
    QCOMPARE(::stat("/dev/null", &before), 0);
    QVERIFY(S_ISCHR(before.st_mode));
    QVERIFY(io::writeFileAtomically("/dev/null", "nothing to keep\n").empty());
    struct stat after {};
    QCOMPARE(::stat("/dev/null", &after), 0);
    QVERIFY(S_ISCHR(after.st_mode));
    QCOMPARE(after.st_rdev, before.st_rdev);
    QCOMPARE(after.st_ino, before.st_ino);

    // A private copy of the null device where the test may make one (root): the same answer.
    const fs::path node = dir() / "null";
    if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
      QVERIFY(io::writeFileAtomically(node, "x").empty());
      QCOMPARE(typeOf(node), mode_t(S_IFCHR));
    }
    // A device that refuses the bytes: the error names the path and the reason.
    if (fs::exists("/dev/full")) {
      io::AtomicFile f;
      QVERIFY(f.open("/dev/full").empty());
      std::string e = f.write(std::string(1 << 16, 'x'));
      if (e.empty()) e = f.commit();
      QVERIFY2(contains(e, "/dev/full: write failed: No space left on device"), e.c_str());
    }
  }

  void otherThingsAreRefused() {
    std::string e = io::writeFileAtomically(dir(), "x");
    QVERIFY2(
        contains(
            e, ": is a directory; an output must be a regular file, a FIFO or a character device"),
        e.c_str());
    const fs::path socketPath = dir() / "sock";
    const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socketPath.c_str());
    QCOMPARE(::bind(s, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    e = io::writeFileAtomically(socketPath, "x");
    ::close(s);
    QVERIFY2(contains(e, "sock: is a socket"), e.c_str());
    QCOMPARE(typeOf(socketPath), mode_t(S_IFSOCK));
    fs::create_symlink("loop-b", dir() / "loop-a");
    fs::create_symlink("loop-a", dir() / "loop-b");
    e = io::writeFileAtomically(dir() / "loop-a", "x");
    QVERIFY2(contains(e, "loop-a: cannot write: Too many levels of symbolic links"), e.c_str());
    e = io::writeFileAtomically(dir() / "missing" / "x.csv", "x");
    QVERIFY2(
        contains(e, "x.csv: cannot write: directory") && contains(e, "missing' does not exist"),
        e.c_str());
    QCOMPARE(io::writeFileAtomically("", "x"), std::string("empty output file name"));
    QCOMPARE(io::checkOutput(dir()), io::writeFileAtomically(dir(), "x"));
  }

  // "-" is the standard output, as is any path naming what file descriptor 1 is.
  void theStandardOutput() {
    QVERIFY(io::isStandardOutput("-"));
    QVERIFY(!io::isStandardOutput(dir() / "out.csv"));
    QVERIFY(!io::isStandardOutput("/dev/null"));  // shared by everyone, mixes with nothing
    const fs::path file = dir() / "stdout.txt";
    QVERIFY(io::writeFileAtomically(file, "").empty());
    const int saved = ::dup(STDOUT_FILENO);
    std::FILE* redirect = std::fopen(file.c_str(), "ab");
    QVERIFY(redirect);
    std::fflush(stdout);
    ::dup2(::fileno(redirect), STDOUT_FILENO);
    const bool viaPath = io::isStandardOutput(file);
    const std::string e1 = io::writeFileAtomically("-", "one\n");
    const std::string e2 =
        io::writeFileAtomically(file, "two\n");  // the same file: appended, not replaced
    std::fflush(stdout);
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    std::fclose(redirect);
    QVERIFY(viaPath);
    QVERIFY2(e1.empty() && e2.empty(), (e1 + e2).c_str());
    QCOMPARE(readAll(file), std::string("one\ntwo\n"));
  }

  void sameOutput() {
    const fs::path a = dir() / "a.csv";
    QVERIFY(io::sameOutput(a, dir() / "." / "a.csv"));
    QVERIFY(!io::sameOutput(a, dir() / "b.csv"));
    QVERIFY(io::writeFileAtomically(a, "x").empty());
    fs::create_symlink("a.csv", dir() / "to-a.csv");
    QVERIFY(io::sameOutput(a, dir() / "to-a.csv"));
    QVERIFY(io::sameOutput("-", "-"));
    QVERIFY(!io::sameOutput("/dev/null", "/dev/null"));  // a device may take two outputs
  }
};

QTEST_GUILESS_MAIN(TestIoAtomicFile)
#include "test_io_atomic_file.moc"
