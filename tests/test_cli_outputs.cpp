// ricochet-cli's outputs and endings, against the real binary: `--csv -` (and /dev/stdout) pipes
// the trace with the summary line on stderr; a FIFO and /dev/null are written directly and stay
// what they are; a symbolic link is written through (CSV, HDF5, summary, ParaView series); a
// directory is refused; SIGTERM and SIGINT stop `run` (and `convergence`) cleanly with 143 and 130
// and nothing left behind; a full disk (a file size limit, and a small tmpfs where one can be
// mounted) is exit 2 with one line; a creeping pendulum ends "ok" with its energy warning.

#include "cli_process.hpp"

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <filesystem>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Every name in `dir`, hidden temporaries included.
QStringList entries(const QString& dir) {
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                             QDir::Name);
}

mode_t typeOf(const QString& path) {
  struct stat st {};
  return ::lstat(path.toLocal8Bit().constData(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

/// The lines of `text` that are not empty.
QStringList lines(const QString& text) {
  return text.split('\n', Qt::SkipEmptyParts);
}

const QStringList kShortRun = {"run", "particle-floor", "--steps", "100"};

/// ricochet-cli under `sh` with a file size limit of `kib` KiB and SIGXFSZ ignored, so a write past
/// the limit fails with EFBIG, as on a full disk.
Result cliWithFileLimit(int kib, const QStringList& args, const QString& workDir) {
  QStringList quoted;
  for (const QString& a : QStringList{cliPath()} + args) quoted << "'" + a + "'";
  QProcess p;
  p.setWorkingDirectory(workDir);
  p.start(
      "/bin/sh",
      {"-c", QStringLiteral("ulimit -f %1; trap '' XFSZ; exec %2").arg(kib).arg(quoted.join(' '))});
  Result r;
  if (!p.waitForFinished(120000)) {
    p.kill();
    p.waitForFinished();
    return r;
  }
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

}  // namespace

class TestCliOutputs : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  QString file(const QString& name) const { return tmp_.filePath(name); }

  /// Runs `args` in a fresh folder of its own, sends `signal` once `started` holds (checked every
  /// 20 ms, 30 s at most) and returns how it ended and what the folder holds then.
  template <typename Started>
  std::pair<Result, QStringList> interrupted(const QString& dir, const QStringList& args,
                                             int signal, Started started) {
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(cliPath(), args);
    Result r;
    if (!p.waitForStarted(10000)) return {r, {}};
    for (int i = 0; i < 1500 && !started() && p.state() == QProcess::Running; ++i) QTest::qWait(20);
    ::kill(static_cast<pid_t>(p.processId()), signal);
    if (!p.waitForFinished(30000)) {
      p.kill();
      p.waitForFinished();
      return {r, {}};
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return {r, entries(dir)};
  }

 private slots:
  void init() {
    for (const QString& name : entries(tmp_.path()))
      fs::remove_all(fs::path(file(name).toStdString()));
  }

  // `--csv -` and `--csv /dev/stdout`: the trace on stdout, byte for byte the file's; the run's
  // summary line on stderr.
  void theTraceGoesToStdout() {
    const Result toFile = cli(kShortRun + QStringList{"--csv", file("trace.csv")});
    QCOMPARE(toFile.exitCode, 0);
    const QByteArray trace = readAll(file("trace.csv"));
    QVERIFY(trace.startsWith("step,t,energy,") && trace.count('\n') == 102);
    for (const QString& name : {QStringLiteral("-"), QStringLiteral("/dev/stdout")}) {
      const Result r = cli(kShortRun + QStringList{"--csv", name}, tmp_.path());
      QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
      QCOMPARE(r.out.toUtf8(), trace);
      QCOMPARE(lines(r.err).size(), 1);
      QVERIFY2(r.err.startsWith("particle-floor variational h=0.01: 100 steps") &&
                   r.err.endsWith(": ok\n"),
               qPrintable(r.err));
    }
    QCOMPARE(entries(tmp_.path()), QStringList{"trace.csv"});  // no file named "-"
    // The impacts and the summary JSON may go there too; two outputs on stdout are refused.
    const Result summary = cli(kShortRun + QStringList{"--summary-json", "-"}, tmp_.path());
    QCOMPARE(summary.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(summary.out.toUtf8()).object()["steps"].toInt(), 100);
    const Result both = cli(kShortRun + QStringList{"--csv", "-", "--impacts-csv", "/dev/stdout"}, tmp_.path());
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains("--csv and --impacts-csv name the same file"), qPrintable(both.err));
  }

  // A FIFO gets the trace directly and is still a FIFO afterwards (it used to be replaced by a
  // regular file, and its reader got nothing).
  void aFifoIsWrittenDirectly() {
    const QString fifo = file("trace.fifo");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    // The read end, and a write end of the test's own so that reads see no end of file until the
    // run is over; 100 rows fit in the pipe's buffer.
    const int readEnd = ::open(fifo.toLocal8Bit().constData(), O_RDONLY | O_NONBLOCK);
    const int keepOpen = ::open(fifo.toLocal8Bit().constData(), O_WRONLY | O_NONBLOCK);
    QVERIFY(readEnd >= 0 && keepOpen >= 0);
    const Result r = cli(kShortRun + QStringList{"--csv", fifo});
    ::close(keepOpen);
    QByteArray got;
    char buffer[4096];
    for (ssize_t n; (n = ::read(readEnd, buffer, sizeof buffer)) > 0;) got.append(buffer, int(n));
    ::close(readEnd);
    QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
    QCOMPARE(typeOf(fifo), mode_t(S_IFIFO));
    QVERIFY(r.out.startsWith("particle-floor variational"));  // a FIFO is not stdout
    QVERIFY(cli(kShortRun + QStringList{"--csv", file("trace.csv")}).exitCode == 0);
    QCOMPARE(got, readAll(file("trace.csv")));
    QCOMPARE(entries(tmp_.path()), (QStringList{"trace.csv", "trace.fifo"}));
  }

  // As root, `--csv /dev/null` used to replace the system's null device with a regular file.
  void devNullStaysTheNullDevice() {
    struct stat before {};
    QCOMPARE(::stat("/dev/null", &before), 0);
    const Result r = cli(kShortRun + QStringList{"--csv", "/dev/null", "--impacts-csv", "/dev/null",
                                                 "--summary-json", "/dev/null"});
    QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
    struct stat after {};
    QCOMPARE(::stat("/dev/null", &after), 0);
    QVERIFY(S_ISCHR(after.st_mode));
    QCOMPARE(after.st_rdev, before.st_rdev);
    QCOMPARE(after.st_ino, before.st_ino);
  }

  // Links stay links: each output replaces the file (or folder) its link names, next to it.
  void symbolicLinksAreWrittenThrough() {
    QVERIFY(QDir(tmp_.path()).mkdir("data"));
    const QStringList outputs = {"trace.csv", "run.h5", "summary.json", "series"};
    for (const QString& o : outputs) {
      QVERIFY(
          QFile::link("data/" + o, file("link-" + o)));  // dangling: the outputs do not exist yet
    }
    const QStringList args = kShortRun + QStringList{"--csv",          file("link-trace.csv"),
                                                     "--h5",           file("link-run.h5"),
                                                     "--summary-json", file("link-summary.json"),
                                                     "--pvd",          file("link-series")};
    for (int pass = 0; pass < 2; ++pass) {  // creates them, then replaces them
      const Result r = cli(args);
      QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
      for (const QString& o : outputs) {
        QCOMPARE(typeOf(file("link-" + o)), mode_t(S_IFLNK));
        QCOMPARE(QFile::symLinkTarget(file("link-" + o)), file("data/" + o));
      }
      QCOMPARE(typeOf(file("data/series")), mode_t(S_IFDIR));
      QVERIFY(QFile::exists(file("data/series/run.pvd")));
      QCOMPARE(entries(file("data")),
               (QStringList{"run.h5", "series", "summary.json", "trace.csv"}));
    }
    QVERIFY(readAll(file("data/trace.csv")).startsWith("step,t,"));
    QVERIFY(readAll(file("data/run.h5")).startsWith("\x89HDF"));
  }

  void aDirectoryIsRefused() {
    QVERIFY(QDir(tmp_.path()).mkdir("folder"));
    for (const char* option : {"--csv", "--impacts-csv", "--summary-json", "--h5"}) {
      const Result r = cli(kShortRun + QStringList{option, file("folder")});
      QCOMPARE(r.exitCode, 2);
      QCOMPARE(
          r.err,
          "ricochet-cli: " + file("folder") +
              ": is a directory; an output must be a regular file, a FIFO or a character device\n");
    }
    const Result pvd = cli(kShortRun + QStringList{"--pvd", "/dev/null"});
    QCOMPARE(pvd.exitCode, 2);
    QCOMPARE(pvd.err, QStringLiteral("ricochet-cli: /dev/null: exists and is not a folder\n"));
  }

  // SIGTERM (kill, timeout, Slurm's scancel) stops `run` as SIGINT does: between steps, the
  // temporaries removed (the ParaView series' hidden folder of frames included), exit 143 (130).
  void signalsStopARunAndLeaveNothing() {
    for (int signal : {SIGTERM, SIGINT}) {
      const QString dir = file(signal == SIGTERM ? "term" : "int");
      QVERIFY(QDir().mkpath(dir));
      const auto [r, left] = interrupted(
          dir,
          {"run", "particle-floor", "--steps", "2000000000", "--csv", "trace.csv", "--impacts-csv",
           "impacts.csv", "--h5", "run.h5", "--summary-json", "summary.json", "--pvd", "series"},
          signal, [&] {  // frames are being written
            for (const QString& e : entries(dir)) {
              if (e.startsWith(".series.tmp") && entries(dir + "/" + e).size() > 20) return true;
            }
            return false;
          });
      QCOMPARE(r.exitCode, signal == SIGTERM ? 143 : 130);
      QCOMPARE(lines(r.err).size(), 1);
      QVERIFY2(r.err.startsWith(signal == SIGTERM
                                    ? "ricochet-cli: interrupted (SIGTERM): cancelled at step "
                                    : "ricochet-cli: interrupted (SIGINT): cancelled at step ") &&
                   r.err.endsWith("; no file written\n"),
               qPrintable(r.err));
      QCOMPARE(left, QStringList());
    }
    // The built-in studies as well.
    const QString dir = file("convergence");
    QVERIFY(QDir().mkpath(dir));
    const auto [c, left] = interrupted(dir,
                                       {"convergence", "cube-plane", "--at", "2000", "--h0", "0.01",
                                        "--levels", "3", "--out", "c.csv", "--jobs", "1"},
                                       SIGTERM, [&] { return !entries(dir).isEmpty(); });
    QCOMPARE(c.exitCode, 143);
    QVERIFY2(
        c.err.contains("ricochet-cli: interrupted (SIGTERM): convergence stopped; no file written"),
        qPrintable(c.err));
    QCOMPARE(left, QStringList());
  }

  // A full disk, or a file past the size limit: exit 2, one line naming the file and the reason, no
  // file and no temporary file. The HDF5 file used to crash the process after its message (HDF5's
  // exit handler on a file whose close had failed), VTK's writer to print its own report first.
  void aFullDiskIsOneLine() {
    struct Case {
      QString option, output, reason;
    };
    const QList<Case> cases = {{"--h5", "run.h5", "write failed: File too large"},
                               {"--csv", "trace.csv", "write failed: File too large"},
                               {"--pvd", "series", "cannot write run_0"}};
    for (const Case& c : cases) {
      const QString dir = file("limit" + c.option);
      QVERIFY(QDir().mkpath(dir));
      const Result r = cliWithFileLimit(
          64, {"run", "particle-floor", "--steps", "200000", c.option, c.output}, dir);
      QVERIFY2(r.exitCode == 2, qPrintable(describeResult(r)));
      QCOMPARE(lines(r.err).size(), 1);
      QVERIFY2(r.err.startsWith("ricochet-cli: " + c.output + ": ") && r.err.contains(c.reason),
               qPrintable(r.err));
      QCOMPARE(entries(dir), QStringList());
    }
    // A real full file system, where the test may mount a small tmpfs (as root).
    const QString full = file("full");
    QVERIFY(QDir().mkpath(full));
    if (::mount("tmpfs", full.toLocal8Bit().constData(), "tmpfs", 0, "size=256k") != 0) return;
    struct Unmount {
      QByteArray path;
      ~Unmount() { ::umount(path.constData()); }
    } unmount{full.toLocal8Bit()};
    for (const Case& c : cases) {
      const Result r =
          cli({"run", "particle-floor", "--steps", "200000", c.option, c.output}, full);
      QVERIFY2(r.exitCode == 2, qPrintable(describeResult(r)));
      QCOMPARE(lines(r.err).size(), 1);
      QVERIFY2(r.err.contains("No space left on device"), qPrintable(r.err));
      QCOMPARE(entries(full), QStringList());
    }
  }

  // P000's rectangle scheme over 100 s (1e5 steps at its default h): max |dE/E0| = 0.15, beyond its
  // bound of 0.05. Status ok and exit 0 as before, and the line and the summary say not to trust
  // it.
  void aCreepingPendulumEndsWithAWarning() {
    const Result r =
        cli({"run", "pendulum-cylinder", "--steps", "100000", "--summary-json", file("s.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
    QVERIFY2(r.out.contains(": ok (warning: energy error max |dE/E0| = 0.15 is beyond 0.05") &&
                 r.out.endsWith("for long runs use variational-midpoint)\n"),
             qPrintable(r.out));
    const QJsonObject s = QJsonDocument::fromJson(readAll(file("s.json"))).object();
    QCOMPARE(s["status"].toString(), QStringLiteral("ok"));
    QVERIFY(s["warning"].toString().startsWith("energy error max |dE/E0| = 0.15"));
    const Result fine = cli({"run", "pendulum-cylinder", "--summary-json", file("fine.json")});
    QCOMPARE(fine.exitCode, 0);
    QVERIFY(fine.out.endsWith(": ok\n"));
    QCOMPARE(QJsonDocument::fromJson(readAll(file("fine.json"))).object()["warning"].toString(),
             QString());
  }

  // A study's results and a built-in study's CSV to stdout: the data there, the reports on stderr.
  void studiesToStdout() {
    QFile study(file("study.json"));
    QVERIFY(study.open(QIODevice::WriteOnly));
    study.write(
        R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "particle-floor"},
      "vary": [{"name": "y0", "linspace": [1, 2, 5]}], "steps": 50})");
    study.close();
    QCOMPARE(cli({"study", file("study.json"), "--out", file("r.csv"), "--quiet"}).exitCode, 0);
    const Result r = cli({"study", file("study.json"), "--out", "-", "--quiet"});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.toUtf8(), readAll(file("r.csv")));
    QVERIFY2(r.err.startsWith("study: 5 runs, 0 failed"), qPrintable(r.err));
  }
};

QTEST_GUILESS_MAIN(TestCliOutputs)
#include "test_cli_outputs.moc"
