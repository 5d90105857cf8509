#include "core/se3/lgvci.hpp"

#include "core/numerics/roots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::se3 {

LgvciStepper::LgvciStepper(const RigidBodyModel& model, double h) : model_(model), h_(h) {
  events_.reserve(static_cast<std::size_t>(std::max(0, model_.maxImpactsPerStep)) + 1);
}

namespace {

// Cayley vectors with |f| > 1 mean a rotation of more than 90 degrees in one step: far outside
// the regime of the scheme (spec §10.15; h = 0.01 gives <= 0.2 rad), so treat it as a failure.
inline bool acceptableRotation(const SolveFResult& f) {
  return f.converged && f.f.squaredNorm() <= 1.0;
}

// Why a sub-step's SolveF was not acceptable.
inline StepFailure::Where classify(const SolveFResult& f, const RigidBodyState& s, double tau) {
  if (!s.Pi.allFinite() || !s.x.allFinite() || !s.gamma.allFinite() || !std::isfinite(tau)) {
    return StepFailure::Where::NonFinite;
  }
  return f.converged ? StepFailure::Where::LargeRotation : StepFailure::Where::SolveF;
}

inline StepStatus statusOf(StepFailure::Where w) {
  return w == StepFailure::Where::NonFinite ? StepStatus::NonFinite : StepStatus::SolverFailed;
}

}  // namespace

bool LgvciStepper::subStep(const RigidBodyState& s, double alpha, double alphaTotal,
                           RigidBodyState& out) {
  const SolveFResult f = flow(model_, s, alpha * h_, out);
  if (acceptableRotation(f)) return true;
  failure_ = {classify(f, s, alpha * h_), alpha * h_, alphaTotal, f.iterations, f.lastStep,
              newtonRoundOffFloor(f.f), static_cast<int>(events_.size())};
  return false;
}

bool LgvciStepper::checkedGap(const RigidBodyState& t, const Vec3& u, double tau,
                              double alphaTotal, double& value, SupportPoint* support) {
  SupportPoint status;
  SupportPoint& sp = support ? *support : status;
  if (support) {
    sp = lowestPoint(model_.shape, u);
    value = model_.n.dot(t.x) + sp.height;
  } else {
    value = model_.n.dot(t.x) + lowestHeight(model_.shape, u, &sp);
  }
  return sp.ok || supportFailed(sp, tau, alphaTotal);
}

bool LgvciStepper::supportFailed(const SupportPoint& status, double tau, double alphaTotal) {
  failure_ = StepFailure{};
  failure_.where = StepFailure::Where::SupportPoint;
  failure_.tau = tau;
  failure_.alphaTotal = alphaTotal;
  failure_.iterations = status.iterations;
  failure_.lastStep = status.residual;
  failure_.impacts = static_cast<int>(events_.size());
  failure_.part = status.failedPart;
  return false;
}

bool LgvciStepper::locateImpact(const RigidBodyState& s, double alphaMax, double phiEnd,
                                double alphaTotal, ImpactEvent& event) {
  if (model_.impactTimeSolver == ImpactTimeSolver::Brent) {
    return brent(s, alphaMax, phiEnd, alphaTotal, event);
  }
  return bisect(s, alphaMax, alphaTotal, event);
}

bool LgvciStepper::brent(const RigidBodyState& s, double alphaMax, double phiEnd,
                         double alphaTotal, ImpactEvent& event) {
  bool solved = true;
  RigidBodyState trial;
  auto gap = [&](double alpha) {
    if (!solved) return -1.0;  // a sub-step already failed: shrink towards 0 and stop soon
    double p;
    if (!subStep(s, alpha, alphaTotal, trial) || !gapAt(trial, alpha * h_, alphaTotal, p)) {
      solved = false;
      return -1.0;
    }
    // Phi is quantised near the root (steps of one ulp of n.x), so exactly 0 is common; it is
    // inadmissible (C = {Phi > 0}), and brentRoot would stop at it with a wide bracket: make it
    // the smallest negative number so the bracket keeps shrinking to eps_tol.
    return p > 0.0 ? p : std::min(p, -std::numeric_limits<double>::denorm_min());
  };
  // Bracket-only stopping (fTol = 0): width <= eps_tol (+ a few ulps of alpha), as the bisection.
  const RootResult r =
      brentRoot(gap, 0.0, alphaMax, phi(model_, s.x, s.R),
                std::min(phiEnd, -std::numeric_limits<double>::denorm_min()), model_.tolerance,
                0.0, model_.maxBisectionIterations);
  if (!solved) return false;
  if (!r.converged) {
    failure_ = {StepFailure::Where::ImpactTime, r.x * h_, alphaTotal, r.iterations, r.hi - r.lo,
                0.0, static_cast<int>(events_.size())};
    return false;
  }
  // The admissible end of the final bracket: the best estimate if Phi > 0 there, else the other.
  const double alpha = r.fx > 0.0 ? r.x : (r.x == r.lo ? r.hi : r.lo);
  SupportPoint sp;
  double p;
  if (!subStep(s, alpha, alphaTotal, trial) || !gapAt(trial, alpha * h_, alphaTotal, p, &sp)) {
    return false;
  }
  // A genuine impact approaches the plane: dPhi/dt = n.gamma/m + chi.J^-1 Pi < 0. Right after a
  // jump Phi(s) is at round-off level, and Brent's interpolation can probe alpha ~ 1e-15 where
  // Phi rounds to <= 0: a spurious root with dPhi/dt > 0 (it would give lambda < 0). In that case,
  // and for a degenerate bracket, use the paper's bisection, which only probes midpoints.
  const double vn = normalVelocity(model_, trial, chi(model_, trial.R, sp.rho));
  if (!(p > 0.0) || alpha >= alphaMax || !(vn < 0.0)) {
    return bisect(s, alphaMax, alphaTotal, event);
  }
  event.alpha = alpha;
  event.before = trial;
  event.phi = p;
  event.rootIterations = r.iterations + 1;
  return true;
}

bool LgvciStepper::bisect(const RigidBodyState& s, double alphaMax, double alphaTotal,
                          ImpactEvent& event) {
  const double tol = model_.tolerance;
  double lo = 0.0, hi = alphaMax;
  event.before = s;
  event.phi = phi(model_, s.x, s.R);
  RigidBodyState mid;
  int it = 0;
  // Spec §5.2: keep the admissible side; stop on the bracket width (eps_tol) or once Phi at the
  // admissible end is within eps_tol of 0. A bracket of two adjacent doubles cannot be split
  // further: it is resolved to machine precision, so stop there too (only reachable when
  // eps_tol is below the spacing of doubles near alpha).
  while (hi - lo > tol) {
    const double a = 0.5 * (lo + hi);
    if (!(a > lo && a < hi)) break;
    if (++it > model_.maxBisectionIterations) {
      failure_ = {StepFailure::Where::ImpactTime, a * h_, alphaTotal, it - 1, hi - lo, 0.0,
                  static_cast<int>(events_.size())};
      return false;
    }
    double p;
    if (!subStep(s, a, alphaTotal, mid) || !gapAt(mid, a * h_, alphaTotal, p)) return false;
    if (p > 0.0) {
      lo = a;
      event.before = mid;
      event.phi = p;
      if (p <= tol) break;
    } else {
      hi = a;
      beyond_ = mid;
      beyondAlpha_ = a;
    }
  }
  event.alpha = lo;
  event.rootIterations = it;
  return true;
}

StepStatus LgvciStepper::step(RigidBodyState& state) {
  events_.clear();
  failure_ = StepFailure{};
  RigidBodyState s = state;  // last admissible (grid or post-jump) state of this step
  RigidBodyState trial;
  double alphaTotal = 0.0;
  for (;;) {
    // Spec §6.3 line 5: the (remaining) step; with alphaTotal = 0 the ordinary F~[h].
    const double tau = (1.0 - alphaTotal) * h_;
    double p;
    if (!subStep(s, 1.0 - alphaTotal, alphaTotal, trial)) return statusOf(failure_.where);
    if (!gapAt(trial, tau, alphaTotal, p)) return StepStatus::SolverFailed;
    if (!std::isfinite(p)) {
      failure_ = {StepFailure::Where::NonFinite, tau, alphaTotal, 0, p, 0.0,
                  static_cast<int>(events_.size())};
      return StepStatus::NonFinite;
    }
    if (p > 0.0) {
      state = trial;  // lands exactly on the next grid time
      return StepStatus::Ok;
    }
    // Penetration: locate the impact on (0, 1 - alphaTotal) from s (spec §6.3 line 7). The Zeno
    // guard below keeps events_ within the capacity reserved at construction.
    events_.emplace_back();
    ImpactEvent& e = events_.back();
    beyond_ = trial;
    beyondAlpha_ = 1.0 - alphaTotal;
    if (!locateImpact(s, 1.0 - alphaTotal, p, alphaTotal, e)) {
      events_.pop_back();
      return statusOf(failure_.where);
    }
    // Jump at the impact state (spec §5.3); the support point is recomputed there.
    SupportPoint sp;
    double phiBefore;
    if (!gapAt(e.before, e.alpha * h_, alphaTotal, phiBefore, &sp)) {
      events_.pop_back();
      return StepStatus::SolverFailed;
    }
    const double vnLowest = normalVelocity(model_, e.before, chi(model_, e.before.R, sp.rho));
    if (!(vnLowest < 0.0)) {
      // The lowest point is not approaching. This happens when the root finder ends at alpha = 0
      // right after a jump: the point just resolved is still the lowest (a face landing flat, a
      // tie between parts) while another point at the same height goes down. The jump formula
      // would give lambda < 0 there, pulling the body into the plane and undoing the last jump.
      // The point that does cross the plane is the lowest one at the penetrating end of the
      // final bracket: if that end is within eps_tol (or one ulp) of alpha, the point is in
      // contact here too, and if it approaches, it is the one to resolve.
      SupportPoint q;
      double phiBeyond;
      if (!gapAt(beyond_, beyondAlpha_ * h_, alphaTotal, phiBeyond, &q)) {
        events_.pop_back();
        return StepStatus::SolverFailed;
      }
      const double vn = normalVelocity(model_, e.before, chi(model_, e.before.R, q.rho));
      const double mid = 0.5 * (e.alpha + beyondAlpha_);
      const bool narrow = beyondAlpha_ - e.alpha <= model_.tolerance ||
                          !(mid > e.alpha && mid < beyondAlpha_);
      if (!narrow || !(vn < 0.0)) {
        failure_ = {StepFailure::Where::SeparatingContact, tau, alphaTotal + e.alpha, 0, e.alpha,
                    0.0, static_cast<int>(events_.size()) - 1, narrow ? vn : vnLowest};
        events_.pop_back();
        return StepStatus::SolverFailed;
      }
      sp = q;
    }
    alphaTotal += e.alpha;
    e.alphaTotal = alphaTotal;
    s = e.before;
    e.rhoC = sp.rho;
    e.jump = applyJump(model_, s, sp.rho);
    e.after = s;
    // Zeno guard (spec §6.3 line 12): more than j_max impacts in one step.
    if (static_cast<int>(events_.size()) > model_.maxImpactsPerStep) {
      failure_ = {StepFailure::Where::Zeno, tau, alphaTotal, 0, e.alpha, 0.0,
                  static_cast<int>(events_.size())};
      return StepStatus::Zeno;
    }
  }
}

}  // namespace ricochet::se3
