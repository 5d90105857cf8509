#pragma once
// Nonholonomic spherical pendulum inside a vertical cylinder (P000 §4.3; docs/nonholonomic-vci.md,
// "Pendulum in a cylinder").
//
// q = (theta, phi): theta the polar angle from the UPWARD vertical (bob height l cos theta, bottom
// at theta = pi), phi the azimuth; a chart on R^2, never wrapped (wrapping would flip the sign
// relation of the constraint). Bob at
// l (sin th cos ph, sin th sin ph, cos th), pivot at the origin, z up.
//   L = 1/2 K (thetadot^2 + sin^2 th phidot^2) - m g l cos th,  K = m l^2.
//   Constraint phidot = f(theta) thetadot, f = pi + cos^2 th:  W = (f, -1), X = (1, f)^T.
//   It is integrable: phi - F(theta) is constant, F = (pi + 1/2) th + 1/4 sin 2th.
//   Cylinder of radius R around the vertical axis: l |sin th| <= R (P000 prints l sin th <= R,
//   which has no wall once theta passes pi) as two smooth gaps "cylinder+" R - l sin th,
//   "cylinder-" R + l sin th.
// Closed forms for the rectangle retraction: the regular step Reg(tau) and the impact step.

#include "core/model/system.hpp"
#include "core/nonholonomic/ldap_vci.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace ricochet::nonholonomic {

struct PendulumCylinderModel : LdapTypes<2, 1> {
  static constexpr int kGaps = 2;
  double m = 1.0;    ///< kg
  double g = 9.8;    ///< m/s^2
  double l = 2.0;    ///< m, pendulum length
  double R = 1.5;    ///< m, cylinder radius
  double lengthScale = 2.0;  ///< m (= l)

  double K() const { return m * l * l; }
  /// f(theta) = pi + cos^2 theta and f'(theta) = -sin 2 theta.
  static double f(double th) {
    const double c = std::cos(th);
    return std::numbers::pi + c * c;
  }
  static double fPrime(double th) { return -std::sin(2.0 * th); }
  /// F with F' = f: the constraint's invariant is phi - F(theta).
  static double F(double th) { return (std::numbers::pi + 0.5) * th + 0.25 * std::sin(2.0 * th); }

  Mat massMatrix(const Vec& q) const {
    const double s = std::sin(q[0]);
    Mat M = Mat::Zero();
    M(0, 0) = K();
    M(1, 1) = K() * s * s;
    return M;
  }
  Vec kineticGradient(const Vec& q, const Vec& v) const {
    return Vec(K() * std::sin(q[0]) * std::cos(q[0]) * v[1] * v[1], 0.0);
  }
  Mat kineticHessianQQ(const Vec& q, const Vec& v) const {
    Mat H = Mat::Zero();
    H(0, 0) = K() * std::cos(2.0 * q[0]) * v[1] * v[1];
    return H;
  }
  Mat kineticHessianQV(const Vec& q, const Vec& v) const {
    Mat H = Mat::Zero();
    H(0, 1) = K() * std::sin(2.0 * q[0]) * v[1];
    return H;
  }
  double potential(const Vec& q) const { return m * g * l * std::cos(q[0]); }
  Vec potentialGradient(const Vec& q) const { return Vec(-m * g * l * std::sin(q[0]), 0.0); }
  Mat potentialHessian(const Vec& q) const {
    Mat H = Mat::Zero();
    H(0, 0) = -m * g * l * std::cos(q[0]);
    return H;
  }
  WMat constraintMatrix(const Vec& q) const { return WMat(f(q[0]), -1.0); }
  WMat constraintDerivative(const Vec& q, const Vec& v) const {
    return WMat(fPrime(q[0]) * v[0], 0.0);
  }
  XMat distributionBasis(const Vec& q) const { return XMat(1.0, f(q[0])); }

  double gap(int j, const Vec& q) const {
    const double ls = l * std::sin(q[0]);
    return j == 0 ? R - ls : R + ls;
  }
  Vec gapGradient(int j, const Vec& q) const {
    const double lc = l * std::cos(q[0]);
    return Vec(j == 0 ? -lc : lc, 0.0);
  }
  /// Bob position (the bob touches the cylinder), m.
  Eigen::Vector3d contactPoint(int, const Vec& q) const { return bob(q); }
  Eigen::Vector3d bob(const Vec& q) const {
    const double s = std::sin(q[0]);
    return {l * s * std::cos(q[1]), l * s * std::sin(q[1]), l * std::cos(q[0])};
  }
  static const char* gapName(int j) { return j == 0 ? "cylinder+" : "cylinder-"; }
  static const char* coordinateName(int i) { return i == 0 ? "theta" : "phi"; }

  /// P000 §4.3 boundary maps: T dS = span{d_phi}, i_S^*(p) = p_phi; pi_S(v) = v_phi (variant 0,
  /// P000's) or any other left inverse of the inclusion, e.g. v_phi + 0.7 v_theta (variant 1).
  /// Since Delta ∩ T dS = {0}, the impact is fixed by the constraint and the energy alone and both
  /// readings of (I8), with any pi_S, give the same motion.
  Eigen::Matrix<double, 2, 1> boundaryTangentBasis(int, const Vec&) const { return {0.0, 1.0}; }
  Eigen::Matrix<double, 1, 2> boundaryProjection(int, const Vec&, int variant) const {
    return {variant == 1 ? 0.7 : 0.0, 1.0};
  }

  /// Regular step Reg(tau; q, p) for the rectangle retraction: with f, s, c at theta,
  /// A = f^2 s c, B = 1 + f^2 s^2, P = (tau m g l s + p_theta + f p_phi)/K, the chord rate
  /// thetadot = a/tau solves tau A x^2 - B x + P = 0: x = 2P / (B + sqrt(B^2 - 4 tau A P))
  /// (the root continuous as A -> 0; no division by tau); phidot = f x,
  /// lambda = K f x s^2 - p_phi. Midpoint: not available (Newton).
  ClosedForm regularClosedForm(Discretisation d, double tau, const Vec& q, const Vec& p, Vec& w,
                               ConVec& lambda) const {
    if (d != Discretisation::Rectangle) return ClosedForm::NotAvailable;
    const double s = std::sin(q[0]), c = std::cos(q[0]), fq = f(q[0]);
    const double A = fq * fq * s * c, B = 1.0 + fq * fq * s * s;
    const double P = (tau * m * g * l * s + p[0] + fq * p[1]) / K();
    const double disc = B * B - 4.0 * tau * A * P;
    if (!(disc >= 0.0)) return ClosedForm::Failed;
    const double x = 2.0 * P / (B + std::sqrt(disc));
    w = Vec(x, fq * x);
    lambda[0] = K() * fq * x * s * s - p[1];
    return ClosedForm::Solved;
  }

  /// The first wall value of gap j met when theta goes from a to b (sin theta = +-R/l), or NaN.
  double wallBetween(int j, double a, double b) const {
    if (!(R < l)) return std::numeric_limits<double>::quiet_NaN();
    const double t0 = std::asin(R / l);
    const double pi = std::numbers::pi, twoPi = 2.0 * pi;
    // cylinder+: sin = R/l at t0 + 2k pi and pi - t0 + 2k pi; cylinder-: -t0, pi + t0 (+ 2k pi).
    const double base[2] = {j == 0 ? t0 : -t0, j == 0 ? pi - t0 : pi + t0};
    const double lo = std::min(a, b), hi = std::max(a, b);
    double best = std::numeric_limits<double>::quiet_NaN();
    for (double b0 : base) {
      const double k0 = std::ceil((lo - b0) / twoPi);
      for (double k = k0; b0 + k * twoPi <= hi; k += 1.0) {
        const double w = b0 + k * twoPi;
        if (std::isnan(best) || std::fabs(w - a) < std::fabs(best - a)) best = w;
      }
    }
    return best;
  }

  /// Closed-form impact step (rectangle): wall theta_w of gap j between the positions
  /// at fractions sLo and sHi of the step; a_w = theta_w - theta_k, D = B a_w - A a_w^2,
  /// P = (p_theta + f p_phi)/K; tau1 = alpha h is the smallest root of (g s/l) tau1^2 + P tau1 - D
  /// = 0; q~ = (theta_w, phi_k + f(theta_k) a_w) and the chord rate a_w/tau1, written as
  /// (P + sgn(P) sqrt(P^2 + 4 (g s/l) D)) / (2 (B - A a_w)) (no 0/0 as alpha -> 0).
  ClosedForm impactClosedForm(Discretisation d, double h, const Vec& q, const Vec& p, int j,
                              double sLo, double sHi, double& s, Vec& qi, Vec& w) const {
    if (d != Discretisation::Rectangle) return ClosedForm::NotAvailable;
    Vec wLo, wHi;
    ConVec lam;
    if (regularClosedForm(d, sLo * h, q, p, wLo, lam) != ClosedForm::Solved ||
        regularClosedForm(d, sHi * h, q, p, wHi, lam) != ClosedForm::Solved) {
      return ClosedForm::Failed;
    }
    const double thw = wallBetween(j, q[0] + sLo * h * wLo[0], q[0] + sHi * h * wHi[0]);
    if (std::isnan(thw)) return ClosedForm::Failed;
    const double sn = std::sin(q[0]), cs = std::cos(q[0]), fq = f(q[0]);
    const double A = fq * fq * sn * cs, B = 1.0 + fq * fq * sn * sn;
    const double aw = thw - q[0];
    const double D = B * aw - A * aw * aw;
    const double P = (p[0] + fq * p[1]) / K();
    const double c2 = g * sn / l;
    const double disc = P * P + 4.0 * c2 * D;
    if (!(disc >= 0.0) || !(B - A * aw != 0.0)) return ClosedForm::Failed;
    const double root = P + std::copysign(std::sqrt(disc), P);
    if (!(root != 0.0)) return ClosedForm::Failed;
    const double tau1 = 2.0 * D / root;
    const double rate = root / (2.0 * (B - A * aw));  // a_w / tau1
    if (!(tau1 >= sLo * h * (1.0 - 1e-9) - 1e-300 && tau1 <= sHi * h * (1.0 + 1e-9))) {
      return ClosedForm::Failed;  // not the detected crossing: let the generic solve decide
    }
    s = tau1 / h;
    qi = Vec(thw, q[1] + fq * aw);
    w = Vec(rate, fq * rate);
    return ClosedForm::Solved;
  }

  /// Closed-form post-impact segment (rectangle): the constraint at q~ fixes the
  /// direction (1, f_w), the energy equality (I5) the size, and the rebound reverses thetadot:
  /// thetadot+ = -sgn(thetadot-) sqrt(2 (E- - m g l cos th_w) / (K (1 + f_w^2 s_w^2))).
  ClosedForm postImpactClosedForm(Discretisation d, double tau2, int, const Vec& qi,
                                  double eMinus, const Vec& wMinus, Vec& w) const {
    (void)tau2;
    if (d != Discretisation::Rectangle) return ClosedForm::NotAvailable;
    const double sw = std::sin(qi[0]), fw = f(qi[0]);
    const double kin = eMinus - potential(qi);
    if (!(kin > 0.0) || !(wMinus[0] != 0.0)) return ClosedForm::Failed;
    const double x = -std::copysign(std::sqrt(2.0 * kin / (K() * (1.0 + fw * fw * sw * sw))),
                                    wMinus[0]);
    w = Vec(x, fw * x);
    return ClosedForm::Solved;
  }
};

static_assert(LdapModel<PendulumCylinderModel>);

/// The registry entry "pendulum-cylinder" (integrators "variational": P000's rectangle scheme,
/// "variational-midpoint": the symmetric, second-order variant with the midpoint constraint).
const SystemDescription& pendulumCylinderSystem();

}  // namespace ricochet::nonholonomic
