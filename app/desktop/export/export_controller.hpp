#pragma once
// What the File menu's exports share (CSV traces, animations, plots), so that each export keeps
// only its options (its dialog and request) and its writer (an ExportJob):
//
// * the dialog: one at a time, window-modal and never blocking the event loop, offered in the
//   folder last exported to (remembered per export);
// * the job: refused while one runs; started, with its refusal (one line naming the value) in
//   the status bar and a message box;
// * progress: a non-modal progress window (the live view and the editors stay usable) with a
//   Cancel button, or a busy cursor for a job that works on the GUI thread;
// * the end: the job's report in the status bar, and in a message box when it has more to say
//   (a failure, or a run that stopped at an integrator failure);
// * files appear complete or not at all: jobs that write through core/io (the run driver,
//   ricochet-cli) are atomic already, and a job that renders to memory writes its bytes with
//   writeFileAtomically() below.

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>

class QDialog;
class QMainWindow;
class QProgressDialog;
class QWidget;

namespace ricochet::app {

/// How an export ended, in its user's words.
struct ExportReport {
  enum class Outcome {
    Completed,         ///< the files are written
    StoppedAtFailure,  ///< the run failed; the files hold everything up to the failure
    Cancelled,         ///< no file written
    Failed             ///< no file written
  };
  Outcome outcome = Outcome::Completed;
  QString status;  ///< the status bar line
  QString title;   ///< the message box's title
  QString text;    ///< the message box's text; no box when empty
};

/// The writer of one export. A job runs in the background (a pool thread, a child process) or,
/// when it must use the GUI thread (an OpenGL render), finishes before its start returns.
class ExportJob : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;

  virtual bool isRunning() const = 0;
  /// Asks a running job to stop; it then finishes with Outcome::Cancelled and leaves no file.
  virtual void cancel() = 0;
  /// How the last finished export ended.
  virtual ExportReport report() const = 0;

 signals:
  /// `done` of `total` units (total 0: not known yet); `label`, when not empty, says what is
  /// being done.
  void progressed(qint64 done, qint64 total, const QString& label);
  /// The export ended: report() says how.
  void finished();
};

/// The dialog, progress, cancel and reports of one export, around its job.
class ExportController : public QObject {
  Q_OBJECT
 public:
  struct Words {
    QString name;          ///< "CSV export": "CSV export refused: ...", the refusal's box title
    QString title;         ///< the progress window's title, "Export CSV"
    QString busy;          ///< the status line when asked again while the job runs
    QString directoryKey;  ///< settings key of the folder last exported to
    QString progressName;  ///< object name of the progress window
  };

  /// Steps of the progress bar at most (a longer job's progress is scaled down to it).
  static constexpr qint64 kMaxProgressSteps = 1'000'000;

  /// Reports in `window`'s status bar and over it (the main window, or a study window).
  ExportController(QMainWindow* window, ExportJob* job, Words words);

  /// The folder to offer: the one last exported to, else the home folder.
  QString directory() const;
  /// Remembers the folder of `file` for the next dialog.
  void rememberDirectory(const QString& file);
  /// False, with a status bar line saying why, while the job runs.
  bool ready();

  /// Shows `dialog` (window-modal, non-blocking, deleted when closed) in place of the previous
  /// one; `accepted` runs when the user accepts it.
  void openDialog(QDialog* dialog, std::function<void()> accepted);
  QDialog* dialog() const { return dialog_; }

  /// Starts the job in the background through `startJob` (empty, or the reason it refuses:
  /// reported and returned). A progress window says `label`; it shows after `showAfterMs` (a
  /// short export finishes without flashing one). `total`: the units of work, 0 when not known
  /// yet (a busy bar until the job says).
  QString start(const std::function<QString()>& startJob, const QString& label, qint64 total,
                int showAfterMs);
  /// Runs a job that works on the GUI thread (it has finished when `startJob` returns), under a
  /// busy cursor so the window reads as working, not hung.
  QString runOnGuiThread(const std::function<QString()>& startJob);
  void cancel();

  QProgressDialog* progressDialog() const { return progress_; }

 signals:
  /// An export ended and its report has been shown.
  void finished();

 private:
  QString refuse(const QString& error);
  void onProgress(qint64 done, qint64 total, const QString& label);
  void onFinished();

  QMainWindow* window_;
  ExportJob* job_;
  Words words_;
  QPointer<QDialog> dialog_;
  QProgressDialog* progress_ = nullptr;
  bool holdReport_ = false;  // a job on the GUI thread runs: report once the cursor is back
  bool reportHeld_ = false;
};

/// What an export is about to write, for confirmTargets().
struct ExportTargets {
  QStringList files;             ///< the files it writes (an existing one is overwritten)
  qint64 estimatedBytes = -1;    ///< about how much it writes; -1 when not known
};

/// Above this (200 MB, as formatBytes() writes sizes) an export's estimated size is confirmed
/// before it starts.
inline constexpr qint64 kLargeExportBytes = 200LL * 1000 * 1000;

/// "1.5 GB", "320 kB": a size for people.
QString formatBytes(qint64 bytes);

/// Asked by every export dialog before it accepts, as standard save dialogs do: whether to
/// overwrite the files of `targets` that exist (one question naming them), then whether to go on
/// with an export estimated above kLargeExportBytes. False when the user declines (the dialog
/// stays open). The question boxes are window-modal over `parent`.
bool confirmTargets(QWidget* parent, const ExportTargets& targets);

/// Writes `bytes` to `path` through core/io's atomic writer: a temporary file beside it, renamed
/// over it once complete. Empty on success, otherwise one line naming the file (and nothing is
/// left behind).
QString writeFileAtomically(const QString& path, const QByteArray& bytes);

}  // namespace ricochet::app
