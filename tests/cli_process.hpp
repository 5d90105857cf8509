#pragma once
// ricochet-cli run as a separate process, exactly as scripts use it: exit code, stdout, stderr.

#include <QProcess>
#include <QString>
#include <QStringList>

namespace {

struct Result {
  int exitCode = -1;  ///< -1 when the process crashed or did not finish
  QString out;
  QString err;
};

/// Runs build/bin/ricochet-cli with `args` (in `workDir` when given); gives up after 120 s.
inline Result cli(const QStringList& args, const QString& workDir = QString()) {
  QProcess p;
  p.setProgram(QStringLiteral(RICOCHET_BINARY_DIR "/bin/ricochet-cli"));
  p.setArguments(args);
  if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
  p.start();
  Result r;
  if (!p.waitForFinished(120000)) {
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

}  // namespace
