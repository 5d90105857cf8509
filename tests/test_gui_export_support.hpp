#pragma once
// Helpers of the File-menu suites (tests/test_gui_export_*.cpp): a fresh window, the message boxes
// the File operations open (window-modal, never blocking: read back and closed programmatically),
// files, and ricochet-cli as a child process.

#include "cli_process.hpp"
#include "test_gui_support.hpp"

#include "app/desktop/file_actions.hpp"
#include "app/desktop/scenario/scenario_files.hpp"

#include <QFile>
#include <QMessageBox>
#include <QProcess>

#include <memory>

namespace exporttest {

using guitest::waitFor;
using ricochet::app::MainWindow;
using ricochet::app::MainWindowOptions;

inline MainWindowOptions freshOptions(const QString& system = QString(), bool play = true) {
  MainWindowOptions o;
  o.systemId = system;
  o.play = play;
  o.restoreSettings = false;
  return o;
}

inline std::unique_ptr<MainWindow> openWindow(MainWindowOptions options) {
  auto w = std::make_unique<MainWindow>(std::move(options));
  w->resize(1280, 800);
  w->show();
  w->activateWindow();
  (void)QTest::qWaitForWindowExposed(w.get());
  return w;
}

/// The message boxes of `w` on screen now.
inline QList<QMessageBox*> visibleBoxes(const QWidget& w) {
  QList<QMessageBox*> boxes;
  for (QMessageBox* b : w.findChildren<QMessageBox*>()) {
    if (b->isVisible()) boxes << b;
  }
  return boxes;
}

/// Closes every message box of `w` (as the user's OK would) and lets them be deleted.
inline void closeBoxes(QWidget& w) {
  for (QMessageBox* b : visibleBoxes(w)) b->done(QMessageBox::Ok);
  QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
  QCoreApplication::processEvents();
}

/// Waits up to `ms` for a message box; returns the text of the boxes on screen then ("" if none).
/// `count` gets how many there were.
inline QString waitForBoxText(QWidget& w, int* count = nullptr, int ms = 5000) {
  waitFor([&] { return !visibleBoxes(w).isEmpty(); }, ms);
  QTest::qWait(100);  // a second box (there must not be one) would have come by now
  const QList<QMessageBox*> boxes = visibleBoxes(w);
  if (count) *count = int(boxes.size());
  QStringList texts;
  for (QMessageBox* b : boxes) texts << b->text();
  return texts.join(QStringLiteral("\n---\n"));
}

inline QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline bool writeFile(const QString& path, const QByteArray& data) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  return f.write(data) == data.size();
}

}  // namespace exporttest
