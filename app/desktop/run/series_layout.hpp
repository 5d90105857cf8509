#pragma once
// The plotted series of a run and where each value comes from, in order: the energy split, the
// extra energies (e.*), the energy error (signed, and its magnitude for the log view), the
// momentum-like quantities (mom.*), then every other trace column, so that any of them can be
// plotted from the start of the run. RunInfo::series lists them; the worker feeds one value per
// series to the decimator and the row buffers at every step.

#include "app/desktop/run/run_data.hpp"
#include "core/model/system.hpp"

#include <span>
#include <string>
#include <vector>

namespace ricochet::app {

class SeriesLayout {
 public:
  SeriesLayout() = default;
  /// The series of a simulation with these trace columns (Simulation::columns()).
  explicit SeriesLayout(std::span<const std::string> columns);

  const std::vector<SeriesInfo>& series() const { return series_; }
  std::size_t size() const { return series_.size(); }

  /// One value per series for a state: its `energy`, its energy `error` and its trace row
  /// (`columns`, Simulation::sample()). `out.size() == size()`.
  void values(const EnergySplit& energy, double error, std::span<const double> columns,
              std::span<double> out) const;

 private:
  std::vector<SeriesInfo> series_;
  std::vector<int> source_;  // the trace column feeding each series, or a Computed value (< 0)
};

}  // namespace ricochet::app
