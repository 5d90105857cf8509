// The plots as a new user explores them, through the real window: conserved quantities look
// conserved (a minimum span for the value axes, tick labels that differ), one time axis (equal
// plot-area edges on screen and in the PNG), legends that never hide data, zoom, pan, hover and
// the impact read-out, any column in any panel, phase portraits and impact maps whose points are
// the trace's own, and the axes drawn right after a reset.
//
// Run by hand: xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/test_gui_plots

#include "test_gui_export_support.hpp"

#include "app/desktop/plots/plot_canvas.hpp"
#include "app/desktop/plots/plot_charts.hpp"
#include "app/desktop/plots/plot_layout.hpp"
#include "app/desktop/plots/plot_painter.hpp"
#include "app/desktop/run/plot_samples.hpp"

#include <QDialog>
#include <QDir>
#include <QMenu>
#include <QRegularExpression>
#include <QWheelEvent>

#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"

#include <cmath>

#include <cstring>
#include <set>

using namespace exporttest;
using namespace guitest;
using ricochet::app::ChartLayout;
using ricochet::app::FigureLayout;
using ricochet::app::MainWindowOptions;
using ricochet::app::PanelKind;
using ricochet::app::PlotChart;
using ricochet::app::PlotPanel;
using ricochet::app::PlotSeries;

namespace {

// A window on `system` with `overrides` (parameter or initial name -> value), run to simulated
// time `t` and paused there.
std::unique_ptr<MainWindow> pausedAt(const QString& system, double t,
                                     const std::map<std::string, double>& overrides = {}) {
  const auto* sys = ricochet::findSystem(system.toStdString());
  if (!sys) return nullptr;
  ricochet::Scenario s = ricochet::defaultScenario(*sys);
  for (const auto& [name, value] : overrides) {
    for (std::size_t i = 0; i < sys->info().parameters.size(); ++i) {
      if (sys->info().parameters[i].name == name) s.parameters[i] = value;
    }
    for (std::size_t i = 0; i < sys->info().initial.size(); ++i) {
      if (sys->info().initial[i].name == name) s.initial[i] = value;
    }
  }
  MainWindowOptions o = freshOptions(system);
  o.scenario = s;
  auto w = openWindow(o);
  if (!waitForTimeBeyond(*w, t, 30000)) return nullptr;
  w->playAction()->trigger();
  if (!waitFor([&] { return w->lastSnapshot() && !w->lastSnapshot()->running; })) return nullptr;
  QTest::qWait(50);
  return w;
}

const ChartLayout& layoutOf(MainWindow& w, int panel) {
  return w.plots()->view()->figureLayout().charts.at(std::size_t(panel));
}

// The trace of `scenario` computed here by the core: the row of every series the worker plots
// (RunInfo::series order) at every step up to `steps`, and the impacts.
struct Trace {
  std::vector<std::vector<double>> rows;
  std::vector<ricochet::ImpactRecord> impacts;
};
struct Recorder : ricochet::ImpactSink {
  std::vector<ricochet::ImpactRecord>* out;
  void onImpact(const ricochet::ImpactRecord& r) override { out->push_back(r); }
};
Trace traceOf(const ricochet::app::RunInfo& run, std::int64_t steps) {
  Trace tr;
  auto created = ricochet::createSimulation(run.scenario);
  auto& sim = *created.simulation;
  const auto columns = sim.columns();
  std::vector<double> sample(columns.size());
  Recorder rec;
  rec.out = &tr.impacts;
  for (std::int64_t k = 0; k <= steps; ++k) {
    if (k > 0 && !sim.advance(1, &rec).ok()) break;
    sim.sample(sample);
    std::vector<double> row;
    for (const auto& s : run.series) {
      const auto it = std::find(columns.begin(), columns.end(), s.name);
      if (it != columns.end()) row.push_back(sample[std::size_t(it - columns.begin())]);
      else if (s.name == "total") row.push_back(sim.energy().total());
      else if (s.name == "kinetic") row.push_back(sim.energy().kinetic);
      else if (s.name == "potential") row.push_back(sim.energy().potential);
      else row.push_back(std::nan(""));  // the energy error: not compared here
    }
    tr.rows.push_back(std::move(row));
  }
  return tr;
}

int seriesIndex(const ricochet::app::RunInfo& run, const std::string& name) {
  for (std::size_t i = 0; i < run.series.size(); ++i) {
    if (run.series[i].name == name) return int(i);
  }
  return -1;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

class TestGuiPlots : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!ricochet::findSystem("cube-plane") || !ricochet::findSystem("particle-floor")) QSKIP("systems missing");
  }
  void init() { QSettings().clear(); }

  // cube-plane with m = 2: px, py and n.(R Pi) are constant to round-off. The momenta axis spans
  // at least the relative minimum, its labels differ, and the deviation view shows the round-off
  // on purpose with its scale in the title.
  void conservedQuantityLooksConserved() {
    auto w = pausedAt(QStringLiteral("cube-plane"), 1.0, {{"m", 2.0}});
    QVERIFY(w);
    PlotPanel* p = w->plots();
    const int mom = p->panelIndex(PlotPanel::Momentum);
    QVERIFY(mom >= 0);
    const PlotChart c = p->panelChart(mom);
    double magnitude = 0.0;
    for (const PlotSeries& s : c.series) {
      for (double v : s.y) magnitude = std::max(magnitude, std::fabs(v));
    }
    QVERIFY(magnitude > 1.0);
    QVERIFY2(c.yMax - c.yMin >= ricochet::app::kMinRelativeSpan * magnitude,
             qPrintable(QStringLiteral("span %1").arg(c.yMax - c.yMin)));
    const ChartLayout& l = layoutOf(*w, mom);
    QVERIFY(l.yTicks.size() >= 3);
    std::set<QString> labels;
    for (const auto& t : l.yTicks) labels.insert(t.label);
    QCOMPARE(labels.size(), l.yTicks.size());  // every tick label differs
    // mom.px and mom.py coincide: one legend entry says so, the second curve is dashed.
    bool merged = false;
    for (const PlotSeries& s : c.series) merged = merged || s.legendText().startsWith(QStringLiteral("mom.px = mom.py"));
    QVERIFY(merged);

    // Deviation from the initial value through the panel's own menu: the round-off shows, with
    // its power of ten in the title, and the labels still differ.
    std::unique_ptr<QMenu> menu(p->panelMenu(mom));
    QAction* dev = menu->findChild<QAction*>(QStringLiteral("deviationAction"));
    QVERIFY(dev);
    dev->trigger();
    QVERIFY(p->panel(mom).deviation);
    const PlotChart d = p->panelChart(mom);
    QVERIFY(d.yTitle.startsWith(QStringLiteral("\u0394 ")));
    const ChartLayout& dl = layoutOf(*w, mom);
    QVERIFY2(dl.yTitle.contains(QStringLiteral("(\u00d71e-")), qPrintable(dl.yTitle));
    QVERIFY(d.yMax - d.yMin < 1e-9);
    labels.clear();
    for (const auto& t : dl.yTicks) labels.insert(t.label);
    QCOMPARE(labels.size(), dl.yTicks.size());
    QVERIFY(p->plottedValues(PlotPanel::Momentum, QStringLiteral("\u0394 mom.px")).front() == 0.0);
  }

  // One time axis: every panel's plot area has the same left and right edge on screen, and the
  // PNG export draws each chart's value axis at the same x (found in the pixels).
  void plotAreasAlignOnScreenAndInThePng() {
    auto w = pausedAt(QStringLiteral("disk-wall"), 1.0);
    QVERIFY(w);
    PlotPanel* p = w->plots();
    p->addPanel({PanelKind::Time, -1, {QStringLiteral("q.x")}, false});
    QVERIFY(p->panelCount() >= 4);
    for (int i = 1; i < p->panelCount(); ++i) {
      QCOMPARE(p->plotArea(i).left(), p->plotArea(0).left());
      QCOMPARE(p->plotArea(i).right(), p->plotArea(0).right());
    }
    const QSize size(900, 700);
    const QImage png = ricochet::app::renderFigure(p->figure(), size);
    const FigureLayout l = ricochet::app::layOutFigure(p->figure(), QSizeF(size), ricochet::app::plotExportScale(size));
    // In every chart's band, the column holding the value axis (dark over the whole area height,
    // the only such column left of the curves) is the same.
    int axisX = -1;
    for (const ChartLayout& c : l.charts) {
      int found = -1;
      for (int x = 0; x < png.width() / 2 && found < 0; ++x) {
        int dark = 0, rows = 0;
        for (int y = int(c.area.top()) + 2; y < int(c.area.bottom()) - 2; ++y, ++rows) {
          if (qGray(png.pixel(x, y)) < 60) ++dark;
        }
        if (rows > 0 && dark >= rows * 95 / 100) found = x;
      }
      if (axisX < 0) axisX = found;
      QCOMPARE(found, axisX);
      QVERIFY(std::abs(found - int(c.area.left())) <= 1);  // a line of 1.1 px on x = left
    }
    QCOMPARE(l.charts.front().area.left(), l.charts.back().area.left());
  }

  // disk-wall: mom.w jumps to 4.86 between t = 4.75 and 5.2 s. The legends sit above the plot
  // areas, so no legend rectangle meets a plot area, and every drawn point lies in its area.
  void legendsNeverHideData() {
    auto w = pausedAt(QStringLiteral("disk-wall"), 5.3);
    QVERIFY(w);
    PlotPanel* p = w->plots();
    for (int i = 0; i < p->panelCount(); ++i) {
      const QRectF area = p->plotArea(i), legend = p->legendRect(i);
      const PlotChart c = p->panelChart(i);
      if (c.legend) QVERIFY(!legend.isEmpty());
      QVERIFY2(!legend.intersects(area), qPrintable(QStringLiteral("panel %1").arg(i)));
      const ChartLayout& l = layoutOf(*w, i);
      for (const PlotSeries& s : c.series) {
        if (s.segments) continue;
        for (std::size_t k = 0; k < s.t.size(); ++k) {
          if (!std::isfinite(s.y[k])) continue;
          const QPointF at(ricochet::app::pageX(c, l, s.t[k]), ricochet::app::pageY(c, l, s.y[k]));
          QVERIFY(area.adjusted(-0.01, -0.01, 0.01, 0.01).contains(at));
          QVERIFY(!legend.contains(at));
        }
      }
    }
  }

  // Wheel, rubber band, pan, reset and hover through the canvas; a click on an impact line shows
  // that impact's row as the core computes it.
  void zoomPanHoverAndImpactRow() {
    auto w = pausedAt(QStringLiteral("particle-floor"), 3.0);
    QVERIFY(w);
    PlotPanel* p = w->plots();
    auto* canvas = p->view();
    const auto [f0, f1] = p->timeWindow();
    const QRectF area = p->plotArea(0);
    const QPointF mid = area.center();
    // Wheel up: zoom in about the pointer, every time panel together.
    QWheelEvent wheel(mid, canvas->mapToGlobal(mid), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(canvas, &wheel);
    QVERIFY(p->zoomed());
    const auto [z0, z1] = p->timeWindow();
    QVERIFY(std::fabs((z1 - z0) - 0.8 * (f1 - f0)) < 1e-9 * (f1 - f0));
    for (int i = 0; i < p->panelCount(); ++i) {
      QCOMPARE(p->panelChart(i).tMin, z0);
      QCOMPARE(p->panelChart(i).tMax, z1);
    }
    // Rubber band from 1/4 to 1/2 of the area.
    const double y = mid.y();
    const QPoint a(int(area.left() + 0.25 * area.width()), int(y)), b(int(area.left() + 0.5 * area.width()), int(y));
    auto timeAt = [&](int x) { return z0 + (x - area.left()) / area.width() * (z1 - z0); };
    QTest::mousePress(canvas, Qt::LeftButton, Qt::NoModifier, a);
    QTest::mouseMove(canvas, b);
    QTest::mouseRelease(canvas, Qt::LeftButton, Qt::NoModifier, b);
    auto [r0, r1] = p->timeWindow();
    QVERIFY(std::fabs(r0 - timeAt(a.x())) < 1e-9 && std::fabs(r1 - timeAt(b.x())) < 1e-9);
    // Shift+drag pans: same width, shifted by the drag.
    const double width = r1 - r0;
    QTest::mousePress(canvas, Qt::LeftButton, Qt::ShiftModifier, b);
    QTest::mouseMove(canvas, a);
    QTest::mouseRelease(canvas, Qt::LeftButton, Qt::ShiftModifier, a);
    const auto [s0, s1] = p->timeWindow();
    QVERIFY(std::fabs((s1 - s0) - width) < 1e-9);
    QVERIFY(s0 > r0);
    // Hover: time and every series' value under the pointer.
    QTest::mouseMove(canvas, mid.toPoint());
    QVERIFY(waitFor([&] { return p->readout().startsWith(QStringLiteral("t = ")); }, 2000));
    QVERIFY(p->readout().contains(QStringLiteral("total = ")));
    // Double-click: the whole run again.
    QTest::mouseDClick(canvas, Qt::LeftButton, Qt::NoModifier, mid.toPoint());
    QVERIFY(!p->zoomed());

    // The second impact's line, clicked: its row, as the core's run has it.
    const PlotChart e = p->panelChart(0);
    const PlotSeries* lines = nullptr;
    for (const PlotSeries& s : e.series) {
      if (s.segments) lines = &s;
    }
    QVERIFY(lines && lines->t.size() >= 4);
    const double tLine = lines->t[2];
    QSignalSpy shown(p, &PlotPanel::impactShown);
    const QPointF at(ricochet::app::pageX(e, layoutOf(*w, 0), tLine), area.center().y());
    QTest::mouseClick(canvas, Qt::LeftButton, Qt::NoModifier, at.toPoint());
    QCOMPARE(shown.count(), 1);
    QVERIFY(p->impactDetails() && p->impactDetails()->isVisible());
    const Trace tr = traceOf(*w->currentRun(), w->lastSnapshot()->step);
    const ricochet::ImpactRecord* hit = nullptr;
    for (const auto& r : tr.impacts) {
      if (r.t == tLine) hit = &r;
    }
    QVERIFY2(hit, qPrintable(QString::number(tLine, 'g', 17)));
    const QString text = shown.first().at(0).toString();
    QVERIFY2(text.contains(QStringLiteral("t = %1 s").arg(hit->t, 0, 'g', 12)), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("alpha = %1").arg(hit->alpha, 0, 'g', 6)));
    QVERIFY(text.contains(QStringLiteral("energy before: %1 J").arg(hit->energyBefore, 0, 'g', 12)));
    QVERIFY(text.contains(QStringLiteral("energy after: %1 J").arg(hit->energyAfter, 0, 'g', 12)));
    QVERIFY(text.contains(QStringLiteral("impulse: %1").arg(hit->impulse, 0, 'g', 8)));
    QVERIFY(text.contains(QString::fromStdString(w->currentRun()->constraints.at(std::size_t(hit->constraint)))));
  }

  // Any column in a time panel, a phase portrait and an impact map: their points are the trace's
  // values at the steps (and impacts) they stand for, bit for bit.
  void columnsPhasePortraitAndImpactMapAreTheTrace() {
    auto w = pausedAt(QStringLiteral("particle-floor"), 2.5);
    QVERIFY(w);
    PlotPanel* p = w->plots();
    const auto run = w->currentRun();
    const auto snap = w->lastSnapshot();
    QVERIFY(snap->step < 2048);  // every step is a row, each plot column one sample
    const Trace tr = traceOf(*run, snap->step);
    QCOMPARE(std::int64_t(tr.rows.size()), snap->step + 1);
    QVERIFY(p->quantities().contains(QStringLiteral("q.y")) && p->quantities().contains(QStringLiteral("p.y")));

    const int yi = seriesIndex(*run, "q.y"), vi = seriesIndex(*run, "p.y");
    const int time = p->addPanel({PanelKind::Time, -1, {QStringLiteral("q.y")}, false});
    const PlotChart tc = p->panelChart(time);
    const PlotSeries& ys = tc.series.back();
    QVERIFY(ys.t.size() >= 100);
    const double h = run->scenario.integrator.h;
    for (std::size_t k = 0; k < ys.t.size(); ++k) {
      const auto step = std::size_t(std::llround(ys.t[k] / h));
      // A plot column holding several steps shows their extremes: each point is one of them.
      bool found = false;
      for (std::size_t s = step > 3 ? step - 3 : 0; s <= step + 3 && s < tr.rows.size(); ++s) {
        found = found || sameBits(tr.rows[s][std::size_t(yi)], ys.y[k]);
      }
      QVERIFY2(found, qPrintable(QStringLiteral("t = %1").arg(ys.t[k])));
    }

    const int phase = p->addPanel({PanelKind::Phase, -1, {QStringLiteral("q.y"), QStringLiteral("p.y")}, false});
    const PlotChart pc = p->panelChart(phase);
    QCOMPARE(pc.xTitle, QStringLiteral("q.y"));
    QCOMPARE(pc.series.size(), std::size_t(1));
    const PlotSeries& dots = pc.series.front();
    QCOMPARE(dots.t.size(), snap->rows->size());
    for (std::size_t i = 0; i < dots.t.size(); ++i) {
      const auto step = std::size_t(snap->rows->step(i));
      QVERIFY(sameBits(dots.t[i], tr.rows.at(step)[std::size_t(yi)]));
      QVERIFY(sameBits(dots.y[i], tr.rows.at(step)[std::size_t(vi)]));
    }

    const int map = p->addPanel({PanelKind::ImpactMap, -1, {QStringLiteral("q.x"), QStringLiteral("p.x")}, false});
    const PlotChart mc = p->panelChart(map);
    QVERIFY(snap->impacts >= 2);
    QCOMPARE(mc.series.front().t.size(), std::size_t(snap->impacts));  // few impacts: all kept
    const int xi = seriesIndex(*run, "q.x"), ui = seriesIndex(*run, "p.x");
    for (std::size_t i = 0; i < mc.series.front().t.size(); ++i) {
      const auto& impact = tr.impacts.at(i);
      QCOMPARE(snap->impactRows->impact(i).t, impact.t);
      const auto& row = tr.rows.at(std::size_t(impact.step));
      QVERIFY(sameBits(mc.series.front().t[i], row[std::size_t(xi)]));
      QVERIFY(sameBits(mc.series.front().y[i], row[std::size_t(ui)]));
    }
    // Removing a panel through its menu.
    const int before = p->panelCount();
    std::unique_ptr<QMenu> menu(p->panelMenu(map));
    menu->findChild<QAction*>(QStringLiteral("removePlotAction"))->trigger();
    QCOMPARE(p->panelCount(), before - 1);
  }

  // A new phase portrait or impact map opens on a coordinate and its momentum that both move:
  // the height and vertical momentum of a bouncing body, the pendulum's angle and its rate (never
  // a momentum the system conserves, such as p.x over a floor: a flat line).
  void phasePortraitAndImpactMapOpenOnAPairThatMoves_data() {
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("x");
    QTest::addColumn<QString>("y");
    QTest::newRow("particle") << "particle-floor"
                              << "q.y"
                              << "p.y";
    QTest::newRow("star") << "star-floor"
                          << "q.y"
                          << "p.y";
    QTest::newRow("pendulum") << "pendulum-cylinder"
                              << "q.theta"
                              << "p.theta";
    QTest::newRow("cube") << "cube-plane"
                          << "q.z"
                          << "p.z";
  }
  void phasePortraitAndImpactMapOpenOnAPairThatMoves() {
    QFETCH(QString, system);
    QFETCH(QString, x);
    QFETCH(QString, y);
    auto w = pausedAt(system, 1.5);
    QVERIFY(w);
    PlotPanel* p = w->plots();
    for (PanelKind kind : {PanelKind::Phase, PanelKind::ImpactMap}) {
      const int panel = p->addPanel({kind, -1, {}, false});
      const PlotChart c = p->panelChart(panel);
      QCOMPARE(c.xTitle, x);
      QCOMPARE(c.yTitle, y);
      if (kind == PanelKind::ImpactMap) continue;
      // Both move over the run so far: neither axis is a flat line.
      const PlotSeries& dots = c.series.front();
      QVERIFY(dots.t.size() > 10);
      const auto [x0, x1] = std::minmax_element(dots.t.begin(), dots.t.end());
      const auto [y0, y1] = std::minmax_element(dots.y.begin(), dots.y.end());
      QVERIFY2(*x1 - *x0 > 1e-3 * std::max(1.0, std::fabs(*x1)), qPrintable(x));
      QVERIFY2(*y1 - *y0 > 1e-3 * std::max(1.0, std::fabs(*y1)), qPrintable(y));
    }
  }

  // The phase portrait's caption counts its states in words: "every 2nd step", "every 4th step".
  void phaseCaptionSaysEvery2ndStep() {
    using ricochet::app::ordinal;
    QStringList got;
    for (std::int64_t n : {1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 32, 101, 112, 512, 1024})
      got << ordinal(n);
    QCOMPARE(got, (QStringList{"1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd",
                               "23rd", "32nd", "101st", "112th", "512th", "1024th"}));
    // The caption of a run whose rows are kept every 2nd step (4 rows held of 6 steps).
    auto snapshot = std::make_shared<ricochet::app::Snapshot>();
    ricochet::app::StrideRows rows(2, 4);
    const double v[2] = {1.0, 2.0};
    for (std::int64_t step = 0; step <= 6; ++step) {
      if (rows.wants(step)) rows.add(step, v);
    }
    QCOMPARE(rows.stride(), std::int64_t(2));
    snapshot->rows = std::make_shared<const ricochet::app::StrideRows>(rows);
    snapshot->impactRows = std::make_shared<const ricochet::app::ImpactRows>(2);
    ricochet::app::ChartContext c;
    c.names = {QStringLiteral("q.y"), QStringLiteral("p.y")};
    c.snapshot = snapshot;
    const PlotChart chart = ricochet::app::buildChart(
        {PanelKind::Phase, -1, {QStringLiteral("q.y"), QStringLiteral("p.y")}, false}, c);
    QCOMPARE(chart.series.front().name, QStringLiteral("4 states (every 2nd step)"));
  }

  // The die of the die-in-a-box preset: some sixty impacts over its 8 s, several within two
  // steps of another. The window's run has exactly the impacts of the same scenario run headless
  // (the core's count), and the impact map shows every one, and says so.
  void impactMapWithFewImpactsShowsAllOfThem() {
    const ricochet::io::ScenarioResult r = ricochet::io::loadScenario(
        RICOCHET_SOURCE_DIR "/resources/presets/003-rigid-body-die-in-a-box.json");
    QVERIFY2(r.ok(), r.error.c_str());
    const ricochet::CreateResult headless = ricochet::createSimulation(*r.scenario);
    QVERIFY2(headless.simulation, headless.error.c_str());
    const auto steps = std::int64_t(std::llround(r.scenario->tEnd / r.scenario->integrator.h));
    QVERIFY(headless.simulation->advance(steps, nullptr).ok());
    const std::int64_t expected = headless.simulation->impactCount();
    QVERIFY2(expected >= 40 && expected <= 100, qPrintable(QString::number(expected)));
    MainWindowOptions o = freshOptions(QStringLiteral("rigid-body"));
    o.scenario = *r.scenario;
    auto w = openWindow(o);
    QVERIFY(w->stopAtEndAction()->isChecked());
    w->speedCombo()->setCurrentIndex(w->speedCombo()->findText(QStringLiteral("max")));
    QVERIFY(waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->finished; }, 60000));
    const auto snap = w->lastSnapshot();
    QCOMPARE(snap->impacts, expected);
    QCOMPARE(std::int64_t(snap->impactRows->size()), snap->impacts);
    const int map = w->plots()->addPanel({PanelKind::ImpactMap, -1, {}, false});
    const PlotChart c = w->plots()->panelChart(map);
    QCOMPARE(c.series.front().t.size(), std::size_t(expected));
    QCOMPARE(c.series.front().name, QStringLiteral("%1 impacts").arg(expected));
  }

  // Five panels with long legends keep plots, not strips: a legend takes at most about a fifth
  // of its chart's band (what does not fit says "+k more").
  void fivePanelsKeepTheirPlotAreas() {
    auto w = pausedAt(QStringLiteral("cube-plane"), 0.5);
    QVERIFY(w);
    PlotPanel* p = w->plots();
    p->addPanel({PanelKind::Time,
                 -1,
                 {"q.x", "q.y", "q.z", "q.R11", "q.R12", "q.R13", "q.R21", "q.R22", "q.R23",
                  "q.R31", "q.R32", "q.R33"},
                 false});
    p->addPanel(
        {PanelKind::Time, -1, {"p.x", "p.y", "p.z", "p.Pi1", "p.Pi2", "p.Pi3", "mom.nRPi"}, false});
    QCOMPARE(p->panelCount(), 5);
    QTest::qWait(200);
    const FigureLayout& l = w->plots()->view()->figureLayout();
    QCOMPARE(l.charts.size(), std::size_t(5));
    bool more = false;
    for (const ChartLayout& c : l.charts) {
      // Above the area: the legend and half a label's height; below it, the time axis (the
      // last chart) or a margin.
      QVERIFY2(c.area.top() - c.band.top() <= 0.25 * c.band.height(),
               qPrintable(QString("the legend takes %1 px of a %2 px band")
                              .arg(c.area.top() - c.band.top())
                              .arg(c.band.height())));
      QVERIFY2(c.area.height() >= 0.45 * c.band.height(),
               qPrintable(QString("plot area %1 px of a %2 px band")
                              .arg(c.area.height())
                              .arg(c.band.height())));
      for (const auto& e : c.legend) more = more || e.text.contains(QStringLiteral(" more"));
      if (!c.legend.empty()) QVERIFY(c.legendRect.bottom() < c.area.top());
    }
    QVERIFY(more);  // the 12 positions do not fit one row of a 430 px dock
    QVERIFY(QDir().mkpath(QStringLiteral(RICOCHET_BINARY_DIR "/screenshots")));
    w->plots()->grab().save(
        QStringLiteral(RICOCHET_BINARY_DIR "/screenshots/plots-five-panels.png"));
  }

  // The first snapshot (t = 0: every series one value) draws its axes with round labels, not
  // the round-off of a minimum span (3.999998 ... 4.000002).
  void constantAxesAtTheStartHaveRoundLabels() {
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor"), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    QTest::qWait(200);
    QCOMPARE(w->lastSnapshot()->t, 0.0);
    const FigureLayout& l = w->plots()->view()->figureLayout();
    QVERIFY(!l.charts.empty());
    const QRegularExpression longDecimals(QStringLiteral("\\.\\d{4,}"));
    for (const ChartLayout& c : l.charts) {
      QVERIFY(c.yTicks.size() >= 2);
      std::set<QString> labels;
      for (const auto& t : c.yTicks) {
        QVERIFY2(!longDecimals.match(t.label).hasMatch(),
                 qPrintable(c.yTitle + QStringLiteral(": ") + t.label));
        labels.insert(t.label);
      }
      QCOMPARE(labels.size(), c.yTicks.size());
    }
    QVERIFY(QDir().mkpath(QStringLiteral(RICOCHET_BINARY_DIR "/screenshots")));
    w->plots()->grab().save(QStringLiteral(RICOCHET_BINARY_DIR "/screenshots/plots-at-t0.png"));
  }

  // Bounded memory: the phase rows and the impact rows never exceed their capacities, and the
  // rows stay evenly spaced in steps.
  void sampleStoresAreBounded() {
    ricochet::app::StrideRows rows(2, 8);
    const double v[2] = {0.0, 0.0};
    for (std::int64_t s = 0; s < 1000; ++s) rows.add(s, v);
    QVERIFY(rows.size() <= 8);
    for (std::size_t i = 0; i < rows.size(); ++i) QCOMPARE(rows.step(i), std::int64_t(i) * rows.stride());
    ricochet::app::ImpactRows impacts(1);
    std::int64_t width = 1;
    for (std::int64_t s = 1; s < 100000; s += 3) {
      if (s > 2048 * width) width *= 2;  // as the decimator's buckets widen
      impacts.setBucketWidth(width);
      impacts.add({s, s, double(s), 0.5, 0, 1, 1, 1, false});
      impacts.fill(s, v);
    }
    QVERIFY2(impacts.size() <= 2049, qPrintable(QString::number(impacts.size())));
    for (std::size_t i = 1; i < impacts.size(); ++i) {
      QVERIFY(impacts.impact(i).step / width != impacts.impact(i - 1).step / width);
    }
  }

  // Right after a reset the panels show their axes, before the new run's data arrive.
  void axesRightAfterAReset() {
    auto w = pausedAt(QStringLiteral("particle-floor"), 0.5);
    QVERIFY(w);
    bool checked = false;
    connect(w.get(), &MainWindow::runStarted, this, [&] {
      const FigureLayout& l = w->plots()->view()->figureLayout();
      QVERIFY(!l.charts.empty());
      for (const ChartLayout& c : l.charts) {
        QVERIFY(c.area.width() > 50 && c.area.height() > 20);
        QVERIFY(!c.yTicks.empty() && !c.xTicks.empty());
      }
      const QImage frame = w->plots()->view()->grabFrame();
      const ChartLayout& c = l.charts.front();
      QVERIFY(qGray(frame.pixel(int(c.area.left()), int(c.area.center().y()))) < 60);  // the axis
      checked = true;
    });
    w->resetAction()->trigger();
    QVERIFY(waitFor([&] { return checked; }, 5000));
  }
};

int main(int argc, char** argv) { return guitest::runSuite<TestGuiPlots>(argc, argv, "test_gui_plots"); }

#include "test_gui_plots.moc"
