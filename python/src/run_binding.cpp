// ricochet.run and ricochet.Simulation: one run of one scenario through the command line's run
// driver (io::runSimulation), its recorded rows kept in memory as NumPy arrays.

#include "bindings.hpp"
#include "interrupt.hpp"
#include "scenario_args.hpp"
#include "trace_columns.hpp"

#include "core/io/energy_check.hpp"
#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"

#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace ricochet::python {

namespace {

/// What ricochet.run returns, and each chunk of Simulation.advance.
struct Run {
  py::dict trace, impacts, summary, scenario;
};

constexpr const char* kRunDoc = R"doc(The outcome of ricochet.run() (or of one Simulation.advance() call).

Attributes:
  trace     dict: trace CSV column name -> 1-D numpy.float64 array, one element per recorded row
            (the initial state, every `every`-th step and the last state). The columns are those of
            `ricochet-cli run --csv`: step, t, energy, kinetic, potential, energy_rel_error,
            impacts, then the system's own (q.*, p.* or v.*, mom.*, e.*, con.*). Each value is the
            double the CSV prints with 17 significant digits, bit for bit.
  impacts   dict: impacts CSV column name -> 1-D array, one element per impact: step, t, alpha,
            energy_before, energy_after, impulse, reflected (1.0 or 0.0) as float64, and
            constraint (the gap's name) as an array of str.
  summary   dict: what `ricochet-cli run --summary-json` writes (system, integrator, h, steps,
            t_end, impacts, reflected_impacts, energy_initial, energy_final,
            max_abs_energy_rel_error, wall_seconds, steps_per_second, status, message).
  scenario  dict: the scenario that ran, in the canonical scenario-file form.
  ok        True when summary["status"] == "ok" (the integrator did not fail).
)doc";

std::string statusOf(const Run& r) { return r.summary["status"].cast<std::string>(); }

/// io::runSimulation without the GIL (other Python threads run meanwhile); Ctrl-C in the main
/// thread cancels it within 4096 steps.
io::RunSummary runWithoutGil(Simulation& sim, const Scenario& scenario, io::RunOptions& options) {
  InterruptPoll poll;
  options.progress = [&poll](std::int64_t, std::int64_t) { return !poll.interrupted(); };
  options.progressInterval = 4096;
  py::gil_scoped_release release;
  return io::runSimulation(sim, scenario, options);
}

std::unique_ptr<Simulation> createOrThrow(const Scenario& scenario) {
  CreateResult created;
  {
    py::gil_scoped_release release;
    created = createSimulation(scenario);
  }
  if (!created.simulation) throwValueError(created.error);
  return std::move(created.simulation);
}

Run run(py::handle target, const py::dict& overrides, py::handle stepsArg, py::handle everyArg) {
  const Scenario scenario = scenarioFrom(target, overrides);
  if (overrides.contains("t_end") && !overrides["t_end"].is_none() && !stepsArg.is_none()) {
    throwValueError("give either t_end or steps, not both");
  }
  io::RunOptions options;
  if (!stepsArg.is_none()) options.steps = countArgument("steps", stepsArg, 1);
  options.every = countArgument("every", everyArg, 1);
  if (std::string e = io::checkRunOptions(options); !e.empty()) throwValueError(e);
  const std::int64_t total = options.steps >= 0 ? options.steps : io::stepCount(scenario.tEnd, scenario.integrator.h);
  if (total < 0) {
    throwValueError("t_end = " + formatNumber(scenario.tEnd) + " s with h = " + formatNumber(scenario.integrator.h) +
                    " s needs more than " + std::to_string(io::kMaxRunSteps) + " steps");
  }
  const std::unique_ptr<Simulation> sim = createOrThrow(scenario);
  TraceColumns table(sim->columns(), total / options.every + 2);
  options.sinks = {&table};
  const io::RunSummary s = runWithoutGil(*sim, scenario, options);
  if (s.outcome == io::RunOutcome::Cancelled) throw py::error_already_set();  // the KeyboardInterrupt
  if (s.outcome != io::RunOutcome::Completed && s.outcome != io::RunOutcome::IntegratorFailed) throwValueError(s.message);
  return Run{table.takeTrace(), table.impacts().toDict(), toPython(io::summaryToJson(s)),
             toPython(io::scenarioToJson(scenario))};
}

/// ricochet.Simulation: a run advanced in chunks by the caller.
class PySimulation {
 public:
  PySimulation(py::handle target, const py::dict& overrides)
      : scenario_(scenarioFrom(target, overrides)),
        sim_(createOrThrow(scenario_)),
        e0_(sim_->energy()),
        metrics_(e0_) {
    summary_.system = scenario_.system;
    summary_.integrator = scenario_.integrator.name;
    summary_.h = sim_->timeStep();
    summary_.tEnd = sim_->time();
    summary_.energyInitial = summary_.energyFinal = e0_.total();
  }

  Run advance(py::handle stepsArg, py::handle everyArg) {
    const Busy busy(mutex_);
    return advanceBy(countArgument("steps", stepsArg, 0), countArgument("every", everyArg, 1));
  }

  Run advanceTo(py::handle tArg, py::handle everyArg) {
    const Busy busy(mutex_);
    const auto t = realNumber(tArg);
    if (!t || !std::isfinite(*t)) throwValueError("t = " + py::repr(tArg).cast<std::string>() + " is not a finite number");
    const std::int64_t every = countArgument("every", everyArg, 1);
    const std::int64_t last = io::stepCount(std::max(*t, 0.0), sim_->timeStep());
    if (last < 0) {
      throwValueError("t = " + formatNumber(*t) + " s with h = " + formatNumber(sim_->timeStep()) +
                      " s needs more than " + std::to_string(io::kMaxRunSteps) + " steps");
    }
    return advanceBy(std::max<std::int64_t>(0, last - sim_->step()), every);
  }

  py::dict state() {
    const Busy busy(mutex_);
    std::vector<double> values(sim_->columns().size());
    sim_->sample(values);
    const EnergySplit e = sim_->energy();
    py::dict out;
    out["step"] = sim_->step();
    out["t"] = sim_->time();
    out["energy"] = e.total();
    out["kinetic"] = e.kinetic;
    out["potential"] = e.potential;
    out["energy_rel_error"] = metrics_.relativeError(e);
    out["impacts"] = sim_->impactCount();
    const auto columns = sim_->columns();
    for (std::size_t c = 0; c < columns.size(); ++c) out[py::str(columns[c])] = values[c];
    return out;
  }

  template <class F>
  auto read(F f) {
    const Busy busy(mutex_);
    return f();
  }

  std::int64_t step() { return read([&] { return sim_->step(); }); }
  double time() { return read([&] { return sim_->time(); }); }
  double h() { return read([&] { return sim_->timeStep(); }); }
  std::int64_t impactCount() { return read([&] { return sim_->impactCount(); }); }
  double energy() { return read([&] { return sim_->energy().total(); }); }
  double minGap() { return read([&] { return sim_->minGap(); }); }
  py::list columns() {
    return read([&] {
      py::list out;
      for (const char* c : io::kTraceRequiredColumns) out.append(c);
      for (const std::string& c : sim_->columns()) out.append(c);
      return out;
    });
  }
  py::dict impacts() { return read([&] { return impacts_.toDict(); }); }
  py::dict summary() { return read([&] { return toPython(io::summaryToJson(summary_)).cast<py::dict>(); }); }
  py::dict scenario() const { return toPython(io::scenarioToJson(scenario_)); }
  bool ok() { return read([&] { return summary_.outcome == io::RunOutcome::Completed; }); }

 private:
  /// One thread at a time: a second one gets RuntimeError instead of a data race (while a chunk
  /// runs the GIL is released, so another thread could call in).
  class Busy {
   public:
    explicit Busy(std::mutex& m) : lock_(m, std::try_to_lock) {
      if (!lock_.owns_lock()) {
        throw std::runtime_error("this Simulation is in use by another thread (one thread at a time)");
      }
    }

   private:
    std::unique_lock<std::mutex> lock_;
  };

  Run advanceBy(std::int64_t steps, std::int64_t every) {
    if (summary_.outcome != io::RunOutcome::Completed) {
      throw std::runtime_error("the simulation stopped (" + summary_.message +
                               "); create a new Simulation to run again");
    }
    io::RunOptions options;
    options.steps = steps;
    options.every = every;
    options.observer = &metrics_;  // energy error, impacts and first impact over the whole run
    TraceColumns table(sim_->columns(), steps / every + 2);
    table.reference = &metrics_;
    table.skipStep = sim_->step() > 0 ? sim_->step() : -1;
    options.sinks = {&table};
    const io::RunSummary s = runWithoutGil(*sim_, scenario_, options);
    if (s.outcome == io::RunOutcome::InvalidOptions) throwValueError(s.message);
    // The run so far, as ricochet.run would summarise it (a cancelled chunk's steps count too).
    impacts_.append(table.impacts());
    wallSeconds_ += s.wallSeconds;
    summary_ = s;
    summary_.steps = sim_->step();
    summary_.energyInitial = e0_.total();
    summary_.energyFinalRelError = metrics_.relativeError(sim_->energy());
    summary_.maxAbsEnergyRelError = metrics_.maxAbsEnergyRelError();
    summary_.reflectedImpacts = metrics_.reflectedImpacts();
    summary_.firstImpactTime = metrics_.firstImpactTime();
    summary_.firstImpactAlpha = metrics_.firstImpactAlpha();
    summary_.warning =
        io::energyWarning(scenario_.system, scenario_.integrator.name,
                          metrics_.maxAbsEnergyBalanceError(), metrics_.dissipative());
    summary_.wallSeconds = wallSeconds_;
    summary_.stepsPerSecond = wallSeconds_ > 0.0 ? static_cast<double>(summary_.steps) / wallSeconds_ : 0.0;
    if (s.outcome == io::RunOutcome::Cancelled) {
      summary_.outcome = io::RunOutcome::Completed;  // interrupted between steps: it may go on
      summary_.message.clear();
      throw py::error_already_set();  // the KeyboardInterrupt
    }
    return Run{table.takeTrace(), table.impacts().toDict(), toPython(io::summaryToJson(summary_)), scenario()};
  }

  const Scenario scenario_;
  const std::unique_ptr<Simulation> sim_;
  const EnergySplit e0_;
  io::RunMetrics metrics_;
  ImpactColumns impacts_;
  io::RunSummary summary_;
  double wallSeconds_ = 0.0;
  std::mutex mutex_;
};

}  // namespace

void bindRun(py::module_& m) {
  py::class_<Run>(m, "Run", kRunDoc)
      .def_readonly("trace", &Run::trace, "dict: trace column name -> numpy.float64 array (see the class doc)")
      .def_readonly("impacts", &Run::impacts, "dict: impacts column name -> array (see the class doc)")
      .def_readonly("summary", &Run::summary, "dict: the run summary, as `ricochet-cli run --summary-json`")
      .def_readonly("scenario", &Run::scenario, "dict: the scenario that ran, canonical form")
      .def_property_readonly("ok", [](const Run& r) { return statusOf(r) == "ok"; },
                             "True when the integrator did not fail (summary['status'] == 'ok')")
      .def("__repr__",
           [](const Run& r) {
             const py::dict& s = r.summary;
             return "<ricochet.Run " + s["system"].cast<std::string>() + " " + s["integrator"].cast<std::string>() +
                    ": " + py::str(s["steps"]).cast<std::string>() + " steps to t = " +
                    py::str(s["t_end"]).cast<std::string>() + " s, " + py::str(s["impacts"]).cast<std::string>() +
                    " impacts, " + std::to_string(py::len(r.trace["t"])) + " rows, " + statusOf(r) + ">";
           })
      .def(py::pickle([](const Run& r) { return py::make_tuple(r.trace, r.impacts, r.summary, r.scenario); },
                      [](const py::tuple& t) {
                        if (t.size() != 4) throw std::runtime_error("a pickled ricochet.Run has 4 fields");
                        return Run{t[0].cast<py::dict>(), t[1].cast<py::dict>(), t[2].cast<py::dict>(),
                                   t[3].cast<py::dict>()};
                      }));

  m.def("_run", &run, py::arg("system_or_scenario"), py::arg("overrides"), py::arg("steps"), py::arg("every"),
        "ricochet.run() without its keyword handling: `overrides` maps integrator, h, tolerance, t_end and\n"
        "parameter / initial-condition names to values. Use ricochet.run().");

  py::class_<PySimulation>(m, "Simulation", R"doc(A run that the caller advances in chunks and samples in between.

Simulation(system_or_scenario, overrides) takes what ricochet.run() takes (a system id, a scenario
file path or a scenario dict; `overrides` a dict of integrator, h, tolerance, t_end and parameter or
initial-condition names), with the same checks and ValueError messages. ricochet.Simulation wraps
it with keyword arguments.

Each advance() returns the chunk's Run: the rows recorded in it (the state at every step that is a
multiple of `every`, and the chunk's last state; the very first chunk also starts with the
initial state), the impacts that happened in it, and the summary of the whole run so far. Chunks
whose lengths are multiples of `every` concatenate to ricochet.run()'s trace bit for bit, and
energy_rel_error is always taken against the initial state. The GIL is released while a chunk
runs; Ctrl-C stops it within 4096 steps (the steps taken count). A Simulation is used by one
thread at a time (another gets RuntimeError). Once the integrator fails, the chunk that failed
says so (Run.ok is False) and further advance() calls raise RuntimeError.)doc")
      .def(py::init<py::handle, const py::dict&>(), py::arg("system_or_scenario"), py::arg("overrides") = py::dict())
      .def("advance", &PySimulation::advance, py::arg("steps"), py::arg("every") = 1,
           "advance(steps, every=1) -> Run: takes `steps` (>= 0) steps of length h and returns the\n"
           "chunk's rows (every `every`-th step and the last), its impacts and the summary so far.")
      .def("advance_to", &PySimulation::advanceTo, py::arg("t"), py::arg("every") = 1,
           "advance_to(t, every=1) -> Run: advances until step ceil(t/h) (ricochet-cli's step count for\n"
           "t_end = t), i.e. to the first step at or after time t; no step when it is already there.")
      .def("state", &PySimulation::state,
           "state() -> dict: the current state as one trace row: step, t, energy, kinetic, potential,\n"
           "energy_rel_error, impacts, then the system's columns (q.*, p.* or v.*, mom.*, e.*, con.*).")
      .def_property_readonly("step", &PySimulation::step, "steps taken so far")
      .def_property_readonly("time", &PySimulation::time, "simulated time of the current state, s")
      .def_property_readonly("h", &PySimulation::h, "time step, s")
      .def_property_readonly("impact_count", &PySimulation::impactCount, "impacts so far")
      .def_property_readonly("energy", &PySimulation::energy, "mechanical energy of the current state, J")
      .def_property_readonly("min_gap", &PySimulation::minGap,
                             "smallest constraint gap min_j g_j(q) of the current state (>= 0: admissible)")
      .def_property_readonly("columns", &PySimulation::columns, "the trace columns, in the CSV's order")
      .def_property_readonly("impacts", &PySimulation::impacts,
                             "every impact so far, as Run.impacts (dict of arrays)")
      .def_property_readonly("summary", &PySimulation::summary,
                             "the run so far, as ricochet.run() would summarise it (summary JSON keys)")
      .def_property_readonly("scenario", &PySimulation::scenario, "the scenario, canonical dict form")
      .def_property_readonly("ok", &PySimulation::ok, "False once the integrator has failed");
}

}  // namespace ricochet::python
