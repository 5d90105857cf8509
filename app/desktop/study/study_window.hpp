#pragma once
// The study window (Tools > New Study): the study editor (left), the results as a plot and a
// table (centre), the run controls with progress and cancel, and the exports.
//
// Flow: editor -> StudyRequest -> StudyJob (worker thread) -> rows and progress posted back ->
// table, plot, progress bar. A click on a table row or on a point loads that run's scenario into
// the main window (RunSession::openScenario, as a scenario without a file), so the run can be
// watched, edited and exported there. The window holds no simulation and never integrates.

#include "app/desktop/study/study_export.hpp"
#include "app/desktop/study/study_recipes.hpp"

#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <memory>

class QAction;
class QCheckBox;
class QComboBox;
class QElapsedTimer;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QTabWidget;

namespace ricochet::app {

class RunSession;
class StudyEditor;
class StudyJob;
class StudyPlot;
class StudyTableModel;
class StudyTableSortModel;

class StudyWindow : public QMainWindow {
  Q_OBJECT
 public:
  /// A study of `seed` (the running scenario); runs load into `session` (the main window's).
  StudyWindow(RunSession* session, const Scenario& seed, QWidget* parent = nullptr);
  ~StudyWindow() override;

  /// Starts what the editor shows. Empty, or why not (also shown under the progress bar).
  QString run();
  void cancel();
  /// The results CSV of the finished study (ricochet-cli's file). Empty on success, else why not.
  QString exportResultsCsv(const QString& path);
  /// The figure on screen as PNG or SVG. Empty on success, else why not.
  QString exportFigure(const FigureExportRequest& request);
  /// The custom study as a study file (ricochet-cli study FILE runs it). Empty on success.
  QString saveStudy(const QString& path);
  /// Shows a study file in the editor. Empty on success, else the file's error.
  QString openStudy(const QString& path);
  /// Loads table row `row` (series `tag` of a sensitivity plot) into the main window.
  bool loadRun(std::size_t row, int tag = -1);

  // The parts, for tests (they drive the real widgets).
  StudyEditor* editor() const { return editor_; }
  StudyJob* job() const { return job_; }
  StudyPlot* plot() const { return plot_; }
  QTableView* table() const { return table_; }
  QPlainTextEdit* reportView() const { return report_; }
  QComboBox* metricCombo() const { return metric_; }
  QComboBox* xCombo() const { return x_; }
  QCheckBox* logXCheck() const { return logX_; }
  QCheckBox* logYCheck() const { return logY_; }
  QPushButton* runButton() const { return runButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QProgressBar* progressBar() const { return progress_; }
  QLabel* progressLabel() const { return progressLabel_; }
  QAction* exportCsvAction() const { return exportCsv_; }
  QAction* exportFigureAction() const { return exportFigure_; }
  QAction* saveStudyAction() const { return saveStudy_; }
  QAction* openStudyAction() const { return openStudy_; }

 signals:
  /// A study ended (complete, cancelled or refused) and its results are on screen.
  void studyFinished();
  /// A run was sent to the main window.
  void runLoaded(const QString& description);

 protected:
  void closeEvent(class QCloseEvent* event) override;

 private:
  void buildActions();
  QWidget* buildResults();
  void onStarted();
  void onProgress(qint64 done, qint64 total, double runsPerSecond, double etaSeconds);
  void onRows(qint64 first);
  void onFinished();
  /// The editor changed: the results stay on screen while they are of the study kind the editor
  /// shows, and step aside (to come back) while another kind is chosen.
  void onEditorChanged();
  void showResults(bool shown);
  void fitColumns();
  void fillChoices();
  void updateFigure();
  void updateActions();
  void showFigureDialog();
  void showCsvDialog();
  void showSaveDialog();
  /// A save-file dialog in the export folder, opened through the export controller; on accept the
  /// folder is remembered and `write` gets the chosen path.
  void askSavePath(const QString& title, const QString& fileName, const QString& filter,
                   const QString& objectName, std::function<void(const QString&)> write);
  void showOpenDialog();
  QString baseName() const;

  QPointer<RunSession> session_;
  StudyEditor* editor_ = nullptr;
  StudyJob* job_ = nullptr;
  StudyPlot* plot_ = nullptr;
  QTableView* table_ = nullptr;
  StudyTableModel* model_ = nullptr;
  StudyTableSortModel* sorted_ = nullptr;
  QPlainTextEdit* report_ = nullptr;
  QTabWidget* resultTabs_ = nullptr;
  QComboBox* metric_ = nullptr;
  QComboBox* x_ = nullptr;
  QCheckBox* logX_ = nullptr;
  QCheckBox* logY_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* progressLabel_ = nullptr;
  QAction* run_ = nullptr;
  QAction* cancel_ = nullptr;
  QAction* exportCsv_ = nullptr;
  QAction* exportFigure_ = nullptr;
  QAction* saveStudy_ = nullptr;
  QAction* openStudy_ = nullptr;
  StudyExportTask* exportTask_ = nullptr;
  ExportController* exports_ = nullptr;
  std::unique_ptr<QElapsedTimer> clock_;
  bool choosing_ = false;  // the combos are being filled: no figure rebuild per item
  bool resultsShown_ = true;  // false while the editor shows another study kind than the results
  QString finishedText_;      // the progress label's summary of the last study
  QString hiddenReport_;      // the report while the results step aside
};

}  // namespace ricochet::app
