#pragma once
// The step of a body with settled contacts, written once for every engine (docs/restitution.md,
// "Settling"). Once the bounces of a contact fall below the step's resolution
// (restitution.hpp, bounceBelowResolution) the contact is *held*: the gap is an equality
// g_j(q) = 0 while its force pushes, and the engine's constrained step moves the body (RATTLE-type:
// the flight's step with the held gaps' multipliers, then the node velocity projected on their
// tangent). advanceHeld() drives such steps from a point inside a step to its end:
//   1. lift-off: the constrained step over the rest of the step gives each held gap's force; one
//      that would pull is released (the most negative first) and the step solved again;
//   2. the other gaps' crossings along the constrained flow (crossing.hpp's detector);
//   3. at a crossing, Newton's law with e on the landing contact and 0 on the held ones
//      (simultaneousImpulses): held contacts the impact lifts are released, and the landing one
//      settles when its rebound is below the step's resolution (the jump to zero normal rate,
//      whose energy counts as dissipated). A gap released in a step does not settle again in it.
// With nothing held, the constrained step is the engine's flight and the same loop finishes a step
// in which the last held contact lifted off.
//
// An engine supplies a HeldMotion (the concept below): its node type (configuration and
// momentum or velocity), the constrained step and its multipliers, the gaps and their rates along
// it, the jump, the settling test and the projection. The SE(3) and multi-body engines can supply
// theirs in the same way; joints are held gaps that are never released.

#include "core/impact/crossing.hpp"
#include "core/impact/restitution.hpp"
#include "core/impact/step_report.hpp"
#include "core/model/system.hpp"

#include <algorithm>
#include <cmath>
#include <concepts>
#include <limits>

namespace ricochet::impact {

/// Gaps held as equalities: bit j for gap j.
using HeldSet = unsigned;

/// What a held gap reads to the crossing detector: far open (finite, because a sample that is not
/// finite means a failed evaluation).
inline constexpr double kHeldGap = 1e300;

/// The engine side of advanceHeld (see the file comment). `Segment` is the solution of one
/// constrained step (the Newton unknowns, reused as the next guess); its force(j) is gap j's
/// multiplier, > 0 when it pushes.
template <class M>
concept HeldMotion = requires(const M& m, const typename M::Node& x, typename M::Node& y,
                              typename M::Segment& seg, const typename M::Segment& cseg,
                              typename M::GapVec& g, HeldSet held, double t, int j, double& d) {
  requires M::kGaps >= 1;
  { m.timeStep() } -> std::convertible_to<double>;
  /// The constrained step of length t from x with the `held` gaps closed; seg: guess in, out.
  { m.solveHeld(t, x, held, seg) } -> std::convertible_to<bool>;
  { m.heldForce(cseg, j) } -> std::convertible_to<double>;
  /// Its end node (momentum projected on the held gaps' tangent).
  { m.heldEnd(t, x, cseg, held) } -> std::convertible_to<typename M::Node>;
  { m.gap(j, x) } -> std::convertible_to<double>;
  { m.gapRate(j, x) } -> std::convertible_to<double>;  ///< dg_j/dt at the node
  { m.gapRoundoff(j, x) } -> std::convertible_to<double>;
  /// Bounds of G_j'' along the step from x (+inf where none is known).
  m.heldCurvature(x, held, t, cseg, g);
  /// Newton's law at gap j with the `held` gaps closed; d: gap j's impulse. False: no solution.
  { m.heldJump(j, held, x, y, d) } -> std::convertible_to<bool>;
  { m.energyOf(x) } -> std::convertible_to<double>;  ///< the node's energy, J
  { m.settles(j, held, x) } -> std::convertible_to<bool>;
  /// x with the normal rates of the held gaps set to zero (the e = 0 jump).
  { m.projectHeld(held, x) } -> std::convertible_to<typename M::Node>;
};

/// The constrained flow s -> solveHeld(s tau) from a node, as the crossing detector sees it.
template <HeldMotion M>
struct HeldPath {
  static constexpr int kGaps = M::kGaps;
  using GapVec = typename M::GapVec;
  const M* motion;
  typename M::Node from;
  HeldSet held;
  double tau;
  mutable typename M::Segment work;

  bool at(double s, typename M::Node& out) const {
    if (s == 0.0) {
      out = from;
      return true;
    }
    if (!motion->solveHeld(s * tau, from, held, work)) return false;
    out = motion->heldEnd(s * tau, from, work, held);
    return true;
  }
  void gaps(double s, GapVec& out) const {
    typename M::Node x;
    if (!at(s, x)) {
      out.setConstant(std::numeric_limits<double>::quiet_NaN());
      return;
    }
    for (int j = 0; j < kGaps; ++j) out[j] = (held & (1u << j)) ? kHeldGap : motion->gap(j, x);
  }
  double gap(int j, double s) const {
    typename M::Node x;
    if (!at(s, x)) return std::numeric_limits<double>::quiet_NaN();
    return (held & (1u << j)) ? kHeldGap : motion->gap(j, x);
  }
  double gapRate(int j, double s) const {
    typename M::Node x;
    return at(s, x) ? tau * motion->gapRate(j, x) : std::numeric_limits<double>::quiet_NaN();
  }
  double gapRoundoff(int j, double s) const {
    typename M::Node x;
    return at(s, x) ? motion->gapRoundoff(j, x) : 0.0;
  }
};

/// Where advanceHeld leaves a run: the node at the end of the step, the held gaps, the last
/// constrained segment (the next step's guess) and its length.
template <HeldMotion M>
struct HeldEnd {
  typename M::Node node;
  HeldSet held = 0;
  typename M::Segment segment;
  double lastTau = 0.0;  ///< s; 0 when the step ended exactly at an impact
};

/// Advances from the fraction `elapsed` of a step, node `from` with the `held` gaps closed and
/// their normal rates zero, to the end of the step (see the file comment). `guess` seeds the
/// first constrained solve. Impacts go to `report` through `record(report, j, s, before, after,
/// impulse)`, their dissipated energy and a settling to report.dissipated and report.settledAt.
/// On failure `report` says what failed and `out` is not meaningful.
template <HeldMotion M, class Report, class Record>
RunStatus advanceHeld(const M& motion, double elapsed, typename M::Node from, HeldSet held,
                      const typename M::Segment& guess, const DetectionOptions& detection,
                      int impactCap, Report& report, Record&& record, HeldEnd<M>& out) {
  using GapVec = typename M::GapVec;
  constexpr int kGaps = M::kGaps;
  const double h = motion.timeStep();
  const auto fail = [&](const char* what, int gap, double s) {
    report.fail(RunStatus::SolverFailed, what, gap, s);
    return RunStatus::SolverFailed;
  };
  typename M::Segment seg = guess;
  HeldSet released = 0;  // released in this step: they do not settle again before its end
  out.lastTau = 0.0;
  for (;;) {
    const double tau = std::max(1.0 - elapsed, 0.0) * h;
    if (!(tau > 1e-12 * h)) break;  // the step ends at this node
    // 1. Lift-off.
    typename M::Segment whole = seg;
    for (;;) {
      if (!motion.solveHeld(tau, from, held, whole)) {
        return fail(
            "the constrained step of settled contacts (their multipliers) did not "
            "converge",
            -1, elapsed);
      }
      int pulling = -1;
      for (int j = 0; j < kGaps; ++j) {
        if ((held & (1u << j)) && motion.heldForce(whole, j) < 0.0 &&
            (pulling < 0 || motion.heldForce(whole, j) < motion.heldForce(whole, pulling))) {
          pulling = j;
        }
      }
      if (pulling < 0) break;
      held &= ~(1u << pulling);
      released |= 1u << pulling;
    }
    // 2. Crossings of the gaps that are not held.
    const typename M::Node end = motion.heldEnd(tau, from, whole, held);
    GapVec g0, g1, kappa;
    for (int j = 0; j < kGaps; ++j) {
      const bool isHeld = held & (1u << j);
      g0[j] = isHeld ? kHeldGap : motion.gap(j, from);
      g1[j] = isHeld ? kHeldGap : motion.gap(j, end);
    }
    motion.heldCurvature(from, held, tau, whole, kappa);
    for (int j = 0; j < kGaps; ++j) {
      if (held & (1u << j)) kappa[j] = 0.0;
    }
    const HeldPath<M> path{&motion, from, held, tau, whole};
    const Crossing x = firstCrossing(path, g0, g1, kappa, detection);
    if (x.failed) {
      return fail(
          "the contact time of an impact during settled motion (root of the gap) did "
          "not converge",
          x.gap, elapsed);
    }
    if (!x.found) {
      from = end;
      seg = whole;
      out.lastTau = tau;
      break;
    }
    if (report.impactCount >= impactCap) {
      report.fail(RunStatus::Zeno, kZenoText, x.gap, elapsed);
      report.failure.with("cap", report.impactCount);
      return RunStatus::Zeno;
    }
    // 3. The impact, with the held gaps closed.
    typename M::Node before = from;
    if (x.s > 0.0) {
      seg = whole;
      if (!motion.solveHeld(x.s * tau, from, held, seg)) {
        return fail(
            "the constrained step of settled contacts (their multipliers) did not "
            "converge",
            x.gap, elapsed);
      }
      before = motion.heldEnd(x.s * tau, from, seg, held);
      out.lastTau = x.s * tau;
    }
    elapsed += x.s * (1.0 - elapsed);
    typename M::Node after;
    double impulse = 0.0;
    if (!motion.heldJump(x.gap, held, before, after, impulse)) {
      return fail(
          "the impact with settled contacts (Newton's law at several contacts) has no "
          "solution",
          x.gap, elapsed);
    }
    const HeldSet wasHeld = held;
    const double landing = std::fabs(motion.gapRate(x.gap, before));
    for (int j = 0; j < kGaps; ++j) {
      if ((held & (1u << j)) && j != x.gap && motion.gapRate(j, after) > 1e-12 * landing) {
        held &= ~(1u << j);  // lifted by the impact
      }
    }
    report.dissipated += motion.energyOf(before) - motion.energyOf(after);
    record(report, x.gap, elapsed, before, after, impulse);
    if (!(released & (1u << x.gap)) && motion.settles(x.gap, held, after)) {
      held |= 1u << x.gap;
      const typename M::Node settled = motion.projectHeld(held, after);
      report.dissipated += motion.energyOf(after) - motion.energyOf(settled);
      after = settled;
      if (wasHeld == 0 && report.settledAt < 0.0) report.settledAt = elapsed;
    }
    from = after;
  }
  out.node = from;
  out.held = held;
  out.segment = seg;
  return RunStatus::Ok;
}

}  // namespace ricochet::impact
