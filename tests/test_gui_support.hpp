#pragma once
// Shared helpers of the desktop GUI suites (tests/test_gui_*.cpp): a QApplication set up like
// the real one (xcb, VTK's surface format, throw-away settings), waiting on what the window
// shows, and reading numbers back from the status bar.

#include "app/desktop/main_window.hpp"
#include "app/desktop/plots/plot_panel.hpp"
#include "app/desktop/scenario/scenario_editor.hpp"
#include "app/desktop/widgets/number_field.hpp"
#include "core/model/registry.hpp"
#include "render/qt/vtk_widget.hpp"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QSurfaceFormat>
#include <QtTest>

#include <cmath>
#include <functional>

namespace guitest {

using ricochet::app::MainWindow;

/// main() of a GUI suite: the app's platform and surface format, settings in a private
/// organisation (cleared first, so the user's own settings are never read or written).
template <class Suite>
int runSuite(int argc, char** argv, const char* name) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "xcb");
  QSurfaceFormat::setDefaultFormat(ricochet::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("RicochetTests"));
  QApplication::setApplicationName(QString::fromLatin1(name));
  QSettings().clear();
  Suite suite;
  const int rc = QTest::qExec(&suite, argc, argv);
  QSettings().clear();
  return rc;
}

/// Processes events until `done()` or `ms` elapse; true when done.
inline bool waitFor(const std::function<bool()>& done, int ms = 10000) {
  QElapsedTimer timer;
  timer.start();
  while (!done()) {
    if (timer.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    QTest::qWait(2);
  }
  return true;
}

/// Simulated time shown in the status bar ("t = 1.234 s"); NaN if unreadable.
inline double shownTime(const MainWindow& w) {
  static const QRegularExpression re(QStringLiteral("t = ([-0-9.e+]+) s"));
  const auto m = re.match(w.statusField(QStringLiteral("time"))->text());
  return m.hasMatch() ? m.captured(1).toDouble() : std::nan("");
}

/// The integer at the start of a status field ("1 234 steps" -> 1234); -1 if unreadable.
inline long long shownCount(const MainWindow& w, const char* field) {
  QString text = w.statusField(QString::fromLatin1(field))->text();
  text.remove(QChar(0x2009));
  static const QRegularExpression re(QStringLiteral("^([0-9]+)"));
  const auto m = re.match(text);
  return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

inline QString shownState(const MainWindow& w) {
  return w.statusField(QStringLiteral("state"))->text();
}

/// Waits until a snapshot of the current run at simulated time > `t` is on screen.
inline bool waitForTimeBeyond(const MainWindow& w, double t, int ms = 10000) {
  return waitFor([&] { return w.lastSnapshot() && w.lastSnapshot()->t > t; }, ms);
}

/// Picks `id` in the system combo with the keyboard, as a user would (Home, then Down).
inline bool pickSystem(MainWindow& w, const QString& id) {
  QComboBox* combo = w.editor()->systemCombo();
  const int target = combo->findData(id);
  if (target < 0) return false;
  // Until the window's first run has started the picker still shows its first item: keys pressed
  // then would select nothing, and the first run would then set the picker to its own system.
  if (!waitFor([&] { return w.currentRun() != nullptr; })) return false;
  combo->setFocus();
  QTest::keyClick(combo, Qt::Key_Home);
  for (int i = 0; i < target; ++i) QTest::keyClick(combo, Qt::Key_Down);
  return waitFor([&] {
    return w.currentRun() && w.currentRun()->scenario.system == id.toStdString() &&
           w.lastSnapshot();
  });
}

/// Types `text` into a NumberField and presses Return, as a user would.
inline void typeInto(ricochet::app::NumberField* field, const QString& text) {
  field->setFocus();
  field->textEditor()->selectAll();
  QTest::keyClicks(field->textEditor(), text);
  QTest::keyClick(field, Qt::Key_Return);
}

/// Mean and variance of the grey level of an image (0..255): a blank view has ~0 variance.
inline double greyVariance(const QImage& image) {
  const QImage img = image.convertToFormat(QImage::Format_RGB32);
  double sum = 0.0, sum2 = 0.0;
  const long long n = (long long)img.width() * img.height();
  if (n == 0) return 0.0;
  for (int y = 0; y < img.height(); ++y) {
    const QRgb* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
    for (int x = 0; x < img.width(); ++x) {
      const double g = qGray(line[x]);
      sum += g;
      sum2 += g * g;
    }
  }
  const double mean = sum / double(n);
  return sum2 / double(n) - mean * mean;
}

}  // namespace guitest
