#pragma once
// Scenario files in the desktop app: Open (Ctrl+O), Save (Ctrl+S), Save As,
// Open Recent, the paper presets, drag and drop of a .json onto the window (and of a mesh file,
// which becomes the rigid body when the Body section is shown). Files are the
// contract's format, read and written by core/io (strict validation, atomic save), so a file saved
// here runs identically with `ricochet-cli run FILE`.
//
// A refused file (unreadable, malformed, truncated, hostile: wrong types, NaN, huge numbers,
// unknown keys, deep nesting, > 1 MiB; or an initial state the system refuses) shows ONE message
// naming the key and changes nothing: the running simulation, the editors, the window title and the
// recent list stay as they were. A file joins the recent list only once its run has started.
//
// The window title names the current file ("... - name.json") with Qt's modified mark (*) while the
// running scenario differs from what the file holds.

#include "core/io/scenario_io.hpp"
#include "core/model/system.hpp"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>

class QAction;
class QMainWindow;
class QMenu;
class QMimeData;

namespace ricochet::app {

class RunSession;
class ScenarioEditor;
struct Preset;

/// core/io's loadScenario behind a guard: a path that exists but is neither a regular file nor a
/// folder (a FIFO, a device) is refused unread, since opening it can block until a writer comes,
/// forever. Every way into the app (--scenario, Open, Recent, drops) reads files through here.
io::ScenarioResult loadScenarioFile(const QString& path);

class ScenarioFiles : public QObject {
  Q_OBJECT
 public:
  static constexpr int kMaxRecent = 8;

  /// Installs the drag-and-drop handling on `window` (also its child views), opens files into
  /// `session` and tracks its runs; a dropped mesh goes to `editor`'s Body section.
  ScenarioFiles(QMainWindow* window, RunSession* session, ScenarioEditor* editor);

  /// Reads `path` and opens it. On a refusal shows one message (box + status bar), emits
  /// refused() and returns false; nothing else changes. True when the file parsed and was sent to
  /// the worker (which may still refuse the initial state: that message comes from the window).
  bool open(const QString& path);
  /// Opens an embedded preset (a new, unsaved scenario: Save asks for a file name).
  bool openPreset(const Preset& preset);
  /// Writes the running scenario to `path` atomically and makes it the current file. Empty on
  /// success, otherwise the one-line reason (also shown in a box and the status bar).
  QString saveTo(const QString& path);

  // The menu commands (dialogs).
  void openDialog();
  void save();  ///< to the current file, or Save As when there is none
  void saveAsDialog();

  /// Most recent first; entries whose file no longer exists are dropped (and forgotten).
  QStringList recentFiles();
  /// The file the current scenario came from or was saved to; empty when none.
  QString currentFile() const { return currentPath_; }
  /// The first local .json file in `mime`, empty when there is none (what a drop would open).
  static QString droppedScenario(const QMimeData* mime);
  /// The first mesh file in `mime` while the Body section is shown (rigid-body): a drop of it
  /// becomes the body (BodyEditor::importMesh). Empty otherwise.
  QString droppedBodyMesh(const QMimeData* mime) const;

  QAction* openAction() const { return openAction_; }
  QAction* saveAction() const { return saveAction_; }
  QAction* saveAsAction() const { return saveAsAction_; }
  QMenu* recentMenu() const { return recentMenu_; }

 signals:
  /// A file was refused; `message` is the one line shown (it names the key or the value).
  void refused(const QString& message);
  /// The current file or the recent list changed.
  void filesChanged();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void refuse(const QString& message);
  void addRecent(const QString& path);
  void rebuildRecentMenu();
  void onFileOpened(const QString& path);
  void onRunStarted();
  void updateTitle();
  QString lastDirectory() const;

  QMainWindow* window_;
  RunSession* session_;
  ScenarioEditor* editor_;
  QAction* openAction_ = nullptr;
  QAction* saveAction_ = nullptr;
  QAction* saveAsAction_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QString currentPath_;                 // the current file ("" when none)
  std::optional<Scenario> fileScenario_;  // what the current file holds
  QString baseTitle_;                   // the window's title without the file part
};

}  // namespace ricochet::app
