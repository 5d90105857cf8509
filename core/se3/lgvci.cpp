#include "core/se3/lgvci.hpp"

#include "core/numerics/roots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::se3 {

LgvciStepper::LgvciStepper(std::shared_ptr<const RigidBodyModel> model, double h)
    : model_(std::move(model)), h_(h) {}

LgvciStepper::LgvciStepper(const RigidBodyModel& model, double h)
    : LgvciStepper(std::make_shared<const RigidBodyModel>(model), h) {}

namespace {

// Cayley vectors with |f| > 1 mean a rotation of more than 90 degrees in one step: far outside
// the regime of the scheme (h = 0.01 gives <= 0.2 rad), so treat it as a failure
// (docs/design-notes.md, "Rotation per step: the Cayley limit").
inline bool acceptableRotation(const SolveFResult& f) {
  return f.converged && f.f.squaredNorm() <= 1.0;
}

// The lowest point of the body over plane j alone (0: the ground) and its gap there, m:
// n_j.x - offset_j + min_rho n_j.(R rho).
SupportPoint lowestOverPlane(const RigidBodyModel& model, const RigidBodyState& s, int j,
                             double& gap) {
  const Vec3& n = planeNormal(model, j);
  const SupportPoint sp = lowestPoint(model.shape, s.R.transpose() * n);
  gap = n.dot(s.x) - (j == 0 ? 0.0 : model.walls[std::size_t(j - 1)].offset) + sp.height;
  return sp;
}

}  // namespace

bool LgvciStepper::subStep(const RigidBodyState& s, double alpha, double alphaTotal,
                           RigidBodyState& out, Report& report) const {
  const RigidBodyModel& model = *model_;
  const double tau = alpha * h_;
  const SolveFResult f = flow(model, s, tau, out);
  if (acceptableRotation(f)) return true;
  if (!s.Pi.allFinite() || !s.x.allFinite() || !s.gamma.allFinite() || !std::isfinite(tau)) {
    report.fail(RunStatus::NonFinite, "", -1, alphaTotal);
  } else if (f.converged) {
    report.fail(RunStatus::SolverFailed,
                "the body turns more than 90 degrees within a sub-step; reduce h", -1, alphaTotal);
    report.failure.with("sub-step", tau, "s");
  } else {
    report.fail(RunStatus::SolverFailed,
                "SolveF (the Cayley Newton solve for the relative rotation F) did not converge", -1,
                alphaTotal);
    report.failure.with("iterations", f.iterations)
        .with("sub-step", tau, "s")
        .with("last |delta f|", f.lastStep)
        .with("round-off floor eps|f|", newtonRoundOffFloor(f.f))
        .with("tolerance", model.tolerance);
  }
  return false;
}

bool LgvciStepper::checkedGap(const RigidBodyState& t, const Vec3& u, double tau,
                              double alphaTotal, double& value, Report& report,
                              SupportPoint* support, int* plane) const {
  const RigidBodyModel& model = *model_;
  SupportPoint status;
  SupportPoint& sp = support ? *support : status;
  if (plane) *plane = 0;
  if (support) {
    sp = lowestPoint(model.shape, u);
    value = model.n.dot(t.x) + sp.height;
  } else {
    value = model.n.dot(t.x) + lowestHeight(model.shape, u, &sp);
  }
  if (!model.walls.empty()) {
    SupportPoint failure;  // the first failed support solve, on any plane
    if (!sp.ok) failure = sp;
    lowerToWalls(model, t.x, t.R, value, support, plane, &failure);
    markFailure(sp, failure);
  }
  if (sp.ok) return true;
  report.fail(RunStatus::SolverFailed,
              "the support point of an intersection part (two ellipsoids) did not converge, so "
              "Phi is unknown there",
              -1, alphaTotal + tau / h_);
  report.failure.with("part", sp.failedPart)
      .with("iterations", sp.iterations)
      .with("crease KKT residual", sp.residual);
  return false;
}

bool LgvciStepper::locateImpact(const RigidBodyState& s, double alphaMax, double phiEnd,
                                double alphaTotal, ImpactEvent& event, Bracket& bracket,
                                Report& report) const {
  if (model_->impactTimeSolver == ImpactTimeSolver::Brent) {
    return brent(s, alphaMax, phiEnd, alphaTotal, event, bracket, report);
  }
  return bisect(s, alphaMax, alphaTotal, event, bracket, report);
}

bool LgvciStepper::brent(const RigidBodyState& s, double alphaMax, double phiEnd,
                         double alphaTotal, ImpactEvent& event, Bracket& bracket,
                         Report& report) const {
  const RigidBodyModel& model = *model_;
  bool solved = true;
  RigidBodyState trial;
  auto gap = [&](double alpha) {
    if (!solved) return -1.0;  // a sub-step already failed: shrink towards 0 and stop soon
    double p;
    if (!subStep(s, alpha, alphaTotal, trial, report) ||
        !gapAt(trial, alpha * h_, alphaTotal, p, report)) {
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
      brentRoot(gap, 0.0, alphaMax, phi(model, s.x, s.R),
                std::min(phiEnd, -std::numeric_limits<double>::denorm_min()), model.tolerance,
                0.0, model.maxBisectionIterations);
  if (!solved) return false;
  if (!r.converged) {
    report.fail(RunStatus::SolverFailed,
                "Brent's method for the impact time did not reach the tolerance width", 0,
                alphaTotal + r.x);
    report.failure.with("iterations", r.iterations)
        .with("width left", r.hi - r.lo)
        .with("tolerance", model.tolerance);
    return false;
  }
  // The admissible end of the final bracket: the best estimate if Phi > 0 there, else the other.
  const double alpha = r.fx > 0.0 ? r.x : (r.x == r.lo ? r.hi : r.lo);
  SupportPoint sp;
  int plane = 0;
  double p;
  if (!subStep(s, alpha, alphaTotal, trial, report) ||
      !gapAt(trial, alpha * h_, alphaTotal, p, report, &sp, &plane)) {
    return false;
  }
  // A genuine impact approaches the plane: dPhi/dt = n.gamma/m + chi.J^-1 Pi < 0. Right after a
  // jump Phi(s) is at round-off level, and Brent's interpolation can probe alpha ~ 1e-15 where
  // Phi rounds to <= 0: a spurious root with dPhi/dt > 0 (it would give lambda < 0). In that case,
  // and for a degenerate bracket, use the paper's bisection, which only probes midpoints.
  const double vn = normalVelocity(model, trial, chi(model, trial.R, sp.rho, plane), plane);
  if (!(p > 0.0) || alpha >= alphaMax || !(vn < 0.0)) {
    return bisect(s, alphaMax, alphaTotal, event, bracket, report);
  }
  event.detail.alpha = alpha;
  event.before = trial;
  event.detail.phi = p;
  event.detail.rootIterations = r.iterations + 1;
  return true;
}

bool LgvciStepper::bisect(const RigidBodyState& s, double alphaMax, double alphaTotal,
                          ImpactEvent& event, Bracket& bracket, Report& report) const {
  const RigidBodyModel& model = *model_;
  const double tol = model.tolerance;
  double lo = 0.0, hi = alphaMax;
  event.before = s;
  event.detail.phi = phi(model, s.x, s.R);
  RigidBodyState mid;
  int it = 0;
  // The paper's rule: keep the admissible side; stop on the bracket width (eps_tol) or once Phi
  // at the admissible end is within eps_tol of 0. A bracket of two adjacent doubles cannot be
  // split further: it is resolved to machine precision, so stop there too (only reachable when
  // eps_tol is below the spacing of doubles near alpha).
  while (hi - lo > tol) {
    const double a = 0.5 * (lo + hi);
    if (!(a > lo && a < hi)) break;
    if (++it > model.maxBisectionIterations) {
      report.fail(RunStatus::SolverFailed,
                  "bisection for the impact time did not reach the tolerance width", 0,
                  alphaTotal + a);
      report.failure.with("iterations", it - 1).with("width left", hi - lo).with("tolerance", tol);
      return false;
    }
    double p;
    if (!subStep(s, a, alphaTotal, mid, report) || !gapAt(mid, a * h_, alphaTotal, p, report)) {
      return false;
    }
    if (p > 0.0) {
      lo = a;
      event.before = mid;
      event.detail.phi = p;
      if (p <= tol) break;
    } else {
      hi = a;
      bracket.beyond = mid;
      bracket.beyondAlpha = a;
    }
  }
  event.detail.alpha = lo;
  event.detail.rootIterations = it;
  return true;
}

RunStatus LgvciStepper::step(RigidBodyState& state, Report& report) const {
  const RigidBodyModel& model = *model_;
  report.clear();
  RigidBodyState s = state;  // last admissible (grid or post-jump) state of this step
  RigidBodyState trial;
  Bracket bracket;
  double alphaTotal = 0.0;
  for (;;) {
    // The (remaining) step; with alphaTotal = 0 the ordinary F~[h].
    const double tau = (1.0 - alphaTotal) * h_;
    double p;
    if (!subStep(s, 1.0 - alphaTotal, alphaTotal, trial, report)) return report.status;
    if (!gapAt(trial, tau, alphaTotal, p, report)) return report.status;
    if (!std::isfinite(p)) return report.fail(RunStatus::NonFinite, "", -1, alphaTotal);
    if (p > 0.0) {
      state = trial;  // lands exactly on the next grid time
      return RunStatus::Ok;
    }
    // Penetration: locate the impact on (0, 1 - alphaTotal) from s. The Zeno guard below keeps
    // the report within its capacity (impact::kMaxImpactsPerStep + 1).
    ImpactEvent& e = report.add();
    e = ImpactEvent{};
    bracket.beyond = trial;
    bracket.beyondAlpha = 1.0 - alphaTotal;
    if (!locateImpact(s, 1.0 - alphaTotal, p, alphaTotal, e, bracket, report)) {
      --report.impactCount;
      return report.status;
    }
    // Jump at the impact state; the support point is recomputed there.
    SupportPoint sp;
    int plane = 0;
    double phiBefore;
    if (!gapAt(e.before, e.detail.alpha * h_, alphaTotal, phiBefore, report, &sp, &plane)) {
      --report.impactCount;
      return report.status;
    }
    const double vnLowest =
        normalVelocity(model, e.before, chi(model, e.before.R, sp.rho, plane), plane);
    if (!(vnLowest < 0.0)) {
      // The lowest point is not approaching. This happens when the root finder ends at alpha = 0
      // right after a jump: the point just resolved is still the lowest (a face landing flat, a
      // tie between parts) while another point at the same height goes down. The jump formula
      // would give lambda < 0 there, pulling the body into the plane and undoing the last jump.
      // The point that does cross the plane is the lowest one at the penetrating end of the
      // final bracket: if that end is within eps_tol (or one ulp) of alpha, the point is in
      // contact here too, and if it approaches, it is the one to resolve.
      SupportPoint q;
      int qPlane = 0;
      double phiBeyond;
      if (!gapAt(bracket.beyond, bracket.beyondAlpha * h_, alphaTotal, phiBeyond, report, &q,
                 &qPlane)) {
        --report.impactCount;
        return report.status;
      }
      double vn =
          normalVelocity(model, e.before, chi(model, e.before.R, q.rho, qPlane), qPlane);
      // That point is in contact at alpha when the bracket cannot be narrowed further, or when
      // its plane's gap there is within eps_tol (the bisection's stopping rule).
      const double mid = 0.5 * (e.detail.alpha + bracket.beyondAlpha);
      const bool narrow = bracket.beyondAlpha - e.detail.alpha <= model.tolerance ||
                          !(mid > e.detail.alpha && mid < bracket.beyondAlpha);
      double gapQ = 0.0;
      lowestOverPlane(model, e.before, qPlane, gapQ);
      const bool touching = narrow || gapQ <= model.tolerance;
      bool found = touching && vn < 0.0;
      // A body wedged between planes touches several at once: the plane just resolved can be the
      // lowest at both ends of the bracket (its gap rounds to 0 as the point leaves) while another
      // plane in contact is the one approached. Of every plane in contact at alpha, resolve the
      // point that approaches fastest.
      for (int j = 0; j <= int(model.walls.size()) && !model.walls.empty(); ++j) {
        double gapJ = 0.0;
        const SupportPoint c = lowestOverPlane(model, e.before, j, gapJ);
        if (!c.ok || !(gapJ <= model.tolerance)) continue;
        const double vnJ =
            normalVelocity(model, e.before, chi(model, e.before.R, c.rho, j), j);
        if (vnJ < (found ? vn : 0.0)) {
          found = true;
          vn = vnJ;
          q = c;
          qPlane = j;
        }
      }
      if (!found) {
        const int earlier = report.impactCount - 1;
        --report.impactCount;
        report.fail(RunStatus::SolverFailed,
                    "the rest of the step penetrates the plane, but no point in contact "
                    "approaches it, so no impulse can resolve it (a contact grazing at round-off "
                    "level)",
                    planeGap(model, qPlane), alphaTotal + e.detail.alpha);
        report.failure.with("dPhi/dt", touching ? vn : vnLowest, "m/s")
            .with("impacts earlier in the step", earlier);
        return RunStatus::SolverFailed;
      }
      sp = q;
      plane = qPlane;
    }
    alphaTotal += e.detail.alpha;
    e.s = alphaTotal;
    e.gap = planeGap(model, plane);
    s = e.before;
    e.detail.rhoC = sp.rho;
    e.detail.plane = plane;
    e.detail.jump = applyJump(model, s, sp.rho, plane);
    e.after = s;
    e.impulse = e.detail.jump.lambda;
    e.energyResidual = totalEnergy(model, e.after) - totalEnergy(model, e.before);
    // Zeno guard: more than j_max impacts in one step.
    if (report.impactCount > std::min(model.maxImpactsPerStep, impact::kMaxImpactsPerStep)) {
      report.fail(RunStatus::Zeno, kZenoText, 0, alphaTotal);
      report.failure.with("cap", model.maxImpactsPerStep).with("last alpha", e.detail.alpha);
      return RunStatus::Zeno;
    }
  }
}

}  // namespace ricochet::se3
