#include "core/study/run.hpp"

#include "core/io/trace.hpp"
#include "core/model/registry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace ricochet::study {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Maps a simulation's columns onto the plan's finalColumns layout.
struct Layout {
  std::vector<int> toFinal;  ///< simulation column j -> index in finalColumns
  std::size_t size = 0;
  Layout(const StudyPlan& plan, std::span<const std::string> columns) : size(plan.finalColumns.size()) {
    for (const std::string& c : columns) toFinal.push_back(finalColumnIndex(plan, c));
  }
  /// The state in finalColumns layout; `present` (may be null) marks the columns the run has.
  void fill(const Simulation& sim, const EnergySplit& e, std::vector<double>& row, std::vector<double>& out,
            std::vector<char>* present) const {
    out.assign(size, kNaN);
    if (present) present->assign(size, 0);
    sim.sample(row);
    const double energies[3] = {e.total(), e.kinetic, e.potential};
    for (std::size_t k = 0; k < 3 && k < size; ++k) {
      out[k] = energies[k];
      if (present) (*present)[k] = 1;
    }
    for (std::size_t j = 0; j < toFinal.size(); ++j) {
      if (toFinal[j] < 0) continue;
      out[static_cast<std::size_t>(toFinal[j])] = row[j];
      if (present) (*present)[static_cast<std::size_t>(toFinal[j])] = 1;
    }
  }
};

/// Measures RunExtras on the steps the run driver accepts.
class ExtrasObserver final : public io::RunObserver {
 public:
  ExtrasObserver(const RunExtras& extras, const Layout& layout, const Simulation& sim, RunResult& result)
      : extras_(extras), layout_(layout), result_(result), row_(sim.columns().size()) {
    if (extras.momentumDrift) {
      const auto columns = sim.columns();
      sim.sample(row_);
      for (std::size_t j = 0; j < columns.size(); ++j) {
        if (columns[j].rfind("mom.", 0) != 0) continue;
        momentum_.push_back(j);
        initial_.push_back(row_[j]);
        result.momentumColumns.push_back(columns[j]);
      }
      result.momentumDrift.assign(momentum_.size(), 0.0);
    }
    if (!extras.sampleSteps.empty() && extras.sampleSteps.front() == sim.step()) {
      sample(sim, sim.energy());
      ++nextSample_;
    }
  }

  void onImpact(const ImpactRecord& impact) override {
    if (static_cast<int>(result_.impactList.size()) >= extras_.impacts) return;
    result_.impactList.push_back(impact);
    sampleThisStep_ = sampleThisStep_ || extras_.sampleAfterImpacts;
  }

  void onStep(const Simulation& sim, const EnergySplit& e) override {
    bool take = sampleThisStep_;
    sampleThisStep_ = false;
    while (nextSample_ < extras_.sampleSteps.size() && extras_.sampleSteps[nextSample_] <= sim.step()) {
      take = take || extras_.sampleSteps[nextSample_] == sim.step();
      ++nextSample_;
    }
    if (take) sample(sim, e);
    if (!momentum_.empty()) {
      sim.sample(row_);
      for (std::size_t k = 0; k < momentum_.size(); ++k) {
        const double d = std::fabs(row_[momentum_[k]] - initial_[k]);
        if (!(d <= result_.momentumDrift[k])) result_.momentumDrift[k] = d;  // NaN sticks
      }
    }
  }

 private:
  void sample(const Simulation& sim, const EnergySplit& e) {
    Sample s;
    s.step = sim.step();
    layout_.fill(sim, e, row_, s.values, nullptr);
    result_.samples.push_back(std::move(s));
  }

  const RunExtras& extras_;
  const Layout& layout_;
  RunResult& result_;
  std::vector<double> row_;
  std::vector<std::size_t> momentum_;
  std::vector<double> initial_;
  std::size_t nextSample_ = 0;
  bool sampleThisStep_ = false;
};

std::string oneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  return text;
}

}  // namespace

int finalColumnIndex(const StudyPlan& plan, const std::string& column) {
  const auto it = std::find(plan.finalColumns.begin(), plan.finalColumns.end(), column);
  return it == plan.finalColumns.end() ? -1 : static_cast<int>(it - plan.finalColumns.begin());
}

RunResult executeRun(const StudyPlan& plan, std::int64_t run, const RunExtras& extras,
                     const std::atomic<bool>* cancel) {
  const auto start = std::chrono::steady_clock::now();
  RunResult r;
  r.run = run;
  r.firstImpactTime = r.firstImpactAlpha = kNaN;
  r.final.assign(plan.finalColumns.size(), kNaN);
  r.finalPresent.assign(plan.finalColumns.size(), 0);
  const auto invalid = [&](const std::string& message) {
    r.status = "invalid";
    r.message = oneLine(message);
    r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  Scenario sc;
  if (std::string e = runScenario(plan, run, sc); !e.empty()) return invalid(e);
  const std::int64_t steps = runSteps(plan, sc);
  if (steps < 0) return invalid("t_end = " + formatNumber(sc.tEnd) + " s with h = " + formatNumber(sc.integrator.h) +
                                " s needs too many steps");
  CreateResult created = createSimulation(sc);
  if (!created.simulation) return invalid(created.error);
  Simulation& sim = *created.simulation;

  const Layout layout(plan, sim.columns());
  ExtrasObserver observer(extras, layout, sim, r);
  io::RunOptions options;
  options.steps = steps;
  options.observer = &observer;
  if (cancel) {
    options.progress = [cancel](std::int64_t, std::int64_t) { return !cancel->load(std::memory_order_relaxed); };
    options.progressInterval = 4096;
  }
  const io::RunSummary s = io::runSimulation(sim, sc, options);
  r.status = s.statusText();
  r.message = oneLine(s.message);
  r.impacts = s.impacts;
  r.reflectedImpacts = s.reflectedImpacts;
  r.firstImpactTime = s.firstImpactTime;
  r.firstImpactAlpha = s.firstImpactAlpha;
  r.maxAbsEnergyRelError = s.maxAbsEnergyRelError;
  r.energyFinalRelError = s.energyFinalRelError;
  r.steps = s.steps;
  r.tEnd = s.tEnd;
  std::vector<double> row(sim.columns().size());
  layout.fill(sim, sim.energy(), row, r.final, &r.finalPresent);
  r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

std::string resultsHeader(const StudyPlan& plan) {
  std::string h = "run,status";
  for (const Axis& a : plan.axes) {
    h += ',';
    h += io::csvField(a.name);
  }
  h += ",impacts,reflected_impacts,first_impact_t,max_abs_energy_rel_error,energy_final_rel_error,steps,t_end";
  for (const std::string& c : plan.finalColumns) {
    h += ",";
    h += io::csvField("final." + c);
  }
  h += ",message\n";
  return h;
}

void appendResultRow(std::string& out, const StudyPlan& plan, const RunResult& r) {
  io::appendInteger(out, r.run);
  out += ',';
  out += io::csvField(r.status);
  std::size_t stack[64];
  std::vector<std::size_t> heap;
  std::span<std::size_t> idx(stack, std::min<std::size_t>(plan.axes.size(), 64));
  if (plan.axes.size() > 64) {
    heap.resize(plan.axes.size());
    idx = heap;
  }
  axisIndices(plan, r.run, idx);
  for (std::size_t a = 0; a < plan.axes.size(); ++a) {
    out += ',';
    const Axis& axis = plan.axes[a];
    if (axis.target == AxisTarget::Integrator) out += io::csvField(axis.names[idx[a]]);
    else io::appendNumber(out, axis.numbers[idx[a]]);
  }
  out += ',';
  io::appendInteger(out, r.impacts);
  out += ',';
  io::appendInteger(out, r.reflectedImpacts);
  for (double x : {r.firstImpactTime, r.maxAbsEnergyRelError, r.energyFinalRelError}) {
    out += ',';
    io::appendNumber(out, x);
  }
  out += ',';
  io::appendInteger(out, r.steps);
  out += ',';
  io::appendNumber(out, r.tEnd);
  for (std::size_t k = 0; k < plan.finalColumns.size(); ++k) {
    out += ',';
    if (k < r.final.size() && r.finalPresent[k]) io::appendNumber(out, r.final[k]);
  }
  out += ',';
  out += io::csvField(r.message);
  out += '\n';
}

}  // namespace ricochet::study
