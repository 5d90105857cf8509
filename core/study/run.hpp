#pragma once
// One run of a study and its row of the results CSV.
//
// executeRun() creates run i's simulation and integrates it with the CLI's run driver
// (io::runSimulation, no trace written), so its metrics are `ricochet-cli run`'s. What a built-in
// study needs beyond the row (the first impacts, the state at chosen steps, the drift of the
// momentum columns) is asked for with RunExtras and measured by an observer of the same steps.
//
// Results CSV, one row per run, columns in this order:
//   run            0-based index in the expansion order (study.hpp)
//   status         "ok" or why the run stopped: "solver-failed", "zeno", "non-finite" (the
//                  run summary's status); a failed run is a row like any other
//   <axis names>   the run's value of each "vary" entry
//   impacts, reflected_impacts, first_impact_t (s, "nan" when none), max_abs_energy_rel_error
//   (over every step), energy_final_rel_error (signed), steps, t_end (simulated time reached, s)
//   final.<c>      the last state: energy, kinetic, potential, then each trace column of the
//                  system (q.*, p.* or v.*, mom.*, e.*, con.*); empty when the run's integrator
//                  has no such column
//   message        empty when ok, else the failure (step and time) on one line
// Numbers are written as in the trace CSV (io::appendNumber: 17 significant digits). Timings are
// never in the file, so it is the same for any number of jobs or shards.

#include "core/study/study.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace ricochet::study {

/// Extra measurements for the built-in studies.
struct RunExtras {
  int impacts = 0;  ///< keep the first N impacts (RunResult::impactList)
  /// Keep the state (finalColumns layout) after the first `impacts` impacts' steps (the first grid
  /// state after each) and at these steps (ascending).
  bool sampleAfterImpacts = false;
  std::vector<std::int64_t> sampleSteps;
  bool momentumDrift = false;  ///< max |mom.c - mom.c(0)| over every step, per mom.* column
};

struct Sample {
  std::int64_t step = 0;
  std::vector<double> values;  ///< finalColumns layout, NaN where the run has no such column
};

struct RunResult {
  std::int64_t run = 0;
  std::string status = "ok";
  std::string message;
  std::int64_t impacts = 0;
  std::int64_t reflectedImpacts = 0;
  double firstImpactTime = 0.0;   ///< NaN when none
  double firstImpactAlpha = 0.0;  ///< NaN when none
  double maxAbsEnergyRelError = 0.0;
  double energyFinalRelError = 0.0;
  std::int64_t steps = 0;
  double tEnd = 0.0;
  std::vector<double> final;         ///< finalColumns layout
  std::vector<char> finalPresent;    ///< 1 where the run's simulation has that column
  double wallSeconds = 0.0;          ///< for summaries only, never written to the CSV
  // RunExtras
  std::vector<ImpactRecord> impactList;
  std::vector<Sample> samples;
  std::vector<std::string> momentumColumns;
  std::vector<double> momentumDrift;
  bool ok() const { return status == "ok"; }
};

/// Runs run `run` of `plan`. `cancel` (may be null) is polled every 4096 steps; a cancelled run
/// has status "cancelled" (the runner never writes it). Never throws for run-time conditions.
RunResult executeRun(const StudyPlan& plan, std::int64_t run, const RunExtras& extras = {},
                     const std::atomic<bool>* cancel = nullptr);

/// The results CSV's header line (with '\n').
std::string resultsHeader(const StudyPlan& plan);
/// Appends run `result`'s row (with '\n').
void appendResultRow(std::string& out, const StudyPlan& plan, const RunResult& result);

/// Index of `column` in plan.finalColumns, or -1.
int finalColumnIndex(const StudyPlan& plan, const std::string& column);

}  // namespace ricochet::study
