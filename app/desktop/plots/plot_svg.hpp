#pragma once
// The plots as an SVG drawing: vector paths for the curves, text for the labels and titles,
// drawn from the plot data PlotPanel computes (PlotFigure) on the layout the screen and the PNG
// export use (plot_layout), so the three agree: plot areas, ticks, legends and titles are where
// the panel puts them, with text and lines scaled for the page (plotExportScale). Data are mapped
// to the page in double precision (to 0.01 px in the file).

#include "app/desktop/plots/plot_figure.hpp"

#include <QByteArray>
#include <QSize>
#include <QString>

namespace ricochet::app {

/// `figure` as an SVG document of `size` (user units = px) titled `title`.
QByteArray plotSvg(const PlotFigure& figure, QSize size, const QString& title);

}  // namespace ricochet::app
