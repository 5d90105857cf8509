#pragma once
// Help menu windows: About Ricochet (what it is and the papers it implements); Keyboard Shortcuts, listed from the menus' own actions (so the list is the
// shortcuts the window really has, never a copy to keep in step), plus the mouse gestures of the
// plots and the 3-D view; and a short Getting Started guide.

#include <QList>
#include <QString>

class QAction;
class QMenuBar;
class QWidget;

namespace ricochet::app {

/// One row of the shortcuts table.
struct ShortcutRow {
  QString keys;   ///< as the platform writes them ("Ctrl+Z, Ctrl+Shift+Z")
  QString what;   ///< the action's text without its mnemonic, with its menu ("View > Trail")
};

/// Every action with a shortcut in the menus of `bar`, in menu order.
QList<ShortcutRow> menuShortcuts(const QMenuBar* bar);

/// The Keyboard Shortcuts window's text (HTML): `rows`, then the mouse gestures.
QString shortcutsHtml(const QList<ShortcutRow>& rows);

/// The Getting Started guide (HTML).
QString gettingStartedHtml();

/// The About box text (HTML): what Ricochet is and the five papers it implements, with the
/// application's and Qt's versions.
QString aboutHtml();

/// Shows `html` in a non-modal window titled `title` (one per object name: shown again if open).
void showHelpWindow(QWidget* parent, const QString& objectName, const QString& title, const QString& html);

}  // namespace ricochet::app
