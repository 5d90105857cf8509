#pragma once
// Newton's restitution law, frictionless, in generalized coordinates (docs/restitution.md): the
// one formula for the jump at a contact and the energy it takes, the rule that decides when
// bounces fall below the step's resolution and a contact settles, and the jump at a contact while
// others are held. Every engine uses these; none writes its own.
//
// Conventions. A contact is a gap g(q) >= 0 whose gradient n = grad g points into the admissible
// set. W is the inverse inertia acting on momenta: W = M^-1, or, for velocity constraints
// A v = 0, W = M^-1 - M^-1 A^T (A M^-1 A^T)^-1 A M^-1 = X G^-1 X^T (X a basis of the allowed
// velocities, G = X^T M X), so that a jump along W n keeps the constraints. With the incoming
// momentum p-:
//   u- = n^T W p-              the normal rate dg/dt (m/s for a distance gap), < 0 approaching
//   k  = n^T W n = 1/m_eff     the inverse effective mass of the contact
//   mu = -(1 + e) u- / k       the impulse, p+ = p- + mu n (frictionless: along n)
//   u+ = n^T W p+ = -e u-
//   E+ = E- - (1/2) (1 - e^2) u-^2 / k   (the momentum tangent to the contact is unchanged).
// e = 1 is the exact reflection (the grazing rule of the energy-balanced integrators,
// core/numerics/grazing.hpp, uses it); e = 0 is the projection onto the contact's tangent space
// (what settling a contact does).
// The scaling of g does not matter: u and mu scale with it, m_eff u^2 (an energy) does not.

#include <Eigen/Core>
#include <Eigen/LU>

#include <cmath>

namespace ricochet::impact {

/// Newton's impulse along n: mu = -(1 + e) u- / k (see the file comment). `rate` = u-, `k` =
/// n^T W n > 0, `e` in [0, 1]. For e = 1 this is the reflection -2 u- / k, bit for bit.
inline double restitutionImpulse(double rate, double k, double e) {
  return -(1.0 + e) * rate / k;
}

/// Kinetic energy the jump of restitutionImpulse takes, (1/2) (1 - e^2) u-^2 / k, J (>= 0).
inline double restitutionEnergyLoss(double rate, double k, double e) {
  return 0.5 * (1.0 - e * e) * rate * rate / k;
}

/// The settling rule (docs/restitution.md, "Settling"): a rebound at normal rate u+ >= 0 under
/// the normal acceleration a_n that pushes the contact closed (a_n = -d2g/dt2 of the free motion,
/// > 0) is back in contact after 2 u+ / a_n. When that flight is no longer than one step h (s),
/// the bounces are below the step's resolution (with e < 1 the next ones are shorter still and
/// accumulate within h / (1 - e)): the contact settles instead. Never when a_n <= 0 (the contact
/// opens by itself).
inline bool bounceBelowResolution(double reboundRate, double normalAcceleration, double h) {
  return normalAcceleration > 0.0 && 2.0 * reboundRate <= normalAcceleration * h;
}

/// At most this many contacts take part in one simultaneous jump (a planar body on a floor holds
/// at most two tips, plus the one that lands).
inline constexpr int kMaxSimultaneousContacts = 4;
using ContactMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0,
                                    kMaxSimultaneousContacts, kMaxSimultaneousContacts>;
using ContactVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxSimultaneousContacts, 1>;

/// Newton's law at several contacts at once, frictionless: impulses P >= 0 along the contact
/// gradients with post-impact rates u+ = u- + K P, K = N^T W N (the contacts' inverse inertia,
/// the Delassus matrix) and u- = N^T W p-, such that for every contact i
///   u+_i >= -e_i min(u-_i, 0),   P_i >= 0,   P_i (u+_i + e_i min(u-_i, 0)) = 0.
/// A single approaching contact gets restitutionImpulse's jump; a held contact (u- = 0, e = 0)
/// takes the impulse it needs to stay closed while it pushes, and lifts off (P = 0, u+ > 0) when
/// the impact would have to pull it. Solved exactly by trying the active sets (2^count <= 16),
/// smallest first. Allocation-free. Returns false when no active set solves it (K singular).
/// `tolerance` (rate units) absorbs round-off in the sign tests.
inline bool simultaneousImpulses(const ContactMatrix& K, const ContactVector& u,
                                 const ContactVector& e, double tolerance, ContactVector& P) {
  const int count = static_cast<int>(u.size());
  ContactVector target(count);  // u+ wanted at an active contact: -e min(u-, 0)
  for (int i = 0; i < count; ++i) target[i] = -e[i] * std::fmin(u[i], 0.0);
  // Active sets by increasing size, so that a contact takes an impulse only when it must.
  for (int size = 0; size <= count; ++size) {
    for (unsigned set = 0; set < (1u << count); ++set) {
      if (__builtin_popcount(set) != size) continue;
      int idx[kMaxSimultaneousContacts];
      int n = 0;
      for (int i = 0; i < count; ++i) {
        if (set & (1u << i)) idx[n++] = i;
      }
      ContactVector x = ContactVector::Zero(count);
      if (n > 0) {
        ContactMatrix A(n, n);
        ContactVector b(n);
        for (int r = 0; r < n; ++r) {
          b[r] = target[idx[r]] - u[idx[r]];
          for (int c = 0; c < n; ++c) A(r, c) = K(idx[r], idx[c]);
        }
        const Eigen::PartialPivLU<ContactMatrix> lu(A);
        if (!(std::fabs(lu.determinant()) > 0.0)) continue;
        const ContactVector y = lu.solve(b);
        if (!y.allFinite()) continue;
        bool pushes = true;
        for (int r = 0; r < n; ++r) {
          if (y[r] < 0.0) pushes = false;
          x[idx[r]] = y[r];
        }
        if (!pushes) continue;
      }
      const ContactVector after = u + K * x;
      bool admissible = true;
      for (int i = 0; i < count; ++i) {
        if (!(set & (1u << i)) && after[i] < target[i] - tolerance) admissible = false;
      }
      if (admissible) {
        P = x;
        return true;
      }
    }
  }
  return false;
}

}  // namespace ricochet::impact
