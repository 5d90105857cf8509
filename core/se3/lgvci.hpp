#pragma once
// Lie group variational collision integrator on SE(3) for a convex rigid body over a fixed plane
// (Tran & Leok, paper 003; explained in docs/se3-lgvci.md, whose headings are quoted below).
//
// State S = (x, R, gamma, Pi): centre of mass x (world, m), attitude R (body -> world), linear
// momentum gamma = m xdot (world, kg m/s), body angular momentum Pi = J Omega (kg m^2/s).
// Gravity acts along -e3; the plane {z : n.z = 0} has unit normal n pointing to the admissible side.
// Further planes (walls) may bound the world: each is one more unilateral constraint, Phi is the
// smallest of the planes' gaps, and an impact is resolved on the plane that is hit.
//
// Pieces (each a free function over the constant model, Pinocchio style):
//   flow()        F~[tau], the Hamiltonian one-step map of the LGVI ("The flow map")
//   phi()         the collision detection function Phi(x, R) with its support point
//                 ("Collision function and support points")
//   applyJump()   F~_Jump, the elastic frictionless jump ("The jump")
//   LgvciStepper  one step of Algorithm 5.2 in the index-free form of "The step": trial step,
//                 root finding for the impact fraction alpha
//                 ("The impact time: bisection and Brent"), jump, remainder step, repeated for
//                 several impacts per step, capped by the Zeno guard
//                 ("Several impacts per step and the Zeno guard").
// The stepper never allocates: impact events go to the run's impact::StepReport (fixed size).

#include "core/impact/step_report.hpp"
#include "core/se3/body_shape.hpp"
#include "core/se3/solve_f.hpp"

#include <limits>
#include <memory>
#include <vector>

namespace ricochet::se3 {

/// How the impact fraction alpha is located inside a penetrating step. Both return the
/// admissible end of a bracket of width <= eps_tol around a root of Phi(F~[alpha h](s)); tests
/// show they give the same impacts to ~1e-14 s, and both reproduce the regression values of
/// docs/acceptance.md (rows 8.3) to all printed digits.
enum class ImpactTimeSolver {
  Brent,      ///< Brent's method (shared brentRoot), ~10 evaluations per impact (the default)
  Bisection,  ///< the paper's method, ~50 evaluations: the reference
};

/// A fixed plane besides the ground, {z : n.z = offset}: the body must stay on the side n points to.
struct Wall {
  Vec3 n = Vec3::UnitZ();  ///< unit normal towards the admissible side
  double offset = 0.0;     ///< n.z on the plane, m
  int gap = 1;             ///< its index in SystemInfo::constraints (the ground is 0)
  const char* name = "wall";  ///< that constraint's name (static text)
};

struct RigidBodyModel {
  double m = 1.0;        ///< mass, kg
  double g = 9.80665;    ///< gravitational acceleration along -e3, m/s^2
  double restitution = 1.0;  ///< Newton's coefficient of restitution at every impact, [0, 1]
  Mat3 J = Mat3::Identity();     ///< standard inertia about the centre of mass, body frame, kg m^2
  Mat3 Jinv = Mat3::Identity();  ///< its inverse
  Vec3 n = Vec3::UnitZ();        ///< unit plane normal (plane through the world origin)
  /// Further planes; plane j of the model is the ground for j = 0 and walls[j - 1] after it.
  std::vector<Wall> walls;
  /// Largest distance of a body point from the centre of mass, rounding included, m: a wall
  /// farther than this from x cannot be the lowest gap, so its support point is not computed.
  double reach = std::numeric_limits<double>::infinity();
  BodyShape shape;               ///< body geometry, body frame with origin at the centre of mass
  double tolerance = 1e-15;      ///< eps_tol: Newton step (SolveF) and bisection width
  int maxNewtonIterations = 50;  ///< SolveF's Newton iteration cap
  int maxBisectionIterations = 200;  ///< root-finder iterations per impact before giving up
  ImpactTimeSolver impactTimeSolver = ImpactTimeSolver::Brent;
  int maxImpactsPerStep = impact::kMaxImpactsPerStep;  ///< Zeno guard j_max, <= that
};

/// Fills Jinv from J (call after setting J).
inline void updateInverseInertia(RigidBodyModel& model) { model.Jinv = model.J.inverse(); }

struct RigidBodyState {
  Vec3 x = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  Vec3 gamma = Vec3::Zero();
  Vec3 Pi = Vec3::Zero();
};

/// Unit normal of plane j of the model (0: the ground).
inline const Vec3& planeNormal(const RigidBodyModel& model, int j) {
  return j == 0 ? model.n : model.walls[std::size_t(j - 1)].n;
}
/// Constraint index (SystemInfo::constraints) of plane j of the model.
inline int planeGap(const RigidBodyModel& model, int j) {
  return j == 0 ? 0 : model.walls[std::size_t(j - 1)].gap;
}

/// Copies a failed support solve's status (ok, failedPart, iterations, residual) into `s`.
inline void markFailure(SupportPoint& s, const SupportPoint& status) {
  if (status.ok) return;
  s.ok = false;
  s.failedPart = status.failedPart;
  s.iterations = status.iterations;
  s.residual = status.residual;
}

/// Lowers `value`, the ground's Phi at (x, R), to the smallest gap over the walls: for wall k,
/// n_k.x - offset_k + min_rho n_k.(R rho). A wall whose lower bound n_k.x - offset_k - reach is
/// not below `value` cannot be lower and is skipped (the result is the exact minimum). With
/// `support`, it and `plane` follow the lowest plane. `status` (if given) reports a failed
/// support solve as lowestHeight() does. No-op without walls.
inline void lowerToWalls(const RigidBodyModel& model, const Vec3& x, const Mat3& R, double& value,
                         SupportPoint* support, int* plane, SupportPoint* status) {
  for (std::size_t k = 0; k < model.walls.size(); ++k) {
    const Wall& w = model.walls[k];
    const double distance = w.n.dot(x) - w.offset;
    if (distance - model.reach >= value) continue;
    const Vec3 u = R.transpose() * w.n;
    if (support) {
      const SupportPoint s = lowestPoint(model.shape, u);
      if (!s.ok && status && status->ok) *status = s;
      if (distance + s.height < value) {
        value = distance + s.height;
        *support = s;
        if (plane) *plane = int(k) + 1;
      }
    } else {
      value = std::min(value, distance + lowestHeight(model.shape, u, status));
    }
  }
}

/// Collision detection function Phi(x, R) = n.x + u.rho_C with u = R^T n, m: the
/// signed height of the body's lowest point above the plane, or with walls the smallest such
/// gap over every plane. `support` receives rho_C and the solve status: if support->ok is false
/// (an intersection's crease solve did not converge) the value is not reliable. Without
/// `support` such a value is returned as NaN instead. `plane` receives the lowest plane's index.
inline double phi(const RigidBodyModel& model, const Vec3& x, const Mat3& R,
                  SupportPoint* support = nullptr, int* plane = nullptr) {
  const Vec3 u = R.transpose() * model.n;
  if (plane) *plane = 0;
  if (!support) {
    SupportPoint status;  // only an intersection part ever writes it
    double value = model.n.dot(x) + lowestHeight(model.shape, u, &status);
    lowerToWalls(model, x, R, value, nullptr, nullptr, &status);
    return status.ok ? value : std::numeric_limits<double>::quiet_NaN();
  }
  *support = lowestPoint(model.shape, u);
  double value = model.n.dot(x) + support->height;
  if (!model.walls.empty()) {
    SupportPoint status;  // the first failed support solve, on any plane
    if (!support->ok) status = *support;
    lowerToWalls(model, x, R, value, support, plane, &status);
    markFailure(*support, status);
  }
  return value;
}

/// Body-frame rotational gradient of Phi, chi = rho_C x u, m: for dR = R hat(zeta),
/// dPhi = n.dx + zeta.chi, with n the normal of plane j (0: the ground). The jump needs this
/// vector, not the paper's 3x3 matrix gradient Phi_R.
inline Vec3 chi(const RigidBodyModel& model, const Mat3& R, const Vec3& rhoC, int j = 0) {
  return rhoC.cross(R.transpose() * planeNormal(model, j));
}

/// Translational + potential energy |gamma|^2/(2m) + m g x3 ("T.P.E.", paper Fig. 5), J.
inline double translationalEnergy(const RigidBodyModel& model, const RigidBodyState& s) {
  return 0.5 * s.gamma.squaredNorm() / model.m + model.m * model.g * s.x.z();
}
/// Rotational kinetic energy Pi^T J^-1 Pi / 2 ("R.E."), J.
inline double rotationalEnergy(const RigidBodyModel& model, const RigidBodyState& s) {
  return 0.5 * s.Pi.dot(model.Jinv * s.Pi);
}
/// Total energy E = T.P.E. + R.E. (003 eq. (38c)), J.
inline double totalEnergy(const RigidBodyModel& model, const RigidBodyState& s) {
  return translationalEnergy(model, s) + rotationalEnergy(model, s);
}

/// F~[tau]: x+ = x + tau gamma/m - g tau^2 e3/2, gamma+ = gamma - m g tau e3,
/// F = SolveF(tau Pi) (Cayley), R+ = R F, Pi+ = F^T Pi. tau in s. Returns the SolveF outcome;
/// `out` is meaningful only when it converged.
inline SolveFResult flow(const RigidBodyModel& model, const RigidBodyState& s, double tau,
                         RigidBodyState& out) {
  const double gt = model.g * tau;
  out.x = s.x + (tau / model.m) * s.gamma;
  out.x.z() -= 0.5 * gt * tau;
  out.gamma = s.gamma;
  out.gamma.z() -= model.m * gt;
  const SolveFResult f =
      solveFCayley(model.J, model.Jinv, tau * s.Pi, model.tolerance, model.maxNewtonIterations);
  out.R = s.R * f.F;
  out.Pi = f.F.transpose() * s.Pi;
  return f;
}

/// dPhi/dt of the body point with rotational gradient `chiVec`: v_n = n.gamma/m +
/// chi.J^-1 Pi, m/s, with n the normal of plane j. Negative: that point approaches the plane.
inline double normalVelocity(const RigidBodyModel& model, const RigidBodyState& s,
                             const Vec3& chiVec, int j = 0) {
  return planeNormal(model, j).dot(s.gamma) / model.m + chiVec.dot(model.Jinv * s.Pi);
}

/// Outcome of the elastic jump at an impact state.
struct JumpResult {
  double lambda = 0.0;    ///< impulse magnitude along n, kg m/s (> 0 at a genuine impact)
  double vnBefore = 0.0;  ///< dPhi/dt before: a.gamma/m + chi.J^-1 Pi, m/s (< 0)
  double vnAfter = 0.0;   ///< dPhi/dt after (= -vnBefore up to round-off), m/s
  Vec3 chi = Vec3::Zero();  ///< rotational gradient of Phi at the impact, m
};

/// F~_Jump (003 Corollary 4.6): gamma += lambda a, Pi += lambda chi with a = Phi_x = n and
/// lambda = -2 v_n / k, k = a.a/m + chi.J^-1 chi, the non-zero root of continuous energy
/// conservation; n is the normal of the plane hit (index `plane`, 0: the ground). Updates the
/// momenta of `s` in place. Only meaningful for an approaching contact (v_n < 0, then
/// lambda > 0): with v_n > 0 it would pull the body into the plane, so the stepper checks v_n
/// before calling it.
inline JumpResult applyJump(const RigidBodyModel& model, RigidBodyState& s, const Vec3& rhoC,
                            int plane = 0) {
  JumpResult j;
  j.chi = chi(model, s.R, rhoC, plane);
  const Vec3& a = planeNormal(model, plane);
  const Vec3 JinvChi = model.Jinv * j.chi;
  j.vnBefore = a.dot(s.gamma) / model.m + JinvChi.dot(s.Pi);
  const double k = a.squaredNorm() / model.m + j.chi.dot(JinvChi);
  j.lambda = -2.0 * j.vnBefore / k;
  s.gamma += j.lambda * a;
  s.Pi += j.lambda * j.chi;
  j.vnAfter = a.dot(s.gamma) / model.m + JinvChi.dot(s.Pi);
  return j;
}

/// What an SE(3) impact records beyond the common impact::Impact fields (s = alpha_Sigma j, the
/// fraction of the step elapsed at the impact; before/after = the impact state with the pre- and
/// post-jump momenta; impulse = lambda).
struct ImpactDetail {
  double alpha = 0.0;       ///< this impact's own fraction alpha_j of the step; can be
                            ///< 0 for another point of a simultaneous contact (see step())
  double phi = 0.0;         ///< Phi at the impact state, m (0 < phi <~ eps_tol)
  int rootIterations = 0;   ///< bisection halvings or Brent iterations spent locating alpha
  Vec3 rhoC = Vec3::Zero(); ///< body-frame contact point that got the impulse, m
  int plane = 0;            ///< the model's plane that was hit (0: the ground; k: walls[k - 1])
  JumpResult jump;
};

/// One impact inside a step.
using ImpactEvent = impact::Impact<RigidBodyState, ImpactDetail>;
/// What one step reports: its impacts in order, or what failed.
using StepReport = impact::StepReport<ImpactEvent>;

/// Algorithm 5.2 of the paper in an index-free form (docs/se3-lgvci.md, "The step"), as a
/// constant stepper over an explicit state (Model/Data): the model is shared and never changes;
/// a run owns its state and its step report.
class LgvciStepper {
 public:
  using State = RigidBodyState;
  using Report = StepReport;

  /// h: time step, s (> 0).
  LgvciStepper(std::shared_ptr<const RigidBodyModel> model, double h);
  /// The same with a shared copy of `model`.
  LgvciStepper(const RigidBodyModel& model, double h);

  /// Advances `s` from a grid time to the next one (one step h). On success `s` is the new grid
  /// state and `report` lists this step's impacts in order; on failure `s` is left unchanged and
  /// report.failure says what failed. Never allocates.
  RunStatus step(RigidBodyState& s, Report& report) const;

  const RigidBodyModel& model() const { return *model_; }
  const std::shared_ptr<const RigidBodyModel>& sharedModel() const { return model_; }
  double timeStep() const { return h_; }

  /// Total energy at an impact state, J (StepperSimulation).
  double impactEnergy(const RigidBodyState& s) const { return totalEnergy(*model_, s); }
  /// World position of the contact point of an impact, m.
  Vec3 contactPoint(const ImpactEvent& e) const { return e.before.x + e.before.R * e.detail.rhoC; }
  /// Name of constraint `gap` (0: "plane", the ground; a wall's own name otherwise).
  const char* gapName(int gap) const {
    for (const Wall& w : model_->walls) {
      if (w.gap == gap) return w.name;
    }
    return "plane";
  }

 private:
  // Per-step scratch: the state at the penetrating end of the last impact bracket and its alpha
  // (bisect() keeps them; before that, the trial step): its lowest point is the one that crosses
  // the plane.
  struct Bracket {
    RigidBodyState beyond;
    double beyondAlpha = 0.0;
  };
  // Locate alpha in (0, alphaMax) from the admissible state s, where Phi(F~[alphaMax h](s)) =
  // phiEnd <= 0: fills event.detail.alpha/before/phi with the admissible end of the final
  // bracket. False if the root finder ran out of iterations or SolveF failed (the report says).
  bool locateImpact(const RigidBodyState& s, double alphaMax, double phiEnd, double alphaTotal,
                    ImpactEvent& event, Bracket& bracket, Report& report) const;
  // The paper's bisection.
  bool bisect(const RigidBodyState& s, double alphaMax, double alphaTotal, ImpactEvent& event,
              Bracket& bracket, Report& report) const;
  // Brent's method on the same bracket; falls back to bisect() if its admissible end is not.
  bool brent(const RigidBodyState& s, double alphaMax, double phiEnd, double alphaTotal,
             ImpactEvent& event, Bracket& bracket, Report& report) const;
  // F~[alpha h](s) with SolveF's outcome checked; records the failure and returns false.
  bool subStep(const RigidBodyState& s, double alpha, double alphaTotal, RigidBodyState& out,
               Report& report) const;
  // Phi at t (the state after a sub-step of tau seconds), with the support point and the lowest
  // plane if asked: the same value as phi(), but false, with the failure recorded, where a
  // part's support solve did not converge (Phi unknown: neither accept nor bisect on it).
  bool gapAt(const RigidBodyState& t, double tau, double alphaTotal, double& value,
             Report& report, SupportPoint* support = nullptr, int* plane = nullptr) const {
    const RigidBodyModel& model = *model_;
    const Vec3 u = t.R.transpose() * model.n;
    // The accept test of every step: without an intersection part nothing can fail, so this is
    // phi()'s plain value, inlined, with no status to fill in.
    if (!support && model.shape.intersections.empty()) {
      value = model.n.dot(t.x) + lowestHeight(model.shape, u);
      if (!model.walls.empty()) lowerToWalls(model, t.x, t.R, value, nullptr, nullptr, nullptr);
      return true;
    }
    return checkedGap(t, u, tau, alphaTotal, value, report, support, plane);
  }
  bool checkedGap(const RigidBodyState& t, const Vec3& u, double tau, double alphaTotal,
                  double& value, Report& report, SupportPoint* support, int* plane) const;

  std::shared_ptr<const RigidBodyModel> model_;
  double h_;
};

}  // namespace ricochet::se3
