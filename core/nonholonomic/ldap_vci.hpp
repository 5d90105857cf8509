#pragma once
// The (+) discrete Lagrange-d'Alembert-Pontryagin collision integrator of P000 (Thm 3.1,
// Algorithm 1) in position-momentum form, with the consistent reading (I8')/(I6') of its impact
// equation, generic over an LdapModel (ldap_model.hpp). Derived in docs/nonholonomic-vci.md,
// "Reading P000's impact equation: (I8) and (I8')" and "The impact step".
//
// State: node (q_k, p_k) at t_k. One step of length h:
//  1. Regular solve Reg(tau; q, p) (P000 (1)): unknowns chord velocity w and
//     multipliers lambda of
//        D1 L_d(q, q + tau w, tau) + p = W(q)^T lambda,     W(psi) w = 0,
//     then q' = q + tau w, p' = D2 L_d(q, q', tau). Closed form when the model offers one,
//     otherwise Newton with the analytic (n+m)x(n+m) Jacobian [dD1/dw, -W(q)^T; dω/dw, 0].
//  2. Detection inside the step: the gaps along the discrete path s -> Reg(s h) at K samples;
//     first sign change, bracketed Brent root (core/numerics/roots.hpp) -> alpha, impact point
//     q~ (on the boundary), incoming p~- = D2 L_d(q_k, q~, alpha h), E- = E_d(q_k, q~, alpha h).
//  3. Impact (I5)-(I7), (I6'): for the impulse mu on n_j(q~) solve
//        Reg((1-alpha)h; q~, p^ + mu n_j) -> w+,   F(mu) = E_d(q~, w+, (1-alpha)h) - E- = 0
//     (nested scalar Newton with the analytic F', safeguarded by Brent), keeping the rebound root
//     (n_j . w+ > 0, not the pass-through root near mu = 0). p^ = p~- in the consistent
//     reading; with boundary maps (B: basis of T dS, Pi: pi_S) p^ = Pi^T p~ where p~ = B^T p~-
//     (consistent, (I8')) or the least-squares solution of Pi^T p~ = p~- (P000's literal (I8),
//     "paper mode").
//  4. Finish: q_{k+1} = q~ + (1-alpha)h w+, p_{k+1} = D2 L_d(q~, q_{k+1}, (1-alpha)h) (I9)-(I10).
//  5. A further crossing in the remaining sub-step: the impulse and the next contact time are
//     solved together (FMOW (78), with Reg in place of the drift), and so on; at most
//     maxImpactsPerStep per step, else RunStatus::Zeno. A gap already touching at q~ gets a
//     sequential impulse at the same point (a corner).
//
// Restitution e < 1 (docs/restitution.md): the discrete energy cannot balance a lossy impact, so
// step 3 is Newton's law on the momentum at the impact point, projected so that it keeps the
// velocity constraints (W = X G^-1 X^T in impact/restitution.hpp), and the next contact time is the
// detected one (as for the grazing reflection). A contact whose rebound would land within one step
// settles: it is held as an equality g_j = 0 by the regular problem with the gap's multiplier
// (advanceHeld: Reg plus g_S(q_k+1) = 0, the node momentum projected on the held gaps' tangent, a
// RATTLE-type step) until its force would pull. e = 1 takes none of these paths.
//
// A constant stepper over an explicit LdapVci::State (Model/Data): step(state, report) advances one
// run's node and fills its report. Allocation-free; failures are returned as a RunStatus plus an
// impact::StepFailure with static text.

#include "core/impact/crossing.hpp"
#include "core/impact/restitution.hpp"
#include "core/impact/settled_advance.hpp"
#include "core/impact/step_report.hpp"
#include "core/model/system.hpp"
#include "core/nonholonomic/ldap_model.hpp"
#include "core/numerics/grazing.hpp"
#include "core/numerics/roots.hpp"

#include <Eigen/Core>
#include <Eigen/LU>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ricochet::nonholonomic {

/// Default cap of impacts resolved in one nonholonomic step (beyond it: RunStatus::Zeno).
inline constexpr int kNonholonomicImpactCap = 32;

/// How the impact equation of P000 Thm 3.1 is read
/// (docs/nonholonomic-vci.md, "Reading P000's impact equation: (I8) and (I8')").
enum class ImpactReading {
  Consistent,         ///< (I8')/(I6') with p^ = p~- (the default; no pi_S needed)
  ConsistentViaMaps,  ///< the same through the model's boundary maps: p^ = Pi^T B^T p~-
  Paper,              ///< P000's literal (I8) in least squares: p^ = Pi^T (Pi Pi^T)^-1 Pi p~-
};

/// Result of a closed-form hook of a model.
enum class ClosedForm { NotAvailable, Solved, Failed };

struct LdapOptions {
  Discretisation discretisation = Discretisation::Midpoint;
  /// Scenario.integrator.tolerance: Newton steps (relative), root brackets (fraction of a step),
  /// energy and gap residuals (relative to the energy scale and the model's lengthScale).
  double tolerance = 1e-14;
  int subsamples = 8;                          ///< K: gap samples per step of the detection
  int maxImpactsPerStep = kNonholonomicImpactCap;  ///< Zeno cap (<= impact::kMaxImpactsPerStep)
  int maxIterations = 50;                      ///< Newton cap (Brent gets 200)
  bool useClosedForms = true;                  ///< use the model's closed-form hooks if any
  ImpactReading reading = ImpactReading::Consistent;
  int projectionVariant = 0;  ///< which pi_S of the model (boundary maps only)
  /// e of Newton's law in [0, 1]; 1: the energy-balanced impacts. Below 1 only with a consistent
  /// reading (the literal (I8) is P000's elastic equation).
  double restitution = 1.0;
};

/// What a nonholonomic impact records beyond the common impact::Impact fields.
struct LdapImpactDetail {
  double eMinus = 0.0;  ///< discrete energy E- of the incoming segment, J
};

/// A failed step of a nonholonomic engine: static text, where, and the number that explains it.
template <class Report>
RunStatus failStep(Report& report, RunStatus status, const char* what, int gap, double s,
                   const char* valueName = nullptr, double value = 0.0) {
  report.fail(status, what, gap, s);
  if (valueName) report.failure.with(valueName, value);
  return status;
}

/// Optional: basis B (n x (n-1), columns spanning T dS at q on gap j) and projections pi_S
/// ((n-1) x n matrix Pi with Pi B = I) used by the map-based readings of (I8).
template <class M>
concept HasBoundaryMaps = requires(const M& m, int j, const typename M::Vec& q, int variant) {
  { m.boundaryTangentBasis(j, q) } -> std::convertible_to<Eigen::Matrix<double, M::kDim, M::kDim - 1>>;
  { m.boundaryProjection(j, q, variant) } -> std::convertible_to<Eigen::Matrix<double, M::kDim - 1, M::kDim>>;
};

/// Optional closed-form regular step: fills the chord velocity w and lambda of Reg(tau; q, p).
template <class M>
concept HasClosedRegular = requires(const M& m, Discretisation d, double tau,
                                    const typename M::Vec& q, const typename M::Vec& p,
                                    typename M::Vec& w, typename M::ConVec& lambda) {
  { m.regularClosedForm(d, tau, q, p, w, lambda) } -> std::convertible_to<ClosedForm>;
};

/// Optional closed-form impact step (the pendulum has one): the impact fraction s in [sLo, sHi]
/// (fractions of h) on gap j, the impact point q~ and the incoming chord velocity w-; and the
/// outgoing chord velocity w+ of the post-impact segment of length tau2 with energy eMinus.
template <class M>
concept HasClosedImpact = requires(const M& m, Discretisation d, double h, double tau2,
                                   const typename M::Vec& q, const typename M::Vec& p, int j,
                                   double& s, typename M::Vec& qi, typename M::Vec& w) {
  { m.impactClosedForm(d, h, q, p, j, 0.0, 1.0, s, qi, w) } -> std::convertible_to<ClosedForm>;
  { m.postImpactClosedForm(d, tau2, j, q, 1.0, p, w) } -> std::convertible_to<ClosedForm>;
};

template <LdapModel Model>
class LdapVci {
 public:
  static constexpr int n = Model::kDim;
  static constexpr int m = Model::kConstraints;
  static constexpr int kGaps = Model::kGaps;
  using Vec = typename Model::Vec;
  using Mat = typename Model::Mat;
  using ConVec = typename Model::ConVec;
  using WMat = typename Model::WMat;
  using XMat = typename Model::XMat;
  using RVec = typename Model::RVec;
  using RMat = typename Model::RMat;
  using GapVec = Eigen::Matrix<double, kGaps, 1>;
  using GapForces = Eigen::Matrix<double, kGaps, 1>;  ///< a value per gap (held forces)
  using Kkt = Eigen::Matrix<double, n + m, n + m>;
  using KktVec = Eigen::Matrix<double, n + m, 1>;
  using Point = impact::PhasePoint<Vec>;
  using Impact = impact::Impact<Point, LdapImpactDetail>;
  using Report = impact::StepReport<Impact>;

  /// A solved regular problem Reg(tau; q, p): chord velocity, multipliers, Newton iterations.
  struct Regular {
    Vec w = Vec::Zero();
    ConVec lambda = ConVec::Zero();
    int iterations = 0;
    bool ok = false;
  };
  struct Impulse {
    double mu = 0.0;
    Regular post;                 ///< Reg(tau; q~, p^ + mu n) at the solution
    double residual = 0.0;        ///< F(mu), J
    bool ok = false;
    bool reflectionFallback = false;
    bool newton = false;  ///< restitution < 1: Newton's law (newtonImpulse), not the energy root
    const char* failure = "";
    double failureValue = 0.0;
  };
  struct Joint {
    double mu = 0.0, d = 0.0;  ///< first impulse, time to the next contact (s)
    Regular post;
    double energyResidual = 0.0, gapResidual = 0.0;
    bool ok = false;
  };
  /// Residual and analytic Jacobian of the joint problem (78) in the unknowns (mu, d).
  struct JointResidual {
    Eigen::Vector2d r = Eigen::Vector2d::Zero();
    Eigen::Matrix2d J = Eigen::Matrix2d::Zero();
    Regular post;
    bool ok = false;
  };
  /// The first crossing of a segment (impact::Crossing) and the regular solution at it.
  struct Crossing : impact::Crossing {
    Regular at;  ///< Reg(s tau) at the root
  };

  /// The discrete path s -> q0 + s tau w(s) of a segment, w(s) from Reg(s tau; q0, pEff), as the
  /// shared crossing detector sees it (impact::CrossingPath). Each evaluation solves Reg from the
  /// previous solution (`work`); where Reg does not converge the gaps are NaN (a failed
  /// detection). The LDAP models give no curvature bound, so the detector sub-samples the path.
  struct Path {
    static constexpr int kGaps = Model::kGaps;
    using GapVec = Eigen::Matrix<double, kGaps, 1>;
    const LdapVci* vci;
    Vec q0, pEff;
    double tau;
    mutable Regular work;

    /// q(s), or false where Reg(s tau) does not converge.
    bool position(double s, Vec& q) const {
      if (s == 0.0) {
        q = q0;
        return true;
      }
      if (!vci->regular(s * tau, q0, pEff, work)) return false;
      q = q0 + (s * tau) * work.w;
      return true;
    }
    void gaps(double s, GapVec& out) const {
      Vec q;
      if (!position(s, q)) {
        out.setConstant(std::numeric_limits<double>::quiet_NaN());
        return;
      }
      for (int j = 0; j < kGaps; ++j) out[j] = vci->model_.gap(j, q);
    }
    double gap(int j, double s) const {
      Vec q;
      return position(s, q) ? vci->model_.gap(j, q) : std::numeric_limits<double>::quiet_NaN();
    }
    /// dG_j/ds = n_j . tau (w + s tau dw/dtau') at tau' = s tau.
    double gapRate(int j, double s) const {
      if (!vci->regular(s * tau, q0, pEff, work)) return std::numeric_limits<double>::quiet_NaN();
      const double t = s * tau;
      const Vec dwdt = vci->sensitivity(t, q0, work, vci->regularResidualTau(t, q0, work.w));
      return vci->model_.gapGradient(j, q0 + t * work.w).dot(tau * (work.w + t * dwdt));
    }
    double gapRoundoff(int j, double s) const {
      Vec q;
      return position(s, q) ? impact::gapRoundoff(vci->model_, j, q) : 0.0;
    }
  };

  /// The state of one run: the node (q_k, p_k) and the last segment that ends at it (its length,
  /// chord velocity and multipliers: the trace's discrete energy and constraint columns, and the
  /// initial guess of the next regular solve).
  struct State {
    Vec q = Vec::Zero(), p = Vec::Zero();
    Regular last;
    double lastTau = 0.0;
    /// Settled contacts, bit j for gap j (restitution < 1 only); 0 in flight.
    unsigned held = 0;
    /// Forces of the held gaps at the last step (the next one's Newton guess).
    GapForces force = GapForces::Zero();
  };

  /// `h` in s (> 0).
  LdapVci(const Model& model, double h, const LdapOptions& options = {})
      : model_(model), dl_(model_, options.discretisation), h_(h), options_(options) {
    options_.maxImpactsPerStep =
        std::clamp(options_.maxImpactsPerStep, 1, impact::kMaxImpactsPerStep);
    options_.subsamples = std::max(options_.subsamples, 1);
    options_.maxIterations = std::max(options_.maxIterations, 2);
  }
  // dl_ refers to model_: a copy refers to its own.
  LdapVci(const LdapVci& other)
      : model_(other.model_), dl_(model_, other.options_.discretisation), h_(other.h_),
        options_(other.options_) {}
  LdapVci& operator=(const LdapVci&) = delete;

  const Model& model() const { return model_; }
  const DiscreteLagrangian<Model>& discreteLagrangian() const { return dl_; }
  double timeStep() const { return h_; }
  const LdapOptions& options() const { return options_; }

  /// The node state (q, p) (the discrete initial data, see the conversions below). The last
  /// segment is a zero-length one (E_d = node energy limit).
  State initialState(const Vec& q, const Vec& p) const {
    State s;
    s.q = q;
    s.p = p;
    Regular r;
    if (regular(0.0, q, p, r)) s.last = r;
    return s;
  }
  /// The node state (q, p) with the (virtual) segment of length tauPrev (s) and chord velocity
  /// wPrev that ends at q, for the trace columns at node 0 (e.g. the backward chord of the
  /// initial-data conversion).
  State initialState(const Vec& q, const Vec& p, const Vec& wPrev, double tauPrev) const {
    State s = initialState(q, p);
    s.last.w = wPrev;
    s.last.ok = true;
    s.lastTau = tauPrev;
    return s;
  }

  // ---- what a state shows (trace columns) ------------------------------------------------
  const Vec& q(const State& s) const { return s.q; }
  const Vec& p(const State& s) const { return s.p; }
  double lastSegmentTau(const State& s) const { return s.lastTau; }
  /// Chord velocity w = (q_k - q_start)/tau of the last segment.
  const Vec& segmentVelocity(const State& s) const { return s.last.w; }
  /// Start point of the last segment.
  Vec lastSegmentStart(const State& s) const { return s.q - s.lastTau * s.last.w; }
  /// E_d of the last segment, J.
  double lastSegmentEnergy(const State& s) const {
    return dl_.Ed(lastSegmentStart(s), s.last.w, s.lastTau);
  }
  /// Discrete-constraint residual W(psi) w of the last segment (velocity units).
  ConVec lastSegmentConstraint(const State& s) const {
    return dl_.omega(lastSegmentStart(s), s.last.w, s.lastTau);
  }
  /// Node energy H(q_k, p_k) (ldap_model.hpp), J.
  double energy(const State& s) const { return nodeEnergy(model_, s.q, s.p); }

  // ---- what StepperSimulation needs ------------------------------------------------------
  double impactEnergy(const Point& x) const { return nodeEnergy(model_, x.q, x.p); }
  Eigen::Vector3d contactPoint(const Impact& i) const {
    return model_.contactPoint(i.gap, i.before.q);
  }
  const char* gapName(int j) const { return Model::gapName(j); }
  /// A contact is held (restitution < 1 only).
  bool settled(const State& s) const { return s.held != 0; }

  // ---- building blocks (public: the tests check them against the papers' equations) --------

  /// Residual of Reg(tau; q, p) at (w, lambda).
  KktVec regularResidual(double tau, const Vec& q, const Vec& p, const Vec& w,
                         const ConVec& lambda) const {
    KktVec r;
    r.template head<n>() = dl_.D1(q, w, tau) + p - model_.constraintMatrix(q).transpose() * lambda;
    if constexpr (m > 0) r.template tail<m>() = dl_.omega(q, w, tau);
    return r;
  }
  /// Analytic Jacobian of regularResidual with respect to (w, lambda).
  Kkt regularJacobian(double tau, const Vec& q, const Vec& w) const {
    Kkt J = Kkt::Zero();
    J.template topLeftCorner<n, n>() = dl_.dD1dw(q, w, tau);
    if constexpr (m > 0) {
      J.template topRightCorner<n, m>() = -model_.constraintMatrix(q).transpose();
      J.template bottomLeftCorner<m, n>() = dl_.domegadw(q, w, tau);
    }
    return J;
  }

  /// Solves Reg(tau; q, p) (tau >= 0, s); `r.w`/`r.lambda` are the initial guess on entry.
  bool regular(double tau, const Vec& q, const Vec& p, Regular& r) const {
    if constexpr (HasClosedRegular<Model>) {
      if (options_.useClosedForms) {
        const ClosedForm cf =
            model_.regularClosedForm(options_.discretisation, tau, q, p, r.w, r.lambda);
        if (cf == ClosedForm::Solved) {
          r.iterations = 0;
          r.ok = r.w.allFinite() && r.lambda.allFinite();
          return r.ok;
        }
        if (cf == ClosedForm::Failed) {
          r.ok = false;
          return false;
        }
      }
    }
    return newtonRegular(tau, q, p, r);
  }

  /// Reg by Newton with the analytic Jacobian (also used when a closed form exists, by tests).
  bool newtonRegular(double tau, const Vec& q, const Vec& p, Regular& r) const {
    r.ok = false;
    if (!r.w.allFinite()) r.w.setZero();
    if (!r.lambda.allFinite()) r.lambda.setZero();
    double prev = std::numeric_limits<double>::infinity();
    for (int it = 1; it <= options_.maxIterations; ++it) {
      const KktVec res = regularResidual(tau, q, p, r.w, r.lambda);
      const Kkt J = regularJacobian(tau, q, r.w);
      if (!res.allFinite() || !J.allFinite()) return false;
      const KktVec delta = -J.partialPivLu().solve(res);
      if (!delta.allFinite()) return false;
      r.w += delta.template head<n>();
      if constexpr (m > 0) r.lambda += delta.template tail<m>();
      r.iterations = it;
      const double step = delta.template head<n>().template lpNorm<Eigen::Infinity>();
      const double scale = 1.0 + r.w.template lpNorm<Eigen::Infinity>();
      if (step <= options_.tolerance * scale) {
        r.ok = true;
        return true;
      }
      // At the round-off floor the step stops shrinking: accept once it is tiny anyway.
      if (step <= 1e-10 * scale && step > 0.25 * prev) {
        r.ok = true;
        return true;
      }
      prev = step;
    }
    return false;
  }

  /// dw/d(parameter) at a solution of Reg, where d(residual)/d(parameter) = b (length n+m).
  Vec sensitivity(double tau, const Vec& q, const Regular& r, const KktVec& b) const {
    const Kkt J = regularJacobian(tau, q, r.w);
    return (-J.partialPivLu().solve(b)).template head<n>();
  }
  /// d(residual)/dtau of Reg at fixed (w, lambda).
  KktVec regularResidualTau(double tau, const Vec& q, const Vec& w) const {
    KktVec b;
    b.template head<n>() = dl_.dD1dtau(q, w, tau);
    if constexpr (m > 0) b.template tail<m>() = dl_.domegadtau(q, w, tau);
    return b;
  }
  /// d(residual)/dmu of the post-impact problem (r1 = D1 + p^ + mu n - W^T lambda).
  static KktVec impulseDirection(const Vec& nj) {
    KktVec b = KktVec::Zero();
    b.template head<n>() = nj;
    return b;
  }

  /// p^ of the impact equation for the chosen reading (see the file comment).
  Vec impactMomentum(const Vec& pMinus, int j, const Vec& qi) const {
    if constexpr (HasBoundaryMaps<Model>) {
      if (options_.reading != ImpactReading::Consistent) {
        using BMat = Eigen::Matrix<double, n, n - 1>;
        using PMat = Eigen::Matrix<double, n - 1, n>;
        using TVec = Eigen::Matrix<double, n - 1, 1>;
        const BMat B = model_.boundaryTangentBasis(j, qi);
        const PMat Pi = model_.boundaryProjection(j, qi, options_.projectionVariant);
        TVec pt;
        if (options_.reading == ImpactReading::Paper) {
          // (I8) pi_S^*(p~) = p~- has n equations for n-1 unknowns: least squares.
          const Eigen::Matrix<double, n - 1, n - 1> PPt = Pi * Pi.transpose();
          pt = PPt.partialPivLu().solve(Pi * pMinus);
        } else {
          pt = B.transpose() * pMinus;  // (I8') p~ = i_S^*(p~-)
        }
        return Pi.transpose() * pt;  // lifted by pi_S^*, a right inverse of i_S^* = B^T
      }
    }
    (void)j;
    (void)qi;
    return pMinus;
  }

  /// The post-impact energy equation F(mu) = E_d(q~, w+(mu), tau) - E- and its analytic
  /// derivative; `post` holds the initial guess on entry and the Reg solution on exit.
  bool energyEquation(const Vec& qi, const Vec& pHat, const Vec& nj, double eMinus, double tau,
                      double mu, Regular& post, double& F, double& dF) const {
    if (!regular(tau, qi, pHat + mu * nj, post)) return false;
    F = dl_.Ed(qi, post.w, tau) - eMinus;
    const Vec dw = sensitivity(tau, qi, post, impulseDirection(nj));
    dF = dl_.dEddw(qi, post.w, tau).dot(dw);
    return std::isfinite(F) && std::isfinite(dF);
  }

  /// The impact seen in the reduced velocities z (v = X z, G = X^T M X, nu = X^T n): the incoming
  /// normal rate nu^T z-, the impulse muStar that zeroes the normal rate of pHat + mu n, and the
  /// reduced reflection (C2), whose normal rate is -rate.
  struct NormalRates {
    double a = 0.0;            ///< nu^T G^-1 nu
    double rate = 0.0;         ///< incoming normal rate nu^T z- (< 0 when approaching)
    double muStar = 0.0;       ///< zero normal rate
    double reflection = 0.0;   ///< = -2 rate / a when pHat = p~- ((C2))
    double kinetic = 0.0;      ///< 1/2 z-^T G z-, J
    const char* failure = "";  ///< no admissible impulse (nu = 0) or not approaching
    double failureValue = 0.0;
  };
  NormalRates normalRates(const Vec& qi, const Vec& pHat, const Vec& pMinus, const Vec& nj) const {
    NormalRates r;
    const XMat X = model_.distributionBasis(qi);
    const RMat G = X.transpose() * model_.massMatrix(qi) * X;
    const RVec nu = X.transpose() * nj;
    const auto Glu = G.partialPivLu();
    const RVec zMinus = Glu.solve(X.transpose() * pMinus);
    const RVec zHat = Glu.solve(X.transpose() * pHat);
    r.a = nu.dot(Glu.solve(nu));
    if (!(nu.norm() > 1e-12 * (X.norm() * nj.norm())) || !(r.a > 0.0)) {
      r.failure = "nu = X^T n = 0: the velocity constraints are tangent to the boundary, no "
                  "admissible impulse";
      r.failureValue = nu.norm();
      return r;
    }
    r.rate = nu.dot(zMinus);
    if (!(r.rate < 0.0)) {
      r.failure = "grazing impact: the incoming velocity does not approach the boundary "
                  "(normal rate nu^T z)";
      r.failureValue = r.rate;
      return r;
    }
    r.muStar = -nu.dot(zHat) / r.a;
    r.reflection = r.muStar - r.rate / r.a;
    r.kinetic = 0.5 * zMinus.dot(G * zMinus);
    return r;
  }

  /// The energy root mu is replaced by the reflection (core/numerics/grazing.hpp). Not in paper
  /// mode: its p^ is not p~-, so its "reflection" is no reflection, and the mode exists to
  /// reproduce P000's literal equations.
  bool nearGrazing(double mu, const NormalRates& nr) const {
    return options_.reading != ImpactReading::Paper &&
           reboundNeedsReflection(mu, nr.reflection, nr.muStar);
  }

  /// Rebound impulse at q~ (step 3 of the file header) for the impact equation with incoming
  /// momentum pHat (p~- itself in the consistent reading, see impactMomentum()); pMinus is the
  /// true incoming momentum p~-. Newton on F(mu) from the rebound root of F's local parabola
  /// (mu* + |nu^T z-|/a, where mu* zeroes the normal rate of pHat + mu n and z- is the reduced
  /// incoming velocity: in the consistent reading this is the reduced reflection (C2)),
  /// safeguarded by Brent above mu*; no rebound root -> that guess with its residual (grazing);
  /// nu = X^T n = 0 -> failure (no admissible impulse); z- not approaching -> failure (grazing).
  Impulse solveImpulse(const Vec& qi, const Vec& pHat, const Vec& pMinus, const Vec& nj,
                       double eMinus, double tau, const Regular& guess) const {
    Impulse out;
    out.post = guess;
    const NormalRates nr = normalRates(qi, pHat, pMinus, nj);
    if (*nr.failure) {
      out.failure = nr.failure;
      out.failureValue = nr.failureValue;
      return out;
    }
    const double rate = nr.rate, muStar = nr.muStar, reflection = nr.reflection;
    const double eScale = std::fabs(eMinus) + nr.kinetic + std::fabs(model_.potential(qi)) + 1e-300;
    const double eTol = options_.tolerance * eScale;
    const double nScale = 1e-13 * (std::fabs(rate) / std::sqrt(nr.a));  // tolerance on n . w+

    double mu = reflection, F = 0.0, dF = 0.0;
    bool converged = false;
    Regular post = guess;
    for (int it = 0; it < options_.maxIterations; ++it) {
      if (!energyEquation(qi, pHat, nj, eMinus, tau, mu, post, F, dF)) break;
      if (std::fabs(F) <= eTol) {
        converged = true;
        break;
      }
      if (!(dF != 0.0)) break;
      const double step = F / dF;
      mu -= step;
      if (std::fabs(step) <= 4.0 * kEps * std::fabs(mu)) {
        converged = energyEquation(qi, pHat, nj, eMinus, tau, mu, post, F, dF);
        break;
      }
    }
    if (converged && nj.dot(post.w) > nScale) {
      if (!nearGrazing(mu, nr)) {
        out.mu = mu;
        out.post = post;
        out.residual = F;
        out.ok = true;
        return out;
      }
      return reflect(qi, pHat, nj, eMinus, tau, reflection, guess);  // near grazing
    }
    // Safeguard: F is close to a parabola in mu with its minimum near zero normal rate (mu*);
    // the rebound root lies above it.
    auto f = [&](double x) {
      double Fx = 0.0, dFx = 0.0;
      if (!energyEquation(qi, pHat, nj, eMinus, tau, x, post, Fx, dFx)) {
        return std::numeric_limits<double>::quiet_NaN();
      }
      return Fx;
    };
    const double lo = muStar;
    const double flo = f(lo);
    if (!std::isfinite(flo)) {
      out.failure = "the post-impact regular solve did not converge";
      return out;
    }
    if (!(flo < 0.0)) {  // no real rebound root (grazing): reduced reflection
      return reflect(qi, pHat, nj, eMinus, tau, reflection, guess);
    } else {
      double width = std::max(reflection - lo, 1e-300);
      double hi = lo + width, fhi = f(hi);
      for (int i = 0; i < 60 && std::isfinite(fhi) && !(fhi > 0.0); ++i) {
        width *= 2.0;
        hi = lo + width;
        fhi = f(hi);
      }
      if (!(fhi > 0.0)) {
        out.failure = "no rebound root of the discrete energy equation (I5) was bracketed";
        out.failureValue = fhi;
        return out;
      }
      const RootResult r = brentRoot(f, lo, hi, flo, fhi, options_.tolerance * std::fabs(hi), eTol);
      if (!r.converged) {
        out.failure = "the impulse (discrete energy equation (I5)) did not converge";
        out.failureValue = r.fx;
        return out;
      }
      if (nearGrazing(r.x, nr)) {
        return reflect(qi, pHat, nj, eMinus, tau, reflection, guess);  // near grazing
      }
      out.mu = r.x;
    }
    return finishImpulse(qi, pHat, nj, eMinus, tau, guess, out);
  }

  /// The reduced reflection (C2) instead of the energy root, near grazing
  /// (core/numerics/grazing.hpp): the O(h^2) energy defect stays, the rebound rate is exact.
  Impulse reflect(const Vec& qi, const Vec& pHat, const Vec& nj, double eMinus, double tau,
                  double reflection, const Regular& guess) const {
    Impulse out;
    out.mu = reflection;
    out.reflectionFallback = true;
    return finishImpulse(qi, pHat, nj, eMinus, tau, guess, out);
  }

  /// The post-impact segment for the impulse out.mu: fills out.post, out.residual, out.ok.
  Impulse finishImpulse(const Vec& qi, const Vec& pHat, const Vec& nj, double eMinus, double tau,
                        const Regular& guess, Impulse out) const {
    Regular post = guess;
    double F = 0.0, dF = 0.0;
    if (!energyEquation(qi, pHat, nj, eMinus, tau, out.mu, post, F, dF)) {
      out.failure = "the post-impact regular solve did not converge";
      return out;
    }
    out.post = post;
    out.residual = F;
    if (!(nj.dot(post.w) > 0.0)) {
      out.failure = "no rebound: the post-impact velocity does not leave the boundary (n . w+)";
      out.failureValue = nj.dot(post.w);
      return out;
    }
    out.ok = true;
    return out;
  }

  /// (78) at (mu, d): impulse mu on n_j at q~, next contact on gap k after d seconds.
  JointResidual jointResidual(const Vec& qi, const Vec& pHat, const Vec& nj, double eMinus, int k,
                              double mu, double d, const Regular& guess) const {
    JointResidual out;
    out.post = guess;
    if (!regular(d, qi, pHat + mu * nj, out.post)) return out;
    const Vec& w = out.post.w;
    const Vec v = qi + d * w;
    const Vec nk = model_.gapGradient(k, v);
    const Vec dEdw = dl_.dEddw(qi, w, d);
    const Vec dwdmu = sensitivity(d, qi, out.post, impulseDirection(nj));
    const Vec dwdd = sensitivity(d, qi, out.post, regularResidualTau(d, qi, w));
    out.r[0] = dl_.Ed(qi, w, d) - eMinus;
    out.r[1] = model_.gap(k, v);
    out.J(0, 0) = dEdw.dot(dwdmu);
    out.J(0, 1) = dEdw.dot(dwdd) + dl_.dEddtau(qi, w, d);
    out.J(1, 0) = nk.dot(d * dwdmu);
    out.J(1, 1) = nk.dot(w + d * dwdd);
    out.ok = out.r.allFinite() && out.J.allFinite();
    return out;
  }

  /// Newton on (78) from (mu0, d0) with the analytic Jacobian, backtracking on the scaled
  /// residual, d kept in [0, tauMax].
  Joint solveJoint(const Vec& qi, const Vec& pHat, const Vec& nj, double eMinus, int k,
                   double mu0, double d0, double tauMax, const Regular& guess) const {
    Joint out;
    const double eScale = std::fabs(eMinus) + std::fabs(model_.potential(qi)) + 1e-300;
    const double eTol = options_.tolerance * eScale;
    const double gTol = options_.tolerance * model_.lengthScale;
    auto merit = [&](const Eigen::Vector2d& r) {
      return std::fabs(r[0]) / eScale + std::fabs(r[1]) / model_.lengthScale;
    };
    double mu = mu0, d = std::clamp(d0, 0.0, tauMax);
    JointResidual R = jointResidual(qi, pHat, nj, eMinus, k, mu, d, guess);
    for (int it = 0; it < options_.maxIterations && R.ok; ++it) {
      if (std::fabs(R.r[0]) <= eTol && std::fabs(R.r[1]) <= gTol) {
        out.ok = true;
        break;
      }
      if (!(std::fabs(R.J.determinant()) > 0.0)) break;
      const Eigen::Vector2d step = -R.J.partialPivLu().solve(R.r);
      if (std::fabs(step[0]) <= 8.0 * kEps * std::fabs(mu) &&
          std::fabs(step[1]) <= 8.0 * kEps * tauMax) {
        out.ok = true;  // round-off floor
        break;
      }
      const double m0 = merit(R.r);
      bool accepted = false;
      for (double t = 1.0; t > 1e-9; t *= 0.5) {
        const double muT = mu + t * step[0];
        const double dT = std::clamp(d + t * step[1], 0.0, tauMax);
        JointResidual RT = jointResidual(qi, pHat, nj, eMinus, k, muT, dT, R.post);
        if (RT.ok && merit(RT.r) < m0) {
          mu = muT;
          d = dT;
          R = RT;
          accepted = true;
          break;
        }
      }
      if (!accepted) break;
    }
    out.mu = mu;
    out.d = d;
    out.post = R.post;
    out.energyResidual = R.r[0];
    out.gapResidual = R.r[1];
    out.ok = out.ok && R.ok && nj.dot(R.post.w) > 0.0;  // still a rebound
    return out;
  }

  /// All gaps at q.
  GapVec gaps(const Vec& q) const {
    GapVec g;
    for (int j = 0; j < kGaps; ++j) g[j] = model_.gap(j, q);
    return g;
  }

  /// First crossing of any gap along the discrete path s -> q0 + s tau w(s), w(s) from
  /// Reg(s tau; q0, pEff), s in [0, 1], by the shared detector (core/impact/crossing.hpp). `end`
  /// is Reg(tau) (s = 1). On a crossing `at` is Reg at the root.
  Crossing findCrossing(const Vec& q0, const Vec& pEff, double tau, const Regular& end) const {
    using GapVec = typename Path::GapVec;
    const Path path{this, q0, pEff, tau, end};
    const GapVec g0 = gaps(q0), g1 = gaps(q0 + tau * end.w);
    impact::DetectionOptions detection;
    detection.subsamples = options_.subsamples;
    detection.tolerance = options_.tolerance;
    Crossing out;
    static_cast<impact::Crossing&>(out) = impact::firstCrossing(
        path, g0, g1, GapVec::Constant(std::numeric_limits<double>::infinity()), detection);
    if (!out.found || out.failed) return out;
    out.at = path.work;
    if (!regular(out.s * tau, q0, pEff, out.at)) out.failed = true;
    return out;
  }

  // ---- restitution < 1 and settled contacts (docs/restitution.md) ------------------------------

  /// Reduced velocity z = G^-1 X^T p at q (reducedVelocity) and the momentum M X z of the
  /// constrained velocity X z: the same pairing with Delta(q), and the node energy of M X z is
  /// 1/2 z^T G z + V for every model (the constraint reactions W^T lambda carried by a discrete
  /// momentum drop out).
  Vec constrainedMomentum(const Vec& q, const Vec& p) const {
    const XMat X = model_.distributionBasis(q);
    return model_.massMatrix(q) * (X * reducedVelocity(model_, q, p));
  }

  /// The contacts' inverse inertia K = N^T W N and normal rates u = N^T W p of the gaps idx[0..k)
  /// at q, W = X G^-1 X^T (impact/restitution.hpp).
  void contactMatrices(const int* idx, int k, const Vec& q, const Vec& p, impact::ContactMatrix& K,
                       impact::ContactVector& u) const {
    const XMat X = model_.distributionBasis(q);
    const RMat G = X.transpose() * model_.massMatrix(q) * X;
    const auto lu = G.partialPivLu();
    const RVec z = lu.solve(X.transpose() * p);
    K.resize(k, k);
    u.resize(k);
    for (int r = 0; r < k; ++r) {
      const RVec nu = X.transpose() * model_.gapGradient(idx[r], q);
      u[r] = nu.dot(z);
      const RVec Gnu = lu.solve(nu);
      for (int c = 0; c < k; ++c)
        K(c, r) = (X.transpose() * model_.gapGradient(idx[c], q)).dot(Gnu);
    }
  }

  /// Newton's law at gap j (index idx[0]) landing at q with momentum pMinus while the gaps
  /// idx[1..k) are held (impact::simultaneousImpulses: e on gap j, 0 on the held ones). Returns the
  /// momentum p- + N P (the same pairing as the law's constrained momentum), NaN when unsolvable;
  /// `impulse` gets gap j's P.
  Vec jump(const int* idx, int k, const Vec& q, const Vec& pMinus, double* impulse) const {
    impact::ContactMatrix K;
    impact::ContactVector u, e(k), P;
    contactMatrices(idx, k, q, pMinus, K, u);
    for (int r = 0; r < k; ++r) e[r] = r == 0 ? options_.restitution : 0.0;
    double scale = 0.0;
    for (int r = 0; r < k; ++r) scale = std::max(scale, std::fabs(u[r]));
    if (!impact::simultaneousImpulses(K, u, e, 1e-13 * scale, P)) {
      return Vec::Constant(std::numeric_limits<double>::quiet_NaN());
    }
    Vec out = pMinus;
    for (int r = 0; r < k; ++r) out += P[r] * model_.gapGradient(idx[r], q);
    if (impulse) *impulse = P[0];
    return out;
  }

  /// p with the normal rates of the `held` gaps at q set to zero (the e = 0 jump, W-orthogonal),
  /// as a constrained momentum M X z; the kinetic energy it takes is added to `lost`.
  Vec projectHeld(unsigned held, const Vec& q, const Vec& p, double* lost = nullptr) const {
    int idx[kGaps];
    const int k = heldMembers(held, idx);
    Vec out = p;
    if (k > 0) {
      impact::ContactMatrix K;
      impact::ContactVector u;
      contactMatrices(idx, k, q, p, K, u);
      const impact::ContactVector mu = K.partialPivLu().solve(-u);
      for (int r = 0; r < k; ++r) out += mu[r] * model_.gapGradient(idx[r], q);
    }
    out = constrainedMomentum(q, out);
    if (lost) *lost += nodeEnergy(model_, q, p) - nodeEnergy(model_, q, out);
    return out;
  }

  static int heldMembers(unsigned held, int* out) {
    int k = 0;
    for (int j = 0; j < kGaps; ++j) {
      if (held & (1u << j)) out[k++] = j;
    }
    return k;
  }

  /// The settling rule (impact::bounceBelowResolution) for gap j rebounding at q with momentum
  /// pPlus, the `held` gaps closed: the rebound rate u+ = nu . z+ and the normal acceleration over
  /// one step of this scheme's own flow, a_n = 2 (u+ h - g_j(q_h)) / h^2, q_h the end of a step of
  /// length h from (q, pPlus) (free when nothing is held).
  bool settles(int j, unsigned held, const Vec& q, const Vec& pPlus) const {
    if (!(options_.restitution < 1.0)) return false;
    int idx[1] = {j};
    impact::ContactMatrix K;
    impact::ContactVector u;
    contactMatrices(idx, 1, q, pPlus, K, u);
    const double rate = std::max(u[0], 0.0);
    HeldRegular r;
    if (!heldRegular(h_, q, pPlus, held, r)) return false;
    const double an = 2.0 * (rate * h_ - model_.gap(j, q + h_ * r.w)) / (h_ * h_);
    return impact::bounceBelowResolution(rate, an, h_);
  }

  /// A solved regular problem with held gaps (Reg plus g_S(q + tau w) = 0).
  struct HeldRegular {
    Vec w = Vec::Zero();
    ConVec lambda = ConVec::Zero();
    GapForces force = GapForces::Zero();  ///< the held gaps' multipliers (> 0: pushing)
    bool ok = false;
  };

  /// Reg(tau; q, p) with the `held` gaps closed: unknowns (w, lambda, kappa) of
  ///   D1 L_d(q, q + tau w, tau) + p + (tau/2) N(q) kappa = W(q)^T lambda,
  ///   W(psi) w = 0,   g_S(q + tau w) = 0
  /// by Newton with the analytic Jacobian (kappa: the held forces, N their gradients as columns).
  /// With nothing held it is regular(). `r` holds the initial guess on entry.
  bool heldRegular(double tau, const Vec& q, const Vec& p, unsigned held, HeldRegular& r) const {
    int idx[kGaps];
    const int k = heldMembers(held, idx);
    if (k == 0 || !(tau > 1e-9 * h_)) {
      Regular reg;
      reg.w = r.w;
      reg.lambda = r.lambda;
      if (!regular(tau, q, p, reg)) return r.ok = false;
      r.w = reg.w;
      r.lambda = reg.lambda;
      r.ok = true;
      return true;
    }
    constexpr int kMax = n + m + kGaps;
    using HMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMax, kMax>;
    using HVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMax, 1>;
    const int size = n + m + k;
    const WMat W0 = model_.constraintMatrix(q);
    r.ok = false;
    if (!r.w.allFinite()) r.w.setZero();
    double prev = std::numeric_limits<double>::infinity();
    for (int it = 1; it <= options_.maxIterations; ++it) {
      const Vec q1 = q + tau * r.w;
      HVec res(size);
      Vec r1 = dl_.D1(q, r.w, tau) + p - W0.transpose() * r.lambda;
      for (int c = 0; c < k; ++c)
        r1 += (0.5 * tau * r.force[idx[c]]) * model_.gapGradient(idx[c], q);
      res.template head<n>() = r1;
      if constexpr (m > 0) res.template segment<m>(n) = dl_.omega(q, r.w, tau);
      double gapFloor = 0.0;
      for (int c = 0; c < k; ++c) {
        res[n + m + c] = model_.gap(idx[c], q1);
        gapFloor = std::max(gapFloor, impact::gapRoundoff(model_, idx[c], q1));
      }
      HMat J = HMat::Zero(size, size);
      J.topLeftCorner(n, n) = dl_.dD1dw(q, r.w, tau);
      if constexpr (m > 0) {
        J.block(0, n, n, m) = -W0.transpose();
        J.block(n, 0, m, n) = dl_.domegadw(q, r.w, tau);
      }
      for (int c = 0; c < k; ++c) {
        J.block(0, n + m + c, n, 1) = 0.5 * tau * model_.gapGradient(idx[c], q);
        J.block(n + m + c, 0, 1, n) = tau * model_.gapGradient(idx[c], q1).transpose();
      }
      if (!res.allFinite() || !J.allFinite()) return false;
      const HVec delta = -J.partialPivLu().solve(res);
      if (!delta.allFinite()) return false;
      r.w += delta.template head<n>();
      if constexpr (m > 0) r.lambda += delta.template segment<m>(n);
      for (int c = 0; c < k; ++c) r.force[idx[c]] += delta[n + m + c];
      const double step = delta.template head<n>().template lpNorm<Eigen::Infinity>();
      const double scale = 1.0 + r.w.template lpNorm<Eigen::Infinity>();
      double gapResidual = 0.0;
      for (int c = 0; c < k; ++c) gapResidual = std::max(gapResidual, std::fabs(res[n + m + c]));
      const bool gapsHeld = gapResidual <= options_.tolerance * model_.lengthScale + gapFloor;
      if (step <= options_.tolerance * scale && gapsHeld) return r.ok = true;
      if (step <= 1e-10 * scale && step > 0.25 * prev) return r.ok = true;  // round-off floor
      prev = step;
    }
    return false;
  }

  /// The node of a held segment of length tau from (q, p): q + tau w and its momentum, projected
  /// on the held gaps' tangent (the velocity half of RATTLE).
  Point heldNode(double tau, const Vec& q, const HeldRegular& r, unsigned held) const {
    const Vec q1 = q + tau * r.w;
    return Point{q1, projectHeld(held, q1, dl_.D2(q, r.w, tau))};
  }

  // ---- impact::HeldMotion (the engine side of impact::advanceHeld) ----------------------------
  using Node = Point;
  using Segment = HeldRegular;
  bool solveHeld(double tau, const Node& x, unsigned held, Segment& seg) const {
    return heldRegular(tau, x.q, x.p, held, seg);
  }
  static double heldForce(const Segment& seg, int j) { return seg.force[j]; }
  Node heldEnd(double tau, const Node& x, const Segment& seg, unsigned held) const {
    return heldNode(tau, x.q, seg, held);
  }
  double gap(int j, const Node& x) const { return model_.gap(j, x.q); }
  /// dg_j/dt of the constrained velocity X z at the node.
  double gapRate(int j, const Node& x) const {
    const XMat X = model_.distributionBasis(x.q);
    return model_.gapGradient(j, x.q).dot(X * reducedVelocity(model_, x.q, x.p));
  }
  double gapRoundoff(int j, const Node& x) const { return impact::gapRoundoff(model_, j, x.q); }
  /// No bound: the detector samples the flow (as for the free steps, findCrossing).
  void heldCurvature(const Node&, unsigned, double, const Segment&, GapVec& kappa) const {
    kappa.setConstant(std::numeric_limits<double>::infinity());
  }
  bool heldJump(int j, unsigned held, const Node& x, Node& y, double& impulse) const {
    int idx[kGaps + 1];
    idx[0] = j;
    const int k = 1 + heldMembers(held & ~(1u << j), idx + 1);
    y.q = x.q;
    y.p = jump(idx, k, x.q, constrainedMomentum(x.q, x.p), &impulse);
    if (!y.p.allFinite()) return false;
    y.p = constrainedMomentum(x.q, y.p);
    return true;
  }
  double energyOf(const Node& x) const { return nonholonomic::nodeEnergy(model_, x.q, x.p); }
  bool settles(int j, unsigned held, const Node& x) const { return settles(j, held, x.q, x.p); }
  Node projectHeld(unsigned held, const Node& x) const {
    return {x.q, projectHeld(held, x.q, x.p)};
  }

  /// Advances `state` from the fraction `elapsed` of the step, node (q, p) there with the `held`
  /// gaps closed and their normal rates zero, to the end of the step (impact::advanceHeld). On
  /// failure the state is not modified.
  RunStatus advanceHeld(State& state, Report& report, double elapsed, const Vec& q, const Vec& p,
                        unsigned held) const {
    Segment guess;
    guess.w = state.last.w;
    guess.lambda = state.last.lambda;
    guess.force = state.force;
    impact::DetectionOptions detection;
    detection.subsamples = options_.subsamples;
    detection.tolerance = options_.tolerance;
    impact::HeldEnd<LdapVci> end;
    const RunStatus st = impact::advanceHeld(
        *this, elapsed, Node{q, p}, held, guess, detection, options_.maxImpactsPerStep, report,
        [](Report& r, int j, double s, const Node& before, const Node& after, double impulse) {
          record(r, j, s, before.q, before.p, after.p, impulse, 0.0, 0.0, false);
        },
        end);
    if (st != RunStatus::Ok) return st;
    if (!(end.node.q.allFinite() && end.node.p.allFinite())) {
      return failStep(report, RunStatus::NonFinite, "the state became non-finite", -1, 1.0);
    }
    state.q = end.node.q;
    state.p = end.node.p;
    state.last.w = end.segment.w;
    state.last.lambda = end.segment.lambda;
    state.last.ok = true;
    state.lastTau = end.lastTau;
    state.held = end.held;
    state.force = end.segment.force;
    return RunStatus::Ok;
  }

  /// Newton's law at q~ for the impact equation's momentum pHat (restitution < 1): the impulse on
  /// n_j that gives the normal rate -e u- (u- of the true incoming momentum pMinus), and the
  /// remaining segment Reg(tau; q~, pHat + mu n_j) (no rebound is required of it: a return to the
  /// boundary within the step is the next impact). A contact that does not approach gets none.
  Impulse newtonImpulse(const Vec& qi, const Vec& pHat, const Vec& pMinus, const Vec& nj,
                        double tau, const Regular& guess) const {
    Impulse out;
    out.newton = true;
    const XMat X = model_.distributionBasis(qi);
    const RMat G = X.transpose() * model_.massMatrix(qi) * X;
    const RVec nu = X.transpose() * nj;
    const auto Glu = G.partialPivLu();
    const double a = nu.dot(Glu.solve(nu));
    if (!(nu.norm() > 1e-12 * (X.norm() * nj.norm())) || !(a > 0.0)) {
      out.failure =
          "nu = X^T n = 0: the velocity constraints are tangent to the boundary, no "
          "admissible impulse";
      out.failureValue = nu.norm();
      return out;
    }
    const double rate = nu.dot(Glu.solve(X.transpose() * pMinus));
    // Shift from the impulse on p~- to the impulse on p^: 0 in the consistent reading (p^ = p~-);
    // with boundary maps p^ - p~- is along n_j.
    const double shift = -nu.dot(Glu.solve(X.transpose() * pHat)) / a + rate / a;
    out.mu = (rate < 0.0 ? impact::restitutionImpulse(rate, a, options_.restitution) : 0.0) + shift;
    out.post = guess;
    if (!regular(tau, qi, pHat + out.mu * nj, out.post)) {
      out.failure = "the post-impact regular solve did not converge";
      return out;
    }
    out.ok = std::isfinite(out.mu);
    return out;
  }

  // ---- the step ------------------------------------------------------------------------------

  /// Advances the node of `state` by one step h. On failure the state is left unchanged and
  /// `report` says what failed; otherwise it lists the step's impacts.
  RunStatus step(State& state, Report& report) const {
    report.clear();
    if (state.held) [[unlikely]]
      return advanceHeld(state, report, 0.0, state.q, state.p, state.held);
    Regular full = state.last;
    if (!regular(h_, state.q, state.p, full)) {
      return failStep(report, RunStatus::SolverFailed,
                      "the regular step (Reg, P000 (1)) did not converge", -1, 1.0, "iterations",
                      full.iterations);
    }
    const Crossing x = findCrossing(state.q, state.p, h_, full);
    if (x.failed) {
      return failStep(report, RunStatus::SolverFailed, "the impact time (root of the gap along "
                      "Reg(s h)) did not converge", x.gap, x.s);
    }
    if (!x.found) [[likely]] {
      const Vec qEnd = state.q + h_ * full.w;
      const Vec pEnd = dl_.D2(state.q, full.w, h_);
      if (!(qEnd.allFinite() && pEnd.allFinite())) {
        return failStep(report, RunStatus::NonFinite, "the state became non-finite", -1, 1.0);
      }
      state.q = qEnd;
      state.p = pEnd;
      state.last = full;
      state.lastTau = h_;
      return RunStatus::Ok;
    }
    return impactStep(state, report, x);
  }

 private:
  static constexpr double kEps = std::numeric_limits<double>::epsilon();
  /// advanceHeld from a copy (`next`) of `state`, committed into `state` only if it succeeds.
  RunStatus commitHeld(State& state, State next, Report& report, double elapsed, const Vec& q,
                       const Vec& p, unsigned held) const {
    const RunStatus st = advanceHeld(next, report, elapsed, q, p, held);
    if (st == RunStatus::Ok) state = next;
    return st;
  }

  static void record(Report& report, int j, double s, const Vec& qi, const Vec& pMinus,
                     const Vec& pPlus, double mu, double eMinus, double residual, bool fallback) {
    Impact& r = report.add();
    r.s = s;
    r.gap = j;
    r.before = Point{qi, pMinus};
    r.after = Point{qi, pPlus};
    r.impulse = mu;
    r.detail.eMinus = eMinus;
    r.energyResidual = residual;
    r.reflected = fallback;
    r.jointFallback = false;
  }

  /// Post-impact solve, with the model's closed form when it has one (the multipliers then follow
  /// from (I6') in least squares, exact when n = 1 + m).
  Impulse postImpact(const Vec& qi, const Vec& pHat, const Vec& pMinus, const Vec& nj,
                     double eMinus, double tau, int j, const Vec& wMinus,
                     const Regular& guess) const {
    if (options_.restitution < 1.0) return newtonImpulse(qi, pHat, pMinus, nj, tau, guess);
    if constexpr (HasClosedImpact<Model> && 1 + m <= n) {
      if (options_.useClosedForms) {
        Impulse out;
        out.post = guess;
        const ClosedForm cf = model_.postImpactClosedForm(options_.discretisation, tau, j, qi,
                                                          eMinus, wMinus, out.post.w);
        if (cf == ClosedForm::Solved) {
          // (I6'): [n, -W^T] (mu, lambda~) = -(D1 + p^).
          Eigen::Matrix<double, n, 1 + m> A;
          A.col(0) = nj;
          if constexpr (m > 0) A.template rightCols<m>() = -model_.constraintMatrix(qi).transpose();
          const Vec rhs = -(dl_.D1(qi, out.post.w, tau) + pHat);
          const Eigen::Matrix<double, 1 + m, 1> x =
              (A.transpose() * A).partialPivLu().solve(A.transpose() * rhs);
          out.mu = x[0];
          if constexpr (m > 0) out.post.lambda = x.template tail<m>();
          out.post.ok = true;
          out.residual = dl_.Ed(qi, out.post.w, tau) - eMinus;
          out.ok = x.allFinite() && nj.dot(out.post.w) > 0.0;
          if (out.ok) {
            const NormalRates nr = normalRates(qi, pHat, pMinus, nj);
            // Near grazing the generic solve below reflects instead (grazing.hpp).
            if (!*nr.failure && !nearGrazing(out.mu, nr)) {
              return out;
            }
          }
        }
      }
    }
    (void)j;
    (void)wMinus;
    return solveImpulse(qi, pHat, pMinus, nj, eMinus, tau, guess);
  }

  [[gnu::noinline]] RunStatus impactStep(State& state, Report& report, const Crossing& x) const {
    const Vec& q0 = state.q;
    const Vec& p0 = state.p;
    int j = x.gap;
    double elapsed = x.s;  // fraction of h from t_k to the current impact point
    Regular pre = x.at;    // incoming segment q_k -> q~
    Vec qi = q0 + (x.s * h_) * pre.w;
    if constexpr (HasClosedImpact<Model>) {
      if (options_.useClosedForms && !x.immediate) {
        double s = x.s;
        Vec qc = qi, wc = pre.w;
        if (model_.impactClosedForm(options_.discretisation, h_, q0, p0, j, x.sLo, x.sHi, s, qc,
                                    wc) == ClosedForm::Solved) {
          elapsed = s;
          qi = qc;
          pre.w = wc;
        }
      }
    }
    const double tau1 = elapsed * h_;
    Vec pMinus = dl_.D2(q0, pre.w, tau1);
    const double eMinus = dl_.Ed(q0, pre.w, tau1);  // E- (I5); kept by every later segment
    Vec wMinus = pre.w;
    Regular guess = pre;
    for (;;) {
      if (report.impactCount >= options_.maxImpactsPerStep) {
        return failStep(report, RunStatus::Zeno, kZenoText, j, elapsed, "cap",
                        report.impactCount);
      }
      const Vec nj = model_.gapGradient(j, qi);
      const double tau = std::max(1.0 - elapsed, 0.0) * h_;  // remaining time
      const Vec pHat = impactMomentum(pMinus, j, qi);
      Impulse imp = postImpact(qi, pHat, pMinus, nj, eMinus, tau, j, wMinus, guess);
      if (!imp.ok) {
        return failStep(report, RunStatus::SolverFailed,
                        *imp.failure ? imp.failure
                                     : "the impulse (discrete energy equation (I5)) did not "
                                       "converge",
                        j, elapsed, "value", imp.failure[0] ? imp.failureValue : imp.residual);
      }
      const Vec pEff = pHat + imp.mu * nj;
      if (imp.newton) {
        // Newton's law: the impact's momenta as constrained momenta M X z (their energies are
        // 1/2 z^T G z + V, so the loss is exactly (1/2) m_eff (1 - e^2) u-^2).
        const Vec pIn = constrainedMomentum(qi, pMinus), pOut = constrainedMomentum(qi, pEff);
        report.dissipated += nodeEnergy(model_, qi, pIn) - nodeEnergy(model_, qi, pOut);
        if (settles(j, 0, qi, pOut)) {  // bounces below the step's resolution
          record(report, j, elapsed, qi, pIn, pOut, imp.mu, eMinus, 0.0, false);
          const Vec pHeld = projectHeld(1u << j, qi, pOut, &report.dissipated);
          report.settledAt = elapsed;
          State next = state;
          next.last = imp.post;
          return commitHeld(state, next, report, elapsed, qi, pHeld, 1u << j);
        }
      }
      Crossing y;
      if (tau > 1e-12 * h_) {
        y = findCrossing(qi, pEff, tau, imp.post);
      }
      if (y.failed) {
        return failStep(report, RunStatus::SolverFailed, "the contact time of a further impact "
                        "(root of the gap) did not converge", y.gap,
                        elapsed + y.s * (1.0 - elapsed));
      }
      if (!y.found) {  // (I9)-(I10): finish the step on the remaining time
        const Vec qEnd = qi + tau * imp.post.w;
        const Vec pEnd = dl_.D2(qi, imp.post.w, tau);
        if (!(qEnd.allFinite() && pEnd.allFinite())) {
          return failStep(report, RunStatus::NonFinite, "the state became non-finite", j, elapsed);
        }
        if (imp.newton) {
          record(report, j, elapsed, qi, constrainedMomentum(qi, pMinus),
                 constrainedMomentum(qi, pEff), imp.mu, eMinus, 0.0, false);
        } else {
          record(report, j, elapsed, qi, pMinus, -dl_.D1(qi, imp.post.w, tau), imp.mu, eMinus,
                 imp.residual, imp.reflectionFallback);
        }
        state.q = qEnd;
        state.p = pEnd;
        state.last = imp.post;
        state.lastTau = tau;
        return RunStatus::Ok;
      }
      if (y.immediate) {
        // Corner: gap y.gap touches at q~ too and is crossed at once. Sequential impulse at
        // the same point, same E- and remaining time; the momentum after the first is incoming.
        if (imp.newton) {
          record(report, j, elapsed, qi, constrainedMomentum(qi, pMinus),
                 constrainedMomentum(qi, pEff), imp.mu, eMinus, 0.0, false);
        } else {
          record(report, j, elapsed, qi, pMinus, -dl_.D1(qi, imp.post.w, tau), imp.mu, eMinus,
                 imp.residual, imp.reflectionFallback);
        }
        pMinus = pEff;
        wMinus = imp.post.w;
        guess = imp.post;
        j = y.gap;
        continue;
      }
      if (imp.reflectionFallback || imp.newton) {
        // A grazing reflection keeps its mu (grazing.hpp), and so does Newton's law: the next
        // contact is the detected one, y.at = Reg(d; q~, p~+) with d = y.s tau.
        const double d = y.s * tau;
        if (imp.newton) {
          record(report, j, elapsed, qi, constrainedMomentum(qi, pMinus),
                 constrainedMomentum(qi, pEff), imp.mu, eMinus, 0.0, false);
        } else {
          record(report, j, elapsed, qi, pMinus, -dl_.D1(qi, y.at.w, d), imp.mu, eMinus,
                 dl_.Ed(qi, y.at.w, d) - eMinus, true);
        }
        pMinus = dl_.D2(qi, y.at.w, d);
        wMinus = y.at.w;
        guess = y.at;
        qi = qi + d * y.at.w;
        j = y.gap;
        elapsed += d / h_;
        continue;
      }
      // Next crossing after d: solve the impulse and d together (78).
      const Joint js = solveJoint(qi, pHat, nj, eMinus, y.gap, imp.mu, y.s * tau, tau, y.at);
      if (!js.ok) {
        return failStep(report, RunStatus::SolverFailed, "the joint impulse / contact-time solve "
                        "(78) did not converge", y.gap, elapsed, "residual", js.energyResidual);
      }
      record(report, j, elapsed, qi, pMinus, -dl_.D1(qi, js.post.w, js.d), js.mu, eMinus,
             js.energyResidual, false);
      // (79): move to the next contact point.
      pMinus = dl_.D2(qi, js.post.w, js.d);
      wMinus = js.post.w;
      guess = js.post;
      qi = qi + js.d * js.post.w;
      j = y.gap;
      elapsed += js.d / h_;
    }
  }

  Model model_;
  DiscreteLagrangian<Model> dl_;
  double h_;
  LdapOptions options_;
};

// ---- conversion of continuous initial data (q(0), v(0)), v(0) in Delta(q(0)) ----------------
// (docs/nonholonomic-vci.md, "Initial data")

/// (q0, p0) for a start at node 0 = q(0), t = 0, such that the first regular step is
/// Reg(h; q0, p0) with p0 = -D1 L_d(q(0), q(0) + h v(0), h): for the rectangle discretisation this
/// reproduces the forward conversion q_1 = q(0) + h v(0) exactly (the discrete constraint holds)
/// and lets an impact happen in the very first step (P000 Algorithm 1's p0 fixed).
template <LdapModel Model>
typename Model::Vec forwardInitialMomentum(const DiscreteLagrangian<Model>& dl,
                                           const typename Model::Vec& q0,
                                           const typename Model::Vec& v0, double h) {
  return -dl.D1(q0, v0, h);
}

/// Continuous Legendre transform p0 = M(q(0)) v(0) (FMOW's start): for a
/// second-order scheme -D1 L_d(q(0), q(h), h) = p(0) + O(h^3), so node 0 stays at q(0), t = 0.
template <LdapModel Model>
typename Model::Vec legendreInitialMomentum(const Model& model, const typename Model::Vec& q0,
                                            const typename Model::Vec& v0) {
  return model.massMatrix(q0) * v0;
}

/// P000's symmetric (midpoint) conversion (P000 §4.1): q_0 = q(0) - (h/2) v(0),
/// q_1 = q(0) + (h/2) v(0), p_0 = -D1 L_d(q_0, q_1, h); node k then sits at t = (k - 1/2) h.
template <LdapModel Model>
void symmetricInitialState(const DiscreteLagrangian<Model>& dl, const typename Model::Vec& q,
                           const typename Model::Vec& v, double h, typename Model::Vec& q0,
                           typename Model::Vec& p0) {
  q0 = q - (0.5 * h) * v;
  p0 = -dl.D1(q0, v, h);
}

}  // namespace ricochet::nonholonomic
