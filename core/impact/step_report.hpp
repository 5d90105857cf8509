#pragma once
// What one step of any collision integrator reports: its status, the impacts it resolved (in
// order) and, on failure, what failed. One set of types for every engine (planar FMOW and
// rk4-event, the nonholonomic LDAP, reduced and DLA schemes, the SE(3) LGVCI); the one adapter
// that turns them into ImpactRecords and failure messages is StepperSimulation
// (stepper_simulation.hpp).
//
// Allocation-free: a report is a fixed-size array filled in place by the step loop, and a
// failure carries static text plus a few named numbers, formatted only when a run fails.

#include "core/model/system.hpp"

#include <array>
#include <cstdint>

namespace ricochet::impact {

/// Capacity of a step report: no engine resolves more impacts in one step. Each engine has its
/// own default cap below this (32 for the planar and nonholonomic schemes, 100 for the SE(3)
/// LGVCI, paper 003's j_max); beyond its cap a step fails with RunStatus::Zeno.
inline constexpr int kMaxImpactsPerStep = 100;

/// No engine-specific data.
struct NoDetail {};

/// One impact inside a step. `Point` is the engine's state at the impact point: configuration
/// and momentum ((q, p) for the planar and nonholonomic schemes, (x, R, gamma, Pi) on SE(3));
/// `before` and `after` share the configuration and differ in the momentum (the jump).
template <class Point, class Detail = NoDetail>
struct Impact {
  double s = 0.0;        ///< fraction of the step elapsed at the impact, in [0, 1]
  int gap = 0;           ///< constraint index j (into SystemInfo::constraints)
  Point before{};        ///< impact point with the incoming momentum
  Point after{};         ///< same point with the outgoing momentum
  double impulse = 0.0;  ///< impulse multiplier (mu, lambda of the papers), > 0 for a rebound
  double energyResidual = 0.0;  ///< energy balance left at the solution (discrete or continuous), J
  /// Near grazing the exact reflection replaced the energy-balanced impulse
  /// (core/numerics/grazing.hpp).
  bool reflected = false;
  /// The joint impulse / contact-time solve of a following impact had no solution (the same gap
  /// again after a tiny hop); the impulse was kept and energyResidual is the energy defect.
  bool jointFallback = false;
  Detail detail{};
};

/// A number that explains a failure, with its name and unit (static strings).
struct FailureValue {
  const char* name = nullptr;  ///< e.g. "residual", "iterations", "sub-step"; null: unused
  double value = 0.0;
  const char* unit = "";       ///< e.g. "s", "m/s"; empty for dimensionless numbers
};

/// Why a step failed (meaningful only when the step's status is not Ok).
struct StepFailure {
  static constexpr int kMaxValues = 5;
  const char* what = "";  ///< static text: what failed, e.g. "the impulse ... did not converge"
  int gap = -1;           ///< constraint involved, -1 if none
  double s = 0.0;         ///< fraction of the step where it happened
  std::array<FailureValue, kMaxValues> values{};  ///< the numbers that explain it, in order

  /// Appends a named number (ignored beyond kMaxValues).
  StepFailure& with(const char* name, double value, const char* unit = "") {
    for (FailureValue& v : values) {
      if (!v.name) {
        v = FailureValue{name, value, unit};
        break;
      }
    }
    return *this;
  }
};

/// The report of one step: filled by the engine, read by StepperSimulation and the tests.
template <class ImpactT>
struct StepReport {
  using value_type = ImpactT;
  RunStatus status = RunStatus::Ok;
  int impactCount = 0;
  std::array<ImpactT, kMaxImpactsPerStep + 1> impacts{};  ///< + 1: the SE(3) guard counts past its cap
  StepFailure failure;
  /// Kinetic energy lost in this step at impacts with restitution < 1 and where contacts settled,
  /// J (0 for an elastic run; docs/restitution.md).
  double dissipated = 0.0;
  /// Fraction of the step at which a body settled (its set of held contacts became non-empty);
  /// negative: none did in this step.
  double settledAt = -1.0;

  /// Starts a new step (the failure is only meaningful after fail(), which resets it).
  void clear() {
    status = RunStatus::Ok;
    impactCount = 0;
    dissipated = 0.0;
    settledAt = -1.0;
  }
  /// Records a failure and returns its status (for `return report.fail(...)`).
  RunStatus fail(RunStatus st, const char* what, int gap, double s) {
    status = st;
    failure = StepFailure{};
    failure.what = what;
    failure.gap = gap;
    failure.s = s;
    return st;
  }
  /// The next impact slot (the caller checks its engine's cap first).
  ImpactT& add() { return impacts[static_cast<std::size_t>(impactCount++)]; }
  const ImpactT* begin() const { return impacts.data(); }
  const ImpactT* end() const { return impacts.data() + impactCount; }
};

/// The phase-space point (q, p) of the planar and nonholonomic schemes.
template <class Vec>
struct PhasePoint {
  Vec q = Vec::Zero();  ///< configuration
  Vec p = Vec::Zero();  ///< momentum
};

}  // namespace ricochet::impact
