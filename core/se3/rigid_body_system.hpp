#pragma once
// The `rigid-body` system: the LGVCI with the body and the world of the scenario (its "body" and
// "world" objects). See rigid_body.hpp for how a body is built and README "Your own body".

#include "core/se3/rigid_body.hpp"
#include "core/se3/se3_systems.hpp"

namespace ricochet::se3 {

/// The registered description (one instance for the program's lifetime).
const SystemDescription& rigidBodySystem();

/// The body of a rigid-body scenario as it runs: buildBody() with the parameters `epsilon` (the
/// rounding of parts without their own) and `m` (the mass unless the body gives a density). A
/// scenario without a body gives an error.
BuiltBody buildScenarioBody(const Scenario& scenario);

/// Model (mass, inertia and shape from the built body, ground normal from `tilt`, the world's
/// walls) and initial state of a rigid-body scenario, with the checks of makeSetup() plus the
/// body's own (a flat mesh, a non-positive mass ...) and every wall's gap.
Setup makeRigidBodySetup(const Scenario& scenario);

/// The integrators' factory: makeRigidBodySetup() then the simulation.
CreateResult createRigidBody(const Scenario& scenario);

}  // namespace ricochet::se3
