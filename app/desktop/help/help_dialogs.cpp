#include "app/desktop/help/help_dialogs.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace ricochet::app {

namespace {

const char* kAboutHtml = R"(
<h3>Ricochet %1</h3>
<p>A desktop laboratory for mechanical systems with impacts, built on <b>variational collision
integrators</b>: the impact time is an unknown of the discrete variational principle, so energy
stays bounded over thousands of collisions and momenta are conserved where a symmetry says so.</p>
<p><b>Papers implemented</b></p>
<ol style="margin-left: -20px">
<li>[004] R. C. Fetecau, J. E. Marsden, M. Ortiz, M. West, <i>Nonsmooth Lagrangian mechanics and
variational collision integrators</i>, SIAM J. Applied Dynamical Systems 2(3), 2003.</li>
<li>[000] &Aacute;. Rodr&iacute;guez Abella, L. Colombo, <i>Variational collision integrators for
nonholonomic Lagrangian systems</i>.</li>
<li>[001] &Aacute;. Rodr&iacute;guez Abella, L. Colombo, <i>Implicit nonholonomic mechanics with
collisions</i>.</li>
<li>[002] A. Anahory Simoes, L. Colombo, <i>Nonholonomic systems with inequality
constraints</i>.</li>
<li>[003] K. Tran, M. Leok, <i>Lie group variational collision integrators for a class of hybrid
systems</i>, arXiv:2310.15356.</li>
</ol>
<p>BSD-3-Clause. Built with Qt %2 (LGPL-3), VTK (BSD-3) and Eigen (MPL-2).</p>
)";

QString plain(QString text) {
  text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
  return text.replace(QStringLiteral("&&"), QStringLiteral("&"));
}

void collect(const QMenu* menu, const QString& path, QList<ShortcutRow>& rows) {
  for (QAction* a : menu->actions()) {
    if (a->isSeparator()) continue;
    const QString here = path + QStringLiteral(" \u203a ") + plain(a->text());
    if (a->menu()) {
      collect(a->menu(), here, rows);
      continue;
    }
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) {
      if (!k.isEmpty()) keys << k.toString(QKeySequence::NativeText);
    }
    if (!keys.isEmpty()) rows.append({keys.join(QStringLiteral(", ")), here});
  }
}

}  // namespace

QList<ShortcutRow> menuShortcuts(const QMenuBar* bar) {
  QList<ShortcutRow> rows;
  for (QAction* top : bar->actions()) {
    if (top->menu()) collect(top->menu(), plain(top->text()), rows);
  }
  return rows;
}

QString shortcutsHtml(const QList<ShortcutRow>& rows) {
  QString h = QStringLiteral("<h3>Keys</h3><table cellspacing=\"0\" cellpadding=\"3\">");
  for (const ShortcutRow& r : rows) {
    h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(r.keys.toHtmlEscaped(), r.what.toHtmlEscaped());
  }
  h += QStringLiteral("</table>");
  h += QObject::tr(
      "<h3>Mouse in the plots</h3><table cellspacing=\"0\" cellpadding=\"3\">"
      "<tr><td><b>Wheel</b></td><td>zoom the time axis about the pointer (all time plots together)</td></tr>"
      "<tr><td><b>Drag</b></td><td>zoom to the time range dragged across</td></tr>"
      "<tr><td><b>Shift+drag, middle drag</b></td><td>pan the time axis</td></tr>"
      "<tr><td><b>Double-click, Esc</b></td><td>the whole run again</td></tr>"
      "<tr><td><b>Hover</b></td><td>time and values under the pointer, above the plots</td></tr>"
      "<tr><td><b>Click an impact line</b></td><td>that impact's row: time, alpha, constraint, energy before and after, impulse</td></tr>"
      "<tr><td><b>Right-click</b></td><td>what the plot shows (any trace column, \u0394 from the initial value), or remove it</td></tr>"
      "</table>"
      "<h3>Mouse in the 3-D view</h3><table cellspacing=\"0\" cellpadding=\"3\">"
      "<tr><td><b>Left drag</b></td><td>rotate</td></tr>"
      "<tr><td><b>Middle drag, Shift+left drag</b></td><td>pan</td></tr>"
      "<tr><td><b>Wheel, right drag</b></td><td>zoom</td></tr>"
      "</table>");
  return h;
}

QString gettingStartedHtml() {
  return QObject::tr(
      "<h3>Getting started</h3>"
      "<p><b>1. Pick a system</b> in the Scenario panel on the left: ten examples from the papers, "
      "each with the paper's parameters, initial conditions and time step. The run starts at once.</p>"
      "<p><b>2. Watch it.</b> The 3-D view follows the body (View \u203a Follow Body); the plots on "
      "the right show the energies, the relative energy error and the momenta as the run goes. "
      "Impacts are the red lines. Space pauses and plays, S advances one step, R restarts.</p>"
      "<p><b>3. Change a value.</b> Type a number into any field and press Enter: the run restarts "
      "with it. A value out of range is refused with the reason, and the run goes on unchanged. "
      "Edit \u203a Undo (Ctrl+Z) brings back the previous scenario exactly.</p>"
      "<p><b>4. Judge the integrator.</b> A conserved quantity draws as a flat line; right-click a "
      "plot and choose <i>Deviation from the Initial Value</i> to see its round-off, or log10 "
      "|energy error| for the error's size. Zoom into an impact with the wheel and click its line "
      "for the impact's numbers. <i>Add Plot</i> adds a plot of any trace column, a phase portrait "
      "or an impact map (a Poincar\u00e9 section).</p>"
      "<p><b>5. Keep and share.</b> File \u203a Save writes the scenario as JSON (the command line "
      "runs it too: <tt>ricochet-cli run FILE.json</tt>); File \u203a Presets has every experiment of "
      "the papers; the Export buttons write the trace as CSV, the plots as PNG or SVG, and "
      "animations.</p>");
}

void showHelpWindow(QWidget* parent, const QString& objectName, const QString& title, const QString& html) {
  auto* dialog = parent->findChild<QDialog*>(objectName, Qt::FindDirectChildrenOnly);
  if (!dialog) {
    dialog = new QDialog(parent);
    dialog->setObjectName(objectName);
    dialog->setWindowTitle(title);
    dialog->resize(620, 560);
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QTextBrowser;
    text->setObjectName(QStringLiteral("helpText"));
    text->setOpenExternalLinks(false);
    layout->addWidget(text);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Close);
    QObject::connect(box, &QDialogButtonBox::rejected, dialog, &QDialog::hide);
    layout->addWidget(box);
  }
  dialog->findChild<QTextBrowser*>(QStringLiteral("helpText"))->setHtml(html);
  dialog->show();
  dialog->raise();
  dialog->activateWindow();
}

QString aboutHtml() {
  return QString::fromUtf8(kAboutHtml)
      .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion()));
}

}  // namespace ricochet::app
