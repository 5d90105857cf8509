#pragma once
// ricochet-cli run as a separate process, exactly as scripts use it: exit code, stdout, stderr.
// The one runner of every suite that drives the CLI.

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace {

struct Result {
  int exitCode = -1;  ///< -1 when the process crashed or did not finish
  QString out;
  QString err;
};

struct CliOptions {
  QString workDir;          ///< empty: the test's working directory
  int timeoutMs = 120000;   ///< then the process is killed and the result says so
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
};

/// bin/ricochet-cli of this build.
inline QString cliPath() { return QStringLiteral(RICOCHET_BINARY_DIR "/bin/ricochet-cli"); }

/// Runs ricochet-cli with `args` and waits for it (at most options.timeoutMs).
inline Result cli(const QStringList& args, const CliOptions& options) {
  QProcess p;
  p.setProgram(cliPath());
  p.setArguments(args);
  p.setProcessEnvironment(options.env);
  if (!options.workDir.isEmpty()) p.setWorkingDirectory(options.workDir);
  p.start();
  Result r;
  if (!p.waitForFinished(options.timeoutMs)) {
    p.kill();
    p.waitForFinished();
    r.err = QStringLiteral("ricochet-cli did not finish: ") + args.join(' ');
    return r;
  }
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

/// The same in `workDir` (empty: the test's working directory), up to 120 s.
inline Result cli(const QStringList& args, const QString& workDir = QString()) {
  CliOptions options;
  options.workDir = workDir;
  return cli(args, options);
}

/// "exit N", then the ends of stdout and stderr: for failure messages.
inline QString describeResult(const Result& r) {
  return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out.right(600), r.err);
}

}  // namespace
