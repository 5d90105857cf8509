#include "core/se3/lgvci.hpp"

#include <cmath>

namespace ricochet::se3 {

LgvciStepper::LgvciStepper(const RigidBodyModel& model, double h) : model_(model), h_(h) {
  events_.reserve(static_cast<std::size_t>(model_.maxImpactsPerStep < 0 ? 0 : model_.maxImpactsPerStep) + 1);
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
      failure_ = {StepFailure::Where::Bisection, a * h_, alphaTotal, it - 1, hi - lo, 0.0,
                  static_cast<int>(events_.size())};
      return false;
    }
    const SolveFResult f = flow(model_, s, a * h_, mid);
    if (!acceptableRotation(f)) {
      failure_ = {classify(f, s, a * h_), a * h_, alphaTotal, f.iterations, f.lastStep,
                  newtonRoundOffFloor(f.f), static_cast<int>(events_.size())};
      return false;
    }
    const double p = phi(model_, mid.x, mid.R);
    if (p > 0.0) {
      lo = a;
      event.before = mid;
      event.phi = p;
      if (p <= tol) break;
    } else {
      hi = a;
    }
  }
  event.alpha = lo;
  event.bisectionIterations = it;
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
    const SolveFResult f = flow(model_, s, tau, trial);
    if (!acceptableRotation(f)) {
      failure_ = {classify(f, s, tau), tau, alphaTotal, f.iterations, f.lastStep,
                  newtonRoundOffFloor(f.f), static_cast<int>(events_.size())};
      return statusOf(failure_.where);
    }
    const double p = phi(model_, trial.x, trial.R);
    if (p > 0.0) {
      state = trial;  // lands exactly on the next grid time
      return StepStatus::Ok;
    }
    if (!std::isfinite(p)) {
      failure_ = {StepFailure::Where::NonFinite, tau, alphaTotal, 0, p, 0.0,
                  static_cast<int>(events_.size())};
      return StepStatus::NonFinite;
    }
    // Penetration: locate the impact on (0, 1 - alphaTotal) from s (spec §6.3 line 7). The Zeno
    // guard below keeps events_ within the capacity reserved at construction.
    events_.emplace_back();
    ImpactEvent& e = events_.back();
    if (!bisect(s, 1.0 - alphaTotal, alphaTotal, e)) {
      events_.pop_back();
      return statusOf(failure_.where);
    }
    alphaTotal += e.alpha;
    e.alphaTotal = alphaTotal;
    // Jump at the impact state (spec §5.3); the support point is recomputed there.
    s = e.before;
    SupportPoint sp;
    phi(model_, s.x, s.R, &sp);
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
