#pragma once
// From what a plot panel shows (its kind and quantities) and a snapshot of the run to the chart
// drawn (PlotChart): series with their pens, the time window, the value range by the
// minimum-span rule, deviations from the initial value, impact lines, and coinciding series
// (drawn dashed over each other, one legend entry "a = b"), and an overlaid run's curves (dashed,
// in the colour of the quantity they repeat, legend "NAME (overlay: integrator, h)").

#include "app/desktop/plots/overlay_curves.hpp"
#include "app/desktop/plots/plot_figure.hpp"
#include "app/desktop/run/run_data.hpp"

#include <QStringList>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ricochet::app {

enum class PanelKind { Time, Phase, ImpactMap };

/// What one panel shows.
struct PanelChoice {
  PanelKind kind = PanelKind::Time;
  int role = -1;          ///< 0 energy, 1 energy error, 2 momenta (the default panels); -1 other
  QStringList columns;    ///< Time: quantities; Phase, ImpactMap: x then y
  bool deviation = false;
};

/// The run and its latest data as the charts need them.
struct ChartContext {
  std::vector<QString> names;  ///< series names (RunInfo::series order)
  std::vector<SeriesInfo::Group> groups;
  std::vector<std::string> constraints;
  int absErrorSeries = -1;
  bool relativeError = true;
  bool logError = false;
  double h = 0.01;
  SnapshotPtr snapshot;   ///< null before the first
  std::optional<std::pair<double, double>> window;  ///< the zoomed time range
  int columns = 800;      ///< plot width, px (impact lines thin out beyond one in eight)
  /// A second run drawn dashed in the time panels, up to the shown run's latest time; null: none.
  std::shared_ptr<const OverlayCurves> overlay;

  int indexOf(const QString& name) const;
  /// The value of series `k` at the start of the run (NaN when unknown).
  double initial(int k) const;
  /// The full time range of the data.
  std::pair<double, double> fullRange() const;
};

/// The chart of `choice` for `context`.
PlotChart buildChart(const PanelChoice& choice, const ChartContext& context);

/// "1st", "2nd", "3rd", "4th", "11th", "22nd", ... (the phase portrait's "every 2nd step").
QString ordinal(std::int64_t n);

/// The quantities a new panel of `kind` starts with for the run of `context`.
QStringList defaultColumns(PanelKind kind, const ChartContext& context);

/// "Impact 3 at t = ... s" and the rest of its impacts-CSV row, for the read-out.
QString impactDescription(const ImpactRow& impact, const ChartContext& context);

}  // namespace ricochet::app
