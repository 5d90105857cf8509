#pragma once
// The last scenario run for each system, kept in the application's settings so the next launch
// (or a switch back to the system) starts where the user left it.
//
// Layout: "run/system" names the last system; "scenarios/<id>/parameters/<name>",
// ".../initial/<name>", ".../integrator", ".../h", ".../tolerance" and ".../t_end" hold its
// scenario, numbers as shortest round-trip text so a restored scenario is bit-identical.

#include "core/model/system.hpp"

class QSettings;

namespace ricochet::app {

/// The scenario stored for `system`, read by value names (a renamed or added parameter falls back
/// to its default); the paper's defaults when nothing is stored or the stored one is invalid.
Scenario readStoredScenario(QSettings& settings, const SystemDescription& system);

/// Stores `scenario` as its system's last one, and its system as the last one used.
void storeScenario(QSettings& settings, const Scenario& scenario);

}  // namespace ricochet::app
