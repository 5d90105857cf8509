#pragma once
// File > Open Run... and File > Overlay Run...: HDF5 run files (io/hdf5/run_file.hpp) in the
// window.
//
// * Open Run (or a .h5 dropped on the window) replays a run without integrating: the worker plays
//   the file's rows through the usual snapshots (hdf5::RecordedRun), so the 3-D view, the plots,
//   the status bar and the exports show it as they show a live run. While it replays, the title
//   says "Replay of FILE", the replay bar under the 3-D view scrubs it, and the scenario editor is
//   read-only (disabled): an edit would start a live run, which the bar's Run Live button does
//   explicitly. Play, Pause, Step, Reset and the speed work on the replay as on a live run.
// * Overlay Run adds a second run of the same system (another integrator, h or parameter) to
//   whatever is shown, live or replayed: a translucent ghost of its bodies at its recorded pose at
//   (or just before) the shown time, and its curves dashed in the time plots. Remove Overlay
//   clears it; a run of another system is refused, naming both.
//
// Files are read off the GUI thread. A file that cannot be used (not HDF5, not a Ricochet run,
// unknown system, truncated) gets one message in a box and in the status bar, and the shown run
// goes on.

#include "app/desktop/plots/overlay_curves.hpp"
#include "core/model/scene.hpp"
#include "io/hdf5/run_file.hpp"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QMainWindow;
class QMenu;
class QWidget;

namespace ricochet::app {

class PlotPanel;
class ReplayBar;
class RunSession;
class SceneHost;

/// What the replay actions work with: none of it is the window itself.
struct ReplayParts {
  QMainWindow* window = nullptr;  ///< dialogs, status bar, title, drops
  RunSession* session = nullptr;  ///< the run shown; replays and Run Live are asked of it
  ReplayBar* bar = nullptr;       ///< under the 3-D view
  PlotPanel* plots = nullptr;     ///< the overlay's dashed curves
  SceneHost* scene = nullptr;     ///< the overlay's ghost
  QWidget* editor = nullptr;      ///< read-only while a replay plays
};

class ReplayActions : public QObject {
  Q_OBJECT
 public:
  /// Adds Open Run..., Overlay Run... and Remove Overlay to `fileMenu`; drives `parts.bar`.
  ReplayActions(const ReplayParts& parts, QMenu* fileMenu);
  ~ReplayActions() override;

  /// Reads `path` in the background, then replays it (or refuses it). What the action's dialog
  /// and a drop call.
  void openRun(const QString& path);
  /// Reads `path` in the background, then overlays it on the shown run (or refuses it).
  void overlayRun(const QString& path);
  void removeOverlay();
  /// Says that a run file was not used: `message` (naming the file) in a box titled `title` and in
  /// the status bar; refused(message).
  void refuse(const QString& title, const QString& message);

  QAction* openRunAction() const { return open_; }
  QAction* overlayRunAction() const { return overlay_; }
  QAction* removeOverlayAction() const { return remove_; }
  ReplayBar* bar() const { return bar_; }
  /// The overlaid run (null: none).
  std::shared_ptr<const hdf5::RunFile> overlay() const { return overlayRun_; }
  /// The overlaid run's row drawn as the ghost now (nullopt: none).
  std::optional<std::size_t> ghostRow() const { return ghostRow_; }
  /// The last file refused, with the reason (empty when the last one was accepted).
  QString lastError() const { return lastError_; }

 signals:
  /// A run file was read and refused: `message` names the file and the reason.
  void refused(const QString& message);
  /// An overlay was added (or removed).
  void overlayChanged();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  struct Loaded;  // a file read in the background, with what its use needs
  void showDialog(bool overlay);
  void load(const QString& path, bool overlay);
  void onLoaded(const Loaded& loaded);
  void onRunStarted();
  void onSnapshot();
  void applyGhost();

  QMainWindow* window_;
  RunSession* session_;
  ReplayBar* bar_;
  PlotPanel* plots_;
  SceneHost* scene_;
  QWidget* editor_;
  QAction* open_ = nullptr;
  QAction* overlay_ = nullptr;
  QAction* remove_ = nullptr;
  std::shared_ptr<const hdf5::RunFile> overlayRun_;
  QString overlayLabel_;
  SceneSpec ghostScene_;
  std::optional<std::size_t> ghostRow_;
  QString lastError_;
};

}  // namespace ricochet::app
