#include "app/desktop/plot_svg.hpp"

#include <QFont>
#include <QFontMetricsF>

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

// stroke, its opacity, width and dashes of a pen drawn `scale` times as wide.
QString strokeOf(const PlotPen& pen, double scale) {
  const double width = double(float(pen.width * scale));
  QString a = QStringLiteral("stroke=\"%1\" stroke-width=\"%2\"").arg(colour(pen.colour), num(width));
  if (pen.colour.a < 255) a += QStringLiteral(" stroke-opacity=\"%1\"").arg(pen.colour.a / 255.0, 0, 'f', 3);
  if (pen.dashed) {
    const double w = std::max(1.0, width);
    a += QStringLiteral(" stroke-dasharray=\"%1,%2\"").arg(num(4 * w), num(3 * w));
  }
  return a;
}

QString fontOf(double px) {
  // The panel draws with VTK's own Arial; Liberation Sans has the same metrics.
  return QStringLiteral("font-family=\"Arial, 'Liberation Sans', Helvetica, sans-serif\" font-size=\"%1\"").arg(num(px));
}

// Width of `text` at `px` pixels in a sans-serif font (labels and the legend box).
double textWidth(const QString& text, double px) {
  QFont f(QStringLiteral("Arial"));
  f.setPixelSize(std::max(1, int(std::lround(px))));
  return QFontMetricsF(f).horizontalAdvance(text);
}

// A font size of the style at `scale`, whole pixels as the panel's text.
double fontPx(double base, double scale) { return std::max(1.0, double(std::lround(base * scale))); }

// Where the charts go on a page of `size` with text scaled by `scale`, and their ticks. Scene
// coordinates: y runs up from the bottom of the page. Borders as the panel's charts have them:
// text plus a margin beside a labelled axis, a fixed border on the other sides.
struct Layout {
  struct Chart {
    double top = 0.0, bottom = 0.0;  // the chart's band of the page
    double y0 = 0.0, y1 = 0.0;       // its plot area, bottom and top
    bool timeLabels = false;         // the lowest chart labels the time axis
    std::vector<AxisTick> yTicks, tTicks;
  };
  std::vector<Chart> charts;
  double x0 = 0.0, x1 = 0.0;  // the plot areas' left and right, shared
};

// `ticks`: the ticks to use (those of the same figure laid out with unscaled text), or null to
// place them for this layout's axis lengths.
Layout layOut(const PlotFigure& f, QSizeF size, double scale, const Layout* ticks) {
  Layout l;
  const std::size_t n = f.charts.size();
  const double labelFs = fontPx(ps::kLabelFont, scale);
  const double titleFs = fontPx(ps::kTitleFont, scale);
  // Bands in single precision and borders from whole pixels, as the panel's charts are laid out.
  const float band = float(size.height()) / float(n);
  double left = ps::kHiddenBorder;
  for (std::size_t i = 0; i < n; ++i) {
    Layout::Chart c;
    const float bottom = float(size.height()) - float(i + 1) * band;
    c.bottom = bottom;
    c.top = bottom + band;
    c.timeLabels = i + 1 == n;
    const double text = c.timeLabels ? labelFs + (f.timeTitle.isEmpty() ? 0.0 : titleFs) : 0.0;
    const double border = std::max<double>(ps::kHiddenBorder, text + ps::kAxisMargin);
    c.y0 = std::trunc(c.bottom) + border;
    c.y1 = std::trunc(c.top) - ps::kHiddenBorder;
    const PlotChart& chart = f.charts[i];
    c.yTicks = ticks ? ticks->charts[i].yTicks : axisTicks(chart.yMin, chart.yMax, c.y1 - c.y0, true);
    double widest = 0.0;
    for (const AxisTick& t : c.yTicks) widest = std::max(widest, textWidth(t.label, labelFs));
    // Room for the labels and the title: as the panel's layout measures them, or as this page's
    // fonts do (a viewer without Arial substitutes a wider font), whichever is wider.
    const double title = chart.yTitle.isEmpty() ? 0.0 : 1.0;
    left = std::max({left, widest + title * titleFs + ps::kAxisMargin,
                     ps::kTickLength + 0.3 * labelFs + widest + title * 1.4 * titleFs});
    l.charts.push_back(std::move(c));
  }
  l.x0 = left;
  l.x1 = std::trunc(size.width()) - ps::kHiddenBorder;
  for (std::size_t i = 0; i < n; ++i) {
    const PlotChart& chart = f.charts[i];
    l.charts[i].tTicks = ticks ? ticks->charts[i].tTicks
                               : axisTicks(chart.tMin, chart.tMax, l.x1 - l.x0, false);
  }
  return l;
}

// One chart of the page (y_svg = H - y_scene).
void drawChart(QString& o, const PlotChart& chart, const Layout::Chart& c, const Layout& l,
               const QString& timeTitle, double H, double scale, int id) {
  const double x0 = l.x0, x1 = l.x1, y0 = c.y0, y1 = c.y1;
  const double tmin = chart.tMin, tmax = chart.tMax, vmin = chart.yMin, vmax = chart.yMax;
  if (!(x1 > x0) || !(y1 > y0) || !(tmax > tmin) || !(vmax > vmin)) return;
  auto X = [&](double t) { return x0 + (t - tmin) / (tmax - tmin) * (x1 - x0); };
  auto sceneY = [&](double v) { return y0 + (v - vmin) / (vmax - vmin) * (y1 - y0); };
  auto Y = [&](double v) { return H - sceneY(v); };
  const QString clip = QStringLiteral("plotArea%1").arg(id);
  // (In <defs>: renderers without clip paths, e.g. SVG Tiny ones, then skip it instead of
  // painting the rectangle.)
  o += QStringLiteral("<g class=\"chart\">\n<defs><clipPath id=\"%1\"><rect x=\"%2\" y=\"%3\" width=\"%4\" height=\"%5\"/></clipPath></defs>\n")
           .arg(clip, num(x0), num(H - y1), num(x1 - x0), num(y1 - y0));

  // Grid at the ticks: time, then values.
  const QString grid = strokeOf(ps::kGridPen, scale);
  o += QStringLiteral("<g fill=\"none\" %1>\n").arg(grid);
  for (const AxisTick& t : c.tTicks) {
    o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/>\n").arg(num(X(t.value)), num(H - y0), num(H - y1));
  }
  o += QStringLiteral("</g>\n<g fill=\"none\" %1>\n").arg(grid);
  for (const AxisTick& t : c.yTicks) {
    o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\"/>\n").arg(num(x0), num(Y(t.value)), num(x1));
  }
  o += QStringLiteral("</g>\n");

  // The series in drawing order (impact lines first, under the curves), clipped to the area.
  o += QStringLiteral("<g clip-path=\"url(#%1)\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"butt\">\n").arg(clip);
  for (const PlotSeries& s : chart.series) {
    if (!s.drawn()) continue;
    const std::size_t n = std::min(s.t.size(), s.y.size());
    const QString attrs = QStringLiteral("%1 data-series=\"%2\"").arg(strokeOf(s.pen, scale), s.name.toHtmlEscaped());
    if (!s.segments) {
      // One polyline per run of finite points.
      QString points;
      int count = 0;
      auto flush = [&] {
        if (count >= 2) o += QStringLiteral("<polyline %1 points=\"%2\"/>\n").arg(attrs, points.trimmed());
        points.clear();
        count = 0;
      };
      for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(s.t[i]) || !std::isfinite(s.y[i])) {
          flush();
          continue;
        }
        points += num(X(s.t[i])) + QLatin1Char(',') + num(Y(s.y[i])) + QLatin1Char(' ');
        ++count;
      }
      flush();
    } else {
      QString d;
      for (std::size_t i = 0; i + 1 < n; i += 2) {
        if (!std::isfinite(s.t[i] + s.y[i] + s.t[i + 1] + s.y[i + 1])) continue;
        d += QStringLiteral("M%1 %2L%3 %4").arg(num(X(s.t[i])), num(Y(s.y[i])), num(X(s.t[i + 1])), num(Y(s.y[i + 1])));
      }
      if (!d.isEmpty()) o += QStringLiteral("<path %1 d=\"%2\"/>\n").arg(attrs, d);
    }
  }
  o += QStringLiteral("</g>\n");

  // Axes: line and ticks, tick labels, title; time first, then values.
  const double tick = ps::kTickLength;
  const double labelFs = fontPx(ps::kLabelFont, scale);
  const double titleFs = fontPx(ps::kTitleFont, scale);
  o += QStringLiteral("<g fill=\"none\" %1>\n").arg(strokeOf(ps::kAxisPen, scale));
  o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\"/>\n").arg(num(x0), num(H - y0), num(x1));
  for (const AxisTick& t : c.tTicks) {
    o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/>\n").arg(num(X(t.value)), num(H - y0), num(H - y0 + tick));
  }
  o += QStringLiteral("</g>\n");
  if (c.timeLabels) {
    o += QStringLiteral("<g fill=\"#000000\" %1 text-anchor=\"middle\">\n").arg(fontOf(labelFs));
    for (const AxisTick& t : c.tTicks) {
      o += QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>\n").arg(num(X(t.value)), num(H - y0 + tick + 1.0 * labelFs), t.label.toHtmlEscaped());
    }
    o += QStringLiteral("</g>\n");
    if (!timeTitle.isEmpty()) {
      // Below the tick labels where the chart's bottom margin allows, else at its bottom edge.
      const double y = std::min(H - c.bottom - 0.25 * titleFs, H - y0 + tick + 1.3 * labelFs + 0.9 * titleFs);
      o += QStringLiteral("<text fill=\"#000000\" %1 text-anchor=\"middle\" x=\"%2\" y=\"%3\">%4</text>\n")
               .arg(fontOf(titleFs), num(0.5 * (x0 + x1)), num(y), timeTitle.toHtmlEscaped());
    }
  }
  o += QStringLiteral("<g fill=\"none\" %1>\n").arg(strokeOf(ps::kAxisPen, scale));
  o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/>\n").arg(num(x0), num(H - y0), num(H - y1));
  for (const AxisTick& t : c.yTicks) {
    o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\"/>\n").arg(num(x0 - tick), num(Y(t.value)), num(x0));
  }
  o += QStringLiteral("</g>\n");
  o += QStringLiteral("<g fill=\"#000000\" %1 text-anchor=\"end\">\n").arg(fontOf(labelFs));
  for (const AxisTick& t : c.yTicks) {
    o += QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>\n").arg(num(x0 - tick - 0.3 * labelFs), num(Y(t.value) + 0.35 * labelFs), t.label.toHtmlEscaped());
  }
  o += QStringLiteral("</g>\n");
  if (!chart.yTitle.isEmpty()) {
    // Baseline: the chart's left edge + the ascent, centred on the plot area.
    o += QStringLiteral("<text fill=\"#000000\" %1 text-anchor=\"middle\" transform=\"translate(%2,%3) rotate(-90)\">%4</text>\n")
             .arg(fontOf(titleFs), num(0.9 * titleFs), num(H - 0.5 * (y0 + y1)), chart.yTitle.toHtmlEscaped());
  }

  // Legend: top right inside the plot area, as the panel draws it.
  std::vector<const PlotSeries*> entries;
  for (const PlotSeries& s : chart.series) {
    if (s.drawn() && s.inLegend && !s.name.isEmpty()) entries.push_back(&s);
  }
  if (chart.legend && !entries.empty()) {
    const double fs = fontPx(ps::kLegendFont, scale);
    const double pad = std::max(2.0, double(std::lround(ps::kLegendPadding * scale)));
    const double sym = std::max(8.0, double(std::lround(ps::kLegendSymbolWidth * scale)));
    const double row = 1.3 * fs;
    double textW = 0.0;
    for (const PlotSeries* s : entries) textW = std::max(textW, textWidth(s->name, fs));
    const double w = pad + sym + pad + textW + pad;
    const double h = 2 * pad + row * double(entries.size());
    const double left0 = x1 - pad - w, top = H - y1 + pad;
    o += QStringLiteral("<g class=\"legend\">\n<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\" fill-opacity=\"%6\" %7/>\n")
             .arg(num(left0), num(top), num(w), num(h), colour(ps::kLegendFill))
             .arg(ps::kLegendFill.a / 255.0, 0, 'f', 3)
             .arg(strokeOf(ps::kLegendEdge, scale));
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const double cy = top + pad + row * (double(i) + 0.5);
      o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" fill=\"none\" %4/>\n")
               .arg(num(left0 + pad), num(cy), num(left0 + pad + sym), strokeOf(entries[i]->pen, scale));
      o += QStringLiteral("<text fill=\"#000000\" %1 x=\"%2\" y=\"%3\">%4</text>\n")
               .arg(fontOf(fs), num(left0 + 2 * pad + sym), num(cy + 0.35 * fs), entries[i]->name.toHtmlEscaped());
    }
    o += QStringLiteral("</g>\n");
  }
  o += QStringLiteral("</g>\n");
}

}  // namespace

QByteArray plotSvg(const PlotFigure& figure, QSize size, const QString& title) {
  const double H = size.height();
  QString o;
  o += QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  o += QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%1\" height=\"%2\" "
                      "viewBox=\"0 0 %1 %2\">\n")
           .arg(size.width()).arg(size.height());
  o += QStringLiteral("<title>%1</title>\n<desc>Ricochet plots</desc>\n").arg(title.toHtmlEscaped());
  o += QStringLiteral("<rect x=\"0\" y=\"0\" width=\"%1\" height=\"%2\" fill=\"#ffffff\"/>\n")
           .arg(size.width()).arg(size.height());
  if (!figure.charts.empty()) {
    // Ticks as dense as on a screen-sized figure: placed for the page at 1/scale with unscaled
    // text, then drawn at full size with scaled text and lines.
    const double s = plotExportScale(size);
    const Layout logical = layOut(figure, QSizeF(std::lround(size.width() / s), std::lround(size.height() / s)), 1.0, nullptr);
    const Layout page = layOut(figure, QSizeF(size), s, &logical);
    for (std::size_t i = 0; i < figure.charts.size(); ++i) {
      drawChart(o, figure.charts[i], page.charts[i], page, figure.timeTitle, H, s, int(i) + 1);
    }
  }
  o += QStringLiteral("</svg>\n");
  return o.toUtf8();
}

}  // namespace ricochet::app
