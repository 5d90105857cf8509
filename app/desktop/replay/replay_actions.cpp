#include "app/desktop/replay/replay_actions.hpp"

#include "app/desktop/plots/plot_panel.hpp"
#include "app/desktop/replay/replay_bar.hpp"
#include "app/desktop/run/run_session.hpp"
#include "app/desktop/view/scene_host.hpp"
#include "app/desktop/widgets/notify.hpp"
#include "core/model/registry.hpp"
#include "io/hdf5/recorded_run.hpp"
#include "io/hdf5/run_file_reader.hpp"
#include "render/scene/scene_view.hpp"

#include <QAction>
#include <QDragMoveEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMenu>
#include <QMimeData>
#include <QStatusBar>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace ricochet::app {

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

// The first local .h5 / .hdf5 file of a drop; empty when there is none.
QString droppedRun(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  for (const QUrl& url : mime->urls()) {
    if (!url.isLocalFile()) continue;
    const QString path = url.toLocalFile();
    if (path.endsWith(QStringLiteral(".h5"), Qt::CaseInsensitive) ||
        path.endsWith(QStringLiteral(".hdf5"), Qt::CaseInsensitive)) {
      return path;
    }
  }
  return {};
}

}  // namespace

struct ReplayActions::Loaded {
  QString path, label;
  bool overlay = false;
  std::string error;  // the reader's message (names the file)
  std::shared_ptr<const hdf5::RunFile> run;
  std::shared_ptr<const OverlayCurves> curves;  // overlays only
  SceneSpec scene;                              // overlays only: the ghost's bodies
};

ReplayActions::ReplayActions(const ReplayParts& parts, QMenu* fileMenu)
    : QObject(parts.window),
      window_(parts.window),
      session_(parts.session),
      bar_(parts.bar),
      plots_(parts.plots),
      scene_(parts.scene),
      editor_(parts.editor) {
  open_ = new QAction(tr("Open R&un..."), this);
  open_->setObjectName(QStringLiteral("openRunAction"));
  open_->setToolTip(
      tr("Replay an HDF5 run file (ricochet-cli run --h5, File > Export HDF5 "
         "Run) without integrating it: same views and plots, with a time slider"));
  connect(open_, &QAction::triggered, this, [this] { showDialog(false); });
  overlay_ = new QAction(tr("O&verlay Run..."), this);
  overlay_->setObjectName(QStringLiteral("overlayRunAction"));
  overlay_->setToolTip(
      tr("Add a second run of the same system (another integrator, h or "
         "parameter): a translucent ghost in the 3-D view, dashed curves in "
         "the plots"));
  connect(overlay_, &QAction::triggered, this, [this] { showDialog(true); });
  remove_ = new QAction(tr("Remove Overla&y"), this);
  remove_->setObjectName(QStringLiteral("removeOverlayAction"));
  remove_->setEnabled(false);
  connect(remove_, &QAction::triggered, this, &ReplayActions::removeOverlay);
  fileMenu->addAction(open_);
  fileMenu->addAction(overlay_);
  fileMenu->addAction(remove_);

  connect(bar_, &ReplayBar::seekRequested, this, [this](double t) { session_->seek(t); });
  connect(bar_, &ReplayBar::runLiveRequested, this, [this] {
    if (const RunInfoPtr run = session_->currentRun(); run && run->replay()) {
      session_->openScenario(run->scenario, run->recordingLabel, QString());
    }
  });
  connect(session_, &RunSession::runStarted, this, &ReplayActions::onRunStarted);
  connect(session_, &RunSession::snapshotShown, this, &ReplayActions::onSnapshot);
  // A run file the worker cannot play: one box, as for a file that cannot be read.
  connect(session_, &RunSession::refused, this,
          [this](const RunRequest& request, const QString& message) {
            if (request.kind == RequestKind::Replay) refuse(tr("Run refused"), message);
          });
  window_->setAcceptDrops(true);
  window_->installEventFilter(this);
}

ReplayActions::~ReplayActions() = default;

void ReplayActions::showDialog(bool overlay) {
  auto* dialog = new QFileDialog(window_, overlay ? tr("Overlay Run") : tr("Open Run"));
  dialog->setObjectName(overlay ? QStringLiteral("overlayRunDialog")
                                : QStringLiteral("openRunDialog"));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setFileMode(QFileDialog::ExistingFile);
  dialog->setNameFilters({tr("Ricochet runs (*.h5)"), tr("All files (*)")});
  dialog->setOption(QFileDialog::DontUseNativeDialog);  // the same dialog everywhere (and in tests)
  connect(dialog, &QFileDialog::fileSelected, this,
          [this, overlay](const QString& path) { load(path, overlay); });
  dialog->open();  // window-modal, never blocks the event loop
}

void ReplayActions::openRun(const QString& path) {
  load(path, false);
}

void ReplayActions::overlayRun(const QString& path) {
  load(path, true);
}

void ReplayActions::load(const QString& path, bool overlay) {
  window_->statusBar()->showMessage(tr("Reading %1...").arg(QFileInfo(path).fileName()));
  auto* watcher = new QFutureWatcher<std::shared_ptr<Loaded>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
    watcher->deleteLater();
    onLoaded(*watcher->result());
  });
  // Reading, checking and (for an overlay) decimating the curves and building the ghost's scene
  // all happen on a pool thread: a long run takes seconds to read.
  watcher->setFuture(QtConcurrent::run([path, overlay] {
    auto l = std::make_shared<Loaded>();
    l->path = path;
    l->label = QFileInfo(path).fileName();
    l->overlay = overlay;
    hdf5::RunFileResult r = hdf5::readRunFile(QFile::encodeName(path).toStdString());
    if (!r.ok()) {
      l->error = r.error;
      return l;
    }
    auto run = std::make_shared<const hdf5::RunFile>(std::move(*r.run));
    const SystemDescription* system = findSystem(run->scenario.system);
    if (!system) {  // parseScenario checks it; a build without that system would get here
      l->error = path.toStdString() + ": unknown system '" + run->system + "'";
      return l;
    }
    if (overlay) {
      l->scene = system->scene(run->scenario);
      if (std::string e = hdf5::RecordedRun::check(*run, l->scene.bodies.size()); !e.empty()) {
        l->error = path.toStdString() + ": " + e;
        return l;
      }
      l->curves = overlayCurves(*run);
    }
    l->run = std::move(run);
    return l;
  }));
}

void ReplayActions::onLoaded(const Loaded& l) {
  if (!l.run) {
    refuse(l.overlay ? tr("Overlay refused") : tr("Run refused"), qs(l.error));
    return;
  }
  if (!l.overlay) {
    lastError_.clear();
    session_->replayRecording(l.run, l.label);  // refusals come back through the session
    return;
  }
  const RunInfoPtr shown = session_->currentRun();
  if (shown && shown->scenario.system != l.run->scenario.system) {
    refuse(tr("Overlay refused"),
           tr("%1 is a run of '%2', the window shows '%3': an overlay needs the same system")
               .arg(l.label, qs(l.run->scenario.system), qs(shown->scenario.system)));
    return;
  }
  lastError_.clear();
  overlayRun_ = l.run;
  overlayLabel_ = l.label;
  ghostScene_ = l.scene;
  plots_->setOverlay(l.curves);
  applyGhost();
  remove_->setEnabled(true);
  window_->statusBar()->showMessage(
      l.run->hasPoses()
          ? tr("Overlay: %1 (%2)").arg(l.label, l.curves->label)
          : tr("Overlay: %1 (%2); it has no recorded poses, so no ghost in the 3-D view")
                .arg(l.label, l.curves->label),
      10000);
  emit overlayChanged();
}

void ReplayActions::refuse(const QString& title, const QString& message) {
  lastError_ = message;
  window_->statusBar()->showMessage(tr("Refused: %1").arg(message), 10000);
  showMessage(
      window_, QMessageBox::Warning, title,
      tr("The run file was not used; the current run goes on unchanged.\n\n%1").arg(message));
  emit refused(message);
}

void ReplayActions::removeOverlay() {
  if (!overlayRun_) return;
  overlayRun_.reset();
  ghostRow_.reset();
  ghostScene_ = SceneSpec{};
  plots_->setOverlay(nullptr);
  scene_->view()->clearGhost();
  scene_->requestRender();
  remove_->setEnabled(false);
  window_->statusBar()->showMessage(tr("Overlay removed"), 3000);
  emit overlayChanged();
}

void ReplayActions::applyGhost() {
  render::SceneView* view = scene_->view();
  if (!overlayRun_ || !overlayRun_->hasPoses()) {
    view->clearGhost();
    return;
  }
  view->setGhost(ghostScene_);
  ghostRow_.reset();
  onSnapshot();
}

void ReplayActions::onRunStarted() {
  const RunInfoPtr run = session_->currentRun();
  if (!run) return;
  // Replay mode: the bar, the title, a read-only editor.
  bar_->setRecording(run->replay() ? run->recording : nullptr);
  editor_->setEnabled(!run->replay());
  if (run->replay()) {
    const SystemInfo& sys = findSystem(run->scenario.system)->info();
    window_->setWindowTitle(tr("Replay of %1: %2").arg(run->recordingLabel, qs(sys.title)));
    window_->statusBar()->showMessage(
        run->recordingHasPoses
            ? tr("Replay of %1 (%2, h = %3)")
                  .arg(run->recordingLabel, qs(run->recording->integrator))
                  .arg(run->recording->h, 0, 'g', 6)
            : tr("Replay of %1: the file has no recorded poses, so the 3-D view shows no "
                 "bodies (the plots are complete)")
                  .arg(run->recordingLabel),
        15000);
  }
  // The overlay stays with its system: another system's run drops it.
  if (overlayRun_ && overlayRun_->scenario.system != run->scenario.system) {
    const QString what =
        tr("Overlay of %1 removed: it is a run of '%2', not of '%3'")
            .arg(overlayLabel_, qs(overlayRun_->scenario.system), qs(run->scenario.system));
    removeOverlay();
    window_->statusBar()->showMessage(what, 10000);
    return;
  }
  if (overlayRun_ && overlayRun_->hasPoses() && !scene_->view()->hasGhost()) {
    applyGhost();  // the scene was rebuilt (new geometry): the ghost goes with it
  }
}

void ReplayActions::onSnapshot() {
  const SnapshotPtr s = session_->lastSnapshot();
  if (!s) return;
  if (const RunInfoPtr run = session_->currentRun(); run && run->replay()) bar_->showTime(s->t);
  if (!overlayRun_ || !overlayRun_->hasPoses()) return;
  // The overlay's last row at or before the shown time (its first before it starts).
  const std::vector<double>& t = *overlayRun_->trace.column("t");
  const auto it = std::upper_bound(t.begin(), t.end(), s->t);
  const std::size_t row = it == t.begin() ? 0 : std::size_t(it - t.begin()) - 1;
  if (ghostRow_ == row) return;
  ghostRow_ = row;
  const std::size_t bodies = overlayRun_->bodies.size();
  scene_->view()->setGhostPoses(
      std::span<const Pose>(overlayRun_->poses.data() + row * bodies, bodies));
  scene_->requestRender();
}

bool ReplayActions::eventFilter(QObject* watched, QEvent* event) {
  switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove: {
      auto* e = static_cast<QDragMoveEvent*>(event);
      if (droppedRun(e->mimeData()).isEmpty()) return QObject::eventFilter(watched, event);
      e->acceptProposedAction();
      return true;
    }
    case QEvent::Drop: {
      auto* e = static_cast<QDropEvent*>(event);
      const QString path = droppedRun(e->mimeData());
      if (path.isEmpty()) return QObject::eventFilter(watched, event);
      e->acceptProposedAction();
      QMetaObject::invokeMethod(
          this, [this, path] { openRun(path); }, Qt::QueuedConnection);
      return true;
    }
    default:
      return QObject::eventFilter(watched, event);
  }
}

}  // namespace ricochet::app
