#include "app/desktop/study/study_actions.hpp"

#include "app/desktop/run/run_session.hpp"
#include "app/desktop/study/study_window.hpp"

#include <QAction>
#include <QKeySequence>
#include <QMenu>

namespace ricochet::app {

StudyActions::StudyActions(QWidget* window, RunSession* session, QMenu* toolsMenu)
    : QObject(window), window_(window), session_(session) {
  newStudy_ = toolsMenu->addAction(tr("New &Study..."), this, [this] { newStudy(); });
  newStudy_->setObjectName(QStringLiteral("newStudyAction"));
  newStudy_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
  newStudy_->setToolTip(tr("Many runs of the running scenario: sweeps, random draws, convergence, "
                           "sensitivity, integrators compared"));
}

StudyWindow* StudyActions::newStudy() {
  const RunInfoPtr run = session_->currentRun();
  if (!run) return nullptr;
  auto* w = new StudyWindow(session_, run->scenario, window_);
  w->show();
  w->raise();
  w->activateWindow();
  return w;
}

}  // namespace ricochet::app
