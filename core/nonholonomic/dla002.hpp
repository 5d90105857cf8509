#pragma once
// P002's discrete Lagrange-d'Alembert (DLA) integrator with impacts, as printed (P002 §4-§5):
//
//  * Position-only two-step recursion (4): no momentum variable. The incoming discrete momentum
//    D2 L_d(q_{k-1}, q_k, tau) is recomputed every step from the position difference
//    (q_k - q_{k-1})/tau; then q_{k+1} solves
//        D2 L_d(q_{k-1}, q_k, tau) + D1 L_d(q_k, q_{k+1}, h) = W(q_k)^T lambda,
//        (q_k, q_{k+1}) in D_d (midpoint discrete constraint of P002 §5),
//    by Newton with the analytic Jacobian (P002 gives no closed form).
//  * Impact detection only by an inadmissible node ("When we first obtain a non-admissible
//    solution, we switch to the impact equations", P002 §5): no sub-sampling of the step.
//  * The impact equations (5), in P002's solve order (Remark 3, §5), each as one monolithic Newton
//    solve with the analytic Jacobian:
//      (a) (q-bar, alpha, lambda):  D2 L_d(q_{i-2}, q_{i-1}) + D1 L_d(q_{i-1}, q-bar, alpha h)
//          = W(q_{i-1})^T lambda,  q-bar on dC,  (q_{i-1}, q-bar) in D_d;
//      (b) (q_i, mu, lambda~):  D2 L_d(q_{i-1}, q-bar, alpha h) + D1 L_d(q-bar, q_i, (1-alpha)h)
//          = -mu n - ... i.e. the jump in -N_C + D° (P002 prints "∪": read as the sum, the
//          annihilator of T dC ∩ D; P002's own solve recovers "q_i and the multipliers", plural,
//          which the union cannot give), the D3 energy equality (4th line of (5)), and
//          (q-bar, q_i) in D_d;
//      (c) q_{i+1} from the second line of (5), i.e. the recursion (4) with the shortened
//          previous segment (q-bar, q_i, (1-alpha)h).
//    P002 states no root choice for (b); its trajectories stay admissible, so the rebound root is
//    taken (Newton started from the continuous reflection (C2)). A crossing in the remaining
//    sub-step is resolved by applying (a)-(b) again from q-bar (not covered by P002).
//  * Initial data: two points satisfying the discrete constraint (P002 Remark 3); here
//    (q_{-1}, q_0) with q_0 = q(0) and q_{-1} given by the caller.
//
// With the sum reading these are the same equations as the LDAP VCI with the midpoint constraint;
// what differs is the position-only form (momenta from position differences, not carried as
// state), node-only detection (a crossing that enters and leaves within one step is missed) and
// the solver (docs/nonholonomic-vci.md, "P002's DLA as printed (dla-002)"). Allocation-free.

#include "core/nonholonomic/ldap_vci.hpp"

#include <Eigen/Core>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::nonholonomic {

template <LdapModel Model>
class Dla002 {
 public:
  static constexpr int n = Model::kDim;
  static constexpr int m = Model::kConstraints;
  static constexpr int kGaps = Model::kGaps;
  using Vec = typename Model::Vec;
  using ConVec = typename Model::ConVec;
  using XMat = typename Model::XMat;
  using RVec = typename Model::RVec;
  using RMat = typename Model::RMat;
  using Blocks = LdapVci<Model>;
  using Regular = typename Blocks::Regular;
  using Point = impact::PhasePoint<Vec>;
  using Impact = impact::Impact<Point, LdapImpactDetail>;
  using Report = impact::StepReport<Impact>;

  /// The state of one run: the last two nodes (the recursion is position-only), the length and
  /// chord velocity of the segment between them, and the discrete momentum D2 L_d of that segment.
  struct State {
    Vec qPrev = Vec::Zero(), q = Vec::Zero(), p = Vec::Zero(), wLast = Vec::Zero();
    double tauPrev = 1.0;
  };
  static constexpr int N = n + 1 + m;  ///< unknowns of (a) and (b)
  using NVec = Eigen::Matrix<double, N, 1>;
  using NMat = Eigen::Matrix<double, N, N>;

  /// `options.discretisation` should be Midpoint (P002); closed forms are never used.
  Dla002(const Model& model, double h, LdapOptions options = {})
      : blocks_(model, h, withoutClosedForms(options)), h_(h) {}

  /// Initial data: two nodes (qPrev, q) a time `tauPrev` (s) apart, on the discrete constraint.
  State initialState(const Vec& qPrev, const Vec& q, double tauPrev) const {
    State s;
    commit(s, qPrev, q, tauPrev);
    return s;
  }

  const Model& model() const { return blocks_.model(); }
  double timeStep() const { return h_; }
  const Blocks& blocks() const { return blocks_; }

  // ---- what a state shows (trace columns) ------------------------------------------------
  const Vec& q(const State& s) const { return s.q; }
  /// The discrete momentum at the node, D2 L_d(q_{k-1}, q_k, tau) from the positions.
  const Vec& p(const State& s) const { return s.p; }
  double energy(const State& s) const { return nodeEnergy(model(), s.q, s.p); }
  Vec segmentVelocity(const State& s) const { return s.wLast; }
  double lastSegmentTau(const State& s) const { return s.tauPrev; }
  double lastSegmentEnergy(const State& s) const { return dl().Ed(s.qPrev, s.wLast, s.tauPrev); }
  ConVec lastSegmentConstraint(const State& s) const {
    return dl().omega(s.qPrev, s.wLast, s.tauPrev);
  }

  // ---- what StepperSimulation needs ------------------------------------------------------
  double impactEnergy(const Point& x) const { return nodeEnergy(model(), x.q, x.p); }
  Eigen::Vector3d contactPoint(const Impact& i) const {
    return model().contactPoint(i.gap, i.before.q);
  }
  const char* gapName(int j) const { return Model::gapName(j); }

  /// Advances `state` by one step h. On failure the state is left unchanged and `report` says
  /// what failed; otherwise it lists the step's impacts.
  RunStatus step(State& state, Report& report) const {
    report.clear();
    Regular r;
    r.w = state.wLast;
    if (!blocks_.newtonRegular(h_, state.q, state.p, r)) {
      return failStep(report, RunStatus::SolverFailed, "the DLA step (P002 (4)) did not converge",
                      -1, 1.0);
    }
    Vec qNext = state.q + h_ * r.w;
    int j = firstViolated(state.q, qNext);
    if (j < 0) [[likely]] {
      if (!qNext.allFinite()) {
        return failStep(report, RunStatus::NonFinite, "the state became non-finite", -1, 1.0);
      }
      commit(state, state.q, qNext, h_);
      return RunStatus::Ok;
    }
    // Impact: (a) then (b) on the segment from qs with incoming momentum ps over tau.
    Vec qs = state.q, ps = state.p;
    double tau = h_, elapsed = 0.0;
    Regular seg = r;
    for (;;) {
      if (report.impactCount >= blocks_.options().maxImpactsPerStep) {
        return failStep(report, RunStatus::Zeno, kZenoText, j, elapsed, "cap",
                        report.impactCount);
      }
      const Vec qEndTrial = qs + tau * seg.w;
      const double g0 = model().gap(j, qs), g1 = model().gap(j, qEndTrial);
      // Initial guess: linear interpolation of the gap (mid-step if it touches at the start).
      double alpha = g0 > 0.0 ? std::clamp(g0 / (g0 - g1), 0.0, 1.0) : 0.5;
      Vec wBar = seg.w;
      ConVec lambda = seg.lambda;
      if (!solveA(qs, ps, tau, j, alpha, wBar, lambda)) {
        return failStep(report, RunStatus::SolverFailed, "the impact point system (P002 (5), "
                        "first line) did not converge", j, elapsed, "alpha", alpha);
      }
      const Vec qBar = qs + (alpha * tau) * wBar;
      const Vec pMinus = dl().D2(qs, wBar, alpha * tau);
      const double eMinus = dl().Ed(qs, wBar, alpha * tau);
      const double tau2 = (1.0 - alpha) * tau;
      const Vec nj = model().gapGradient(j, qBar);
      Vec w2;
      double mu = 0.0;
      ConVec lambda2;
      const char* why = solveB(qBar, pMinus, nj, eMinus, tau2, w2, mu, lambda2);
      if (why) {
        return failStep(report, RunStatus::SolverFailed, why, j, elapsed + alpha * (1.0 - elapsed),
                        "mu", mu);
      }
      elapsed += alpha * (1.0 - elapsed);
      Impact& rec = report.add();
      rec.s = elapsed;
      rec.gap = j;
      rec.before = Point{qBar, pMinus};
      rec.after = Point{qBar, -dl().D1(qBar, w2, tau2)};
      rec.impulse = mu;
      rec.detail.eMinus = eMinus;
      rec.energyResidual = dl().Ed(qBar, w2, tau2) - eMinus;
      rec.reflected = false;
      rec.jointFallback = false;
      const Vec qEnd = qBar + tau2 * w2;
      j = firstViolated(qBar, qEnd, j);
      if (!(tau2 > 1e-12 * h_)) {
        // Impact at the end of the step (alpha -> 1): the post-impact segment has no length,
        // so the position-only form cannot carry w+; keep it on a virtual segment of length h
        // ending at q-bar (its D2 L_d is M w+ for the disk).
        if (!w2.allFinite()) {
          return failStep(report, RunStatus::NonFinite, "the state became non-finite", -1, 1.0);
        }
        state.qPrev = qBar - h_ * w2;
        state.q = qBar;
        state.tauPrev = h_;
        state.wLast = w2;
        updateMomentum(state);
        return RunStatus::Ok;
      }
      if (j < 0) {
        if (!qEnd.allFinite()) {
          return failStep(report, RunStatus::NonFinite, "the state became non-finite", -1, 1.0);
        }
        commit(state, qBar, qEnd, tau2);
        return RunStatus::Ok;
      }
      // The remaining sub-step leaves C again: treat it as a new segment from q-bar.
      qs = qBar;
      ps = rec.after.p;
      tau = tau2;
      seg.w = w2;
      seg.lambda = lambda2;
    }
  }

  /// Residual and analytic Jacobian of (a) in y = (w-bar, alpha, lambda); q-bar = qs + alpha tau w.
  void residualA(const Vec& qs, const Vec& ps, double tau, int j, const NVec& y, NVec& R,
                 NMat& Jac) const {
    const Vec w = y.template head<n>();
    const double alpha = y[n];
    const ConVec lambda = y.template tail<m>();
    const double t = alpha * tau;
    const Vec qb = qs + t * w;
    const auto W = model().constraintMatrix(qs);
    R.template head<n>() = dl().D1(qs, w, t) + ps - W.transpose() * lambda;
    R[n] = model().gap(j, qb);
    R.template tail<m>() = dl().omega(qs, w, t);
    Jac.setZero();
    Jac.template block<n, n>(0, 0) = dl().dD1dw(qs, w, t);
    Jac.template block<n, 1>(0, n) = tau * dl().dD1dtau(qs, w, t);
    Jac.template block<n, m>(0, n + 1) = -W.transpose();
    const Vec ng = model().gapGradient(j, qb);
    Jac.template block<1, n>(n, 0) = t * ng.transpose();
    Jac(n, n) = tau * ng.dot(w);
    Jac.template block<m, n>(n + 1, 0) = dl().domegadw(qs, w, t);
    Jac.template block<m, 1>(n + 1, n) = tau * dl().domegadtau(qs, w, t);
  }

  /// Residual and analytic Jacobian of (b) in y = (w, mu, lambda~); q_i = qBar + tau2 w.
  void residualB(const Vec& qBar, const Vec& pMinus, const Vec& nj, double eMinus, double tau2,
                 const NVec& y, NVec& R, NMat& Jac) const {
    const Vec w = y.template head<n>();
    const double mu = y[n];
    const ConVec lambda = y.template tail<m>();
    const auto W = model().constraintMatrix(qBar);
    R.template head<n>() = dl().D1(qBar, w, tau2) + pMinus + mu * nj - W.transpose() * lambda;
    R[n] = dl().Ed(qBar, w, tau2) - eMinus;
    R.template tail<m>() = dl().omega(qBar, w, tau2);
    Jac.setZero();
    Jac.template block<n, n>(0, 0) = dl().dD1dw(qBar, w, tau2);
    Jac.template block<n, 1>(0, n) = nj;
    Jac.template block<n, m>(0, n + 1) = -W.transpose();
    Jac.template block<1, n>(n, 0) = dl().dEddw(qBar, w, tau2).transpose();
    Jac.template block<m, n>(n + 1, 0) = dl().domegadw(qBar, w, tau2);
  }

 private:
  static LdapOptions withoutClosedForms(LdapOptions o) {
    o.useClosedForms = false;
    return o;
  }
  const DiscreteLagrangian<Model>& dl() const { return blocks_.discreteLagrangian(); }

  void updateMomentum(State& s) const { s.p = dl().D2(s.qPrev, s.wLast, s.tauPrev); }

  void commit(State& s, const Vec& qPrev, const Vec& q, double tau) const {
    s.qPrev = qPrev;
    s.q = q;
    s.tauPrev = tau;
    // Position-only form: the next step's momentum comes from the position difference.
    s.wLast = (s.q - s.qPrev) / s.tauPrev;
    updateMomentum(s);
  }

  /// The gap violated at qEnd whose linear interpolation from qStart is earliest, or -1.
  /// `skip` (the gap just hit, zero at qStart) ranks last: it can only be crossed again after
  /// the path has moved inward.
  int firstViolated(const Vec& qStart, const Vec& qEnd, int skip = -1) const {
    int best = -1;
    double bestFrac = 3.0;
    for (int j = 0; j < kGaps; ++j) {
      const double g1 = model().gap(j, qEnd);
      if (!(g1 < 0.0)) continue;
      const double g0 = model().gap(j, qStart);
      const double frac = j == skip ? 2.0 : (g0 > 0.0 ? g0 / (g0 - g1) : 0.0);
      if (frac < bestFrac) {
        bestFrac = frac;
        best = j;
      }
    }
    return best;
  }

  /// Newton with the analytic Jacobian, damped by backtracking on |R|: the Newton direction
  /// always descends |R|^2, and near a grazing contact the full step overshoots the fold of the
  /// energy equation (undamped, 14 of 40 near-tangent disk-table runs failed here). Converged
  /// when every component of the step is below tolerance * (1 + |y_i|) (or it stagnates at the
  /// round-off floor); the damping never changes a converged solution.
  template <class Residual>
  bool newton(NVec& y, Residual&& residual, int alphaIndex) const {
    constexpr int kMaxHalvings = 30;
    const double tol = blocks_.options().tolerance;
    double prev = std::numeric_limits<double>::infinity();
    NVec R, Rtrial;
    NMat Jac, Jtrial;
    residual(y, R, Jac);
    for (int it = 0; it < blocks_.options().maxIterations; ++it) {
      if (!R.allFinite() || !Jac.allFinite()) return false;
      const NVec delta = -Jac.partialPivLu().solve(R);
      if (!delta.allFinite()) return false;
      const double r0 = R.norm();
      double lambda = 1.0;
      NVec trial;
      for (int k = 0;; ++k) {
        trial = y + lambda * delta;
        if (alphaIndex >= 0) trial[alphaIndex] = std::clamp(trial[alphaIndex], 0.0, 1.0);
        residual(trial, Rtrial, Jtrial);
        // Accept a decrease, a full step at the round-off floor, or the last halving.
        if ((Rtrial.allFinite() && Rtrial.norm() < r0) || k == kMaxHalvings || r0 == 0.0) break;
        lambda *= 0.5;
      }
      double step = 0.0;
      for (int i = 0; i < N; ++i) {
        step = std::max(step, std::fabs(trial[i] - y[i]) / (1.0 + std::fabs(trial[i])));
      }
      y = trial;
      R = Rtrial;
      Jac = Jtrial;
      if (step <= tol) return true;
      if (lambda == 1.0 && step <= 1e-10 && step > 0.25 * prev) return true;
      prev = step;
    }
    return false;
  }

  bool solveA(const Vec& qs, const Vec& ps, double tau, int j, double& alpha, Vec& w,
              ConVec& lambda) const {
    NVec y;
    y.template head<n>() = w;
    y[n] = alpha;
    y.template tail<m>() = lambda;
    const bool ok = newton(
        y, [&](const NVec& yy, NVec& R, NMat& Jac) { residualA(qs, ps, tau, j, yy, R, Jac); }, n);
    w = y.template head<n>();
    alpha = y[n];
    lambda = y.template tail<m>();
    return ok && alpha > 0.0 && alpha <= 1.0;
  }

  /// nullptr on success, else why it failed.
  const char* solveB(const Vec& qBar, const Vec& pMinus, const Vec& nj, double eMinus,
                     double tau2, Vec& w, double& mu, ConVec& lambda) const {
    // Start from the continuous reflection (C2) of the incoming reduced velocity.
    const XMat X = model().distributionBasis(qBar);
    const RMat G = X.transpose() * model().massMatrix(qBar) * X;
    const RVec nu = X.transpose() * nj;
    const RVec zMinus = G.partialPivLu().solve(X.transpose() * pMinus);
    RVec zPlus;
    if (!reducedReflection(G, nu, zMinus, zPlus)) {
      return "nu = X^T n = 0: the velocity constraints are tangent to the boundary, no "
             "admissible impulse";
    }
    NVec y;
    y.template head<n>() = X * zPlus;
    y[n] = -2.0 * nu.dot(zMinus) / nu.dot(G.partialPivLu().solve(nu));
    y.template tail<m>().setZero();
    const bool ok = newton(
        y,
        [&](const NVec& yy, NVec& R, NMat& Jac) {
          residualB(qBar, pMinus, nj, eMinus, tau2, yy, R, Jac);
        },
        -1);
    w = y.template head<n>();
    mu = y[n];
    lambda = y.template tail<m>();
    if (!ok) {
      // With the sum reading, (b) is the LDAP VCI's energy equation: F(mu) at zero
      // normal rate tells a missing rebound root (a nearly tangent contact) from a solver failure.
      const auto nr = blocks_.normalRates(qBar, pMinus, pMinus, nj);
      Regular post;
      post.w = X * zPlus;
      double F = 0.0, dF = 0.0;
      if (!*nr.failure &&
          blocks_.energyEquation(qBar, pMinus, nj, eMinus, tau2, nr.muStar, post, F, dF) &&
          F >= 0.0) {
        return "no rebound root: at this nearly tangent contact the energy equality of P002 (5) "
               "has no solution, and P002 gives no fallback ('variational' reflects here, "
               "'reduced' is exact)";
      }
      return "the post-impact system (P002 (5), third and fourth lines) did not converge";
    }
    if (!(nj.dot(w) > 0.0)) {
      return "the post-impact system (P002 (5)) converged to the pass-through root (no rebound)";
    }
    return nullptr;
  }

  Blocks blocks_;
  double h_;
};

}  // namespace ricochet::nonholonomic
