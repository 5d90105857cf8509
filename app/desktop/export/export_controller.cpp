#include "app/desktop/export/export_controller.hpp"

#include "app/desktop/widgets/notify.hpp"
#include "core/io/atomic_file.hpp"

#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMessageBox>
#include <QProgressDialog>
#include <QScopeGuard>
#include <QSettings>
#include <QStatusBar>

#include <algorithm>
#include <string_view>
#include <utility>

namespace ricochet::app {

ExportController::ExportController(QMainWindow* window, ExportJob* job, Words words)
    : QObject(window), window_(window), job_(job), words_(std::move(words)) {
  connect(job_, &ExportJob::progressed, this, &ExportController::onProgress);
  connect(job_, &ExportJob::finished, this, &ExportController::onFinished);
}

QString ExportController::directory() const {
  const QString dir = QSettings().value(words_.directoryKey).toString();
  return dir.isEmpty() || !QFileInfo(dir).isDir() ? QDir::homePath() : dir;
}

void ExportController::rememberDirectory(const QString& file) {
  QSettings().setValue(words_.directoryKey, QFileInfo(file).absolutePath());
}

bool ExportController::ready() {
  if (!job_->isRunning()) return true;
  window_->statusBar()->showMessage(words_.busy, 5000);
  return false;
}

void ExportController::openDialog(QDialog* dialog, std::function<void()> accepted) {
  if (dialog_) dialog_->deleteLater();
  dialog_ = dialog;
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QDialog::accepted, this, [this, accepted = std::move(accepted)] {
    if (dialog_) accepted();
  });
  dialog->open();
}

QString ExportController::refuse(const QString& error) {
  window_->statusBar()->showMessage(tr("%1 refused: %2").arg(words_.name, error), 10000);
  showMessage(window_, QMessageBox::Warning, words_.name, error);
  return error;
}

QString ExportController::start(const std::function<QString()>& startJob, const QString& label,
                                qint64 total, int showAfterMs) {
  if (const QString error = startJob(); !error.isEmpty()) return refuse(error);
  if (!job_->isRunning()) return {};  // it ended at once (and was reported)
  if (!progress_) {
    progress_ = new QProgressDialog(window_);
    progress_->setObjectName(words_.progressName);
    progress_->setWindowTitle(words_.title);
    progress_->setAutoClose(false);
    progress_->setAutoReset(false);
    progress_->setWindowModality(Qt::NonModal);  // the live view and the editors stay usable
    connect(progress_, &QProgressDialog::canceled, this, &ExportController::cancel);
  }
  progress_->setRange(0, int(std::min(total, kMaxProgressSteps)));  // 0: busy until known
  progress_->setLabelText(label);
  progress_->setValue(0);
  progress_->setMinimumDuration(showAfterMs);
  if (showAfterMs <= 0) progress_->show();
  return {};
}

QString ExportController::runOnGuiThread(const std::function<QString()>& startJob) {
  QString error;
  {
    // Qt sends the cursor to the X server at once, before the GUI thread gets busy.
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    const auto restore = qScopeGuard([] { QGuiApplication::restoreOverrideCursor(); });
    holdReport_ = true;
    error = startJob();
    holdReport_ = false;
  }
  if (!error.isEmpty()) return refuse(error);
  if (std::exchange(reportHeld_, false)) onFinished();  // reported with the usual cursor back
  return {};
}

void ExportController::cancel() {
  if (!job_->isRunning()) return;
  job_->cancel();
  if (progress_) progress_->setLabelText(tr("Cancelling..."));
}

void ExportController::onProgress(qint64 done, qint64 total, const QString& label) {
  if (!progress_) return;
  if (total > 0) {
    const qint64 steps = std::min(total, kMaxProgressSteps);
    progress_->setMaximum(int(steps));
    const qint64 value = total == steps ? done : qint64(double(done) / double(total) * double(steps));
    progress_->setValue(int(std::clamp<qint64>(value, 0, steps)));
  }
  if (!label.isEmpty()) progress_->setLabelText(label);
}

void ExportController::onFinished() {
  if (holdReport_) {
    reportHeld_ = true;
    return;
  }
  if (progress_) {
    progress_->reset();  // stops its show timer
    progress_->hide();
  }
  const ExportReport r = job_->report();
  const bool cancelled = r.outcome == ExportReport::Outcome::Cancelled;
  window_->statusBar()->showMessage(r.status, cancelled ? 5000 : 10000);
  if (!r.text.isEmpty()) {
    const bool failed = r.outcome == ExportReport::Outcome::Failed;
    showMessage(window_, failed ? QMessageBox::Warning : QMessageBox::Information, r.title, r.text);
  }
  emit finished();
}

QString formatBytes(qint64 bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB"};
  double v = double(std::max<qint64>(bytes, 0));
  int u = 0;
  while (v >= 1000.0 && u < 4) {
    v /= 1000.0;
    ++u;
  }
  return u == 0 ? QStringLiteral("%1 bytes").arg(bytes)
                : QStringLiteral("%1 %2").arg(QString::number(v, 'g', v < 10 ? 2 : 3), QString::fromLatin1(units[u]));
}

bool confirmTargets(QWidget* parent, const ExportTargets& targets) {
  QStringList existing;
  for (const QString& f : targets.files) {
    if (!f.isEmpty() && QFileInfo(f).isFile()) existing << QDir::toNativeSeparators(f);
  }
  if (!existing.isEmpty()) {
    const QString text = existing.size() == 1
                             ? QObject::tr("%1 already exists.\nDo you want to replace it?").arg(existing.front())
                             : QObject::tr("These files already exist:\n%1\nDo you want to replace them?")
                                   .arg(existing.join(QLatin1Char('\n')));
    QMessageBox box(QMessageBox::Warning, QObject::tr("Replace File"), text,
                    QMessageBox::Yes | QMessageBox::No, parent);
    box.setObjectName(QStringLiteral("overwriteQuestion"));
    box.setDefaultButton(QMessageBox::No);
    box.setWindowModality(Qt::WindowModal);
    if (box.exec() != QMessageBox::Yes) return false;
  }
  if (targets.estimatedBytes > kLargeExportBytes) {
    QMessageBox box(QMessageBox::Question, QObject::tr("Large Export"),
                    QObject::tr("This export will write about %1.\nDo you want to go on?")
                        .arg(formatBytes(targets.estimatedBytes)),
                    QMessageBox::Yes | QMessageBox::No, parent);
    box.setObjectName(QStringLiteral("largeExportQuestion"));
    box.setDefaultButton(QMessageBox::Yes);
    box.setWindowModality(Qt::WindowModal);
    if (box.exec() != QMessageBox::Yes) return false;
  }
  return true;
}

QString writeFileAtomically(const QString& path, const QByteArray& bytes) {
  const std::string error = io::writeFileAtomically(
      QFile::encodeName(path).toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
  return QString::fromStdString(error);
}

}  // namespace ricochet::app
