#pragma once
// The main window's status bar fields: run state, simulated time, steps, impacts, steps per
// second and the energy error of the snapshot on screen, and a message the first time a run
// reports an integrator failure or an energy warning (its energy error passed its integrator's
// bound: the state reads "running, energy warning", the warning in its tooltip).

#include "app/desktop/run/run_data.hpp"

#include <QObject>
#include <QString>

#include <map>

class QLabel;
class QStatusBar;

namespace ricochet::app {

class RunStatus : public QObject {
  Q_OBJECT
 public:
  /// Adds the fields to `bar` (permanent widgets, right-aligned).
  explicit RunStatus(QStatusBar* bar);

  /// A new run: its failure or energy warning, if it has one, is announced again.
  void runStarted() {
    shownFailure_.clear();
    warned_ = false;
  }
  /// Shows `snapshot` of `run`.
  void show(const Snapshot& snapshot, const RunInfo& run);

  /// "state", "time", "steps", "impacts", "rate" or "error"; null for another name.
  QLabel* field(const QString& name) const;

 private:
  QStatusBar* bar_;
  std::map<QString, QLabel*> fields_;
  QString shownFailure_;
  bool warned_ = false;
};

}  // namespace ricochet::app
