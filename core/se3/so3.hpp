#pragma once
// SO(3) helpers for the Lie group variational collision integrator.
//
// Conventions (docs/se3-lgvci.md, "Notation"): hat(v) w = v x w; vee is its inverse;
// Asym(A) = A - A^T with NO 1/2 factor; rotations map body to world; variations are
// left-trivialised, dR = R hat(zeta).
// Header-only and allocation-free: these sit inside the step loop.

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross
#include <Eigen/LU>        // fixed-size inverse

#include <cmath>

namespace ricochet::se3 {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

/// hat(v) = [[0,-v3,v2],[v3,0,-v1],[-v2,v1,0]], so hat(v) w = v.cross(w).
inline Mat3 hat(const Vec3& v) {
  Mat3 S;
  S << 0.0, -v.z(), v.y(),
       v.z(), 0.0, -v.x(),
       -v.y(), v.x(), 0.0;
  return S;
}

/// Inverse of hat on skew matrices: (A32, A13, A21) (0-based (2,1),(0,2),(1,0)).
inline Vec3 vee(const Mat3& A) { return Vec3(A(2, 1), A(0, 2), A(1, 0)); }

/// Asym(A) = A - A^T, with no 1/2 factor: the paper's definition, which the implicit rotation
/// equation assumes (docs/design-notes.md, "Asym has no factor 1/2").
inline Mat3 asym(const Mat3& A) { return A - A.transpose(); }

/// The LGVI's non-standard inertia J_d = 1/2 tr(J) I - J (the integral of rho rho^T dm), kg m^2.
inline Mat3 nonStandardInertia(const Mat3& J) {
  return 0.5 * J.trace() * Mat3::Identity() - J;
}

/// Standard inertia from the non-standard one: J = tr(J_d) I - J_d, kg m^2.
inline Mat3 standardInertia(const Mat3& Jd) { return Jd.trace() * Mat3::Identity() - Jd; }

/// Coefficients of Rodrigues' formula exp(hat(f)) = I + a hat(f) + b hat(f)^2 with
/// a = sin(phi)/phi, b = (1 - cos(phi))/phi^2, phi = |f|; series near 0, and 1 - cos written as
/// 2 sin^2(phi/2) so b keeps full relative accuracy for small angles.
inline void rodriguesCoefficients(double phi, double& a, double& b) {
  if (phi < 1e-4) {
    const double p2 = phi * phi;
    a = 1.0 - p2 / 6.0 * (1.0 - p2 / 20.0);
    b = 0.5 - p2 / 24.0 * (1.0 - p2 / 30.0);
  } else {
    const double s = std::sin(0.5 * phi);
    a = std::sin(phi) / phi;
    b = 2.0 * s * s / (phi * phi);
  }
}

/// Exponential map so(3) -> SO(3): rotation by angle |r| (rad) about r/|r|.
inline Mat3 expSO3(const Vec3& r) {
  double a, b;
  rodriguesCoefficients(r.norm(), a, b);
  const Mat3 S = hat(r);
  return Mat3::Identity() + a * S + b * S * S;
}

/// Principal logarithm SO(3) -> so(3) as a rotation vector with angle in [0, pi]. Accurate for
/// angles away from pi (uses the skew part); near pi it falls back to the symmetric part.
inline Vec3 logSO3(const Mat3& R) {
  const Vec3 w = 0.5 * vee(asym(R));  // = sin(theta) * axis
  const double s = w.norm();
  const double c = 0.5 * (R.trace() - 1.0);  // = cos(theta)
  const double theta = std::atan2(s, c);
  if (theta < 1e-4) return (1.0 + theta * theta / 6.0) * w;  // theta / sin(theta) ~ 1 + theta^2/6
  if (theta < 3.0) return (theta / s) * w;
  // Near pi: R + R^T = 2 cos(theta) I + 2 (1 - cos(theta)) axis axis^T; take the largest column.
  const Mat3 B = (0.5 * (R + R.transpose()) - c * Mat3::Identity()) / (1.0 - c);
  int k = 0;
  B.diagonal().maxCoeff(&k);
  Vec3 axis = B.col(k) / std::sqrt(B(k, k));
  if (axis.dot(w) < 0.0) axis = -axis;
  return theta * axis.normalized();
}

/// Cayley map F(f) = (I + hat f)(I - hat f)^-1 = I + 2/(1 + f.f) (hat f + hat f^2).
/// The rotation angle is 2 atan|f|, so every angle below pi is reachable.
inline Mat3 cayley(const Vec3& f) {
  // hat(f)^2 = f f^T - |f|^2 I, cheaper than the matrix product.
  const double f2 = f.squaredNorm();
  const double c = 2.0 / (1.0 + f2);
  Mat3 F = c * (hat(f) + f * f.transpose());
  F.diagonal().array() += 1.0 - c * f2;
  return F;
}

/// Solves A z = b for a 3x3 A by Cramer's rule written with cross products (the rows of A^-1
/// are the cross products of A's columns over det A). For the small, well-conditioned Newton
/// systems of the step loop; no pivoting, so not for near-singular A.
inline Vec3 solve3(const Mat3& A, const Vec3& b) {
  const Vec3 r0 = A.col(1).cross(A.col(2));
  const Vec3 r1 = A.col(2).cross(A.col(0));
  const Vec3 r2 = A.col(0).cross(A.col(1));
  const double invDet = 1.0 / A.col(0).dot(r0);
  return Vec3(invDet * r0.dot(b), invDet * r1.dot(b), invDet * r2.dot(b));
}

/// Inverse Cayley map: f = vee((F - I)(F + I)^-1); defined for rotation angles below pi.
inline Vec3 cayleyInverse(const Mat3& F) {
  const Mat3 I = Mat3::Identity();
  return vee((F - I) * (F + I).inverse());
}

/// Rotation about the world y axis by theta (rad): [[c,0,s],[0,1,0],[-s,0,c]].
inline Mat3 rotationY(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Mat3 R;
  R << c, 0.0, s,
       0.0, 1.0, 0.0,
       -s, 0.0, c;
  return R;
}

}  // namespace ricochet::se3
