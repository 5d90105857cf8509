#pragma once
// The four SE(3) example systems of paper 003 §7 (ellipsoid-plane, ellipsoid-tilted,
// ellipsoids-union, cube-plane) as data for the LGVCI, plus the Simulation that runs them.
// Exposed so tests and benchmarks can drive the stepper on exactly the registry's models.

#include "core/bodies/world.hpp"
#include "core/model/system.hpp"
#include "core/se3/lgvci.hpp"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ricochet::se3 {

/// A validated model and initial state for one run.
struct Setup {
  RigidBodyModel model;
  RigidBodyState initial;
  double h = 0.01;    ///< s
  std::string error;  ///< empty when valid; otherwise one line naming the offending value
  /// Adds the trace column mom.Lz, the angular momentum about the world z axis,
  /// (x x gamma + R Pi).e3 (rigid-body: conserved while every plane is horizontal).
  bool verticalAngularMomentum = false;
};

/// Builds model (mass, inertia, plane, shape, eps_tol = scenario tolerance) and initial state
/// (x0, gamma0 = m v0, Pi0, R0 = exp(hat(r0))) for one of the four SE(3) systems. Expects a
/// scenario that passed validateScenario(); checks the system-specific conditions (physical
/// inertia, initial state admissible: Phi > 0, rotation per step small enough).
Setup makeSetup(const Scenario& scenario);

/// The world of one body over the setup's planes (the ground, walls): what the many-body engine
/// (core/bodies) runs for every SE(3) system of one body. Its body is index 0, its planes are the
/// ground (0) and the walls in order, each with the constraint index of the setup.
std::shared_ptr<bodies::WorldModel> oneBodyWorld(const RigidBodyModel& model);

/// The Simulation for a valid setup (what SystemDescription::create returns). Tests use it to run
/// modified models (e.g. a smaller Zeno cap).
std::unique_ptr<Simulation> makeSimulation(const Setup& setup);

// What every SE(3) system shares (the four cases above and rigid-body).

/// The initial conditions x0, y0, z0, vx0, vy0, vz0, Pi1_0, Pi2_0, Pi3_0, rx0, ry0, rz0 with
/// paper 003's values, in that order.
std::vector<ParameterSpec> initialConditionSpecs();
/// The LGVCI's integrators ("variational", "variational-bisection"), each building its runs
/// with `create`.
std::vector<IntegratorInfo> lgvciIntegrators(std::function<CreateResult(const Scenario&)> create);
/// Sets the model's tolerance and impact-time solver from the scenario's integrator settings.
void applyIntegratorSettings(const Scenario& scenario, RigidBodyModel& model);
/// The initial state from the 12 initial conditions (initialConditionSpecs() order) for mass m:
/// x0, gamma0 = m v0, Pi0 and R0 = exp(hat(r0)).
RigidBodyState initialStateOf(std::span<const double> initial, double m);
/// Empty when the run can start: every plane's gap > 0 at the initial state (named by
/// `gapName(j)`, the model's plane j) and at most 1 rad of rotation per step h.
std::string checkInitialState(const RigidBodyModel& model, const RigidBodyState& s, double h,
                              const std::function<std::string(int)>& gapName);

}  // namespace ricochet::se3
