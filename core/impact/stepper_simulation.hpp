#pragma once
// The one adapter from a collision integrator ("stepper") to the Simulation interface: step count
// and time grid, `advance`, impact records and failure messages, written once for every engine.
//
// Model/Data split (Pinocchio): a stepper is constant (its model, options and time step); one run
// owns its State and its step report (the workspace the step loop fills without allocating).
// A stepper provides
//   using State;  using Report = impact::StepReport<...>;
//   RunStatus step(State&, Report&) const;     one step of length h; state unchanged on failure
//   double timeStep() const;                   h, s
//   double impactEnergy(const Point&) const;   continuous energy at an impact point, J
//   Eigen::Vector3d contactPoint(const Impact&) const;   world point, for display
//   const char* gapName(int j) const;          name of constraint j
// and, if it can settle contacts (restitution < 1, docs/restitution.md),
//   bool settled(const State&) const;          some contact is held as an equality
// whose steps report the energy they dissipate and where a body settled (StepReport).
// A system derives from StepperSimulation and supplies what it shows: energy(), minGap(),
// columns(), sample() and poses().

#include "core/impact/step_report.hpp"
#include "core/model/parameter.hpp"
#include "core/model/system.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace ricochet::impact {

template <class S>
concept Stepper = requires(const S& stepper, typename S::State& state, typename S::Report& report,
                           const typename S::Report::value_type& impact, int j) {
  { stepper.step(state, report) } -> std::same_as<RunStatus>;
  { stepper.timeStep() } -> std::convertible_to<double>;
  { stepper.impactEnergy(impact.before) } -> std::convertible_to<double>;
  { stepper.contactPoint(impact) } -> std::convertible_to<Eigen::Vector3d>;
  { stepper.gapName(j) } -> std::convertible_to<const char*>;
};

/// A stepper whose bodies can settle (restitution < 1): its state says whether a contact is held.
template <class S>
concept SettlingStepper = Stepper<S> && requires(const S& stepper, const typename S::State& state) {
  { stepper.settled(state) } -> std::convertible_to<bool>;
};

/// Counters a run keeps about its impact solves (diagnostics for tests; there is no warning
/// channel in AdvanceResult).
struct ImpactDiagnostics {
  std::int64_t reflected = 0;        ///< near-grazing impacts resolved by the exact reflection
  std::int64_t jointFallbacks = 0;   ///< joint solve without solution, sequential impulse used
  double maxEnergyResidual = 0.0;    ///< max |energy residual| over all impacts, J
  std::int64_t multiImpactSteps = 0; ///< steps with more than one impact
  int maxImpactsInStep = 0;
};

/// What failed: "WHAT [on gap 'G'] at t = T s [(NAME VALUE UNIT, ...)]", with T the time of the
/// failure inside the step that started at `tStart` (failureText() adds the step and its time).
inline std::string failureMessage(const StepFailure& f, const char* gapName, double tStart,
                                  double h) {
  std::string msg = (f.what && *f.what) ? f.what : "the step failed";
  if (gapName) msg += std::string(" on gap '") + gapName + "'";
  msg += " at t = " + formatNumber(tStart + f.s * h) + " s";
  std::string values;
  for (const FailureValue& v : f.values) {
    if (!v.name) break;
    values += (values.empty() ? "" : ", ") + std::string(v.name) + " " + formatNumber(v.value);
    if (*v.unit) values += std::string(" ") + v.unit;
  }
  if (!values.empty()) msg += " (" + values + ")";
  return msg;
}

template <Stepper S>
class StepperSimulation : public Simulation {
 public:
  using State = typename S::State;
  using Report = typename S::Report;

  /// Starts at `state` (node 0) at time `t0` (s).
  StepperSimulation(S stepper, const State& state, double t0 = 0.0)
      : stepper_(std::move(stepper)), state_(state), t0_(t0) {
    // A stepper whose report grows with its model (a world of N bodies) sizes it here, so the
    // step loop never allocates.
    if constexpr (requires { stepper_.prepare(report_); }) stepper_.prepare(report_);
  }

  std::int64_t step() const override { return step_; }
  double time() const override { return t0_ + static_cast<double>(step_) * stepper_.timeStep(); }
  std::int64_t impactCount() const override { return impacts_; }
  double timeStep() const override { return stepper_.timeStep(); }

  AdvanceResult advance(std::int64_t maxSteps, ImpactSink* sink) override {
    AdvanceResult result;
    // The step's start time t_k is only needed for a failure or an impact: computing it there
    // keeps a (virtual) time() call out of the smooth step.
    std::int64_t i = 0;
    for (; i < maxSteps; ++i) {
      const RunStatus status = stepper_.step(state_, report_);
      if (status != RunStatus::Ok) [[unlikely]] {
        result.status = status;
        result.message = describeFailure(stepStart(step_));
        break;
      }
      ++step_;  // before the impacts are recorded: a sink may ask for step() and time()
      if (report_.impactCount > 0) [[unlikely]] recordImpacts(sink, stepStart(step_ - 1));
      if constexpr (SettlingStepper<S>) trackSettling();
    }
    result.stepsTaken = i;
    return result;
  }

  double dissipatedEnergy() const override { return dissipated_; }
  double settledTime() const override { return settledSince_; }

  const S& stepper() const { return stepper_; }
  const State& state() const { return state_; }
  /// The report of the last step (its impacts, or what failed).
  const Report& lastStep() const { return report_; }
  const ImpactDiagnostics& diagnostics() const { return diagnostics_; }

 protected:
  S stepper_;
  State state_;

 private:
  /// t_k, the start of step k.
  double stepStart(std::int64_t k) const {
    return t0_ + static_cast<double>(k) * stepper_.timeStep();
  }

  void recordImpacts(ImpactSink* sink, double tk) {
    const double h = stepper_.timeStep();
    diagnostics_.maxImpactsInStep = std::max(diagnostics_.maxImpactsInStep, report_.impactCount);
    if (report_.impactCount > 1) ++diagnostics_.multiImpactSteps;
    for (const auto& imp : report_) {
      ++impacts_;
      diagnostics_.reflected += imp.reflected;
      diagnostics_.jointFallbacks += imp.jointFallback;
      diagnostics_.maxEnergyResidual =
          std::max(diagnostics_.maxEnergyResidual, std::fabs(imp.energyResidual));
      if (!sink) continue;
      ImpactRecord r;
      r.step = step_;
      r.t = tk + imp.s * h;
      r.alpha = imp.s;
      r.constraint = imp.gap;
      r.energyBefore = stepper_.impactEnergy(imp.before);
      r.energyAfter = stepper_.impactEnergy(imp.after);
      r.impulse = imp.impulse;
      r.reflected = imp.reflected;
      r.contactPoint = stepper_.contactPoint(imp);
      if constexpr (requires { stepper_.impactBodies(imp, r.bodyA, r.bodyB); }) {
        stepper_.impactBodies(imp, r.bodyA, r.bodyB);
      }
      sink->onImpact(r);
    }
  }

  /// After an accepted step: the energy it dissipated, and since when the bodies have been
  /// settled (NaN once none is).
  void trackSettling() {
    dissipated_ += report_.dissipated;
    if (!stepper_.settled(state_)) {
      settledSince_ = std::numeric_limits<double>::quiet_NaN();
    } else if (std::isnan(settledSince_)) {
      settledSince_ = stepStart(step_ - 1) + std::max(report_.settledAt, 0.0) * stepper_.timeStep();
    }
  }

  // Only on the failure path (it allocates the message).
  std::string describeFailure(double tk) const {
    const StepFailure& f = report_.failure;
    if (report_.status == RunStatus::NonFinite && !*f.what) {
      return "the state became non-finite (NaN or infinity)";
    }
    return failureMessage(f, f.gap >= 0 ? stepper_.gapName(f.gap) : nullptr, tk,
                          stepper_.timeStep());
  }

  double t0_;
  Report report_;
  std::int64_t step_ = 0;
  std::int64_t impacts_ = 0;
  ImpactDiagnostics diagnostics_;
  double dissipated_ = 0.0;
  double settledSince_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace ricochet::impact
