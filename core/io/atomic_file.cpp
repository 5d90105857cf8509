#include "core/io/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <fcntl.h>     // open (POSIX; core stays free of Qt and VTK)
#include <sys/stat.h>  // stat, lstat, fstat
#include <unistd.h>    // getpid, fsync, dup

namespace ricochet::io {

namespace fs = std::filesystem;

namespace {

std::string describeErrno(int err) { return std::strerror(err); }

std::atomic<unsigned> gTempCounter{0};

/// Links followed before a chain counts as a loop (the kernel's own limit, MAXSYMLINKS).
constexpr int kMaxLinks = 40;

/// The null device's number (st_rdev), or 0 when there is none.
dev_t nullDevice() {
  struct stat st {};
  return ::stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode) ? st.st_rdev : dev_t(0);
}

/// What a refused kind of file is called in a message.
const char* refusedKind(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISBLK(mode)) return "is a block device";
  if (S_ISSOCK(mode)) return "is a socket";
  return "is not a regular file";
}

}  // namespace

std::string followLinks(const fs::path& path, fs::path& end) {
  end = path;
  for (int hop = 0; hop <= kMaxLinks; ++hop) {
    struct stat st {};
    if (::lstat(end.c_str(), &st) != 0) {
      if (errno == ENOENT) return {};  // the file to create
      return describeErrno(errno);
    }
    if (!S_ISLNK(st.st_mode)) return {};
    std::error_code ec;
    const fs::path next = fs::read_symlink(end, ec);
    if (ec) return "cannot read the symbolic link '" + end.string() + "': " + ec.message();
    end = next.is_absolute() ? next : end.parent_path() / next;
  }
  return describeErrno(ELOOP);
}

bool isStandardOutput(const fs::path& path) {
  if (path == fs::path(kStandardOutputName)) return true;
  struct stat out {
  }, st{};
  if (::fstat(STDOUT_FILENO, &out) != 0 || ::stat(path.c_str(), &st) != 0) return false;
  if (S_ISCHR(st.st_mode) && st.st_rdev == nullDevice()) return false;  // nothing to mix with
  return st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

bool sameOutput(const fs::path& a, const fs::path& b) {
  if (isStandardOutput(a) && isStandardOutput(b)) return true;
  struct stat sa {
  }, sb{};
  const bool aExists = ::stat(a.c_str(), &sa) == 0, bExists = ::stat(b.c_str(), &sb) == 0;
  if (aExists && bExists) {
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !S_ISCHR(sa.st_mode);
  }
  return !aExists && !bExists && a.lexically_normal() == b.lexically_normal();
}

namespace {

/// What open() finds at `target`: a stream, or the file to create or replace (`resolved`, through
/// every symbolic link). Empty on success, else the one-line refusal naming `target`.
std::string classify(const fs::path& target, AtomicFile::Kind& kind, fs::path& resolved) {
  kind = AtomicFile::Kind::None;
  resolved.clear();
  if (target.empty()) return "empty output file name";
  if (isStandardOutput(target)) {  // "-", /dev/stdout, even a file that stdout is redirected to
    kind = AtomicFile::Kind::Stream;
    return {};
  }
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      kind = AtomicFile::Kind::Stream;
      return {};
    }
    if (!S_ISREG(st.st_mode)) {
      return target.string() + ": " + refusedKind(st.st_mode) +
             "; an output must be a regular file, a FIFO or a character device";
    }
    std::error_code ec;
    resolved = fs::canonical(target, ec);  // through every link: the link stays a link
    if (ec) return target.string() + ": cannot write: " + ec.message();
  } else if (errno == ENOENT) {
    // Nothing there yet, or a symbolic link to a file that does not exist yet: create that file.
    if (std::string e = followLinks(target, resolved); !e.empty()) {
      return target.string() + ": cannot write: " + e;
    }
  } else {
    return target.string() + ": cannot write: " + describeErrno(errno);
  }
  const fs::path dir = resolved.has_parent_path() ? resolved.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return target.string() + ": cannot write: directory '" + dir.string() + "' does not exist";
  }
  kind = AtomicFile::Kind::File;
  return {};
}

}  // namespace

std::string checkOutput(const fs::path& target) {
  AtomicFile::Kind kind;
  fs::path resolved;
  return classify(target, kind, resolved);
}

std::string AtomicFile::open(const fs::path& target, Writer writer) {
  discard();
  target_ = target;
  if (std::string e = classify(target, kind_, resolved_); !e.empty()) {
    kind_ = Kind::None;
    return e;
  }
  if (kind_ == Kind::Stream) return openStream(writer);
  return openTemporary(resolved_.parent_path().empty() ? fs::path(".") : resolved_.parent_path(),
                       resolved_.filename().string());
}

std::string AtomicFile::openStream(Writer writer) {
  const bool standardOutput = isStandardOutput(target_);
  // No O_CREAT, no O_TRUNC: a device or a FIFO is opened as it is (a FIFO blocks until a reader).
  const int fd = standardOutput ? ::dup(STDOUT_FILENO)
                                : ::open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return target_.string() + ": cannot write: " + describeErrno(errno);
  std::FILE* stream = ::fdopen(fd, "wb");
  if (!stream) {
    const int err = errno;
    ::close(fd);
    return target_.string() + ": cannot write: " + describeErrno(err);
  }
  if (writer == Writer::Here) {
    file_ = stream;
    return {};
  }
  stream_ = stream;
  std::error_code ec;
  const fs::path dir = fs::temp_directory_path(ec);
  if (ec) {
    discard();
    return target_.string() + ": no temporary folder to build the file in: " + ec.message();
  }
  return openTemporary(
      dir, ".ricochet-" + (standardOutput ? std::string("stdout") : target_.filename().string()));
}

std::string AtomicFile::openTemporary(const fs::path& dir, const std::string& name) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string unique = std::string(name.front() == '.' ? "" : ".") + name + ".tmp-" +
                               std::to_string(static_cast<long>(::getpid())) + "-" +
                               std::to_string(gTempCounter.fetch_add(1));
    temp_ = dir / unique;
    // "x": exclusive create (C11), so two writers never share a temporary file.
    file_ = std::fopen(temp_.c_str(), "wbx");
    if (file_) return {};
    if (errno != EEXIST) {
      const int err = errno;
      temp_.clear();
      discard();
      return target_.string() + ": cannot write: " + describeErrno(err);
    }
  }
  temp_.clear();
  discard();
  return target_.string() + ": cannot create a temporary file next to it";
}

std::string AtomicFile::write(std::string_view data) {
  if (!file_) return target_.string() + ": write to a file that is not open";
  if (data.empty()) return {};
  if (std::fwrite(data.data(), 1, data.size(), file_) != data.size()) {
    return target_.string() + ": write failed: " + describeErrno(errno);
  }
  return {};
}

std::string AtomicFile::commit() {
  if (!isOpen()) return target_.string() + ": commit of a file that is not open";
  std::string error;
  const auto failed = [&](const char* what) {
    if (error.empty()) error = target_.string() + ": " + what + ": " + describeErrno(errno);
  };
  if (file_ && std::fflush(file_) != 0) failed("write failed");
  if (kind_ == Kind::File && file_ && error.empty() && ::fsync(::fileno(file_)) != 0 &&
      errno != EINVAL) {
    failed("sync failed");
  }
  if (file_ && std::fclose(file_) != 0) failed("close failed");
  file_ = nullptr;

  if (error.empty() && kind_ == Kind::File) {
    std::error_code ec;
    fs::rename(temp_, resolved_, ec);
    if (ec) error = target_.string() + ": cannot move the finished file into place: " + ec.message();
  }
  if (error.empty() && stream_) {  // Writer::ByName to a stream: the finished file, copied in
    std::FILE* in = std::fopen(temp_.c_str(), "rb");
    if (!in) failed("cannot read the finished file back");
    char buffer[1 << 16];
    while (in && error.empty()) {
      const std::size_t n = std::fread(buffer, 1, sizeof buffer, in);
      if (n > 0 && std::fwrite(buffer, 1, n, stream_) != n) failed("write failed");
      if (n < sizeof buffer) {
        if (std::ferror(in)) failed("cannot read the finished file back");
        break;
      }
    }
    if (in) std::fclose(in);
    if (error.empty() && std::fflush(stream_) != 0) failed("write failed");
  }
  if (stream_ && std::fclose(stream_) != 0) failed("close failed");
  stream_ = nullptr;
  if (!temp_.empty() && (kind_ == Kind::Stream || !error.empty())) {
    std::error_code ignored;
    fs::remove(temp_, ignored);
  }
  temp_.clear();
  return error;
}

void AtomicFile::closeFiles() {
  for (std::FILE** f : {&file_, &stream_}) {
    if (*f) {
      std::fclose(*f);
      *f = nullptr;
    }
  }
}

void AtomicFile::discard() {
  // Free the temporary file's space now, even if another handle on it stays open (a library that
  // failed to close its file): a full disk gets its space back with the refusal.
  if (file_ && !temp_.empty()) (void)::ftruncate(::fileno(file_), 0);
  closeFiles();
  if (!temp_.empty()) {
    std::error_code ignored;
    fs::remove(temp_, ignored);
    temp_.clear();
  }
}

std::string writeFileAtomically(const fs::path& path, std::string_view content) {
  AtomicFile f;
  std::string error = f.open(path);
  if (error.empty()) error = f.write(content);
  if (error.empty()) error = f.commit();
  return error;
}

}  // namespace ricochet::io
