#pragma once
// Trace CSV files (the contract's "Trace CSV") and the run driver shared by ricochet-cli, the GUI's
// exports and the tests. Writers of other formats (HDF5 runs, ParaView series) are RecordSinks fed
// by the same driver with the very rows and impacts the CSV files get.
//
// Trace CSV: header `step,t,energy,kinetic,potential,energy_rel_error,impacts` followed by the
// simulation's columns(); one row for the initial state and one per recorded step; numbers with
// 17 significant digits and '.' as decimal point whatever the locale (std::to_chars).
// energy_rel_error = (E - E0) / |E0|. When E0 == 0 exactly (e.g. kinetic energy cancelling a
// negative potential), the denominator is the initial energy scale K0 + |V0| instead, and 1 J if
// that is zero too, so the column stays finite and dimensionless.
//
// Impacts CSV: `step,t,alpha,constraint,energy_before,energy_after,impulse,reflected` (the
// contract's columns plus `impulse` and `reflected`, 1 for a near-grazing impact resolved by the
// exact reflection, else 0); `constraint` is the gap's name from SystemInfo::constraints.

#include "core/io/atomic_file.hpp"
#include "core/io/json.hpp"
#include "core/io/run_metrics.hpp"
#include "core/model/system.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ricochet::io {

/// The contract's required trace columns, in order.
inline constexpr const char* kTraceRequiredColumns[] = {
    "step", "t", "energy", "kinetic", "potential", "energy_rel_error", "impacts"};
inline constexpr const char* kImpactColumns[] = {
    "step", "t", "alpha", "constraint", "energy_before", "energy_after", "impulse", "reflected"};

/// Largest number of steps a run accepts (about 30 hours at 1e7 steps/s).
inline constexpr std::int64_t kMaxRunSteps = 1'000'000'000'000;

/// Appends `x` with 17 significant digits (shortest of fixed/scientific, like printf "%.17g"),
/// "nan"/"inf"/"-inf" for non-finite values. Never allocates beyond `out`'s growth.
void appendNumber(std::string& out, double x);
void appendInteger(std::string& out, std::int64_t n);
/// A CSV field, quoted (RFC 4180) only when it contains a comma, quote or line break.
std::string csvField(std::string_view text);

/// Header line (with '\n') of a trace with these system-specific columns.
std::string traceHeader(std::span<const std::string> systemColumns);
/// Header line (with '\n') of an impacts CSV; a world of several bodies (`bodies`) adds the
/// columns body_a and body_b.
std::string impactsHeader(bool bodies = false);

/// Denominator of energy_rel_error for an initial energy split (see the file comment), J.
double energyScale(const EnergySplit& initial);

/// One trace row (with '\n'). `columns` are the values of Simulation::sample().
void appendTraceRow(std::string& out, std::int64_t step, double t, const EnergySplit& energy,
                    double energyRelError, std::int64_t impacts, std::span<const double> columns);
/// One impacts row (with '\n'); `constraint` is the gap's name ("A|B" between bodies); with
/// `bodies` the two bodies' indices follow (-1 for a plane).
void appendImpactRow(std::string& out, const ImpactRecord& impact, std::string_view constraint,
                     bool bodies = false);

/// Number of steps of length h that reach t_end: ceil(t_end/h), with a relative slack of 1e-9
/// so that t_end = N*h in decimal (10 s at h = 0.01) gives exactly N. Returns -1 when the count is
/// not finite or exceeds kMaxRunSteps.
std::int64_t stepCount(double tEnd, double h);

/// One recorded trace row: the values a trace CSV row prints, before formatting.
struct TraceRow {
  std::int64_t step = 0;
  double t = 0.0;                   ///< s
  EnergySplit energy;               ///< J
  double energyRelError = 0.0;      ///< (E - E0) / energyScale(E0 split)
  std::int64_t impacts = 0;         ///< cumulative impact count
  std::span<const double> columns;  ///< Simulation::sample(), aligned with Simulation::columns()
};

struct RunSummary;

/// A writer of another format, fed by runSimulation() with exactly what the CSV files get: every
/// recorded trace row (the initial state, every K-th step, the final state) and every impact with
/// its gap's name, in file order, from the thread that runs the simulation. The caller opens it
/// before the run, so a bad path fails before any integration. The driver finishes it where it
/// finishes the CSV files: commit() after a completed run or an integrator failure (everything up
/// to the last good state), discard() after a cancel, an output error or refused options. A non-empty string from
/// onRow, onImpact or commit is an output error naming the file: the run stops and every output is
/// discarded.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  /// `simulation` is at the state of `row` (its poses, its columns).
  virtual std::string onRow(const Simulation& simulation, const TraceRow& row) = 0;
  /// One impact of an accepted step, before that step's row (when it is recorded).
  virtual std::string onImpact(const ImpactRecord& impact, std::string_view constraint) = 0;
  /// The run is over (`summary`: its outcome, status, message and counts, timings excepted):
  /// completes the output and moves it into place.
  virtual std::string commit(const RunSummary& summary) = 0;
  /// Removes everything written; the target is not touched. Safe to call twice.
  virtual void discard() = 0;
};

struct RunOptions {
  std::int64_t steps = -1;  ///< steps to take; < 0: stepCount(scenario.tEnd, scenario.integrator.h)
  std::int64_t every = 1;   ///< record every K-th step in the trace (K >= 1)
  std::filesystem::path traceCsv;    ///< empty: no trace file
  std::filesystem::path impactsCsv;  ///< empty: no impacts file
  /// Called every `progressInterval` steps with (steps done, steps total) from the running
  /// thread; return false to cancel (then no file is left behind).
  std::function<bool(std::int64_t, std::int64_t)> progress;
  std::int64_t progressInterval = 16384;
  /// Sees every accepted step and impact (run_metrics.hpp); not owned, may be null.
  RunObserver* observer = nullptr;
  /// Other formats written from the recorded rows and impacts (not owned; opened by the caller).
  std::vector<RecordSink*> sinks;
};

/// How runSimulation() ended, beyond the integrator's own RunStatus.
enum class RunOutcome {
  Completed,        ///< every requested step was taken
  IntegratorFailed, ///< Simulation::advance reported a failure; files hold everything up to it
  Cancelled,        ///< the progress callback returned false; no file written
  OutputError,      ///< a file could not be created or written; no file written
  InvalidOptions,   ///< RunOptions out of range (every < 1, steps too large); nothing run
};

/// The contract's run summary, plus what the CLI needs for its messages.
struct RunSummary {
  std::string system;
  std::string integrator;
  double h = 0.0;              ///< s
  std::int64_t steps = 0;      ///< steps actually taken
  double tEnd = 0.0;           ///< simulated time reached, s
  std::int64_t impacts = 0;    ///< Simulation::impactCount() at the end
  double energyInitial = 0.0;  ///< J
  double energyFinal = 0.0;    ///< J
  double maxAbsEnergyRelError = 0.0;  ///< over every step taken, not only the recorded ones
  double energyFinalRelError = 0.0;   ///< (E - E0)/scale at the last state (the trace's column)
  double firstImpactTime = std::numeric_limits<double>::quiet_NaN();   ///< s; NaN: no impact
  double firstImpactAlpha = std::numeric_limits<double>::quiet_NaN();  ///< of its step, (0, 1]
  double wallSeconds = 0.0;
  double stepsPerSecond = 0.0;
  RunOutcome outcome = RunOutcome::Completed;
  RunStatus status = RunStatus::Ok;  ///< the integrator's status (Ok unless IntegratorFailed)
  std::string message;  ///< empty when ok; otherwise one line (failure with step and time, I/O error)
  /// Empty, or why the result should not be trusted although the run went through: its energy
  /// error passed the bound of its integrator (energy_check.hpp). `status` is unchanged.
  std::string warning;
  std::int64_t traceRows = 0;   ///< trace rows recorded (CSV header excluded), for the CSV and sinks
  std::int64_t impactRows = 0;  ///< impact rows recorded, for the impacts CSV and sinks
  std::int64_t reflectedImpacts = 0;  ///< impacts resolved by the grazing reflection (grazing.hpp)
  /// Kinetic energy lost at impacts with restitution < 1 and where contacts settled, J
  /// (Simulation::dissipatedEnergy at the end; 0 for an elastic run).
  double energyDissipated = 0.0;
  /// Simulation::settledTime at the end: since when the bodies have been settled, s; NaN when
  /// they are not (JSON null).
  double settledTime = std::numeric_limits<double>::quiet_NaN();

  bool ok() const { return outcome == RunOutcome::Completed; }
  /// "ok", the integrator's toString(status) ("solver-failed", ...), "cancelled", "output-error"
  /// or "invalid-options".
  std::string statusText() const;
};

/// Checks options before a run: empty when valid, otherwise one line naming the value.
std::string checkRunOptions(const RunOptions& options);

/// Runs `simulation` (created from `scenario`, at its initial state) for the requested steps,
/// one advance(1) per step so that the energy error is checked after every step. Writes the trace
/// and impacts CSVs through temporary files renamed at the end (and feeds options.sinks the same
/// rows): complete on success, flushed up to the last good state on an integrator failure, absent
/// after a cancel or an output error.
/// Never throws for run-time conditions; `scenario` supplies the names (system, integrator,
/// constraint names via the registry when the system is registered) and h.
RunSummary runSimulation(Simulation& simulation, const Scenario& scenario, const RunOptions& options);

/// The contract's summary object: {"system", "integrator", "h", "steps", "t_end", "impacts",
/// "energy_initial", "energy_final", "max_abs_energy_rel_error", "wall_seconds",
/// "steps_per_second", "status"} plus "message" (empty when ok), "warning"
/// (RunSummary::warning), "energy_dissipated" (J) and "settled_t" (s, null when the bodies are not
/// settled at the end).
json::Value summaryToJson(const RunSummary& summary);

/// One human-readable line (no newline), e.g.
/// "particle-floor variational h=0.01: 1000 steps to t=10 s, 11 impacts, E0=11.8 J, ... ok"; a
/// run that ends settled adds ", settled at t = T s" before the status, one with dissipation
/// ", D J dissipated", and one with a warning " (warning: ...)" after the status.
std::string summaryLine(const RunSummary& summary);

}  // namespace ricochet::io
