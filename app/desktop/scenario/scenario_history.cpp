#include "app/desktop/scenario/scenario_history.hpp"

#include "core/io/scenario_io.hpp"

#include <QAction>
#include <QKeySequence>
#include <QUndoCommand>
#include <QUndoStack>

namespace ricochet::app {

namespace {

class ScenarioCommand : public QUndoCommand {
 public:
  ScenarioCommand(ScenarioHistory* history, Scenario before, Scenario after, const QString& text)
      : QUndoCommand(text), history_(history), before_(std::move(before)), after_(std::move(after)) {}
  void undo() override { history_->apply(before_); }
  void redo() override {
    if (first_) {  // pushed once the change already runs
      first_ = false;
      return;
    }
    history_->apply(after_);
  }

 private:
  ScenarioHistory* history_;
  Scenario before_, after_;
  bool first_ = true;
};

}  // namespace

ScenarioHistory::ScenarioHistory(QObject* parent, std::function<void(const Scenario&)> run)
    : QObject(parent), stack_(new QUndoStack(this)), run_(std::move(run)) {
  stack_->setUndoLimit(200);
}

void ScenarioHistory::started(const Scenario& before, const Scenario& after, const QString& what) {
  if (io::sameScenario(before, after)) return;
  pushing_ = true;
  stack_->push(new ScenarioCommand(this, before, after, what));
  pushing_ = false;
}

void ScenarioHistory::runAccepted(const RunInfo* previous, const RunInfo& info,
                                  const RunRequest& request) {
  if (!previous || info.replay()) return;
  switch (request.kind) {
    case RequestKind::Edit: started(previous->scenario, info.scenario, tr("Edit")); break;
    case RequestKind::System: started(previous->scenario, info.scenario, tr("System")); break;
    case RequestKind::File:
      started(previous->scenario, info.scenario, tr("Open %1").arg(request.label));
      break;
    default: break;
  }
}

void ScenarioHistory::apply(const Scenario& s) {
  if (pushing_) return;
  run_(s);
}

QAction* ScenarioHistory::createUndoAction(QObject* parent) const {
  QAction* a = stack_->createUndoAction(parent, tr("&Undo"));
  a->setObjectName(QStringLiteral("undoAction"));
  a->setShortcut(QKeySequence::Undo);
  return a;
}

QAction* ScenarioHistory::createRedoAction(QObject* parent) const {
  QAction* a = stack_->createRedoAction(parent, tr("&Redo"));
  a->setObjectName(QStringLiteral("redoAction"));
  a->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
  return a;
}

}  // namespace ricochet::app
