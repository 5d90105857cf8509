#pragma once
// The plots as data: what PlotPanel shows in each chart (axis titles and ranges, the series with
// their pens, the impact lines, whether it has a legend) as plain values, the style they are
// drawn in, and the rule that places an axis's ticks and writes their labels.
//
// PlotPanel computes all of it and draws it with VTK; the plot exports draw the same data (the
// SVG writer by hand), so a figure shows what the panel computed, not what a renderer laid out.
// The tick rule is VTK's own (vtkAxis, TICK_SIMPLE: a 1-2-5 step that keeps ticks at least 30 px
// apart on a vertical axis and 45 px on a horizontal one, labels as `std::ostream << value` with
// the exponent's leading zeros dropped), so the ticks an export computes for an axis length are
// those the panel's charts show at that length.

#include <QSize>
#include <QString>

#include <vector>

namespace ricochet::app {

struct PlotRgba {
  unsigned char r = 0, g = 0, b = 0, a = 255;
};

/// A line's colour, width (px at scale 1) and dashing.
struct PlotPen {
  PlotRgba colour;
  double width = 1.0;
  bool dashed = false;
};

/// One plotted series: a polyline through (t[i], y[i]) (a non-finite point breaks it), or for
/// `segments` separate segments between the points 2k and 2k+1 (the impact lines).
struct PlotSeries {
  QString name;  ///< its legend entry
  PlotPen pen;
  std::vector<double> t, y;
  bool segments = false;
  bool inLegend = true;

  /// Whether anything is drawn: two points for a polyline, one segment.
  bool drawn() const { return t.size() >= 2 && y.size() >= 2; }
};

/// One chart: series over the time axis [tMin, tMax] and the value axis [yMin, yMax].
struct PlotChart {
  QString yTitle;
  double tMin = 0.0, tMax = 1.0;
  double yMin = 0.0, yMax = 1.0;
  std::vector<PlotSeries> series;  ///< in drawing order (impact lines first, under the curves)
  bool legend = true;              ///< inline, top right, listing the drawn series
};

/// Charts stacked top to bottom, sharing the time axis: the lowest one labels it.
struct PlotFigure {
  std::vector<PlotChart> charts;
  QString timeTitle;
};

/// Sizes (px at scale 1, as on screen) and colours the plots are drawn in. An export of a larger
/// figure scales the fonts, lines and legend; tick length and the chart borders stay in px.
namespace plotstyle {
constexpr double kTitleFont = 12;   ///< axis titles
constexpr double kLabelFont = 11;   ///< tick labels
constexpr double kLegendFont = 10;  ///< legend entries
constexpr double kTickLength = 5;
constexpr int kLegendPadding = 5;
constexpr int kLegendSymbolWidth = 25;
constexpr int kAxisMargin = 15;     ///< beyond an axis's labels and title (VTK's chart layout)
constexpr int kHiddenBorder = 20;   ///< a chart side without labels
constexpr PlotPen kAxisPen{{0, 0, 0, 255}, 1.0, false};
constexpr PlotPen kGridPen{{225, 225, 225, 255}, 1.0, false};
constexpr PlotPen kImpactPen{{214, 39, 40, 130}, 1.0, false};
constexpr PlotPen kLegendEdge{{160, 160, 160, 200}, 1.0, false};
constexpr PlotRgba kLegendFill{255, 255, 255, 170};  ///< translucent: curves under it stay visible
inline const char* const kTimeTitle = "t [s]";
}  // namespace plotstyle

/// Text and line scale for an exported figure of `size`: 1 up to 800 x 500, growing with the
/// smaller of width/800 and height/500 (so a 1600 x 1000 figure reads like the 800 x 500 one), at
/// most 4.
double plotExportScale(QSize size);

struct AxisTick {
  double value = 0.0;
  QString label;
};

/// The ticks inside [lo, hi] of an axis showing that range over `pixels` (its length on the
/// page): vertical axes keep ticks >= 30 px apart, horizontal ones >= 45 px. Empty when the axis
/// is too short.
std::vector<AxisTick> axisTicks(double lo, double hi, double pixels, bool vertical);

/// A tick label: `value` as `std::ostream` writes it (6 significant digits), exponent without
/// leading zeros ("1e-5", "2.5e+12").
QString tickLabel(double value);

}  // namespace ricochet::app
