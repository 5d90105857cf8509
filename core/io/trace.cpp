#include "core/io/trace.hpp"

#include "core/model/registry.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace ricochet::io {

namespace {

constexpr std::size_t kFlushBytes = std::size_t(1) << 20;  // write buffers out every ~1 MiB

/// Collects impact rows of the current run; rows of a step that failed are dropped again by the
/// driver (truncating `buffer`), so the file matches the trace.
class ImpactRowSink final : public ImpactSink {
 public:
  ImpactRowSink(std::string* buffer, std::span<const std::string> names) : buffer_(buffer), names_(names) {}
  void onImpact(const ImpactRecord& impact) override {
    if (impact.reflected) ++reflected;
    if (!buffer_) return;
    if (impact.constraint >= 0 && static_cast<std::size_t>(impact.constraint) < names_.size()) {
      appendImpactRow(*buffer_, impact, names_[static_cast<std::size_t>(impact.constraint)]);
    } else {
      appendImpactRow(*buffer_, impact, std::string("g") + std::to_string(impact.constraint));
    }
    ++rows;
  }
  std::int64_t rows = 0;
  std::int64_t reflected = 0;

 private:
  std::string* buffer_;
  std::span<const std::string> names_;
};

std::string formatTime(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", t);
  return buf;
}

}  // namespace

void appendNumber(std::string& out, double x) {
  char buf[40];
  const auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 17);
  out.append(buf, res.ptr);
}

void appendInteger(std::string& out, std::int64_t n) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, res.ptr);
}

std::string csvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string traceHeader(std::span<const std::string> systemColumns) {
  std::string h;
  for (const char* c : kTraceRequiredColumns) {
    if (!h.empty()) h += ',';
    h += c;
  }
  for (const std::string& c : systemColumns) {
    h += ',';
    h += csvField(c);
  }
  h += '\n';
  return h;
}

std::string impactsHeader() {
  std::string h;
  for (const char* c : kImpactColumns) {
    if (!h.empty()) h += ',';
    h += c;
  }
  h += '\n';
  return h;
}

double energyScale(const EnergySplit& initial) {
  const double e0 = std::fabs(initial.total());
  if (e0 > 0.0) return e0;
  const double scale = std::fabs(initial.kinetic) + std::fabs(initial.potential);
  return scale > 0.0 ? scale : 1.0;
}

void appendTraceRow(std::string& out, std::int64_t step, double t, const EnergySplit& energy,
                    double energyRelError, std::int64_t impacts, std::span<const double> columns) {
  appendInteger(out, step);
  out += ',';
  appendNumber(out, t);
  out += ',';
  appendNumber(out, energy.total());
  out += ',';
  appendNumber(out, energy.kinetic);
  out += ',';
  appendNumber(out, energy.potential);
  out += ',';
  appendNumber(out, energyRelError);
  out += ',';
  appendInteger(out, impacts);
  for (double v : columns) {
    out += ',';
    appendNumber(out, v);
  }
  out += '\n';
}

void appendImpactRow(std::string& out, const ImpactRecord& impact, std::string_view constraint) {
  appendInteger(out, impact.step);
  out += ',';
  appendNumber(out, impact.t);
  out += ',';
  appendNumber(out, impact.alpha);
  out += ',';
  out += csvField(constraint);
  out += ',';
  appendNumber(out, impact.energyBefore);
  out += ',';
  appendNumber(out, impact.energyAfter);
  out += ',';
  appendNumber(out, impact.impulse);
  out += impact.reflected ? ",1\n" : ",0\n";
}

std::int64_t stepCount(double tEnd, double h) {
  if (!std::isfinite(tEnd) || !std::isfinite(h) || !(h > 0.0) || tEnd < 0.0) return -1;
  const double x = tEnd / h;
  if (!std::isfinite(x)) return -1;
  const double n = std::ceil(x * (1.0 - 1e-9));
  if (n > static_cast<double>(kMaxRunSteps)) return -1;
  return static_cast<std::int64_t>(n);
}

std::string RunSummary::statusText() const {
  switch (outcome) {
    case RunOutcome::Completed: return "ok";
    case RunOutcome::IntegratorFailed: return toString(status);
    case RunOutcome::Cancelled: return "cancelled";
    case RunOutcome::OutputError: return "output-error";
    case RunOutcome::InvalidOptions: return "invalid-options";
  }
  return "unknown";
}

std::string checkRunOptions(const RunOptions& options) {
  if (options.every < 1) {
    return "--every " + std::to_string(options.every) + " is invalid: must be an integer >= 1";
  }
  if (options.steps > kMaxRunSteps) {
    return "--steps " + std::to_string(options.steps) + " is too large: at most " +
           std::to_string(kMaxRunSteps);
  }
  if (options.progress && options.progressInterval < 1) {
    return "progress interval " + std::to_string(options.progressInterval) + " must be >= 1";
  }
  return {};
}

RunSummary runSimulation(Simulation& sim, const Scenario& scenario, const RunOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  RunSummary s;
  s.system = scenario.system;
  s.integrator = scenario.integrator.name;
  s.h = sim.timeStep();
  s.tEnd = sim.time();
  s.impacts = sim.impactCount();
  const EnergySplit e0 = sim.energy();
  s.energyInitial = s.energyFinal = e0.total();
  const auto finish = [&](RunOutcome outcome, std::string message) {
    s.outcome = outcome;
    s.message = std::move(message);
    s.wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    s.stepsPerSecond = s.wallSeconds > 0.0 ? static_cast<double>(s.steps) / s.wallSeconds : 0.0;
    return s;
  };

  if (std::string e = checkRunOptions(options); !e.empty()) return finish(RunOutcome::InvalidOptions, e);
  const std::int64_t total =
      options.steps >= 0 ? options.steps : stepCount(scenario.tEnd, scenario.integrator.h);
  if (total < 0) {
    return finish(RunOutcome::InvalidOptions,
                  "t_end = " + formatNumber(scenario.tEnd) + " s with h = " +
                      formatNumber(scenario.integrator.h) + " s needs more than " +
                      std::to_string(kMaxRunSteps) + " steps");
  }

  AtomicFile traceFile, impactsFile;
  const bool writeTrace = !options.traceCsv.empty();
  const bool writeImpacts = !options.impactsCsv.empty();
  if (writeTrace) {
    if (std::string e = traceFile.open(options.traceCsv); !e.empty()) return finish(RunOutcome::OutputError, e);
  }
  if (writeImpacts) {
    if (std::string e = impactsFile.open(options.impactsCsv); !e.empty()) {
      return finish(RunOutcome::OutputError, e);
    }
  }

  static const std::vector<std::string> kNoNames;
  const SystemDescription* system = findSystem(scenario.system);
  const std::vector<std::string>& names = system ? system->info().constraints : kNoNames;

  std::string traceBuf, impactBuf;
  std::vector<double> row(sim.columns().size());
  const double scale = energyScale(e0);
  std::int64_t lastRecorded = -1;
  const auto record = [&](const EnergySplit& e) {
    sim.sample(row);
    appendTraceRow(traceBuf, sim.step(), sim.time(), e, (e.total() - e0.total()) / scale,
                   sim.impactCount(), row);
    lastRecorded = sim.step();
    ++s.traceRows;
  };
  std::string ioError;
  const auto flush = [&](bool force) {
    if (writeTrace && (force || traceBuf.size() >= kFlushBytes)) {
      if (ioError.empty()) ioError = traceFile.write(traceBuf);
      traceBuf.clear();
    }
    if (writeImpacts && (force || impactBuf.size() >= kFlushBytes)) {
      if (ioError.empty()) ioError = impactsFile.write(impactBuf);
      impactBuf.clear();
    }
  };

  if (writeTrace) {
    traceBuf.reserve(kFlushBytes + 4096);
    traceBuf = traceHeader(sim.columns());
    record(e0);
  }
  if (writeImpacts) {
    impactBuf.reserve(kFlushBytes + 4096);
    impactBuf = impactsHeader();
  }
  ImpactRowSink sink(writeImpacts ? &impactBuf : nullptr, names);

  const std::int64_t firstStep = sim.step();
  double maxRel = 0.0;
  bool nanSeen = false;
  RunOutcome outcome = RunOutcome::Completed;
  std::string failure;
  for (std::int64_t i = 0; i < total; ++i) {
    const std::size_t impactMark = impactBuf.size();
    const std::int64_t rowsMark = sink.rows, reflectedMark = sink.reflected;
    const AdvanceResult ar = sim.advance(1, &sink);
    const EnergySplit e = ar.ok() ? sim.energy() : EnergySplit{};
    if (ar.ok() && !std::isfinite(e.total())) {
      // The system did not flag it, but a non-finite energy means garbage from here on.
      s.status = RunStatus::NonFinite;
      // The step is taken: it started one h before the state it left.
      failure = failureText(sim.step(), sim.time() - sim.timeStep(),
                            "the energy is not finite (" + formatNumber(e.total()) + ")");
      outcome = RunOutcome::IntegratorFailed;
      impactBuf.resize(impactMark);
      sink.rows = rowsMark;
      sink.reflected = reflectedMark;
      break;
    }
    if (!ar.ok()) {
      s.status = ar.status;
      failure = failureText(sim, ar);
      outcome = RunOutcome::IntegratorFailed;
      impactBuf.resize(impactMark);  // the failed step's impacts did not happen
      sink.rows = rowsMark;
      sink.reflected = reflectedMark;
      break;
    }
    const double rel = std::fabs((e.total() - e0.total()) / scale);
    if (std::isnan(rel)) nanSeen = true;
    else if (rel > maxRel) maxRel = rel;
    if (writeTrace && sim.step() % options.every == 0) record(e);
    flush(false);
    if (!ioError.empty()) break;
    if (options.progress && (i + 1) % options.progressInterval == 0 && i + 1 < total &&
        !options.progress(i + 1, total)) {
      outcome = RunOutcome::Cancelled;
      break;
    }
  }
  s.steps = sim.step() - firstStep;
  s.tEnd = sim.time();
  s.impacts = sim.impactCount();
  s.energyFinal = sim.energy().total();
  s.maxAbsEnergyRelError = nanSeen ? std::nan("") : maxRel;
  s.impactRows = sink.rows;
  s.reflectedImpacts = sink.reflected;

  if (outcome == RunOutcome::Cancelled) {
    traceFile.discard();
    impactsFile.discard();
    s.traceRows = s.impactRows = 0;
    return finish(outcome, "cancelled at step " + std::to_string(sim.step()) + " (t = " +
                               formatTime(sim.time()) + " s)");
  }
  // The last state is always in the trace (also when the step count is not a multiple of K, and
  // after a failure, where it is the last good state).
  if (writeTrace && ioError.empty() && lastRecorded != sim.step()) {
    if (outcome == RunOutcome::Completed || std::isfinite(sim.energy().total())) record(sim.energy());
  }
  flush(true);
  if (ioError.empty() && writeTrace) ioError = traceFile.commit();
  if (ioError.empty() && writeImpacts) ioError = impactsFile.commit();
  if (!ioError.empty()) {
    traceFile.discard();
    impactsFile.discard();
    s.traceRows = s.impactRows = 0;
    return finish(RunOutcome::OutputError, ioError);
  }
  return finish(outcome, failure);
}

json::Value summaryToJson(const RunSummary& s) {
  json::Value o = json::Value::object();
  o.add("system", json::Value::string(s.system));
  o.add("integrator", json::Value::string(s.integrator));
  o.add("h", json::Value::number(s.h));
  o.add("steps", json::Value::integer(s.steps));
  o.add("t_end", json::Value::number(s.tEnd));
  o.add("impacts", json::Value::integer(s.impacts));
  o.add("reflected_impacts", json::Value::integer(s.reflectedImpacts));
  o.add("energy_initial", json::Value::number(s.energyInitial));
  o.add("energy_final", json::Value::number(s.energyFinal));
  o.add("max_abs_energy_rel_error", json::Value::number(s.maxAbsEnergyRelError));
  o.add("wall_seconds", json::Value::number(s.wallSeconds));
  o.add("steps_per_second", json::Value::number(s.stepsPerSecond));
  o.add("status", json::Value::string(s.statusText()));
  o.add("message", json::Value::string(s.message));
  return o;
}

std::string summaryLine(const RunSummary& s) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s %s h=%s: %lld steps to t=%.10g s, %lld impacts%s, E0=%.10g J, E=%.10g J, "
                "max|dE/E0|=%.3e, %.3g s (%.3g steps/s): %s",
                s.system.c_str(), s.integrator.c_str(), formatNumber(s.h).c_str(),
                static_cast<long long>(s.steps), s.tEnd, static_cast<long long>(s.impacts),
                s.reflectedImpacts > 0
                    ? (" (" + std::to_string(s.reflectedImpacts) + " reflected near grazing)").c_str()
                    : "",
                s.energyInitial, s.energyFinal, s.maxAbsEnergyRelError, s.wallSeconds,
                s.stepsPerSecond, s.statusText().c_str());
  return buf;
}

}  // namespace ricochet::io
