#pragma once
// Draws a StudyFigure with QPainter: on screen (StudyPlot), into a PNG image and into an SVG
// drawing (Qt SVG's generator: vector paths and text), all from one drawing routine, so an export
// is what the window shows. The style is the live plots' (plotstyle: fonts, grid, axis pens,
// legend; tick rule of plot_figure), scaled for large pages like their exports
// (plotExportScale), with ticks as dense as on a screen-sized figure.
//
// FigureGeometry is the layout of one page (title, legend row, plot area, colour bar, ticks, the
// map from data to pixels); the plot widget also uses it to find the point under the mouse.

#include "app/desktop/study/study_figure.hpp"

#include <QByteArray>
#include <QFont>
#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QString>

#include <optional>

class QPainter;

namespace ricochet::app {

class FigureGeometry {
 public:
  /// One legend entry, laid out in a row above the plot area (a legend never hides a point).
  struct LegendItem {
    QString text;
    PlotRgba colour;
    bool line = false;  ///< joined series, or a fit (dashed)
    bool fit = false;
    QRectF rect;        ///< symbol and text
  };

  /// The layout of `figure` on a page of `size` px, text and lines at `scale` (1 on screen).
  FigureGeometry(const StudyFigure& figure, QSizeF size, double scale);

  QSizeF size() const { return size_; }
  double scale() const { return scale_; }
  QRectF plotArea() const { return plot_; }
  QRectF colourBar() const { return bar_; }  ///< empty without a colour scale
  /// Data (axis units: log10 on a log axis) to page coordinates.
  QPointF map(double x, double y) const;
  QFont font(double pixelSize, bool bold = false) const;

  const std::vector<AxisTick>& xTicks() const { return xTicks_; }
  const std::vector<AxisTick>& yTicks() const { return yTicks_; }
  const std::vector<AxisTick>& colourTicks() const { return cTicks_; }
  double titleTop() const { return titleTop_; }
  const std::vector<LegendItem>& legend() const { return legend_; }

 private:
  const StudyFigure& figure_;
  QSizeF size_;
  double scale_ = 1.0;
  QRectF plot_, bar_;
  std::vector<AxisTick> xTicks_, yTicks_, cTicks_;
  std::vector<LegendItem> legend_;
  double titleTop_ = 0.0;
};

/// Paints `figure` laid out by `geometry`; the point(s) or cell of table row `highlight` get a ring.
void paintFigure(QPainter& painter, const StudyFigure& figure, const FigureGeometry& geometry,
                 std::optional<std::size_t> highlight = std::nullopt);

/// The row and series tag under page position `pos` (the nearest point within `radius` px, or
/// the cell that contains it), if any.
struct FigureHit {
  std::size_t row = 0;
  int tag = 0;
};
std::optional<FigureHit> hitFigure(const StudyFigure& figure, const FigureGeometry& geometry, QPointF pos,
                                   double radius);

/// `figure` as a PNG image of `size` px (text and lines scaled with plotExportScale).
QByteArray studyFigurePng(const StudyFigure& figure, QSize size);
/// `figure` as an SVG drawing of `size` (user units = px) titled `title`.
QByteArray studyFigureSvg(const StudyFigure& figure, QSize size, const QString& title);

}  // namespace ricochet::app
