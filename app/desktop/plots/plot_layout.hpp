#pragma once
// Where everything of a PlotFigure goes on a page of a given size: one layout for the screen, the
// PNG and the SVG export alike, so that they agree to the pixel.
//
// The charts are stacked in equal bands. All plot areas share one left and one right edge (the
// widest value labels of any chart decide the left one), so an impact is drawn at the same x in
// every chart. Each chart's legend is a row (wrapping when needed) above its plot area, outside
// it, so it never hides data. Time charts share the time axis and only the lowest one labels it;
// a phase portrait or an impact map labels its own horizontal axis. Page coordinates: px, y down.
//
// Text and lines are scaled by `scale` (plotExportScale for exports, 1 on screen), while the ticks
// are as dense as on a screen-sized figure: they are placed for the axis lengths divided by it.

#include "app/desktop/plots/plot_figure.hpp"

#include <QFont>
#include <QRectF>
#include <QSizeF>

#include <vector>

namespace ricochet::app {

struct LegendEntry {
  QString text;
  PlotPen pen;
  bool dots = false;
  bool hasSymbol = true;  ///< false for the "+3 more" that ends a legend too long for its rows
  QPointF symbol;  ///< left end of the symbol line, on the text's middle
  QPointF text0;   ///< the text's baseline start
};

struct ChartLayout {
  QRectF band;   ///< the chart's share of the page
  QRectF area;   ///< the plot area
  std::vector<AxisTick> xTicks, yTicks;
  bool xLabels = false;  ///< this chart labels its horizontal axis
  QString xTitle;        ///< under the labels (when xLabels)
  QString yTitle;        ///< with the exponent of its labels
  std::vector<LegendEntry> legend;
  QRectF legendRect;     ///< empty without a legend
};

struct FigureLayout {
  QSizeF page;
  double scale = 1.0;
  double labelPx = 11, titlePx = 12, legendPx = 11, tick = 5;
  std::vector<ChartLayout> charts;
};

/// The font of plot text at `px` pixels.
QFont plotFont(double px);
/// A font size of the style at `scale`, whole pixels.
double plotFontPx(double base, double scale);

/// Lays `figure` out on a page of `size` with text and lines scaled by `scale`.
FigureLayout layOutFigure(const PlotFigure& figure, QSizeF size, double scale);

/// Page x of the horizontal value `t` and page y of `v` in `chart`'s plot area.
double pageX(const PlotChart& chart, const ChartLayout& c, double t);
double pageY(const PlotChart& chart, const ChartLayout& c, double v);

}  // namespace ricochet::app
