#include "app/desktop/plots/plot_layout.hpp"

#include <QFontMetricsF>
#include <QObject>

#include <algorithm>
#include <cmath>

namespace ricochet::app {

namespace ps = plotstyle;

namespace {
// The most of a chart's band its legend rows take (at least one row).
constexpr double kLegendShare = 0.22;
}  // namespace

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

// A legend laid out in rows from `left` to `right`: the entries with their places, at most
// `maxRows` rows; the entries that do not fit give way to a last "+k more" (the hover read-out
// still names every curve).
struct LegendFit {
  std::vector<LegendEntry> entries;  // symbol and text0 relative to (left, row top)
  int rows = 0;
};

LegendFit fitLegend(const std::vector<const PlotSeries*>& series, double left, double right,
                    int maxRows, double rowH, double legendPx, double sym, double pad) {
  LegendFit out;
  const auto widthOf = [&](const QString& text, bool symbol) {
    return (symbol ? sym + pad : 0.0) + textWidth(text, legendPx) + 2.0 * pad;
  };
  double x = left;
  int row = 0;
  std::size_t placed = 0;
  for (; placed < series.size(); ++placed) {
    const PlotSeries* s = series[placed];
    const double w = widthOf(s->legendText(), true);
    if (x > left && x + w > right) {
      if (row + 1 >= maxRows) break;
      ++row;
      x = left;
    }
    LegendEntry e;
    e.text = s->legendText();
    e.pen = s->pen;
    e.dots = s->dots;
    e.symbol = QPointF(x, (row + 0.5) * rowH);
    e.text0 = QPointF(x + sym + pad, (row + 0.5) * rowH + 0.35 * legendPx);
    out.entries.push_back(e);
    x += w;
  }
  if (placed < series.size()) {
    // "+k more" at the end of the last row, in place of as many of its entries as it needs.
    const auto onLastRow = [&] {
      return !out.entries.empty() && out.entries.back().symbol.y() > row * rowH;
    };
    QString text;
    while (true) {
      text = QObject::tr("+%1 more").arg(series.size() - out.entries.size());
      if (!onLastRow()) x = left;
      if (x + widthOf(text, false) <= right || !onLastRow()) break;
      x = out.entries.back().symbol.x();
      out.entries.pop_back();
    }
    LegendEntry e;
    e.text = text;
    e.hasSymbol = false;
    e.symbol = QPointF(x, (row + 0.5) * rowH);
    e.text0 = QPointF(x + pad, (row + 0.5) * rowH + 0.35 * legendPx);
    out.entries.push_back(e);
  }
  out.rows = series.empty() ? 0 : row + 1;
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
  std::vector<int> legendRows(n, 0);
  const double guessLeft = margin + l.titlePx * 1.4 + textWidth(QStringLiteral("-0.000000"), l.labelPx) + l.tick;
  for (std::size_t i = 0; i < n; ++i) {
    const PlotChart& chart = f.charts[i];
    ChartLayout& c = l.charts[i];
    c.band = QRectF(0.0, band * double(i), size.width(), band);
    c.xLabels = xLabels[i];
    c.xTitle = chart.timeAxis() ? f.timeTitle : chart.xTitle;
    // Legend rows above the area: as many as the entries need, within a share of the band so
    // that five panels (or an overlay's curves) never squeeze the plots into strips.
    const int maxRows = std::max(1, int(std::floor(kLegendShare * band / rowH)));
    const LegendFit fit =
        fitLegend(legendSeries(chart), guessLeft, right, maxRows, rowH, l.legendPx, sym, pad);
    legendRows[i] = fit.rows;
    const double rows = fit.rows;
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
    if (legendRows[i] == 0) continue;
    // The rows fixed in the first pass, at the areas' final left edge.
    const LegendFit fit = fitLegend(legendSeries(chart), left, c.area.right(), legendRows[i], rowH,
                                    l.legendPx, sym, pad);
    const QPointF origin(0.0, c.band.top() + 0.5 * pad);
    double widest = left;
    for (LegendEntry e : fit.entries) {
      e.symbol += origin;
      e.text0 += origin;
      widest = std::max(widest, e.text0.x() + textWidth(e.text, l.legendPx) + 2.0 * pad);
      c.legend.push_back(e);
    }
    // Never into the plot area, whatever the fonts did.
    const double bottom = std::min(origin.y() + fit.rows * rowH, c.area.top() - 1.0);
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
