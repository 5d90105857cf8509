// The study window's data layer without a window: the results CSV read back into a table (quoted
// fields, numbers, "nan"), the figure a recipe makes of it (series per group joined in x order,
// points a log axis cannot show counted, the least-squares slope of a power law, colour-map
// cells around their values), log-axis ticks, the hit test a click uses, and the PNG and SVG
// encodings of the figure.

#include "app/desktop/study/study_figure.hpp"
#include "app/desktop/study/study_painter.hpp"
#include "app/desktop/study/study_table.hpp"
#include "test_gui_support.hpp"

#include <QImage>

#include <cmath>

using namespace ricochet::app;

namespace {

StudyTable table(const char* csv) {
  StudyTable t;
  t.append(csv);
  return t;
}

}  // namespace

class TestGuiStudyFigure : public QObject {
  Q_OBJECT
 private slots:
  void csvFieldsAndNumbers() {
    const auto fields = splitCsvLine(R"(a,"b,c","d""e",)");
    QCOMPARE(fields.size(), std::size_t(4));
    QCOMPARE(fields[1], std::string("b,c"));
    QCOMPARE(fields[2], std::string("d\"e"));
    QCOMPARE(fields[3], std::string());
    StudyTable t;
    t.append("run,status,h,first_impact_t,message\n0,ok,0.01,nan,\n");
    t.append("1,solver-failed,0.005,0.75,\"step 3, t = 0.015: no convergence\"\n");
    QCOMPARE(t.rowCount(), std::size_t(2));
    QCOMPARE(t.column("first_impact_t"), 3);
    QCOMPARE(t.column("nope"), -1);
    QCOMPARE(t.number(1, 2), 0.005);
    QVERIFY(std::isnan(t.number(0, 3)));
    QVERIFY(std::isnan(t.number(1, 1)));  // text
    QCOMPARE(t.cell(1, 4), std::string("step 3, t = 0.015: no convergence"));
    QCOMPARE(t.text(), std::string("run,status,h,first_impact_t,message\n0,ok,0.01,nan,\n"
                                   "1,solver-failed,0.005,0.75,\"step 3, t = 0.015: no convergence\"\n"));
    QCOMPARE(shortNumber(65536.0), QStringLiteral("65536"));
    QCOMPARE(shortNumber(0.0050000000000000001), QStringLiteral("0.005"));
    QCOMPARE(countOf(1, QStringLiteral("run"), QStringLiteral("runs")), QStringLiteral("1 run"));
  }

  void linesGroupHideAndFit() {
    // y = 3 x^2 for two groups, plus a zero and a NaN that a log axis cannot show.
    const StudyTable t = table(
        "x,g,y\n"
        "0.4,a,0.48\n0.1,a,0.03\n0.2,a,0.12\n"
        "0.1,b,0.03\n0.2,b,0\n0.4,b,nan\n");
    FigureRecipe r;
    r.x = 0;
    r.ys = {2};
    r.groupBy = {1};
    r.logX = r.logY = true;
    r.fit = true;
    const StudyFigure f = buildFigure(t, r);
    QCOMPARE(f.series.size(), std::size_t(2));
    QCOMPARE(f.series[0].name, QStringLiteral("g = a"));
    QCOMPARE(f.hidden, std::size_t(2));
    const FigureSeries& a = f.series[0];
    QCOMPARE(a.points.size(), std::size_t(3));
    QCOMPARE(a.points[0].row, std::size_t(1));  // joined in x order: 0.1, 0.2, 0.4
    QCOMPARE(a.points[2].row, std::size_t(0));
    QCOMPARE(a.points[1].x, std::log10(0.2));
    QVERIFY(std::fabs(a.slope - 2.0) < 1e-12);
    QVERIFY(std::fabs(a.intercept - std::log10(3.0)) < 1e-12);
    QVERIFY(std::isnan(f.series[1].slope));  // one point left: no fit
    QVERIFY(f.xMin < std::log10(0.1) && f.xMax > std::log10(0.4));
  }

  void mapCellsAndHits() {
    const StudyTable t = table(
        "run,a,b,m\n"
        "0,1,10,5\n1,1,20,6\n2,1,40,7\n3,3,10,8\n4,3,20,9\n5,3,40,nan\n");
    FigureRecipe r;
    r.kind = FigureKind::Map;
    r.x = 1;
    r.y = 2;
    r.colour = 3;
    const StudyFigure f = buildFigure(t, r);
    QCOMPARE(f.cells.size(), std::size_t(6));
    QCOMPARE(f.hidden, std::size_t(0));
    QCOMPARE(f.cMin, 5.0);
    QCOMPARE(f.cMax, 9.0);
    // Cell bounds: midpoints between neighbours, the ends mirrored.
    const FigureCell& c = f.cells[4];  // a = 3, b = 20
    QCOMPARE(c.x0, 2.0);
    QCOMPARE(c.x1, 4.0);
    QCOMPARE(c.y0, 15.0);
    QCOMPARE(c.y1, 30.0);
    QVERIFY(std::isnan(f.cells[5].value));  // drawn grey, still a cell
    const FigureGeometry g(f, QSizeF(800, 500), 1.0);
    const QPointF centre = (g.map(c.x0, c.y0) + g.map(c.x1, c.y1)) / 2.0;
    const auto hit = hitFigure(f, g, centre, 8.0);
    QVERIFY(hit);
    QCOMPARE(hit->row, std::size_t(4));
    QVERIFY(!hitFigure(f, g, QPointF(2, 2), 8.0));
  }

  void pointHitsAndCategories() {
    const StudyTable t = table("integrator,h,e\nvariational,0.01,2\nrk4-event,0.01,3\nvariational,0.005,1\n");
    FigureRecipe r;
    r.kind = FigureKind::Scatter;
    r.x = 0;
    r.xCategorical = true;
    r.ys = {2};
    r.groupBy = {1};
    const StudyFigure f = buildFigure(t, r);
    QCOMPARE(f.xCategories, (std::vector<QString>{QStringLiteral("variational"), QStringLiteral("rk4-event")}));
    QCOMPARE(f.series.size(), std::size_t(2));  // h = 0.01, h = 0.005
    QVERIFY(!f.series[0].joined);
    QCOMPARE(f.series[0].points[1].x, 1.0);  // rk4-event
    const FigureGeometry g(f, QSizeF(640, 400), 1.0);
    const auto& p = f.series[1].points[0];
    const auto hit = hitFigure(f, g, g.map(p.x, p.y) + QPointF(3, -2), 8.0);
    QVERIFY(hit);
    QCOMPARE(hit->row, std::size_t(2));
  }

  void logTicks() {
    const auto decades = logAxisTicks(-6.2, -0.8, 400.0, true);
    QVERIFY(decades.size() >= 3);
    for (const AxisTick& t : decades) QCOMPARE(t.value, std::round(t.value));
    QCOMPARE(decades.front().label, QStringLiteral("1e-6"));
    // Less than a decade: linear ticks on the values, placed in log10.
    const auto narrow = logAxisTicks(std::log10(0.6), std::log10(0.9), 400.0, true);
    QVERIFY(narrow.size() >= 2);
    // Each label is its tick's value, written with the decimals of the linear axis's step (all
    // alike: "0.60", "0.65", ...).
    const qsizetype decimals = narrow.front().label.size() - narrow.front().label.indexOf('.');
    for (const AxisTick& t : narrow) {
      bool ok = false;
      QVERIFY(std::fabs(t.label.toDouble(&ok) - std::pow(10.0, t.value)) < 1e-12);
      QVERIFY(ok);
      QCOMPARE(t.label.size() - t.label.indexOf('.'), decimals);
    }
  }

  void countsHaveWholeTicks() {
    // Impacts of 1 or 2 over a tall plot: ticks at 1 and 2 only, not at 1.1, 1.2, ...
    const StudyTable t = table("y0,impacts,e\n3.4,1,0.5\n3.6,1,0.25\n4.1,2,0.125\n");
    FigureRecipe r;
    r.kind = FigureKind::Scatter;
    r.x = 0;
    r.ys = {1};
    const StudyFigure counts = buildFigure(t, r);
    QVERIFY(counts.yWhole);
    const FigureGeometry g(counts, QSizeF(900, 600), 1.0);
    QCOMPARE(g.yTicks().size(), std::size_t(2));
    QCOMPARE(g.yTicks()[0].label, QStringLiteral("1"));
    QCOMPARE(g.yTicks()[1].value, 2.0);
    r.ys = {2};  // not whole: the linear rule's ticks
    const StudyFigure energies = buildFigure(t, r);
    QVERIFY(!energies.yWhole);
    QVERIFY(FigureGeometry(energies, QSizeF(900, 600), 1.0).yTicks().size() > 4);
  }

  void encodings() {
    const StudyTable t = table("x,y\n1,1\n2,4\n3,9\n");
    FigureRecipe r;
    r.x = 0;
    r.ys = {1};
    r.title = QStringLiteral("squares");
    r.yTitle = QStringLiteral("x squared");
    const StudyFigure f = buildFigure(t, r);
    const QImage png = QImage::fromData(studyFigurePng(f, QSize(900, 600)), "PNG");
    QCOMPARE(png.size(), QSize(900, 600));
    QVERIFY(guitest::greyVariance(png) > 20.0);
    const QByteArray svg = studyFigureSvg(f, QSize(700, 450), QStringLiteral("squares"));
    QVERIFY(svg.contains("<svg"));
    QVERIFY(svg.contains("x squared"));
    QVERIFY(svg.contains("<title>squares</title>"));
  }
};

int main(int argc, char** argv) {
  return guitest::runSuite<TestGuiStudyFigure>(argc, argv, "test_gui_study_figure");
}

#include "test_gui_study_figure.moc"
