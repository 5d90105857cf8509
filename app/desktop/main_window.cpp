#include "app/desktop/main_window.hpp"

#include "app/desktop/file_actions.hpp"
#include "app/desktop/run/frame_pacer.hpp"
#include "app/desktop/help/help_dialogs.hpp"
#include "app/desktop/widgets/number_field.hpp"
#include "app/desktop/plots/plot_canvas.hpp"
#include "app/desktop/plots/plot_panel.hpp"
#include "app/desktop/replay/replay_actions.hpp"
#include "app/desktop/replay/replay_bar.hpp"
#include "app/desktop/run/run_status.hpp"
#include "app/desktop/scenario/scenario_editor.hpp"
#include "app/desktop/scenario/scenario_files.hpp"
#include "app/desktop/scenario/scenario_history.hpp"
#include "app/desktop/scenario/scenario_settings.hpp"
#include "app/desktop/run/simulation_worker.hpp"
#include "app/desktop/study/study_actions.hpp"
#include "app/desktop/widgets/status_message.hpp"
#include "core/model/registry.hpp"
#include "render/qt/vtk_widget.hpp"
#include "render/scene/scene_view.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
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

#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>

// Resources of a static library must be registered explicitly (outside any namespace).
static void initDesktopResources() { Q_INIT_RESOURCE(ricochet); }

namespace ricochet::app {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

bool equalScenarios(const Scenario& a, const Scenario& b) {
  return a.system == b.system && a.parameters == b.parameters && a.initial == b.initial &&
         a.integrator.name == b.integrator.name && a.integrator.h == b.integrator.h &&
         a.integrator.tolerance == b.integrator.tolerance && a.tEnd == b.tEnd;
}

const char* kAboutHtml = R"(
<h3>Ricochet %1</h3>
<p>A desktop laboratory for mechanical systems with impacts, built on <b>variational collision
integrators</b>: the impact time is an unknown of the discrete variational principle, so energy
stays bounded over thousands of collisions and momenta are conserved where a symmetry says so.</p>
<p><b>Papers implemented</b></p>
<ol style="margin-left: -20px">
<li>[004] R. C. Fetecau, J. E. Marsden, M. Ortiz, M. West, <i>Nonsmooth Lagrangian mechanics and
variational collision integrators</i>, SIAM J. Applied Dynamical Systems 2(3), 2003.</li>
<li>[000] &Aacute;. Rodr&iacute;guez Abella, L. Colombo, <i>Variational collision integrators for
nonholonomic Lagrangian systems</i>.</li>
<li>[001] &Aacute;. Rodr&iacute;guez Abella, L. Colombo, <i>Implicit nonholonomic mechanics with
collisions</i>.</li>
<li>[002] A. Anahory Simoes, L. Colombo, <i>Nonholonomic systems with inequality
constraints</i>.</li>
<li>[003] K. Tran, M. Leok, <i>Lie group variational collision integrators for a class of hybrid
systems</i>, arXiv:2310.15356.</li>
</ol>
<p>BSD-3-Clause. Built with Qt %2 (LGPL-3), VTK (BSD-3) and Eigen (MPL-2).</p>
)";

struct SpeedChoice {
  const char* label;
  double speed;  // simulated s per wall s; 0 = as fast as possible
};
constexpr SpeedChoice kSpeeds[] = {{"0.1\u00d7", 0.1}, {"0.25\u00d7", 0.25}, {"0.5\u00d7", 0.5},
                                   {"1\u00d7", 1.0},   {"2\u00d7", 2.0},     {"5\u00d7", 5.0},
                                   {"10\u00d7", 10.0}, {"max", 0.0}};
}  // namespace

struct MainWindow::Scene {
  vtkSmartPointer<vtkRenderer> renderer;
  std::unique_ptr<render::SceneView> view;
  std::string system;                // system of the scene on screen
  std::vector<double> parameters;    // parameters the scene was built from
  std::shared_ptr<const BodyScenario> body;  // the body it was built from (rigid-body)
  std::size_t bodies = 0;            // bodies drawn (none for a replay without poses)
  // The user's camera across a geometry rebuild: SceneView frames its new scene on the first
  // poses, so the camera is put back right after the first snapshot of the new run.
  vtkSmartPointer<vtkCamera> keptCamera;
};

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent),
      options_(std::move(options)),
      scene_(std::make_unique<Scene>()),
      settings_(std::make_unique<QSettings>()) {
  initDesktopResources();
  setObjectName(QStringLiteral("RicochetMainWindow"));
  setWindowTitle(QStringLiteral("Ricochet"));
  setWindowIcon(QIcon(QStringLiteral(":/ricochet/icons/ricochet.svg")));
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
  host_ = new WorkerHost(this);
  connect(host_, &WorkerHost::started, this, &MainWindow::onStarted);
  connect(host_, &WorkerHost::rejected, this, &MainWindow::onRejected);
  connect(host_, &WorkerHost::snapshotReady, this, &MainWindow::onSnapshot);

  // The 3-D view.
  sceneWidget_ = new render::VtkWidget(this);
  sceneWidget_->setObjectName(QStringLiteral("sceneView"));
  sceneWidget_->setMinimumSize(320, 240);
  scene_->renderer = vtkSmartPointer<vtkRenderer>::New();
  sceneWidget_->renderWindow()->AddRenderer(scene_->renderer);
  scene_->view = std::make_unique<render::SceneView>(scene_->renderer);
  // VtkWidget's own 'r' (reset the camera) is not connected: the window's R (restart the run)
  // takes the key first, even inside the view. Reset View is Ctrl+0. Under it, the replay bar
  // (hidden but while a run file is replayed).
  auto* central = new QWidget(this);
  auto* centralLayout = new QVBoxLayout(central);
  centralLayout->setContentsMargins(0, 0, 0, 0);
  centralLayout->setSpacing(0);
  centralLayout->addWidget(sceneWidget_, 1);
  replayBar_ = new ReplayBar(central);
  centralLayout->addWidget(replayBar_);
  setCentralWidget(central);
  // Without OpenGL the views paint their own explanation; the simulation and plots data, the
  // editors and the status bar keep working.
  connect(sceneWidget_, &render::VtkWidget::contextFailed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("3-D view unavailable: %1").arg(message));
  });
  buildDocks();
  buildPacer();
  buildActions();
  buildStatusBar();
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
  host_->setPlotColumns(plots_->plotColumns());
  running_ = options_.play;
  updatePlayAction(running_);
  if (options_.scenario) {
    send(*options_.scenario, Request{RequestKind::File, nullptr,
                                     options_.scenarioPath.isEmpty()
                                         ? tr("the scenario file")
                                         : QFileInfo(options_.scenarioPath).fileName(),
                                     options_.scenarioPath});
  } else {
    QString id = options_.systemId;
    if (id.isEmpty() && options_.restoreSettings) {
      id = settings_->value(QStringLiteral("run/system")).toString();
    }
    if (!findSystem(id.toStdString())) id = defaultSystemId();
    openSystem(id, RequestKind::Startup);
  }
}

MainWindow::~MainWindow() {
  // Widgets going away may still signal (a focused field commits on focus-out): silence them,
  // then stop the worker thread before the views are destroyed.
  for (QObject* o : std::initializer_list<QObject*>{editor_, plots_, speedCombo_}) {
    if (o) o->blockSignals(true);
  }
  delete host_;
  host_ = nullptr;
}

QString MainWindow::defaultSystemId() {
  for (const char* id : {"ellipsoid-plane", "ellipse-floor"}) {
    if (findSystem(id)) return QString::fromLatin1(id);
  }
  return systems().empty() ? QString() : qs(systems().front()->info().id);
}

vtkRenderer* MainWindow::sceneRenderer() const { return scene_->renderer; }

render::SceneView* MainWindow::sceneView() const {
  return scene_->view.get();
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
            send(candidate, Request{RequestKind::Edit, source, QString()});
          });
  connect(editor_, &ScenarioEditor::refusedLocally, this, [this](const QString& reason) {
    statusBar()->showMessage(tr("Refused: %1").arg(reason), 10000);
    emit requestRefused(reason);
  });
  connect(editor_, &ScenarioEditor::stopAtEndChanged, this, [this](bool stop) {
    host_->setStopAtEnd(stop);
    settings_->setValue(QStringLiteral("run/stopAtEnd"), stop);
  });
  connect(plots_, &PlotPanel::plotColumnsChanged, this,
          [this](int columns) { host_->setPlotColumns(columns); });
}

void MainWindow::buildActions() {
  QStyle* st = style();
  QMenu* file = menuBar()->addMenu(tr("&File"));
  fileActions_ = new FileActions(this, file);  // scenario files, presets, exports, File toolbar
  file->addSeparator();
  replay_ = new ReplayActions(this, file, replayBar_);  // run files: replay and overlay
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  history_ = new ScenarioHistory(this, [this](const Scenario& s) {
    send(s, Request{RequestKind::History, nullptr, QString()});
  });
  edit->addAction(history_->createUndoAction(this));
  edit->addAction(history_->createRedoAction(this));

  QMenu* simMenu = menuBar()->addMenu(tr("&Simulation"));
  playAction_ = new QAction(this);
  playAction_->setObjectName(QStringLiteral("playAction"));
  playAction_->setShortcut(Qt::Key_Space);
  connect(playAction_, &QAction::triggered, this, &MainWindow::togglePlay);
  stepAction_ = new QAction(st->standardIcon(QStyle::SP_MediaSkipForward), tr("&Step"), this);
  stepAction_->setObjectName(QStringLiteral("stepAction"));
  stepAction_->setShortcut(Qt::Key_S);
  stepAction_->setToolTip(tr("Pause and advance one time step (S)"));
  connect(stepAction_, &QAction::triggered, this, [this] {
    running_ = false;
    updatePlayAction(false);
    host_->stepOnce();
  });
  resetAction_ = new QAction(st->standardIcon(QStyle::SP_BrowserReload), tr("&Reset"), this);
  resetAction_->setObjectName(QStringLiteral("resetAction"));
  resetAction_->setShortcut(Qt::Key_R);
  resetAction_->setToolTip(tr("Restart from the initial conditions (R)"));
  connect(resetAction_, &QAction::triggered, this, [this] {
    host_->reset();
    if (failedWhilePlaying_) host_->play();  // as after any other restart
  });
  simMenu->addAction(playAction_);
  simMenu->addAction(stepAction_);
  simMenu->addAction(resetAction_);
  QMenu* speedMenu = simMenu->addMenu(tr("S&peed"));

  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  resetViewAction_ = viewMenu->addAction(st->standardIcon(QStyle::SP_DesktopIcon),
                                         tr("Reset &View"), this, [this] {
                                           scene_->view->resetCamera();
                                           sceneWidget_->requestRender();
                                         });
  resetViewAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  resetViewAction_->setToolTip(tr("Back to the scene's default camera (Ctrl+0)"));
  followAction_ = viewMenu->addAction(tr("&Follow Body"));
  followAction_->setCheckable(true);
  followAction_->setChecked(true);  // most bodies drift (the particle moves 2 m/s sideways)
  followAction_->setShortcut(Qt::Key_F);
  followAction_->setToolTip(tr("The camera follows the tracked body (F)"));
  connect(followAction_, &QAction::toggled, this, [this](bool on) {
    scene_->view->setFollow(on);
    sceneWidget_->requestRender();
    settings_->setValue(QStringLiteral("view/follow"), on);
  });
  trailAction_ = viewMenu->addAction(tr("&Trail"));
  trailAction_->setCheckable(true);
  trailAction_->setChecked(true);
  trailAction_->setShortcut(Qt::Key_T);
  connect(trailAction_, &QAction::toggled, this, [this](bool on) {
    scene_->view->setTrailVisible(on);
    sceneWidget_->requestRender();
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
  for (QDockWidget* dock : findChildren<QDockWidget*>()) viewMenu->addAction(dock->toggleViewAction());

  QMenu* tools = menuBar()->addMenu(tr("&Tools"));
  new StudyActions(this, tools);  // New Study: many runs of the running scenario

  buildHelp(menuBar()->addMenu(tr("&Help")));

  speedCombo_ = new QComboBox;
  speedCombo_->setObjectName(QStringLiteral("speedCombo"));
  speedCombo_->setToolTip(tr("Simulated seconds per wall-clock second; 'max' runs as fast as "
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
    const int saved = speedCombo_->findText(settings_->value(QStringLiteral("run/speed")).toString());
    if (saved >= 0) speedIndex = saved;
  }
  speedCombo_->setCurrentIndex(speedIndex);
  speedGroup->actions().at(speedIndex)->setChecked(true);
  const double initialSpeed = speedCombo_->itemData(speedIndex).toDouble();
  host_->setSpeed(initialSpeed > 0.0 ? initialSpeed : SimulationWorker::kMaxSpeed);
  connect(speedCombo_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const double speed = speedCombo_->itemData(index).toDouble();
    host_->setSpeed(speed > 0.0 ? speed : SimulationWorker::kMaxSpeed);
    settings_->setValue(QStringLiteral("run/speed"), speedCombo_->itemText(index));
  });

  QToolBar* bar = addToolBar(tr("Run"));
  bar->setObjectName(QStringLiteral("runToolBar"));
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->addAction(playAction_);
  bar->addAction(stepAction_);
  bar->addAction(resetAction_);
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

void MainWindow::restoreWindowSettings() {
  QSettings& settings = *settings_;
  editor_->setStopAtEnd(settings.value(QStringLiteral("run/stopAtEnd"), false).toBool());
  followAction_->setChecked(settings.value(QStringLiteral("view/follow"), true).toBool());
  trailAction_->setChecked(settings.value(QStringLiteral("view/trail"), true).toBool());
  logErrorAction_->setChecked(settings.value(QStringLiteral("plots/logError"), false).toBool());
  antialiasAction_->setChecked(settings.value(QStringLiteral("view/antialiasing"), false).toBool());
}

std::uint64_t MainWindow::send(const Scenario& scenario, Request request) {
  if (!host_) return 0;
  const std::uint64_t id = nextRequest_++;
  requests_[id] = std::move(request);
  // A new run keeps the play/pause state; a run the integrator's failure paused plays again.
  host_->start(scenario, id, running_ || failedWhilePlaying_);
  return id;
}

void MainWindow::selectSystem(const QString& id) { openSystem(id, RequestKind::System); }

void MainWindow::openSystem(const QString& id, RequestKind kind) {
  const SystemDescription* system = findSystem(id.toStdString());
  if (!system) return;
  const Scenario stored = options_.restoreSettings ? readStoredScenario(*settings_, *system)
                                                   : defaultScenario(*system);
  Request request{kind, nullptr, id};
  request.defaults = equalScenarios(stored, defaultScenario(*system));
  send(stored, request);
}

void MainWindow::onStarted(RunInfoPtr info) {
  Request request{RequestKind::Reset, nullptr, QString()};
  if (auto it = requests_.find(info->requestId); it != requests_.end()) {
    request = it->second;
    requests_.erase(requests_.begin(), std::next(it));  // older requests were answered too
  }
  const Scenario& s = info->scenario;
  const bool sameSystem = scene_->system == s.system;
  if (!sameSystem) {
    scene_->keptCamera = nullptr;
    scene_->view->setScene(info->scene);  // a new system: its default camera
  } else if (scene_->parameters != s.parameters || !sameBody(scene_->body, s.body) ||
             scene_->bodies != info->scene.bodies.size()) {
    // Same system, new geometry (or a replay that draws no bodies): rebuild the actors but keep
    // the user's camera.
    if (!scene_->keptCamera) {
      scene_->keptCamera = vtkSmartPointer<vtkCamera>::New();
      scene_->keptCamera->DeepCopy(scene_->renderer->GetActiveCamera());
    }
    scene_->view->setScene(info->scene);
  } else {
    scene_->view->clearHistory();
  }
  scene_->view->setFollow(followAction_->isChecked());
  scene_->view->setTrailVisible(trailAction_->isChecked());
  scene_->system = s.system;
  scene_->parameters = s.parameters;
  scene_->body = s.body;
  scene_->bodies = info->scene.bodies.size();

  // A replay is no scenario of the user's: not an undo step, not remembered for its system.
  if (run_ && !info->replay() &&
      (request.kind == RequestKind::Edit || request.kind == RequestKind::System ||
       request.kind == RequestKind::File)) {
    const QString what = request.kind == RequestKind::Edit     ? tr("Edit")
                         : request.kind == RequestKind::System ? tr("System")
                                                               : tr("Open %1").arg(request.label);
    history_->started(run_->scenario, s, what);
  }
  failedWhilePlaying_ = false;
  run_ = info;
  lastSnapshot_.reset();
  pacer_->runStarted();  // the new run's first snapshot is plotted at once
  status_->runStarted();
  plots_->setRun(*info);
  if (request.kind == RequestKind::Edit || request.kind == RequestKind::Reset) {
    // A reset runs what the editor shows: fields still marked as refused keep their text.
    editor_->accepted(s, request.source);
  } else {
    editor_->setScenario(s);
  }
  editor_->runStarted(*info);
  if (!info->replay() && (options_.restoreSettings || request.kind != RequestKind::Startup)) {
    storeScenario(*settings_, s);
  }
  const SystemInfo& sys = findSystem(s.system)->info();
  // Qt appends " \u2014 Ricochet" (the application's display name) itself.
  setWindowTitle(tr("%1 (%2)").arg(qs(sys.title), qs(sys.source)));
  if (request.kind == RequestKind::File) {
    statusBar()->showMessage(tr("Opened %1").arg(request.label), 5000);
    emit scenarioFileOpened(request.path);
  } else if (request.kind == RequestKind::Edit) {
    statusBar()->showMessage(tr("Restarted with the new value"), 3000);
  } else if (request.kind == RequestKind::Reset) {
    statusBar()->showMessage(tr("Reset to the initial conditions"), 3000);
  }
  emit runStarted();
}

void MainWindow::onRejected(quint64 requestId, const QString& message) {
  Request request{RequestKind::Reset, nullptr, QString()};
  if (auto it = requests_.find(requestId); it != requests_.end()) {
    request = it->second;
    requests_.erase(it);
  }
  switch (request.kind) {
    case RequestKind::Edit:
      editor_->refused(request.source, message);
      statusBar()->showMessage(tr("Refused: %1").arg(message), 10000);
      break;
    case RequestKind::Reset:  // the running scenario again: only if its checks changed
      statusBar()->showMessage(tr("Reset refused: %1").arg(message), 10000);
      break;
    case RequestKind::History:
      statusBar()->showMessage(tr("Undo/redo refused: %1").arg(message), 10000);
      if (run_) editor_->setScenario(run_->scenario);
      break;
    case RequestKind::System:
    case RequestKind::Startup: {
      if (request.defaults) {  // the paper's defaults refused: nothing sensible to fall back to
        statusBar()->showMessage(tr("Refused: %1").arg(message));
        if (run_) editor_->setScenario(run_->scenario);  // the picker shows what runs
        break;
      }
      // A remembered scenario that no longer starts (e.g. the system's checks changed): fall
      // back to the paper's defaults and say so.
      statusBar()->showMessage(
          tr("Stored scenario refused (%1); using the paper's defaults").arg(message), 10000);
      if (const SystemDescription* sys = findSystem(request.label.toStdString())) {
        Request retry{request.kind, nullptr, request.label};
        retry.defaults = true;
        send(defaultScenario(*sys), retry);
      }
      break;
    }
    case RequestKind::Replay:  // a run file the worker cannot play: one box, as for a bad file
      replay_->refuse(tr("Run refused"), message);
      break;
    case RequestKind::File: {
      const QString text = tr("Could not open the scenario %1:\n%2").arg(request.label, message);
      statusBar()->showMessage(tr("Refused: %1").arg(message), 10000);
      auto* box = new QMessageBox(QMessageBox::Warning, tr("Scenario refused"), text,
                                  QMessageBox::Ok, this);
      box->setAttribute(Qt::WA_DeleteOnClose);
      box->open();  // window-modal, never blocks the event loop
      if (!run_) openSystem(defaultSystemId(), RequestKind::Startup);
      break;
    }
  }
  emit requestRefused(message);
}

void MainWindow::onSnapshot(SnapshotPtr s) {
  if (!run_ || s->generation != run_->generation) {  // from a run that has been replaced
    pacer_->snapshotDropped();
    return;
  }
  lastSnapshot_ = s;
  if (!s->failure.isEmpty() && running_ && !s->running) failedWhilePlaying_ = true;
  if (s->seeked) scene_->view->clearHistory();  // a replay jumped: `path` is the whole trail
  scene_->view->extendTrail(s->path);  // the path since the last snapshot, then its end pose
  scene_->view->setPoses(s->poses, s->t);
  if (scene_->keptCamera) {
    scene_->renderer->GetActiveCamera()->DeepCopy(scene_->keptCamera);
    scene_->renderer->ResetCameraClippingRange();
    scene_->keptCamera = nullptr;
  }
  for (const ImpactMark& m : s->newImpacts) scene_->view->addImpact(m.point, m.t);
  status_->show(*s, *run_);
  if (running_ != s->running) {
    running_ = s->running;
    updatePlayAction(running_);
  }
  // Which views draw it, and when the worker may send the next one.
  pacer_->snapshotArrived(s);
  emit snapshotShown();
}

void MainWindow::buildPacer() {
  pacer_ = new FramePacer(this);
  pacer_->setSceneFrameComes(
      [this] { return sceneWidget_->isVisible() && sceneWidget_->hasContext(); });
  pacer_->setPlotFrameComes([this] {
    const QWindow* surface = plots_->view()->window()->windowHandle();
    return plots_->view()->isVisible() && surface && surface->isExposed();
  });
  connect(pacer_, &FramePacer::drawScene, sceneWidget_, &render::VtkWidget::requestRender);
  connect(pacer_, &FramePacer::drawPlots, this,
          [this](const SnapshotPtr& s) { plots_->setSnapshot(s); });
  connect(pacer_, &FramePacer::acknowledge, this, [this] {
    if (host_) host_->snapshotConsumed();
  });
  connect(sceneWidget_, &render::VtkWidget::frameStarted, pacer_, &FramePacer::sceneFrameStarted);
  connect(sceneWidget_, &render::VtkWidget::frameSwapped, pacer_, &FramePacer::sceneFrameSwapped);
  connect(plots_->view(), &PlotCanvas::frameSwapped, pacer_, &FramePacer::plotFrameSwapped);
}

void MainWindow::togglePlay() {
  failedWhilePlaying_ = false;
  if (running_) {
    running_ = false;
    host_->pause();
  } else {
    running_ = true;
    host_->play();
  }
  updatePlayAction(running_);
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
  sceneWidget_->renderWindow()->SetMultiSamples(on ? 8 : 0);
  plots_->view()->setAntialiasing(on);
  sceneWidget_->requestRender();
}

QString MainWindow::aboutHtml() {
  return QString::fromUtf8(kAboutHtml)
      .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion()));
}

void MainWindow::buildHelp(QMenu* help) {
  QAction* started = help->addAction(tr("&Getting Started"), this, [this] {
    showHelpWindow(this, QStringLiteral("gettingStarted"), tr("Getting Started"), gettingStartedHtml());
  });
  started->setObjectName(QStringLiteral("gettingStartedAction"));
  QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), this, [this] {
    showHelpWindow(this, QStringLiteral("keyboardShortcuts"), tr("Keyboard Shortcuts"),
                   shortcutsHtml(menuShortcuts(menuBar())));
  });
  keys->setObjectName(QStringLiteral("shortcutsAction"));
  keys->setShortcut(QKeySequence::HelpContents);
  help->addSeparator();
  help->addAction(tr("&About Ricochet"), this, &MainWindow::showAbout);
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::showAbout() { QMessageBox::about(this, tr("About Ricochet"), aboutHtml()); }

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
  send(scenario, Request{RequestKind::File, nullptr, label, path});
}

void MainWindow::replayRecording(std::shared_ptr<const hdf5::RunFile> run, const QString& label) {
  if (!host_ || !run) return;
  const std::uint64_t id = nextRequest_++;
  requests_[id] = Request{RequestKind::Replay, nullptr, label};
  host_->startRecorded(std::move(run), label, id, running_ || failedWhilePlaying_);
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
