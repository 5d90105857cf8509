#pragma once
// When the main window draws what: the pacing of the 3-D view and the plots while snapshots
// arrive, and when the worker may send the next snapshot.
//
// The pacer decides; MainWindow carries the decisions out (drawScene: a 3-D frame is requested;
// drawPlots: the plots take a snapshot and redraw; acknowledge: the worker may send the next
// snapshot) and reports the frames back (sceneFrameStarted, sceneFrameSwapped, plotFrameSwapped).
// The policy:
//
// * Back-pressure. A snapshot is acknowledged when the 3-D frame showing it starts, so the worker
//   prepares the next one while this one is drawn and never more than one waits. When no 3-D
//   frame will come (the view is hidden, or has no OpenGL), at once; when the frame never comes
//   (the window was minimised meanwhile), after kAckFallbackMs.
// * Plots at most every kPlotPeriodMs while running: they change slowly and cost a chart render.
//   Every paused, stepped or restarted state is plotted at once.
// * The views take turns, one frame per event-loop pass: a running snapshot's plots are drawn
//   after its 3-D frame has been swapped, and the next 3-D frame waits for that plot frame (for
//   kPlotTurnFallbackMs at most, in case it never comes). Requested together, both frames would
//   fall due at once and draw back to back, and input and timers would wait for both: up to
//   ~130 ms on two loaded cores, against ~75 ms for the longer one.
//
// The pacer holds no widget: whether a frame of each view will come is asked through two
// predicates, and time is read from a clock (both replaceable, so the policy is testable alone).

#include "app/desktop/run/run_data.hpp"

#include <QObject>
#include <QTimer>

#include <functional>
#include <optional>

namespace ricochet::app {

class FramePacer : public QObject {
  Q_OBJECT
 public:
  /// Plots redraw at most this often while running (20 Hz).
  static constexpr int kPlotPeriodMs = 50;
  /// Snapshots come on a 1/60 s grid but arrive a little early or late: with this slack every
  /// third one is plotted.
  static constexpr int kPlotSlackMs = 4;
  /// A snapshot whose 3-D frame never starts is acknowledged after this long.
  static constexpr int kAckFallbackMs = 250;
  /// A 3-D frame waits at most this long for a plot frame that never comes (dock hidden).
  static constexpr int kPlotTurnFallbackMs = 100;

  /// Milliseconds on a monotonic clock.
  using Clock = std::function<qint64()>;
  /// Whether a frame of a view will come once it is asked for (visible, with a GL context).
  using FrameComes = std::function<bool()>;

  /// `clock`: empty for the steady clock of a QElapsedTimer.
  explicit FramePacer(QObject* parent = nullptr, Clock clock = {});

  void setSceneFrameComes(FrameComes comes) { sceneFrameComes_ = std::move(comes); }
  void setPlotFrameComes(FrameComes comes) { plotFrameComes_ = std::move(comes); }

  /// A new run: its first snapshot is plotted at once, a snapshot of the old run waiting for its
  /// plot frame is dropped.
  void runStarted();
  /// A snapshot of the current run, already applied to the 3-D scene.
  void snapshotArrived(const SnapshotPtr& snapshot);
  /// A snapshot of a run that has been replaced: nothing to draw, acknowledged at once.
  void snapshotDropped();

  // The views report their frames.
  void sceneFrameStarted();
  void sceneFrameSwapped();
  void plotFrameSwapped();

  // State, for tests.
  bool acknowledgementPending() const { return ackPending_; }
  bool sceneFrameHeld() const { return sceneFrameHeld_; }
  bool plotFrameDue() const { return plotFrameDue_; }
  SnapshotPtr plotsWaiting() const { return plotPending_; }

 signals:
  /// Request a 3-D frame.
  void drawScene();
  /// Show `snapshot` in the plots (they redraw).
  void drawPlots(const ricochet::app::SnapshotPtr& snapshot);
  /// The worker may send the next snapshot.
  void acknowledge();

 private:
  void showPlots(const SnapshotPtr& snapshot);
  void showWaitingPlots();
  void acknowledgeNow();
  void sceneTurn();

  Clock clock_;
  FrameComes sceneFrameComes_;
  FrameComes plotFrameComes_;
  std::optional<qint64> plotsShownAt_;  // when the plots last took a snapshot (none: at once)
  SnapshotPtr plotPending_;             // plotted once the 3-D frame showing it is swapped
  bool plotFrameDue_ = false;           // a plot frame will come
  bool sceneFrameHeld_ = false;         // a 3-D frame waits for that plot frame
  bool ackPending_ = false;             // a snapshot waits for its 3-D frame to start
  QTimer ackFallback_;
  QTimer plotTurnFallback_;
};

}  // namespace ricochet::app
