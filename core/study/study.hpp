#pragma once
// A study: one base scenario and the axes to vary, expanded into numbered runs.
//
// A Study is the data of a study file (study_file.hpp reads and writes it): the base scenario,
// one AxisSpec per "vary" entry, how the axes combine, the seed of the random draws and the
// length of every run. planStudy() expands it into a StudyPlan: each axis's values, the number of
// runs and, for run i, its scenario (runScenario). The plan is what the runner (runner.hpp), the
// CLI and the window's study editor share; it never holds one scenario per run, so a study of
// 1e7 runs costs its axes' values only.
//
// Run order (the `run` column, 0-based): "grid" nests the axes in the order they are listed, the
// last varying fastest (run = ((i0 n1 + i1) n2 + i2) ...); "zip" takes the i-th value of every
// axis for run i (all axes of equal length).

#include "core/model/system.hpp"

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ricochet::study {

/// Most runs a study may expand to (checked before anything is drawn or run).
inline constexpr std::int64_t kMaxRuns = 10'000'000;

/// What an axis changes in the base scenario.
enum class AxisTarget {
  Value,       ///< a parameter or initial condition, by its `--set` name (io::setScenarioValue)
  H,           ///< integrator.h, s
  Tolerance,   ///< integrator.tolerance
  TEnd,        ///< t_end, s
  Integrator,  ///< integrator.name (a list of names only)
};

/// How an axis's values are given.
enum class AxisKind {
  Values,    ///< an explicit list (numbers, or names for the integrator axis)
  Linspace,  ///< count values evenly spaced from `from` to `to`, both included
  Logspace,  ///< count values geometrically spaced from `from` to `to` (end values, not exponents)
  Uniform,   ///< `samples` draws, uniform on [low, high]
  Normal,    ///< `samples` draws, normal(mean, sd)
  Perturb,   ///< `samples` draws, the base value plus normal(0, sd)
};

/// The file's key for a kind: "values", "linspace", "logspace", "uniform", "normal", "perturb".
const char* toString(AxisKind kind);
bool isRandom(AxisKind kind);

/// One "vary" entry as written.
struct AxisSpec {
  std::string name;  ///< as written: a --set name ("z0", "parameters.m"), "h", "tolerance", "t_end", "integrator"
  AxisKind kind = AxisKind::Values;
  /// Values: the list; Linspace/Logspace: {from, to}; Uniform: {low, high}; Normal: {mean, sd};
  /// Perturb: {sd}.
  std::vector<double> numbers;
  std::vector<std::string> names;  ///< Values of the integrator axis
  std::int64_t count = 0;          ///< Linspace/Logspace: the count; random kinds: the samples
};

enum class Combine { Grid, Zip };

struct Study {
  Scenario base;               ///< the scenario every run starts from (already checked)
  std::vector<AxisSpec> vary;  ///< in file order
  Combine combine = Combine::Grid;
  std::uint64_t seed = 0;      ///< of the random draws (draws.hpp); 0 when the file gives none
  std::int64_t steps = -1;     ///< > 0: every run takes this many steps; else its t_end / h
  std::string source;          ///< names the study in messages (a file name), may be empty
};

/// An axis with its values drawn and checked.
struct Axis {
  std::string name;
  AxisTarget target = AxisTarget::Value;
  std::vector<double> numbers;     ///< every axis but the integrator's
  std::vector<std::string> names;  ///< the integrator axis
  std::size_t size() const { return target == AxisTarget::Integrator ? names.size() : numbers.size(); }
};

struct StudyPlan {
  Study study;
  std::vector<Axis> axes;
  std::int64_t runs = 0;
  /// Names of the `final.<c>` columns: energy, kinetic, potential, then the union of the system
  /// columns of every integrator the study uses, in order of first use.
  std::vector<std::string> finalColumns;
};

struct PlanResult {
  std::optional<StudyPlan> plan;
  std::string error;  ///< one line naming the key ("vary[1].linspace" ...) or the run
  bool ok() const { return plan.has_value(); }
};

/// Expands `study`: checks every axis (known name, non-empty, count within kMaxRuns, each value
/// admissible on its own in the base scenario), draws the random axes, counts the runs and finds
/// the result columns. It does not create every run: checkRuns() does.
PlanResult planStudy(Study study);

/// The index of each axis's value in run `run` (out.size() == plan.axes.size()).
void axisIndices(const StudyPlan& plan, std::int64_t run, std::span<std::size_t> out);

/// Sets axis value `index` in `scenario`. Empty on success, else one line naming the value.
std::string applyAxisValue(Scenario& scenario, const Axis& axis, std::size_t index);

/// The scenario of run `run` (0 <= run < plan.runs). Empty on success, else one line.
std::string runScenario(const StudyPlan& plan, std::int64_t run, Scenario& out);

/// The value of the scenario field an axis varies (0 for the integrator axis).
double baseValue(const Scenario& scenario, const Axis& axis);

/// Steps that run `run` takes with `scenario` (its runScenario): the study's steps, else
/// ceil(t_end/h) (io::stepCount); -1 when that is more than io::kMaxRunSteps.
std::int64_t runSteps(const StudyPlan& plan, const Scenario& scenario);

/// "z0 = 5, h = 0.01" for run `run`: the axis values in shortest round-trip form.
std::string describeRun(const StudyPlan& plan, std::int64_t run);

/// "SOURCE: " or "" (for messages).
std::string sourcePrefix(const Study& study);

/// Creates every run's simulation (validateScenario + createSimulation) on `jobs` threads (0:
/// all cores) and returns the message of the lowest-numbered run that fails, naming it:
/// "study.json: run 17 (z0 = -5): initial condition outside the admissible set: ...". Empty when
/// every run can start. `cancel` (may be null) stops the check early (then the result is empty).
std::string checkRuns(const StudyPlan& plan, int jobs = 0, const std::atomic<bool>* cancel = nullptr);

}  // namespace ricochet::study
