#pragma once
// Tools > New Study in the main window: opens a StudyWindow (study_window.hpp) seeded from the
// running scenario, as a window of its own beside the main one; several may be open at once.

#include <QObject>

class QAction;
class QMenu;

namespace ricochet::app {

class RunSession;
class StudyWindow;

class StudyActions : public QObject {
  Q_OBJECT
 public:
  /// Adds "New Study..." (Ctrl+Shift+N) to `toolsMenu`; the study windows open over `window`,
  /// seeded from `session`'s running scenario, and load their runs into it.
  StudyActions(QWidget* window, RunSession* session, QMenu* toolsMenu);
  QAction* newStudyAction() const { return newStudy_; }
  /// Opens a new study window (null when no scenario runs yet).
  StudyWindow* newStudy();

 private:
  QWidget* window_;
  RunSession* session_;
  QAction* newStudy_ = nullptr;
};

}  // namespace ricochet::app
