#pragma once
// The registry of example systems, keyed by the contract's system ids, and the checked entry
// point that turns a Scenario into a running Simulation.

#include "core/model/system.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace ricochet {

/// All systems, in the published order (the order `ricochet-cli list` prints).
const std::vector<const SystemDescription*>& systems();

/// The system with this id, or nullptr.
const SystemDescription* findSystem(std::string_view id);

/// The paper's defaults for a system: parameters, initial conditions, default integrator, h,
/// tolerance and t_end from its SystemInfo.
Scenario defaultScenario(const SystemDescription& system);

/// Generic checks shared by every system: known id, vector sizes, finite values inside their
/// ranges, h > 0, tolerance > 0, t_end > 0, known integrator. Empty when valid, otherwise one line
/// naming the offending value.
std::string validateScenario(const Scenario& scenario);

/// validateScenario() followed by the system's own create().
CreateResult createSimulation(const Scenario& scenario);

}  // namespace ricochet
