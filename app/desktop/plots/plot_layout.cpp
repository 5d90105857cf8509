#include "app/desktop/plots/plot_layout.hpp"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace ricochet::app {

namespace ps = plotstyle;

QFont plotFont(double px) {
  QFont f(QString::fromLatin1(ps::kFontFamily));
  f.setPixelSize(std::max(1, int(std::lround(px))));
  return f;
}

double plotFontPx(double base, double scale) { return std::max(1.0, double(std::lround(base * scale))); }

namespace {

double textWidth(const QString& text, double px) {
  return QFontMetricsF(plotFont(px)).horizontalAdvance(text);
}

// The legend entries of a chart: the drawn series that are listed.
std::vector<const PlotSeries*> legendSeries(const PlotChart& chart) {
  std::vector<const PlotSeries*> out;
  if (!chart.legend) return out;
  for (const PlotSeries& s : chart.series) {
    if (s.drawn() && s.inLegend && !s.legendText().isEmpty()) out.push_back(&s);
  }
  return out;
}

}  // namespace

FigureLayout layOutFigure(const PlotFigure& f, QSizeF size, double scale) {
  FigureLayout l;
  l.page = size;
  l.scale = scale;
  l.labelPx = plotFontPx(ps::kLabelFont, scale);
  l.titlePx = plotFontPx(ps::kTitleFont, scale);
  l.legendPx = plotFontPx(ps::kLegendFont, scale);
  l.tick = std::round(ps::kTickLength * scale);
  const std::size_t n = f.charts.size();
  if (n == 0) return l;
  const double margin = std::round(ps::kAxisMargin * scale);
  const double right = size.width() - std::round(ps::kHiddenBorder * scale);
  const double labelH = std::ceil(1.25 * l.labelPx);
  const double titleH = std::ceil(1.3 * l.titlePx);
  const double rowH = std::ceil(1.45 * l.legendPx);
  const double pad = std::round(ps::kLegendPadding * scale);
  const double sym = std::round(ps::kLegendSymbolWidth * scale);

  // Which charts label their horizontal axis: phase portraits and impact maps always, a time
  // chart when no time chart follows it.
  std::vector<bool> xLabels(n, false);
  bool timeBelow = false;
  for (std::size_t i = n; i-- > 0;) {
    const bool time = f.charts[i].timeAxis();
    xLabels[i] = !time || !timeBelow;
    timeBelow = timeBelow || time;
  }

  // First pass: bands and vertical extents (the legend rows need the plot areas' width, which
  // needs the labels' width, which needs the areas' height: the legend is laid out for a first
  // guess of the width and the rows are fixed then).
  const double band = size.height() / double(n);
  double left = margin;
  l.charts.resize(n);
  const double guessLeft = margin + l.titlePx * 1.4 + textWidth(QStringLiteral("-0.000000"), l.labelPx) + l.tick;
  for (std::size_t i = 0; i < n; ++i) {
    const PlotChart& chart = f.charts[i];
    ChartLayout& c = l.charts[i];
    c.band = QRectF(0.0, band * double(i), size.width(), band);
    c.xLabels = xLabels[i];
    c.xTitle = chart.timeAxis() ? f.timeTitle : chart.xTitle;
    // Legend rows above the area.
    const std::vector<const PlotSeries*> entries = legendSeries(chart);
    double rows = 0.0;
    {
      double x = guessLeft;
      for (const PlotSeries* s : entries) {
        const double w = sym + pad + textWidth(s->legendText(), l.legendPx) + 2.0 * pad;
        if (x > guessLeft && x + w > right) {
          x = guessLeft;
          rows += 1.0;
        }
        if (rows == 0.0) rows = 1.0;
        x += w;
      }
    }
    const double top = c.band.top() + (rows > 0.0 ? rows * rowH + pad : 0.0) + std::ceil(0.6 * l.labelPx);
    const double bottom = c.band.bottom() -
                          (c.xLabels ? l.tick + labelH + (c.xTitle.isEmpty() ? 0.0 : titleH) + 0.5 * margin
                                     : std::ceil(0.6 * l.labelPx) + margin);
    c.area = QRectF(0.0, std::round(top), 0.0, std::max(1.0, std::round(bottom) - std::round(top)));
    int exponent = 0;
    c.yTicks = axisTicks(chart.yMin, chart.yMax, c.area.height() / scale, true, &exponent);
    c.yTitle = chart.yTitle + exponentSuffix(exponent);
    double widest = 0.0;
    for (const AxisTick& t : c.yTicks) widest = std::max(widest, textWidth(t.label, l.labelPx));
    const double title = c.yTitle.isEmpty() ? 0.0 : titleH;
    left = std::max(left, margin + title + widest + 0.4 * l.labelPx + l.tick);
  }
  left = std::round(left);

  // Second pass: the shared horizontal extent, the horizontal ticks and the legends.
  for (std::size_t i = 0; i < n; ++i) {
    const PlotChart& chart = f.charts[i];
    ChartLayout& c = l.charts[i];
    c.area.setLeft(left);
    c.area.setRight(std::max(left + 1.0, std::round(right)));
    c.xTicks = axisTicks(chart.tMin, chart.tMax, c.area.width() / scale, false);
    const std::vector<const PlotSeries*> entries = legendSeries(chart);
    if (entries.empty()) continue;
    double x = left, y = c.band.top() + 0.5 * pad;
    double widest = 0.0;
    for (const PlotSeries* s : entries) {
      const double w = sym + pad + textWidth(s->legendText(), l.legendPx) + 2.0 * pad;
      if (x > left && x + w > c.area.right()) {
        x = left;
        y += rowH;
      }
      LegendEntry e;
      e.text = s->legendText();
      e.pen = s->pen;
      e.dots = s->dots;
      e.symbol = QPointF(x, y + 0.5 * rowH);
      e.text0 = QPointF(x + sym + pad, y + 0.5 * rowH + 0.35 * l.legendPx);
      c.legend.push_back(e);
      x += w;
      widest = std::max(widest, x);
    }
    // Never into the plot area, whatever the fonts did.
    const double bottom = std::min(y + rowH, c.area.top() - 1.0);
    c.legendRect = QRectF(QPointF(left, c.band.top()), QPointF(std::min(widest, c.area.right()), bottom));
  }
  return l;
}

double pageX(const PlotChart& chart, const ChartLayout& c, double t) {
  return c.area.left() + (t - chart.tMin) / (chart.tMax - chart.tMin) * c.area.width();
}

double pageY(const PlotChart& chart, const ChartLayout& c, double v) {
  return c.area.bottom() - (v - chart.yMin) / (chart.yMax - chart.yMin) * c.area.height();
}

}  // namespace ricochet::app
