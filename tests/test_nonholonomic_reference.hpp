#pragma once
// Exact references for the nonholonomic tests (docs/acceptance.md, "Reference solutions"):
// event-driven rolling disk (closed-form flight, bracketed impact times, continuous reflection
// (C2)) and the pendulum's 1-DOF quadrature. Test-only; independent of the integrators under
// test except for the shared Brent root finder and the models' gap functions.

#include "core/nonholonomic/rolling_disk.hpp"
#include "core/numerics/roots.hpp"

#include <Eigen/Core>

#include <cmath>
#include <functional>
#include <vector>

namespace nhref {

struct DiskState {
  Eigen::Vector4d q;  ///< (x, y, theta, phi)
  double u = 0.0, w = 0.0;
};

struct DiskImpact {
  double t = 0.0;
  int gap = 0;
  double uMinus = 0.0, wMinus = 0.0, uPlus = 0.0, wPlus = 0.0;
  Eigen::Vector4d q;
};

/// Exact flight for time t: u, w constant; (x, y) on a circle of radius R u / w (straight if
/// w = 0), written with sinc so that w -> 0 is exact.
inline Eigen::Vector4d diskFlight(double R, const Eigen::Vector4d& q, double u, double w, double t) {
  const double half = 0.5 * w * t;
  const double sinc = std::fabs(half) < 1e-8 ? 1.0 - half * half / 6.0 : std::sin(half) / half;
  const double mid = q[3] + half;
  return {q[0] + R * u * t * std::cos(mid) * sinc, q[1] + R * u * t * std::sin(mid) * sinc,
          q[2] + u * t, q[3] + w * t};
}

/// Event-driven reference from `s0` over [0, T]: scans the gaps with step dt, resolves each sign
/// change by Brent to 1e-15, reflects with (C2) (ν = X^T n). Returns the impacts and the state at
/// T in `end`.
template <class Model>
std::vector<DiskImpact> diskReference(const Model& model, DiskState s0, double T, DiskState& end,
                                      double dt = 1e-3) {
  std::vector<DiskImpact> impacts;
  double t = 0.0;
  int justHit = -1;
  DiskState s = s0;
  while (t < T) {
    const double span = std::min(dt, T - t);
    int hitGap = -1;
    double hitTime = span;
    for (int j = 0; j < Model::kGaps; ++j) {
      auto g = [&](double x) { return model.gap(j, diskFlight(model.R, s.q, s.u, s.w, x)); };
      double lo = 0.0, glo = g(0.0);
      if (j == justHit) {  // just reflected off j: start where it is positive again
        lo = 1e-9 * span;
        glo = g(lo);
        if (!(glo > 0.0)) continue;
      }
      const double ghi = g(span);
      if (!(ghi < 0.0) || !(glo > 0.0)) continue;
      const ricochet::RootResult r = ricochet::brentRoot(g, lo, span, glo, ghi, 1e-16, 0.0);
      if (r.x < hitTime) {
        hitTime = r.x;
        hitGap = j;
      }
    }
    if (hitGap < 0) {
      s.q = diskFlight(model.R, s.q, s.u, s.w, span);
      t += span;
      justHit = -1;
      continue;
    }
    s.q = diskFlight(model.R, s.q, s.u, s.w, hitTime);
    t += hitTime;
    const auto X = model.distributionBasis(s.q);
    const Eigen::Vector2d nu = X.transpose() * model.gapGradient(hitGap, s.q);
    const Eigen::Matrix2d G = Eigen::Vector2d(model.A(), model.B()).asDiagonal();
    Eigen::Vector2d zp;
    ricochet::nonholonomic::reducedReflection(G, nu, Eigen::Vector2d(s.u, s.w), zp);
    impacts.push_back({t, hitGap, s.u, s.w, zp[0], zp[1], s.q});
    s.u = zp[0];
    s.w = zp[1];
    justHit = hitGap;
  }
  end = s;
  return impacts;
}

/// Composite Gauss-Legendre (5 points) of f over [a, b] with n panels.
inline double integrate(const std::function<double(double)>& f, double a, double b, int n) {
  static const double x[5] = {0.0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640,
                              0.9061798459386640};
  static const double wt[5] = {0.5688888888888889, 0.4786286704993665, 0.4786286704993665,
                               0.2369268850561891, 0.2369268850561891};
  double sum = 0.0;
  const double hpanel = (b - a) / n;
  for (int i = 0; i < n; ++i) {
    const double c = a + (i + 0.5) * hpanel;
    for (int k = 0; k < 5; ++k) sum += wt[k] * f(c + 0.5 * hpanel * x[k]);
  }
  return 0.5 * hpanel * sum;
}

/// Pendulum: the constraint is integrable, so the motion is the 1-DOF system with
/// metric G = K (1 + f^2 sin^2) and potential m g l cos: time to go from theta a to b at energy E.
inline double pendulumTravelTime(double m, double g, double l, double E, double a, double b) {
  const double K = m * l * l;
  auto f = [](double th) { return M_PI + std::cos(th) * std::cos(th); };
  auto integrand = [&](double th) {
    const double G = K * (1.0 + f(th) * f(th) * std::sin(th) * std::sin(th));
    return std::sqrt(G / (2.0 * (E - m * g * l * std::cos(th))));
  };
  return std::fabs(integrate(integrand, std::min(a, b), std::max(a, b), 400));
}

}  // namespace nhref
