#pragma once
// A world of rigid bodies on SE(3) among fixed planes (docs/multibody.md): the constant model
// every run of the `bodies` engine shares (Pinocchio's Model), and the flow of one body between
// impacts (the Lie group variational integrator of Tran and Leok, with the closed-form rotation
// for isotropic bodies and sub-stepping when a body spins too fast for one Cayley step).
//
// State of a body: as the one-body LGVCI, (x, R, gamma, Pi): centre of mass (world, m), attitude
// (body -> world), linear momentum (world, kg m/s), body angular momentum (kg m^2/s). Gravity acts
// along -z. A fixed body never moves: it has no mass, its state is its pose.

#include "core/contact/part_gap.hpp"
#include "core/contact/reflections.hpp"
#include "core/se3/lgvci.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ricochet::bodies {

using se3::Mat3;
using se3::Vec3;
using BodyState = se3::RigidBodyState;

/// One body of the world.
struct Body {
  std::string name;
  bool fixed = false;
  double m = 1.0;                ///< kg (fixed: unused)
  Mat3 J = Mat3::Identity();     ///< inertia about the centre of mass, body frame, kg m^2
  Mat3 Jinv = Mat3::Identity();  ///< its inverse (fixed: zero)
  /// J = j I exactly (a sphere, a cube): the rotation has a closed form, and Pi is constant.
  bool isotropic = false;
  double j = 0.0;  ///< that j, kg m^2
  se3::BodyShape shape;                 ///< body frame, origin at the centre of mass
  std::vector<contact::PartInfo> parts; ///< contact::partsOf(shape)
  double reach = 0.0;  ///< largest distance of a body point from the centre of mass, m
};

/// A fixed plane {z : n.z = offset}; the bodies stay on the side n points to.
struct Plane {
  Vec3 n = Vec3::UnitZ();  ///< unit normal
  double offset = 0.0;     ///< n.z on the plane, m
  int gap = 0;             ///< its constraint index (SystemInfo::constraints)
  std::string name = "plane";
};

/// How impacts are resolved when several contacts close at once.
using contact::ImpactLaw;

struct WorldModel {
  std::vector<Body> bodies;
  std::vector<Plane> planes;
  double g = 9.80665;  ///< gravitational acceleration along -z, m/s^2
  /// Coefficient of restitution of every pair without its own (1: elastic).
  double restitution = 1.0;
  /// Pair coefficients: key pairKey(a, b) (a body index, or planeIndex() for a plane), sorted.
  std::vector<std::pair<std::uint64_t, double>> pairRestitution;
  ImpactLaw law = ImpactLaw::GeneralizedReflections;
  double tolerance = 1e-15;          ///< eps_tol: SolveF's Newton step, the impact bracket width
  int maxNewtonIterations = 50;      ///< SolveF's cap
  int maxRootIterations = 200;       ///< impact-time solver's cap per impact
  se3::ImpactTimeSolver impactTimeSolver = se3::ImpactTimeSolver::Brent;
  int maxImpactsPerBody = 100;       ///< Zeno guard: impacts of one body in one step
  double closedGap = 1e-12;          ///< a contact is closed (touching) at gaps below this, m
};

/// The restitution key of a pair: bodies by index, planes by planeIndex(k) (order-free).
inline std::int64_t planeIndex(int k) { return -1 - std::int64_t(k); }
inline std::uint64_t pairKey(std::int64_t a, std::int64_t b) {
  if (a > b) std::swap(a, b);
  return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint64_t(std::uint32_t(b));
}
/// Restitution of a pair (a body index or planeIndex() each).
double restitutionOf(const WorldModel& w, std::int64_t a, std::int64_t b);

/// Fills J's inverse and the isotropy flag of a body (call after setting J and m).
void finishBody(Body& b);

/// Rotation per step above which a flow is split into sub-steps (tau |Omega|, rad): the limit
/// the start-up check asks of the initial spin, well inside the Cayley map's range (half a turn).
inline constexpr double kMaxTurnPerSubStep = 1.0;
/// Most sub-steps one flow may take (2^10): beyond, the body spins out of any resolution.
inline constexpr int kMaxFlowPieces = 1024;

struct FlowResult {
  bool ok = true;
  int pieces = 1;        ///< variational sub-steps composed (1: the plain step)
  int iterations = 0;    ///< SolveF Newton iterations (0 for isotropic bodies)
};

/// F~[tau](s): the LGVI flow of one body over tau seconds, exact translation under gravity and
/// the Cayley rotation; isotropic bodies rotate in closed form. If the body turns more than
/// kMaxTurnPerSubStep in tau, the flow is the composition of equal variational sub-steps that
/// each turn less. Fixed bodies stay. Never allocates.
FlowResult flowBody(const WorldModel& w, const Body& b, const BodyState& s, double tau, BodyState& out);

/// Kinetic energy of a body, J.
inline double kineticEnergy(const Body& b, const BodyState& s) {
  if (b.fixed) return 0.0;
  return 0.5 * s.gamma.squaredNorm() / b.m + 0.5 * s.Pi.dot(b.Jinv * s.Pi);
}
/// Potential energy m g z, J.
inline double potentialEnergy(const WorldModel& w, const Body& b, const BodyState& s) {
  return b.fixed ? 0.0 : b.m * w.g * s.x.z();
}

}  // namespace ricochet::bodies
