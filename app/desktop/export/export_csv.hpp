#pragma once
// Run data export from the desktop app: the full-resolution trace and the impacts table of the
// current run, in the contract's CSV format, and the same rows as an HDF5 run file
// (io/hdf5/run_file.hpp) and as a ParaView time series (render/paraview/paraview_series.hpp). The
// File menu's Export Trace CSV, Export Impacts CSV, Export HDF5 Run and Export ParaView Series open
// this one dialog with their output ticked; any of the four can be written in one pass.
//
// The GUI keeps only decimated plot data, so the full trace is obtained by re-running the current
// (deterministic) scenario with core/io's run driver, runSimulation() - the code `ricochet-cli run`
// uses - on a pool thread: the files are byte-identical to
//   ricochet-cli run SAVED.json --steps N --every K --csv TRACE --impacts-csv IMPACTS
//       --h5 RUN.h5 --pvd FOLDER
// The driver writes through temporary files (a temporary folder for the series) renamed at the
// end, so a cancelled or failed export leaves no file behind (and an existing file untouched). The
// live simulation keeps running. ExportController shows the dialog, the progress and the outcome.

#include "app/desktop/export/export_controller.hpp"
#include "core/io/trace.hpp"
#include "core/model/system.hpp"

#include <QDialog>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressDialog;
class QSpinBox;

namespace ricochet::app {

class RunSource;

struct CsvExportRequest {
  Scenario scenario;
  std::int64_t steps = 0;  ///< integrator steps to take (>= 0)
  std::int64_t every = 1;  ///< record every K-th step in the trace (the final state always)
  QString traceCsv;        ///< empty: no trace file
  QString impactsCsv;      ///< empty: no impacts file
  QString hdf5;            ///< empty: no HDF5 run file
  QString paraview;        ///< empty: no ParaView series (a folder)
};

/// One export on a pool thread. Its progress (stepsDone()) is polled every kPollMs and reported
/// through progressed(); cancel() is answered within kProgressInterval steps.
class CsvExportTask : public ExportJob {
  Q_OBJECT
 public:
  /// Steps between progress reports / cancel checks (a few ms of integration at most).
  static constexpr std::int64_t kProgressInterval = 512;
  static constexpr int kPollMs = 100;

  explicit CsvExportTask(QObject* parent = nullptr);
  ~CsvExportTask() override;  ///< cancels a running export and waits for it (no file is left)

  /// Checks `request` and starts it. Empty on success, otherwise one line naming the value
  /// (nothing started).
  QString start(const CsvExportRequest& request);
  void cancel() override { cancel_.store(true, std::memory_order_relaxed); }
  bool isRunning() const override { return running_; }
  std::int64_t stepsDone() const { return done_.load(std::memory_order_relaxed); }
  std::int64_t stepsTotal() const { return total_; }
  /// The driver's summary of the last finished export (outcome, message, rows written).
  const io::RunSummary& summary() const { return summary_; }
  ExportReport report() const override;

 private:
  QFutureWatcher<io::RunSummary> watcher_;
  QTimer poll_;
  std::atomic<bool> cancel_{false};
  std::atomic<std::int64_t> done_{0};
  std::int64_t total_ = 0;
  bool running_ = false;
  CsvExportRequest request_;
  io::RunSummary summary_;
};

/// The export dialog: which files, record every K, how many steps (the current step by default).
/// Nothing but the trace and the impacts CSV is ticked at first.
class CsvExportDialog : public QDialog {
  Q_OBJECT
 public:
  /// `currentSteps`: the step the live run shows; `failed`: that run failed on the next step (the
  /// default then includes that step, so the export reproduces the failure as the CLI does).
  CsvExportDialog(const Scenario& scenario, std::int64_t currentSteps, bool failed,
                  const QString& directory, QWidget* parent = nullptr);

  /// The request as filled in; `error` (when not null) gets the reason it is not valid.
  CsvExportRequest request(QString* error = nullptr) const;

  // The fields, for tests.
  QCheckBox* traceBox() const { return traceBox_; }
  QCheckBox* impactsBox() const { return impactsBox_; }
  QLineEdit* tracePath() const { return tracePath_; }
  QLineEdit* impactsPath() const { return impactsPath_; }
  QCheckBox* hdf5Box() const { return hdf5Box_; }
  QLineEdit* hdf5Path() const { return hdf5Path_; }
  QCheckBox* paraviewBox() const { return paraviewBox_; }
  QLineEdit* paraviewPath() const { return paraviewPath_; }
  QLineEdit* stepsEdit() const { return steps_; }
  QSpinBox* everySpin() const { return every_; }

  void accept() override;  ///< refuses (message beside the fields) while the request is invalid
  /// About how many bytes the export writes (the trace; the impacts are small beside it), -1
  /// when unknown.
  qint64 estimatedBytes() const;

 private:
  void updateInfo();
  Scenario scenario_;
  int traceColumns_ = 0;  // columns of the trace CSV (for the size estimate)
  QCheckBox* traceBox_ = nullptr;
  QCheckBox* impactsBox_ = nullptr;
  QLineEdit* tracePath_ = nullptr;
  QLineEdit* impactsPath_ = nullptr;
  QCheckBox* hdf5Box_ = nullptr;
  QLineEdit* hdf5Path_ = nullptr;
  QCheckBox* paraviewBox_ = nullptr;
  QLineEdit* paraviewPath_ = nullptr;
  QLineEdit* steps_ = nullptr;
  QSpinBox* every_ = nullptr;
  QLabel* info_ = nullptr;
  QLabel* error_ = nullptr;
};

/// File > Export Trace CSV / Impacts CSV / HDF5 Run / ParaView Series: the dialog and the task,
/// run by an ExportController.
class CsvExporter : public QObject {
  Q_OBJECT
 public:
  /// Exports `source`'s current run; dialogs and messages over `window`.
  CsvExporter(QMainWindow* window, const RunSource* source);

  /// Opens the dialog (window-modal, non-blocking) for the current run, with these outputs
  /// ticked; accepting it starts the export.
  void showDialog(bool trace, bool impacts, bool hdf5 = false, bool paraview = false);
  /// Starts an export with a progress dialog (cancellable). Empty on success, otherwise the reason
  /// (also shown). Refused while another run export runs.
  QString start(const CsvExportRequest& request);
  void cancel();

  CsvExportTask* task() const { return task_; }
  CsvExportDialog* dialog() const;
  QProgressDialog* progressDialog() const { return controller_->progressDialog(); }

 signals:
  /// An export ended; `summary` says how (its message names the step and time of a failure).
  void finished(const ricochet::io::RunSummary& summary);

 private:
  QMainWindow* window_;
  const RunSource* source_;
  CsvExportTask* task_ = nullptr;
  ExportController* controller_ = nullptr;
};

}  // namespace ricochet::app
