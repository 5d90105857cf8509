#include "app/desktop/plots/plot_svg.hpp"

#include "app/desktop/plots/plot_layout.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ricochet::app {

namespace {

namespace ps = plotstyle;

QString num(double v) { return QString::number(v, 'f', 2); }

QString colour(PlotRgba c) {
  return QStringLiteral("#%1%2%3")
      .arg(c.r, 2, 16, QLatin1Char('0'))
      .arg(c.g, 2, 16, QLatin1Char('0'))
      .arg(c.b, 2, 16, QLatin1Char('0'));
}

// stroke, its opacity, width and dashes of a pen drawn `scale` times as wide (as QPainter dashes:
// 4 widths on, 3 off).
QString strokeOf(const PlotPen& pen, double scale) {
  const double width = pen.width * scale;
  QString a = QStringLiteral("stroke=\"%1\" stroke-width=\"%2\"").arg(colour(pen.colour), num(width));
  if (pen.colour.a < 255) a += QStringLiteral(" stroke-opacity=\"%1\"").arg(pen.colour.a / 255.0, 0, 'f', 3);
  if (pen.dashed) a += QStringLiteral(" stroke-dasharray=\"%1,%2\"").arg(num(4 * width), num(3 * width));
  return a;
}

QString fontOf(double px) {
  return QStringLiteral("font-family=\"Arial, 'Liberation Sans', Helvetica, sans-serif\" font-size=\"%1\"").arg(num(px));
}

void drawChart(QString& o, const PlotChart& chart, const ChartLayout& c, const FigureLayout& l, int id) {
  const double s = l.scale;
  const QRectF a = c.area;
  const bool ranges = chart.tMax > chart.tMin && chart.yMax > chart.yMin;
  auto X = [&](double t) { return pageX(chart, c, t); };
  auto Y = [&](double v) { return pageY(chart, c, v); };
  const QString clip = QStringLiteral("plotArea%1").arg(id);
  // (In <defs>: renderers without clip paths, e.g. SVG Tiny ones, then skip it instead of
  // painting the rectangle.)
  o += QStringLiteral("<g class=\"chart\">\n<defs><clipPath id=\"%1\"><rect x=\"%2\" y=\"%3\" width=\"%4\" height=\"%5\"/></clipPath></defs>\n")
           .arg(clip, num(a.left()), num(a.top()), num(a.width()), num(a.height()));
  if (ranges) {
    const QString grid = strokeOf(ps::kGridPen, s);
    o += QStringLiteral("<g fill=\"none\" %1>\n").arg(grid);
    for (const AxisTick& t : c.xTicks) {
      o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/>\n").arg(num(X(t.value)), num(a.bottom()), num(a.top()));
    }
    for (const AxisTick& t : c.yTicks) {
      o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\"/>\n").arg(num(a.left()), num(Y(t.value)), num(a.right()));
    }
    o += QStringLiteral("</g>\n");

    // The series in drawing order (impact lines first, under the curves), clipped to the area.
    o += QStringLiteral("<g clip-path=\"url(#%1)\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"butt\">\n").arg(clip);
    for (const PlotSeries& ser : chart.series) {
      if (!ser.drawn()) continue;
      const std::size_t n = std::min(ser.t.size(), ser.y.size());
      if (ser.dots) {
        o += QStringLiteral("<g fill=\"%1\" stroke=\"none\" data-series=\"%2\">\n").arg(colour(ser.pen.colour), ser.name.toHtmlEscaped());
        for (std::size_t i = 0; i < n; ++i) {
          if (!std::isfinite(ser.t[i]) || !std::isfinite(ser.y[i])) continue;
          o += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"%3\"/>\n").arg(num(X(ser.t[i])), num(Y(ser.y[i])), num(ps::kDotRadius * s));
        }
        o += QStringLiteral("</g>\n");
        continue;
      }
      const QString attrs = QStringLiteral("%1 data-series=\"%2\"").arg(strokeOf(ser.pen, s), ser.name.toHtmlEscaped());
      if (!ser.segments) {
        // One polyline per run of finite points.
        QString points;
        int count = 0;
        auto flush = [&] {
          if (count >= 2) o += QStringLiteral("<polyline %1 points=\"%2\"/>\n").arg(attrs, points.trimmed());
          points.clear();
          count = 0;
        };
        for (std::size_t i = 0; i < n; ++i) {
          if (!std::isfinite(ser.t[i]) || !std::isfinite(ser.y[i])) {
            flush();
            continue;
          }
          points += num(X(ser.t[i])) + QLatin1Char(',') + num(Y(ser.y[i])) + QLatin1Char(' ');
          ++count;
        }
        flush();
      } else {
        QString d;
        for (std::size_t i = 0; i + 1 < n; i += 2) {
          if (!std::isfinite(ser.t[i] + ser.y[i] + ser.t[i + 1] + ser.y[i + 1])) continue;
          d += QStringLiteral("M%1 %2L%3 %4").arg(num(X(ser.t[i])), num(Y(ser.y[i])), num(X(ser.t[i + 1])), num(Y(ser.y[i + 1])));
        }
        if (!d.isEmpty()) o += QStringLiteral("<path %1 d=\"%2\"/>\n").arg(attrs, d);
      }
    }
    o += QStringLiteral("</g>\n");
  }

  // Axes: lines and ticks, then labels and titles.
  o += QStringLiteral("<g fill=\"none\" %1>\n").arg(strokeOf(ps::kAxisPen, s));
  o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/>\n").arg(num(a.left()), num(a.top()), num(a.bottom()));
  o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\"/>\n").arg(num(a.left()), num(a.bottom()), num(a.right()));
  if (ranges) {
    for (const AxisTick& t : c.yTicks) {
      o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\"/>\n").arg(num(a.left() - l.tick), num(Y(t.value)), num(a.left()));
    }
    if (c.xLabels) {
      for (const AxisTick& t : c.xTicks) {
        o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/>\n").arg(num(X(t.value)), num(a.bottom()), num(a.bottom() + l.tick));
      }
    }
  }
  o += QStringLiteral("</g>\n");
  if (ranges) {
    o += QStringLiteral("<g fill=\"#000000\" %1 text-anchor=\"end\">\n").arg(fontOf(l.labelPx));
    for (const AxisTick& t : c.yTicks) {
      o += QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>\n")
               .arg(num(a.left() - l.tick - 0.3 * l.labelPx), num(Y(t.value) + 0.35 * l.labelPx), t.label.toHtmlEscaped());
    }
    o += QStringLiteral("</g>\n");
    if (c.xLabels) {
      o += QStringLiteral("<g fill=\"#000000\" %1 text-anchor=\"middle\">\n").arg(fontOf(l.labelPx));
      for (const AxisTick& t : c.xTicks) {
        o += QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>\n")
                 .arg(num(X(t.value)), num(a.bottom() + l.tick + 1.0 * l.labelPx), t.label.toHtmlEscaped());
      }
      o += QStringLiteral("</g>\n");
    }
  }
  if (c.xLabels && !c.xTitle.isEmpty()) {
    o += QStringLiteral("<text fill=\"#000000\" %1 text-anchor=\"middle\" x=\"%2\" y=\"%3\">%4</text>\n")
             .arg(fontOf(l.titlePx), num(a.center().x()),
                  num(a.bottom() + l.tick + 1.25 * l.labelPx + 1.0 * l.titlePx), c.xTitle.toHtmlEscaped());
  }
  if (!c.yTitle.isEmpty()) {
    o += QStringLiteral("<text fill=\"#000000\" %1 text-anchor=\"middle\" transform=\"translate(%2,%3) rotate(-90)\">%4</text>\n")
             .arg(fontOf(l.titlePx), num(std::round(ps::kAxisMargin * s) + 0.9 * l.titlePx), num(a.center().y()),
                  c.yTitle.toHtmlEscaped());
  }

  // Legend: above the plot area, as the panel draws it.
  if (!c.legend.empty()) {
    const double sym = std::round(ps::kLegendSymbolWidth * s);
    o += QStringLiteral("<g class=\"legend\">\n");
    for (const LegendEntry& e : c.legend) {
      if (!e.hasSymbol) {
      } else if (e.dots) {
        o += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"%3\" fill=\"%4\"/>\n")
                 .arg(num(e.symbol.x() + 0.5 * sym), num(e.symbol.y()), num(2.0 * s), colour(e.pen.colour));
      } else {
        o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" fill=\"none\" %4/>\n")
                 .arg(num(e.symbol.x()), num(e.symbol.y()), num(e.symbol.x() + sym), strokeOf(e.pen, s));
      }
      o += QStringLiteral("<text fill=\"#000000\" %1 x=\"%2\" y=\"%3\">%4</text>\n")
               .arg(fontOf(l.legendPx), num(e.text0.x()), num(e.text0.y()), e.text.toHtmlEscaped());
    }
    o += QStringLiteral("</g>\n");
  }
  o += QStringLiteral("</g>\n");
}

}  // namespace

QByteArray plotSvg(const PlotFigure& figure, QSize size, const QString& title) {
  QString o;
  o += QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  o += QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%1\" height=\"%2\" "
                      "viewBox=\"0 0 %1 %2\">\n")
           .arg(size.width()).arg(size.height());
  o += QStringLiteral("<title>%1</title>\n<desc>Ricochet plots</desc>\n").arg(title.toHtmlEscaped());
  o += QStringLiteral("<rect x=\"0\" y=\"0\" width=\"%1\" height=\"%2\" fill=\"#ffffff\"/>\n")
           .arg(size.width()).arg(size.height());
  const FigureLayout layout = layOutFigure(figure, QSizeF(size), plotExportScale(size));
  for (std::size_t i = 0; i < figure.charts.size(); ++i) {
    drawChart(o, figure.charts[i], layout.charts[i], layout, int(i) + 1);
  }
  o += QStringLiteral("</svg>\n");
  return o.toUtf8();
}

}  // namespace ricochet::app
