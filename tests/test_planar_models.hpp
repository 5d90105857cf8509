#pragma once
// Test-only planar models and helpers shared by the test_planar_* suites.

#include "core/planar/fmow_integrator.hpp"
#include "core/planar/planar_model.hpp"
#include "core/planar/rk4_event_integrator.hpp"

#include <Eigen/Core>

#include <cmath>
#include <random>
#include <vector>

namespace ricochet::planar::testing {

/// The "nonlinear gravity" V = -m g rho^2/(rho + y), grad V = (0, m g rho^2/(rho+y)^2) of acceptance
/// row B4 (docs/planar-vci.md, "Four-point star: smooth tip gaps instead of one kinked gap").
struct RadialGravity {
  static constexpr bool kLinear = false;
  double m = 1.0, g = 9.8, rho = 10.0;
  template <class Vec>
  double value(const Vec& q) const { return -m * g * rho * rho / (rho + q[1]); }
  template <class Vec>
  Vec gradient(const Vec& q) const {
    Vec c = Vec::Zero();
    c[1] = m * g * rho * rho / ((rho + q[1]) * (rho + q[1]));
    return c;
  }
};

/// A smooth nonlinear potential on all coordinates (U1, finite differences):
/// V = 1/2 sum k_i q_i^2 + A cos(kappa . q).
struct WavyPotential {
  static constexpr bool kLinear = false;
  Eigen::Vector3d k{0.7, 1.3, 2.1}, kappa{0.9, -0.4, 1.7};
  double A = 0.8;
  template <class Vec>
  double value(const Vec& q) const {
    constexpr int n = Vec::RowsAtCompileTime;
    return 0.5 * q.dot(k.head<n>().cwiseProduct(q)) + A * std::cos(kappa.head<n>().dot(q));
  }
  template <class Vec>
  Vec gradient(const Vec& q) const {
    constexpr int n = Vec::RowsAtCompileTime;
    return k.head<n>().cwiseProduct(q) - A * std::sin(kappa.head<n>().dot(q)) * kappa.head<n>();
  }
};

/// Harmonic bowl V = 1/2 k |q - c|^2 (a particle oscillating across the floor's height).
struct BowlPotential {
  static constexpr bool kLinear = false;
  double k = 40.0;
  Eigen::Vector2d c{0.0, 0.3};
  template <class Vec>
  double value(const Vec& q) const { return 0.5 * k * (q - c).squaredNorm(); }
  template <class Vec>
  Vec gradient(const Vec& q) const { return k * (q - c); }
};

/// A particle between the floor y >= 0 and a ceiling y <= H: two gaps, several impacts per step
/// when the channel is narrow compared with the distance covered in one step.
template <class Potential = UniformGravity>
struct ChannelModel {
  static constexpr int kDim = 2;
  static constexpr int kGaps = 2;
  static constexpr bool kLinearPotential = Potential::kLinear;
  using Vec = Eigen::Vector2d;
  using GapVec = Eigen::Vector2d;
  Potential potentialTerm;
  Vec massDiagonal = Vec::Ones();
  double H = 0.05;
  double lengthScale = 0.05;
  double potential(const Vec& q) const { return potentialTerm.value(q); }
  Vec potentialGradient(const Vec& q) const { return potentialTerm.gradient(q); }
  void gaps(const Vec& q, GapVec& out) const { out = GapVec(q[1], H - q[1]); }
  double gap(int j, const Vec& q) const { return j == 0 ? q[1] : H - q[1]; }
  Vec gapGradient(int j, const Vec&) const { return Vec(0.0, j == 0 ? 1.0 : -1.0); }
  double gapCurvature(int, const Vec&, const Vec&) const { return 0.0; }
  void gapCurvatureBounds(const Vec&, const Vec&, const Vec& b, GapVec& out) const {
    out = GapVec(2.0 * b[1], -2.0 * b[1]);
  }
  Eigen::Vector3d contactPoint(int, const Vec& q) const { return {q[0], q[1], 0.0}; }
  static const char* gapName(int j) { return j == 0 ? "floor" : "ceiling"; }
  static const char* coordinateName(int i) { return i == 0 ? "x" : "y"; }
};

/// Node history of a run driven step by step through an integrator.
template <class Integrator>
struct History {
  using Vec = typename Integrator::Vec;
  std::vector<Vec> q, p;  // nodes 0..N
  std::vector<std::vector<typename Integrator::Impact>> impacts;  // impacts[k]: step k -> k+1
  std::vector<double> lastTau;                          // final sub-step length of step k
  RunStatus status = RunStatus::Ok;
};

template <class Integrator>
History<Integrator> runSteps(const Integrator& integrator, typename Integrator::Vec q,
                             typename Integrator::Vec p, long steps) {
  History<Integrator> h;
  typename Integrator::State state = integrator.initialState(q, p);
  typename Integrator::Report report;
  h.q.push_back(q);
  h.p.push_back(p);
  for (long k = 0; k < steps; ++k) {
    h.status = integrator.step(state, report);
    if (h.status != RunStatus::Ok) break;
    h.impacts.emplace_back(report.begin(), report.end());
    h.lastTau.push_back(state.lastTau);
    h.q.push_back(state.q);
    h.p.push_back(state.p);
  }
  return h;
}

/// Least-squares slope of log(y) against log(x).
inline double logLogSlope(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace ricochet::planar::testing
