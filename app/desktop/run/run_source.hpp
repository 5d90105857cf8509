#pragma once
// The run on screen, for the rooms that only read it: the exports, the replay actions, the
// studies, the scenario files. They hold a RunSource (RunSession is the one there is), never the
// window: the current run (its RunInfo: scenario, scene, series, recording), the snapshot on
// screen, and a signal when either changes.

#include "app/desktop/run/run_data.hpp"

#include <QObject>

namespace ricochet::app {

class RunSource : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;

  /// The run shown now, its scenario included (null before the first has started).
  virtual RunInfoPtr currentRun() const = 0;
  /// Its snapshot on screen (null until its first one has been shown).
  virtual SnapshotPtr lastSnapshot() const = 0;

 signals:
  /// A run (re)started: after a system switch, an accepted edit, a reset, a file or a replay.
  void runStarted();
  /// A snapshot has been applied to the 3-D view, the plots and the status bar.
  void snapshotShown();
};

}  // namespace ricochet::app
