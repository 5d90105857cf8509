#pragma once
// Messages of the File menu's operations (refused scenario files, failed exports): a window-modal
// box opened with open(), so it never blocks the event loop (the live view keeps animating and
// tests can read it back through QApplication::activeModalWidget()).

#include <QMessageBox>
#include <QString>
#include <QWidget>

namespace ricochet::app {

/// Shows `text` in a window-modal box over `parent` (deleted when closed) and returns it.
inline QMessageBox* showMessage(QWidget* parent, QMessageBox::Icon icon, const QString& title,
                                const QString& text) {
  auto* box = new QMessageBox(icon, title, text, QMessageBox::Ok, parent);
  box->setObjectName(QStringLiteral("fileMessageBox"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setTextInteractionFlags(Qt::TextSelectableByMouse);
  box->open();
  return box;
}

}  // namespace ricochet::app
