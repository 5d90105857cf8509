#pragma once
// The plots as a PNG image of a chosen size: the figure PlotPanel computes (PlotFigure), drawn by
// the panel's own painter (plot_painter) on the shared layout, with text and lines scaled for the
// size (plotExportScale). The live view is never touched, and no display is needed.

#include "app/desktop/plots/plot_figure.hpp"

#include <QByteArray>
#include <QSize>
#include <QString>

namespace ricochet::app {

/// Renders `figure` at `size` and encodes it as PNG into `png`. Empty on success, otherwise why
/// not.
QString renderPlotsPng(const PlotFigure& figure, QSize size, QByteArray* png);

}  // namespace ricochet::app
