#pragma once
// Mechanical models with linear velocity constraints and unilateral gaps, and the retraction-based
// discrete Lagrangians of the (+) discrete Lagrange-d'Alembert-Pontryagin (LDAP) collision
// integrator (P000 §2.1-§2.2;
// docs/nonholonomic-vci.md, "Discretisations: rectangle and midpoint").
//
// A model (Pinocchio's "Model": constant, shared) describes
//   L(q, v) = T(q, v) - V(q),  T = 1/2 v^T M(q) v,
//   the distribution Delta(q) = {v : W(q) v = 0} (W: m x n, rows the one-forms omega^mu),
//   a basis X(q) (n x (n-m)) of Delta(q),
//   gaps g_j(q) >= 0 (admissible iff all are >= 0) with gradients n_j = grad g_j pointing inward.
// m = 0 is allowed (unconstrained, e.g. the ellipse: the scheme is then FMOW's).
//
// Discretisation: a segment of length tau (s) from q0 with chord velocity
// w = (q1 - q0)/tau is evaluated at the quadrature point psi = q0 + c tau w:
//   rectangle (P000 §4.3, retraction R_q(v) = q + tau v): c = 0, psi = q0;
//   midpoint  (P000 §4.1-4.2, P002 §5):                   c = 1/2, psi = (q0 + q1)/2;
//   L_d = tau L(psi, w),  discrete constraint omega_d = W(psi) w (its zero set does not depend
//   on tau, so sub-steps keep the same constraint). Everything here is written in the chord
//   velocity w instead of q1, so that sub-steps of length tau -> 0 (impacts at alpha -> 0 or 1)
//   stay well conditioned.

#include "core/impact/restitution.hpp"

#include <Eigen/Core>
#include <Eigen/LU>

#include <cmath>
#include <concepts>

namespace ricochet::nonholonomic {

enum class Discretisation {
  Rectangle,  ///< psi = q0 (P000's pendulum): first order, not time-symmetric
  Midpoint,   ///< psi = (q0 + q1)/2: second order, time-symmetric
};

/// Fixed-size Eigen types of a model with n coordinates and m velocity constraints.
template <int N, int Mc>
struct LdapTypes {
  static constexpr int kDim = N;
  static constexpr int kConstraints = Mc;
  using Vec = Eigen::Matrix<double, N, 1>;
  using Mat = Eigen::Matrix<double, N, N>;
  using ConVec = Eigen::Matrix<double, Mc, 1>;           ///< multipliers lambda, residuals
  using WMat = Eigen::Matrix<double, Mc, N>;             ///< W(q), rows omega^mu(q)
  using XMat = Eigen::Matrix<double, N, N - Mc>;         ///< basis X(q) of Delta(q)
  using RVec = Eigen::Matrix<double, N - Mc, 1>;         ///< reduced velocities z (v = X z)
  using RMat = Eigen::Matrix<double, N - Mc, N - Mc>;    ///< G = X^T M X
};

/// What the LDAP integrator needs from a model (see the file comment). Units: SI; angles in rad.
template <class M>
concept LdapModel = requires(const M& m, const typename M::Vec& q, const typename M::Vec& v,
                             int j) {
  requires M::kDim >= 1 && M::kConstraints >= 0 && M::kConstraints < M::kDim;
  requires M::kGaps >= 1;
  { m.massMatrix(q) } -> std::convertible_to<typename M::Mat>;        // M(q)
  { m.kineticGradient(q, v) } -> std::convertible_to<typename M::Vec>;  // dT/dq
  { m.kineticHessianQQ(q, v) } -> std::convertible_to<typename M::Mat>;  // d2T/dq dq
  { m.kineticHessianQV(q, v) } -> std::convertible_to<typename M::Mat>;  // [i][j] = d2T/dq_i dv_j
  { m.potential(q) } -> std::convertible_to<double>;                   // J
  { m.potentialGradient(q) } -> std::convertible_to<typename M::Vec>;
  { m.potentialHessian(q) } -> std::convertible_to<typename M::Mat>;
  { m.constraintMatrix(q) } -> std::convertible_to<typename M::WMat>;  // W(q)
  { m.constraintDerivative(q, v) } -> std::convertible_to<typename M::WMat>;  // d(W(q) v)/dq
  { m.distributionBasis(q) } -> std::convertible_to<typename M::XMat>;        // X(q)
  { m.gap(j, q) } -> std::convertible_to<double>;                              // g_j(q), m
  { m.gapGradient(j, q) } -> std::convertible_to<typename M::Vec>;             // n_j(q)
  { m.contactPoint(j, q) } -> std::convertible_to<Eigen::Vector3d>;  // world point, display
  { M::gapName(j) } -> std::convertible_to<const char*>;
  { m.lengthScale } -> std::convertible_to<double>;  // m; scales the gap tolerance
};

/// Smallest gap and its index at q.
template <LdapModel Model>
inline double minGap(const Model& model, const typename Model::Vec& q, int* which = nullptr) {
  double g = model.gap(0, q);
  int k = 0;
  for (int j = 1; j < Model::kGaps; ++j) {
    const double gj = model.gap(j, q);
    if (gj < g) {
      g = gj;
      k = j;
    }
  }
  if (which) *which = k;
  return g;
}

/// Reduced (constrained) velocity of a momentum at q: z = G^-1 X^T p, G = X^T M X. This is the
/// constrained Legendre transform: only the pairing of p with Delta(q) matters (reactions live in
/// Delta°), so z is well defined even where M(q) is singular (pendulum at sin(theta) = 0).
template <LdapModel Model>
inline typename Model::RVec reducedVelocity(const Model& model, const typename Model::Vec& q,
                                            const typename Model::Vec& p) {
  const typename Model::XMat X = model.distributionBasis(q);
  const typename Model::RMat G = X.transpose() * model.massMatrix(q) * X;
  return G.partialPivLu().solve(X.transpose() * p);
}

/// A model may define its node energy itself (e.g. 1/2 p^T M^-1 p where M is constant).
template <class M>
concept HasNodeEnergy = requires(const M& m, const typename M::Vec& q) {
  { m.nodeEnergy(q, q) } -> std::convertible_to<double>;
};

/// Node energy H(q, p), J: the model's own if it has one; otherwise 1/2 z^T G z + V(q),
/// z = reducedVelocity(q, p): the continuous energy of the constrained velocity X z whose
/// momentum has the same pairing with Delta(q) as p (only that pairing enters the next step). For
/// m = 0 it is 1/2 p^T M^-1 p + V; unlike that formula it stays defined where M(q) is singular
/// (the pendulum's chart at sin theta = 0). See
/// docs/nonholonomic-vci.md, "Energies and trace columns".
template <LdapModel Model>
inline double nodeEnergy(const Model& model, const typename Model::Vec& q,
                         const typename Model::Vec& p) {
  if constexpr (HasNodeEnergy<Model>) return model.nodeEnergy(q, p);
  const typename Model::XMat X = model.distributionBasis(q);
  const typename Model::RMat G = X.transpose() * model.massMatrix(q) * X;
  const typename Model::RVec z = G.partialPivLu().solve(X.transpose() * p);
  return 0.5 * z.dot(G * z) + model.potential(q);
}

/// The continuous nonholonomic impact map (C2), P001 (9), with Newton's restitution e
/// (impact/restitution.hpp, W = X G^-1 X^T): with G = X^T M X and nu = X^T n_j,
/// z+ = z- + mu G^-1 nu, mu = -(1 + e) (nu^T z-)/(nu^T G^-1 nu). For e = 1 (the default) it
/// reverses the normal rate nu^T z and keeps 1/2 z^T G z; for any e it keeps the momentum paired
/// with T(boundary) ∩ Delta, and X z+ satisfies the velocity constraints. Returns false
/// (z+ = z-) when nu^T G^-1 nu <= `degenerate` (Delta tangent to the boundary: no admissible
/// impulse).
template <class RVec, class RMat>
inline bool reducedReflection(const RMat& G, const RVec& nu, const RVec& zMinus, RVec& zPlus,
                              double degenerate = 0.0, double restitution = 1.0) {
  const RVec Ginu = G.partialPivLu().solve(nu);
  const double a = nu.dot(Ginu);
  zPlus = zMinus;
  if (!(a > degenerate)) return false;
  zPlus = zMinus + impact::restitutionImpulse(nu.dot(zMinus), a, restitution) * Ginu;
  return true;
}

/// The discrete Lagrangian L_d = tau L(psi, w) of a model, its derivatives, its energy and the
/// discrete constraint, as functions of the segment (q0, w, tau): q1 = q0 + tau w,
/// psi = q0 + c tau w (file comment). Stateless apart from the model reference.
template <LdapModel Model>
class DiscreteLagrangian {
 public:
  static constexpr int n = Model::kDim;
  static constexpr int m = Model::kConstraints;
  using Vec = typename Model::Vec;
  using Mat = typename Model::Mat;
  using ConVec = typename Model::ConVec;
  using WMat = typename Model::WMat;

  DiscreteLagrangian(const Model& model, Discretisation d)
      : model_(&model), c_(d == Discretisation::Midpoint ? 0.5 : 0.0), disc_(d) {}

  const Model& model() const { return *model_; }
  Discretisation discretisation() const { return disc_; }
  /// Position of the quadrature point along the segment (0 rectangle, 1/2 midpoint).
  double c() const { return c_; }
  Vec quadraturePoint(const Vec& q0, const Vec& w, double tau) const {
    return q0 + (c_ * tau) * w;
  }

  /// L_d(q0, q0 + tau w, tau), J s.
  double Ld(const Vec& q0, const Vec& w, double tau) const {
    const Vec psi = quadraturePoint(q0, w, tau);
    return tau * (0.5 * w.dot(model_->massMatrix(psi) * w) - model_->potential(psi));
  }
  /// D1 L_d = (1-c) tau L_q(psi, w) - M(psi) w, kg m/s (momentum units of each coordinate).
  // Forced inline: called inside every Newton iteration of the regular step, where GCC stopped
  // inlining it once the steppers became constant (about 8 % more instructions per LDAP step).
  [[gnu::always_inline]] Vec D1(const Vec& q0, const Vec& w, double tau) const {
    const Vec psi = quadraturePoint(q0, w, tau);
    return ((1.0 - c_) * tau) * Lq(psi, w) - model_->massMatrix(psi) * w;
  }
  /// D2 L_d = c tau L_q(psi, w) + M(psi) w.
  [[gnu::always_inline]] Vec D2(const Vec& q0, const Vec& w, double tau) const {
    const Vec psi = quadraturePoint(q0, w, tau);
    return (c_ * tau) * Lq(psi, w) + model_->massMatrix(psi) * w;
  }
  /// E_d = -D3 L_d = T(psi, w) + V(psi) (the energy at the quadrature point), J.
  double Ed(const Vec& q0, const Vec& w, double tau) const {
    const Vec psi = quadraturePoint(q0, w, tau);
    return 0.5 * w.dot(model_->massMatrix(psi) * w) + model_->potential(psi);
  }
  /// d(D1 L_d)/dw at fixed q0, tau: (1-c) tau (c tau L_qq + L_qv) - (c tau L_qv^T + M).
  Mat dD1dw(const Vec& q0, const Vec& w, double tau) const {
    const Vec psi = quadraturePoint(q0, w, tau);
    const Mat Lqv = model_->kineticHessianQV(psi, w);
    const double ct = c_ * tau;
    return ((1.0 - c_) * tau) * (ct * Lqq(psi, w) + Lqv) - (ct * Lqv.transpose() +
                                                            model_->massMatrix(psi));
  }
  /// d(D1 L_d)/dtau at fixed q0, w: (1-c) L_q + (1-c) c tau L_qq w - c L_qv^T w.
  Vec dD1dtau(const Vec& q0, const Vec& w, double tau) const {
    const Vec psi = quadraturePoint(q0, w, tau);
    Vec r = (1.0 - c_) * Lq(psi, w);
    if (c_ != 0.0) {
      r += ((1.0 - c_) * c_ * tau) * (Lqq(psi, w) * w) -
           c_ * (model_->kineticHessianQV(psi, w).transpose() * w);
    }
    return r;
  }
  /// dE_d/dw at fixed q0, tau: M(psi) w + c tau (T_q + grad V)(psi).
  Vec dEddw(const Vec& q0, const Vec& w, double tau) const {
    const Vec psi = quadraturePoint(q0, w, tau);
    Vec r = model_->massMatrix(psi) * w;
    if (c_ != 0.0) r += (c_ * tau) * Eq(psi, w);
    return r;
  }
  /// dE_d/dtau at fixed q0, w: c (T_q + grad V)(psi) . w.
  double dEddtau(const Vec& q0, const Vec& w, double tau) const {
    if (c_ == 0.0) return 0.0;
    const Vec psi = quadraturePoint(q0, w, tau);
    return c_ * Eq(psi, w).dot(w);
  }
  /// Discrete constraint in velocity form, tau omega_d(q0, q1) = W(psi) w, m/s or rad/s.
  ConVec omega(const Vec& q0, const Vec& w, double tau) const {
    return model_->constraintMatrix(quadraturePoint(q0, w, tau)) * w;
  }
  /// d(W(psi) w)/dw = W(psi) + c tau d(W w)/dq (psi).
  WMat domegadw(const Vec& q0, const Vec& w, double tau) const {
    const Vec psi = quadraturePoint(q0, w, tau);
    WMat r = model_->constraintMatrix(psi);
    if (c_ != 0.0) r += (c_ * tau) * model_->constraintDerivative(psi, w);
    return r;
  }
  /// d(W(psi) w)/dtau at fixed w = c d(W w)/dq (psi) w.
  ConVec domegadtau(const Vec& q0, const Vec& w, double tau) const {
    if (c_ == 0.0) return ConVec::Zero();
    const Vec psi = quadraturePoint(q0, w, tau);
    return c_ * (model_->constraintDerivative(psi, w) * w);
  }

  // Continuous Lagrangian pieces (L = T - V).
  Vec Lq(const Vec& q, const Vec& v) const {
    return model_->kineticGradient(q, v) - model_->potentialGradient(q);
  }
  Mat Lqq(const Vec& q, const Vec& v) const {
    return model_->kineticHessianQQ(q, v) - model_->potentialHessian(q);
  }
  /// dE/dq of the energy E = T + V.
  Vec Eq(const Vec& q, const Vec& v) const {
    return model_->kineticGradient(q, v) + model_->potentialGradient(q);
  }

 private:
  const Model* model_;
  double c_;
  Discretisation disc_;
};

}  // namespace ricochet::nonholonomic
