#include "core/study/sensitivity.hpp"

#include "core/io/scenario_io.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"
#include "core/study/parallel.hpp"

#include <Eigen/SVD>

#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

namespace ricochet::study {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A plan of one run: `base` as it is.
std::string singleRun(const Scenario& base, const std::string& what, StudyPlan& plan) {
  Study study;
  study.base = base;
  PlanResult planned = planStudy(std::move(study));
  if (!planned.ok()) return what + ": " + planned.error;
  plan = std::move(*planned.plan);
  if (std::string e = checkRuns(plan, 1); !e.empty()) return what + ": " + e;
  return {};
}

const Sample* sampleAt(const RunResult& run, std::int64_t step) {
  for (const Sample& s : run.samples) {
    if (s.step == step) return &s;
  }
  return nullptr;
}

}  // namespace

std::string Perturbation::label() const {
  return name + (delta < 0.0 ? "" : "+") + formatNumber(delta);
}

std::vector<Perturbation> defaultPerturbations(const Scenario& base) {
  const SystemDescription* system = findSystem(base.system);
  if (!system) return {};
  const SystemInfo& info = system->info();
  if (!indexOf(info.initial, "z0") || !indexOf(info.initial, "ry0") || !indexOf(info.initial, "Pi1_0")) return {};
  return {{"z0", 1e-8}, {"ry0", std::numbers::pi * 1e-8}};
}

std::string perturbedScenario(const Scenario& base, const Perturbation& p, Scenario& out) {
  out = base;
  Axis probe;
  probe.name = p.name;
  // A known name first (baseValue() assumes one), then the moved value.
  if (std::string e = io::setScenarioValue(out, p.name, 0.0); !e.empty()) return "--perturb " + p.label() + ": " + e;
  out = base;
  if (std::string e = io::setScenarioValue(out, p.name, baseValue(base, probe) + p.delta); !e.empty()) {
    return "--perturb " + p.label() + ": " + e;
  }
  return {};
}

SensitivityResult runSensitivity(const SensitivitySpec& spec, int jobs, const std::atomic<bool>* cancel) {
  SensitivityResult r;
  std::vector<Perturbation> perturbations =
      spec.perturbations.empty() ? defaultPerturbations(spec.base) : spec.perturbations;
  if (perturbations.empty()) {
    r.error = "'" + spec.base.system + "' has no default perturbation: give --perturb NAME=DELTA";
    return r;
  }
  if (spec.collisions < 1 || spec.collisions > 100000) {
    r.error = "--collisions " + std::to_string(spec.collisions) + " is invalid: must be an integer in [1, 100000]";
    return r;
  }
  StudyPlan basePlan;
  if (std::string e = singleRun(spec.base, "the base scenario", basePlan); !e.empty()) {
    r.error = e;
    return r;
  }
  std::vector<StudyPlan> plans(perturbations.size());
  for (std::size_t i = 0; i < perturbations.size(); ++i) {
    const Perturbation& p = perturbations[i];
    Scenario s;
    if (std::string e = perturbedScenario(spec.base, p, s); !e.empty()) {
      r.error = e;
      return r;
    }
    if (std::string e = singleRun(s, "--perturb " + p.label(), plans[i]); !e.empty()) {
      r.error = e;
      return r;
    }
  }
  r.se3 = finalColumnIndex(basePlan, "q.R11") >= 0;

  RunExtras baseExtras;
  baseExtras.impacts = spec.collisions;
  baseExtras.sampleAfterImpacts = true;
  baseExtras.sampleSteps = {0};
  r.reference = executeRun(basePlan, 0, baseExtras, cancel);
  if (r.reference.status == "cancelled") {
    r.cancelled = true;
    return r;
  }
  r.steps.push_back(0);
  for (const ImpactRecord& impact : r.reference.impactList) {
    r.referenceTimes.push_back(impact.t);
    r.steps.push_back(impact.step);
  }
  RunExtras extras;
  extras.impacts = spec.collisions;
  for (std::int64_t s : r.steps) {
    if (extras.sampleSteps.empty() || extras.sampleSteps.back() != s) extras.sampleSteps.push_back(s);
  }
  r.series.resize(perturbations.size());
  parallelFor(static_cast<std::int64_t>(perturbations.size()), jobs, [&](std::int64_t i) {
    const auto k = static_cast<std::size_t>(i);
    r.series[k].perturbation = perturbations[k];
    r.series[k].run = executeRun(plans[k], 0, extras, cancel);
  });
  for (SensitivitySeries& s : r.series) {
    if (s.run.status == "cancelled") r.cancelled = true;
  }
  if (r.cancelled) return r;

  const std::vector<std::string>& columns = basePlan.finalColumns;
  for (SensitivitySeries& s : r.series) {
    for (const ImpactRecord& impact : s.run.impactList) s.impactTimes.push_back(impact.t);
    for (std::int64_t step : r.steps) {
      const Sample* a = sampleAt(s.run, step);
      const Sample* b = sampleAt(r.reference, step);
      if (!a || !b) {  // the perturbed run stopped before this step
        s.distance.push_back(kNaN);
        continue;
      }
      double d = 0.0;
      if (r.se3) {
        Eigen::Vector3d dx;
        Eigen::Matrix3d dR;
        const int x = finalColumnIndex(basePlan, "q.x"), R = finalColumnIndex(basePlan, "q.R11");
        for (int i = 0; i < 3; ++i) dx(i) = a->values[static_cast<std::size_t>(x + i)] - b->values[static_cast<std::size_t>(x + i)];
        for (int i = 0; i < 9; ++i) {
          dR(i / 3, i % 3) = a->values[static_cast<std::size_t>(R + i)] - b->values[static_cast<std::size_t>(R + i)];
        }
        d = dx.norm() + Eigen::JacobiSVD<Eigen::Matrix3d>(dR).singularValues()(0);
      } else {
        double sum = 0.0;
        for (std::size_t c = 0; c < columns.size(); ++c) {
          if (columns[c].rfind("q.", 0) != 0) continue;
          sum += (a->values[c] - b->values[c]) * (a->values[c] - b->values[c]);
        }
        d = std::sqrt(sum);
      }
      s.distance.push_back(d);
    }
  }
  return r;
}

std::string sensitivityCsv(const SensitivityResult& r) {
  std::string out = "collision,t_reference,step";
  for (const SensitivitySeries& s : r.series) {
    const std::string label = s.perturbation.label();
    out += ",";
    out += io::csvField(label + ".distance");
    out += ",";
    out += io::csvField(label + ".t_impact");
  }
  out += "\n";
  for (std::size_t c = 0; c < r.steps.size(); ++c) {
    io::appendInteger(out, static_cast<std::int64_t>(c));
    out += ",";
    io::appendNumber(out, c == 0 ? 0.0 : r.referenceTimes[c - 1]);
    out += ",";
    io::appendInteger(out, r.steps[c]);
    for (const SensitivitySeries& s : r.series) {
      out += ",";
      io::appendNumber(out, s.distance[c]);
      out += ",";
      if (c == 0) io::appendNumber(out, 0.0);
      else if (c - 1 < s.impactTimes.size()) io::appendNumber(out, s.impactTimes[c - 1]);
      else io::appendNumber(out, kNaN);
    }
    out += "\n";
  }
  return out;
}

std::string sensitivityReport(const SensitivityResult& r) {
  std::string out = "sensitivity of " + r.reference.status + " base run (" + std::to_string(r.reference.impacts) +
                    " impacts to t = " + formatNumber(r.reference.tEnd) + " s): distance " +
                    (r.se3 ? "|dx| + ||dR||_2" : "|dq|") + " at the first grid state after each base collision\n";
  out += "  collision  t_base       ";
  for (const SensitivitySeries& s : r.series) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%-24s", s.perturbation.label().c_str());
    out += buf;
  }
  out += "\n";
  for (std::size_t c = 0; c < r.steps.size(); ++c) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "  %-9zu  %-11.6g  ", c, c == 0 ? 0.0 : r.referenceTimes[c - 1]);
    out += buf;
    for (const SensitivitySeries& s : r.series) {
      const double t = c == 0 ? 0.0 : (c - 1 < s.impactTimes.size() ? s.impactTimes[c - 1] : kNaN);
      std::snprintf(buf, sizeof buf, "%-8.1e (t %-10.6g)  ", s.distance[c], t);
      out += buf;
    }
    out += "\n";
  }
  for (const SensitivitySeries& s : r.series) {
    if (!s.run.ok()) out += s.perturbation.label() + ": " + s.run.status + ": " + s.run.message + "\n";
  }
  return out;
}

}  // namespace ricochet::study
