#pragma once
// Planar mechanical models for the FMOW variational collision integrator (docs/planar-vci.md,
// "The three systems").
//
// A model is a small constant struct (Pinocchio's "Model"): compile-time dimension n, a constant
// DIAGONAL mass matrix M (every planar example has M = diag(m, m[, I]); a full constant M is not
// needed, so it is not supported), a potential V(q) with its gradient, and smooth unilateral gaps
// g_j(q) >= 0 (admissible set C = {g_j >= 0 for all j}) with gradients n_j = grad g_j
// pointing into C. The integrators (fmow_integrator.hpp, rk4_event_integrator.hpp) are templates
// over a model; the PlanarModel concept lists everything they use.
//
// Coordinates: q = (x, y) for a particle, q = (x, y, theta) for a planar rigid body (FMOW order;
// theta is the body angle from the horizontal, never wrapped). SI units throughout.

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <limits>

namespace ricochet::planar {

/// What the integrators need from a model (see the file comment).
template <class M>
concept PlanarModel = requires(const M& m, const typename M::Vec& q, typename M::GapVec& gaps,
                               int j) {
  requires M::kDim == 2 || M::kDim == 3;
  requires M::kGaps >= 1;
  { M::kLinearPotential } -> std::convertible_to<bool>;  // grad V constant: closed-form impulse (Q)
  { m.massDiagonal } -> std::convertible_to<typename M::Vec>;  // kg (kg m^2 for theta)
  { m.potential(q) } -> std::convertible_to<double>;           // J
  { m.potentialGradient(q) } -> std::convertible_to<typename M::Vec>;
  m.gaps(q, gaps);                                           // all g_j(q), m
  { m.gap(j, q) } -> std::convertible_to<double>;            // g_j(q), m
  { m.gapGradient(j, q) } -> std::convertible_to<typename M::Vec>;
  // v^T (Hessian of g_j) v = d^2/dt^2 g_j(q + t v) at t = 0, m/s^2 for v in coordinates/s.
  { m.gapCurvature(j, q, q) } -> std::convertible_to<double>;
  // Upper bound of d^2/ds^2 g_j(q + s a + s^2 b) over s in [0, 1], for every j (+inf if unknown).
  m.gapCurvatureBounds(q, q, q, gaps);
  { m.contactPoint(j, q) } -> std::convertible_to<Eigen::Vector3d>;  // world point, for display
  { M::gapName(j) } -> std::convertible_to<const char*>;
  { M::coordinateName(j) } -> std::convertible_to<const char*>;
  { m.lengthScale } -> std::convertible_to<double>;  // m; scales the gap tolerance
};

/// Uniform gravity along -y: V = m g y, grad V = (0, m g[, 0]) (FMOW (80)).
struct UniformGravity {
  static constexpr bool kLinear = true;
  double m = 1.0;  ///< kg
  double g = 9.8;  ///< m/s^2
  template <class Vec>
  double value(const Vec& q) const { return m * g * q[1]; }
  template <class Vec>
  Vec gradient(const Vec&) const {
    Vec c = Vec::Zero();
    c[1] = m * g;
    return c;
  }
};

/// Upper bound of G''(s) for a floor gap g(q) = y + psi(theta) along the drift
/// q(s) = q + s a + s^2 b, s in [0, 1]:
///   G'' = 2 b_y + psi''(theta(s)) theta'(s)^2 + 2 psi'(theta(s)) b_theta,  theta'(s) = a_t + 2 s b_t,
/// with psi2Max >= sup psi'' and psi1Max >= sup |psi'|. theta'^2 is convex in s, so its maximum over
/// [0, 1] is at an end point.
inline double floorGapCurvatureBound(double by, double aTheta, double bTheta, double psi2Max,
                                     double psi1Max) {
  const double end = aTheta + 2.0 * bTheta;
  const double rate2 = std::max(aTheta * aTheta, end * end);
  return 2.0 * by + std::max(psi2Max, 0.0) * rate2 + 2.0 * psi1Max * std::fabs(bTheta);
}

// ---------------------------------------------------------------------------------------------
/// Particle above the floor y = 0 (FMOW §4.2, P000 §4.1): q = (x, y), M = diag(m, m), gap g = y.
template <class Potential = UniformGravity>
struct ParticleFloorModel {
  static constexpr int kDim = 2;
  static constexpr int kGaps = 1;
  static constexpr bool kLinearPotential = Potential::kLinear;
  using Vec = Eigen::Vector2d;
  using GapVec = Eigen::Matrix<double, 1, 1>;

  Potential potentialTerm;
  Vec massDiagonal = Vec::Ones();
  double lengthScale = 1.0;

  double potential(const Vec& q) const { return potentialTerm.value(q); }
  Vec potentialGradient(const Vec& q) const { return potentialTerm.gradient(q); }
  void gaps(const Vec& q, GapVec& out) const { out[0] = q[1]; }
  double gap(int, const Vec& q) const { return q[1]; }
  Vec gapGradient(int, const Vec&) const { return Vec(0.0, 1.0); }
  double gapCurvature(int, const Vec&, const Vec&) const { return 0.0; }
  void gapCurvatureBounds(const Vec&, const Vec&, const Vec& b, GapVec& out) const {
    out[0] = 2.0 * b[1];  // exact: G(s) = y + s a_y + s^2 b_y
  }
  Eigen::Vector3d contactPoint(int, const Vec& q) const { return {q[0], q[1], 0.0}; }
  static const char* gapName(int) { return "floor"; }
  static const char* coordinateName(int i) { return i == 0 ? "x" : "y"; }
};

// ---------------------------------------------------------------------------------------------
/// Four-point star on the floor (FMOW §4.3): q = (x, y, theta), M = diag(m, m, I) with
/// I = (29/192) m L^2. The square hull of side L has the four tips at body points (L/2)(a, b),
/// a, b = +-1; each tip is a smooth gap g_ab = y + (L/2)(a sin theta + b cos theta) (min_ab g_ab
/// is FMOW (81) without its |sin| + |cos| kinks).
template <class Potential = UniformGravity>
struct StarFloorModel {
  static constexpr int kDim = 3;
  static constexpr int kGaps = 4;
  static constexpr bool kLinearPotential = Potential::kLinear;
  using Vec = Eigen::Vector3d;
  using GapVec = Eigen::Vector4d;
  /// Tip signs (a, b) in the order of the gap names "tip++", "tip+-", "tip-+", "tip--".
  static constexpr std::array<std::array<double, 2>, 4> kTips{
      {{1.0, 1.0}, {1.0, -1.0}, {-1.0, 1.0}, {-1.0, -1.0}}};
  /// I / (m L^2), FMOW §4.3.
  static constexpr double kInertiaFactor = 29.0 / 192.0;

  Potential potentialTerm;
  Vec massDiagonal = Vec(1.0, 1.0, kInertiaFactor);
  double L = 1.0;  ///< m, side of the square hull
  double lengthScale = 1.0;

  double potential(const Vec& q) const { return potentialTerm.value(q); }
  Vec potentialGradient(const Vec& q) const { return potentialTerm.gradient(q); }
  void gaps(const Vec& q, GapVec& out) const {
    const double s = std::sin(q[2]), c = std::cos(q[2]), r = 0.5 * L;
    for (int j = 0; j < 4; ++j) out[j] = q[1] + r * (kTips[j][0] * s + kTips[j][1] * c);
  }
  double gap(int j, const Vec& q) const {
    return q[1] + 0.5 * L * (kTips[j][0] * std::sin(q[2]) + kTips[j][1] * std::cos(q[2]));
  }
  Vec gapGradient(int j, const Vec& q) const {
    const double s = std::sin(q[2]), c = std::cos(q[2]);
    return Vec(0.0, 1.0, 0.5 * L * (kTips[j][0] * c - kTips[j][1] * s));
  }
  /// v^T H v = psi''(theta) v_theta^2 with psi'' = -psi = -(L/2)(a sin + b cos).
  double gapCurvature(int j, const Vec& q, const Vec& v) const {
    const double s = std::sin(q[2]), c = std::cos(q[2]);
    return -0.5 * L * (kTips[j][0] * s + kTips[j][1] * c) * v[2] * v[2];
  }
  void gapCurvatureBounds(const Vec&, const Vec& a, const Vec& b, GapVec& out) const {
    // psi = (L/2)(a sin + b cos): psi'' = -psi and |psi|, |psi'| <= L / sqrt(2).
    const double r = L * std::sqrt(0.5);
    out.setConstant(floorGapCurvatureBound(b[1], a[2], b[2], r, r));
  }
  Eigen::Vector3d contactPoint(int j, const Vec& q) const {
    const double s = std::sin(q[2]), c = std::cos(q[2]), r = 0.5 * L;
    const double a = kTips[j][0], b = kTips[j][1];
    return {q[0] + r * (a * c - b * s), q[1] + r * (a * s + b * c), 0.0};
  }
  static const char* gapName(int j) {
    static constexpr const char* names[4] = {"tip++", "tip+-", "tip-+", "tip--"};
    return names[j];
  }
  static const char* coordinateName(int i) {
    static constexpr const char* names[3] = {"x", "y", "theta"};
    return names[i];
  }
};

// ---------------------------------------------------------------------------------------------
/// Uniform elliptic plate on the floor (P000 §4.2): q = (x, y, theta) internally (P000 orders it
/// (theta, x, y)), M = diag(m, m, I) with I = m (a^2 + b^2) / 4, semi-axis a along the body x axis.
/// Gap g = y - phi(theta), phi(theta) = sqrt(a^2 sin^2 + b^2 cos^2) the height of the centre above
/// the lowest point.
template <class Potential = UniformGravity>
struct EllipseFloorModel {
  static constexpr int kDim = 3;
  static constexpr int kGaps = 1;
  static constexpr bool kLinearPotential = Potential::kLinear;
  using Vec = Eigen::Vector3d;
  using GapVec = Eigen::Matrix<double, 1, 1>;

  Potential potentialTerm;
  Vec massDiagonal = Vec(1.0, 1.0, 0.3125);
  double a = 1.0;  ///< m, semi-axis along body x
  double b = 0.5;  ///< m, semi-axis along body y
  double lengthScale = 1.0;

  /// phi(theta) and phi'(theta) = (a^2 - b^2) sin cos / phi.
  double phi(double theta) const {
    const double s = std::sin(theta), c = std::cos(theta);
    return std::sqrt(a * a * s * s + b * b * c * c);
  }
  double phiPrime(double theta) const {
    const double s = std::sin(theta), c = std::cos(theta);
    return (a * a - b * b) * s * c / std::sqrt(a * a * s * s + b * b * c * c);
  }
  /// phi''(theta) = (a^2 - b^2) ((c^2 - s^2) phi - s c phi') / phi^2.
  double phiSecond(double theta) const {
    const double s = std::sin(theta), c = std::cos(theta), f = phi(theta);
    return (a * a - b * b) * ((c * c - s * s) * f - s * c * phiPrime(theta)) / (f * f);
  }
  double potential(const Vec& q) const { return potentialTerm.value(q); }
  Vec potentialGradient(const Vec& q) const { return potentialTerm.gradient(q); }
  void gaps(const Vec& q, GapVec& out) const { out[0] = q[1] - phi(q[2]); }
  double gap(int, const Vec& q) const { return q[1] - phi(q[2]); }
  Vec gapGradient(int, const Vec& q) const { return Vec(0.0, 1.0, -phiPrime(q[2])); }
  double gapCurvature(int, const Vec& q, const Vec& v) const {
    return -phiSecond(q[2]) * v[2] * v[2];
  }
  void gapCurvatureBounds(const Vec&, const Vec& av, const Vec& bv, GapVec& out) const {
    // psi = -phi. phi is the support function of the ellipse, so phi + phi'' = rho, the radius of
    // curvature at the support point, rho >= min^2/max; with phi <= max: psi'' = phi - rho <=
    // max - min^2/max. |psi'| <= (max^2 - min^2) / (2 min) (|sin cos| <= 1/2, phi >= min).
    const double hi = std::max(a, b), lo = std::min(a, b);
    out[0] = floorGapCurvatureBound(bv[1], av[2], bv[2], hi - lo * lo / hi,
                                    (hi * hi - lo * lo) / (2.0 * lo));
  }
  Eigen::Vector3d contactPoint(int, const Vec& q) const {
    // Lowest point of the rotated ellipse: centre + (-phi'(theta), -phi(theta)).
    return {q[0] - phiPrime(q[2]), q[1] - phi(q[2]), 0.0};
  }
  static const char* gapName(int) { return "floor"; }
  static const char* coordinateName(int i) {
    static constexpr const char* names[3] = {"x", "y", "theta"};
    return names[i];
  }
};

}  // namespace ricochet::planar
