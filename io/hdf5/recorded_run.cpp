#include "io/hdf5/recorded_run.hpp"

#include "core/io/trace.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::hdf5 {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kRequired = std::size(io::kTraceRequiredColumns);
}  // namespace

std::string RecordedRun::check(const RunFile& run, std::size_t sceneBodies) {
  if (run.trace.rows() == 0) return "the run has no trace rows";
  for (const char* name : io::kTraceRequiredColumns) {
    if (!run.trace.column(name)) return std::string("the trace has no column '") + name + "'";
  }
  if (run.trace.names.size() < kRequired ||
      !std::equal(std::begin(io::kTraceRequiredColumns), std::end(io::kTraceRequiredColumns),
                  run.trace.names.begin())) {
    return "the trace's first columns are not step,t,energy,kinetic,potential,energy_rel_error,"
           "impacts";
  }
  if (run.hasPoses() && run.bodies.size() != sceneBodies) {
    return "poses of " + std::to_string(run.bodies.size()) + " bodies recorded, the scene of '" +
           run.system + "' has " + std::to_string(sceneBodies);
  }
  return {};
}

RecordedRun::RecordedRun(std::shared_ptr<const RunFile> run) : run_(std::move(run)) {
  const RunTable& trace = run_->trace;
  rows_ = trace.rows();
  step_ = trace.column("step");
  t_ = trace.column("t");
  kinetic_ = trace.column("kinetic");
  potential_ = trace.column("potential");
  impacts_ = trace.column("impacts");
  error_ = trace.column("energy_rel_error");
  for (std::size_t c = std::min(kRequired, trace.names.size()); c < trace.names.size(); ++c) {
    columns_.push_back(trace.names[c]);
    columnData_.push_back(&trace.columns[c]);
  }
}

std::int64_t RecordedRun::step() const {
  return step_ && row_ < rows_ ? std::int64_t((*step_)[row_]) : 0;
}

double RecordedRun::time() const {
  return t_ && row_ < rows_ ? (*t_)[row_] : 0.0;
}

std::int64_t RecordedRun::impactCount() const {
  return impacts_ && row_ < rows_ ? std::int64_t((*impacts_)[row_]) : 0;
}

double RecordedRun::timeStep() const {
  return run_->h * double(std::max<std::int64_t>(run_->every, 1));
}

AdvanceResult RecordedRun::advance(std::int64_t maxSteps, ImpactSink* sink) {
  AdvanceResult result;
  const std::vector<double>* impactStep = run_->impacts.column("step");
  while (result.stepsTaken < maxSteps && !atEnd()) {
    ++row_;
    const double through = step_ ? (*step_)[row_] : double(row_);
    // The impacts of the steps since the previous row (their `step` is the step after each).
    while (impactStep && nextImpact_ < impactStep->size() &&
           (*impactStep)[nextImpact_] <= through) {
      if (sink) {
        const RunTable& im = run_->impacts;
        auto at = [&](const char* name) {
          const std::vector<double>* c = im.column(name);
          return c ? (*c)[nextImpact_] : kNaN;
        };
        ImpactRecord r;
        r.step = std::int64_t(at("step"));
        r.t = at("t");
        r.alpha = at("alpha");
        r.constraint = int(at("constraint"));
        r.energyBefore = at("energy_before");
        r.energyAfter = at("energy_after");
        r.impulse = at("impulse");
        r.reflected = at("reflected") != 0.0;
        if (nextImpact_ < run_->impactPoints.size())
          r.contactPoint = run_->impactPoints[nextImpact_];
        sink->onImpact(r);
      }
      ++nextImpact_;
    }
    ++result.stepsTaken;
  }
  return result;
}

EnergySplit RecordedRun::energy() const {
  if (row_ >= rows_ || !kinetic_ || !potential_) return {kNaN, kNaN};
  return {(*kinetic_)[row_], (*potential_)[row_]};
}

double RecordedRun::energyRelError() const {
  return error_ && row_ < rows_ ? (*error_)[row_] : kNaN;
}

double RecordedRun::minGap() const {
  return kNaN;
}

std::span<const std::string> RecordedRun::columns() const {
  return columns_;
}

void RecordedRun::sample(std::span<double> out) const {
  for (std::size_t c = 0; c < out.size() && c < columnData_.size(); ++c) {
    out[c] = row_ < rows_ ? (*columnData_[c])[row_] : kNaN;
  }
}

void RecordedRun::poses(std::span<Pose> out) const {
  const std::size_t bodies = run_->bodies.size();
  for (std::size_t b = 0; b < out.size(); ++b) {
    if (run_->hasPoses() && b < bodies && row_ * bodies + b < run_->poses.size()) {
      out[b] = run_->poses[row_ * bodies + b];
    } else {
      out[b].position = Eigen::Vector3d::Constant(kNaN);
      out[b].rotation = Eigen::Matrix3d::Constant(kNaN);
    }
  }
}

void RecordedRun::rewind() {
  row_ = 0;
  nextImpact_ = 0;
}

std::size_t RecordedRun::rowAt(double t) const {
  if (!t_ || rows_ == 0) return 0;
  const auto it = std::upper_bound(t_->begin(), t_->end(), t);  // the first row after t
  return it == t_->begin() ? 0 : std::size_t(it - t_->begin()) - 1;
}

}  // namespace ricochet::hdf5
