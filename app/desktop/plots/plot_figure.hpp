#pragma once
// The plots as data: what PlotPanel shows in each chart (axis titles and ranges, the series with
// their pens, the impact lines, the legend) as plain values, the style they are drawn in, the
// rule that sets a value axis's range, and the rule that places an axis's ticks and writes their
// labels.
//
// PlotPanel computes all of it; the screen, the PNG export and the SVG export lay it out with one
// function (plot_layout) and draw that layout (plot_painter with QPainter, plot_svg as SVG text),
// so a figure shows what the panel computed, aligned the same way everywhere.
//
// Ticks: a 1-2-5 step that keeps them at least 30 px apart on a vertical axis and 45 px on a
// horizontal one. Labels carry as many decimals as the step needs, so neighbouring labels always
// differ; a value axis whose ticks are all below 1e-3 or at least 1e5 in magnitude writes them in
// units of a power of ten, which its title states ("(×1e-13)").

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

/// One plotted series: a polyline through (t[i], y[i]) (a non-finite point breaks it), for
/// `segments` separate segments between the points 2k and 2k+1 (the impact lines), or for `dots`
/// one dot per point (phase portraits, impact maps).
struct PlotSeries {
  QString name;  ///< the quantity (and its legend entry unless `legendName` is set)
  PlotPen pen;
  std::vector<double> t, y;
  bool segments = false;
  bool inLegend = true;
  bool dots = false;
  /// The legend entry when it is not `name` ("mom.px = mom.py" for series drawn as one).
  QString legendName = QString();

  QString legendText() const { return legendName.isEmpty() ? name : legendName; }
  /// Whether anything is drawn: two points for a polyline, one segment, one dot.
  bool drawn() const { return dots ? !t.empty() && !y.empty() : t.size() >= 2 && y.size() >= 2; }
};

/// One chart: series over the horizontal axis [tMin, tMax] (time, or a quantity for a phase
/// portrait or an impact map) and the value axis [yMin, yMax].
struct PlotChart {
  QString yTitle;
  QString xTitle;  ///< empty: the time axis (the figure's timeTitle)
  double tMin = 0.0, tMax = 1.0;
  double yMin = 0.0, yMax = 1.0;
  std::vector<PlotSeries> series;  ///< in drawing order (impact lines first, under the curves)
  bool legend = true;              ///< a legend of the drawn series, above the plot area

  bool timeAxis() const { return xTitle.isEmpty(); }
};

/// Charts stacked top to bottom. Time charts share the time axis: the lowest one labels it.
struct PlotFigure {
  std::vector<PlotChart> charts;
  QString timeTitle;
};

/// Sizes (px at scale 1, as on screen) and colours the plots are drawn in. An export of a larger
/// figure scales all of them.
namespace plotstyle {
constexpr double kTitleFont = 12;   ///< axis titles
constexpr double kLabelFont = 11;   ///< tick labels
constexpr double kLegendFont = 11;  ///< legend entries
constexpr double kTickLength = 5;
constexpr int kLegendPadding = 5;
constexpr int kLegendSymbolWidth = 22;
constexpr int kAxisMargin = 6;      ///< between an axis's labels and its title, and at the edges
constexpr int kHiddenBorder = 16;   ///< right of the plot areas (room for the last time label)
constexpr double kDotRadius = 1.6;  ///< dots of phase portraits and impact maps
constexpr PlotPen kAxisPen{{0, 0, 0, 255}, 1.0, false};
constexpr PlotPen kGridPen{{225, 225, 225, 255}, 1.0, false};
constexpr PlotPen kImpactPen{{214, 39, 40, 130}, 1.0, false};
constexpr PlotRgba kCursor{90, 90, 90, 200};        ///< the hover cursor line
constexpr PlotRgba kRubberBand{0, 114, 178, 50};    ///< the zoom selection
inline const char* const kTimeTitle = "t [s]";
/// Font family of every plot text (with fallbacks in SVG; Liberation Sans has Arial's metrics).
inline const char* const kFontFamily = "Arial";
}  // namespace plotstyle

/// Text and line scale for an exported figure of `size`: 1 up to 800 x 500, growing with the
/// smaller of width/800 and height/500 (so a 1600 x 1000 figure reads like the 800 x 500 one), at
/// most 4.
double plotExportScale(QSize size);

/// The value axis's range for data in [lo, hi] (finite, lo <= hi; none: lo > hi): at least
/// kMinRelativeSpan of the largest magnitude wide, so that round-off in a conserved quantity
/// (relative 1e-13) draws as a flat line, and padded by 5 % on each side. A log-scale error axis
/// (`log`) spans at least half a decade. No data: [-1, 1].
struct ValueRange {
  double lo = -1.0, hi = 1.0;
};
/// Below this span relative to its values a range counts as constant: valueRange() shows it flat
/// in a round span of about a tenth of its magnitude.
inline constexpr double kMinRelativeSpan = 1e-6;
ValueRange valueRange(double lo, double hi, bool log = false);

struct AxisTick {
  double value = 0.0;
  QString label;
};

/// The ticks inside [lo, hi] of an axis showing that range over `pixels` (its length at screen
/// scale): vertical axes keep ticks >= 30 px apart, horizontal ones >= 45 px. Empty when the axis
/// is too short. With `exponent`, labels of ticks all below 1e-3 or from 1e5 in magnitude are
/// written in units of 10^exponent (0 when they are not).
std::vector<AxisTick> axisTicks(double lo, double hi, double pixels, bool vertical,
                                int* exponent = nullptr);

/// A tick label of `value` on an axis whose ticks are `step` apart: fixed notation with the
/// decimals the step needs (never "-0"); scientific with as many digits when |value| >= 1e7.
QString tickLabel(double value, double step);
/// A label standing alone (a decade of a log axis, a whole number): the shortest form with six
/// significant digits, "1e-5" rather than "1e-05".
QString tickLabel(double value);

/// " (×1e-13)" for an exponent, empty for 0: appended to an axis title.
QString exponentSuffix(int exponent);

}  // namespace ricochet::app
