#pragma once
// Animation export from the desktop app: MP4 (H.264) and GIF through ffmpeg,
// Ogg/Theora (built in, the choice when ffmpeg is missing) and PNG frame sequences.
//
// The export is `ricochet-cli video` run as a child process (QProcess) on a temporary copy of the
// current scenario, so the video is bitwise the command line's, the frames are rendered on the
// simulation clock (frame k shows the state nearest t_k = k * speed / fps, README "Command line"),
// and the live view keeps working meanwhile. Progress comes from the command's machine-readable
// stdout lines ("progress DONE TOTAL T"); Cancel sends SIGTERM (the command removes its partial
// output; after 5 s without an exit it is killed and its temporary files are removed here). A
// failure shows the command's stderr verbatim. ExportController shows the dialog, the progress and
// the outcome.

#include "app/desktop/export/export_controller.hpp"
#include "app/desktop/widgets/size_picker.hpp"
#include "core/model/system.hpp"

#include <QDialog>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressDialog;
class QSpinBox;
class QTemporaryDir;
class QTimer;

namespace ricochet::app {

class RunSource;

enum class AnimationFormat { Mp4, Gif, Ogv, PngSequence };

/// "mp4", "gif", "ogv", "png" (the output's extension).
QString extensionOf(AnimationFormat format);
/// Whether the format is encoded by the external ffmpeg program (MP4, GIF).
bool needsFfmpeg(AnimationFormat format);
/// True when an `ffmpeg` program is on PATH (what ricochet-cli video looks up).
bool ffmpegAvailable();

struct AnimationRequest {
  Scenario scenario;
  /// FILE.mp4 | FILE.gif | FILE.ogv, or for a PNG sequence a pattern with one %0Nd in the file
  /// name (DIR/frame_%05d.png).
  QString output;
  int width = 1280;         ///< pixels (even for MP4 and Ogg)
  int height = 720;         ///< pixels
  double fps = 30.0;        ///< video frames per second
  double duration = 10.0;   ///< simulated seconds to show
  double speed = 1.0;       ///< simulated seconds per video second
  bool overlay = true;      ///< title, t and impacts in a corner
  bool follow = true;       ///< the camera follows the body
};

/// The `ricochet-cli video` arguments for `request`, reading the scenario from `scenarioFile`.
QStringList videoArguments(const AnimationRequest& request, const QString& scenarioFile);

/// One `ricochet-cli video` child process.
class AnimationExportTask : public ExportJob {
  Q_OBJECT
 public:
  enum class Outcome { Completed, IntegratorFailed, Cancelled, Failed };

  explicit AnimationExportTask(QObject* parent = nullptr);
  ~AnimationExportTask() override;  ///< cancels a running export (no file is left)

  /// The ricochet-cli program; default: the one next to this executable.
  void setProgram(const QString& path) { program_ = path; }
  QString program() const { return program_; }

  /// Writes the scenario to a temporary file and starts the command. Empty on success, otherwise
  /// one line (nothing started).
  QString start(const AnimationRequest& request);
  /// SIGTERM now, SIGKILL (and removal of its temporary files) if it has not exited in 5 s.
  void cancel() override;
  bool isRunning() const override { return process_ && process_->state() != QProcess::NotRunning; }

  std::int64_t framesDone() const { return framesDone_; }
  std::int64_t framesTotal() const { return framesTotal_; }
  double simulatedTime() const { return simTime_; }

  // After finished():
  Outcome outcome() const { return outcome_; }
  int exitCode() const { return exitCode_; }
  /// The command's stderr (trimmed): its one-line reason on a failure.
  QString errorText() const { return errorText_; }
  /// The command's last stdout line (its summary) on success.
  QString summaryLine() const { return summary_; }
  const AnimationRequest& request() const { return request_; }
  ExportReport report() const override;

 private:
  void readOutput();
  void onFinished(int exitCode, QProcess::ExitStatus status);
  void removeLeftovers();

  QString program_;
  QProcess* process_ = nullptr;
  std::unique_ptr<QTemporaryDir> scenarioDir_;
  QTimer* killTimer_ = nullptr;
  AnimationRequest request_;
  QStringList entriesBefore_;  // the output directory's hidden entries before the start
  qint64 pid_ = 0;
  bool cancelled_ = false;
  bool killed_ = false;
  std::int64_t framesDone_ = 0;
  std::int64_t framesTotal_ = 0;
  double simTime_ = 0.0;
  QByteArray stdout_;
  Outcome outcome_ = Outcome::Completed;
  int exitCode_ = 0;
  QString errorText_;
  QString summary_;
};

/// The dialog: format, file, size, frame rate, simulated duration, speed, overlay, camera.
class AnimationExportDialog : public QDialog {
  Q_OBJECT
 public:
  /// `currentTime`: the live run's simulated time (offered as the duration); `ffmpeg`: whether
  /// MP4/GIF can be chosen (otherwise they are disabled and Ogg/Theora is preselected).
  AnimationExportDialog(const Scenario& scenario, double currentTime, const QString& directory,
                        bool ffmpeg, QWidget* parent = nullptr);

  AnimationRequest request(QString* error = nullptr) const;
  AnimationFormat format() const;
  void setFormat(AnimationFormat format);

  // The fields, for tests.
  QComboBox* formatCombo() const { return format_; }
  QLineEdit* pathEdit() const { return path_; }
  QComboBox* sizeCombo() const { return size_->combo(); }
  QSpinBox* widthSpin() const { return size_->widthSpin(); }
  QSpinBox* heightSpin() const { return size_->heightSpin(); }
  QSpinBox* fpsSpin() const { return fps_; }
  QDoubleSpinBox* durationSpin() const { return duration_; }
  QDoubleSpinBox* speedSpin() const { return speed_; }
  QLabel* noteLabel() const { return note_; }

  void accept() override;  ///< refuses (message in the dialog) while the request is invalid
  /// About how many bytes the export writes (a rough figure per format), -1 when unknown.
  qint64 estimatedBytes() const;

 private:
  void onFormatChanged();
  void updateInfo();
  Scenario scenario_;
  QComboBox* format_ = nullptr;
  QLineEdit* path_ = nullptr;
  SizePicker* size_ = nullptr;
  QSpinBox* fps_ = nullptr;
  QDoubleSpinBox* duration_ = nullptr;
  QDoubleSpinBox* speed_ = nullptr;
  QCheckBox* overlay_ = nullptr;
  QCheckBox* follow_ = nullptr;
  QLabel* info_ = nullptr;
  QLabel* note_ = nullptr;
  QLabel* error_ = nullptr;
};

/// File > Export Animation...: the dialog and the child process, run by an ExportController.
class AnimationExporter : public QObject {
  Q_OBJECT
 public:
  /// Exports `source`'s current run; dialogs and messages over `window`.
  AnimationExporter(QMainWindow* window, const RunSource* source);

  void showDialog();
  /// Starts an export with a (cancellable, non-modal) progress dialog. Empty on success,
  /// otherwise the reason (also shown).
  QString start(const AnimationRequest& request);
  void cancel();

  AnimationExportTask* task() const { return task_; }
  AnimationExportDialog* dialog() const;
  QProgressDialog* progressDialog() const { return controller_->progressDialog(); }

 signals:
  void finished();  ///< task() holds the outcome

 private:
  QMainWindow* window_;
  const RunSource* source_;
  AnimationExportTask* task_ = nullptr;
  ExportController* controller_ = nullptr;
};

}  // namespace ricochet::app
