#pragma once
// Undo and redo of scenario changes (Edit menu), on a QUndoStack: each accepted edit, system
// change, preset or opened file is one step, holding the scenario before and after it. Undo runs
// the scenario before again, exactly (the same doubles), and redo the one after; neither is a new
// step. A reset or a run restarted at t_end changes no scenario and is no step.

#include "app/desktop/run/run_data.hpp"
#include "app/desktop/run/run_request.hpp"
#include "core/model/system.hpp"

#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QUndoStack;

namespace ricochet::app {

class ScenarioHistory : public QObject {
  Q_OBJECT
 public:
  /// `run`: asks the window to run a scenario (the worker may still refuse it).
  ScenarioHistory(QObject* parent, std::function<void(const Scenario&)> run);

  /// A run of `after` started in place of `before` because of `what` ("Edit", "Open x.json"):
  /// one undo step, unless nothing changed.
  void started(const Scenario& before, const Scenario& after, const QString& what);
  /// The run `info` replaced `previous` (null: the first run) for `request`: an undo step for an
  /// edit, a system switch or an opened file (started()); none for a reset, an undo or redo, the
  /// start-up run or a replay (no scenario of the user's).
  void runAccepted(const RunInfo* previous, const RunInfo& info, const RunRequest& request);

  QUndoStack* stack() const { return stack_; }
  /// Edit menu actions bound to the stack (Ctrl+Z, Ctrl+Shift+Z), owned by `parent`.
  QAction* createUndoAction(QObject* parent) const;
  QAction* createRedoAction(QObject* parent) const;

  /// Runs `s` as an undo or redo.
  void apply(const Scenario& s);

 private:
  QUndoStack* stack_;
  std::function<void(const Scenario&)> run_;
  bool pushing_ = false;
};

}  // namespace ricochet::app
