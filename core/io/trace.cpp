#include "core/io/trace.hpp"

#include "core/bodies/bodies_system.hpp"
#include "core/io/energy_check.hpp"
#include "core/model/registry.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace ricochet::io {

namespace {

constexpr std::size_t kFlushBytes = std::size_t(1) << 20;  // write buffers out every ~1 MiB

/// Holds the impacts of the step being taken: they are only passed on (impact rows, metrics,
/// observer) once the step is accepted, so a failed step's impacts never happened.
class StepImpacts final : public ImpactSink {
 public:
  StepImpacts() { records.reserve(128); }
  void onImpact(const ImpactRecord& impact) override { records.push_back(impact); }
  std::vector<ImpactRecord> records;
};

/// The gap's name from the registry ("g<index>" for an unknown system, built in `scratch`); in a
/// world of several bodies (`bodies` not empty) "A|B" or "A|PLANE", the bodies' names.
std::string_view constraintName(const ImpactRecord& impact, std::span<const std::string> names,
                                std::span<const std::string> bodies, std::string& scratch) {
  if (!bodies.empty() && impact.bodyA >= 0 && std::size_t(impact.bodyA) < bodies.size()) {
    scratch.clear();
    scratch += bodies[std::size_t(impact.bodyA)];
    scratch += '|';
    if (impact.bodyB >= 0 && std::size_t(impact.bodyB) < bodies.size()) {
      scratch += bodies[std::size_t(impact.bodyB)];
    } else if (impact.constraint >= 0 && std::size_t(impact.constraint) < names.size()) {
      scratch += names[std::size_t(impact.constraint)];
    }
    return scratch;
  }
  if (impact.constraint >= 0 && static_cast<std::size_t>(impact.constraint) < names.size()) {
    return names[static_cast<std::size_t>(impact.constraint)];
  }
  // Built by appending: GCC 12 misreports both `"g" + ...` and `scratch = "g"` as overlapping copies.
  scratch.clear();
  scratch += 'g';
  scratch += std::to_string(impact.constraint);
  return scratch;
}

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

std::string impactsHeader(bool bodies) {
  std::string h;
  for (const char* c : kImpactColumns) {
    if (!h.empty()) h += ',';
    h += c;
  }
  if (bodies) h += ",body_a,body_b";
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

void appendImpactRow(std::string& out, const ImpactRecord& impact, std::string_view constraint,
                     bool bodies) {
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
  out += impact.reflected ? ",1" : ",0";
  if (bodies) {
    out += ',';
    appendInteger(out, impact.bodyA);
    out += ',';
    appendInteger(out, impact.bodyB);
  }
  out += '\n';
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
  // Before anything ran: the sinks the caller opened are left with nothing written.
  const auto refuse = [&](RunOutcome outcome, std::string message) {
    for (RecordSink* sink : options.sinks) sink->discard();
    return finish(outcome, std::move(message));
  };

  if (std::string e = checkRunOptions(options); !e.empty()) return refuse(RunOutcome::InvalidOptions, e);
  const std::int64_t total =
      options.steps >= 0 ? options.steps : stepCount(scenario.tEnd, scenario.integrator.h);
  if (total < 0) {
    return refuse(RunOutcome::InvalidOptions,
                  "t_end = " + formatNumber(scenario.tEnd) + " s with h = " +
                      formatNumber(scenario.integrator.h) + " s needs more than " +
                      std::to_string(kMaxRunSteps) + " steps");
  }

  AtomicFile traceFile, impactsFile;
  const bool writeTrace = !options.traceCsv.empty();
  const bool writeImpacts = !options.impactsCsv.empty();
  if (writeTrace) {
    if (std::string e = traceFile.open(options.traceCsv); !e.empty()) return refuse(RunOutcome::OutputError, e);
  }
  if (writeImpacts) {
    if (std::string e = impactsFile.open(options.impactsCsv); !e.empty()) {
      return refuse(RunOutcome::OutputError, e);
    }
  }

  static const std::vector<std::string> kNoNames;
  const SystemDescription* system = findSystem(scenario.system);
  const std::vector<std::string>& names = system ? system->info().constraints : kNoNames;
  const std::span<const std::string> bodyNames = bodies::bodyNamesOf(sim);

  const std::vector<RecordSink*>& sinks = options.sinks;
  const bool recordRows = writeTrace || !sinks.empty();
  const bool recordImpacts = writeImpacts || !sinks.empty();
  const auto discardAll = [&] {
    traceFile.discard();
    impactsFile.discard();
    for (RecordSink* sink : sinks) sink->discard();
    s.traceRows = s.impactRows = 0;
  };

  std::string traceBuf, impactBuf, nameScratch;
  std::vector<double> row(sim.columns().size());
  RunMetrics metrics(e0);
  std::int64_t lastRecorded = -1;
  std::string ioError;
  const auto record = [&](const EnergySplit& e) {
    sim.sample(row);
    const TraceRow r{sim.step(), sim.time(), e, metrics.relativeError(e), sim.impactCount(), row};
    if (writeTrace) appendTraceRow(traceBuf, r.step, r.t, r.energy, r.energyRelError, r.impacts, r.columns);
    for (RecordSink* sink : sinks) {
      if (std::string err = sink->onRow(sim, r); !err.empty() && ioError.empty()) ioError = std::move(err);
    }
    lastRecorded = sim.step();
    ++s.traceRows;
  };
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
  }
  if (recordRows) record(e0);
  if (writeImpacts) {
    impactBuf.reserve(kFlushBytes + 4096);
    impactBuf = impactsHeader(!bodyNames.empty());
  }
  StepImpacts stepImpacts;

  const std::int64_t firstStep = sim.step();
  RunOutcome outcome = RunOutcome::Completed;
  std::string failure;
  for (std::int64_t i = 0; i < total && ioError.empty(); ++i) {
    stepImpacts.records.clear();
    const AdvanceResult ar = sim.advance(1, &stepImpacts);
    const EnergySplit e = ar.ok() ? sim.energy() : EnergySplit{};
    if (ar.ok() && !std::isfinite(e.total())) {
      // The system did not flag it, but a non-finite energy means garbage from here on.
      s.status = RunStatus::NonFinite;
      // The step is taken: it started one h before the state it left.
      failure = failureText(sim.step(), sim.time() - sim.timeStep(),
                            "the energy is not finite (" + formatNumber(e.total()) + ")");
      outcome = RunOutcome::IntegratorFailed;
      break;
    }
    if (!ar.ok()) {
      s.status = ar.status;
      failure = failureText(sim, ar);
      outcome = RunOutcome::IntegratorFailed;
      break;
    }
    for (const ImpactRecord& impact : stepImpacts.records) {
      metrics.onImpact(impact);
      if (options.observer) options.observer->onImpact(impact);
      if (recordImpacts) {
        const std::string_view name = constraintName(impact, names, bodyNames, nameScratch);
        if (writeImpacts) appendImpactRow(impactBuf, impact, name, !bodyNames.empty());
        for (RecordSink* sink : sinks) {
          if (std::string err = sink->onImpact(impact, name); !err.empty() && ioError.empty()) {
            ioError = std::move(err);
          }
        }
        ++s.impactRows;
      }
    }
    metrics.onStep(sim, e);
    if (options.observer) options.observer->onStep(sim, e);
    if (recordRows && sim.step() % options.every == 0) record(e);
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
  const EnergySplit last = sim.energy();
  s.energyFinal = last.total();
  s.energyFinalRelError = metrics.relativeError(last);
  s.maxAbsEnergyRelError = metrics.maxAbsEnergyRelError();
  s.reflectedImpacts = metrics.reflectedImpacts();
  s.firstImpactTime = metrics.firstImpactTime();
  s.firstImpactAlpha = metrics.firstImpactAlpha();
  s.warning = energyWarning(s.system, s.integrator, metrics.maxAbsEnergyBalanceError(),
                            metrics.dissipative());
  s.energyDissipated = sim.dissipatedEnergy();
  s.settledTime = sim.settledTime();

  if (outcome == RunOutcome::Cancelled) {
    discardAll();
    return finish(outcome, "cancelled at step " + std::to_string(sim.step()) + " (t = " +
                               formatTime(sim.time()) + " s)");
  }
  // The last state is always in the trace (also when the step count is not a multiple of K, and
  // after a failure, where it is the last good state).
  if (recordRows && ioError.empty() && lastRecorded != sim.step()) {
    if (outcome == RunOutcome::Completed || std::isfinite(sim.energy().total())) record(sim.energy());
  }
  flush(true);
  if (ioError.empty() && !sinks.empty()) {
    // The sinks see the run as it ended (their files may say so), before the CSV files are moved
    // into place: a sink is the likelier to fail, and then no CSV file appears either.
    RunSummary ended = s;
    ended.outcome = outcome;
    ended.message = failure;
    for (RecordSink* sink : sinks) {
      if (ioError.empty()) ioError = sink->commit(ended);
    }
  }
  if (ioError.empty() && writeTrace) ioError = traceFile.commit();
  if (ioError.empty() && writeImpacts) ioError = impactsFile.commit();
  if (!ioError.empty()) {
    discardAll();
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
  o.add("warning", json::Value::string(s.warning));
  o.add("energy_dissipated", json::Value::number(s.energyDissipated));
  o.add("settled_t",
        std::isnan(s.settledTime) ? json::Value::null() : json::Value::number(s.settledTime));
  return o;
}

std::string summaryLine(const RunSummary& s) {
  std::string rest;  // dissipation and settling, only where they happened
  if (s.energyDissipated != 0.0) {
    char d[64];
    std::snprintf(d, sizeof d, ", %.10g J dissipated", s.energyDissipated);
    rest += d;
  }
  if (!std::isnan(s.settledTime)) rest += ", settled at t = " + formatTime(s.settledTime) + " s";
  char buf[640];
  std::snprintf(
      buf, sizeof buf,
      "%s %s h=%s: %lld %s to t=%.10g s, %lld %s%s, E0=%.10g J, E=%.10g J, "
      "max|dE/E0|=%.3e%s, %.3g s (%.3g steps/s): %s",
      s.system.c_str(), s.integrator.c_str(), formatNumber(s.h).c_str(),
      static_cast<long long>(s.steps), s.steps == 1 ? "step" : "steps", s.tEnd,
      static_cast<long long>(s.impacts), s.impacts == 1 ? "impact" : "impacts",
      s.reflectedImpacts > 0
          ? (" (" + std::to_string(s.reflectedImpacts) + " reflected near grazing)").c_str()
          : "",
      s.energyInitial, s.energyFinal, s.maxAbsEnergyRelError, rest.c_str(), s.wallSeconds,
      s.stepsPerSecond, s.statusText().c_str());
  return s.warning.empty() ? std::string(buf) : std::string(buf) + " (warning: " + s.warning + ")";
}

}  // namespace ricochet::io
