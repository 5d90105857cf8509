#include "app/desktop/study/study_painter.hpp"

#include <QBuffer>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace ricochet::app {

namespace {

QColor qcolor(const PlotRgba& c) { return QColor(c.r, c.g, c.b, c.a); }

QPen qpen(const PlotPen& p, double scale) {
  QPen pen(qcolor(p.colour), p.width * scale);
  if (p.dashed) pen.setStyle(Qt::DashLine);
  return pen;
}

const QColor kTextColour(0x22, 0x22, 0x22);
const QColor kNoteColour(0x5f, 0x63, 0x68);
const QColor kFrameColour(0xc8, 0xc8, 0xc8);
constexpr double kTitleSize = 14.0;  ///< the figure's title, px at scale 1

double markerRadius(const StudyFigure& f, double scale) {
  return (f.pointCount() > 2000 ? 1.8 : 3.4) * scale;
}

QString slopeText(double slope) { return QObject::tr("slope %1").arg(slope, 0, 'f', 2); }

/// Which ticks of a categorical axis fit: every k-th, so labels do not overlap.
std::vector<AxisTick> categoryTicks(const StudyFigure& f, double pixels, const QFontMetricsF& fm) {
  std::vector<AxisTick> ticks;
  double widest = 1.0;
  for (const QString& c : f.xCategories) widest = std::max(widest, fm.horizontalAdvance(c));
  const std::size_t n = f.xCategories.size();
  const std::size_t every = n == 0 ? 1 : std::max<std::size_t>(1, std::size_t(std::ceil((widest + 12.0) * double(n) / std::max(pixels, 1.0))));
  for (std::size_t i = 0; i < n; i += every) ticks.push_back({double(i), f.xCategories[i]});
  return ticks;
}

std::vector<AxisTick> ticksFor(double lo, double hi, double pixels, bool vertical, bool log) {
  return log ? logAxisTicks(lo, hi, pixels, vertical) : axisTicks(lo, hi, pixels, vertical);
}

/// The whole numbers among `ticks` (a count has no tick at 1.5); the ticks of a step of 0.1, 0.2
/// or 0.5 keep every whole number of their range.
std::vector<AxisTick> wholeTicks(const std::vector<AxisTick>& ticks) {
  std::vector<AxisTick> whole;
  for (const AxisTick& t : ticks) {
    const double n = std::round(t.value);
    if (std::fabs(t.value - n) <= 1e-9 * std::max(1.0, std::fabs(n))) whole.push_back({n, tickLabel(n)});
  }
  return whole;
}

double widest(const std::vector<AxisTick>& ticks, const QFontMetricsF& fm) {
  double w = 0.0;
  for (const AxisTick& t : ticks) w = std::max(w, fm.horizontalAdvance(t.label));
  return w;
}

/// The legend: every series with points (and its fit); none for a lone series without a fit,
/// which the axis title names already, nor for colour scales.
std::vector<FigureGeometry::LegendItem> legendItems(const StudyFigure& f) {
  std::vector<FigureGeometry::LegendItem> items;
  if (f.colourSeries || f.kind == FigureKind::Map) return items;
  for (const FigureSeries& s : f.series) {
    if (s.points.empty()) continue;
    items.push_back({s.name, s.colour, s.joined, false, {}});
    if (std::isfinite(s.slope)) items.push_back({QObject::tr("fit: %1").arg(slopeText(s.slope)), s.colour, true, true, {}});
  }
  if (items.size() == 1) items.clear();
  return items;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

FigureGeometry::FigureGeometry(const StudyFigure& figure, QSizeF size, double scale)
    : figure_(figure), size_(size), scale_(scale) {
  const double s = scale;
  const double margin = 12.0 * s;
  const QFontMetricsF label(font(plotstyle::kLabelFont)), title(font(plotstyle::kTitleFont));
  double top = margin;
  titleTop_ = top;
  if (!figure.title.isEmpty()) top += QFontMetricsF(font(kTitleSize, true)).height() + 2.0 * s;
  if (!figure.subtitle.isEmpty()) top += QFontMetricsF(font(plotstyle::kLegendFont)).height() + 2.0 * s;
  legend_ = legendItems(figure);
  if (!legend_.empty()) {  // rows of entries, centred, wrapping at the page width
    top += 4.0 * s;
    const QFontMetricsF fm(font(plotstyle::kLegendFont));
    const double symbol = plotstyle::kLegendSymbolWidth * s, gap = 16.0 * s, line = fm.height() + 3.0 * s;
    const double width = size.width() - 2.0 * margin;
    std::size_t first = 0;
    while (first < legend_.size()) {
      double used = 0.0;
      std::size_t last = first;
      while (last < legend_.size()) {
        const double w = symbol + 5.0 * s + fm.horizontalAdvance(legend_[last].text);
        if (last > first && used + gap + w > width) break;
        used += (last > first ? gap : 0.0) + w;
        legend_[last].rect = QRectF(used - w, top, w, fm.height());
        ++last;
      }
      const double shift = margin + (width - used) / 2.0;
      for (std::size_t i = first; i < last; ++i) legend_[i].rect.translate(shift, 0.0);
      first = last;
      top += line;
    }
  }
  top += 10.0 * s;
  const double tick = plotstyle::kTickLength;
  const double bottom = size.height() - margin - (figure.xTitle.isEmpty() ? 0.0 : title.height() + 4.0 * s) -
                        label.height() - tick - 3.0 * s;
  const double height = std::max(10.0, bottom - top);
  yTicks_ = ticksFor(figure.yMin, figure.yMax, height / s, true, figure.logY);
  if (figure.yWhole) yTicks_ = wholeTicks(yTicks_);
  const double left = margin + (figure.yTitle.isEmpty() ? 0.0 : title.height() + 6.0 * s) + widest(yTicks_, label) +
                      4.0 * s + tick;
  double right = size.width() - margin;
  if (figure.hasColourScale()) {
    cTicks_ = ticksFor(figure.cMin, figure.cMax, height / s, true, figure.logColour);
    const double barWidth = 14.0 * s;
    right -= (figure.colourTitle.isEmpty() ? 0.0 : title.height() + 6.0 * s) + widest(cTicks_, label) + 4.0 * s +
             tick + barWidth;
    bar_ = QRectF(right, top, barWidth, height);
    right -= 18.0 * s;
  }
  plot_ = QRectF(left, top, std::max(10.0, right - left), height);
  xTicks_ = figure.xCategories.empty() ? ticksFor(figure.xMin, figure.xMax, plot_.width() / s, false, figure.logX)
                                       : categoryTicks(figure, plot_.width(), label);
}

QFont FigureGeometry::font(double pixelSize, bool bold) const {
  QFont f = QGuiApplication::font();
  f.setPixelSize(std::max(1, int(std::lround(pixelSize * scale_))));
  f.setBold(bold);
  return f;
}

QPointF FigureGeometry::map(double x, double y) const {
  const double u = (x - figure_.xMin) / (figure_.xMax - figure_.xMin);
  const double v = (y - figure_.yMin) / (figure_.yMax - figure_.yMin);
  return {plot_.left() + u * plot_.width(), plot_.bottom() - v * plot_.height()};
}

// ---------------------------------------------------------------------------------------------

void paintFigure(QPainter& p, const StudyFigure& f, const FigureGeometry& g, std::optional<std::size_t> highlight) {
  const double s = g.scale();
  const QRectF plot = g.plotArea();
  const double tick = plotstyle::kTickLength;
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  p.setRenderHint(QPainter::TextAntialiasing);
  p.fillRect(QRectF(QPointF(0, 0), g.size()), Qt::white);

  // Title and subtitle, centred over the plot area.
  double y = g.titleTop();
  p.setPen(kTextColour);
  if (!f.title.isEmpty()) {
    const QFont font = g.font(kTitleSize, true);
    p.setFont(font);
    const double h = QFontMetricsF(font).height();
    p.drawText(QRectF(plot.left(), y, plot.width(), h), Qt::AlignCenter, f.title);
    y += h + 2.0 * s;
  }
  if (!f.subtitle.isEmpty()) {
    const QFont font = g.font(plotstyle::kLegendFont);
    p.setFont(font);
    p.setPen(kNoteColour);
    const double h = QFontMetricsF(font).height();
    p.drawText(QRectF(plot.left(), y, plot.width(), h), Qt::AlignCenter, f.subtitle);
  }

  // Grid.
  p.setPen(qpen(plotstyle::kGridPen, 1.0));
  for (const AxisTick& t : g.xTicks()) {
    const double x = g.map(t.value, f.yMin).x();
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  }
  for (const AxisTick& t : g.yTicks()) {
    const double yy = g.map(f.xMin, t.value).y();
    p.drawLine(QPointF(plot.left(), yy), QPointF(plot.right(), yy));
  }

  const double range = f.cMax - f.cMin;
  const auto colourOf = [&](double v) { return qcolor(colourScale(range > 0 ? (v - f.cMin) / range : 0.5)); };
  if (f.pointCount() == 0) {
    p.setFont(g.font(plotstyle::kTitleFont));
    p.setPen(kNoteColour);
    p.drawText(plot, Qt::AlignCenter, QObject::tr("No results to plot yet"));
  }

  // Data, clipped to the plot area.
  p.save();
  p.setClipRect(plot);
  for (const FigureCell& c : f.cells) {
    const QRectF r = QRectF(g.map(c.x0, c.y1), g.map(c.x1, c.y0)).normalized();
    p.fillRect(r, colourOf(c.value));
  }
  if (!f.cells.empty()) {  // thin white seams where cells are large enough to show them
    const QRectF first = QRectF(g.map(f.cells.front().x0, f.cells.front().y1), g.map(f.cells.front().x1, f.cells.front().y0)).normalized();
    if (first.width() > 8.0 * s && first.height() > 8.0 * s) {
      p.setPen(QPen(Qt::white, 1.0 * s));
      p.setBrush(Qt::NoBrush);
      for (const FigureCell& c : f.cells) p.drawRect(QRectF(g.map(c.x0, c.y1), g.map(c.x1, c.y0)).normalized());
    }
  }
  const double radius = markerRadius(f, s);
  for (const FigureSeries& series : f.series) {
    if (series.joined && series.points.size() >= 2) {
      QPainterPath path;
      path.moveTo(g.map(series.points.front().x, series.points.front().y));
      for (std::size_t i = 1; i < series.points.size(); ++i) path.lineTo(g.map(series.points[i].x, series.points[i].y));
      p.setPen(QPen(qcolor(series.colour), 1.6 * s, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
      p.setBrush(Qt::NoBrush);
      p.drawPath(path);
    }
    if (std::isfinite(series.slope)) {
      double lo = series.points.front().x, hi = lo;
      for (const FigurePoint& pt : series.points) {
        lo = std::min(lo, pt.x);
        hi = std::max(hi, pt.x);
      }
      const double pad = 0.04 * (hi - lo);
      lo -= pad;
      hi += pad;
      QColor c = qcolor(series.colour);
      c.setAlpha(170);
      p.setPen(QPen(c, 1.3 * s, Qt::DashLine));
      p.drawLine(g.map(lo, series.intercept + series.slope * lo), g.map(hi, series.intercept + series.slope * hi));
    }
  }
  for (const FigureSeries& series : f.series) {
    for (const FigurePoint& pt : series.points) {
      p.setPen(f.pointCount() > 2000 ? Qt::NoPen : QPen(Qt::white, 1.0 * s));
      p.setBrush(f.colourSeries ? colourOf(pt.value) : qcolor(series.colour));
      p.drawEllipse(g.map(pt.x, pt.y), radius, radius);
    }
  }
  if (highlight) {
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0xb3, 0x26, 0x1e), 2.0 * s));
    for (const FigureCell& c : f.cells) {
      if (c.row == *highlight) p.drawRect(QRectF(g.map(c.x0, c.y1), g.map(c.x1, c.y0)).normalized());
    }
    for (const FigureSeries& series : f.series) {
      for (const FigurePoint& pt : series.points) {
        if (pt.row == *highlight) p.drawEllipse(g.map(pt.x, pt.y), radius + 3.5 * s, radius + 3.5 * s);
      }
    }
  }
  p.restore();

  // Frame: the two axes in black, the other sides light.
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(kFrameColour, 1.0));
  p.drawLine(plot.topLeft(), plot.topRight());
  p.drawLine(plot.topRight(), plot.bottomRight());
  p.setPen(qpen(plotstyle::kAxisPen, 1.0));
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  p.drawLine(plot.topLeft(), plot.bottomLeft());

  // Ticks and their labels.
  const QFont labelFont = g.font(plotstyle::kLabelFont);
  const QFontMetricsF lm(labelFont);
  p.setFont(labelFont);
  for (const AxisTick& t : g.xTicks()) {
    const double x = g.map(t.value, f.yMin).x();
    p.setPen(qpen(plotstyle::kAxisPen, 1.0));
    p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + tick));
    p.setPen(kTextColour);
    const double w = lm.horizontalAdvance(t.label) + 2.0;
    p.drawText(QRectF(x - w / 2, plot.bottom() + tick + 2.0 * s, w, lm.height()), Qt::AlignCenter, t.label);
  }
  for (const AxisTick& t : g.yTicks()) {
    const double yy = g.map(f.xMin, t.value).y();
    p.setPen(qpen(plotstyle::kAxisPen, 1.0));
    p.drawLine(QPointF(plot.left() - tick, yy), QPointF(plot.left(), yy));
    p.setPen(kTextColour);
    const double w = lm.horizontalAdvance(t.label) + 2.0;
    p.drawText(QRectF(plot.left() - tick - 4.0 * s - w, yy - lm.height() / 2, w, lm.height()),
               Qt::AlignRight | Qt::AlignVCenter, t.label);
  }

  // Axis titles.
  const QFont titleFont = g.font(plotstyle::kTitleFont);
  const QFontMetricsF tm(titleFont);
  p.setFont(titleFont);
  p.setPen(kTextColour);
  if (!f.xTitle.isEmpty()) {
    const double top = plot.bottom() + tick + 3.0 * s + lm.height() + 4.0 * s;
    p.drawText(QRectF(plot.left(), top, plot.width(), tm.height()), Qt::AlignCenter, f.xTitle);
  }
  if (!f.yTitle.isEmpty()) {
    p.save();
    p.translate(12.0 * s, plot.center().y());
    p.rotate(-90.0);
    p.drawText(QRectF(-plot.height() / 2, 0, plot.height(), tm.height()), Qt::AlignCenter, f.yTitle);
    p.restore();
  }

  // Colour scale.
  if (f.hasColourScale() && !g.colourBar().isEmpty()) {
    const QRectF bar = g.colourBar();
    const int bands = 96;
    for (int i = 0; i < bands; ++i) {
      const double t0 = double(i) / bands;
      const QRectF band(bar.left(), bar.bottom() - (t0 + 1.0 / bands) * bar.height(), bar.width(),
                        bar.height() / bands + 0.5);
      p.fillRect(band, qcolor(colourScale(t0 + 0.5 / bands)));
    }
    p.setPen(qpen(plotstyle::kAxisPen, 1.0));
    p.drawRect(bar);
    p.setFont(labelFont);
    for (const AxisTick& t : g.colourTicks()) {
      const double yy = bar.bottom() - (t.value - f.cMin) / (f.cMax - f.cMin) * bar.height();
      p.setPen(qpen(plotstyle::kAxisPen, 1.0));
      p.drawLine(QPointF(bar.right(), yy), QPointF(bar.right() + tick, yy));
      p.setPen(kTextColour);
      p.drawText(QRectF(bar.right() + tick + 3.0 * s, yy - lm.height() / 2, lm.horizontalAdvance(t.label) + 2.0,
                        lm.height()),
                 Qt::AlignLeft | Qt::AlignVCenter, t.label);
    }
    if (!f.colourTitle.isEmpty()) {
      p.save();
      p.setFont(titleFont);
      p.translate(g.size().width() - 12.0 * s - tm.height(), bar.center().y());
      p.rotate(-90.0);
      p.drawText(QRectF(-bar.height() / 2, 0, bar.height(), tm.height()), Qt::AlignCenter, f.colourTitle);
      p.restore();
    }
  }

  // Legend row(s) above the plot area.
  if (!g.legend().empty()) {
    const QFont legendFont = g.font(plotstyle::kLegendFont);
    p.setFont(legendFont);
    const double symbol = plotstyle::kLegendSymbolWidth * s;
    for (const FigureGeometry::LegendItem& e : g.legend()) {
      const double mid = e.rect.center().y();
      const double x0 = e.rect.left();
      QColor c = qcolor(e.colour);
      if (e.line) {
        if (e.fit) c.setAlpha(170);
        p.setPen(QPen(c, (e.fit ? 1.3 : 1.6) * s, e.fit ? Qt::DashLine : Qt::SolidLine));
        p.drawLine(QPointF(x0, mid), QPointF(x0 + symbol, mid));
      }
      if (!e.fit) {
        p.setPen(QPen(Qt::white, 1.0 * s));
        p.setBrush(c);
        p.drawEllipse(QPointF(x0 + symbol / 2, mid), radius, radius);
      }
      p.setPen(kTextColour);
      p.drawText(QRectF(x0 + symbol + 5.0 * s, e.rect.top(), e.rect.width() - symbol - 5.0 * s + 2.0, e.rect.height()),
                 Qt::AlignLeft | Qt::AlignVCenter, e.text);
    }
  }

  // What is not shown.
  if (f.hidden > 0) {
    const QFont noteFont = g.font(plotstyle::kLegendFont);
    p.setFont(noteFont);
    p.setPen(kNoteColour);
    const QString text = f.logX || f.logY
                             ? QObject::tr("%1 not shown (not a number, or not > 0 on a log axis)")
                                   .arg(countOf(qint64(f.hidden), QObject::tr("point"), QObject::tr("points")))
                             : QObject::tr("%1 not shown (not a number)")
                                   .arg(countOf(qint64(f.hidden), QObject::tr("point"), QObject::tr("points")));
    const QFontMetricsF nm(noteFont);
    p.drawText(QRectF(plot.left(), plot.top() - nm.height() - 1.0 * s, plot.width(), nm.height()),
               Qt::AlignRight | Qt::AlignBottom, text);
  }
  p.restore();
}

std::optional<FigureHit> hitFigure(const StudyFigure& f, const FigureGeometry& g, QPointF pos, double radius) {
  if (!g.plotArea().adjusted(-radius, -radius, radius, radius).contains(pos)) return std::nullopt;
  for (const FigureCell& c : f.cells) {
    if (QRectF(g.map(c.x0, c.y1), g.map(c.x1, c.y0)).normalized().contains(pos)) return FigureHit{c.row, 0};
  }
  std::optional<FigureHit> best;
  double bestDistance = radius * radius;
  for (const FigureSeries& series : f.series) {
    for (const FigurePoint& pt : series.points) {
      const QPointF d = g.map(pt.x, pt.y) - pos;
      const double d2 = d.x() * d.x() + d.y() * d.y();
      if (d2 <= bestDistance) {
        bestDistance = d2;
        best = FigureHit{pt.row, series.tag};
      }
    }
  }
  return best;
}

QByteArray studyFigurePng(const StudyFigure& figure, QSize size) {
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  {
    QPainter painter(&image);
    paintFigure(painter, figure, FigureGeometry(figure, QSizeF(size), plotExportScale(size)));
  }
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return bytes;
}

QByteArray studyFigureSvg(const StudyFigure& figure, QSize size, const QString& title) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(size);
  svg.setViewBox(QRect(QPoint(0, 0), size));
  svg.setResolution(96);
  svg.setTitle(title);
  svg.setDescription(QStringLiteral("Ricochet study figure"));
  {
    QPainter painter(&svg);
    paintFigure(painter, figure, FigureGeometry(figure, QSizeF(size), plotExportScale(size)));
  }
  return bytes;
}

}  // namespace ricochet::app
