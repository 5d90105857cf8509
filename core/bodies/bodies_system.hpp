#pragma once
// The `bodies` system: a world of rigid bodies that hit each other and fixed planes (and fixed
// bodies), from the scenario's "bodies" list (docs/multibody.md; README "Several bodies").
//
// A scenario is built once into a WorldSetup: every body (shape, mass properties, hull), the
// planes, the initial state; the simulation, the scene and every writer use that one model.

#include "core/bodies/stepper.hpp"
#include "core/model/system.hpp"
#include "core/se3/rigid_body.hpp"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ricochet::bodies {

/// A scenario's world, built once.
struct WorldSetup {
  std::shared_ptr<WorldModel> model;
  WorldState initial;
  std::vector<se3::BuiltBody> built;  ///< per body: geometry as drawn, mass properties
  double h = 0.01;
  std::string error;  ///< empty when valid; otherwise one line naming the offending value
};

/// The registered description (one instance for the program's lifetime).
const SystemDescription& bodiesSystem();

/// The bodies' names by index (ImpactRecord::bodyA and bodyB) when `simulation` is a world of
/// several bodies (they name its impacts "A|B" and "A|PLANE"); empty for every other system.
std::span<const std::string> bodyNamesOf(const Simulation& simulation);

/// Builds the world of a `bodies` scenario with every check of the system (names, masses,
/// fixed bodies at rest, overlaps at the start: the pair and the depth).
WorldSetup makeWorldSetup(const Scenario& scenario);

/// The scene of a built world (bodies in order, the ground, the walls).
SceneSpec sceneOf(const WorldSetup& setup, const BodyScenario& description);

/// The constraint names of a world of planes (ground, box walls, listed walls) and bodies:
/// "plane", "box.-x", ..., "wall32", "body" (the last for every body-body contact).
const std::vector<std::string>& worldConstraintNames();

/// Index of "body" in worldConstraintNames().
int bodyPairConstraint();

/// The planes of a world: the ground (unless `ground` is false; normal from `tilt`, rad) and
/// the walls of `world` (named and indexed as worldConstraintNames()). Empty string on success.
std::string planesOf(const WorldSpec& world, bool ground, double tilt, std::vector<Plane>& out);

}  // namespace ricochet::bodies
