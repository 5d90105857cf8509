#pragma once
// Settled contacts of a planar body (docs/restitution.md, "Settling"): once the bounces of a
// contact fall below the step's resolution (impact::bounceBelowResolution) the contact is *held*
// as an equality g_j(q) = 0 while its force pushes, and the body moves with the constrained
// flow: frictionless, so it may slide along the floor and rock or pivot on a tip. The loop that
// releases, detects and resolves impacts is impact::advanceHeld; this file is the planar engine's
// side of it (impact::HeldMotion).
//
// The constrained step is RATTLE (Andersen 1983; Hairer, Lubich, Wanner, Geometric Numerical
// Integration, VII.1.4), the velocity Verlet of FMOW's flight with the held gaps' multipliers:
//   p_1/2   = p_k - (tau/2) (grad V(q_k) - N(q_k) lambda)
//   q_k+1   = q_k + tau M^-1 p_1/2,            g_S(q_k+1) = 0        (lambda by Newton)
//   p_k+1   = p_1/2 - (tau/2) grad V(q_k+1) + N(q_k+1) mu,  N(q_k+1)^T M^-1 p_k+1 = 0   (mu linear)
// with N the gradients of the held gaps S as columns and lambda their forces (> 0: pushing). It is
// symplectic and symmetric, so the energy of a settled body stays in a bounded O(h^2) band (exact
// when nothing but a uniform slide is left, as for a body at rest on the floor), p_x is conserved
// to the last bit (neither V nor the gaps depend on x), and the gaps are held to the solver's
// tolerance. With no held gap it is the Verlet drift itself. The velocity projection (mu) is the
// e = 0 jump of impact/restitution.hpp; impacts of the other gaps take Newton's law with e on the
// landing contact and 0 on the held ones (impact::simultaneousImpulses).
//
// SettledMotion is constant (the model, M^-1, h and the options) and shared by the planar
// steppers (FMOW and rk4-event): their step hands over to advance() when a contact settles or is
// held at the start of a step. Allocation-free.

#include "core/impact/crossing.hpp"
#include "core/impact/restitution.hpp"
#include "core/impact/settled_advance.hpp"
#include "core/impact/step_report.hpp"
#include "core/model/system.hpp"
#include "core/planar/planar_model.hpp"
#include "core/planar/planar_state.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::planar {

template <PlanarModel Model>
class SettledMotion {
 public:
  using Vec = typename Model::Vec;
  using GapVec = typename Model::GapVec;
  using State = PlanarState<Model>;
  using Point = impact::PhasePoint<Vec>;
  using Impact = impact::Impact<Point>;
  using Report = impact::StepReport<Impact>;
  using ContactMatrix = impact::ContactMatrix;
  using ContactVector = impact::ContactVector;
  static constexpr int kGaps = Model::kGaps;
  static_assert(kGaps <= impact::kMaxSimultaneousContacts,
                "a held-contact impact involves every gap of the model at most");

  struct Options {
    double restitution = 1.0;  ///< e of the landing contacts
    double tolerance = 1e-14;  ///< Newton (relative to lengthScale), detection (fraction of a step)
    int maxIterations = 60;    ///< Newton cap of the multipliers
    int maxImpactsPerStep = kPlanarImpactCap;
    impact::DetectionOptions detection;
  };

  /// One RATTLE step: the end node and the held gaps' forces (lambda, generalized force units; 0
  /// for the others).
  struct Constrained {
    Vec q = Vec::Zero(), p = Vec::Zero();
    GapVec force = GapVec::Zero();
    bool ok = false;
  };
  using HeldSet = impact::HeldSet;

  SettledMotion(const Model& model, const Vec& inverseMass, double h, const Options& options)
      : model_(model), inverseMass_(inverseMass), h_(h), options_(options) {}

  const Options& options() const { return options_; }
  Vec inverseMass(const Vec& v) const { return v.cwiseProduct(inverseMass_); }
  double nodeEnergy(const Vec& q, const Vec& p) const {
    return 0.5 * p.dot(inverseMass(p)) + model_.potential(q);
  }

  // ---- building blocks (public: the tests check them) -----------------------------------------

  /// The held gaps' indices, in order; returns their count.
  static int members(HeldSet held, int* out) {
    int n = 0;
    for (int j = 0; j < kGaps; ++j) {
      if (held & (1u << j)) out[n++] = j;
    }
    return n;
  }

  /// Normal accelerations d2g_j/dt2 of every gap under the flow with the `held` gaps closed while
  /// they push (their forces from the contact problem of impact::simultaneousImpulses on the
  /// accelerations: a held gap that would have to pull is left free), at (q, p).
  GapVec gapAccelerations(HeldSet held, const Vec& q, const Vec& p) const {
    const Vec v = inverseMass(p);
    const Vec c = model_.potentialGradient(q);
    Vec qdd = -inverseMass(c);
    int idx[kGaps];
    const int n = members(held, idx);
    if (n > 0) {
      ContactMatrix K(n, n);
      ContactVector a(n), zero = ContactVector::Zero(n), force;
      for (int r = 0; r < n; ++r) {
        const Vec nr = model_.gapGradient(idx[r], q);
        a[r] = nr.dot(qdd) + model_.gapCurvature(idx[r], q, v);
        for (int k = 0; k < n; ++k) K(r, k) = nr.dot(inverseMass(model_.gapGradient(idx[k], q)));
      }
      if (impact::simultaneousImpulses(K, a, zero, 0.0, force)) {
        for (int r = 0; r < n; ++r) qdd += force[r] * inverseMass(model_.gapGradient(idx[r], q));
      }
    }
    GapVec out;
    for (int j = 0; j < kGaps; ++j) {
      out[j] = model_.gapGradient(j, q).dot(qdd) + model_.gapCurvature(j, q, v);
    }
    return out;
  }

  /// p with the normal rates of the held gaps set to zero: the M-orthogonal projection onto
  /// their tangent space (the e = 0 jump), adding the kinetic energy it takes to `lost` (J).
  Vec project(HeldSet held, const Vec& q, const Vec& p, double* lost = nullptr) const {
    int idx[kGaps];
    const int n = members(held, idx);
    if (n == 0) return p;
    ContactMatrix K(n, n);
    ContactVector u(n);
    for (int r = 0; r < n; ++r) {
      const Vec nr = model_.gapGradient(idx[r], q);
      u[r] = nr.dot(inverseMass(p));
      for (int k = 0; k < n; ++k) K(r, k) = nr.dot(inverseMass(model_.gapGradient(idx[k], q)));
    }
    const ContactVector mu = K.partialPivLu().solve(-u);
    Vec out = p;
    for (int r = 0; r < n; ++r) out += mu[r] * model_.gapGradient(idx[r], q);
    if (lost) *lost += 0.5 * p.dot(inverseMass(p)) - 0.5 * out.dot(inverseMass(out));
    return out;
  }

  /// One RATTLE step of length tau (s) from (q, p) with the `held` gaps closed (see the file
  /// comment). `guess`: the forces to start Newton from (the continuous ones when null).
  Constrained rattle(HeldSet held, double tau, const Vec& q, const Vec& p,
                     const GapVec* guess = nullptr) const {
    Constrained out;
    const Vec c = model_.potentialGradient(q);
    int idx[kGaps];
    const int n = members(held, idx);
    const double half2 = 0.5 * tau * tau;
    Vec qEnd = q + tau * inverseMass(p) - half2 * inverseMass(c);
    ContactVector lambda = ContactVector::Zero(n);
    if (n > 0) {
      for (int r = 0; r < n; ++r) {
        lambda[r] = guess ? (*guess)[idx[r]] : 0.0;
      }
      if (!guess) lambda = continuousForces(held, q, p);
      const Vec qFree = qEnd;
      bool converged = false;
      for (int it = 0; it < options_.maxIterations; ++it) {
        qEnd = qFree;
        for (int r = 0; r < n; ++r)
          qEnd += (half2 * lambda[r]) * inverseMass(model_.gapGradient(idx[r], q));
        ContactVector F(n);
        double floor = 0.0;
        for (int r = 0; r < n; ++r) {
          F[r] = model_.gap(idx[r], qEnd);
          floor = std::max(floor, impact::gapRoundoff(model_, idx[r], qEnd));
        }
        if (maxAbs(F) <= options_.tolerance * model_.lengthScale + floor) {
          converged = true;
          break;
        }
        ContactMatrix J(n, n);
        for (int r = 0; r < n; ++r) {
          const Vec nr = model_.gapGradient(idx[r], qEnd);
          for (int k = 0; k < n; ++k) {
            J(r, k) = half2 * nr.dot(inverseMass(model_.gapGradient(idx[k], q)));
          }
        }
        const ContactVector step = J.partialPivLu().solve(-F);
        if (!step.allFinite()) break;
        lambda += step;
        if (maxAbs(step) <= 4.0 * kEps * (maxAbs(lambda) + 1e-300)) {
          converged = true;
          break;
        }
      }
      if (!converged) {
        // Tiny sub-steps (the detector's samples near s = 0): the constraint holds to the
        // round-off of q itself, which is all a step of that length can do.
        if (!(tau <= 1e-9 * h_)) return out;
        qEnd = q;
      }
    }
    Vec pHalf = p - (0.5 * tau) * c;
    for (int r = 0; r < n; ++r) pHalf += (0.5 * tau * lambda[r]) * model_.gapGradient(idx[r], q);
    const Vec pEnd = project(held, qEnd, pHalf - (0.5 * tau) * model_.potentialGradient(qEnd));
    out.q = qEnd;
    out.p = pEnd;
    for (int r = 0; r < n; ++r) out.force[idx[r]] = lambda[r];
    out.ok = qEnd.allFinite() && pEnd.allFinite();
    return out;
  }

  /// The forces that hold the `held` gaps at (q, p) in the continuous flow (may be negative).
  ContactVector continuousForces(HeldSet held, const Vec& q, const Vec& p) const {
    int idx[kGaps];
    const int n = members(held, idx);
    const Vec v = inverseMass(p);
    const Vec qddFree = -inverseMass(model_.potentialGradient(q));
    ContactMatrix K(n, n);
    ContactVector a(n);
    for (int r = 0; r < n; ++r) {
      const Vec nr = model_.gapGradient(idx[r], q);
      a[r] = nr.dot(qddFree) + model_.gapCurvature(idx[r], q, v);
      for (int k = 0; k < n; ++k) K(r, k) = nr.dot(inverseMass(model_.gapGradient(idx[k], q)));
    }
    ContactVector f = K.partialPivLu().solve(-a);
    if (!f.allFinite()) f.setZero();
    return f;
  }

  /// True when a contact on gap j that rebounds with momentum `pPlus` at q (the `held` gaps
  /// closed) is to settle: its next bounce would land within one step (bounceBelowResolution).
  bool settles(int j, HeldSet held, const Vec& q, const Vec& pPlus) const {
    if (!(options_.restitution < 1.0)) return false;  // elastic contacts never settle
    const double rate = model_.gapGradient(j, q).dot(inverseMass(pPlus));
    const double an = -gapAccelerations(held, q, pPlus)[j];
    return impact::bounceBelowResolution(std::max(rate, 0.0), an, h_);
  }

  // ---- impact::HeldMotion (the engine side of impact::advanceHeld) ----------------------------
  using Node = Point;
  using Segment = Constrained;
  double timeStep() const { return h_; }
  bool solveHeld(double tau, const Node& x, HeldSet held, Segment& seg) const {
    bool seeded = false;  // a guess for every held gap, else the continuous forces
    for (int j = 0; j < kGaps; ++j) seeded = seeded || ((held & (1u << j)) && seg.force[j] != 0.0);
    const GapVec guess = seg.force;
    seg = rattle(held, tau, x.q, x.p, seeded ? &guess : nullptr);
    return seg.ok;
  }
  static double heldForce(const Segment& seg, int j) { return seg.force[j]; }
  static Node heldEnd(double, const Node&, const Segment& seg, HeldSet) { return {seg.q, seg.p}; }
  double gap(int j, const Node& x) const { return model_.gap(j, x.q); }
  double gapRate(int j, const Node& x) const {
    return model_.gapGradient(j, x.q).dot(inverseMass(x.p));
  }
  double gapRoundoff(int j, const Node& x) const { return impact::gapRoundoff(model_, j, x.q); }
  /// The flow is Verlet's drift q + s a + s^2 b with the held forces in b (exactly so when
  /// nothing is held); with held gaps the forces vary a little along the step, so the model's
  /// bound of G'' on that drift is doubled.
  void heldCurvature(const Node& x, HeldSet held, double tau, const Segment& seg,
                     GapVec& kappa) const {
    Vec accel = -model_.potentialGradient(x.q);
    for (int j = 0; j < kGaps; ++j) {
      if (held & (1u << j)) accel += seg.force[j] * model_.gapGradient(j, x.q);
    }
    model_.gapCurvatureBounds(x.q, tau * inverseMass(x.p), (0.5 * tau * tau) * inverseMass(accel),
                              kappa);
    if (held) kappa = 2.0 * kappa.cwiseMax(0.0);
  }
  bool heldJump(int j, HeldSet held, const Node& x, Node& y, double& impulse) const {
    y.q = x.q;
    y.p = jump(j, held, x.q, x.p, &impulse);
    return y.p.allFinite();
  }
  double energyOf(const Node& x) const { return nodeEnergy(x.q, x.p); }
  bool settles(int j, HeldSet held, const Node& x) const { return settles(j, held, x.q, x.p); }
  Node projectHeld(HeldSet held, const Node& x) const { return {x.q, project(held, x.q, x.p)}; }

  // ---- the step with held contacts -------------------------------------------------------------

  /// Advances `state` from the fraction `elapsed` of the step (node (q, p) there, the `held` gaps
  /// closed with zero normal rates) to the end of the step by impact::advanceHeld. On failure the
  /// state is not modified.
  RunStatus advance(State& state, Report& report, double elapsed, const Vec& q, const Vec& p,
                    HeldSet held) const {
    Segment guess;
    guess.force = state.force;
    impact::HeldEnd<SettledMotion> end;
    const RunStatus st = impact::advanceHeld(
        *this, elapsed, Node{q, p}, held, guess, options_.detection, options_.maxImpactsPerStep,
        report,
        [](Report& r, int j, double s, const Node& before, const Node& after, double impulse) {
          recordImpact(r, j, s, before.q, before.p, after.p, impulse);
        },
        end);
    if (st != RunStatus::Ok) return st;
    state.q = end.node.q;
    state.p = end.node.p;
    model_.gaps(state.q, state.gaps);
    state.lastTau = 0.0;  // e.discrete then shows the node energy
    state.held = end.held;
    state.force = end.segment.force;
    return RunStatus::Ok;
  }

  /// Newton's law at gap j landing at q with momentum pMinus while the `held` gaps are closed
  /// (impact::simultaneousImpulses with e on gap j and 0 on the held ones); `impulse` gets gap
  /// j's. NaN when unsolvable.
  Vec jump(int j, HeldSet held, const Vec& q, const Vec& pMinus, double* impulse = nullptr) const {
    int idx[kGaps + 1];
    idx[0] = j;
    const int n = 1 + members(held & ~(1u << j), idx + 1);
    ContactMatrix K(n, n);
    ContactVector u(n), e(n), P;
    for (int r = 0; r < n; ++r) {
      const Vec nr = model_.gapGradient(idx[r], q);
      u[r] = nr.dot(inverseMass(pMinus));
      e[r] = r == 0 ? options_.restitution : 0.0;
      for (int k = 0; k < n; ++k) K(r, k) = nr.dot(inverseMass(model_.gapGradient(idx[k], q)));
    }
    if (!impact::simultaneousImpulses(K, u, e, rateTolerance(q, pMinus), P)) {
      return Vec::Constant(std::numeric_limits<double>::quiet_NaN());
    }
    Vec out = pMinus;
    for (int r = 0; r < n; ++r) out += P[r] * model_.gapGradient(idx[r], q);
    if (impulse) *impulse = P[0];
    return out;
  }

 private:
  static constexpr double kEps = std::numeric_limits<double>::epsilon();

  // A loop, not cwiseAbs().maxCoeff(): GCC 12 misreads the vectorised form on Eigen's
  // bounded-size vectors as an out-of-bounds access (-Warray-bounds).
  static double maxAbs(const ContactVector& v) {
    double m = 0.0;
    for (int i = 0; i < v.size(); ++i) m = std::max(m, std::fabs(v[i]));
    return m;
  }

  /// Normal rates below this are zero: the round-off of n_j . M^-1 p, gap units/s.
  double rateTolerance(const Vec& q, const Vec& p) const {
    double scale = 0.0;
    const Vec v = inverseMass(p).cwiseAbs();
    for (int j = 0; j < kGaps; ++j)
      scale = std::max(scale, model_.gapGradient(j, q).cwiseAbs().dot(v));
    return 64.0 * kEps * scale;
  }

  static void recordImpact(Report& report, int j, double s, const Vec& q, const Vec& pMinus,
                           const Vec& pPlus, double impulse) {
    Impact& r = report.add();
    r.s = s;
    r.gap = j;
    r.before = Point{q, pMinus};
    r.after = Point{q, pPlus};
    r.impulse = impulse;
    r.energyResidual = 0.0;
    r.reflected = false;
    r.jointFallback = false;
  }

  Model model_;
  Vec inverseMass_;
  double h_;
  Options options_;
};

}  // namespace ricochet::planar
