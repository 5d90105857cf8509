#include "core/bodies/world.hpp"

#include <algorithm>
#include <cmath>

namespace ricochet::bodies {

double restitutionOf(const WorldModel& w, std::int64_t a, std::int64_t b) {
  if (w.pairRestitution.empty()) return w.restitution;
  const std::uint64_t key = pairKey(a, b);
  const auto it = std::lower_bound(
      w.pairRestitution.begin(), w.pairRestitution.end(), key,
      [](const std::pair<std::uint64_t, double>& p, std::uint64_t k) { return p.first < k; });
  return it != w.pairRestitution.end() && it->first == key ? it->second : w.restitution;
}

void finishBody(Body& b) {
  if (b.fixed) {
    b.Jinv.setZero();
    b.isotropic = false;
    return;
  }
  // Isotropic to a few ulps (a sphere, a cube from its exact moments): use J = j I exactly, so
  // the rotation has its closed form and Pi stays constant bit for bit.
  const double j = b.J.trace() / 3.0;
  const double tol = 64.0 * std::numeric_limits<double>::epsilon() * j;
  b.isotropic = (b.J - j * Mat3::Identity()).cwiseAbs().maxCoeff() <= tol;
  if (b.isotropic) {
    b.j = j;
    b.J = j * Mat3::Identity();
    b.Jinv = (1.0 / j) * Mat3::Identity();
  } else {
    b.Jinv = b.J.inverse();
  }
}

namespace {

/// One variational step of length tau with the rotation solved once. False if SolveF failed or
/// the rotation left the Cayley map's useful range.
bool oneStep(const WorldModel& w, const Body& b, const BodyState& s, double tau, BodyState& out,
             int& iterations) {
  const double gt = w.g * tau;
  // One rounding per step on a varying increment: x + (tau gamma/m) - (g tau^2/2) e3 rounded
  // twice subtracts the same constant from z every step, and that rounding has a fixed sign
  // while z stays in one binade: a steady loss of potential energy (about 1e-16 m g per step).
  Vec3 dx = (tau / b.m) * s.gamma;
  dx.z() -= 0.5 * gt * tau;
  out.x = s.x + dx;
  out.gamma = s.gamma;
  out.gamma.z() -= b.m * gt;
  const Vec3 mu = tau * s.Pi;
  if (b.isotropic) {
    // vee(F J_d - J_d F^T) = mu with J = j I: f parallel to mu, f = mu / (j + sqrt(j^2 - |mu|^2))
    // (the small root of 1 - 2 j c + c^2 |mu|^2 = 0 for f = c mu); F^T Pi = Pi.
    const double m2 = mu.squaredNorm();
    const double disc = b.j * b.j - m2;
    if (!(disc > 0.0)) return false;
    const Vec3 f = mu / (b.j + std::sqrt(disc));
    if (!(f.squaredNorm() <= 1.0)) return false;
    out.R = s.R * se3::cayley(f);
    out.Pi = s.Pi;
    return true;
  }
  const se3::SolveFResult f =
      se3::solveFCayley(b.J, b.Jinv, mu, w.tolerance, w.maxNewtonIterations);
  iterations += f.iterations;
  if (!f.converged || !(f.f.squaredNorm() <= 1.0)) return false;
  out.R = s.R * f.F;
  out.Pi = f.F.transpose() * s.Pi;
  return true;
}

}  // namespace

FlowResult flowBody(const WorldModel& w, const Body& b, const BodyState& s, double tau,
                    BodyState& out) {
  FlowResult r;
  if (b.fixed) {
    out = s;
    return r;
  }
  // Sub-steps: the smallest power of two that keeps each piece's turn within the limit.
  const double turn = std::fabs(tau) * (b.Jinv * s.Pi).norm();
  int pieces = 1;
  while (turn > kMaxTurnPerSubStep * pieces && pieces < kMaxFlowPieces) pieces *= 2;
  for (;;) {
    bool ok = true;
    if (pieces == 1) {
      ok = oneStep(w, b, s, tau, out, r.iterations);
    } else {
      const double piece = tau / pieces;
      BodyState a = s;
      for (int k = 0; k < pieces && ok; ++k) {
        ok = oneStep(w, b, a, piece, out, r.iterations);
        a = out;
      }
    }
    if (ok) break;
    if (pieces >= kMaxFlowPieces || !s.Pi.allFinite() || !std::isfinite(tau)) {
      r.ok = false;
      break;
    }
    pieces *= 2;
  }
  r.pieces = pieces;
  return r;
}

}  // namespace ricochet::bodies
