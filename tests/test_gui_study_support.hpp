#pragma once
// Helpers of the study window suites (tests/test_gui_study*.cpp): opening Tools > New Study from
// a real main window, driving the study editor as a user would (the Add menu, the kind combos,
// typing into fields), running a study to its end, reading CSVs back and grabbing screenshots.

#include "test_gui_export_support.hpp"

#include "app/desktop/study/study_axis_row.hpp"
#include "app/desktop/study/study_editor.hpp"
#include "app/desktop/study/study_job.hpp"
#include "app/desktop/study/study_plot.hpp"
#include "app/desktop/study/study_window.hpp"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QTimer>

namespace studytest {

using guitest::waitFor;
using ricochet::app::MainWindow;
using ricochet::app::StudyAxisRow;
using ricochet::app::StudyEditor;
using ricochet::app::StudyWindow;

/// Tools > New Study, through the main window's menu bar: the study window it opens.
inline StudyWindow* openStudy(MainWindow& w) {
  QAction* action = nullptr;
  for (QAction* menu : w.menuBar()->actions()) {
    if (!menu->menu() || menu->text() != QStringLiteral("&Tools")) continue;
    for (QAction* a : menu->menu()->actions()) {
      if (a->objectName() == QStringLiteral("newStudyAction")) action = a;
    }
  }
  if (!action) return nullptr;
  const auto before = w.findChildren<StudyWindow*>();
  action->trigger();
  StudyWindow* opened = nullptr;
  waitFor([&] {
    for (StudyWindow* s : w.findChildren<StudyWindow*>()) {
      if (!before.contains(s)) opened = s;
    }
    return opened != nullptr;
  });
  if (opened) (void)QTest::qWaitForWindowExposed(opened);
  return opened;
}

/// Picks `field` in the editor's "Add a field to vary" menu (submenu `group`), as a user would:
/// the button opens the menu, the entry is triggered. Returns the new axis row.
inline StudyAxisRow* addFieldFromMenu(StudyEditor& editor, const QString& group, const QString& field) {
  const std::size_t before = editor.axes().size();
  bool picked = false;
  QTimer::singleShot(50, [&] {
    auto* top = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    if (!top) return;
    for (QAction* g : top->actions()) {
      if (!g->menu() || g->text() != group) continue;
      for (QAction* a : g->menu()->actions()) {
        if (a->data().toString() == field && a->isEnabled()) {
          a->trigger();
          picked = true;
        }
      }
    }
    top->close();
  });
  QTest::mouseClick(editor.addAxisButton(), Qt::LeftButton);
  waitFor([&] { return picked && editor.axes().size() > before; }, 3000);
  return editor.axes().size() > before ? editor.axes().back() : nullptr;
}

/// Chooses item `index` of `combo` with the keyboard (Home, then Down), as a user would.
inline void chooseIndex(QComboBox* combo, int index) {
  combo->setFocus();
  QTest::keyClick(combo, Qt::Key_Home);
  for (int i = 0; i < index; ++i) QTest::keyClick(combo, Qt::Key_Down);
}

/// Chooses the item whose data is `value`.
inline void chooseData(QComboBox* combo, int value) { chooseIndex(combo, combo->findData(value)); }

/// Types `text` into a line edit and presses Return.
inline void typeLine(QLineEdit* edit, const QString& text) {
  edit->setFocus();
  edit->selectAll();
  QTest::keyClicks(edit, text);
  QTest::keyClick(edit, Qt::Key_Return);
}

/// Types `value` into a spin box and presses Return.
inline void typeSpin(QSpinBox* spin, int value) {
  spin->setFocus();
  spin->selectAll();
  QTest::keyClicks(spin, QString::number(value));
  QTest::keyClick(spin, Qt::Key_Return);
}

/// Clicks Run and waits for the study's end; true when it ended within `ms`.
inline bool runToEnd(StudyWindow& sw, int ms = 60000) {
  bool ended = false;
  const auto c = QObject::connect(&sw, &StudyWindow::studyFinished, [&] { ended = true; });
  QTest::mouseClick(sw.runButton(), Qt::LeftButton);
  const bool ok = waitFor([&] { return ended; }, ms);
  QObject::disconnect(c);
  return ok;
}

/// A CSV as header + rows of cells (no quoted commas in the files compared here).
struct Csv {
  QStringList header;
  std::vector<QStringList> rows;
  int column(const QString& name) const { return int(header.indexOf(name)); }
};

inline Csv parseCsv(const QByteArray& bytes) {
  Csv csv;
  const QStringList lines = QString::fromUtf8(bytes).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  if (lines.isEmpty()) return csv;
  csv.header = lines.front().split(QLatin1Char(','));
  for (int i = 1; i < lines.size(); ++i) csv.rows.push_back(lines[i].split(QLatin1Char(',')));
  return csv;
}

/// Saves a grab of `w` as <build>/screenshots/<name>.png (look at them after a change).
inline QString saveScreenshot(QWidget& w, const QString& name) {
  QDir().mkpath(QStringLiteral(RICOCHET_BINARY_DIR "/screenshots"));
  const QString path = QStringLiteral(RICOCHET_BINARY_DIR "/screenshots/") + name + QStringLiteral(".png");
  w.grab().save(path);
  return path;
}

}  // namespace studytest
