#pragma once
// SolveF: the implicit SO(3) equation of the Lie group variational integrator
// (docs/se3-lgvci.md, "SolveF: the implicit rotation").
//
// Given mu = tau * Pi (kg m^2, body frame), find the relative rotation F in SO(3) near I with
//     vee(F J_d - J_d F^T) = mu,          J_d = 1/2 tr(J) I - J.
// Two parametrisations of F solve the same equation and return the same F:
//  * Cayley (the one the integrator uses): F = cay(f); the residual reduces to
//        G(f) = mu + mu x f + (f.mu) f - 2 J f,   grad G = hat(mu) + (f.mu) I + f mu^T - 2 J,
//    which involves only the standard J. Start f0 = J^-1 mu / 2.
//  * Exponential coordinates (Lee-Leok-McClamroch 2007 §3.4; used to cross-check, test U3):
//        G(f) = (sin p/p) J f + ((1 - cos p)/p^2) f x J f - mu,  p = |f|.  Start f0 = J^-1 mu.
// Newton with the analytic Jacobian; stops when |delta f|_inf < tolerance, gives up after
// maxIterations and says so in the result (no exceptions, no hang). A step can never certify f
// below its own round-off, so the test uses max(|delta f|_inf, eps |f|_inf): a tolerance under
// that floor (e.g. 1e-300) fails at the cap deterministically instead of "converging" whenever
// a step happens to round to exactly zero. At eps_tol = 1e-15 the floor only matters for
// |f| > 4.5, i.e. rotations above 150 degrees per step, which the integrator rejects anyway.

#include "core/se3/so3.hpp"

#include <algorithm>
#include <limits>

namespace ricochet::se3 {

/// Round-off floor of a Newton step on f (dimensionless): one machine epsilon relative to |f|_inf.
inline double newtonRoundOffFloor(const Vec3& f) {
  return std::numeric_limits<double>::epsilon() * f.cwiseAbs().maxCoeff();
}

struct SolveFResult {
  Mat3 F = Mat3::Identity();  ///< the relative rotation R_k^T R_{k+1}
  Vec3 f = Vec3::Zero();      ///< its Cayley vector or rotation vector (per parametrisation)
  int iterations = 0;         ///< Newton iterations taken
  double lastStep = 0.0;      ///< |delta f|_inf of the last iteration (dimensionless)
  bool converged = false;
};

/// Cayley residual G(f) and its Jacobian, exposed for finite-difference tests.
inline Vec3 cayleyResidual(const Mat3& J, const Vec3& mu, const Vec3& f) {
  return mu + mu.cross(f) + f.dot(mu) * f - 2.0 * (J * f);
}
inline Mat3 cayleyJacobian(const Mat3& J, const Vec3& mu, const Vec3& f) {
  Mat3 A = hat(mu) + f * mu.transpose() - 2.0 * J;
  A.diagonal().array() += f.dot(mu);
  return A;
}

/// SolveF by Newton on the Cayley vector. J: standard inertia (SPD), Jinv its inverse, mu = tau Pi.
/// Typically 3 iterations at tolerance 1e-15.
inline SolveFResult solveFCayley(const Mat3& J, const Mat3& Jinv, const Vec3& mu, double tolerance,
                                 int maxIterations = 50) {
  SolveFResult r;
  Vec3 f = 0.5 * (Jinv * mu);
  // The f-independent part B = hat(mu) - 2J of both: G = mu + B f + (f.mu) f,
  // grad G = B + f mu^T + (f.mu) I (the same G and grad G as above, fewer operations per iteration).
  const Mat3 B = hat(mu) - 2.0 * J;
  for (int it = 1; it <= maxIterations; ++it) {
    const double fm = f.dot(mu);
    Mat3 A = B + f * mu.transpose();
    A.diagonal().array() += fm;
    const Vec3 df = -solve3(A, mu + B * f + fm * f);
    f += df;
    r.iterations = it;
    r.lastStep = df.cwiseAbs().maxCoeff();
    if (std::max(r.lastStep, newtonRoundOffFloor(f)) < tolerance) {
      r.converged = true;
      break;
    }
  }
  r.f = f;
  r.F = cayley(f);
  return r;
}

/// Exponential-coordinates residual G(f) = a(p) J f + b(p) f x J f - mu.
inline Vec3 expResidual(const Mat3& J, const Vec3& mu, const Vec3& f) {
  double a, b;
  rodriguesCoefficients(f.norm(), a, b);
  const Vec3 Jf = J * f;
  return a * Jf + b * f.cross(Jf) - mu;
}

/// Its analytic Jacobian, with series for the derivative coefficients near p = 0:
/// (p cos p - sin p)/p^3 = -1/3 + p^2/30 - ...,  (p sin p - 2(1 - cos p))/p^4 = -1/12 + p^2/180 - ...
inline Mat3 expJacobian(const Mat3& J, const Vec3& f) {
  const double p = f.norm();
  double a, b, da, db;  // da = a'(p)/p, db = b'(p)/p
  rodriguesCoefficients(p, a, b);
  if (p < 1e-3) {
    const double p2 = p * p;
    da = -1.0 / 3.0 + p2 / 30.0;
    db = -1.0 / 12.0 + p2 / 180.0;
  } else {
    const double p2 = p * p;
    da = (p * std::cos(p) - std::sin(p)) / (p2 * p);
    db = (p * std::sin(p) - 4.0 * std::pow(std::sin(0.5 * p), 2)) / (p2 * p2);
  }
  const Vec3 Jf = J * f;
  return da * Jf * f.transpose() + a * J + db * f.cross(Jf) * f.transpose() +
         b * (hat(f) * J - hat(Jf));
}

/// SolveF by Newton on exponential coordinates; F = exp(hat f). mu = 0 returns F = I at once.
inline SolveFResult solveFExp(const Mat3& J, const Mat3& Jinv, const Vec3& mu, double tolerance,
                              int maxIterations = 50) {
  SolveFResult r;
  if (mu.isZero(0.0)) {
    r.converged = true;
    return r;
  }
  Vec3 f = Jinv * mu;
  for (int it = 1; it <= maxIterations; ++it) {
    const Vec3 df = -solve3(expJacobian(J, f), expResidual(J, mu, f));
    f += df;
    r.iterations = it;
    r.lastStep = df.cwiseAbs().maxCoeff();
    if (std::max(r.lastStep, newtonRoundOffFloor(f)) < tolerance) {
      r.converged = true;
      break;
    }
  }
  r.f = f;
  r.F = expSO3(f);
  return r;
}

}  // namespace ricochet::se3
