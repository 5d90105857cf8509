#include "app/desktop/export/export_animation.hpp"

#include "app/desktop/run/run_source.hpp"
#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace ricochet::app {

namespace {
constexpr int kKillAfterMs = 5000;  // SIGTERM grace period before SIGKILL

constexpr SizePreset kSizes[] = {{"640 \u00d7 360", 640, 360},
                                 {"854 \u00d7 480", 854, 480},
                                 {"1280 \u00d7 720 (HD)", 1280, 720},
                                 {"1920 \u00d7 1080 (Full HD)", 1920, 1080},
                                 {"480 \u00d7 480 (square)", 480, 480}};

QString number(double x) { return QString::fromStdString(formatNumber(x)); }

// The video's frame count, as ricochet-cli computes it: N = round(T * fps / speed).
std::int64_t frameCount(double duration, double fps, double speed) {
  const double n = std::round(duration * fps / speed);
  return std::isfinite(n) && n >= 0 && n < 1e12 ? std::int64_t(n) : -1;
}
}  // namespace

QString extensionOf(AnimationFormat format) {
  switch (format) {
    case AnimationFormat::Mp4: return QStringLiteral("mp4");
    case AnimationFormat::Gif: return QStringLiteral("gif");
    case AnimationFormat::Ogv: return QStringLiteral("ogv");
    case AnimationFormat::PngSequence: return QStringLiteral("png");
  }
  return {};
}

bool needsFfmpeg(AnimationFormat format) {
  return format == AnimationFormat::Mp4 || format == AnimationFormat::Gif;
}

bool ffmpegAvailable() { return !QStandardPaths::findExecutable(QStringLiteral("ffmpeg")).isEmpty(); }

QStringList videoArguments(const AnimationRequest& r, const QString& scenarioFile) {
  QStringList a{QStringLiteral("video"), scenarioFile,
                QStringLiteral("--out"), r.output,
                QStringLiteral("--width"), QString::number(r.width),
                QStringLiteral("--height"), QString::number(r.height),
                QStringLiteral("--fps"), number(r.fps),
                QStringLiteral("--t-end"), number(r.duration),
                QStringLiteral("--speed"), number(r.speed)};
  if (!r.overlay) a << QStringLiteral("--no-overlay");
  if (!r.follow) a << QStringLiteral("--no-follow");
  return a;
}

// ---------------------------------------------------------------------------------------------

AnimationExportTask::AnimationExportTask(QObject* parent) : ExportJob(parent) {
  program_ = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("ricochet-cli"));
  if (!QFileInfo(program_).isExecutable()) {
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("ricochet-cli"));
    if (!onPath.isEmpty()) program_ = onPath;
  }
  killTimer_ = new QTimer(this);
  killTimer_->setSingleShot(true);
  killTimer_->setInterval(kKillAfterMs);
  connect(killTimer_, &QTimer::timeout, this, [this] {
    if (!isRunning()) return;
    killed_ = true;
    process_->kill();
  });
}

AnimationExportTask::~AnimationExportTask() {
  if (isRunning()) {
    process_->disconnect(this);
    process_->terminate();
    if (!process_->waitForFinished(kKillAfterMs)) {
      process_->kill();
      process_->waitForFinished(1000);
      removeLeftovers();
    }
  }
}

QString AnimationExportTask::start(const AnimationRequest& request) {
  if (isRunning()) return tr("an animation export is already running");
  if (!QFileInfo(program_).isExecutable()) {
    return tr("ricochet-cli was not found next to this program (%1): it renders the animation")
        .arg(program_);
  }
  if (request.output.isEmpty()) return tr("no output file chosen");
  scenarioDir_ = std::make_unique<QTemporaryDir>();
  if (!scenarioDir_->isValid()) return tr("cannot create a temporary folder: %1").arg(scenarioDir_->errorString());
  const QString scenarioFile = scenarioDir_->filePath(QStringLiteral("scenario.json"));
  if (const std::string e = io::saveScenario(QFile::encodeName(scenarioFile).toStdString(), request.scenario);
      !e.empty()) {
    return QString::fromStdString(e);
  }

  request_ = request;
  cancelled_ = killed_ = false;
  framesDone_ = framesTotal_ = 0;
  simTime_ = 0.0;
  stdout_.clear();
  errorText_.clear();
  summary_.clear();
  exitCode_ = 0;
  outcome_ = Outcome::Completed;
  const QDir outDir = QFileInfo(request.output).absoluteDir();
  entriesBefore_ = outDir.entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);

  delete process_;
  process_ = new QProcess(this);
  process_->setProgram(program_);
  process_->setArguments(videoArguments(request, scenarioFile));
  connect(process_, &QProcess::readyReadStandardOutput, this, &AnimationExportTask::readOutput);
  connect(process_, &QProcess::finished, this, &AnimationExportTask::onFinished);
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) onFinished(-1, QProcess::CrashExit);
  });
  process_->start();
  pid_ = process_->processId();
  return {};
}

void AnimationExportTask::cancel() {
  if (!isRunning() || cancelled_) return;
  cancelled_ = true;
  process_->terminate();  // SIGTERM: the command stops between frames and removes its output
  killTimer_->start();
}

void AnimationExportTask::readOutput() {
  stdout_ += process_->readAllStandardOutput();
  qsizetype end;
  while ((end = stdout_.indexOf('\n')) >= 0) {
    const QByteArray line = stdout_.left(end).trimmed();
    stdout_.remove(0, end + 1);
    // "progress DONE TOTAL T" (ricochet-cli video's machine-readable lines).
    const QList<QByteArray> parts = line.split(' ');
    if (parts.size() == 4 && parts[0] == "progress") {
      bool ok1 = false, ok2 = false, ok3 = false;
      const qint64 done = parts[1].toLongLong(&ok1);
      const qint64 total = parts[2].toLongLong(&ok2);
      const double t = parts[3].toDouble(&ok3);
      if (ok1 && ok2 && ok3) {
        framesDone_ = done;
        framesTotal_ = total;
        simTime_ = t;
        emit progressed(done, total,
                        tr("Frame %1 of %2 (t = %3 s)").arg(done).arg(total).arg(t, 0, 'f', 2));
      }
    } else if (!line.isEmpty()) {
      summary_ = QString::fromUtf8(line);
    }
  }
}

void AnimationExportTask::onFinished(int exitCode, QProcess::ExitStatus status) {
  killTimer_->stop();
  if (process_ && process_->state() == QProcess::NotRunning) {
    readOutput();
    errorText_ = QString::fromUtf8(process_->readAllStandardError()).trimmed();
  }
  exitCode_ = exitCode;
  if (killed_) removeLeftovers();
  if (cancelled_) {
    outcome_ = Outcome::Cancelled;
  } else if (status == QProcess::NormalExit && exitCode == 0) {
    outcome_ = Outcome::Completed;
  } else if (status == QProcess::NormalExit && exitCode == 3) {
    outcome_ = Outcome::IntegratorFailed;  // the frames up to the failure are in a finalised file
  } else {
    outcome_ = Outcome::Failed;
    if (errorText_.isEmpty()) {
      errorText_ = status == QProcess::CrashExit && exitCode == -1 && process_
                       ? tr("%1 could not run: %2").arg(program_, process_->errorString())
                       : tr("ricochet-cli video ended with exit code %1").arg(exitCode);
    }
  }
  scenarioDir_.reset();
  emit finished();
}

ExportReport AnimationExportTask::report() const {
  const QString name = QFileInfo(request_.output).fileName();
  using O = ExportReport::Outcome;
  switch (outcome_) {
    case Outcome::Completed:
      return {O::Completed, tr("Exported %1 (%2 frames)").arg(name).arg(framesTotal_), {}, {}};
    case Outcome::IntegratorFailed:
      return {O::StoppedAtFailure, tr("Exported up to the failure: %1").arg(errorText_),
              tr("Animation export"),
              tr("The run failed during the animation; %1 holds the frames up to the failure.\n\n%2")
                  .arg(name, errorText_)};
    case Outcome::Cancelled:
      return {O::Cancelled, tr("Animation export cancelled; no file written"), {}, {}};
    case Outcome::Failed:
      break;
  }
  QString text = errorText_;  // the command's message, verbatim
  if (text.contains(QStringLiteral("ffmpeg"))) {
    text += tr("\n\nOgg/Theora (.ogv) needs no external program.");
  }
  return {O::Failed, tr("Animation export failed: %1").arg(errorText_), tr("Animation export failed"),
          text};
}

void AnimationExportTask::removeLeftovers() {
  // The command was killed before it could clean up: remove what it had started to write in the
  // output's folder - its temporary file (".NAME.tmp-PID-N", core/io AtomicFile) or its frames
  // folder (".ricochet-frames-XXXXXX") - never anything that was there before.
  const QFileInfo out(request_.output);
  QDir dir = out.absoluteDir();
  const QString tempPrefix = QStringLiteral(".%1.tmp-%2-").arg(out.fileName()).arg(pid_);
  for (const QString& name : dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)) {
    if (entriesBefore_.contains(name)) continue;
    const bool ours = name.startsWith(tempPrefix) || name.startsWith(QStringLiteral(".ricochet-frames-"));
    if (!ours) continue;
    const QString path = dir.filePath(name);
    if (QFileInfo(path).isDir()) {
      QDir(path).removeRecursively();
    } else {
      QFile::remove(path);
    }
  }
}

// ---------------------------------------------------------------------------------------------

AnimationExportDialog::AnimationExportDialog(const Scenario& scenario, double currentTime,
                                             const QString& directory, bool ffmpeg, QWidget* parent)
    : QDialog(parent), scenario_(scenario) {
  setObjectName(QStringLiteral("animationExportDialog"));
  setWindowTitle(tr("Export Animation"));
  const QString system = QString::fromStdString(scenario.system);

  format_ = new QComboBox;
  format_->addItem(tr("MP4 video (H.264)"), int(AnimationFormat::Mp4));
  format_->addItem(tr("GIF animation"), int(AnimationFormat::Gif));
  format_->addItem(tr("Ogg/Theora video (built in)"), int(AnimationFormat::Ogv));
  format_->addItem(tr("PNG frame sequence"), int(AnimationFormat::PngSequence));
  note_ = new QLabel;
  note_->setWordWrap(true);
  if (!ffmpeg) {
    // Disabled entries of a QComboBox: through its model's item flags.
    for (int i = 0; i < 2; ++i) {
      format_->setItemData(i, 0, Qt::UserRole - 1);
      format_->setItemText(i, format_->itemText(i) + tr(" - needs ffmpeg"));
    }
    note_->setText(tr("The ffmpeg program was not found on PATH, so MP4 and GIF are not available; "
                      "Ogg/Theora needs no external program (install ffmpeg for MP4 and GIF)."));
  }

  path_ = new QLineEdit(QDir(directory).filePath(system + QStringLiteral(".mp4")));
  path_->setMinimumWidth(360);
  auto* browse = new QPushButton(tr("Browse..."));
  connect(browse, &QPushButton::clicked, this, [this] {
    if (format() == AnimationFormat::PngSequence) {
      const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for the frames"),
                                                            QFileInfo(path_->text()).absolutePath());
      if (!dir.isEmpty()) path_->setText(QDir(dir).filePath(QFileInfo(path_->text()).fileName()));
      return;
    }
    const QString ext = extensionOf(format());
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Animation file"), path_->text(), tr("%1 files (*.%2)").arg(ext.toUpper(), ext));
    if (!chosen.isEmpty()) path_->setText(chosen);
  });
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(path_, 1);
  pathRow->addWidget(browse);

  size_ = new SizePicker(kSizes, 2, 16, 8192);  // 1280 x 720

  fps_ = new QSpinBox;
  fps_->setRange(1, 240);
  fps_->setValue(30);
  fps_->setSuffix(tr(" frames/s"));

  duration_ = new QDoubleSpinBox;
  duration_->setDecimals(3);
  duration_->setRange(0.001, 1e6);
  duration_->setSuffix(tr(" s"));
  duration_->setValue(scenario.tEnd);
  duration_->setToolTip(tr("Simulated time to show, from the initial state"));
  auto* toNow = new QPushButton(tr("Current time"));
  toNow->setToolTip(tr("Up to the live run's simulated time (%1 s)").arg(currentTime));
  toNow->setEnabled(currentTime > 0.0);
  connect(toNow, &QPushButton::clicked, this, [this, currentTime] { duration_->setValue(currentTime); });
  auto* toEnd = new QPushButton(tr("t_end"));
  connect(toEnd, &QPushButton::clicked, this, [this] { duration_->setValue(scenario_.tEnd); });
  auto* durationRow = new QHBoxLayout;
  durationRow->addWidget(duration_, 1);
  durationRow->addWidget(toNow);
  durationRow->addWidget(toEnd);

  speed_ = new QDoubleSpinBox;
  speed_->setDecimals(3);
  speed_->setRange(0.001, 1000.0);
  speed_->setValue(1.0);
  speed_->setSuffix(QStringLiteral("\u00d7"));
  speed_->setToolTip(tr("Simulated seconds per second of video (0.5x: slow motion)"));

  overlay_ = new QCheckBox(tr("Title, time and impact count in a corner"));
  overlay_->setChecked(true);
  follow_ = new QCheckBox(tr("Camera follows the body"));
  follow_->setChecked(true);

  auto* form = new QFormLayout;
  form->addRow(tr("Format:"), format_);
  form->addRow(tr("File:"), pathRow);
  form->addRow(tr("Size:"), size_);
  form->addRow(tr("Frame rate:"), fps_);
  form->addRow(tr("Duration:"), durationRow);
  form->addRow(tr("Speed:"), speed_);
  form->addRow(QString(), overlay_);
  form->addRow(QString(), follow_);

  info_ = new QLabel;
  info_->setWordWrap(true);
  error_ = new QLabel;
  error_->setObjectName(QStringLiteral("animationError"));
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #b3261e;"));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  auto* head = new QLabel(tr("Renders the current scenario from its initial state on the simulation "
                             "clock (a fixed simulated time per frame, so the video's timing is "
                             "true), with <tt>ricochet-cli video</tt>. The live view keeps running."));
  head->setWordWrap(true);
  layout->addWidget(head);
  layout->addLayout(form);
  layout->addWidget(info_);
  layout->addWidget(note_);
  layout->addWidget(error_);
  layout->addWidget(buttons);

  connect(format_, &QComboBox::currentIndexChanged, this, &AnimationExportDialog::onFormatChanged);
  connect(fps_, &QSpinBox::valueChanged, this, &AnimationExportDialog::updateInfo);
  connect(size_, &SizePicker::changed, this, &AnimationExportDialog::updateInfo);
  for (QDoubleSpinBox* b : {duration_, speed_}) {
    connect(b, &QDoubleSpinBox::valueChanged, this, &AnimationExportDialog::updateInfo);
  }
  setFormat(ffmpeg ? AnimationFormat::Mp4 : AnimationFormat::Ogv);
  // The format and duration chosen last time (a format that needs a missing ffmpeg excepted).
  QSettings settings;
  const QVariant savedFormat = settings.value(QStringLiteral("export/animationFormat"));
  if (savedFormat.isValid()) {
    const int i = format_->findData(savedFormat.toInt());
    const QVariant flags = format_->itemData(i, Qt::UserRole - 1);  // 0: disabled (no ffmpeg)
    if (i >= 0 && !(flags.isValid() && flags.toInt() == 0)) setFormat(AnimationFormat(savedFormat.toInt()));
  }
  const double savedDuration = settings.value(QStringLiteral("export/animationDuration"), -1.0).toDouble();
  if (savedDuration > 0.0) duration_->setValue(savedDuration);
  updateInfo();
}

AnimationFormat AnimationExportDialog::format() const {
  return AnimationFormat(format_->currentData().toInt());
}

void AnimationExportDialog::setFormat(AnimationFormat f) {
  format_->setCurrentIndex(format_->findData(int(f)));
  onFormatChanged();
}

void AnimationExportDialog::onFormatChanged() {
  // Keep the file name, change its extension (a PNG sequence gets a frame-number pattern).
  const QFileInfo current(path_->text());
  QString stem = current.completeBaseName();
  stem.remove(QRegularExpression(QStringLiteral("_?%0?[0-9]*d$")));
  if (stem.isEmpty()) stem = QString::fromStdString(scenario_.system);
  const QString name = format() == AnimationFormat::PngSequence
                           ? stem + QStringLiteral("_%05d.png")
                           : stem + QLatin1Char('.') + extensionOf(format());
  path_->setText(current.dir().filePath(name));
  updateInfo();
}

AnimationRequest AnimationExportDialog::request(QString* error) const {
  AnimationRequest r;
  r.scenario = scenario_;
  r.output = path_->text().trimmed();
  r.width = size_->value().width();
  r.height = size_->value().height();
  r.fps = fps_->value();
  r.duration = duration_->value();
  r.speed = speed_->value();
  r.overlay = overlay_->isChecked();
  r.follow = follow_->isChecked();
  r.scenario.tEnd = r.duration;  // the command shows t_end simulated seconds
  QString e;
  const AnimationFormat f = format();
  const QFileInfo out(r.output);
  if (r.output.isEmpty()) {
    e = tr("choose a file name");
  } else if (!out.absoluteDir().exists() && f != AnimationFormat::PngSequence) {
    // (A PNG sequence's folder is created when the dialog is accepted.)
    e = tr("%1: the folder %2 does not exist").arg(r.output, out.absolutePath());
  } else if ((f == AnimationFormat::Mp4 || f == AnimationFormat::Ogv) && (r.width % 2 || r.height % 2)) {
    e = tr("%1 x %2: MP4 and Ogg need an even width and height").arg(r.width).arg(r.height);
  } else if (f == AnimationFormat::PngSequence &&
             !out.fileName().contains(QRegularExpression(QStringLiteral("%0?[1-9]?d")))) {
    e = tr("%1: a PNG sequence needs a frame number pattern in the name, e.g. frame_%05d.png").arg(r.output);
  } else if (frameCount(r.duration, r.fps, r.speed) < 1) {
    e = tr("%1 s at %2 frames/s and %3x gives no frame").arg(r.duration).arg(r.fps).arg(r.speed);
  }
  if (error) *error = e;
  return r;
}

void AnimationExportDialog::updateInfo() {
  const std::int64_t n = frameCount(duration_->value(), fps_->value(), speed_->value());
  if (n < 0) {
    info_->clear();
    return;
  }
  info_->setText(tr("%1 frames, %2 s of video, about %4; frame k shows the state at t = k \u00d7 %3 s.")
                     .arg(n)
                     .arg(QString::number(double(n) / fps_->value(), 'g', 6))
                     .arg(QString::number(speed_->value() / fps_->value(), 'g', 4))
                     .arg(formatBytes(estimatedBytes())));
}

void AnimationExportDialog::accept() {
  QString e;
  const AnimationRequest r = request(&e);
  if (!e.isEmpty()) {
    error_->setText(e);
    return;
  }
  const AnimationFormat f = format();
  // A PNG sequence's first frame stands for the sequence when asking before overwriting.
  QString first = r.output;
  if (f == AnimationFormat::PngSequence) {
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("%(0?)([1-9]?)d")).match(first);
    if (m.hasMatch()) {
      const int width = m.captured(2).isEmpty() ? 1 : m.captured(2).toInt();
      first.replace(m.capturedStart(), m.capturedLength(), QStringLiteral("0").repeated(width));
    }
  }
  if (!confirmTargets(this, {{first}, estimatedBytes()})) return;
  const QFileInfo out(r.output);
  if (f == AnimationFormat::PngSequence && !out.absoluteDir().exists()) {
    if (!QDir().mkpath(out.absolutePath())) {
      error_->setText(tr("%1: the folder %2 does not exist and cannot be created")
                          .arg(r.output, QDir::toNativeSeparators(out.absolutePath())));
      return;
    }
  }
  QSettings settings;
  settings.setValue(QStringLiteral("export/animationFormat"), int(f));
  settings.setValue(QStringLiteral("export/animationDuration"), r.duration);
  QDialog::accept();
}

qint64 AnimationExportDialog::estimatedBytes() const {
  const std::int64_t n = frameCount(duration_->value(), fps_->value(), speed_->value());
  if (n <= 0) return -1;
  // Bytes per pixel and frame, typical of these scenes: PNG ~1, GIF ~0.15, Ogg ~0.04, MP4 ~0.02.
  double perPixel = 0.02;
  switch (format()) {
    case AnimationFormat::PngSequence: perPixel = 1.0; break;
    case AnimationFormat::Gif: perPixel = 0.15; break;
    case AnimationFormat::Ogv: perPixel = 0.04; break;
    case AnimationFormat::Mp4: perPixel = 0.02; break;
  }
  const QSize size = size_->value();
  return qint64(double(n) * double(size.width()) * double(size.height()) * perPixel);
}

// ---------------------------------------------------------------------------------------------

AnimationExporter::AnimationExporter(QMainWindow* window, const RunSource* source)
    : QObject(window), window_(window), source_(source) {
  task_ = new AnimationExportTask(this);
  controller_ = new ExportController(
      window, task_,
      {tr("Animation export"), tr("Export Animation"), tr("An animation export is already running"),
       QStringLiteral("export/animationDirectory"), QStringLiteral("animationProgress")});
  connect(controller_, &ExportController::finished, this, &AnimationExporter::finished);
}

AnimationExportDialog* AnimationExporter::dialog() const {
  return qobject_cast<AnimationExportDialog*>(controller_->dialog());
}

void AnimationExporter::showDialog() {
  const RunInfoPtr run = source_->currentRun();
  if (!run || !controller_->ready()) return;
  const SnapshotPtr snap = source_->lastSnapshot();
  const double now = snap && snap->generation == run->generation ? snap->t : 0.0;
  auto* dialog = new AnimationExportDialog(run->scenario, now, controller_->directory(),
                                           ffmpegAvailable(), window_);
  controller_->openDialog(dialog, [this, dialog] {
    const AnimationRequest r = dialog->request();
    controller_->rememberDirectory(r.output);
    start(r);
  });
}

QString AnimationExporter::start(const AnimationRequest& request) {
  // Busy until the command's first progress line gives the frame count; shown at once.
  return controller_->start([&] { return task_->start(request); },
                            tr("Rendering %1...").arg(QFileInfo(request.output).fileName()), 0, 0);
}

void AnimationExporter::cancel() { controller_->cancel(); }

}  // namespace ricochet::app
