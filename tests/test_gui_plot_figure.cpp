// The plot data and its SVG drawing, without a window: the tick positions are vtkAxis's 1-2-5
// rule (compared with vtkAxis itself over many ranges and lengths), tick labels carry the decimals
// their step needs (neighbours always differ), value ranges have a minimum span relative to the
// values, and plotSvg() draws a figure's series, ticks, labels and legend where the data put
// them: every tick label and grid line sits at its value on the same affine map as the series,
// stacked charts share their time axis, and legends sit above the plot areas.
//
// Needs a QGuiApplication for font metrics (no window is shown).

#include "app/desktop/plots/plot_figure.hpp"
#include "app/desktop/plots/plot_svg.hpp"

#include <QApplication>
#include <QXmlStreamReader>
#include <QtTest>

#include <vtkAxis.h>
#include <vtkContextScene.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkStringArray.h>

#include <cmath>
#include <random>

using ricochet::app::AxisTick;
using ricochet::app::PlotChart;
using ricochet::app::PlotFigure;
using ricochet::app::PlotSeries;
namespace ps = ricochet::app::plotstyle;

namespace {

// The ticks vtkAxis shows (those inside its range) for [lo, hi] over `pixels`.
std::vector<AxisTick> vtkTicks(double lo, double hi, double pixels, bool vertical) {
  vtkNew<vtkContextScene> scene;
  vtkNew<vtkAxis> axis;
  scene->AddItem(axis);
  axis->SetPosition(vertical ? vtkAxis::LEFT : vtkAxis::BOTTOM);
  axis->SetBehavior(vtkAxis::FIXED);
  if (vertical) {
    axis->SetPoint1(90.0f, 40.0f);
    axis->SetPoint2(90.0f, float(40.0 + pixels));
  } else {
    axis->SetPoint1(90.0f, 40.0f);
    axis->SetPoint2(float(90.0 + pixels), 40.0f);
  }
  axis->SetRange(lo, hi);
  axis->Update();
  std::vector<AxisTick> out;
  vtkDoubleArray* at = axis->GetTickPositions();
  vtkStringArray* labels = axis->GetTickLabels();
  for (vtkIdType i = 0; i < at->GetNumberOfTuples(); ++i) {
    const double v = at->GetValue(i);
    if (v < lo || v > hi) continue;  // vtkAxis draws only these
    out.push_back({v, QString::fromStdString(labels->GetValue(i))});
  }
  return out;
}

struct Text {
  double x = 0, y = 0;
  QString anchor, content;
};
struct Line {
  double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
  QString stroke;
};
struct Svg {
  QString error;
  QList<Text> texts;
  QList<Line> lines;
  QMap<QString, QList<QPointF>> series;  // polyline points by data-series
  QStringList paths;                     // data-series of <path> elements
  QList<QRectF> clips;
};

Svg parse(const QByteArray& bytes) {
  Svg s;
  QXmlStreamReader xml(bytes);
  QStringList anchors{QString()}, strokes{QString()};
  while (!xml.atEnd()) {
    const auto token = xml.readNext();
    if (token == QXmlStreamReader::EndElement) {
      if (xml.name() == u"g") {
        anchors.removeLast();
        strokes.removeLast();
      }
      continue;
    }
    if (token != QXmlStreamReader::StartElement) continue;
    const QXmlStreamAttributes a = xml.attributes();
    auto num = [&a](const char* name) { return a.value(QString::fromLatin1(name)).toDouble(); };
    if (xml.name() == u"g") {
      anchors << (a.hasAttribute(QStringLiteral("text-anchor")) ? a.value(QStringLiteral("text-anchor")).toString() : anchors.last());
      strokes << (a.hasAttribute(QStringLiteral("stroke")) ? a.value(QStringLiteral("stroke")).toString() : strokes.last());
    } else if (xml.name() == u"text") {
      const QString anchor = a.hasAttribute(QStringLiteral("text-anchor")) ? a.value(QStringLiteral("text-anchor")).toString() : anchors.last();
      s.texts << Text{num("x"), num("y"), anchor, xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed()};
    } else if (xml.name() == u"line") {
      const QString stroke = a.hasAttribute(QStringLiteral("stroke")) ? a.value(QStringLiteral("stroke")).toString() : strokes.last();
      s.lines << Line{num("x1"), num("y1"), num("x2"), num("y2"), stroke};
    } else if (xml.name() == u"polyline") {
      QList<QPointF>& pts = s.series[a.value(QStringLiteral("data-series")).toString()];
      for (const QString& pair : a.value(QStringLiteral("points")).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QStringList xy = pair.split(QLatin1Char(','));
        pts << QPointF(xy.value(0).toDouble(), xy.value(1).toDouble());
      }
    } else if (xml.name() == u"path") {
      s.paths << a.value(QStringLiteral("data-series")).toString();
    } else if (xml.name() == u"rect" && a.hasAttribute(QStringLiteral("width")) && !a.hasAttribute(QStringLiteral("fill"))) {
      s.clips << QRectF(num("x"), num("y"), num("width"), num("height"));  // clip paths' rects
    }
  }
  if (xml.hasError()) s.error = xml.errorString();
  return s;
}

// A chart whose "frame" series runs from (tMin, yMin) to (tMax, yMax), so its first and last
// points give the page's map of each axis.
PlotChart chart(const QString& title, double t0, double t1, double y0, double y1, bool legend) {
  PlotChart c;
  c.yTitle = title;
  c.tMin = t0;
  c.tMax = t1;
  c.yMin = y0;
  c.yMax = y1;
  c.legend = legend;
  PlotSeries impacts{QStringLiteral("impacts"), ps::kImpactPen, {0.25 * t1, 0.25 * t1}, {y0, y1}, true, true};
  PlotSeries frame{QStringLiteral("frame"), {{0x22, 0x22, 0x22, 255}, 2.0, false}, {}, {}, false, true};
  PlotSeries wave{QStringLiteral("e.wave"), {{0x00, 0x72, 0xB2, 255}, 1.5, true}, {}, {}, false, true};
  for (int i = 0; i <= 200; ++i) {
    const double t = t0 + (t1 - t0) * i / 200.0;
    frame.t.push_back(t);
    frame.y.push_back(y0 + (y1 - y0) * i / 200.0);
    wave.t.push_back(t);
    wave.y.push_back(0.5 * (y0 + y1) + 0.3 * (y1 - y0) * std::sin(10 * t));
  }
  c.series = {impacts, frame, wave};
  return c;
}

}  // namespace

class TestPlotFigure : public QObject {
  Q_OBJECT
 private slots:
  // The tick positions are vtkAxis's rule: over magnitudes from 1e-13 to 1e7, offset and
  // reversed-sign ranges, short and long axes, both orientations, axisTicks() places the ticks
  // vtkAxis places, and labels them with the digits their step needs.
  void ticksAreThoseOfThePanelsCharts() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    int compared = 0, nonEmpty = 0;
    for (int k = 0; k < 3000; ++k) {
      const double scale = std::pow(10.0, -13.0 + 20.0 * u(rng));
      double lo = (u(rng) - 0.5) * 4.0 * scale;
      double hi = lo + scale * (0.01 + 3.0 * u(rng));
      if (k % 7 == 0) lo = -hi;  // symmetric about 0: a tick at exactly 0
      if (k % 11 == 0) {         // far from 0: a narrow range of large values
        lo += 1e3 * scale;
        hi += 1e3 * scale;
      }
      const double pixels = std::floor(10.0 + 1500.0 * u(rng) * u(rng));
      const bool vertical = k % 2 == 0;
      const std::vector<AxisTick> ours = ricochet::app::axisTicks(lo, hi, pixels, vertical);
      const std::vector<AxisTick> theirs = vtkTicks(lo, hi, pixels, vertical);
      const QString where = QStringLiteral("[%1, %2] over %3 px, %4").arg(lo, 0, 'g', 17).arg(hi, 0, 'g', 17)
                                .arg(pixels).arg(vertical ? "vertical" : "horizontal");
      QVERIFY2(ours.size() == theirs.size(), qPrintable(where));
      for (std::size_t i = 0; i < ours.size(); ++i) {
        QVERIFY2(ours[i].value == theirs[i].value, qPrintable(where));
        // Labels: each reads back as its value (to a tenth of the step), and they all differ.
        if (i > 0) {
          const double step = ours[i].value - ours[i - 1].value;
          QVERIFY2(ours[i].label != ours[i - 1].label, qPrintable(where + QStringLiteral(": ") + ours[i].label));
          QVERIFY2(std::fabs(ours[i].label.toDouble() - ours[i].value) <= 0.1 * step,
                   qPrintable(where + QStringLiteral(": ") + ours[i].label));
        }
      }
      ++compared;
      nonEmpty += ours.empty() ? 0 : 1;
    }
    QCOMPARE(compared, 3000);
    QVERIFY(nonEmpty > 2500);
    // The panel's own case: 1.1 units over 200 px, vertical.
    const std::vector<AxisTick> t = ricochet::app::axisTicks(-0.05, 1.05, 200, true);
    QStringList labels;
    for (const AxisTick& a : t) labels << a.label;
    QCOMPARE(labels, (QStringList{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
    QVERIFY(ricochet::app::axisTicks(0.0, 1.0, 20, true).empty());  // under 30 px: no tick
    QVERIFY(ricochet::app::axisTicks(1.0, 1.0, 500, false).empty());
  }

  void labelsHaveTheDigitsTheStepNeeds() {
    using ricochet::app::tickLabel;
    QCOMPARE(tickLabel(0.0, 0.2), QStringLiteral("0.0"));
    QCOMPARE(tickLabel(0.2, 0.2), QStringLiteral("0.2"));
    QCOMPARE(tickLabel(-0.0, 0.5), QStringLiteral("0.0"));  // never "-0.0"
    QCOMPARE(tickLabel(-1e-17, 1.0), QStringLiteral("0"));
    QCOMPARE(tickLabel(4.000001, 1e-6), QStringLiteral("4.000001"));
    QCOMPARE(tickLabel(4.0, 1e-6), QStringLiteral("4.000000"));
    QCOMPARE(tickLabel(123456, 2e4), QStringLiteral("123456"));
    QCOMPARE(tickLabel(2.5e12, 5e11), QStringLiteral("2.5e+12"));
    // Round-off of a conserved 4 kg m/s (cube-plane, m = 2): the minimum span makes it flat, and
    // the labels of that span all differ.
    const ricochet::app::ValueRange r = ricochet::app::valueRange(4.0 - 1.7e-13, 4.0 + 1.7e-13);
    QVERIFY(r.hi - r.lo >= ricochet::app::kMinRelativeSpan * 4.0);
    int exponent = 1;
    const std::vector<AxisTick> t = ricochet::app::axisTicks(r.lo, r.hi, 200, true, &exponent);
    QCOMPARE(exponent, 0);
    QVERIFY(t.size() >= 3);
    for (std::size_t i = 1; i < t.size(); ++i) QVERIFY(t[i].label != t[i - 1].label);
    // Tiny values (a deviation at round-off) are written in units of a power of ten.
    const std::vector<AxisTick> d = ricochet::app::axisTicks(-3.05e-13, 3.05e-13, 240, true, &exponent);
    QCOMPARE(exponent, -13);
    QStringList labels;
    for (const AxisTick& a : d) labels << a.label;
    QCOMPARE(labels, (QStringList{"-3", "-2", "-1", "0", "1", "2", "3"}));
    QCOMPARE(ricochet::app::exponentSuffix(-13), QStringLiteral(" (\u00d71e-13)"));
    // An axis too short for more than the tick 0 still takes its scale from the interval.
    const std::vector<AxisTick> one =
        ricochet::app::axisTicks(-2.2e-16, 2.2e-16, 40, true, &exponent);
    QCOMPARE(one.size(), std::size_t(1));
    QCOMPARE(one.front().label, QStringLiteral("0"));
    QCOMPARE(exponent, -16);
    // No data, all zero, a log axis.
    QCOMPARE(ricochet::app::valueRange(1.0, 0.0).lo, -1.0);
    QVERIFY(ricochet::app::valueRange(0.0, 0.0).hi > 0.0);
    QVERIFY(ricochet::app::valueRange(-12.0, -12.0, true).hi - ricochet::app::valueRange(-12.0, -12.0, true).lo >= 0.5);
  }

  // Two stacked charts at 1600 x 1000 (scale 2): curves, ticks and labels all on one map per
  // axis, ticks at a 1-2-5 step at least 30 (values) or 45 (time) px apart at screen scale.
  void svgDrawsTheFigureWhereTheDataPutIt() {
    PlotFigure f;
    f.timeTitle = QString::fromLatin1(ps::kTimeTitle);
    f.charts = {chart(QStringLiteral("energy [J]"), 0.0, 2.5, -1.0, 11.0, true),
                chart(QStringLiteral("momenta"), 0.0, 2.5, 2.0000005, 2.0000035, false)};
    const double scale = 2.0;
    QCOMPARE(ricochet::app::plotExportScale(QSize(1600, 1000)), scale);
    const Svg s = parse(ricochet::app::plotSvg(f, QSize(1600, 1000), QStringLiteral("figure")));
    QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
    QCOMPARE(s.clips.size(), 2);
    // One plot-area width: the time axes line up.
    QCOMPARE(s.clips[0].left(), s.clips[1].left());
    QCOMPARE(s.clips[0].width(), s.clips[1].width());
    QVERIFY(s.clips[0].bottom() < s.clips[1].top());  // stacked, top to bottom
    QCOMPARE(s.clips[0].right(), 1600.0 - std::round(ps::kHiddenBorder * 2.0));

    const double fs = std::lround(ps::kLabelFont * scale);
    // 1, 2 or 5 x 10^k, to `tol` relative (positions in the file are rounded to 0.01 px).
    const auto isNiceStep = [](double step, double tol) {
      const double m = step / std::pow(10.0, std::floor(std::log10(step) + tol));
      return std::fabs(m - 1) < 5 * tol || std::fabs(m - 2) < 5 * tol || std::fabs(m - 5) < 5 * tol;
    };
    QList<QList<double>> timeGrids;
    for (int c = 0; c < 2; ++c) {
      const PlotChart& chart = f.charts[std::size_t(c)];
      const QRectF area = s.clips[c];
      // The frame series spans the plot area corner to corner: the maps of both axes.
      const QList<QPointF> frame = s.series.value(QStringLiteral("frame")).mid(c * 201, 201);  // both charts'
      QCOMPARE(frame.size(), 201);
      QCOMPARE(frame.front(), QPointF(area.left(), area.bottom()));
      QCOMPARE(frame.back(), QPointF(area.right(), area.top()));
      auto Y = [&](double v) { return area.bottom() - (v - chart.yMin) / (chart.yMax - chart.yMin) * area.height(); };
      auto T = [&](double x) { return chart.tMin + (x - area.left()) / area.width() * (chart.tMax - chart.tMin); };

      // Value ticks: a label and a grid line at each, on the curves' map.
      QStringList gridYs;
      QList<double> gridXs;
      for (const Line& l : s.lines) {
        if (l.stroke != QStringLiteral("#e1e1e1")) continue;
        if (l.y1 == l.y2 && l.y1 >= area.top() - 0.01 && l.y1 <= area.bottom() + 0.01) gridYs << QString::number(l.y1, 'f', 2);
        if (l.x1 == l.x2 && std::fabs(l.y1 - area.bottom()) < 0.01) gridXs << l.x1;
      }
      QList<double> values;
      for (const Text& t : s.texts) {
        if (t.anchor != QStringLiteral("end") || t.y < area.top() || t.y > area.bottom() + fs) continue;
        bool ok = false;
        const double v = t.content.toDouble(&ok);
        QVERIFY2(ok, qPrintable(t.content));
        QVERIFY2(std::fabs(t.y - (Y(v) + 0.35 * fs)) < 0.02, qPrintable(t.content));
        QVERIFY2(gridYs.contains(QString::number(Y(v), 'f', 2)), qPrintable(t.content));
        values << v;
      }
      QCOMPARE(values.size(), gridYs.size());
      QVERIFY(values.size() >= 3);
      const double step = values[1] - values[0];
      QVERIFY2(isNiceStep(step, 1e-9), qPrintable(QString::number(step)));
      for (int i = 1; i < values.size(); ++i) QVERIFY(std::fabs(values[i] - values[i - 1] - step) < 1e-9 * step);
      QVERIFY(values.front() - step < chart.yMin && values.back() + step > chart.yMax);  // all of them
      QVERIFY(step / (chart.yMax - chart.yMin) * area.height() / scale >= 30.0);

      // Time ticks: grid lines at multiples of one nice step, >= 45 px apart at screen scale.
      QVERIFY(gridXs.size() >= 5);
      const double tStep = T(gridXs[1]) - T(gridXs[0]);
      QVERIFY2(isNiceStep(tStep, 1e-3), qPrintable(QString::number(tStep)));
      for (double x : gridXs) QVERIFY(std::fabs(T(x) / tStep - std::round(T(x) / tStep)) < 1e-3);
      QVERIFY(tStep / (chart.tMax - chart.tMin) * area.width() / scale >= 45.0);
      timeGrids << gridXs;
    }
    QCOMPARE(timeGrids[0], timeGrids[1]);  // stacked charts share the time ticks

    // The lowest chart labels the time axis: each label below its grid line.
    const QRectF low = s.clips[1];
    QList<double> labelXs;
    for (const Text& t : s.texts) {
      if (t.anchor != QStringLiteral("middle") || t.y <= low.bottom() || t.content == QStringLiteral("t [s]")) continue;
      const double v = t.content.toDouble();
      QVERIFY2(std::fabs(t.x - (low.left() + v / 2.5 * low.width())) < 0.02, qPrintable(t.content));
      labelXs << t.x;
    }
    QCOMPARE(labelXs, timeGrids[1]);

    QStringList texts;
    for (const Text& t : s.texts) texts << t.content;
    QVERIFY(texts.contains(QStringLiteral("t [s]")));
    QVERIFY(texts.contains(QStringLiteral("energy [J]")));
    QVERIFY(texts.contains(QStringLiteral("momenta")));
    QCOMPARE(texts.count(QStringLiteral("e.wave")), 1);  // the legend of the first chart only
    QCOMPARE(texts.count(QStringLiteral("impacts")), 1);
    QCOMPARE(s.paths.count(QStringLiteral("impacts")), 2);  // the impact line of each chart
  }
};

QTEST_MAIN(TestPlotFigure)

#include "test_gui_plot_figure.moc"
