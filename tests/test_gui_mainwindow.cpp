// The desktop application, driven through its real MainWindow (worker thread, editor, plots, playback, start-up):
// default launch animates; every system populates scene and plots; a parameter edit restarts the
// run with the new value (checked on the plotted energy); invalid values are refused in place with
// the reason while the simulation continues; pause / step / resume / reset move simulated time as
// expected; the GUI event loop keeps answering while the worker runs flat out; settings persist;
// bin/ricochet itself, launched with its options (launch* tests).
//
// Run by hand: xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/test_gui_mainwindow

#include "test_gui_support.hpp"

#include "app/desktop/run/simulation_worker.hpp"
#include "core/io/scenario_io.hpp"

#include <QAbstractItemView>
#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPixmap>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <sys/stat.h>
#include <xcb/xcb.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <optional>
#include <vector>

using namespace guitest;
using ricochet::app::MainWindowOptions;
using ricochet::app::NumberField;
using ricochet::app::PlotPanel;

namespace {

MainWindowOptions freshOptions(const QString& system = QString(), bool play = true) {
  MainWindowOptions o;
  o.systemId = system;
  o.play = play;
  o.restoreSettings = false;
  return o;
}

std::unique_ptr<MainWindow> openWindow(MainWindowOptions options) {
  auto w = std::make_unique<MainWindow>(std::move(options));
  w->resize(1280, 800);
  w->show();
  w->activateWindow();
  (void)QTest::qWaitForWindowExposed(w.get());
  // The window's shortcuts (Space, S, R...) only fire in the active window; under Xvfb the
  // activation of a new window lands a moment after it is exposed.
  (void)QTest::qWaitForWindowActive(w.get());
  return w;
}

// A parameter of `info` whose 10% change is accepted by the system and changes E0: the edit the
// tests make, found through the core API so it works for every registered system.
struct Edit {
  QString name;
  double value = 0.0;
  double energy = 0.0;  // E0 of the edited scenario
};
std::optional<Edit> findEnergyChangingEdit(const ricochet::SystemDescription& system) {
  const ricochet::Scenario base = ricochet::defaultScenario(system);
  const double e0 = ricochet::createSimulation(base).simulation->energy().total();
  const auto& specs = system.info().parameters;
  std::vector<std::size_t> order(specs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Prefer a mass ("m"): every energy scales with it.
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return specs[a].name == "m" && specs[b].name != "m"; });
  for (std::size_t i : order) {
    for (double factor : {1.5, 0.8, 1.1}) {
      ricochet::Scenario s = base;
      s.parameters[i] = base.parameters[i] != 0.0 ? base.parameters[i] * factor : 0.1;
      if (!ricochet::checkValue(specs[i], s.parameters[i], "parameter").empty()) continue;
      auto created = ricochet::createSimulation(s);
      if (!created.simulation) continue;
      const double e = created.simulation->energy().total();
      if (std::fabs(e - e0) > 1e-6 * std::max(1.0, std::fabs(e0))) {
        return Edit{QString::fromStdString(specs[i].name), s.parameters[i], e};
      }
    }
  }
  return std::nullopt;
}

// An initial condition value inside its spec range that the system refuses (outside the
// admissible set), with the system's message.
struct Inadmissible {
  QString name;
  double value = 0.0;
  QString error;
};
std::optional<Inadmissible> findInadmissibleInitial(const ricochet::SystemDescription& system) {
  const ricochet::Scenario base = ricochet::defaultScenario(system);
  const auto& specs = system.info().initial;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    for (double v : {-1.0, -0.5, -0.05, -10.0, -100.0, 100.0, 10.0, 3.0, 1.2, 0.0}) {
      if (!ricochet::checkValue(specs[i], v, "initial condition").empty()) continue;
      ricochet::Scenario s = base;
      s.initial[i] = v;
      auto created = ricochet::createSimulation(s);
      if (!created.simulation) {
        return Inadmissible{QString::fromStdString(specs[i].name), v,
                            QString::fromStdString(created.error)};
      }
    }
  }
  return std::nullopt;
}

const ricochet::SystemDescription& firstSystem() { return *ricochet::systems().front(); }

// The real binary, bin/ricochet, launched as a user launches it on the test's X display: main()'s
// options (--scenario, --system, --paused, --help) and its refusals (a bad file names the key, a
// FIFO is refused without being opened, an unknown system falls back to the default). What the
// user sees is read from the X server: the window titles (system, paper, file) and, for running
// versus paused, whether the status bar (simulated time, steps) changes. Each launch has its own
// XDG_CONFIG_HOME, so the user's settings are neither read nor written.
constexpr int kWindowMs = 30000;  // a first window under llvmpipe on a loaded 2-core machine

QString binary() { return QStringLiteral(RICOCHET_BINARY_DIR "/bin/ricochet"); }

// A top-level X window: its id, its title (_NET_WM_NAME, what a title bar shows) and its size.
struct XWindow {
  xcb_window_t id = 0;
  QString title;
  int width = 0, height = 0;
};

// The mapped top-level windows of process `pid` (_NET_WM_PID, which Qt sets). There is no
// window manager under Xvfb, so top-level windows are the root's children.
std::vector<XWindow> windowsOf(qint64 pid) {
  std::vector<XWindow> out;
  // One connection for the suite (the tests poll), to the display the app is started on.
  static xcb_connection_t* const c = xcb_connect(nullptr, nullptr);
  if (!c || xcb_connection_has_error(c)) return out;
  auto atom = [](const char* name) {
    xcb_intern_atom_reply_t* r =
        xcb_intern_atom_reply(c, xcb_intern_atom(c, 1, uint16_t(std::strlen(name)), name), nullptr);
    const xcb_atom_t a = r ? r->atom : xcb_atom_t(XCB_ATOM_NONE);
    std::free(r);
    return a;
  };
  const xcb_atom_t netPid = atom("_NET_WM_PID");
  const xcb_atom_t netName = atom("_NET_WM_NAME");
  const xcb_atom_t utf8 = atom("UTF8_STRING");
  const xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
  xcb_query_tree_reply_t* tree = xcb_query_tree_reply(c, xcb_query_tree(c, root), nullptr);
  if (tree) {
    const xcb_window_t* children = xcb_query_tree_children(tree);
    for (int i = 0; i < xcb_query_tree_children_length(tree); ++i) {
      const xcb_window_t win = children[i];
      xcb_get_property_reply_t* p = xcb_get_property_reply(
          c, xcb_get_property(c, 0, win, netPid, XCB_ATOM_CARDINAL, 0, 1), nullptr);
      const bool ours = p && xcb_get_property_value_length(p) == 4 &&
                        *static_cast<const uint32_t*>(xcb_get_property_value(p)) == uint32_t(pid);
      std::free(p);
      if (!ours) continue;
      xcb_get_window_attributes_reply_t* a =
          xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, win), nullptr);
      const bool mapped = a && a->map_state == XCB_MAP_STATE_VIEWABLE;
      std::free(a);
      if (!mapped) continue;
      XWindow w;
      w.id = win;
      p = xcb_get_property_reply(c, xcb_get_property(c, 0, win, netName, utf8, 0, 1024), nullptr);
      if (p) {
        w.title = QString::fromUtf8(static_cast<const char*>(xcb_get_property_value(p)),
                                    xcb_get_property_value_length(p));
      }
      std::free(p);
      xcb_get_geometry_reply_t* g = xcb_get_geometry_reply(c, xcb_get_geometry(c, win), nullptr);
      if (g) {
        w.width = g->width;
        w.height = g->height;
      }
      std::free(g);
      out.push_back(w);
    }
    std::free(tree);
  }
  return out;
}

// bin/ricochet with `args` and settings of its own (a first launch); killed when it goes out of
// scope.
class Launch {
 public:
  explicit Launch(const QStringList& args) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config_.path());
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    process_.setProcessEnvironment(env);
    process_.start(binary(), args);
    clock_.start();
  }
  ~Launch() {
    if (process_.state() != QProcess::NotRunning) {
      process_.kill();
      process_.waitForFinished(5000);
    }
  }
  QProcess& process() { return process_; }
  qint64 elapsed() const { return clock_.elapsed(); }
  /// Everything written to stderr so far.
  QString stderrText() {
    err_ += process_.readAllStandardError();
    return QString::fromUtf8(err_);
  }
  /// Waits for a mapped window whose title contains every one of `parts`.
  std::optional<XWindow> waitForWindow(const QStringList& parts, int ms = kWindowMs) {
    std::optional<XWindow> found;
    waitFor([&] {
      if (process_.state() == QProcess::NotRunning) return true;  // died: give up at once
      for (const XWindow& w : windowsOf(process_.processId())) {
        bool all = true;
        for (const QString& p : parts) all = all && w.title.contains(p);
        if (all) found = w;
      }
      return found.has_value();
    }, ms);
    return found;
  }
  /// The titles of the process's windows (for failure messages).
  QString titles() {
    QStringList t;
    for (const XWindow& w : windowsOf(process_.processId())) t << w.title;
    return t.join(QStringLiteral(" | "));
  }

 private:
  QTemporaryDir config_;
  QProcess process_;
  QByteArray err_;
  QElapsedTimer clock_;
};

// The bottom strip of `window` as the X server shows it: the status bar with the run state,
// the simulated time and the step count (a focused field's blinking cursor is elsewhere).
QImage statusStrip(const XWindow& window) {
  const int h = 24;
  return QGuiApplication::primaryScreen()
      ->grabWindow(WId(window.id), 0, window.height - h, window.width, h)
      .toImage();
}

// Whether the status strip of `window` changes within `ms` (grabs `gapMs` apart).
bool statusChanges(const XWindow& window, int ms, int gapMs = 250) {
  const QImage first = statusStrip(window);
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) {
    QTest::qWait(gapMs);
    if (statusStrip(window) != first) return true;
  }
  return false;
}

// Whether the status strip of `window` stays the same for `stillMs` at some point within
// `ms`: a paused run does once its first frame is up; a running one never does (its time moves).
bool statusSettles(const XWindow& window, int stillMs, int ms) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) {
    if (!statusChanges(window, stillMs)) return true;
  }
  return false;
}

QString systemTitle(const QString& id) {
  return QString::fromStdString(ricochet::findSystem(id.toStdString())->info().title);
}

}  // namespace

class TestGuiMainWindow : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (ricochet::systems().empty()) QSKIP("no system registered yet");
  }

  // No arguments -> the default system, animating.
  void defaultLaunchOpensTheDefaultSystemAndAnimates() {
    QSettings().clear();
    MainWindowOptions o;  // what main() passes without arguments (settings empty: first launch)
    auto w = openWindow(o);
    QVERIFY(waitForTimeBeyond(*w, 0.3));
    const QString id = QStringLiteral("ellipsoid-plane");  // the documented first-launch system
    if (!ricochet::findSystem(id.toStdString())) QSKIP("ellipsoid-plane not registered");
    QCOMPARE(MainWindow::defaultSystemId(), id);
    QCOMPARE(QString::fromStdString(w->currentRun()->scenario.system), id);
    const auto& info = ricochet::findSystem(id.toStdString())->info();
    QVERIFY(w->windowTitle().contains(QString::fromStdString(info.title)));
    QVERIFY(w->windowTitle().contains(QString::fromStdString(info.source)));
    QCOMPARE(w->editor()->systemCombo()->currentData().toString(), id);
    QCOMPARE(shownState(*w), QStringLiteral("running"));
    // Real time by default: 0.6 s of wall time moves the simulated clock by about that much.
    const double t0 = w->lastSnapshot()->t;
    QTest::qWait(600);
    const double t1 = shownTime(*w);
    QVERIFY2(t1 - t0 > 0.2 && t1 - t0 < 1.5, qPrintable(QStringLiteral("dt = %1").arg(t1 - t0)));
    QSettings().clear();
  }

  // Acceptance: select each available system and see the scene and plots populate.
  void everySystemPopulatesSceneAndPlots() {
    auto w = openWindow(freshOptions());
    for (const ricochet::SystemDescription* system : ricochet::systems()) {
      const auto& info = system->info();
      const QString id = QString::fromStdString(info.id);
      QVERIFY2(pickSystem(*w, id), qPrintable(id));
      QVERIFY2(waitFor([&] { return w->lastSnapshot()->step >= 20; }), qPrintable(id));
      // The picker names the system by its whole title (its list is wide enough for every
      // title), the label under it and the window title the paper.
      QCOMPARE(w->editor()->systemCombo()->currentText(), QString::fromStdString(info.title));
      QVERIFY(w->editor()->systemCombo()->view()->minimumWidth() >=
              w->editor()->systemCombo()->fontMetrics().horizontalAdvance(QString::fromStdString(info.title)));
      QVERIFY(w->editor()->findChild<QLabel*>(QStringLiteral("sourceLabel"))->text().contains(
          QString::fromStdString(info.source)));
      QVERIFY(w->windowTitle().contains(QString::fromStdString(info.source)));
      QVERIFY2(!w->windowTitle().contains(QStringLiteral("Ricochet")), qPrintable(w->windowTitle()));
      QVERIFY(w->windowTitle().contains(QString::fromStdString(info.title)));
      // Forms generated from the description, showing the paper's defaults with units.
      for (const auto& spec : info.parameters) {
        NumberField* f = w->editor()->parameterField(QString::fromStdString(spec.name));
        QVERIFY2(f, spec.name.c_str());
        QCOMPARE(f->value(), spec.defaultValue);
        QVERIFY(f->text().startsWith(QString::fromStdString(ricochet::formatNumber(spec.defaultValue))));
        if (!spec.unit.empty()) QVERIFY(f->text().endsWith(QString::fromStdString(spec.unit)));
        QVERIFY(f->toolTip().contains(QString::fromStdString(spec.help)));
      }
      for (const auto& spec : info.initial) {
        QVERIFY2(w->editor()->initialField(QString::fromStdString(spec.name)), spec.name.c_str());
      }
      QCOMPARE(w->editor()->integratorCombo()->count(), int(info.integrators.size()));
      QCOMPARE(w->editor()->settingField(QStringLiteral("h"))->value(), info.defaultH);
      // Plots: energies with data, finite; the total energy starts at the system's E0.
      const PlotPanel* plots = w->plots();
      QVERIFY(plots->seriesNames(PlotPanel::Energy).contains(QStringLiteral("total")));
      QVERIFY(waitFor([&] {
        return plots->plottedValues(PlotPanel::Energy, QStringLiteral("total")).size() >= 2;
      }));
      const auto total = plots->plottedValues(PlotPanel::Energy, QStringLiteral("total"));
      QVERIFY2(total.size() >= 2, qPrintable(id));
      for (double v : total) QVERIFY(std::isfinite(v));
      QCOMPARE(plots->plottedTimes(PlotPanel::Energy).front(), 0.0);
      const auto e0 = ricochet::createSimulation(ricochet::defaultScenario(*system))
                          .simulation->energy().total();
      QCOMPARE(w->currentRun()->energyInitial, e0);
      QVERIFY(!plots->plottedValues(PlotPanel::Error, QStringLiteral("energy error")).empty());
      // Momentum chart shows exactly the system's mom.* columns.
      const auto sim = ricochet::createSimulation(ricochet::defaultScenario(*system)).simulation;
      QStringList moms;
      for (const std::string& c : sim->columns()) {
        if (c.rfind("mom.", 0) == 0) moms << QString::fromStdString(c);
      }
      QCOMPARE(plots->seriesNames(PlotPanel::Momentum), moms);
      QCOMPARE(plots->chartVisible(PlotPanel::Momentum), !moms.isEmpty());
      // The 3-D view shows something: its background gradient alone has a grey variance of
      // ~20; the systems' bodies, floors and shading give 380-1900 (as test_gui_screenshots).
      QVERIFY(w->sceneWidget()->hasContext());
      const double var = greyVariance(w->sceneWidget()->grabFramebuffer());
      qInfo("%s: 3-D view grey variance %.1f", qPrintable(id), var);
      QVERIFY2(var > 50.0, qPrintable(QStringLiteral("%1: variance %2").arg(id).arg(var)));
    }
  }

  // Acceptance: change a parameter and see the run restart with the new value.
  void parameterEditRestartsTheRunWithTheNewValue() {
    const ricochet::SystemDescription* system = nullptr;
    std::optional<Edit> edit;
    for (const auto* s : ricochet::systems()) {
      if ((edit = findEnergyChangingEdit(*s))) {
        system = s;
        break;
      }
    }
    if (!system) QSKIP("no registered system has an energy-changing parameter");
    auto w = openWindow(freshOptions(QString::fromStdString(system->info().id)));
    QVERIFY(waitForTimeBeyond(*w, 0.3));
    const auto generation = w->currentRun()->generation;
    // Move the camera (follow off, so only the user moves it): the edit must keep it.
    w->followAction()->setChecked(false);
    vtkCamera* camera = w->sceneRenderer()->GetActiveCamera();
    camera->Azimuth(25.0);
    camera->Elevation(10.0);
    double before[3];
    camera->GetPosition(before);

    NumberField* field = w->editor()->parameterField(edit->name);
    QVERIFY(field);
    QElapsedTimer clock;
    clock.start();
    typeInto(field, QString::fromStdString(ricochet::formatNumber(edit->value)));
    QVERIFY(waitFor([&] {
      return w->currentRun()->generation > generation && w->lastSnapshot() &&
             !w->plots()->plottedValues(PlotPanel::Energy, QStringLiteral("total")).empty();
    }));
    qInfo("edit -> restarted run on screen: %lld ms", (long long)clock.elapsed());
    // The new value runs, from the initial conditions, and the plotted energy is the new E0.
    const auto idx = *ricochet::indexOf(system->info().parameters, edit->name.toStdString());
    QCOMPARE(w->currentRun()->scenario.parameters[idx], edit->value);
    QCOMPARE(w->currentRun()->energyInitial, edit->energy);
    QCOMPARE(w->plots()->plottedValues(PlotPanel::Energy, QStringLiteral("total")).front(),
             edit->energy);
    QVERIFY(w->lastSnapshot()->t < 0.3);
    QCOMPARE(field->value(), edit->value);
    QVERIFY(!field->hasError());
    // The camera stayed where the user put it.
    double after[3];
    w->sceneRenderer()->GetActiveCamera()->GetPosition(after);
    for (int i = 0; i < 3; ++i) QCOMPARE(after[i], before[i]);
    // And the run goes on.
    QVERIFY(waitForTimeBeyond(*w, 0.3));
    // "Paper defaults" brings the paper's scenario back (a restart with the default value).
    const auto gen = w->currentRun()->generation;
    QTest::mouseClick(w->editor()->findChild<QPushButton*>(QStringLiteral("defaultsButton")),
                      Qt::LeftButton);
    QVERIFY(waitFor([&] { return w->currentRun()->generation > gen; }));
    QVERIFY(ricochet::io::sameScenario(w->currentRun()->scenario,
                                       ricochet::defaultScenario(*system)));
    QCOMPARE(field->value(), system->info().parameters[idx].defaultValue);
  }

  // The spin box behind every form row: round-trip display with unit, scientific notation,
  // arrows inside the range, refusals with checkValue's message.
  void numberFieldsParseStepAndRefuse() {
    ricochet::ParameterSpec m{"m", "kg", 1.0, 0.0, ricochet::kUnbounded, true, false, "mass"};
    NumberField f(m, QStringLiteral("parameter"));
    f.show();
    QVERIFY(QTest::qWaitForWindowExposed(&f));
    QCOMPARE(f.textEditor()->text(), QStringLiteral("1 kg"));
    QVERIFY(f.toolTip().contains(QStringLiteral("mass")) && f.toolTip().contains(QStringLiteral("> 0 kg")));
    QSignalSpy committed(&f, &NumberField::committed);
    QSignalSpy refused(&f, &NumberField::refused);
    typeInto(&f, QStringLiteral("2.5e-1"));  // scientific notation, no unit typed
    QCOMPARE(committed.count(), 1);
    QCOMPARE(committed.last().at(0).toDouble(), 0.25);
    QCOMPARE(f.textEditor()->text(), QStringLiteral("0.25 kg"));
    typeInto(&f, QStringLiteral("0.1 kg"));  // with the unit
    QCOMPARE(f.value(), 0.1);
    QTest::keyClick(f.textEditor(), Qt::Key_Up);  // arrows step by a tenth of the decade
    QCOMPARE(f.value(), 0.2);
    QTest::keyClick(f.textEditor(), Qt::Key_Down);
    QTest::keyClick(f.textEditor(), Qt::Key_Down);  // 0 would leave the range (> 0): stays
    QCOMPARE(f.value(), 0.1);
    QCOMPARE(committed.count(), 4);
    typeInto(&f, QStringLiteral("-3"));
    QCOMPARE(refused.count(), 1);
    QCOMPARE(f.error(), QStringLiteral("parameter 'm' = -3 is out of range: must be > 0 kg"));
    QCOMPARE(f.value(), 0.1);  // the refused value is not taken
    typeInto(&f, QStringLiteral("1e999"));
    QVERIFY(f.error().contains(QStringLiteral("out of the range of double")));
    typeInto(&f, QStringLiteral("0.30000000000000004"));  // round trip kept, never rounded
    QCOMPARE(f.value(), 0.30000000000000004);
    QVERIFY(!f.hasError());
  }

  void aboutBoxCitesTheFivePapers() {
    const QString about = MainWindow::aboutHtml();
    for (const char* needle : {"Fetecau", "Marsden", "Ortiz", "West", "Nonsmooth Lagrangian",
                               "Variational collision integrators for\nnonholonomic",
                               "Implicit nonholonomic mechanics", "Anahory Simoes",
                               "inequality\nconstraints", "Tran", "Leok", "arXiv:2310.15356"}) {
      QVERIFY2(about.contains(QString::fromUtf8(needle)), needle);
    }
    auto w = openWindow(freshOptions());
    bool found = false;
    for (QAction* a : w->menuBar()->actions()) {
      if (!a->menu()) continue;
      for (QAction* b : a->menu()->actions()) found = found || b->text().contains("About Ricochet");
    }
    QVERIFY(found);
  }

  // Acceptance: an invalid value is refused with a message while the simulation continues.
  void invalidValuesAreRefusedInPlaceWhileTheRunContinues() {
    const auto& system = firstSystem();
    auto w = openWindow(freshOptions(QString::fromStdString(system.info().id)));
    QVERIFY(waitForTimeBeyond(*w, 0.1));
    const auto generation = w->currentRun()->generation;
    const ricochet::Scenario running = w->currentRun()->scenario;

    // 1. Out of range: a parameter with a lower bound, typed below it.
    const auto& specs = system.info().parameters;
    auto bounded = std::find_if(specs.begin(), specs.end(),
                                [](const auto& s) { return std::isfinite(s.min); });
    if (bounded != specs.end()) {
      NumberField* f = w->editor()->parameterField(QString::fromStdString(bounded->name));
      const double bad = bounded->min - 1.0;
      typeInto(f, QString::fromStdString(ricochet::formatNumber(bad)));
      const QString expected =
          QString::fromStdString(ricochet::checkValue(*bounded, bad, "parameter"));
      QVERIFY(waitFor([&] { return f->hasError(); }, 2000));
      QCOMPARE(f->error(), expected);
      QVERIFY(w->editor()->messageFor(f).startsWith(expected));
      QVERIFY(w->statusBar()->currentMessage().contains(expected));
      // Typing the running value again clears the mark; nothing needed restarting.
      typeInto(f, QString::fromStdString(ricochet::formatNumber(bounded->defaultValue)));
      QVERIFY(waitFor([&] { return !f->hasError(); }, 2000));
      QVERIFY(w->editor()->messageFor(f).isEmpty());
    }

    // 2. Not a number.
    NumberField* h = w->editor()->settingField(QStringLiteral("h"));
    typeInto(h, QStringLiteral("1e-"));
    QVERIFY(waitFor([&] { return h->hasError(); }, 2000));
    QVERIFY2(h->error().contains(QStringLiteral("not a number")), qPrintable(h->error()));
    // Letters are typed (never dropped silently) and refused the same way, named.
    typeInto(h, QStringLiteral("0.0x1"));
    QVERIFY(h->textEditor()->text().contains(QStringLiteral("0.0x1")));
    QVERIFY(waitFor([&] { return h->error().contains(QStringLiteral("\"0.0x1\" is not a number")); }, 2000));

    // 3. Inside the range but outside the admissible set: refused by the worker (the system's
    // create()), shown beside the field; the running simulation is not disturbed.
    const ricochet::SystemDescription* inadSystem = nullptr;
    std::optional<Inadmissible> inad;
    for (const auto* s : ricochet::systems()) {
      if ((inad = findInadmissibleInitial(*s))) {
        inadSystem = s;
        break;
      }
    }
    if (inadSystem) {
      if (inadSystem != &system) {
        QVERIFY(pickSystem(*w, QString::fromStdString(inadSystem->info().id)));
      }
      QVERIFY(waitForTimeBeyond(*w, 0.1));
      const auto gen = w->currentRun()->generation;
      const double tBefore = w->lastSnapshot()->t;
      NumberField* f = w->editor()->initialField(inad->name);
      typeInto(f, QString::fromStdString(ricochet::formatNumber(inad->value)));
      QVERIFY(waitFor([&] { return f->hasError(); }, 3000));
      QCOMPARE(f->error(), inad->error);
      QVERIFY(w->editor()->messageFor(f).contains(inad->error));
      QVERIFY(w->statusBar()->currentMessage().contains(inad->error));
      QCOMPARE(w->currentRun()->generation, gen);  // same run ...
      QVERIFY(waitForTimeBeyond(*w, tBefore + 0.2));  // ... still running
      QCOMPARE(shownState(*w), QStringLiteral("running"));
    } else {
      qWarning("no registered system has an in-range but inadmissible initial condition");
    }
    if (!inadSystem || inadSystem == &system) {  // none of the refusals restarted the run
      QCOMPARE(w->currentRun()->generation, generation);
      QCOMPARE(w->currentRun()->scenario.parameters, running.parameters);
    }
  }

  // Acceptance: pause, step and resume change simulated time as expected; R resets.
  void pauseStepResumeAndReset() {
    auto w = openWindow(freshOptions(QString::fromStdString(firstSystem().info().id)));
    QVERIFY(waitForTimeBeyond(*w, 0.2));
    w->sceneWidget()->setFocus();
    QTest::keyClick(w.get(), Qt::Key_Space);  // pause
    QVERIFY(waitFor([&] { return !w->lastSnapshot()->running; }, 2000));
    QCOMPARE(shownState(*w), QStringLiteral("paused"));
    const double tPaused = shownTime(*w);
    const long long stepsPaused = shownCount(*w, "steps");
    const auto snap = w->lastSnapshot();
    QTest::qWait(300);
    QCOMPARE(w->lastSnapshot()->t, snap->t);  // nothing moves while paused
    QCOMPARE(shownTime(*w), tPaused);

    const double h = w->currentRun()->scenario.integrator.h;
    QTest::keyClick(w.get(), Qt::Key_S);  // one step
    QVERIFY(waitFor([&] { return w->lastSnapshot()->step == snap->step + 1; }, 2000));
    QCOMPARE(shownCount(*w, "steps"), stepsPaused + 1);
    QVERIFY(std::fabs(w->lastSnapshot()->t - (snap->t + h)) <= 1e-9 * std::max(1.0, snap->t));
    for (int i = 0; i < 4; ++i) QTest::keyClick(w.get(), Qt::Key_S);
    QVERIFY(waitFor([&] { return w->lastSnapshot()->step == snap->step + 5; }, 2000));
    QVERIFY(std::fabs(w->lastSnapshot()->t - (snap->t + 5 * h)) <= 1e-9 * std::max(1.0, snap->t));
    QVERIFY(!w->lastSnapshot()->running);

    QTest::keyClick(w.get(), Qt::Key_Space);  // resume
    QVERIFY(waitForTimeBeyond(*w, snap->t + 5 * h + 0.1));
    QCOMPARE(shownState(*w), QStringLiteral("running"));

    const auto generation = w->currentRun()->generation;
    QTest::keyClick(w.get(), Qt::Key_R);  // reset: back to t = 0, still running
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }, 2000));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }, 2000));
    QVERIFY(w->lastSnapshot()->t < 0.2);
    // Said as what it is: nothing was edited.
    QCOMPARE(w->statusBar()->currentMessage(), QStringLiteral("Reset to the initial conditions"));
    QVERIFY(waitForTimeBeyond(*w, 0.05));
    // R typed into the 3-D view itself (its native window) resets the run too: the window's
    // shortcut takes the key before the view's interactor sees it.
    QWindow* surface = w->sceneWidget()->renderSurface();
    QVERIFY(surface);
    QSignalSpy viewReset(w->sceneWidget(), &ricochet::render::VtkWidget::resetViewRequested);
    const auto again = w->currentRun()->generation;
    QTest::keyClick(surface, Qt::Key_R);
    QVERIFY(waitFor([&] { return w->currentRun()->generation > again; }, 2000));
    QCOMPARE(viewReset.count(), 0);
  }

  // Stopped at t_end, Play starts the run over: the worker restarts it by itself, and the
  // status bar says it was reset (not "Restarted with the new value": nothing was edited).
  void playAfterTEndSaysReset() {
    auto w = openWindow(freshOptions(QString::fromStdString(firstSystem().info().id)));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    QVERIFY(w->stopAtEndAction()->isChecked());  // the default
    auto generation = w->currentRun()->generation;
    typeInto(w->editor()->settingField(QStringLiteral("t_end")), QStringLiteral("0.3"));
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QCOMPARE(w->statusBar()->currentMessage(), QStringLiteral("Restarted with the new value"));
    QVERIFY(waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->finished; }));
    QCOMPARE(shownState(*w), QStringLiteral("at t_end"));
    generation = w->currentRun()->generation;
    w->playAction()->trigger();
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QCOMPARE(w->statusBar()->currentMessage(), QStringLiteral("Reset to the initial conditions"));
    QCOMPARE(w->currentRun()->scenario.tEnd, 0.3);
    QVERIFY(!w->editor()->settingField(QStringLiteral("t_end"))->hasError());
  }

  // Keys typed into a number field belong to it: with the field focused, "2 m/s" (Space and S
  // among its keys) and R, F, T, L are typed, and the run is neither paused, stepped nor reset,
  // nor the view options toggled. Return runs the value (the unit may be typed after it); Escape
  // hands the keyboard back, and Space pauses again.
  void keysTypedIntoAFieldBelongToTheField() {
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitForTimeBeyond(*w, 0.1));
    NumberField* field = w->editor()->initialField(QStringLiteral("vx0"));
    QVERIFY(field);
    QCOMPARE(QString::fromStdString(field->spec().unit), QStringLiteral("m/s"));
    auto generation = w->currentRun()->generation;
    field->setFocus();
    QVERIFY(waitFor([&] { return QApplication::focusWidget() == field; }, 2000));
    field->textEditor()->selectAll();
    std::vector<bool> checked;
    QList<QAction*> toggles;
    for (QAction* a : w->findChildren<QAction*>()) {
      const QKeySequence key = a->shortcut();
      if (key == QKeySequence(Qt::Key_F) || key == QKeySequence(Qt::Key_T) ||
          key == QKeySequence(Qt::Key_L)) {
        toggles << a;
        checked.push_back(a->isChecked());
      }
    }
    QCOMPARE(toggles.size(), 3);
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("2 m/s rftl"));
    QTest::qWait(300);
    QCOMPARE(field->textEditor()->text(), QStringLiteral("2 m/s rftl"));  // every key typed
    QVERIFY(w->lastSnapshot()->running);                                  // Space did not pause
    QCOMPARE(w->currentRun()->generation, generation);                    // R did not reset
    for (int i = 0; i < toggles.size(); ++i)
      QCOMPARE(toggles[i]->isChecked(), bool(checked[std::size_t(i)]));
    // The value with its unit runs.
    for (int i = 0; i < 5; ++i) QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backspace);
    QCOMPARE(field->textEditor()->text(), QStringLiteral("2 m/s"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    const auto vx0 =
        ricochet::indexOf(ricochet::findSystem("particle-floor")->info().initial, "vx0");
    QVERIFY(vx0);
    QCOMPARE(w->currentRun()->scenario.initial[*vx0], 2.0);
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(field));  // still typing there
    // Escape gives the keys back to the window: Space pauses, S steps.
    QVERIFY(waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->running; }));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    QVERIFY(QApplication::focusWidget() != field);
    QTest::keyClick(w.get(), Qt::Key_Space);
    QVERIFY(waitFor([&] { return !w->lastSnapshot()->running; }, 2000));
    QCOMPARE(shownState(*w), QStringLiteral("paused"));
    const auto paused = w->lastSnapshot()->step;
    QTest::keyClick(w.get(), Qt::Key_S);
    QVERIFY(waitFor([&] { return w->lastSnapshot()->step == paused + 1; }, 2000));
  }

  // The wheel over a field of the scenario dock scrolls the dock; the value under the pointer is
  // changed only once the field has the focus (a click or Tab).
  void wheelScrollsTheDockNotTheFieldUnderThePointer() {
    auto w = openWindow(freshOptions(QStringLiteral("rigid-body")));
    w->resize(1280, 600);  // the Body section makes the dock scroll
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    auto* scroll =
        w->findChild<QDockWidget*>(QStringLiteral("scenarioDock"))->findChild<QScrollArea*>();
    QVERIFY(scroll);
    QVERIFY(waitFor([&] { return scroll->verticalScrollBar()->maximum() > 0; }, 3000));
    scroll->verticalScrollBar()->setValue(0);
    NumberField* field = w->editor()->initialField(QStringLiteral("z0"));
    QVERIFY2(field, qPrintable(QString::fromStdString(w->currentRun()->scenario.system)));
    QVERIFY(waitFor([&] { return field->isVisible(); }, 3000));
    field->clearFocus();
    const double before = field->value();
    const auto generation = w->currentRun()->generation;
    const auto wheel = [&](QWidget* target) {
      const QPointF local(target->width() / 2.0, target->height() / 2.0);
      QWheelEvent e(local, target->mapToGlobal(local), QPoint(), QPoint(0, -120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(target, &e);
    };
    wheel(field);  // the pointer over the field, as a user scrolls the dock past it
    QTest::qWait(200);
    QCOMPARE(field->value(), before);
    QCOMPARE(w->currentRun()->generation, generation);
    QVERIFY2(scroll->verticalScrollBar()->value() > 0, "the dock did not scroll");
    // The system and integrator combos pass the wheel on too.
    const int system = w->editor()->systemCombo()->currentIndex();
    scroll->verticalScrollBar()->setValue(0);
    wheel(w->editor()->systemCombo());
    QCOMPARE(w->editor()->systemCombo()->currentIndex(), system);
    QVERIFY(scroll->verticalScrollBar()->value() > 0);
    // Focused, the field takes the wheel: one step down, and the run restarts with it.
    field->setFocus();
    QVERIFY(waitFor([&] { return field->hasFocus(); }, 2000));
    wheel(field);
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY2(field->value() < before, qPrintable(QString::number(field->value())));
  }

  // Stop at t_end is on in a fresh window and sits on the Run toolbar beside Play, Step and
  // Reset (and in the Simulation menu): a run pauses at its scenario's end.
  void stopAtTEndIsOnBesideTheRunControls() {
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QAction* stop = w->stopAtEndAction();
    QVERIFY(stop && stop->isCheckable());
    QVERIFY(stop->isChecked());
    auto* bar = w->findChild<QToolBar*>(QStringLiteral("runToolBar"));
    QVERIFY(bar && bar->isVisible());
    QWidget* button = bar->widgetForAction(stop);
    QWidget* reset = bar->widgetForAction(w->resetAction());
    QVERIFY(button && reset && button->isVisible());
    QVERIFY2(button->x() > reset->x() && button->x() - reset->geometry().right() < 40,
             qPrintable(QString("reset at %1, stop at %2").arg(reset->x()).arg(button->x())));
    bool inMenu = false;
    for (QAction* a : w->menuBar()->actions()) {
      if (a->menu() && a->menu()->actions().contains(stop)) inMenu = true;
    }
    QVERIFY(inMenu);
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    auto generation = w->currentRun()->generation;
    typeInto(w->editor()->settingField(QStringLiteral("t_end")), QStringLiteral("0.3"));
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->finished; }));
    QCOMPARE(shownState(*w), QStringLiteral("at t_end"));
    QVERIFY(std::fabs(w->lastSnapshot()->t - 0.3) < w->currentRun()->scenario.integrator.h);
    // Off: the run goes on past t_end (the choice is remembered for the next window).
    stop->setChecked(false);
    generation = w->currentRun()->generation;
    w->playAction()->trigger();  // starts over
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(waitForTimeBeyond(*w, 0.5));
    QCOMPARE(QSettings().value(QStringLiteral("run/stopAtEnd")).toBool(), false);
    // A stored value is a user's own choice (only a toggle writes it): a window that restores
    // its settings keeps it; without one it is on.
    w.reset();
    MainWindowOptions restoring = freshOptions(QStringLiteral("particle-floor"));
    restoring.restoreSettings = true;
    w = openWindow(restoring);
    QVERIFY(!w->stopAtEndAction()->isChecked());
    w.reset();
    QSettings().clear();
    w = openWindow(restoring);
    QVERIFY(w->stopAtEndAction()->isChecked());
    w.reset();
    QSettings().clear();
  }

  // Acceptance: a GUI-thread timer is never late by more than 100 ms while the worker runs as
  // fast as possible (and the plots and view keep updating meanwhile): on the cheapest system
  // (the most snapshots) and on the default one (an SE(3) body: the costliest frames and steps).
  void eventLoopStaysResponsiveAtMaxSpeed_data() {
    QTest::addColumn<QString>("id");
    QTest::newRow("first") << QString::fromStdString(firstSystem().info().id);
    if (MainWindow::defaultSystemId() != QString::fromStdString(firstSystem().info().id)) {
      QTest::newRow("default") << MainWindow::defaultSystemId();
    }
  }

  void eventLoopStaysResponsiveAtMaxSpeed() {
    QFETCH(QString, id);
    auto w = openWindow(freshOptions(id));
    QVERIFY(waitForTimeBeyond(*w, 0.05));
    w->stopAtEndAction()->setChecked(false);  // the worker flat out for the whole measurement
    QComboBox* speed = w->speedCombo();
    speed->setCurrentIndex(speed->findText(QStringLiteral("max")));
    int shown = 0;
    connect(w.get(), &MainWindow::snapshotShown, this, [&shown] { ++shown; });
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0;
    qint64 worst = 0;
    int ticks = 0;
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    connect(&timer, &QTimer::timeout, this, [&] {
      const qint64 now = clock.elapsed();
      worst = std::max(worst, now - last - 10);
      last = now;
      ++ticks;
    });
    last = clock.elapsed();
    timespec c0{}, c1{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    timer.start(10);
    QTest::qWait(3000);
    timer.stop();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    const double guiCpu = (c1.tv_sec - c0.tv_sec) + 1e-9 * (c1.tv_nsec - c0.tv_nsec);
    // The GUI thread's own CPU time tells a busy GUI (near 3 s) from a starved machine (the
    // thread waits for a core: CPU time well below the wall time although frames are late).
    qInfo("%s: GUI timer: %d ticks in 3 s, worst lateness %lld ms, %d snapshots shown, %s, GUI "
          "thread CPU %.2f s", qPrintable(id), ticks, (long long)worst, shown,
          qPrintable(w->statusField(QStringLiteral("rate"))->text()), guiCpu);
    QVERIFY2(worst < 100, qPrintable(QStringLiteral("worst lateness %1 ms").arg(worst)));
    QVERIFY(shown > 10);  // the view kept updating
    QVERIFY(w->lastSnapshot()->stepsPerSecond > 0.0);
    QVERIFY(w->lastSnapshot()->t > 3.0);  // faster than real time
  }

  // Trail at high speed: at max speed one snapshot spans thousands of steps; each
  // carries the tracked body's positions since the previous one (at most kPathSamples, evenly
  // spaced in steps). Replaying the scenario must pass through every one of them, in order.
  void trailPathIsTheIntegratedPathAtMaxSpeed() {
    auto w = openWindow(freshOptions(QString::fromStdString(firstSystem().info().id)));
    QVERIFY(waitForTimeBeyond(*w, 0.05));
    const auto generation = w->currentRun()->generation;
    std::vector<ricochet::app::SnapshotPtr> shown;
    connect(w.get(), &MainWindow::snapshotShown, this, [&] { shown.push_back(w->lastSnapshot()); });
    w->speedCombo()->setCurrentIndex(w->speedCombo()->findText(QStringLiteral("max")));
    QTest::qWait(800);
    w->playAction()->trigger();  // pause: the snapshots end
    QVERIFY(waitFor([&] { return !w->lastSnapshot()->running; }));
    std::vector<Eigen::Vector3d> path;
    std::int64_t lastStep = 0, widest = 0;
    std::size_t fullest = 0;
    std::int64_t previousStep = -1;
    std::vector<std::pair<std::size_t, std::int64_t>> pathEnds;  // (end index in path, snapshot step)
    for (const auto& s : shown) {
      if (s->generation != generation) continue;
      QVERIFY2(s->path.size() <= std::size_t(ricochet::app::SimulationWorker::kPathSamples),
               qPrintable(QString("%1 path samples").arg(s->path.size())));
      if (previousStep >= 0) widest = std::max(widest, s->step - previousStep);
      previousStep = s->step;
      fullest = std::max(fullest, s->path.size());
      path.insert(path.end(), s->path.begin(), s->path.end());
      pathEnds.emplace_back(path.size(), s->step);
      lastStep = s->step;
    }
    // Snapshots far apart in steps, each with a dense path (a straight chord otherwise).
    QVERIFY2(widest > 1000, qPrintable(QString("at most %1 steps between snapshots").arg(widest)));
    QVERIFY2(fullest >= std::size_t(ricochet::app::SimulationWorker::kPathRecent +
                                    ricochet::app::SimulationWorker::kPathHistory / 4),
             qPrintable(QString("at most %1 path samples per snapshot").arg(fullest)));
    auto created = ricochet::createSimulation(w->currentRun()->scenario);
    QVERIFY(created.simulation);
    ricochet::Simulation& sim = *created.simulation;
    std::vector<ricochet::Pose> poses(w->currentRun()->scene.bodies.size());
    const auto tracked = std::size_t(w->currentRun()->scene.trackedBody);
    std::size_t matched = 0;
    std::vector<std::int64_t> matchedStep;  // the step each path sample was found at
    while (sim.step() < lastStep && matched < path.size()) {
      QVERIFY(sim.advance(1, nullptr).ok());
      sim.poses(poses);
      if ((poses[tracked].position - path[matched]).norm() <= 1e-12 * (1.0 + path[matched].norm())) {
        ++matched;
        matchedStep.push_back(sim.step());
      }
    }
    qInfo("%zu path samples in %zu snapshots (up to %zu per snapshot, up to %lld steps apart), "
          "replayed over %lld steps", path.size(), shown.size(), fullest, (long long)widest,
          (long long)lastStep);
    QVERIFY2(matched == path.size(), qPrintable(QString("%1 of %2 path samples found on the replayed "
                                                        "trajectory").arg(matched).arg(path.size())));
    // Just behind the body the trail is exact: a full snapshot ends with its last kPathRecent
    // steps, every one of them, up to the snapshot's own step.
    const std::size_t recent = std::size_t(ricochet::app::SimulationWorker::kPathRecent);
    int fullSnapshots = 0;
    std::size_t begin = 0;
    for (const auto& [end, step] : pathEnds) {
      if (end - begin >= recent + 1) {
        ++fullSnapshots;
        for (std::size_t k = 0; k < recent; ++k) {
          QCOMPARE(matchedStep[end - 1 - k], step - std::int64_t(k));
        }
      }
      begin = end;
    }
    QVERIFY(fullSnapshots >= 1);
  }

  void impactsAreCountedAndMarkedOnThePlots() {
    auto w = openWindow(freshOptions(QString::fromStdString(firstSystem().info().id)));
    w->speedCombo()->setCurrentIndex(w->speedCombo()->findText(QStringLiteral("max")));
    if (!waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->impacts >= 3; }, 8000)) {
      QSKIP("no impact within 8 s of max-speed running");
    }
    QVERIFY(waitFor([&] { return w->plots()->markerCount(PlotPanel::Energy) > 0; }, 2000));
    QVERIFY(shownCount(*w, "impacts") >= 1);
    QVERIFY(w->plots()->markerCount(PlotPanel::Error) > 0);
  }

  void logErrorViewPlotsTheMagnitude() {
    auto w = openWindow(freshOptions(QString::fromStdString(firstSystem().info().id), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    for (int i = 0; i < 50; ++i) QTest::keyClick(w.get(), Qt::Key_S);
    QVERIFY2(waitFor([&] { return w->lastSnapshot()->step == 50; }),
             qPrintable(QStringLiteral("step %1").arg(w->lastSnapshot()->step)));
    const auto linear =
        w->plots()->plottedValues(PlotPanel::Error, QStringLiteral("energy error"));
    auto* box = w->plots()->findChild<QCheckBox*>(QStringLiteral("logErrorBox"));
    QVERIFY(box);
    box->click();
    QTest::keyClick(w.get(), Qt::Key_S);  // next snapshot draws in the new mode
    QVERIFY(waitFor([&] { return w->lastSnapshot()->step == 51; }));
    const auto logv =
        w->plots()->plottedValues(PlotPanel::Error, QStringLiteral("log10 |energy error|"));
    QVERIFY(logv.size() >= linear.size());
    for (std::size_t i = 0; i < linear.size(); ++i) {
      const double expected = std::log10(std::max(std::fabs(linear[i]), 1e-17));
      QVERIFY(std::fabs(logv[i] - expected) < 1e-12);
    }
  }

  // Integrator settings come from the description: picking another integrator restarts the run
  // with it; a new time step shows in the run and in the stepping.
  void integratorSettingsRestartTheRun() {
    const ricochet::SystemDescription* system = nullptr;
    for (const auto* s : ricochet::systems()) {
      if (s->info().integrators.size() >= 2) {
        system = s;
        break;
      }
    }
    if (!system) QSKIP("no registered system offers two integrators");
    const auto& info = system->info();
    auto w = openWindow(freshOptions(QString::fromStdString(info.id), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    QComboBox* combo = w->editor()->integratorCombo();
    QCOMPARE(combo->count(), int(info.integrators.size()));
    for (int i = 0; i < combo->count(); ++i) {
      QCOMPARE(combo->itemData(i, Qt::ToolTipRole).toString(),
               QString::fromStdString(info.integrators[std::size_t(i)].help));
    }
    auto generation = w->currentRun()->generation;
    combo->setFocus();
    QTest::keyClick(combo, Qt::Key_Down);  // the second integrator
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QCOMPARE(w->currentRun()->scenario.integrator.name, info.integrators[1].name);
    // A new h: one step advances the clock by exactly that much.
    generation = w->currentRun()->generation;
    const double h = info.defaultH / 2.0;
    typeInto(w->editor()->settingField(QStringLiteral("h")),
             QString::fromStdString(ricochet::formatNumber(h)));
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation && w->lastSnapshot(); }));
    QCOMPARE(w->currentRun()->scenario.integrator.h, h);
    QCOMPARE(w->currentRun()->scenario.integrator.name, info.integrators[1].name);
    const double t0 = w->lastSnapshot()->t;
    w->sceneWidget()->setFocus();
    QTest::keyClick(w.get(), Qt::Key_S);
    QVERIFY(waitFor([&] { return w->lastSnapshot()->step == 1; }));
    QVERIFY(std::fabs(w->lastSnapshot()->t - (t0 + h)) < 1e-12);
  }

  // An integrator failure is reported as a value: the run pauses on its last good state, the
  // status bar names the step, time and what failed, and the window keeps working.
  void integratorFailureIsShownAndTheRunStops() {
    // A tolerance below the round-off floor makes the SE(3) Newton solve fail on its first step
    // (the same scenario makes ricochet-cli exit with code 3).
    const QString id = QStringLiteral("ellipsoid-plane");
    if (!ricochet::findSystem(id.toStdString())) QSKIP("ellipsoid-plane not registered");
    auto w = openWindow(freshOptions(id));
    QVERIFY(waitForTimeBeyond(*w, 0.05));
    typeInto(w->editor()->settingField(QStringLiteral("tolerance")), QStringLiteral("1e-300"));
    QVERIFY(waitFor([&] { return w->lastSnapshot() && !w->lastSnapshot()->failure.isEmpty(); }));
    const auto snap = w->lastSnapshot();
    QVERIFY(!snap->running);
    QCOMPARE(snap->step, std::int64_t(0));  // the last good state
    QCOMPARE(shownState(*w), QStringLiteral("failed"));
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("step 1")),
             qPrintable(w->statusBar()->currentMessage()));
    QVERIFY(w->statusField(QStringLiteral("state"))->toolTip().contains(QStringLiteral("did not converge")));
    // Play cannot go on from a failed state; fixing the tolerance restarts a healthy run.
    w->sceneWidget()->setFocus();
    QTest::keyClick(w.get(), Qt::Key_Space);
    QTest::qWait(200);
    QCOMPARE(w->lastSnapshot()->step, std::int64_t(0));
    typeInto(w->editor()->settingField(QStringLiteral("tolerance")), QStringLiteral("1e-12"));
    QVERIFY(waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->failure.isEmpty(); }));
    if (!w->lastSnapshot()->running) QTest::keyClick(w.get(), Qt::Key_Space);
    QVERIFY(waitForTimeBeyond(*w, 0.1));
  }

  // Scenario files (core/io format): a good one opens and runs exactly; a bad one is refused
  // with the key named and the running simulation is untouched.
  void scenarioFilesOpenOrAreRefused() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto& system = *ricochet::systems().back();
    ricochet::Scenario scenario = ricochet::defaultScenario(system);
    scenario.integrator.h = system.info().defaultH / 4.0;
    const QString good = dir.filePath(QStringLiteral("good.json"));
    QVERIFY(ricochet::io::saveScenario(good.toStdString(), scenario).empty());
    auto w = openWindow(freshOptions(QString::fromStdString(firstSystem().info().id)));
    QVERIFY(waitForTimeBeyond(*w, 0.05));
    QString error;
    QVERIFY2(w->openScenarioFile(good, &error), qPrintable(error));
    QVERIFY(waitFor([&] { return w->currentRun()->scenario.system == system.info().id; }));
    QVERIFY(ricochet::io::sameScenario(w->currentRun()->scenario, scenario));
    QCOMPARE(w->editor()->settingField(QStringLiteral("h"))->value(), scenario.integrator.h);

    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray("{\"format\": \"ricochet-scenario\", \"version\": 1, \"system\": \"") +
            QByteArray::fromStdString(system.info().id) +
            QByteArray("\", \"integrator\": {\"h\": -1}}\n"));
    f.close();
    const auto generation = w->currentRun()->generation;
    QVERIFY(!w->openScenarioFile(bad, &error));
    QVERIFY2(error.contains(QStringLiteral("integrator.h")), qPrintable(error));
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("integrator.h")));
    QTest::qWait(200);
    QCOMPARE(w->currentRun()->generation, generation);
    QVERIFY(!w->openScenarioFile(dir.filePath(QStringLiteral("missing.json")), &error));
    QVERIFY(error.contains(QStringLiteral("missing.json")));
    // A FIFO is refused unopened (opening it would block the GUI thread until a writer comes).
    const QString fifo = dir.filePath(QStringLiteral("pipe.json"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    QVERIFY(!w->openScenarioFile(fifo, &error));
    QVERIFY2(error.contains(QStringLiteral("not a regular file")), qPrintable(error));
    QCOMPARE(w->currentRun()->generation, generation);
  }

  // Window state, last system and its scenario come back at the next launch.
  void settingsRememberSystemAndScenario() {
    QSettings().clear();
    const ricochet::SystemDescription* system = ricochet::systems().back();
    const auto& info = system->info();
    std::optional<Edit> edit = findEnergyChangingEdit(*system);
    {
      MainWindowOptions o;
      auto w = openWindow(o);
      QVERIFY(pickSystem(*w, QString::fromStdString(info.id)));
      if (edit) {
        typeInto(w->editor()->parameterField(edit->name),
                 QString::fromStdString(ricochet::formatNumber(edit->value)));
        QVERIFY(waitFor([&] { return !w->plots()->plottedValues(PlotPanel::Energy, "total").empty() &&
                                     w->currentRun()->energyInitial == edit->energy; }));
      }
      w->speedCombo()->setCurrentIndex(w->speedCombo()->findText(QStringLiteral("2\u00d7")));
      w->close();
    }
    MainWindowOptions o;
    auto w = openWindow(o);
    QVERIFY(waitFor([&] { return w->currentRun() != nullptr; }));
    QCOMPARE(w->currentRun()->scenario.system, info.id);
    if (edit) {
      const auto idx = *ricochet::indexOf(info.parameters, edit->name.toStdString());
      QCOMPARE(w->currentRun()->scenario.parameters[idx], edit->value);
      QCOMPARE(w->editor()->parameterField(edit->name)->value(), edit->value);
    }
    QCOMPARE(w->speedCombo()->currentText(), QStringLiteral("2\u00d7"));
    QSettings().clear();
  }

  // --help needs no display and names the options.
  void launchHelpNamesTheOptions() {
    QVERIFY2(QFile::exists(binary()), qPrintable(binary()));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    p.setProcessEnvironment(env);
    p.start(binary(), {QStringLiteral("--help")});
    QVERIFY(p.waitForFinished(10000));
    QCOMPARE(p.exitCode(), 0);
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    for (const char* option : {"--scenario", "--system", "--paused"}) {
      QVERIFY2(out.contains(QLatin1String(option)), option);
    }
  }

  // A saved scenario opens its own system (not the default one), names the file in the title
  // and animates: the status bar keeps changing.
  void launchWithAScenarioFileOpensItsSystemAndRuns() {
    QTemporaryDir files;
    QVERIFY(files.isValid());
    const ricochet::SystemDescription* system = ricochet::systems().front();
    for (const auto* s : ricochet::systems()) {
      if (QString::fromStdString(s->info().id) != MainWindow::defaultSystemId()) {
        system = s;
        break;
      }
    }
    ricochet::Scenario scenario = ricochet::defaultScenario(*system);
    scenario.integrator.h = system->info().defaultH / 2.0;
    const QString path = files.filePath(QStringLiteral("launch.json"));
    QVERIFY(ricochet::io::saveScenario(path.toStdString(), scenario).empty());
    Launch app({QStringLiteral("--scenario"), path});
    const QString title = QString::fromStdString(system->info().title);
    const auto window = app.waitForWindow({title, QStringLiteral("launch.json")});
    QVERIFY2(window, qPrintable(app.titles() + QStringLiteral(" / ") + app.stderrText()));
    qInfo("window '%s' after %lld ms", qPrintable(window->title), (long long)app.elapsed());
    QVERIFY2(!app.stderrText().contains(QStringLiteral("ricochet:")), qPrintable(app.stderrText()));
    // Never still for a second (a paused window is, see below): the simulated time moves.
    QVERIFY2(!statusSettles(*window, 1000, 4000), "the status bar stood still: not running");
  }

  // --system ID --paused: that system, and nothing moves.
  void launchPausedWithASystemStaysStill() {
    const QString id = QString::fromStdString(ricochet::systems().back()->info().id);
    Launch app({QStringLiteral("--system"), id, QStringLiteral("--paused")});
    const auto window = app.waitForWindow({systemTitle(id)});
    QVERIFY2(window, qPrintable(app.titles() + QStringLiteral(" / ") + app.stderrText()));
    QVERIFY2(statusSettles(*window, 1000, 15000), "the status bar kept changing: not paused");
  }

  // A file that cannot run: the key is named (stderr and a message box), and the window opens on
  // the default system instead of hanging or quitting.
  void launchWithABadFileNamesTheKey() {
    QTemporaryDir files;
    QVERIFY(files.isValid());
    const QString path = files.filePath(QStringLiteral("bad.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray("{\"format\": \"ricochet-scenario\", \"version\": 1, \"system\": \"") +
            ricochet::systems().front()->info().id.c_str() +
            QByteArray("\", \"integrator\": {\"h\": -1}}\n"));
    f.close();
    Launch app({QStringLiteral("--scenario"), path});
    // One line, "ricochet: FILE: line 1, column C: "integrator.h": ...".
    const QRegularExpression message(QStringLiteral("^ricochet: .*bad\\.json.*\"integrator\\.h\""),
                                     QRegularExpression::MultilineOption);
    QVERIFY2(waitFor([&] { return message.match(app.stderrText()).hasMatch(); }, kWindowMs),
             qPrintable(app.stderrText()));
    QVERIFY2(app.waitForWindow({systemTitle(MainWindow::defaultSystemId())}),
             qPrintable(app.titles()));
    // The message box (titled after the app) is up beside the window.
    QVERIFY2(waitFor([&] {
      for (const XWindow& w : windowsOf(app.process().processId())) {
        if (w.title == QStringLiteral("Ricochet")) return true;
      }
      return false;
    }, kWindowMs), qPrintable(app.titles()));
    QCOMPARE(app.process().state(), QProcess::Running);
  }

  // A FIFO is refused before it is opened (opening it would block main() until a writer comes,
  // before any window), and the app goes on with the default system.
  void launchWithAFifoRefusesItAtOnce() {
    QTemporaryDir files;
    QVERIFY(files.isValid());
    const QString path = files.filePath(QStringLiteral("pipe.json"));
    QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
    Launch app({QStringLiteral("--scenario"), path});
    QVERIFY2(waitFor([&] { return app.stderrText().contains(QStringLiteral("not a regular file")); },
                     10000),
             qPrintable(app.stderrText()));
    qInfo("FIFO refused after %lld ms", (long long)app.elapsed());
    QVERIFY2(app.waitForWindow({systemTitle(MainWindow::defaultSystemId())}),
             qPrintable(app.titles()));
  }

  // An unknown --system says so and opens the default system.
  void launchWithAnUnknownSystemOpensTheDefault() {
    Launch app({QStringLiteral("--system"), QStringLiteral("no-such-system")});
    const QString expected = QStringLiteral("ricochet: unknown system 'no-such-system'; opening %1 "
                                            "instead")
                                 .arg(MainWindow::defaultSystemId());
    QVERIFY2(waitFor([&] { return app.stderrText().contains(expected); }, kWindowMs),
             qPrintable(app.stderrText()));
    QVERIFY2(app.waitForWindow({systemTitle(MainWindow::defaultSystemId())}),
             qPrintable(app.titles()));
  }
};

int main(int argc, char** argv) {
  return guitest::runSuite<TestGuiMainWindow>(argc, argv, "test_gui_mainwindow");
}
#include "test_gui_mainwindow.moc"
