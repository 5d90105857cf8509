#pragma once
// The bouncing ellipse of P000 §4.2 as an unconstrained (m = 0) model of the LDAP collision
// integrator: with Delta = TQ P000's scheme is FMOW's, and the ellipse is where P000's literal
// impact equation (I8) differs from the consistent reading (I8'), so it carries P000's boundary
// maps i_S^*, pi_S for "paper mode"
// (docs/nonholonomic-vci.md, "Reading P000's impact equation: (I8) and (I8')").
//
// q = (x, y, theta) (P000 orders it (theta, x, y)); M = diag(m, m, I), I = m (a^2 + b^2)/4;
// V = m g y; gap "floor" g = y - phi(theta), phi = sqrt(a^2 sin^2 + b^2 cos^2) (semi-axis a along
// the body x axis), n = (0, 1, -phi'(theta)).
// T dS = span{e1 = d_x, e2 = d_theta + phi' d_y} (P000 prints phi for phi');
// pi_S variants (all with Pi B = I): 0 = P000's pi_S(v) = v_x e1 + v_theta e2; 1 = the
// M-orthogonal projection (B^T M B)^-1 B^T M; 2 = the Euclidean one (B^T B)^-1 B^T.

#include "core/model/system.hpp"
#include "core/nonholonomic/ldap_vci.hpp"

#include <Eigen/Core>
#include <Eigen/LU>

#include <cmath>
#include <memory>
#include <string>

namespace ricochet::nonholonomic {

struct EllipseLdapModel : LdapTypes<3, 0> {
  static constexpr int kGaps = 1;
  using BMat = Eigen::Matrix<double, 3, 2>;
  using PMat = Eigen::Matrix<double, 2, 3>;
  double m = 1.0;  ///< kg
  double g = 9.8;  ///< m/s^2
  double a = 1.0;  ///< m, semi-axis along body x
  double b = 0.5;  ///< m, semi-axis along body y
  double lengthScale = 1.0;  ///< m

  double I() const { return m * (a * a + b * b) / 4.0; }
  double phi(double th) const {
    const double s = std::sin(th), c = std::cos(th);
    return std::sqrt(a * a * s * s + b * b * c * c);
  }
  double phiPrime(double th) const {
    return (a * a - b * b) * std::sin(th) * std::cos(th) / phi(th);
  }

  Mat massMatrix(const Vec&) const { return Vec(m, m, I()).asDiagonal(); }
  Vec kineticGradient(const Vec&, const Vec&) const { return Vec::Zero(); }
  Mat kineticHessianQQ(const Vec&, const Vec&) const { return Mat::Zero(); }
  Mat kineticHessianQV(const Vec&, const Vec&) const { return Mat::Zero(); }
  double potential(const Vec& q) const { return m * g * q[1]; }
  Vec potentialGradient(const Vec&) const { return Vec(0.0, m * g, 0.0); }
  Mat potentialHessian(const Vec&) const { return Mat::Zero(); }
  WMat constraintMatrix(const Vec&) const { return WMat(); }
  WMat constraintDerivative(const Vec&, const Vec&) const { return WMat(); }
  XMat distributionBasis(const Vec&) const { return XMat::Identity(); }

  double gap(int, const Vec& q) const { return q[1] - phi(q[2]); }
  Vec gapGradient(int, const Vec& q) const { return Vec(0.0, 1.0, -phiPrime(q[2])); }
  /// Lowest point of the ellipse (centre + (-phi', -phi)), world, z = 0.
  Eigen::Vector3d contactPoint(int, const Vec& q) const {
    return {q[0] - phiPrime(q[2]), q[1] - phi(q[2]), 0.0};
  }
  static const char* gapName(int) { return "floor"; }

  /// Columns e1 = d_x, e2 = d_theta + phi' d_y of T dS (P000 §4.2 with the typo fixed).
  BMat boundaryTangentBasis(int, const Vec& q) const {
    BMat B = BMat::Zero();
    B(0, 0) = 1.0;
    B(1, 1) = phiPrime(q[2]);
    B(2, 1) = 1.0;
    return B;
  }
  /// pi_S in the basis of boundaryTangentBasis (see the file comment for the variants).
  PMat boundaryProjection(int j, const Vec& q, int variant) const {
    const BMat B = boundaryTangentBasis(j, q);
    if (variant == 1) {
      const Mat M = massMatrix(q);
      return (B.transpose() * M * B).partialPivLu().solve(B.transpose() * M);
    }
    if (variant == 2) return (B.transpose() * B).partialPivLu().solve(B.transpose());
    PMat P = PMat::Zero();  // P000: pi_S(v) = v_x e1 + v_theta e2
    P(0, 0) = 1.0;
    P(1, 2) = 1.0;
    return P;
  }
};

static_assert(LdapModel<EllipseLdapModel> && HasBoundaryMaps<EllipseLdapModel>);

/// How continuous initial data become the discrete node state (docs/nonholonomic-vci.md,
/// "Initial data").
enum class InitialConversion {
  Legendre,   ///< node 0 = q(0) at t = 0, p0 = M v(0) (FMOW's start)
  Symmetric,  ///< P000 §4.1: q_0 = q(0) - (h/2) v(0), node k at t = (k - 1/2) h
};

/// Everything to run the ellipse with the LDAP collision integrator.
struct EllipseLdapSetup {
  EllipseLdapModel model;
  Eigen::Vector3d q0{0.0, 3.5, 1.5707963267948966};  ///< (x, y, theta) at t = 0 (m, m, rad)
  Eigen::Vector3d v0{2.0, 0.0, -3.0};                ///< (xdot, ydot, thetadot) (m/s, m/s, rad/s)
  double h = 1e-2;                                   ///< s
  double tolerance = 1e-14;
  ImpactReading reading = ImpactReading::Consistent;  ///< Paper = P000's literal (I8)
  int projectionVariant = 0;                           ///< pi_S for the map-based readings
  InitialConversion conversion = InitialConversion::Symmetric;
  double restitution = 1.0;  ///< e of Newton's law (consistent readings only)
};

/// A Simulation of the ellipse with the LDAP VCI (for ellipse-floor's optional "ldap" /
/// "ldap-paper" integrators). Columns: q.x q.y q.theta p.x p.y p.theta mom.px mom.ptheta
/// e.discrete [e.dissipated when restitution < 1] con.gap; one body pose (planar view: position (x,
/// y, 0), rotation theta about z). Null with `error` set when the initial state is inadmissible.
std::unique_ptr<Simulation> createEllipseLdapSimulation(const EllipseLdapSetup& setup,
                                                        std::string* error);

}  // namespace ricochet::nonholonomic
