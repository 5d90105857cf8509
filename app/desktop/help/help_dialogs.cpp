#include "app/desktop/help/help_dialogs.hpp"

#include "core/model/registry.hpp"

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
  // Every menu path here ("File \u203a Presets") is one the window has: test_gui_window checks.
  const int count = int(systems().size());
  return QObject::
      tr("<h3>Getting started</h3>"
         "<p><b>1. Pick a system</b> in the Scenario panel on the left: %1 systems, the "
         "examples of the five papers with their parameters, initial conditions and time "
         "steps, and <i>Your own rigid body among walls</i>. The run starts at once and "
         "pauses at the scenario's end time (<i>Stop at t_end</i>, on the Run toolbar: untick "
         "it to let a run go on). File \u203a Presets holds every experiment of the papers.</p>"
         "<p><b>2. Watch it.</b> The 3-D view follows the body (View \u203a Follow Body); the "
         "plots on the right show the energies, the relative energy error and the momenta. "
         "Impacts are the red lines. Space pauses and plays, S advances one step, R restarts "
         "(Help \u203a Keyboard Shortcuts lists every key).</p>"
         "<p><b>3. Change a value.</b> Click a field, type a number (its unit may follow: "
         "<tt>2 m/s</tt>) and press Enter: the run restarts with it. While a field has the "
         "keyboard, the keys you type are the field's; Escape hands them back to the window. "
         "The wheel scrolls the panel, and changes a field only once you have clicked it. A "
         "value out of range is refused with the reason, and the run goes on unchanged. "
         "Edit \u203a Undo (Ctrl+Z) brings back the previous scenario exactly.</p>"
         "<p><b>4. Your own body.</b> Choose <i>Your own rigid body among walls</i>: the Body "
         "section makes it a box or an ellipsoid of any size, rounds its edges, gives it a "
         "density, or imports a mesh (STL, OBJ, PLY; or drop the file on the window); its mass, "
         "centre of mass and inertia are computed. Under <i>Walls</i>, put it in a box (with a "
         "ceiling if you like) or add planes of any tilt.</p>"
         "<p><b>5. Judge the integrator.</b> A conserved quantity draws as a flat line; "
         "right-click a plot and choose <i>Deviation from the Initial Value</i> to see its "
         "round-off, or log10 |energy error| for the error's size. Zoom into an impact with the "
         "wheel and click its line for the impact's numbers. <i>Add Plot</i> adds a plot of any "
         "trace column, a phase portrait or an impact map (a Poincar\u00e9 section).</p>"
         "<p><b>6. Many runs.</b> Tools \u203a New Study runs the scenario many times: a sweep "
         "of any field, random draws, the convergence in h, the sensitivity to the initial "
         "conditions, the integrators compared. Click a point or a row to load that run here."
         "</p>"
         "<p><b>7. Replay and compare.</b> File \u203a Export HDF5 Run writes a run to a file; "
         "File \u203a Open Run plays one back with a time slider, without integrating it, and "
         "File \u203a Overlay Run draws a second run over the one shown (a ghost in the 3-D "
         "view, dashed curves in the plots).</p>"
         "<p><b>8. Keep and share.</b> File \u203a Save Scenario writes the scenario as JSON "
         "(the command line runs it too: <tt>ricochet-cli run FILE.json</tt>); the Export "
         "buttons write the trace as CSV, the plots as PNG or SVG, and animations.</p>")
          .arg(count);
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
