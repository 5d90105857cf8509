#pragma once
// Baseline "rk4-event": the ODE solver with event detection that users compare the variational
// integrator against. Classical fourth-order Runge-Kutta on q' = M^-1 p, p' = -grad V(q); the
// first gap crossing inside a step is located along the RK4 map with a shortened step (s tau),
// by the same detection as the variational integrator (crossing.hpp: sub-samples + Brent); at the
// event the continuous elastic reflection (C1) is applied, p+ = p- - 2 (n^T M^-1 p-)/(n^T M^-1 n)
// n, and the rest of the step is integrated from there (repeatedly, up to the per-step cap).
//
// Not variational: the flight map is not symplectic and the event map is not matched to it, so
// for nonlinear forces the energy drifts secularly. With uniform gravity the flight is a parabola,
// which RK4 reproduces exactly, so on the three floor systems this baseline is the event-driven
// exact solution up to root tolerance and round-off (its energy error stays at round-off).
// The curvature test of the detection uses the quadratic (Taylor) model of the path, which is the
// RK4 path exactly for linear potentials and an approximation otherwise.
//
// Restitution e < 1 (docs/restitution.md): Newton's law at the event (the reflection is its e = 1
// case, impact/restitution.hpp); a contact whose rebound falls below the step's resolution settles
// and the body follows the constrained flow of settled_motion.hpp (RATTLE, shared with FMOW) until
// it lifts off; the rest of a step in which a contact lifts off mid-step is that flow's Verlet
// drift (exact for uniform gravity, like RK4's).

#include "core/impact/crossing.hpp"
#include "core/impact/restitution.hpp"
#include "core/impact/step_report.hpp"
#include "core/model/system.hpp"
#include "core/planar/planar_model.hpp"
#include "core/planar/planar_state.hpp"
#include "core/planar/settled_motion.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ricochet::planar {

struct Rk4EventOptions {
  double tolerance = 1e-14;  ///< event root bracket, as a fraction of the step
  int subsamples = 8;        ///< K sub-samples for event detection
  int maxImpactsPerStep = kPlanarImpactCap;
  double restitution = 1.0;  ///< e in [0, 1] of Newton's law at the events
  int maxIterations = 60;    ///< Newton cap of the settled contacts' multipliers
};

template <PlanarModel Model>
class Rk4EventIntegrator {
 public:
  using Vec = typename Model::Vec;
  using GapVec = typename Model::GapVec;
  using State = PlanarState<Model>;
  using Point = impact::PhasePoint<Vec>;
  using Impact = impact::Impact<Point>;
  using Report = impact::StepReport<Impact>;
  using Options = Rk4EventOptions;

  /// The RK4 map with step s tau from (q, p), as a path in s in [0, 1].
  struct Path {
    const Rk4EventIntegrator* integrator;
    Vec q, p;
    double tau;
    Vec position(double s) const { return integrator->rk4(s * tau, q, p).first; }
    double gapRate(int j, double s) const {  // dG_j/ds = n_j^T dq/ds, dq/ds = tau M^-1 p(s)
      const auto [qs, ps] = integrator->rk4(s * tau, q, p);
      return integrator->model_.gapGradient(j, qs).dot(tau * integrator->inverseMass(ps));
    }
  };

  /// `h` in s (> 0).
  Rk4EventIntegrator(const Model& model, double h, const Rk4EventOptions& options = {})
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
  Vec inverseMass(const Vec& v) const { return v.cwiseProduct(inverseMass_); }
  double nodeEnergy(const Vec& q, const Vec& p) const {
    return 0.5 * p.dot(inverseMass(p)) + model_.potential(q);
  }
  /// Node 0 = (q0, p0).
  State initialState(const Vec& q0, const Vec& p0) const {
    State s;
    s.q = q0;
    s.p = p0;
    model_.gaps(q0, s.gaps);
    s.lastTau = h_;
    return s;
  }
  double impactEnergy(const Point& x) const { return nodeEnergy(x.q, x.p); }
  Eigen::Vector3d contactPoint(const Impact& imp) const {
    return model_.contactPoint(imp.gap, imp.before.q);
  }
  const char* gapName(int j) const { return Model::gapName(j); }
  /// A contact is held (settled_motion.hpp; restitution < 1 only).
  bool settled(const State& s) const { return s.held != 0; }

  /// One classical RK4 step of length tau (s) from (q, p).
  std::pair<Vec, Vec> rk4(double tau, const Vec& q, const Vec& p) const {
    const Vec k1q = inverseMass(p), k1p = -model_.potentialGradient(q);
    const Vec k2q = inverseMass(p + (0.5 * tau) * k1p);
    const Vec k2p = -model_.potentialGradient(q + (0.5 * tau) * k1q);
    const Vec k3q = inverseMass(p + (0.5 * tau) * k2p);
    const Vec k3p = -model_.potentialGradient(q + (0.5 * tau) * k2q);
    const Vec k4q = inverseMass(p + tau * k3p);
    const Vec k4p = -model_.potentialGradient(q + tau * k3q);
    return {q + (tau / 6.0) * (k1q + 2.0 * k2q + 2.0 * k3q + k4q),
            p + (tau / 6.0) * (k1p + 2.0 * k2p + 2.0 * k3p + k4p)};
  }

  /// Advances the node of `state` by one step h (state.gaps holds g(q) on entry and on exit). On
  /// failure nothing is modified and `report` says what failed; otherwise it lists the impacts.
  RunStatus step(State& state, Report& report) const {
    report.clear();
    if (state.held) [[unlikely]]
      return settled_.advance(state, report, 0.0, state.q, state.p, state.held);
    Vec qs = state.q, ps = state.p;
    GapVec gs = state.gaps;
    double elapsed = 0.0;  // fraction of h already integrated
    for (;;) {
      const double tau = std::max(1.0 - elapsed, 0.0) * h_;
      const auto [qe, pe] = rk4(tau, qs, ps);
      GapVec gEnd;
      model_.gaps(qe, gEnd);
      impact::Crossing x;
      if (tau > 1e-12 * h_) {
        GapVec kappa;  // quadratic model of the path: a = tau M^-1 p, b = -(tau^2/2) M^-1 grad V
        model_.gapCurvatureBounds(qs, tau * inverseMass(ps),
                                  (-0.5 * tau * tau) * inverseMass(model_.potentialGradient(qs)),
                                  kappa);
        if (!impact::clearOfContact(gs, gEnd, kappa)) {
          const Path path{this, qs, ps, tau};
          x = impact::firstCrossing(impact::ModelPath<Model, Path>{model_, path}, gs, gEnd, kappa,
                                    detection_);
        }
      }
      if (x.failed) {
        return report.fail(RunStatus::SolverFailed,
                           "the event time (root of the gap) did not converge", x.gap, elapsed);
      }
      if (!x.found) {
        if (!std::isfinite(qe.sum() + pe.sum())) {
          return report.fail(RunStatus::NonFinite, "", -1, 1.0);
        }
        state.q = qe;
        state.p = pe;
        state.gaps = gEnd;
        return RunStatus::Ok;
      }
      if (report.impactCount >= options_.maxImpactsPerStep) {
        report.fail(RunStatus::Zeno, kZenoText, x.gap, elapsed);
        report.failure.with("cap", report.impactCount);
        return RunStatus::Zeno;
      }
      const auto [qi, pMinus] = rk4(x.s * tau, qs, ps);
      const Vec n = model_.gapGradient(x.gap, qi);
      const Vec mn = inverseMass(n);
      const double B = mn.dot(pMinus);
      // Newton's law ((C1) for e = 1); a zero-depth contact that is not approaching gets no
      // impulse.
      const double mu =
          B < 0.0 ? impact::restitutionImpulse(B, n.dot(mn), options_.restitution) : 0.0;
      const Vec pPlus = pMinus + mu * n;
      Impact& r = report.add();
      r.s = elapsed + x.s * (1.0 - elapsed);
      r.gap = x.gap;
      r.before = Point{qi, pMinus};
      r.after = Point{qi, pPlus};
      r.impulse = mu;
      r.energyResidual = nodeEnergy(qi, pPlus) - nodeEnergy(qi, pMinus);
      r.reflected = false;
      r.jointFallback = false;
      if (options_.restitution < 1.0) {
        report.dissipated += nodeEnergy(qi, pMinus) - nodeEnergy(qi, pPlus);
        if (settled_.settles(x.gap, 0, qi, pPlus)) {  // bounces below the step's resolution
          const Vec pHeld = settled_.project(1u << x.gap, qi, pPlus, &report.dissipated);
          report.settledAt = r.s;
          return settled_.advance(state, report, r.s, qi, pHeld, 1u << x.gap);
        }
      }
      qs = qi;
      ps = pPlus;
      model_.gaps(qs, gs);
      elapsed = r.s;
    }
  }

 private:
  static typename SettledMotion<Model>::Options settledOptions(const Rk4EventOptions& o) {
    typename SettledMotion<Model>::Options s;
    s.restitution = o.restitution;
    s.tolerance = o.tolerance;
    s.maxIterations = o.maxIterations;
    s.maxImpactsPerStep = std::clamp(o.maxImpactsPerStep, 1, impact::kMaxImpactsPerStep);
    s.detection.subsamples = o.subsamples;
    s.detection.tolerance = o.tolerance;
    return s;
  }

  Model model_;
  Vec inverseMass_;  // M^-1 (diagonal)
  double h_;
  Rk4EventOptions options_;
  impact::DetectionOptions detection_;
  SettledMotion<Model> settled_;
};

}  // namespace ricochet::planar
