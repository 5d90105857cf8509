#include "core/model/registry.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ricochet {

// Each system family appends its systems, in the published order (`ricochet-cli list`). Explicit calls
// (not self-registering statics) so nothing is dead-stripped from the static library.
void appendPlanarSystems(std::vector<const SystemDescription*>& out);        // core/planar
void appendNonholonomicSystems(std::vector<const SystemDescription*>& out);  // core/nonholonomic
void appendSe3Systems(std::vector<const SystemDescription*>& out);           // core/se3
void appendBodiesSystems(std::vector<const SystemDescription*>& out);        // core/bodies

namespace {

/// What is wrong with a system's description as code (empty when nothing): the names its code
/// reads against its spec lists, and a factory for every integrator it offers.
std::string descriptionError(const SystemDescription& system) {
  const SystemInfo& info = system.info();
  if (std::string e = compareNames(info.parameters, system.parameterNames()); !e.empty()) {
    return "parameters: " + e;
  }
  if (std::string e = compareNames(info.initial, system.initialNames()); !e.empty()) {
    return "initial conditions: " + e;
  }
  if (info.integrators.empty()) return "no integrator";
  for (const IntegratorInfo& i : info.integrators) {
    if (!i.create) return "integrator '" + i.name + "' has no factory";
  }
  return {};
}

}  // namespace

const std::vector<const SystemDescription*>& systems() {
  static const std::vector<const SystemDescription*> all = [] {
    std::vector<const SystemDescription*> v;
    appendPlanarSystems(v);        // particle-floor, star-floor, ellipse-floor
    appendNonholonomicSystems(v);  // pendulum-cylinder, disk-wall, disk-table
    appendSe3Systems(v);           // ellipsoid-plane, ellipsoid-tilted, ellipsoids-union, cube-plane
    appendBodiesSystems(v);        // bodies
    // Registration checks the code against its description; a mismatch is a programming error
    // that every test and every start of the program reports at once.
    for (const SystemDescription* s : v) {
      if (std::string e = descriptionError(*s); !e.empty()) {
        std::fprintf(stderr, "ricochet: system '%s' is described inconsistently: %s\n",
                     s->info().id.c_str(), e.c_str());
        std::abort();
      }
    }
    return v;
  }();
  return all;
}

CreateResult SystemDescription::create(const Scenario& scenario) const {
  for (const IntegratorInfo& i : info().integrators) {
    if (i.name == scenario.integrator.name) return i.create(scenario);
  }
  return {nullptr, "unknown integrator '" + scenario.integrator.name + "' for " + info().id};
}

const SystemDescription* findSystem(std::string_view id) {
  for (const SystemDescription* s : systems()) {
    if (s->info().id == id) return s;
  }
  return nullptr;
}

Scenario defaultScenario(const SystemDescription& system) {
  const SystemInfo& info = system.info();
  Scenario s;
  s.system = info.id;
  s.parameters = defaultValues(info.parameters);
  s.initial = defaultValues(info.initial);
  s.integrator.name = info.integrators.empty() ? std::string() : info.integrators.front().name;
  s.integrator.h = info.defaultH;
  s.integrator.tolerance = info.defaultTolerance;
  s.tEnd = info.defaultTEnd;
  s.body = info.defaultBody;
  return s;
}

std::string validateScenario(const Scenario& scenario) {
  const SystemDescription* system = findSystem(scenario.system);
  if (!system) return "unknown system '" + scenario.system + "' (try `ricochet-cli list`)";
  const SystemInfo& info = system->info();
  if (scenario.parameters.size() != info.parameters.size()) {
    return "scenario for '" + info.id + "' has " + std::to_string(scenario.parameters.size()) +
           " parameters, expected " + std::to_string(info.parameters.size());
  }
  if (scenario.initial.size() != info.initial.size()) {
    return "scenario for '" + info.id + "' has " + std::to_string(scenario.initial.size()) +
           " initial conditions, expected " + std::to_string(info.initial.size());
  }
  for (std::size_t i = 0; i < info.parameters.size(); ++i) {
    std::string e = checkValue(info.parameters[i], scenario.parameters[i], "parameter");
    if (!e.empty()) return e;
  }
  for (std::size_t i = 0; i < info.initial.size(); ++i) {
    std::string e = checkValue(info.initial[i], scenario.initial[i], "initial condition");
    if (!e.empty()) return e;
  }
  if (info.defaultBody && !scenario.body) return "scenario for '" + info.id + "' has no body";
  if (!info.defaultBody && scenario.body) {
    return "'" + info.id + "' takes no body (a \"body\" is for rigid-body)";
  }
  const IntegratorSettings& in = scenario.integrator;
  if (!std::isfinite(in.h) || !(in.h > 0.0)) {
    return "time step h = " + formatNumber(in.h) + " is invalid: must be a finite number > 0 s";
  }
  if (!std::isfinite(in.tolerance) || !(in.tolerance > 0.0) || !(in.tolerance < 1.0)) {
    return "tolerance = " + formatNumber(in.tolerance) + " is invalid: must be in (0, 1)";
  }
  if (!std::isfinite(scenario.tEnd) || !(scenario.tEnd > 0.0)) {
    return "t_end = " + formatNumber(scenario.tEnd) + " is invalid: must be a finite number > 0 s";
  }
  bool known = false;
  std::string names;
  for (const IntegratorInfo& ii : info.integrators) {
    known = known || ii.name == in.name;
    names += (names.empty() ? "" : ", ") + ii.name;
  }
  if (!known) {
    return "unknown integrator '" + in.name + "' for " + info.id + " (available: " + names + ")";
  }
  return {};
}

CreateResult createSimulation(const Scenario& scenario) {
  std::string error = validateScenario(scenario);
  if (!error.empty()) return CreateResult{nullptr, std::move(error)};
  return findSystem(scenario.system)->create(scenario);
}

const char* toString(RunStatus status) {
  switch (status) {
    case RunStatus::Ok: return "ok";
    case RunStatus::SolverFailed: return "solver-failed";
    case RunStatus::Zeno: return "zeno";
    case RunStatus::NonFinite: return "non-finite";
  }
  return "unknown";
}

std::string failureText(std::int64_t step, double t, const std::string& what) {
  char where[96];
  std::snprintf(where, sizeof where, "integrator failed at step %lld (t = %.10g s): ",
                static_cast<long long>(step), t);
  return where + what;
}

std::string failureText(const Simulation& sim, const AdvanceResult& result) {
  return failureText(sim.step() + 1, sim.time(),
                     result.message.empty() ? std::string(toString(result.status)) : result.message);
}

}  // namespace ricochet
