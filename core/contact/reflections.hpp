#pragma once
// The impact law for contacts that close at the same instant: generalized reflections
// (Smith, Kaufman, Vouga, Tamstorf, Grinspun, "Reflections on simultaneous impact", SIGGRAPH
// 2012), explained in docs/multibody.md, "Simultaneous impacts".
//
// Each pass takes the contacts that approach (relative normal velocity u_k < -v_tol, v_tol =
// 1e-12 times the pass's fastest approach), finds the inelastic impulses lambda >= 0 of those
// contacts together (the M-orthogonal projection of the velocity onto {u_k >= 0}: a small linear
// complementarity problem w = D lambda + u >= 0, lambda >= 0, lambda.w = 0, D the Delassus matrix
// of the contacts) and applies (1 + e_k) lambda_k at contact k. For e = 1 a pass is a reflection,
// so it conserves the kinetic energy exactly; it conserves linear and angular momentum for any
// e (equal and opposite impulses at one point). Passes repeat until no contact approaches. The
// velocity after a pass is unique even when lambda is not (a flat face on a plane: four contacts,
// three directions), so the outcome does not depend on the order of the bodies or contacts.
//
// Bodies carry momenta (gamma = m v, world; Pi = J Omega, body frame) as the LGVCI does; an
// impulse P n at the world point x + r changes gamma by P n and Pi by P chi, chi = R^T (r x n)
// (for a plane this is the LGVCI's chi = rho_C x R^T n). A body with infinite mass (a fixed body
// or a plane) is index -1.
//
// Allocation-free once the workspace has the capacity for the island (reserve()).

#include "core/contact/lcp.hpp"
#include "core/se3/so3.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ricochet::contact {

using se3::Mat3;
using se3::Vec3;

/// A body of an impact island.
struct ImpactBody {
  double m = 1.0;                 ///< mass, kg
  Mat3 Jinv = Mat3::Identity();   ///< body-frame inverse inertia, 1/(kg m^2)
  Vec3 gamma = Vec3::Zero();      ///< linear momentum, world, kg m/s (updated)
  Vec3 Pi = Vec3::Zero();         ///< body angular momentum, kg m^2/s (updated)
};

/// One contact point of the island.
struct ImpactContact {
  int a = 0;                   ///< island body on the +n side
  int b = -1;                  ///< island body on the -n side; -1: a plane or a fixed body
  Vec3 n = Vec3::UnitZ();      ///< unit normal from B to A, world
  Vec3 chiA = Vec3::Zero();    ///< R_a^T (r_a x n), m
  Vec3 chiB = Vec3::Zero();    ///< R_b^T (r_b x n), m
  double e = 1.0;              ///< coefficient of restitution, [0, 1]
  /// Round-off of u (m/s): an approach slower than this is not one (two bodies falling side by
  /// side compute their velocities with different roundings). See noiseFloor().
  double uNoise = 0.0;
  double impulse = 0.0;        ///< total impulse applied, kg m/s (output, >= 0)
  double uBefore = 0.0;        ///< relative normal velocity before the first pass, m/s (output)
  double uAfter = 0.0;         ///< after the last pass, m/s (output)
};

enum class ImpactLaw : std::uint8_t {
  GeneralizedReflections,  ///< every approaching contact of a pass at once (the default)
  Sequential,              ///< one contact per pass, the fastest approaching (a named alternative)
};

struct ImpactOutcome {
  bool ok = true;
  int passes = 0;         ///< passes that applied impulses
  const char* what = "";  ///< why it failed (static text)
  double energyLost = 0.0;  ///< kinetic energy before minus after, J (0 up to round-off for e = 1)
};

/// Scratch for resolveImpacts(): sized for `contacts` contacts (grows when an island is larger).
class ImpactWorkspace {
 public:
  void reserve(int contacts);
  int capacity() const { return capacity_; }

 private:
  friend ImpactOutcome resolveImpacts(std::span<ImpactBody>, std::span<ImpactContact>,
                                      ImpactWorkspace&, ImpactLaw, int);
  int capacity_ = 0;
  std::vector<double> u;   // normal velocities of the pass
  std::vector<int> active;  // the approaching contacts of the pass
  LcpSolver lcp;
};

/// The round-off of a relative normal velocity between bodies moving at these point speeds
/// (|v| + |Omega| |r| of each, m/s): a few ulps of the larger, m/s.
inline double noiseFloor(double speedA, double speedB) {
  return 64.0 * 2.220446049250313e-16 * (speedA + speedB);
}

/// Relative normal velocity of contact c, m/s (negative: approaching).
double normalVelocity(std::span<const ImpactBody> bodies, const ImpactContact& c);

/// Kinetic energy of the island, J.
double kineticEnergy(std::span<const ImpactBody> bodies);

/// Resolves the island: updates the bodies' momenta and each contact's impulse. Fails (ok =
/// false, momenta as after the last pass) after maxPasses passes without an end.
ImpactOutcome resolveImpacts(std::span<ImpactBody> bodies, std::span<ImpactContact> contacts,
                             ImpactWorkspace& work, ImpactLaw law = ImpactLaw::GeneralizedReflections,
                             int maxPasses = 10000);

}  // namespace ricochet::contact
