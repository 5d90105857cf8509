#pragma once
// What a run measures as it goes, whatever it writes: the run summary's numbers (max |dE|/|E0|
// over every step, reflected impacts, the first impact), computed in one place for
// `ricochet-cli run`, the GUI's CSV export and every run of a study. runSimulation() (trace.hpp)
// feeds a RunMetrics after every accepted step; callers that need more than the summary (a
// study's momentum drift, the states a sensitivity study compares) pass a RunObserver, which
// sees exactly the same steps and impacts.

#include "core/model/system.hpp"

#include <cstdint>
#include <vector>

namespace ricochet::io {

/// Watches a run from the thread that runs it. Only accepted steps are reported: the impacts of
/// a step that fails (or whose energy is not finite) never reach an observer.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  /// One impact of the step just accepted, in the order the integrator reported them; called
  /// before that step's onStep().
  virtual void onImpact(const ImpactRecord& impact) { (void)impact; }
  /// After every accepted step; `energy` is simulation.energy() at the new state (finite).
  virtual void onStep(const Simulation& simulation, const EnergySplit& energy) {
    (void)simulation;
    (void)energy;
  }
};

/// The run summary's per-step numbers. energy_rel_error = (E - E0) / energyScale(E0 split)
/// (trace.hpp), the trace CSV's column.
class RunMetrics final : public RunObserver {
 public:
  explicit RunMetrics(const EnergySplit& initial);

  void onImpact(const ImpactRecord& impact) override;
  void onStep(const Simulation& simulation, const EnergySplit& energy) override;

  /// (E - E0) / scale for a state of this run, signed.
  double relativeError(const EnergySplit& energy) const { return (energy.total() - e0_) / scale_; }
  /// max |E - E0| / scale over every accepted step (0 before the first); NaN once a step's error
  /// was NaN.
  double maxAbsEnergyRelError() const;
  /// max |E + D - E0| / scale over every accepted step (energy_check.hpp): D the simulation's
  /// dissipated energy (its `e.dissipated` column) when it reports one, else the same as
  /// maxAbsEnergyRelError(). What the run's energy warning compares with its bound.
  double maxAbsEnergyBalanceError() const;
  /// The simulation reports a dissipated energy (known after the first step).
  bool dissipative() const { return dissipatedColumn_ >= 0; }
  std::int64_t impacts() const { return impacts_; }
  std::int64_t reflectedImpacts() const { return reflected_; }
  /// Time and step fraction of the run's first impact, s and (0, 1]; NaN when none happened.
  double firstImpactTime() const { return firstT_; }
  double firstImpactAlpha() const { return firstAlpha_; }

 private:
  double e0_;
  double scale_;
  double maxRel_ = 0.0;
  bool nanSeen_ = false;
  double maxBalance_ = 0.0;
  bool balanceNanSeen_ = false;
  int dissipatedColumn_ =
      -2;  ///< index among the simulation's columns; -1 none, -2 not looked up yet
  std::vector<double> columns_;  ///< sample() of a dissipative run's state
  std::int64_t impacts_ = 0;
  std::int64_t reflected_ = 0;
  double firstT_;
  double firstAlpha_;
};

}  // namespace ricochet::io
