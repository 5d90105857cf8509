#pragma once
// Helpers shared by the core test suites that drive systems through the registry's Simulation.

#include "core/model/system.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace ricochet::testing {

/// Keeps every impact record a Simulation reports (allocates: not for the no-allocation tests).
struct ImpactLog final : ImpactSink {
  std::vector<ImpactRecord> impacts;
  void onImpact(const ImpactRecord& r) override { impacts.push_back(r); }
};

/// Index of the trace column `name` in sim.columns(), or columns().size() when absent.
inline std::size_t columnIndex(const Simulation& sim, const std::string& name) {
  const auto cols = sim.columns();
  return static_cast<std::size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin());
}

}  // namespace ricochet::testing
