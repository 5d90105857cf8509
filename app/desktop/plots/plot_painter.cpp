#include "app/desktop/plots/plot_painter.hpp"

#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

#include <algorithm>
#include <cmath>

namespace ricochet::app {

namespace {

namespace ps = plotstyle;

QColor colourOf(PlotRgba c) { return QColor(c.r, c.g, c.b, c.a); }

QPen penOf(const PlotPen& p, double scale) {
  QPen pen(colourOf(p.colour));
  pen.setWidthF(p.width * scale);
  pen.setCapStyle(Qt::FlatCap);
  pen.setJoinStyle(Qt::RoundJoin);
  if (p.dashed) pen.setDashPattern({4.0, 3.0});
  return pen;
}

void paintSeries(QPainter& p, const PlotChart& chart, const ChartLayout& c, const PlotSeries& s,
                 double scale) {
  const std::size_t n = std::min(s.t.size(), s.y.size());
  if (s.dots) {
    p.setPen(Qt::NoPen);
    p.setBrush(colourOf(s.pen.colour));
    const double r = ps::kDotRadius * scale;
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(s.t[i]) || !std::isfinite(s.y[i])) continue;
      p.drawEllipse(QPointF(pageX(chart, c, s.t[i]), pageY(chart, c, s.y[i])), r, r);
    }
    p.setBrush(Qt::NoBrush);
    return;
  }
  QPen pen = penOf(s.pen, scale);
  // Once the points are denser than the pixel columns (a min/max envelope after a long run, two
  // points per column), the curve is drawn 1 px wide (scaled for exports): the envelope reads the
  // same, and QPainter draws thin lines without filling a stroked outline (several times cheaper
  // for a zig-zag over the whole height).
  if (!s.segments && double(n) > 0.8 * c.area.width()) pen.setWidthF(std::max(1.0, std::round(scale)));
  p.setPen(pen);
  if (s.segments) {
    QVector<QLineF> lines;
    lines.reserve(qsizetype(n / 2));
    for (std::size_t i = 0; i + 1 < n; i += 2) {
      if (!std::isfinite(s.t[i] + s.y[i] + s.t[i + 1] + s.y[i + 1])) continue;
      lines.append(QLineF(pageX(chart, c, s.t[i]), pageY(chart, c, s.y[i]),
                          pageX(chart, c, s.t[i + 1]), pageY(chart, c, s.y[i + 1])));
    }
    p.drawLines(lines);
    return;
  }
  // One polyline per run of finite points, drawn in pieces of kPiece points (each sharing its
  // first point with the previous piece's last). After a long run a series is a min/max envelope
  // zig-zagging over the whole height: stroked as one polygon with hundreds of self-crossings,
  // it cost ~200 ms of CPU per frame under QPainter's rasteriser; pieces keep each filled
  // polygon small (a few ms), and joins inside a piece stay round. Far outside points are pulled
  // in (the rasteriser works in fixed point).
  constexpr qsizetype kPiece = 16;
  const double limit = 1e6;
  QPolygonF line;
  line.reserve(qsizetype(n));
  auto flush = [&] {
    for (qsizetype at = 0; at + 1 < line.size(); at += kPiece - 1) {
      p.drawPolyline(line.constData() + at, int(std::min(kPiece, line.size() - at)));
    }
    line.clear();
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(s.t[i]) || !std::isfinite(s.y[i])) {
      flush();
      continue;
    }
    line.append(QPointF(std::clamp(pageX(chart, c, s.t[i]), -limit, limit),
                        std::clamp(pageY(chart, c, s.y[i]), -limit, limit)));
  }
  flush();
}

void paintChart(QPainter& p, const PlotChart& chart, const ChartLayout& c, const FigureLayout& l,
                bool antialias) {
  const QRectF a = c.area;
  const double s = l.scale;
  const bool ranges = chart.tMax > chart.tMin && chart.yMax > chart.yMin;
  p.setRenderHint(QPainter::Antialiasing, false);
  // Grid at the ticks.
  if (ranges) {
    p.setPen(penOf(ps::kGridPen, s));
    for (const AxisTick& t : c.xTicks) {
      const double x = std::round(pageX(chart, c, t.value)) + 0.5;
      p.drawLine(QPointF(x, a.top()), QPointF(x, a.bottom()));
    }
    for (const AxisTick& t : c.yTicks) {
      const double y = std::round(pageY(chart, c, t.value)) + 0.5;
      p.drawLine(QPointF(a.left(), y), QPointF(a.right(), y));
    }
    // The series, in drawing order, clipped to the plot area.
    p.save();
    p.setClipRect(a);
    p.setRenderHint(QPainter::Antialiasing, antialias);
    for (const PlotSeries& ser : chart.series) {
      if (ser.drawn()) paintSeries(p, chart, c, ser, s);
    }
    p.restore();
  }
  // Axes: left and bottom lines, ticks, labels, titles.
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setPen(penOf(ps::kAxisPen, s));
  p.drawLine(QPointF(a.left(), a.top()), QPointF(a.left(), a.bottom()));
  p.drawLine(QPointF(a.left(), a.bottom()), QPointF(a.right(), a.bottom()));
  p.setRenderHint(QPainter::TextAntialiasing, true);
  p.setFont(plotFont(l.labelPx));
  const QFontMetricsF fm(p.font());
  if (ranges) {
    for (const AxisTick& t : c.yTicks) {
      const double y = std::round(pageY(chart, c, t.value)) + 0.5;
      p.drawLine(QPointF(a.left() - l.tick, y), QPointF(a.left(), y));
      const double w = fm.horizontalAdvance(t.label);
      p.drawText(QPointF(a.left() - l.tick - 0.3 * l.labelPx - w, y + 0.35 * l.labelPx), t.label);
    }
    for (const AxisTick& t : c.xTicks) {
      const double x = std::round(pageX(chart, c, t.value)) + 0.5;
      p.drawLine(QPointF(x, a.bottom()), QPointF(x, a.bottom() + (c.xLabels ? l.tick : 0.0)));
      if (!c.xLabels) continue;
      const double w = fm.horizontalAdvance(t.label);
      p.drawText(QPointF(x - 0.5 * w, a.bottom() + l.tick + 1.0 * l.labelPx), t.label);
    }
  }
  p.setFont(plotFont(l.titlePx));
  const QFontMetricsF tm(p.font());
  if (c.xLabels && !c.xTitle.isEmpty()) {
    const double w = tm.horizontalAdvance(c.xTitle);
    p.drawText(QPointF(a.center().x() - 0.5 * w, a.bottom() + l.tick + 1.25 * l.labelPx + 1.0 * l.titlePx),
               c.xTitle);
  }
  if (!c.yTitle.isEmpty()) {
    p.save();
    p.translate(std::round(ps::kAxisMargin * s) + 0.9 * l.titlePx, a.center().y());
    p.rotate(-90.0);
    p.drawText(QPointF(-0.5 * tm.horizontalAdvance(c.yTitle), 0.0), c.yTitle);
    p.restore();
  }
  // Legend: a line (or a dot) in the series' pen, then its name.
  p.setFont(plotFont(l.legendPx));
  const double sym = std::round(ps::kLegendSymbolWidth * s);
  for (const LegendEntry& e : c.legend) {
    p.setRenderHint(QPainter::Antialiasing, antialias);
    if (!e.hasSymbol) {
    } else if (e.dots) {
      p.setPen(Qt::NoPen);
      p.setBrush(colourOf(e.pen.colour));
      p.drawEllipse(QPointF(e.symbol.x() + 0.5 * sym, e.symbol.y()), 2.0 * s, 2.0 * s);
      p.setBrush(Qt::NoBrush);
    } else {
      p.setPen(penOf(e.pen, s));
      p.drawLine(e.symbol, e.symbol + QPointF(sym, 0.0));
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::black);
    p.drawText(e.text0, e.text);
  }
}

}  // namespace

void paintFigure(QPainter& p, const PlotFigure& figure, const FigureLayout& layout, bool antialias) {
  p.fillRect(QRectF(QPointF(0, 0), layout.page), Qt::white);
  for (std::size_t i = 0; i < figure.charts.size() && i < layout.charts.size(); ++i) {
    paintChart(p, figure.charts[i], layout.charts[i], layout, antialias);
  }
}

QImage renderFigure(const PlotFigure& figure, QSize size) {
  QImage image(size, QImage::Format_RGB32);
  image.fill(Qt::white);
  const FigureLayout layout = layOutFigure(figure, QSizeF(size), plotExportScale(size));
  QPainter p(&image);
  paintFigure(p, figure, layout, true);
  p.end();
  return image;
}

}  // namespace ricochet::app
