#pragma once
// The FMOW variational collision integrator in position-momentum form (FMOW §3.1-§4.1, eqs
// (71)-(79); derived in docs/planar-vci.md), generic over a PlanarModel (planar_model.hpp).
//
// State: node (q_k, p_k) at t_k = k h. Discrete Lagrangian: trapezoid (71), constant M.
//  * Smooth step = velocity Verlet (V) (identical to the DEL (73)):
//      q_{k+1} = S(h; q_k, p_k) = q_k + h M^-1 p_k - (h^2/2) M^-1 grad V(q_k)
//      p_{k+1} = p_k - (h/2)(grad V(q_k) + grad V(q_{k+1}))
//    The momentum comes from this second line, never from position differences, so a symmetry
//    momentum such as p_x stays bit-exact.
//  * Impact step: alpha from the first crossing of the drift (crossing.hpp); impact point
//    q~ = S(alpha h; q_k, p_k) (74a); incoming momentum p~- and discrete energy E- = E_d(q_k, q~,
//    alpha h); impulse mu from the discrete energy equality (75a)
//      F(mu) = E_d(q~, S((1-alpha)h; q~, p~- + mu n_j), (1-alpha)h) - E- = 0
//    with p~+ = p~- + mu n_j (76); then (V) on the remaining (1-alpha)h (77).
//  * A further crossing in the remaining sub-step: first impulse and second contact time solved
//    together, (78), then the next impact, (79), and so on; a gap already in contact at the
//    impact point gets a sequential impulse at the same point (a corner). At most
//    maxImpactsPerStep impacts per step, else RunStatus::Zeno. Where (78) has no solution (the
//    same gap again after a tiny hop: degenerate for linear V) the impulse is kept and the (78a)
//    defect reported. Near grazing (no real rebound root, or a root that moves the rebound's
//    normal rate by more than 1 %: core/numerics/grazing.hpp) the impulse is the pure reflection.
//  * Restitution e < 1 (docs/restitution.md): the discrete energy cannot balance, so the impulse
//    is Newton's law on the momentum at the impact point (impact/restitution.hpp), applied like
//    the grazing reflection (the next contact time is the detected one). When the rebound falls
//    below the step's resolution the contact settles: the rest of the step, and the steps after,
//    are the constrained flow of settled_motion.hpp until the contact lifts off. e = 1 takes
//    none of these paths.
//
// Energies are evaluated in momentum form, E_d(q, S(tau; q, p), tau) = 1/2 w^T M^-1 w +
// (V(q) + V(S))/2 with w = p - (tau/2) grad V(q) (equal to (72); no division by tau), so impacts
// at the ends of a step (alpha -> 0, alpha -> 1) need no special case: E_d -> H as tau -> 0.
//
// A constant stepper over an explicit PlanarState (Model/Data): step(state, report) advances one
// run's state and fills its report. Allocation-free; failures are returned as a RunStatus with an
// impact::StepFailure in the report, never thrown.

#include "core/impact/crossing.hpp"
#include "core/impact/restitution.hpp"
#include "core/impact/step_report.hpp"
#include "core/numerics/grazing.hpp"
#include "core/numerics/roots.hpp"
#include "core/planar/planar_model.hpp"
#include "core/planar/planar_state.hpp"
#include "core/planar/settled_motion.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::planar {

struct FmowOptions {
  /// Scenario.integrator.tolerance: root brackets (fraction of a step), energy and gap residuals
  /// (relative to the energy scale and the model's lengthScale).
  double tolerance = 1e-14;
  int subsamples = 8;                            ///< K: gap samples per step of the crossing search
  int maxImpactsPerStep = kPlanarImpactCap;      ///< Zeno cap (<= impact::kMaxImpactsPerStep)
  int maxIterations = 60;                        ///< Newton cap (Brent gets 200)
  double restitution = 1.0;  ///< e in [0, 1]; 1: the variational (energy-balanced) impacts
};

template <PlanarModel Model>
class FmowIntegrator {
 public:
  using Vec = typename Model::Vec;
  using GapVec = typename Model::GapVec;
  using State = PlanarState<Model>;
  using Point = impact::PhasePoint<Vec>;
  using Impact = impact::Impact<Point>;
  using Report = impact::StepReport<Impact>;
  using Options = FmowOptions;

  /// The drift S(s tau; q, p) as a path in s in [0, 1]: q(s) = q + s (a + s b) with
  /// a = tau M^-1 p, b = -(tau^2/2) M^-1 grad V(q) (first line of (V)).
  struct Drift {
    const Model* model;
    Vec q, a, b;
    Vec position(double s) const { return q + s * (a + s * b); }
    double gapRate(int j, double s) const {  // dG_j/ds
      return model->gapGradient(j, position(s)).dot(a + (2.0 * s) * b);
    }
  };

  struct ImpulseSolution {
    double mu = 0.0;
    double residual = 0.0;  ///< F(mu), J
    bool ok = false;
    bool reflectionFallback = false;  ///< near grazing: mu = -2B/A (grazing.hpp)
    bool jointFallback = false;       ///< (78) unsolvable: sequential impulse (see impactStep)
    bool newton = false;              ///< restitution < 1: Newton's law (newtonImpulse)
  };
  struct JointSolution {
    double mu = 0.0;  ///< first impulse
    double d = 0.0;   ///< time from the first to the second contact, s (= beta h)
    double energyResidual = 0.0, gapResidual = 0.0;
    bool ok = false;
  };
  /// Residual and analytic Jacobian of (78) in the unknowns (mu, d).
  struct JointResidual {
    Eigen::Vector2d r;  ///< (E_d(q~, q~', d) - E-, g_k(q~'))
    Eigen::Matrix2d J;  ///< d r / d (mu, d)
    /// Round-off floors of r: a change of q~' below one ulp per coordinate moves r[1] by up to
    /// sum |n_k,i| ulp(q~'_i) and r[0] by sum |grad V_i| ulp(q~'_i) (large x or theta after long
    /// runs), so tighter residuals are not attainable.
    Eigen::Vector2d floor;
  };

  /// `h` in s (> 0).
  FmowIntegrator(const Model& model, double h, const FmowOptions& options = {})
      : model_(model),
        inverseMass_(model.massDiagonal.cwiseInverse()),
        h_(h),
        options_(options),
        settled_(model_, inverseMass_, h, settledOptions(options)) {
    options_.maxImpactsPerStep =
        std::clamp(options_.maxImpactsPerStep, 1, impact::kMaxImpactsPerStep);
    detection_.subsamples = options_.subsamples;
    detection_.tolerance = options_.tolerance;
  }

  const Model& model() const { return model_; }
  double timeStep() const { return h_; }
  const FmowOptions& options() const { return options_; }

  /// Node 0 = (q0, p0); the last segment is declared of length h (the segment that would end at
  /// the initial node).
  State initialState(const Vec& q0, const Vec& p0) const {
    State s;
    s.q = q0;
    s.p = p0;
    model_.gaps(q0, s.gaps);
    s.lastTau = h_;
    return s;
  }
  /// Node energy at an impact point, J (StepperSimulation).
  double impactEnergy(const Point& x) const { return nodeEnergy(x.q, x.p); }
  Eigen::Vector3d contactPoint(const Impact& imp) const {
    return model_.contactPoint(imp.gap, imp.before.q);
  }
  const char* gapName(int j) const { return Model::gapName(j); }
  /// A contact is held (settled_motion.hpp; restitution < 1 only).
  bool settled(const State& s) const { return s.held != 0; }
  const SettledMotion<Model>& settledMotion() const { return settled_; }

  // ---- building blocks (public: the tests check them against FMOW's equations) -------------
  Vec inverseMass(const Vec& v) const { return v.cwiseProduct(inverseMass_); }
  /// Kinetic energy 1/2 p^T M^-1 p, J.
  double kineticEnergy(const Vec& p) const { return 0.5 * p.dot(inverseMass(p)); }
  /// Node energy H(q, p) = 1/2 p^T M^-1 p + V(q), J.
  double nodeEnergy(const Vec& q, const Vec& p) const {
    return kineticEnergy(p) + model_.potential(q);
  }
  /// The drift of length tau (s) from (q, p); `c` = grad V(q).
  Drift drift(double tau, const Vec& q, const Vec& p, const Vec& c) const {
    return Drift{&model_, q, tau * inverseMass(p), (-0.5 * tau * tau) * inverseMass(c)};
  }
  /// E_d (72) of the drift segment of length tau (s) from (q, p), in momentum form; c = grad V(q).
  double segmentEnergy(double tau, const Vec& q, const Vec& p, const Vec& c) const {
    const Vec w = p - (0.5 * tau) * c;  // = M (q1 - q0) / tau
    return kineticEnergy(w) + 0.5 * (model_.potential(q) +
                                     model_.potential(drift(tau, q, p, c).position(1.0)));
  }

  /// The discrete energy equation (75a) at mu and its analytic derivative
  /// F'(mu) = w+^T n + (tau/2) grad V(q_end)^T M^-1 n (w+ = (q_end - q~)/tau).
  std::pair<double, double> energyEquation(const Vec& qi, const Vec& ci, const Vec& pMinus,
                                           const Vec& n, double eMinus, double tau,
                                           double mu) const {
    const Vec pPlus = pMinus + mu * n;
    const Vec v = inverseMass(pPlus - (0.5 * tau) * ci);
    const Vec qEnd = drift(tau, qi, pPlus, ci).position(1.0);
    const double df = v.dot(n) + 0.5 * tau * model_.potentialGradient(qEnd).dot(inverseMass(n));
    return {segmentEnergy(tau, qi, pPlus, ci) - eMinus, df};
  }

  /// Impulse mu at the impact point qi (ci = grad V(qi)) with incoming momentum pMinus, normal n,
  /// incoming discrete energy eMinus and remaining time tau (s): rebound root of the energy
  /// equation (75a). Linear V: closed form (Q)
  /// (docs/planar-vci.md, "The impulse: rebound root of the energy equation"). Otherwise Newton
  /// with the analytic F' from the reflection (C1), safeguarded by Brent on [mu at zero normal
  /// rate, ...]. Near grazing (no real rebound root, or reboundNeedsReflection): the pure
  /// reflection mu = -2B/A, with its residual and the flag set.
  ImpulseSolution solveImpulse(const Vec& qi, const Vec& ci, const Vec& pMinus, const Vec& n,
                               double eMinus, double tau) const {
    ImpulseSolution out;
    const Vec mn = inverseMass(n);
    const double A = n.dot(mn);        // n^T M^-1 n
    const double B = mn.dot(pMinus);   // n^T M^-1 p~- (< 0 when approaching)
    if (!(A > 0.0) || !std::isfinite(B)) return out;
    const double reflection = impact::restitutionImpulse(B, A, 1.0);  // (C1)
    auto F = [&](double mu) {
      return segmentEnergy(tau, qi, pMinus + mu * n, ci) - eMinus;
    };
    if constexpr (Model::kLinearPotential) {
      // F(mu) = (A/2) mu^2 + B mu + delta exactly: V is linear.
      const double delta = F(0.0);
      const double disc = B * B - 2.0 * A * delta;
      if (disc < 0.0) {
        out.mu = reflection;
        out.reflectionFallback = true;
      } else {
        const double r = std::sqrt(disc);
        // Rebound root (-B + r)/A, written without cancellation for either sign of B.
        out.mu = B <= 0.0 ? (-B + r) / A : -2.0 * delta / (B + r);
        if (reboundNeedsReflection(out.mu, reflection, -B / A)) {  // near grazing
          out.mu = reflection;
          out.reflectionFallback = true;
        }
      }
      out.residual = F(out.mu);
      out.ok = std::isfinite(out.mu) && std::isfinite(out.residual);
      return out;
    } else {
      const double eTol = options_.tolerance * energyScale(qi, pMinus, eMinus);
      double mu = reflection;
      bool converged = false;
      for (int it = 0; it < options_.maxIterations && std::isfinite(mu); ++it) {
        const auto [f, df] = energyEquation(qi, ci, pMinus, n, eMinus, tau, mu);
        if (std::fabs(f) <= eTol) {
          converged = true;
          break;
        }
        if (!(df != 0.0)) break;
        const double step = f / df;
        mu -= step;
        if (std::fabs(step) <= 4.0 * kEps * std::fabs(mu)) {
          converged = true;
          break;
        }
      }
      if (converged && std::isfinite(mu) && mn.dot(pMinus + mu * n) > 0.0) {
        out.mu = mu;
      } else {
        // Safeguard: the rebound root lies above mu0 = -B/A, where the normal rate is zero.
        const double lo = -B / A;
        const double flo = F(lo);
        if (!(flo < 0.0)) {
          out.mu = reflection;
          out.reflectionFallback = true;
        } else {
          double width = std::max(std::fabs(reflection - lo), 1e-300);
          double hi = lo + width, fhi = F(hi);
          for (int i = 0; i < 200 && !(fhi > 0.0); ++i) {
            width *= 2.0;
            hi = lo + width;
            fhi = F(hi);
          }
          const RootResult r =
              brentRoot(F, lo, hi, flo, fhi, options_.tolerance * std::fabs(hi), eTol);
          if (!r.converged) {
            out.residual = r.fx;
            return out;
          }
          out.mu = r.x;
        }
      }
      if (!out.reflectionFallback && reboundNeedsReflection(out.mu, reflection, -B / A)) {
        out.mu = reflection;  // near grazing
        out.reflectionFallback = true;
      }
      out.residual = F(out.mu);
      out.ok = std::isfinite(out.mu) && std::isfinite(out.residual);
      return out;
    }
  }

  /// (78) at (mu, d): first impulse mu on n_j at qi, second contact on gap k after time d.
  JointResidual jointResidual(const Vec& qi, const Vec& ci, const Vec& pMinus, const Vec& nj,
                              double eMinus, int k, double mu, double d) const {
    const Vec pPlus = pMinus + mu * nj;
    const Vec v = inverseMass(pPlus - (0.5 * d) * ci);
    const Vec qe = drift(d, qi, pPlus, ci).position(1.0);
    const Vec ce = model_.potentialGradient(qe);
    const Vec nk = model_.gapGradient(k, qe);
    const Vec mnj = inverseMass(nj);
    const Vec dqdd = inverseMass(pPlus - d * ci);  // d q~' / d d
    JointResidual out;
    out.r[0] = segmentEnergy(d, qi, pPlus, ci) - eMinus;
    out.r[1] = model_.gap(k, qe);
    out.J(0, 0) = v.dot(nj) + 0.5 * d * ce.dot(mnj);
    out.J(0, 1) = -0.5 * v.dot(ci) + 0.5 * ce.dot(dqdd);
    out.J(1, 0) = d * nk.dot(mnj);
    out.J(1, 1) = nk.dot(dqdd);
    const Vec scale = qe.cwiseAbs().array() + model_.lengthScale;
    out.floor[0] = 4.0 * kEps * (std::fabs(eMinus) + kineticEnergy(pPlus) + ce.cwiseAbs().dot(scale));
    out.floor[1] = impact::gapRoundoff(model_, k, qe);
    return out;
  }

  /// Newton on (78) from (mu0, d0) with the analytic Jacobian, backtracking on the scaled
  /// residual, d kept in [0, tauMax]. Converged when each residual is within the tolerance plus
  /// its round-off floor.
  JointSolution solveJoint(const Vec& qi, const Vec& ci, const Vec& pMinus, const Vec& nj,
                           double eMinus, int k, double mu0, double d0, double tauMax) const {
    JointSolution out;
    const double eScale = energyScale(qi, pMinus, eMinus);
    const double eTol = options_.tolerance * eScale;
    const double gTol = options_.tolerance * model_.lengthScale;
    auto merit = [&](const Eigen::Vector2d& r) {
      return std::fabs(r[0]) / eScale + std::fabs(r[1]) / model_.lengthScale;
    };
    auto converged = [&](const JointResidual& X) {
      return std::fabs(X.r[0]) <= eTol + X.floor[0] && std::fabs(X.r[1]) <= gTol + X.floor[1];
    };
    double mu = mu0, d = std::clamp(d0, 0.0, tauMax);
    JointResidual R = jointResidual(qi, ci, pMinus, nj, eMinus, k, mu, d);
    for (int it = 0; it < options_.maxIterations; ++it) {
      if (!R.r.allFinite() || !R.J.allFinite()) break;
      if (converged(R)) {
        out.ok = true;
        break;
      }
      const Eigen::Matrix2d& J = R.J;
      const double det = J(0, 0) * J(1, 1) - J(0, 1) * J(1, 0);
      if (!(std::fabs(det) > 0.0)) break;
      const Eigen::Vector2d step(-(J(1, 1) * R.r[0] - J(0, 1) * R.r[1]) / det,
                                 -(J(0, 0) * R.r[1] - J(1, 0) * R.r[0]) / det);  // -J^-1 r
      if (std::fabs(step[0]) <= 8.0 * kEps * std::fabs(mu) &&
          std::fabs(step[1]) <= 8.0 * kEps * tauMax) {
        out.ok = true;  // at the round-off floor
        break;
      }
      const double m0 = merit(R.r);
      bool accepted = false;
      for (double lambda = 1.0; lambda > 1e-9; lambda *= 0.5) {
        const double muT = mu + lambda * step[0];
        const double dT = std::clamp(d + lambda * step[1], 0.0, tauMax);
        const JointResidual RT = jointResidual(qi, ci, pMinus, nj, eMinus, k, muT, dT);
        if (RT.r.allFinite() && merit(RT.r) < m0) {
          mu = muT;
          d = dT;
          R = RT;
          accepted = true;
          break;
        }
      }
      if (!accepted) {
        // The gap residual is stuck at its round-off staircase (d moves q~' by less than an ulp):
        // finish the smooth energy equation in mu alone, d fixed.
        for (int polish = 0; polish < 8 && !converged(R) && R.J(0, 0) != 0.0; ++polish) {
          mu -= R.r[0] / R.J(0, 0);
          R = jointResidual(qi, ci, pMinus, nj, eMinus, k, mu, d);
        }
        out.ok = R.r.allFinite() && converged(R);
        break;
      }
    }
    out.mu = mu;
    out.d = d;
    out.energyResidual = R.r[0];
    out.gapResidual = R.r[1];
    // The first impulse must still be a rebound.
    out.ok = out.ok && inverseMass(nj).dot(pMinus + mu * nj) > 0.0;
    return out;
  }

  // ---- the step ----------------------------------------------------------------------------
  /// Advances the node of `state` by one step h (state.gaps holds g(q) on entry and g(q_{k+1})
  /// on exit, cached between steps). On failure nothing is modified and `report` says what
  /// failed; otherwise it lists the step's impacts.
  RunStatus step(State& state, Report& report) const {
    report.clear();
    if (state.held) [[unlikely]]
      return settled_.advance(state, report, 0.0, state.q, state.p, state.held);
    const Vec c = model_.potentialGradient(state.q);
    const Drift path = drift(h_, state.q, state.p, c);
    const Vec qEnd = path.position(1.0);
    GapVec gEnd, kappa;
    model_.gaps(qEnd, gEnd);
    model_.gapCurvatureBounds(state.q, path.a, path.b, kappa);
    if (impact::clearOfContact(state.gaps, gEnd, kappa)) [[likely]] {
      return finishSmooth(state, report, c, qEnd, gEnd);
    }
    return contactStep(state, report, c, path, qEnd, gEnd, kappa);
  }

  /// E_d (72) of the last segment of `state`, from its end node (q, p) and its length
  /// state.lastTau: h after a smooth step, the final sub-step after an impact step. The segment
  /// started at q - tau v with v = M^-1 (p + (tau/2) grad V(q)) (second line of (V) solved for w).
  double lastSegmentEnergy(const State& state) const {
    const double tau = state.lastTau;
    const Vec& q = state.q;
    const Vec w = state.p + (0.5 * tau) * model_.potentialGradient(q);
    return kineticEnergy(w) + 0.5 * (model_.potential(q) + model_.potential(q - tau * inverseMass(w)));
  }

 private:
  static constexpr double kEps = std::numeric_limits<double>::epsilon();
  using Path = impact::ModelPath<Model, Drift>;

  static typename SettledMotion<Model>::Options settledOptions(const FmowOptions& o) {
    typename SettledMotion<Model>::Options s;
    s.restitution = o.restitution;
    s.tolerance = o.tolerance;
    s.maxIterations = o.maxIterations;
    s.maxImpactsPerStep = std::clamp(o.maxImpactsPerStep, 1, impact::kMaxImpactsPerStep);
    s.detection.subsamples = o.subsamples;
    s.detection.tolerance = o.tolerance;
    return s;
  }

  /// Newton's law at the impact point (restitution < 1): mu = -(1 + e) u- / k along n, no impulse
  /// for a contact that does not approach.
  ImpulseSolution newtonImpulse(const Vec& pMinus, const Vec& n) const {
    ImpulseSolution out;
    const Vec mn = inverseMass(n);
    const double k = n.dot(mn), rate = mn.dot(pMinus);
    out.mu = rate < 0.0 ? impact::restitutionImpulse(rate, k, options_.restitution) : 0.0;
    out.ok = std::isfinite(out.mu) && k > 0.0;
    out.newton = true;
    return out;
  }

  double energyScale(const Vec& q, const Vec& p, double e) const {
    return std::fabs(e) + kineticEnergy(p) + std::fabs(model_.potential(q)) + 1e-300;
  }

  static void record(Report& report, int j, double s, const Vec& qi, const Vec& pMinus,
                     const Vec& pPlus, const ImpulseSolution& imp) {
    Impact& r = report.add();
    r.s = s;
    r.gap = j;
    r.before = Point{qi, pMinus};
    r.after = Point{qi, pPlus};
    r.impulse = imp.mu;
    r.energyResidual = imp.residual;
    r.reflected = imp.reflectionFallback;
    r.jointFallback = imp.jointFallback;
  }

  /// A solver failure, with the residual that explains it when there is one.
  static RunStatus solverFailed(Report& report, const char* what, int gap, double s,
                                double residual) {
    report.fail(RunStatus::SolverFailed, what, gap, s);
    if (residual != 0.0) report.failure.with("residual", residual);
    return RunStatus::SolverFailed;
  }

  /// Commits a step without impact: (q_{k+1}, p_{k+1}) by (V).
  RunStatus finishSmooth(State& state, Report& report, const Vec& c, const Vec& qEnd,
                         const GapVec& gEnd) const {
    const Vec pEnd = state.p - (0.5 * h_) * (c + model_.potentialGradient(qEnd));
    if (!std::isfinite(qEnd.sum() + pEnd.sum())) [[unlikely]] {
      return report.fail(RunStatus::NonFinite, "", -1, 1.0);
    }
    state.q = qEnd;
    state.p = pEnd;
    state.gaps = gEnd;
    state.lastTau = h_;
    return RunStatus::Ok;
  }

  /// A step the curvature test could not clear: sampled detection, then smooth or impact step.
  [[gnu::noinline]] RunStatus contactStep(State& state, Report& report, const Vec& c,
                                          const Drift& path, const Vec& qEnd, const GapVec& gEnd,
                                          const GapVec& kappa) const {
    const impact::Crossing x =
        impact::firstCrossing(Path{model_, path}, state.gaps, gEnd, kappa, detection_);
    if (!x.found) return finishSmooth(state, report, c, qEnd, gEnd);
    return impactStep(state, report, c, path, x);
  }

  RunStatus impactStep(State& state, Report& report, const Vec& c, const Drift& path,
                       const impact::Crossing& x) const {
    if (x.failed) {
      return solverFailed(report, "the impact time (root of the gap) did not converge", x.gap,
                          x.s, 0.0);
    }
    double elapsed = x.s;  // fraction of h from t_k to the current impact point
    int j = x.gap;
    Vec qi = path.position(x.s);
    Vec ci = model_.potentialGradient(qi);
    Vec pMinus = state.p - (0.5 * x.s * h_) * (c + ci);
    // E- = E_d(q_k, q~, alpha h) (48a); every later segment of this step keeps it ((78a), (79a)).
    const double eMinus = segmentEnergy(x.s * h_, state.q, state.p, c);
    for (;;) {
      if (report.impactCount >= options_.maxImpactsPerStep) {
        report.fail(RunStatus::Zeno, kZenoText, j, elapsed);
        report.failure.with("cap", report.impactCount);
        return RunStatus::Zeno;
      }
      const Vec nj = model_.gapGradient(j, qi);
      const double tau = std::max(1.0 - elapsed, 0.0) * h_;  // remaining time
      ImpulseSolution imp = options_.restitution < 1.0
                                ? newtonImpulse(pMinus, nj)
                                : solveImpulse(qi, ci, pMinus, nj, eMinus, tau);
      if (!imp.ok) {
        return solverFailed(report, "the impulse (discrete energy equation) did not converge", j,
                            elapsed, imp.residual);
      }
      Vec pPlus = pMinus + imp.mu * nj;
      if (imp.newton) {
        report.dissipated += kineticEnergy(pMinus) - kineticEnergy(pPlus);
        if (settled_.settles(j, 0, qi, pPlus)) {  // bounces below the step's resolution
          record(report, j, elapsed, qi, pMinus, pPlus, imp);
          const Vec pHeld = settled_.project(1u << j, qi, pPlus, &report.dissipated);
          report.settledAt = elapsed;
          return settled_.advance(state, report, elapsed, qi, pHeld, 1u << j);
        }
      }

      // Re-check the remaining sub-step for a further crossing. A remainder below 1e-12 h (an
      // impact at the very end of the step) ends the step at q~: nothing can cross in it.
      const Drift rest = drift(tau, qi, pPlus, ci);
      const Vec qEnd = rest.position(1.0);
      GapVec gEnd;
      model_.gaps(qEnd, gEnd);
      impact::Crossing y;
      if (tau > 1e-12 * h_) {
        GapVec gi, kappa;
        model_.gaps(qi, gi);
        model_.gapCurvatureBounds(qi, rest.a, rest.b, kappa);
        if (!impact::clearOfContact(gi, gEnd, kappa)) {
          y = impact::firstCrossing(Path{model_, rest}, gi, gEnd, kappa, detection_);
        }
      }
      if (y.failed) {
        return solverFailed(report, "the contact time of a second impact (root of the gap) did "
                            "not converge", y.gap, elapsed + y.s * (1.0 - elapsed), 0.0);
      }
      if (!y.found) {  // (77): finish the step with (V) on the remaining time
        const Vec pEnd = pPlus - (0.5 * tau) * (ci + model_.potentialGradient(qEnd));
        if (!std::isfinite(qEnd.sum() + pEnd.sum())) {
          return report.fail(RunStatus::NonFinite, "", j, elapsed);
        }
        record(report, j, elapsed, qi, pMinus, pPlus, imp);
        state.q = qEnd;
        state.p = pEnd;
        state.gaps = gEnd;
        state.lastTau = tau;
        return RunStatus::Ok;
      }
      if (y.immediate) {
        // Corner: gap y.gap is in contact at q~ too and moving inward. Sequential impulse at
        // the same point with the same E- and remaining time; p~+ is its incoming momentum.
        record(report, j, elapsed, qi, pMinus, pPlus, imp);
        pMinus = pPlus;
        j = y.gap;
        continue;
      }
      // Second crossing after d = beta h: solve the first impulse and d together (78). A
      // grazing reflection keeps its mu (grazing.hpp): the contact time is the detected one.
      double d = y.s * tau;
      if (imp.reflectionFallback || imp.newton) {
        imp.residual = segmentEnergy(d, qi, pPlus, ci) - eMinus;
      } else {
        const JointSolution js = solveJoint(qi, ci, pMinus, nj, eMinus, y.gap, imp.mu, d, tau);
        if (js.ok) {
          d = js.d;
          imp.mu = js.mu;
          imp.residual = js.energyResidual;
          pPlus = pMinus + js.mu * nj;
        } else if (y.gap == j) {
          // The same gap again after a tiny hop: with linear V, E_d over a complete parabolic
          // hop does not depend on mu, so (78a) cannot be met. Sequential fallback: keep mu, take
          // the contact time from the detection, report the (78a) residual. E- stays the
          // step's, so the step still obeys the energy identity for linear potentials
          // (docs/planar-vci.md, "Energy identity for linear potentials").
          imp.residual = segmentEnergy(d, qi, pPlus, ci) - eMinus;
          imp.jointFallback = true;
        } else {
          return solverFailed(report, "the joint impulse / contact-time solve (78) did not "
                              "converge", y.gap, elapsed, js.energyResidual);
        }
      }
      record(report, j, elapsed, qi, pMinus, pPlus, imp);
      // (79): move to the second contact point with (V) on the sub-step d.
      const Vec qn = drift(d, qi, pPlus, ci).position(1.0);
      const Vec cn = model_.potentialGradient(qn);
      pMinus = pPlus - (0.5 * d) * (ci + cn);
      qi = qn;
      ci = cn;
      j = y.gap;
      elapsed += d / h_;
    }
  }

  Model model_;
  Vec inverseMass_;  // M^-1 (diagonal)
  double h_;
  FmowOptions options_;
  impact::DetectionOptions detection_;
  SettledMotion<Model> settled_;
};

}  // namespace ricochet::planar
