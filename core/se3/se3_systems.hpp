#pragma once
// The four SE(3) example systems of paper 003 §7 (ellipsoid-plane, ellipsoid-tilted,
// ellipsoids-union, cube-plane) as data for the LGVCI, plus the Simulation that runs them.
// Exposed so tests and benchmarks can drive the stepper on exactly the registry's models.

#include "core/model/system.hpp"
#include "core/se3/lgvci.hpp"

#include <memory>
#include <string>

namespace ricochet::se3 {

/// A validated model and initial state for one run.
struct Setup {
  RigidBodyModel model;
  RigidBodyState initial;
  double h = 0.01;    ///< s
  std::string error;  ///< empty when valid; otherwise one line naming the offending value
};

/// Builds model (mass, inertia, plane, shape, eps_tol = scenario tolerance) and initial state
/// (x0, gamma0 = m v0, Pi0, R0 = exp(hat(r0))) for one of the four SE(3) systems. Expects a
/// scenario that passed validateScenario(); checks the system-specific conditions (physical
/// inertia, initial state admissible: Phi > 0, rotation per step small enough).
Setup makeSetup(const Scenario& scenario);

/// The Simulation for a valid setup (what SystemDescription::create returns). Tests use it to run
/// modified models (e.g. a smaller Zeno cap).
std::unique_ptr<Simulation> makeSimulation(const Setup& setup);

}  // namespace ricochet::se3
