#pragma once
// The plots as an SVG drawing: vector paths for the curves, text for the labels and titles,
// drawn from the plot data PlotPanel computes (PlotFigure), not from a renderer's layout.
//
// The page is laid out like the panel's charts: stacked, sharing the time axis (only the lowest
// chart labels it), one plot-area width for all so the time axes line up. Text and lines are
// scaled for the page size (plotExportScale), while the ticks are as dense as on a screen-sized
// figure: they are placed for the page divided by that scale, with unscaled text, as the panel
// would place them, and then drawn at full size. Data are mapped to the page in double precision
// (to 0.01 px in the file).

#include "app/desktop/plot_figure.hpp"

#include <QByteArray>
#include <QSize>
#include <QString>

namespace ricochet::app {

/// `figure` as an SVG document of `size` (user units = px) titled `title`.
QByteArray plotSvg(const PlotFigure& figure, QSize size, const QString& title);

}  // namespace ricochet::app
