#include "core/study/study.hpp"

#include "core/io/scenario_io.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"
#include "core/study/draws.hpp"
#include "core/study/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::study {

namespace {

AxisTarget targetOf(const std::string& name) {
  if (name == "h") return AxisTarget::H;
  if (name == "tolerance") return AxisTarget::Tolerance;
  if (name == "t_end") return AxisTarget::TEnd;
  if (name == "integrator") return AxisTarget::Integrator;
  return AxisTarget::Value;
}

/// The parameter or initial condition an axis name stands for, without its group prefix.
std::string bareName(const std::string& name) {
  for (const char* prefix : {"parameters.", "initial."}) {
    const std::string p = prefix;
    if (name.rfind(p, 0) == 0) return name.substr(p.size());
  }
  return name;
}

/// Number of values an axis spec gives, before anything is drawn.
std::int64_t specSize(const AxisSpec& spec) {
  if (spec.kind == AxisKind::Values) {
    return static_cast<std::int64_t>(spec.names.empty() ? spec.numbers.size() : spec.names.size());
  }
  return spec.count;
}

/// "vary[i]" or "vary[i].suffix", quoted.
std::string key(std::size_t i, const std::string& suffix = {}) {
  return "\"vary[" + std::to_string(i) + "]" + (suffix.empty() ? "" : "." + suffix) + "\"";
}

/// The values of a numeric axis (the spec's shape already checked).
std::vector<double> axisNumbers(const AxisSpec& spec, double base, std::uint64_t seed, std::size_t stream) {
  std::vector<double> v;
  const std::int64_t n = spec.count;
  switch (spec.kind) {
    case AxisKind::Values: return spec.numbers;
    case AxisKind::Linspace: {
      const double from = spec.numbers[0], to = spec.numbers[1];
      v.reserve(static_cast<std::size_t>(n));
      // i (to - from) / (n - 1) rounds once, so linspace [0, 1, 11] gives 0.3, not 0.30000000000000004.
      for (std::int64_t i = 0; i < n; ++i) {
        v.push_back(i + 1 == n && n > 1 ? to : from + (static_cast<double>(i) * (to - from)) / static_cast<double>(n - 1));
      }
      return v;
    }
    case AxisKind::Logspace: {
      const double from = spec.numbers[0], to = spec.numbers[1];
      v.reserve(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        v.push_back(i + 1 == n && n > 1 ? to
                                        : from * std::pow(to / from, static_cast<double>(i) / static_cast<double>(n - 1)));
      }
      return v;
    }
    case AxisKind::Uniform:
    case AxisKind::Normal:
    case AxisKind::Perturb: {
      Draws draws(seed, stream);
      v.reserve(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        if (spec.kind == AxisKind::Uniform) v.push_back(draws.uniform(spec.numbers[0], spec.numbers[1]));
        else if (spec.kind == AxisKind::Normal) v.push_back(spec.numbers[0] + spec.numbers[1] * draws.normal());
        else v.push_back(base + spec.numbers[0] * draws.normal());
      }
      return v;
    }
  }
  return v;
}

/// Shape checks of one axis spec (before any value is made). Empty when fine.
std::string checkSpec(const AxisSpec& spec, std::size_t i) {
  const std::string k = key(i);
  const bool integrator = targetOf(spec.name) == AxisTarget::Integrator;
  if (integrator && (spec.kind != AxisKind::Values || !spec.numbers.empty())) {
    return k + " (\"integrator\"): integrators are varied by a \"values\" list of names";
  }
  if (!integrator && !spec.names.empty()) {
    return k + " (\"" + spec.name + "\"): \"values\" must be numbers (only \"integrator\" takes names)";
  }
  const std::string where = key(i, toString(spec.kind));
  const auto finite = [&]() -> std::string {
    for (double x : spec.numbers) {
      if (!std::isfinite(x)) return where + " = " + formatNumber(x) + " is not a finite number";
      if (std::fabs(x) > io::kMaxScenarioMagnitude) {
        return where + " = " + formatNumber(x) + " is too large: |value| must be <= " +
               formatNumber(io::kMaxScenarioMagnitude);
      }
    }
    return {};
  };
  if (std::string e = finite(); !e.empty()) return e;
  switch (spec.kind) {
    case AxisKind::Values:
      if (specSize(spec) == 0) return where + " is empty: an axis needs at least one value";
      break;
    case AxisKind::Linspace:
    case AxisKind::Logspace:
      if (spec.numbers.size() != 2) return where + " must be [from, to, count]";
      if (spec.count < 1) return where + ": count " + std::to_string(spec.count) + " is an empty range: must be >= 1";
      if (spec.kind == AxisKind::Logspace &&
          !(spec.numbers[0] * spec.numbers[1] > 0.0)) {
        return where + " = [" + formatNumber(spec.numbers[0]) + ", " + formatNumber(spec.numbers[1]) +
               ", ...]: from and to must be non-zero and of the same sign (they are end values, not exponents)";
      }
      break;
    case AxisKind::Uniform:
      if (spec.numbers.size() != 2) return where + " must be [low, high]";
      if (spec.numbers[0] > spec.numbers[1]) {
        return where + " = [" + formatNumber(spec.numbers[0]) + ", " + formatNumber(spec.numbers[1]) +
               "] is an empty range: low must be <= high";
      }
      break;
    case AxisKind::Normal:
      if (spec.numbers.size() != 2) return where + " must be [mean, sd]";
      if (spec.numbers[1] < 0.0) return where + ": sd = " + formatNumber(spec.numbers[1]) + " must be >= 0";
      break;
    case AxisKind::Perturb:
      if (spec.numbers.size() != 1) return where + " must be [sd]";
      if (spec.numbers[0] < 0.0) return where + ": sd = " + formatNumber(spec.numbers[0]) + " must be >= 0";
      break;
  }
  if (isRandom(spec.kind) && spec.count < 1) {
    return key(i, "samples") + " = " + std::to_string(spec.count) + " is an empty range: must be >= 1";
  }
  if (specSize(spec) > kMaxRuns) {
    return k + " gives " + std::to_string(specSize(spec)) + " values: a study has at most " +
           std::to_string(kMaxRuns) + " runs";
  }
  return {};
}

}  // namespace

const char* toString(AxisKind kind) {
  switch (kind) {
    case AxisKind::Values: return "values";
    case AxisKind::Linspace: return "linspace";
    case AxisKind::Logspace: return "logspace";
    case AxisKind::Uniform: return "uniform";
    case AxisKind::Normal: return "normal";
    case AxisKind::Perturb: return "perturb";
  }
  return "values";
}

bool isRandom(AxisKind kind) {
  return kind == AxisKind::Uniform || kind == AxisKind::Normal || kind == AxisKind::Perturb;
}

double baseValue(const Scenario& base, const Axis& axis) {
  switch (axis.target) {
    case AxisTarget::H: return base.integrator.h;
    case AxisTarget::Tolerance: return base.integrator.tolerance;
    case AxisTarget::TEnd: return base.tEnd;
    case AxisTarget::Integrator: return 0.0;
    case AxisTarget::Value: break;
  }
  const SystemInfo& info = findSystem(base.system)->info();
  const std::string bare = bareName(axis.name);
  const bool onlyInitial = axis.name.rfind("initial.", 0) == 0;
  if (!onlyInitial) {
    if (const auto p = indexOf(info.parameters, bare)) return base.parameters[*p];
  }
  return base.initial[*indexOf(info.initial, bare)];
}

std::string sourcePrefix(const Study& study) { return study.source.empty() ? std::string() : study.source + ": "; }

std::string applyAxisValue(Scenario& scenario, const Axis& axis, std::size_t index) {
  switch (axis.target) {
    case AxisTarget::H: scenario.integrator.h = axis.numbers[index]; return {};
    case AxisTarget::Tolerance: scenario.integrator.tolerance = axis.numbers[index]; return {};
    case AxisTarget::TEnd: scenario.tEnd = axis.numbers[index]; return {};
    case AxisTarget::Integrator: scenario.integrator.name = axis.names[index]; return {};
    case AxisTarget::Value: break;
  }
  return io::setScenarioValue(scenario, axis.name, axis.numbers[index]);
}

void axisIndices(const StudyPlan& plan, std::int64_t run, std::span<std::size_t> out) {
  if (plan.study.combine == Combine::Zip) {
    std::fill(out.begin(), out.end(), static_cast<std::size_t>(run));
    return;
  }
  for (std::size_t a = plan.axes.size(); a-- > 0;) {
    const auto n = static_cast<std::int64_t>(plan.axes[a].size());
    out[a] = static_cast<std::size_t>(run % n);
    run /= n;
  }
}

std::string runScenario(const StudyPlan& plan, std::int64_t run, Scenario& out) {
  out = plan.study.base;
  std::size_t idx[64];
  std::vector<std::size_t> many;
  std::span<std::size_t> indices(idx, std::min<std::size_t>(plan.axes.size(), 64));
  if (plan.axes.size() > 64) {
    many.resize(plan.axes.size());
    indices = many;
  }
  axisIndices(plan, run, indices);
  for (std::size_t a = 0; a < plan.axes.size(); ++a) {
    if (std::string e = applyAxisValue(out, plan.axes[a], indices[a]); !e.empty()) return e;
  }
  return {};
}

std::int64_t runSteps(const StudyPlan& plan, const Scenario& scenario) {
  if (plan.study.steps > 0) return plan.study.steps;
  return io::stepCount(scenario.tEnd, scenario.integrator.h);
}

std::string describeRun(const StudyPlan& plan, std::int64_t run) {
  if (plan.axes.empty()) return "the base scenario";
  std::vector<std::size_t> indices(plan.axes.size());
  axisIndices(plan, run, indices);
  std::string text;
  for (std::size_t a = 0; a < plan.axes.size(); ++a) {
    const Axis& axis = plan.axes[a];
    if (!text.empty()) text += ", ";
    text += axis.name + " = " +
            (axis.target == AxisTarget::Integrator ? axis.names[indices[a]] : formatNumber(axis.numbers[indices[a]]));
  }
  return text;
}

PlanResult planStudy(Study study) {
  PlanResult r;
  const std::string at = sourcePrefix(study);
  const auto fail = [&](const std::string& what) {
    r.error = at + what;
    return r;
  };
  if (std::string e = validateScenario(study.base); !e.empty()) return fail("\"scenario\": " + e);
  if (study.steps > io::kMaxRunSteps) {
    return fail("\"steps\" = " + std::to_string(study.steps) + " is too large: at most " +
                std::to_string(io::kMaxRunSteps));
  }

  // Shapes and sizes first, so that a study of 1e9 runs is refused before anything is drawn.
  double runs = 1.0;
  std::int64_t zipSize = -1;
  for (std::size_t i = 0; i < study.vary.size(); ++i) {
    const AxisSpec& spec = study.vary[i];
    if (std::string e = checkSpec(spec, i); !e.empty()) return fail(e);
    if (targetOf(spec.name) == AxisTarget::TEnd && study.steps > 0) {
      return fail(key(i) + " varies \"t_end\" but \"steps\" fixes every run's length: give one of them");
    }
    for (std::size_t j = 0; j < i; ++j) {
      const AxisSpec& other = study.vary[j];
      const bool same = targetOf(spec.name) == AxisTarget::Value
                            ? targetOf(other.name) == AxisTarget::Value && bareName(other.name) == bareName(spec.name)
                            : targetOf(other.name) == targetOf(spec.name);
      if (same) return fail(key(i) + " (\"" + spec.name + "\") is already varied by " + key(j));
    }
    const std::int64_t n = specSize(spec);
    if (study.combine == Combine::Zip) {
      if (zipSize >= 0 && n != zipSize) {
        return fail(key(i) + " (\"" + spec.name + "\") has " + std::to_string(n) + " values but " + key(0) +
                    " has " + std::to_string(zipSize) + ": \"combine\": \"zip\" needs axes of equal length");
      }
      zipSize = n;
    } else {
      runs *= static_cast<double>(n);
    }
  }
  if (study.combine == Combine::Zip) runs = zipSize < 0 ? 1.0 : static_cast<double>(zipSize);
  if (runs > static_cast<double>(kMaxRuns)) {
    return fail("\"vary\" expands to " + formatNumber(runs) + " runs: a study has at most " +
                std::to_string(kMaxRuns) + " runs (1e7)");
  }

  StudyPlan plan;
  plan.runs = static_cast<std::int64_t>(runs);
  for (std::size_t i = 0; i < study.vary.size(); ++i) {
    const AxisSpec& spec = study.vary[i];
    Axis axis;
    axis.name = spec.name;
    axis.target = targetOf(spec.name);
    if (axis.target == AxisTarget::Value) {
      Scenario probe = study.base;
      if (std::string e = io::setScenarioValue(probe, spec.name, 0.0); !e.empty()) {
        return fail(key(i) + ": \"name\" = \"" + spec.name + "\" is not an axis: " + e +
                    "; or h, tolerance, t_end, integrator");
      }
    }
    if (axis.target == AxisTarget::Integrator) {
      axis.names = spec.names;
    } else {
      axis.numbers = axisNumbers(spec, baseValue(study.base, axis), study.seed, i);
    }
    // Each value on its own in the base scenario: the generic ranges (m > 0, h > 0, known
    // integrator ...), named by the axis. Combinations are checkRuns()'s.
    for (std::size_t v = 0; v < axis.size(); ++v) {
      Scenario probe = study.base;
      std::string e = applyAxisValue(probe, axis, v);
      if (e.empty()) e = validateScenario(probe);
      if (!e.empty()) {
        return fail(key(i, toString(spec.kind)) + ": value " + std::to_string(v + 1) + " of " +
                    std::to_string(axis.size()) + ": " + e);
      }
    }
    plan.axes.push_back(std::move(axis));
  }
  plan.study = std::move(study);

  // Result columns: energies, then the union of the integrators' columns, in order of first use.
  plan.finalColumns = {"energy", "kinetic", "potential"};
  std::vector<std::string> seen;
  const Axis* integrators = nullptr;
  for (const Axis& a : plan.axes) {
    if (a.target == AxisTarget::Integrator) integrators = &a;
  }
  const std::size_t distinct = integrators ? integrators->names.size() : 1;
  for (std::size_t k = 0; k < distinct; ++k) {
    // The first run that uses this integrator: its simulation says which columns it has.
    Scenario sc = plan.study.base;
    std::int64_t run = 0;
    if (integrators) {
      const std::string& name = integrators->names[k];
      if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
      seen.push_back(name);
      std::vector<std::size_t> idx(plan.axes.size());
      for (run = 0; run < plan.runs; ++run) {
        axisIndices(plan, run, idx);
        const std::size_t a = static_cast<std::size_t>(integrators - plan.axes.data());
        if (integrators->names[idx[a]] == name) break;
      }
    }
    if (std::string e = runScenario(plan, run, sc); !e.empty()) return fail(e);
    CreateResult created = createSimulation(sc);
    if (!created.simulation) {
      return fail("run " + std::to_string(run) + " (\"vary\": " + describeRun(plan, run) + "): " + created.error);
    }
    const auto columns = created.simulation->columns();
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (std::find(plan.finalColumns.begin(), plan.finalColumns.end(), columns[c]) != plan.finalColumns.end()) continue;
      // A new column goes right after its predecessor in this simulation's own order.
      auto pos = plan.finalColumns.end();
      if (c > 0) {
        pos = std::find(plan.finalColumns.begin(), plan.finalColumns.end(), columns[c - 1]);
        if (pos != plan.finalColumns.end()) ++pos;
      }
      plan.finalColumns.insert(pos, columns[c]);
    }
  }
  r.plan = std::move(plan);
  return r;
}

std::string checkRuns(const StudyPlan& plan, int jobs, const std::atomic<bool>* cancel) {
  const auto check = [&](std::int64_t run) -> std::string {
    Scenario sc;
    std::string e = runScenario(plan, run, sc);
    if (e.empty()) e = validateScenario(sc);
    if (e.empty() && runSteps(plan, sc) < 0) {
      e = "t_end = " + formatNumber(sc.tEnd) + " s with h = " + formatNumber(sc.integrator.h) +
          " s needs more than " + std::to_string(io::kMaxRunSteps) + " steps";
    }
    if (e.empty()) {
      CreateResult created = createSimulation(sc);
      if (!created.simulation) e = created.error;
    }
    return e;
  };
  std::atomic<std::int64_t> firstBad{std::numeric_limits<std::int64_t>::max()};
  parallelFor(plan.runs, jobs, [&](std::int64_t run) {
    if (run > firstBad.load(std::memory_order_relaxed)) return;
    if (cancel && cancel->load(std::memory_order_relaxed)) return;
    if (check(run).empty()) return;
    std::int64_t seen = firstBad.load();
    while (run < seen && !firstBad.compare_exchange_weak(seen, run)) {
    }
  });
  const std::int64_t bad = firstBad.load();
  if (bad == std::numeric_limits<std::int64_t>::max()) return {};
  return sourcePrefix(plan.study) + "run " + std::to_string(bad) + " of " + std::to_string(plan.runs) +
         " (\"vary\": " + describeRun(plan, bad) + "): " + check(bad);
}

}  // namespace ricochet::study
