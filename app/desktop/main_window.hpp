#pragma once
// Ricochet's main window: the 3-D view (central), the scenario editors and the live plots (docks),
// a toolbar and menus with the run controls, and a status bar with simulated time, steps, impacts,
// steps per second and the energy error.
//
// The window only assembles the rooms (docs/architecture.md): run/ (RunSession: the worker, the
// requests and their answers, the pacing), view/ (the 3-D view kept across runs), scenario/ (the
// editor, files, undo, remembered scenarios), bodies/, plots/, export/, replay/, study/, help/.
// The rooms read the current run through RunSource and ask for runs through RunSession; none of
// them knows this class.
//
// Data flow is one way: editor edits -> candidate Scenario -> RunSession -> worker thread (creates
// and validates the Simulation, answers started() or rejected()) -> Snapshots (~60 Hz) -> 3-D
// view, plots, status bar. The GUI thread never integrates and never waits for the worker. A
// recorded run (File > Open Run..., ReplayActions) takes the same path: the worker plays the
// file's rows instead of integrating, and RunInfo says it is a replay.

#include "app/desktop/run/run_data.hpp"
#include "core/model/system.hpp"

#include <QMainWindow>
#include <QString>

#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QMenu;
class QLabel;
class QSettings;
class vtkRenderer;

namespace ricochet::render {
class SceneView;
class VtkWidget;
}  // namespace ricochet::render

namespace ricochet::app {

class FileActions;
class PlotPanel;
class ReplayActions;
class ReplayBar;
class RunSession;
class RunStatus;
class ScenarioEditor;
class ScenarioHistory;
class SceneHost;
class StatusMessage;
class WorkerHost;
struct RunRequest;

struct MainWindowOptions {
  /// System to open; empty: the last one used (QSettings), else defaultSystemId().
  QString systemId;
  /// A scenario to open (from --scenario), overriding systemId.
  std::optional<Scenario> scenario;
  /// The file `scenario` was read from (for the title, Save and the recent files); may be empty.
  QString scenarioPath;
  /// Start animating at once.
  bool play = true;
  /// Restore geometry, dock layout, last system and per-system scenarios from QSettings.
  bool restoreSettings = true;
};

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  /// `ellipsoid-plane` when registered, else `ellipse-floor`, else the first registered system.
  static QString defaultSystemId();
  /// The About box text (HTML): what Ricochet is and the five papers it implements.
  static QString aboutHtml();

  /// Opens a scenario file (core/io format). On failure nothing changes and `error` says why.
  bool openScenarioFile(const QString& path, QString* error);
  /// Runs an already parsed scenario as a file request: scenarioFileOpened(path) once the worker
  /// accepts it, the refusal box otherwise. `label` names it in messages; `path` may be empty.
  void openScenario(const Scenario& scenario, const QString& label, const QString& path);
  /// Switches to `id` with its last-used (or default) scenario.
  void selectSystem(const QString& id);
  /// Replays a run file already read (File > Open Run...; ReplayActions reads it): runStarted()
  /// once the worker plays it, a box and the status bar when it is refused (the shown run goes
  /// on). `label` names it (the file's name).
  void replayRecording(std::shared_ptr<const hdf5::RunFile> run, const QString& label);

  // Parts, for tests and the benchmark (they drive the real widgets).
  /// The runs: requests, answers, the current run and its snapshot on screen.
  RunSession* session() const { return session_; }
  ScenarioEditor* editor() const { return editor_; }
  PlotPanel* plots() const { return plots_; }
  render::VtkWidget* sceneWidget() const;
  /// The 3-D view's actors (bodies, ghost, trail) and their read-outs.
  render::SceneView* sceneView() const;
  /// File > Open Run..., Overlay Run..., Remove Overlay, and the replay bar under the 3-D view.
  ReplayActions* replay() const { return replay_; }
  WorkerHost* worker() const;
  QAction* playAction() const { return playAction_; }
  QAction* stepAction() const { return stepAction_; }
  QAction* resetAction() const { return resetAction_; }
  /// Simulation > Stop at t_end (on by default; also on the Run toolbar).
  QAction* stopAtEndAction() const { return stopAtEndAction_; }
  QAction* followAction() const { return followAction_; }
  QComboBox* speedCombo() const { return speedCombo_; }
  /// Edit > Undo / Redo of scenario changes.
  ScenarioHistory* history() const { return history_; }
  /// File menu and toolbar: scenario files, presets, recent files, drag and drop, exports.
  FileActions* fileActions() const { return fileActions_; }
  /// Status bar field: "state", "time", "steps", "impacts", "rate", "error".
  QLabel* statusField(const QString& name) const;
  /// The status bar's message area (the whole text of the current message).
  StatusMessage* statusMessage() const { return message_; }
  /// The snapshot on screen and the run it belongs to (null before the first).
  SnapshotPtr lastSnapshot() const;
  RunInfoPtr currentRun() const;
  /// The 3-D view's renderer (its camera is kept across parameter edits).
  vtkRenderer* sceneRenderer() const;

 signals:
  /// A snapshot has been applied to the view, plots and status bar.
  void snapshotShown();
  /// A run (re)started: after a system switch, an accepted edit, a reset or a file.
  void runStarted();
  /// A request was refused (by the editor or by the worker), with the reason.
  void requestRefused(const QString& reason);
  /// A scenario opened as a file (openScenario/openScenarioFile, --scenario) now runs; emitted
  /// just before runStarted(). `path` is empty for a scenario that has no file (a preset).
  void scenarioFileOpened(const QString& path);

 protected:
  void closeEvent(class QCloseEvent* event) override;

 private:
  void buildActions();
  void buildDocks();
  void buildStatusBar();
  void connectSession();
  void restoreWindowSettings();
  void onAccepted(const RunInfoPtr& info, const RunInfoPtr& previous, const RunRequest& request);
  void onRefused(const RunRequest& request, const QString& message);
  void buildHelp(QMenu* help);
  void updatePlayAction(bool running);
  void setAntialiasing(bool on);

  MainWindowOptions options_;
  RunSession* session_ = nullptr;
  SceneHost* scene_ = nullptr;
  ScenarioEditor* editor_ = nullptr;
  PlotPanel* plots_ = nullptr;
  // One settings object for the window's life: Qt writes it back from the event loop (and on
  // close), so an edit never waits for the disk.
  std::unique_ptr<QSettings> settings_;

  QAction* playAction_ = nullptr;
  QAction* stepAction_ = nullptr;
  QAction* resetAction_ = nullptr;
  QAction* stopAtEndAction_ = nullptr;
  QAction* resetViewAction_ = nullptr;
  QAction* followAction_ = nullptr;
  QAction* trailAction_ = nullptr;
  QAction* logErrorAction_ = nullptr;
  QAction* antialiasAction_ = nullptr;
  QComboBox* speedCombo_ = nullptr;
  FileActions* fileActions_ = nullptr;
  ReplayActions* replay_ = nullptr;
  ReplayBar* replayBar_ = nullptr;      // under the 3-D view, while replaying
  ScenarioHistory* history_ = nullptr;  // Edit > Undo/Redo
  RunStatus* status_ = nullptr;
  StatusMessage* message_ = nullptr;
};

}  // namespace ricochet::app
