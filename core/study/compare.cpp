#include "core/study/compare.hpp"

#include "core/io/trace.hpp"
#include "core/model/registry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ricochet::study {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double driftOf(const RunResult& run, const std::string& column) {
  for (std::size_t k = 0; k < run.momentumColumns.size(); ++k) {
    if (run.momentumColumns[k] == column) return run.momentumDrift[k];
  }
  return kNaN;
}

double impactTime(const RunResult& run, int k) {
  return k < static_cast<int>(run.impactList.size()) ? run.impactList[static_cast<std::size_t>(k)].t : kNaN;
}

}  // namespace

CompareResult runCompare(const CompareSpec& spec, int jobs, const std::atomic<bool>* cancel,
                         std::function<void(const Progress&)> onProgress) {
  CompareResult r;
  r.impactTimes = spec.impactTimes;
  if (spec.impactTimes < 0 || spec.impactTimes > 1000) {
    r.error = "--impact-times " + std::to_string(spec.impactTimes) + " is invalid: must be an integer in [0, 1000]";
    return r;
  }
  const SystemDescription* system = findSystem(spec.base.system);
  if (!system) {
    r.error = "unknown system '" + spec.base.system + "'";
    return r;
  }
  Study study;
  study.base = spec.base;
  AxisSpec integrators;
  integrators.name = "integrator";
  integrators.names = spec.integrators;
  if (integrators.names.empty()) {
    for (const IntegratorInfo& i : system->info().integrators) integrators.names.push_back(i.name);
  }
  study.vary.push_back(integrators);
  AxisSpec h;
  h.name = "h";
  h.numbers = spec.hs.empty() ? std::vector<double>{spec.base.integrator.h} : spec.hs;
  study.vary.push_back(h);
  PlanResult planned = planStudy(std::move(study));
  if (!planned.ok()) {
    r.error = planned.error;
    return r;
  }
  r.plan = std::move(*planned.plan);
  if (std::string e = checkRuns(r.plan, jobs, cancel); !e.empty()) {
    r.error = e;
    return r;
  }
  for (const std::string& c : r.plan.finalColumns) {
    if (c.rfind("mom.", 0) == 0) r.momentumColumns.push_back(c);
  }
  RunnerOptions options;
  options.jobs = jobs;
  options.cancel = cancel;
  options.extras.impacts = spec.impactTimes;
  options.extras.momentumDrift = true;
  options.onRow = [&](const RunResult& row) { r.runs.push_back(row); };
  options.onProgress = std::move(onProgress);
  const RunnerOutcome outcome = runStudy(r.plan, options);
  r.jobs = outcome.jobs;
  r.cancelled = outcome.cancelled;
  return r;
}

std::string compareCsv(const CompareResult& r) {
  std::string out = "integrator,h,status,steps,impacts,max_abs_energy_rel_error,energy_final_rel_error";
  for (const std::string& c : r.momentumColumns) {
    out += ",";
    out += io::csvField(c + ".max_drift");
  }
  for (int k = 1; k <= r.impactTimes; ++k) out += ",impact_t." + std::to_string(k);
  out += ",wall_seconds,us_per_step,message\n";
  std::vector<std::size_t> idx(r.plan.axes.size());
  for (const RunResult& run : r.runs) {
    axisIndices(r.plan, run.run, idx);
    out += io::csvField(r.plan.axes[0].names[idx[0]]);
    out += ",";
    io::appendNumber(out, r.plan.axes[1].numbers[idx[1]]);
    out += ",";
    out += io::csvField(run.status);
    out += ",";
    io::appendInteger(out, run.steps);
    out += ",";
    io::appendInteger(out, run.impacts);
    out += ",";
    io::appendNumber(out, run.maxAbsEnergyRelError);
    out += ",";
    io::appendNumber(out, run.energyFinalRelError);
    for (const std::string& c : r.momentumColumns) {
      out += ",";
      io::appendNumber(out, driftOf(run, c));
    }
    for (int k = 0; k < r.impactTimes; ++k) {
      out += ",";
      io::appendNumber(out, impactTime(run, k));
    }
    out += ",";
    io::appendNumber(out, run.wallSeconds);
    out += ",";
    io::appendNumber(out, run.steps > 0 ? 1e6 * run.wallSeconds / static_cast<double>(run.steps) : kNaN);
    out += ",";
    out += io::csvField(run.message);
    out += "\n";
  }
  return out;
}

std::string compareReport(const CompareResult& r) {
  std::string out = "compare " + r.plan.study.base.system + ": " + std::to_string(r.runs.size()) +
                    " runs to t_end = " + formatNumber(r.plan.study.base.tEnd) + " s\n";
  std::string head = "  integrator              h          status         impacts  max|dE|/|E0|  final dE/|E0|";
  for (const std::string& c : r.momentumColumns) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "  %-13s", ("d" + c).c_str());
    head += buf;
  }
  head += "  first impacts (s)                 us/step\n";
  out += head;
  std::vector<std::size_t> idx(r.plan.axes.size());
  for (const RunResult& run : r.runs) {
    axisIndices(r.plan, run.run, idx);
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-22s  %-9.4g  %-13s  %-7lld  %-12.3e  %-13.3e", r.plan.axes[0].names[idx[0]].c_str(),
                  r.plan.axes[1].numbers[idx[1]], run.status.c_str(), static_cast<long long>(run.impacts),
                  run.maxAbsEnergyRelError, run.energyFinalRelError);
    out += buf;
    for (const std::string& c : r.momentumColumns) {
      std::snprintf(buf, sizeof buf, "  %-13.3e", driftOf(run, c));
      out += buf;
    }
    std::string times;
    for (int k = 0; k < std::min(r.impactTimes, 3); ++k) {
      std::snprintf(buf, sizeof buf, "%s%.6g", k ? " " : "", impactTime(run, k));
      times += buf;
    }
    std::snprintf(buf, sizeof buf, "  %-32s  %.3g\n", times.c_str(),
                  run.steps > 0 ? 1e6 * run.wallSeconds / static_cast<double>(run.steps) : 0.0);
    out += buf;
  }
  return out;
}

}  // namespace ricochet::study
