#pragma once
// Draws a laid-out PlotFigure with QPainter: the plot panel on screen and the PNG export run the
// same code, so an exported image is the screen's figure at another size.

#include "app/desktop/plots/plot_layout.hpp"

#include <QImage>

class QPainter;

namespace ricochet::app {

/// Paints `figure` as laid out in `layout` (background included). `antialias`: smooth curves.
void paintFigure(QPainter& painter, const PlotFigure& figure, const FigureLayout& layout,
                 bool antialias);

/// `figure` as an image of `size` px, text and lines scaled by plotExportScale(size).
QImage renderFigure(const PlotFigure& figure, QSize size);

}  // namespace ricochet::app
