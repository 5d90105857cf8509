#pragma once
// The plots as a PNG image of a chosen size, rendered by VTK off screen from the plot data
// PlotPanel computes (PlotFigure): charts built like the panel's, with fonts, lines and legend
// scaled for the size (plotExportScale) and the ticks as dense as on a screen-sized figure. The
// live view is never touched.

#include "app/desktop/plot_figure.hpp"

#include <QByteArray>
#include <QSize>
#include <QString>

namespace ricochet::app {

/// Renders `figure` at `size` and encodes it as PNG into `png`. Empty on success, otherwise why
/// not (no X display, no OpenGL, a failed render).
QString renderPlotsPng(const PlotFigure& figure, QSize size, QByteArray* png);

}  // namespace ricochet::app
