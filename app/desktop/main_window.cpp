#include "app/desktop/main_window.hpp"

#include "app/desktop/bodies/body_editor.hpp"
#include "app/desktop/file_actions.hpp"
#include "app/desktop/help/help_dialogs.hpp"
#include "app/desktop/plots/plot_canvas.hpp"
#include "app/desktop/plots/plot_panel.hpp"
#include "app/desktop/replay/replay_actions.hpp"
#include "app/desktop/replay/replay_bar.hpp"
#include "app/desktop/run/frame_pacer.hpp"
#include "app/desktop/run/run_session.hpp"
#include "app/desktop/run/run_status.hpp"
#include "app/desktop/run/simulation_worker.hpp"
#include "app/desktop/scenario/scenario_editor.hpp"
#include "app/desktop/scenario/scenario_files.hpp"
#include "app/desktop/scenario/scenario_history.hpp"
#include "app/desktop/scenario/scenario_settings.hpp"
#include "app/desktop/study/study_actions.hpp"
#include "app/desktop/view/scene_host.hpp"
#include "app/desktop/widgets/status_message.hpp"
#include "core/model/registry.hpp"
#include "render/qt/vtk_widget.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QIcon>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QVBoxLayout>
#include <QWindow>

// Resources of a static library must be registered explicitly (outside any namespace).
static void initDesktopResources() {
  Q_INIT_RESOURCE(ricochet);
}

namespace ricochet::app {

namespace {
QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

struct SpeedChoice {
  const char* label;
  double speed;  // simulated s per wall s; 0 = as fast as possible
};
constexpr SpeedChoice kSpeeds[] = {{"0.1\u00d7", 0.1}, {"0.25\u00d7", 0.25}, {"0.5\u00d7", 0.5},
                                   {"1\u00d7", 1.0},   {"2\u00d7", 2.0},     {"5\u00d7", 5.0},
                                   {"10\u00d7", 10.0}, {"max", 0.0}};
}  // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent), options_(std::move(options)), settings_(std::make_unique<QSettings>()) {
  initDesktopResources();
  setObjectName(QStringLiteral("RicochetMainWindow"));
  setWindowTitle(QStringLiteral("Ricochet"));
  setWindowIcon(QIcon(QStringLiteral(":/ricochet/icons/ricochet.svg")));
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
  session_ = new RunSession(this);
  if (options_.restoreSettings) {
    session_->setStoredScenario(
        [this](const SystemDescription& system) { return readStoredScenario(*settings_, system); });
  }

  // The 3-D view. VtkWidget's own 'r' (reset the camera) is not connected: the window's R
  // (restart the run) takes the key first, even inside the view. Reset View is Ctrl+0. Under it,
  // the replay bar (hidden but while a run file is replayed).
  auto* central = new QWidget(this);
  scene_ = new SceneHost(central);
  auto* centralLayout = new QVBoxLayout(central);
  centralLayout->setContentsMargins(0, 0, 0, 0);
  centralLayout->setSpacing(0);
  centralLayout->addWidget(scene_->widget(), 1);
  replayBar_ = new ReplayBar(central);
  centralLayout->addWidget(replayBar_);
  setCentralWidget(central);
  // Without OpenGL the views paint their own explanation; the simulation and plots data, the
  // editors and the status bar keep working.
  connect(scene_->widget(), &render::VtkWidget::contextFailed, this,
          [this](const QString& message) {
            statusBar()->showMessage(tr("3-D view unavailable: %1").arg(message));
          });
  buildDocks();
  buildActions();
  buildStatusBar();
  connectSession();
  setAntialiasing(false);
  if (options_.restoreSettings) restoreWindowSettings();
  resize(1280, 800);
  if (options_.restoreSettings) {
    const QByteArray geometry = settings_->value(QStringLiteral("window/geometry")).toByteArray();
    if (!geometry.isEmpty()) restoreGeometry(geometry);
    const QByteArray state = settings_->value(QStringLiteral("window/state")).toByteArray();
    if (!state.isEmpty()) restoreState(state);
  }

  if (systems().empty()) {
    statusBar()->showMessage(tr("No system is registered in this build."));
    for (QAction* a : {playAction_, stepAction_, resetAction_}) a->setEnabled(false);
    return;
  }
  // What to open: a scenario (--scenario), a system (--system), the last one used, the default.
  worker()->setPlotColumns(plots_->plotColumns());
  worker()->setStopAtEnd(stopAtEndAction_->isChecked());
  session_->setPlaying(options_.play);
  if (options_.scenario) {
    session_->openScenario(*options_.scenario,
                           options_.scenarioPath.isEmpty()
                               ? tr("the scenario file")
                               : QFileInfo(options_.scenarioPath).fileName(),
                           options_.scenarioPath);
  } else {
    QString id = options_.systemId;
    if (id.isEmpty() && options_.restoreSettings) {
      id = settings_->value(QStringLiteral("run/system")).toString();
    }
    if (!findSystem(id.toStdString())) id = defaultSystemId();
    session_->openSystem(id, RequestKind::Startup);
  }
}

MainWindow::~MainWindow() {
  // Widgets going away may still signal (a focused field commits on focus-out): silence them,
  // then stop the worker thread before the views are destroyed.
  for (QObject* o : std::initializer_list<QObject*>{editor_, plots_, speedCombo_}) {
    if (o) o->blockSignals(true);
  }
  delete session_;
  session_ = nullptr;
}

QString MainWindow::defaultSystemId() {
  return RunSession::defaultSystemId();
}

QString MainWindow::aboutHtml() {
  return app::aboutHtml();
}

render::VtkWidget* MainWindow::sceneWidget() const {
  return scene_->widget();
}

vtkRenderer* MainWindow::sceneRenderer() const {
  return scene_->renderer();
}

render::SceneView* MainWindow::sceneView() const {
  return scene_->view();
}

WorkerHost* MainWindow::worker() const {
  return session_ ? session_->worker() : nullptr;
}

SnapshotPtr MainWindow::lastSnapshot() const {
  return session_->lastSnapshot();
}

RunInfoPtr MainWindow::currentRun() const {
  return session_->currentRun();
}

QLabel* MainWindow::statusField(const QString& name) const {
  return status_->field(name);
}

void MainWindow::buildDocks() {
  editor_ = new ScenarioEditor;
  editor_->setObjectName(QStringLiteral("scenarioEditor"));
  auto* scroll = new QScrollArea;
  scroll->setWidget(editor_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the forms follow the width
  scroll->setMinimumWidth(280);
  auto* editorDock = new QDockWidget(tr("Scenario"), this);
  editorDock->setObjectName(QStringLiteral("scenarioDock"));
  editorDock->setWidget(scroll);
  addDockWidget(Qt::LeftDockWidgetArea, editorDock);

  plots_ = new PlotPanel;
  plots_->setObjectName(QStringLiteral("plotPanel"));
  auto* plotDock = new QDockWidget(tr("Plots"), this);
  plotDock->setObjectName(QStringLiteral("plotDock"));
  plotDock->setWidget(plots_);
  addDockWidget(Qt::RightDockWidgetArea, plotDock);
  resizeDocks({editorDock, plotDock}, {300, 430}, Qt::Horizontal);

  connect(editor_, &ScenarioEditor::systemRequested, this, &MainWindow::selectSystem);
  connect(editor_, &ScenarioEditor::requestRun, this,
          [this](const Scenario& candidate, QWidget* source) {
            session_->send(candidate, RunRequest{RequestKind::Edit, source, QString()});
          });
  connect(editor_, &ScenarioEditor::refusedLocally, this, [this](const QString& reason) {
    statusBar()->showMessage(tr("Refused: %1").arg(reason), 10000);
    emit requestRefused(reason);
  });
  connect(plots_, &PlotPanel::plotColumnsChanged, this,
          [this](int columns) { worker()->setPlotColumns(columns); });

  // Snapshot pacing (run/frame_pacer.hpp): the views report their frames to the session's pacer,
  // which says when each draws.
  FramePacer* pacer = session_->pacer();
  pacer->setSceneFrameComes(
      [this] { return scene_->widget()->isVisible() && scene_->widget()->hasContext(); });
  pacer->setPlotFrameComes([this] {
    const QWindow* surface = plots_->view()->window()->windowHandle();
    return plots_->view()->isVisible() && surface && surface->isExposed();
  });
  connect(pacer, &FramePacer::drawScene, scene_->widget(), &render::VtkWidget::requestRender);
  connect(pacer, &FramePacer::drawPlots, this,
          [this](const SnapshotPtr& s) { plots_->setSnapshot(s); });
  connect(scene_->widget(), &render::VtkWidget::frameStarted, pacer,
          &FramePacer::sceneFrameStarted);
  connect(scene_->widget(), &render::VtkWidget::frameSwapped, pacer,
          &FramePacer::sceneFrameSwapped);
  connect(plots_->view(), &PlotCanvas::frameSwapped, pacer, &FramePacer::plotFrameSwapped);
}

void MainWindow::buildActions() {
  QStyle* st = style();
  QMenu* file = menuBar()->addMenu(tr("&File"));
  fileActions_ = new FileActions(this, session_, editor_, plots_,
                                 file);  // scenario files, presets, exports, File toolbar
  file->addSeparator();
  // Run files: replay and overlay.
  replay_ =
      new ReplayActions(ReplayParts{this, session_, replayBar_, plots_, scene_, editor_}, file);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  history_ = new ScenarioHistory(this, [this](const Scenario& s) {
    session_->send(s, RunRequest{RequestKind::History, nullptr, QString()});
  });
  edit->addAction(history_->createUndoAction(this));
  edit->addAction(history_->createRedoAction(this));

  QMenu* simMenu = menuBar()->addMenu(tr("&Simulation"));
  playAction_ = new QAction(this);
  playAction_->setObjectName(QStringLiteral("playAction"));
  playAction_->setShortcut(Qt::Key_Space);
  connect(playAction_, &QAction::triggered, session_, &RunSession::togglePlay);
  stepAction_ = new QAction(st->standardIcon(QStyle::SP_MediaSkipForward), tr("&Step"), this);
  stepAction_->setObjectName(QStringLiteral("stepAction"));
  stepAction_->setShortcut(Qt::Key_S);
  stepAction_->setToolTip(tr("Pause and advance one time step (S)"));
  connect(stepAction_, &QAction::triggered, session_, &RunSession::stepOnce);
  resetAction_ = new QAction(st->standardIcon(QStyle::SP_BrowserReload), tr("&Reset"), this);
  resetAction_->setObjectName(QStringLiteral("resetAction"));
  resetAction_->setShortcut(Qt::Key_R);
  resetAction_->setToolTip(tr("Restart from the initial conditions (R)"));
  connect(resetAction_, &QAction::triggered, session_, &RunSession::reset);
  // On by default, beside the run controls: a run ends at its scenario's t_end (the CLI's end)
  // unless the user lets it run on.
  stopAtEndAction_ = new QAction(tr("Stop at &t_end"), this);
  stopAtEndAction_->setObjectName(QStringLiteral("stopAtEndAction"));
  stopAtEndAction_->setCheckable(true);
  stopAtEndAction_->setChecked(true);
  stopAtEndAction_->setIconText(tr("Stop at t_end"));
  stopAtEndAction_->setToolTip(
      tr("Pause the live run when the simulated time reaches the scenario's t_end (Play then "
         "starts it over); off: the run goes on past t_end"));
  connect(stopAtEndAction_, &QAction::toggled, this, [this](bool stop) {
    worker()->setStopAtEnd(stop);
    settings_->setValue(QStringLiteral("run/stopAtEnd"), stop);
  });
  simMenu->addAction(playAction_);
  simMenu->addAction(stepAction_);
  simMenu->addAction(resetAction_);
  simMenu->addAction(stopAtEndAction_);
  QMenu* speedMenu = simMenu->addMenu(tr("S&peed"));

  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  resetViewAction_ =
      viewMenu->addAction(st->standardIcon(QStyle::SP_DesktopIcon), tr("Reset &View"), this,
                          [this] { scene_->resetCamera(); });
  resetViewAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  resetViewAction_->setToolTip(tr("Back to the scene's default camera (Ctrl+0)"));
  followAction_ = viewMenu->addAction(tr("&Follow Body"));
  followAction_->setCheckable(true);
  followAction_->setChecked(true);  // most bodies drift (the particle moves 2 m/s sideways)
  followAction_->setShortcut(Qt::Key_F);
  followAction_->setToolTip(tr("The camera follows the tracked body (F)"));
  connect(followAction_, &QAction::toggled, this, [this](bool on) {
    scene_->setFollow(on);
    settings_->setValue(QStringLiteral("view/follow"), on);
  });
  trailAction_ = viewMenu->addAction(tr("&Trail"));
  trailAction_->setCheckable(true);
  trailAction_->setChecked(true);
  trailAction_->setShortcut(Qt::Key_T);
  connect(trailAction_, &QAction::toggled, this, [this](bool on) {
    scene_->setTrailVisible(on);
    settings_->setValue(QStringLiteral("view/trail"), on);
  });
  logErrorAction_ = viewMenu->addAction(tr("&Log Energy Error"));
  logErrorAction_->setCheckable(true);
  logErrorAction_->setShortcut(Qt::Key_L);
  connect(logErrorAction_, &QAction::toggled, plots_, &PlotPanel::setLogError);
  connect(plots_, &PlotPanel::logErrorToggled, this, [this](bool on) {
    if (logErrorAction_->isChecked() != on) logErrorAction_->setChecked(on);
    settings_->setValue(QStringLiteral("plots/logError"), on);
  });
  antialiasAction_ = viewMenu->addAction(tr("&Antialiasing"));
  antialiasAction_->setCheckable(true);
  antialiasAction_->setToolTip(
      tr("Multisampled 3-D view and plots: smoother edges, about twice the rendering cost "
         "under a software OpenGL renderer"));
  connect(antialiasAction_, &QAction::toggled, this, [this](bool on) {
    setAntialiasing(on);
    settings_->setValue(QStringLiteral("view/antialiasing"), on);
  });
  viewMenu->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>())
    viewMenu->addAction(dock->toggleViewAction());

  QMenu* tools = menuBar()->addMenu(tr("&Tools"));
  new StudyActions(this, session_, tools);  // New Study: many runs of the running scenario

  buildHelp(menuBar()->addMenu(tr("&Help")));

  speedCombo_ = new QComboBox;
  speedCombo_->setObjectName(QStringLiteral("speedCombo"));
  speedCombo_->setToolTip(
      tr("Simulated seconds per wall-clock second; 'max' runs as fast as "
         "the integrator can"));
  speedCombo_->setFocusPolicy(Qt::ClickFocus);
  for (const SpeedChoice& c : kSpeeds) speedCombo_->addItem(QString::fromUtf8(c.label), c.speed);
  auto* speedGroup = new QActionGroup(this);
  for (int i = 0; i < speedCombo_->count(); ++i) {
    QAction* a = speedMenu->addAction(speedCombo_->itemText(i));
    a->setCheckable(true);
    speedGroup->addAction(a);
    connect(a, &QAction::triggered, this, [this, i] { speedCombo_->setCurrentIndex(i); });
    connect(speedCombo_, &QComboBox::currentIndexChanged, a,
            [a, i](int index) { a->setChecked(index == i); });
  }
  // Initial speed: the remembered one, else real time; set before the signal is connected so
  // building the window never overwrites the remembered choice.
  int speedIndex = 3;  // 1x
  if (options_.restoreSettings) {
    const int saved =
        speedCombo_->findText(settings_->value(QStringLiteral("run/speed")).toString());
    if (saved >= 0) speedIndex = saved;
  }
  speedCombo_->setCurrentIndex(speedIndex);
  speedGroup->actions().at(speedIndex)->setChecked(true);
  const double initialSpeed = speedCombo_->itemData(speedIndex).toDouble();
  worker()->setSpeed(initialSpeed > 0.0 ? initialSpeed : SimulationWorker::kMaxSpeed);
  connect(speedCombo_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const double speed = speedCombo_->itemData(index).toDouble();
    worker()->setSpeed(speed > 0.0 ? speed : SimulationWorker::kMaxSpeed);
    settings_->setValue(QStringLiteral("run/speed"), speedCombo_->itemText(index));
  });

  QToolBar* bar = addToolBar(tr("Run"));
  bar->setObjectName(QStringLiteral("runToolBar"));
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->addAction(playAction_);
  bar->addAction(stepAction_);
  bar->addAction(resetAction_);
  bar->addAction(stopAtEndAction_);
  bar->addSeparator();
  bar->addWidget(new QLabel(tr(" Speed ")));
  bar->addWidget(speedCombo_);
  bar->addSeparator();
  bar->addAction(resetViewAction_);
  bar->addAction(followAction_);
  bar->addAction(trailAction_);
  viewMenu->addAction(bar->toggleViewAction());
}

void MainWindow::buildStatusBar() {
  message_ = new StatusMessage(statusBar());  // first: left of the run fields
  status_ = new RunStatus(statusBar());
}

void MainWindow::connectSession() {
  // After the rooms: they hear a run's start and a refusal before the window's own signals do.
  connect(session_, &RunSession::accepted, this, &MainWindow::onAccepted);
  connect(session_, &RunSession::refused, this, &MainWindow::onRefused);
  connect(session_, &RunSession::snapshotArrived, this, [this](const SnapshotPtr& s) {
    scene_->show(*s);
    status_->show(*s, *session_->currentRun());
  });
  connect(session_, &RunSession::playingChanged, this, &MainWindow::updatePlayAction);
  connect(session_, &RunSession::statusMessage, this,
          [this](const QString& text, int ms) { statusBar()->showMessage(text, ms); });
  connect(session_, &RunSession::scenarioFileOpened, this, &MainWindow::scenarioFileOpened);
  connect(session_, &RunSession::runStarted, this, &MainWindow::runStarted);
  connect(session_, &RunSession::snapshotShown, this, &MainWindow::snapshotShown);
}

void MainWindow::restoreWindowSettings() {
  QSettings& settings = *settings_;
  // Only a user's own choice is stored (the key is written when the action is toggled), so an old
  // value is kept; without one the default is on.
  stopAtEndAction_->setChecked(settings.value(QStringLiteral("run/stopAtEnd"), true).toBool());
  followAction_->setChecked(settings.value(QStringLiteral("view/follow"), true).toBool());
  trailAction_->setChecked(settings.value(QStringLiteral("view/trail"), true).toBool());
  logErrorAction_->setChecked(settings.value(QStringLiteral("plots/logError"), false).toBool());
  antialiasAction_->setChecked(settings.value(QStringLiteral("view/antialiasing"), false).toBool());
}

void MainWindow::selectSystem(const QString& id) {
  session_->openSystem(id, RequestKind::System);
}

void MainWindow::onAccepted(const RunInfoPtr& info, const RunInfoPtr& previous,
                            const RunRequest& request) {
  scene_->runStarted(*info);
  history_->runAccepted(previous.get(), *info, request);
  status_->runStarted();
  plots_->setRun(*info);
  editor_->runAccepted(*info, request);
  // A replay is no scenario of the user's: not remembered for its system.
  if (!info->replay() && (options_.restoreSettings || request.kind != RequestKind::Startup)) {
    storeScenario(*settings_, info->scenario);
  }
  const SystemInfo& sys = findSystem(info->scenario.system)->info();
  // Qt appends " \u2014 Ricochet" (the application's display name) itself.
  setWindowTitle(tr("%1 (%2)").arg(qs(sys.title), qs(sys.source)));
}

void MainWindow::onRefused(const RunRequest& request, const QString& message) {
  editor_->runRefused(request, message, session_->currentRun().get());
  if (request.kind == RequestKind::File) {
    const QString text = tr("Could not open the scenario %1:\n%2").arg(request.label, message);
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("Scenario refused"), text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // window-modal, never blocks the event loop
  }
  emit requestRefused(message);
}

void MainWindow::updatePlayAction(bool running) {
  QStyle* st = style();
  playAction_->setIcon(st->standardIcon(running ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  playAction_->setText(running ? tr("&Pause") : tr("&Play"));
  playAction_->setToolTip(running ? tr("Pause (Space)") : tr("Play (Space)"));
}

void MainWindow::setAntialiasing(bool on) {
  // Off by default: under Mesa's llvmpipe 8x multisampling doubles the cost of every frame
  // (bench/gui: ~110 vs ~55 ms of CPU for 3-D view + plots at 1280x800).
  scene_->setMultiSamples(on ? 8 : 0);
  plots_->view()->setAntialiasing(on);
  scene_->requestRender();
}

void MainWindow::buildHelp(QMenu* help) {
  QAction* started = help->addAction(tr("&Getting Started"), this, [this] {
    showHelpWindow(this, QStringLiteral("gettingStarted"), tr("Getting Started"),
                   gettingStartedHtml());
  });
  started->setObjectName(QStringLiteral("gettingStartedAction"));
  QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), this, [this] {
    showHelpWindow(this, QStringLiteral("keyboardShortcuts"), tr("Keyboard Shortcuts"),
                   shortcutsHtml(menuShortcuts(menuBar())));
  });
  keys->setObjectName(QStringLiteral("shortcutsAction"));
  keys->setShortcut(QKeySequence::HelpContents);
  help->addSeparator();
  help->addAction(tr("&About Ricochet"), this,
                  [this] { QMessageBox::about(this, tr("About Ricochet"), aboutHtml()); });
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

bool MainWindow::openScenarioFile(const QString& path, QString* error) {
  const io::ScenarioResult r = loadScenarioFile(path);
  if (!r.ok()) {
    if (error) *error = qs(r.error);
    statusBar()->showMessage(tr("Refused: %1").arg(qs(r.error)), 10000);
    return false;
  }
  openScenario(*r.scenario, QFileInfo(path).fileName(), path);
  return true;
}

void MainWindow::openScenario(const Scenario& scenario, const QString& label, const QString& path) {
  session_->openScenario(scenario, label, path);
}

void MainWindow::replayRecording(std::shared_ptr<const hdf5::RunFile> run, const QString& label) {
  session_->replayRecording(std::move(run), label);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (options_.restoreSettings) {
    settings_->setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings_->setValue(QStringLiteral("window/state"), saveState());
  }
  settings_->sync();
  QMainWindow::closeEvent(event);
}

}  // namespace ricochet::app
