#include "app/desktop/scenario/scenario_files.hpp"

#include "app/desktop/bodies/body_editor.hpp"
#include "app/desktop/run/run_session.hpp"
#include "app/desktop/scenario/presets_menu.hpp"
#include "app/desktop/scenario/scenario_editor.hpp"
#include "app/desktop/widgets/notify.hpp"
#include "core/io/scenario_io.hpp"

#include <QAction>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QUrl>

namespace ricochet::app {

namespace {
const QString kRecentKey = QStringLiteral("files/recent");
const QString kLastDirKey = QStringLiteral("files/lastDirectory");
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

ScenarioFiles::ScenarioFiles(QMainWindow* window, RunSession* session, ScenarioEditor* editor)
    : QObject(window), window_(window), session_(session), editor_(editor) {
  QStyle* st = window->style();
  openAction_ = new QAction(st->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Scenario..."), this);
  openAction_->setObjectName(QStringLiteral("openScenarioAction"));
  openAction_->setIconText(tr("Open"));
  openAction_->setShortcut(QKeySequence::Open);
  openAction_->setToolTip(tr("Open a scenario file (.json, as saved here or by ricochet-cli) (Ctrl+O)"));
  connect(openAction_, &QAction::triggered, this, &ScenarioFiles::openDialog);

  saveAction_ = new QAction(st->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save Scenario"), this);
  saveAction_->setObjectName(QStringLiteral("saveScenarioAction"));
  saveAction_->setIconText(tr("Save"));
  saveAction_->setShortcut(QKeySequence::Save);
  saveAction_->setToolTip(tr("Save the running scenario; `ricochet-cli run FILE` reproduces it "
                             "exactly (Ctrl+S)"));
  connect(saveAction_, &QAction::triggered, this, &ScenarioFiles::save);

  saveAsAction_ = new QAction(tr("Save Scenario &As..."), this);
  saveAsAction_->setObjectName(QStringLiteral("saveScenarioAsAction"));
  saveAsAction_->setShortcut(QKeySequence::SaveAs);
  connect(saveAsAction_, &QAction::triggered, this, &ScenarioFiles::saveAsDialog);

  recentMenu_ = new QMenu(tr("Open &Recent"), window);
  recentMenu_->setObjectName(QStringLiteral("recentMenu"));
  connect(recentMenu_, &QMenu::aboutToShow, this, &ScenarioFiles::rebuildRecentMenu);
  rebuildRecentMenu();

  connect(session, &RunSession::scenarioFileOpened, this, &ScenarioFiles::onFileOpened);
  connect(session, &RunSession::runStarted, this, &ScenarioFiles::onRunStarted);
  window->setAcceptDrops(true);
  window->installEventFilter(this);
}

io::ScenarioResult loadScenarioFile(const QString& path) {
  const QFileInfo info(path);
  if (info.exists() && !info.isFile() && !info.isDir()) {  // folders get core/io's message
    io::ScenarioResult r;
    r.error = QObject::tr("%1: not a regular file").arg(path).toStdString();
    return r;
  }
  return io::loadScenario(QFile::encodeName(path).toStdString());
}

bool ScenarioFiles::open(const QString& path) {
  if (path.isEmpty()) return false;
  const io::ScenarioResult r = loadScenarioFile(path);
  if (!r.ok()) {
    refuse(qs(r.error));
    return false;
  }
  session_->openScenario(*r.scenario, QFileInfo(path).fileName(), QFileInfo(path).absoluteFilePath());
  return true;
}

bool ScenarioFiles::openPreset(const Preset& preset) {
  QFile f(preset.resource);
  if (!f.open(QIODevice::ReadOnly)) {
    refuse(tr("%1: preset not found in this build").arg(preset.file));
    return false;
  }
  const QByteArray text = f.readAll();
  const io::ScenarioResult r =
      io::parseScenario(std::string_view(text.constData(), std::size_t(text.size())),
                        preset.file.toStdString());
  if (!r.ok()) {
    refuse(qs(r.error));
    return false;
  }
  session_->openScenario(*r.scenario, tr("the preset %1").arg(preset.file), QString());
  return true;
}

QString ScenarioFiles::saveTo(const QString& path) {
  const RunInfoPtr run = session_->currentRun();
  QString error;
  if (!run) {
    error = tr("%1: nothing to save, no scenario is running").arg(path);
  } else if (const std::string e = io::saveScenario(QFile::encodeName(path).toStdString(), run->scenario);
             !e.empty()) {
    error = qs(e);
  }
  if (!error.isEmpty()) {
    window_->statusBar()->showMessage(tr("Not saved: %1").arg(error), 10000);
    showMessage(window_, QMessageBox::Warning, tr("Scenario not saved"), error);
    return error;
  }
  const QFileInfo info(path);
  currentPath_ = info.absoluteFilePath();
  fileScenario_ = run->scenario;
  QSettings().setValue(kLastDirKey, info.absolutePath());
  addRecent(currentPath_);
  updateTitle();
  window_->statusBar()->showMessage(tr("Saved %1").arg(info.fileName()), 5000);
  emit filesChanged();
  return {};
}

void ScenarioFiles::openDialog() {
  const QString path = QFileDialog::getOpenFileName(window_, tr("Open Scenario"), lastDirectory(),
                                                    tr("Ricochet scenarios (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  QSettings().setValue(kLastDirKey, QFileInfo(path).absolutePath());
  open(path);
}

void ScenarioFiles::save() {
  if (currentPath_.isEmpty()) {
    saveAsDialog();
  } else {
    saveTo(currentPath_);
  }
}

void ScenarioFiles::saveAsDialog() {
  const RunInfoPtr run = session_->currentRun();
  if (!run) return;
  const QString suggested =
      currentPath_.isEmpty() ? QDir(lastDirectory()).filePath(qs(run->scenario.system) + QStringLiteral(".json"))
                             : currentPath_;
  QFileDialog dialog(window_, tr("Save Scenario As"), suggested,
                     tr("Ricochet scenarios (*.json)"));
  dialog.setAcceptMode(QFileDialog::AcceptSave);
  dialog.setDefaultSuffix(QStringLiteral("json"));
  if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return;
  saveTo(dialog.selectedFiles().front());
}

QStringList ScenarioFiles::recentFiles() {
  QSettings settings;
  const QStringList stored = settings.value(kRecentKey).toStringList();
  QStringList kept;
  for (const QString& p : stored) {
    if (QFileInfo::exists(p) && !kept.contains(p)) kept << p;
  }
  while (kept.size() > kMaxRecent) kept.removeLast();
  if (kept != stored) settings.setValue(kRecentKey, kept);
  return kept;
}

QString ScenarioFiles::droppedScenario(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  for (const QUrl& url : mime->urls()) {
    if (!url.isLocalFile()) continue;
    const QString path = url.toLocalFile();
    if (path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) return path;
  }
  return {};
}

QString ScenarioFiles::droppedBodyMesh(const QMimeData* mime) const {
  const BodyEditor* body = editor_->bodyEditor();
  return body->isVisibleTo(editor_) ? BodyEditor::droppedMesh(mime) : QString();
}

bool ScenarioFiles::eventFilter(QObject* watched, QEvent* event) {
  switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove: {
      auto* e = static_cast<QDragMoveEvent*>(event);  // QDragEnterEvent is a QDragMoveEvent
      if (droppedScenario(e->mimeData()).isEmpty() && droppedBodyMesh(e->mimeData()).isEmpty()) {
        return QObject::eventFilter(watched, event);
      }
      e->acceptProposedAction();
      return true;
    }
    case QEvent::Drop: {
      auto* e = static_cast<QDropEvent*>(event);
      const QString path = droppedScenario(e->mimeData());
      if (const QString mesh = droppedBodyMesh(e->mimeData()); path.isEmpty() && !mesh.isEmpty()) {
        e->acceptProposedAction();
        editor_->bodyEditor()->importMesh(mesh);  // read in the background
        return true;
      }
      if (path.isEmpty()) return QObject::eventFilter(watched, event);
      e->acceptProposedAction();
      // Opened from the event loop: a refusal box must not be raised inside the drag machinery.
      QMetaObject::invokeMethod(this, [this, path] { open(path); }, Qt::QueuedConnection);
      return true;
    }
    default:
      return QObject::eventFilter(watched, event);
  }
}

void ScenarioFiles::refuse(const QString& message) {
  window_->statusBar()->showMessage(tr("Refused: %1").arg(message), 10000);
  showMessage(window_, QMessageBox::Warning, tr("Scenario refused"),
              tr("The scenario was not opened; the current run goes on unchanged.\n\n%1").arg(message));
  emit refused(message);
}

void ScenarioFiles::addRecent(const QString& path) {
  QSettings settings;
  QStringList list = settings.value(kRecentKey).toStringList();
  list.removeAll(path);
  list.prepend(path);
  while (list.size() > kMaxRecent) list.removeLast();
  settings.setValue(kRecentKey, list);
  rebuildRecentMenu();
}

void ScenarioFiles::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList files = recentFiles();
  for (int i = 0; i < files.size(); ++i) {
    const QString& path = files[i];
    // "&1 name.json" (keyboard accelerators 1..8), the full path as tooltip and status tip.
    QAction* a = recentMenu_->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
    a->setToolTip(path);
    a->setStatusTip(path);
    a->setData(path);
    connect(a, &QAction::triggered, this, [this, path] {
      if (!QFileInfo::exists(path)) {  // gone since the menu was built
        rebuildRecentMenu();
        refuse(tr("%1: no such file (removed from the recent files)").arg(path));
        return;
      }
      open(path);
    });
  }
  if (files.isEmpty()) {
    recentMenu_->addAction(tr("(none)"))->setEnabled(false);
  } else {
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("&Clear List"), this, [this] {
      QSettings().remove(kRecentKey);
      rebuildRecentMenu();
      emit filesChanged();
    });
  }
}

void ScenarioFiles::onFileOpened(const QString& path) {
  const RunInfoPtr run = session_->currentRun();
  if (path.isEmpty() || !run) {  // a preset: a new, unsaved scenario
    currentPath_.clear();
    fileScenario_.reset();
  } else {
    currentPath_ = QFileInfo(path).absoluteFilePath();
    fileScenario_ = run->scenario;
    addRecent(currentPath_);
  }
  emit filesChanged();
}

void ScenarioFiles::onRunStarted() {
  // The window has just written its own title for the new run (system and paper).
  baseTitle_ = window_->windowTitle();
  updateTitle();
}

void ScenarioFiles::updateTitle() {
  if (baseTitle_.isEmpty()) baseTitle_ = window_->windowTitle();
  if (currentPath_.isEmpty()) {
    window_->setWindowTitle(baseTitle_);
    window_->setWindowModified(false);
    return;
  }
  window_->setWindowTitle(baseTitle_ + QStringLiteral(" \u2014 ") + QFileInfo(currentPath_).fileName() +
                          QStringLiteral("[*]"));
  const RunInfoPtr run = session_->currentRun();
  window_->setWindowModified(!(run && fileScenario_ && io::sameScenario(run->scenario, *fileScenario_)));
}

QString ScenarioFiles::lastDirectory() const {
  const QString dir = QSettings().value(kLastDirKey).toString();
  return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

}  // namespace ricochet::app
