#pragma once
// Tools > New Study in the main window: opens a StudyWindow (study_window.hpp) seeded from the
// running scenario, as a window of its own beside the main one; several may be open at once.

#include <QObject>

class QAction;
class QMenu;

namespace ricochet::app {

class MainWindow;
class StudyWindow;

class StudyActions : public QObject {
  Q_OBJECT
 public:
  /// Adds "New Study..." (Ctrl+Shift+N) to `toolsMenu`.
  StudyActions(MainWindow* window, QMenu* toolsMenu);
  QAction* newStudyAction() const { return newStudy_; }
  /// Opens a new study window (null when no scenario runs yet).
  StudyWindow* newStudy();

 private:
  MainWindow* window_;
  QAction* newStudy_ = nullptr;
};

}  // namespace ricochet::app
