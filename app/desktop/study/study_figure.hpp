#pragma once
// A study's figure as data: which columns of the results table go where (FigureRecipe) and the
// figure that recipe makes of a table (StudyFigure): points with the table row they come from,
// series, colour-map cells, axis titles and ranges. The study plot paints it, the figure exports
// paint the same data, and a click is mapped back to its row through it.
//
// Three kinds, as a study calls for them:
//  * Lines: a metric against one axis, a series per value of the other axes (or per column, as
//    the sensitivity study's distance of each perturbation), markers joined in x order; with
//    `fit`, each series' least-squares slope in log-log (the observed order of convergence),
//    drawn as a dashed line and named in the legend.
//  * Scatter: the same without the joining lines, for random draws; or two axes against each
//    other with the metric as each point's colour.
//  * Map: a grid of two axes as coloured cells (the metric's colour scale beside it).
// Log axes show only positive values; the points left out are counted (`hidden`), never dropped
// silently.

#include "app/desktop/plots/plot_figure.hpp"
#include "app/desktop/study/study_table.hpp"

#include <QString>

#include <cstddef>
#include <limits>
#include <vector>

namespace ricochet::app {

enum class FigureKind { Lines, Scatter, Map };

struct FigureRecipe {
  FigureKind kind = FigureKind::Lines;
  QString title, subtitle;
  int x = -1;                 ///< column on the horizontal axis
  bool xCategorical = false;  ///< x's texts as categories, in order of first appearance
  std::vector<int> ys;        ///< Lines/Scatter: one series per column (the series' tag is its index)
  std::vector<QString> yNames;  ///< legend names of `ys` (empty: the column names)
  /// Per entry of `ys`, a column it is divided by (-1 or missing: none), e.g. the convergence
  /// error over |2 alpha - 1|.
  std::vector<int> yDivide;
  std::vector<int> groupBy;   ///< each series split by these columns' values
  int y = -1;                 ///< Map and two-axis Scatter: the vertical axis's column
  int colour = -1;            ///< Map and two-axis Scatter: the coloured column
  std::vector<std::size_t> rows;  ///< the rows shown; empty: every row
  QString xTitle, yTitle, colourTitle;
  bool logX = false, logY = false, logColour = false;
  bool fit = false;
};

struct FigurePoint {
  double x = 0.0, y = 0.0;
  double value = std::numeric_limits<double>::quiet_NaN();  ///< coloured value (two-axis Scatter)
  std::size_t row = 0;
};

struct FigureSeries {
  QString name;
  PlotRgba colour;
  std::vector<FigurePoint> points;  ///< sorted by x when joined
  bool joined = true;
  int tag = 0;  ///< index of its column in FigureRecipe::ys
  double slope = std::numeric_limits<double>::quiet_NaN();  ///< fit: log10 y = slope log10 x + intercept
  double intercept = 0.0;
};

struct FigureCell {
  double x0 = 0.0, x1 = 0.0, y0 = 0.0, y1 = 0.0;  ///< bounds in axis units (log10 on log axes)
  double value = 0.0;
  std::size_t row = 0;
};

struct StudyFigure {
  FigureKind kind = FigureKind::Lines;
  QString title, subtitle, xTitle, yTitle, colourTitle;
  bool logX = false, logY = false, logColour = false;
  /// The ranges shown, in axis units: log10 of the values on a log axis.
  double xMin = 0.0, xMax = 1.0, yMin = 0.0, yMax = 1.0, cMin = 0.0, cMax = 1.0;
  std::vector<QString> xCategories;  ///< categorical x: point x is the index
  std::vector<FigureSeries> series;
  std::vector<FigureCell> cells;
  std::size_t hidden = 0;  ///< rows left out: not a number, or not > 0 on a log axis
  bool colourSeries = false;  ///< points coloured by `value` (two-axis Scatter)
  bool yWhole = false;  ///< every point's y is a whole number on a linear axis (impacts, steps)
  bool hasColourScale() const { return kind == FigureKind::Map || colourSeries; }
  std::size_t pointCount() const;
};

/// The figure `recipe` makes of `table`.
StudyFigure buildFigure(const StudyTable& table, const FigureRecipe& recipe);

/// Ticks of a log axis showing [lo, hi] (log10 units) over `pixels`: the decades, with 2 and 5
/// between them when fewer than three decades show; labelled with the values ("1e-5", "0.02").
std::vector<AxisTick> logAxisTicks(double lo, double hi, double pixels, bool vertical);

/// The colour of `t` in [0, 1] on the perceptually uniform scale of the colour maps (viridis).
PlotRgba colourScale(double t);

/// The colour of series `k` (Okabe-Ito, colour-blind friendly, the palette of the live plots).
PlotRgba seriesColour(std::size_t k);

}  // namespace ricochet::app
