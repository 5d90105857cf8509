#pragma once
// The plotted series of an overlaid run (File > Overlay Run...): a second run of the shown system,
// read from its HDF5 file, drawn dashed over the time plots of the run on screen so that two
// integrators (or two time steps, or two parameter values) can be compared as they play.
//
// Its series are named as the worker names a live run's (RunInfo::series: total, kinetic,
// potential, e.*, energy error, |energy error|, then every trace column) and decimated once, at
// load, by the same min/max decimator, so a time panel finds the overlay's curve of any quantity
// it shows by name. The energy error is the file's energy_rel_error column.
//
// Plain data, immutable once built; built off the GUI thread (ReplayActions).

#include "core/trace/minmax_decimator.hpp"
#include "io/hdf5/run_file.hpp"

#include <QString>

#include <memory>
#include <vector>

namespace ricochet::app {

struct OverlayCurves {
  QString label;                ///< "rk4-event, h = 0.001": the legend's "(overlay: LABEL)"
  std::vector<QString> names;   ///< series names, aligned with plot.y and initial
  trace::PlotData plot;         ///< the whole run, decimated to `columns` columns
  std::vector<double> initial;  ///< each series' value at the first row (the Δ view's base)

  int indexOf(const QString& name) const;
};

/// Plot columns an overlay is decimated to: finer than any plot area, and the buckets the worker
/// keeps for a live run.
inline constexpr int kOverlayColumns = 2048;

/// The overlay curves of `run` (at least one trace row), decimated to `columns` columns.
std::shared_ptr<const OverlayCurves> overlayCurves(const hdf5::RunFile& run,
                                                   int columns = kOverlayColumns);

/// The one legend entry of an overlay's dashed curves: "dashed: overlay (LABEL)".
QString overlayLegend(const OverlayCurves& overlay);

}  // namespace ricochet::app
