// ricochet.study and the study plans ricochet.distributed ships to Dask workers: core/study's
// planning, runs and results rows, with the rows as dicts and the results CSV written by core's
// own row formatting.

#include "bindings.hpp"
#include "interrupt.hpp"
#include "scenario_args.hpp"

#include "core/io/atomic_file.hpp"
#include "core/io/trace.hpp"
#include "core/model/parameter.hpp"
#include "core/study/runner.hpp"
#include "core/study/study_file.hpp"

#include <atomic>
#include <bit>
#include <filesystem>
#include <memory>
#include <set>

namespace ricochet::python {

namespace {

/// A planned study (core/study/study.hpp) and the keys of its rows as dicts.
class StudyPlan {
 public:
  explicit StudyPlan(study::StudyPlan plan) : plan_(std::move(plan)) {
    // A row's keys are the results CSV's columns, except that an axis whose name is also a result
    // column (a "t_end" axis beside the t_end reached) is keyed "vary.NAME".
    std::set<std::string> results = {"run",   "status", "impacts", "reflected_impacts", "first_impact_t",
                                      "max_abs_energy_rel_error", "energy_final_rel_error", "steps",
                                      "t_end", "message"};
    for (const std::string& c : plan_.finalColumns) results.insert("final." + c);
    for (const study::Axis& a : plan_.axes) axisKeys_.push_back(results.count(a.name) ? "vary." + a.name : a.name);
  }

  /// A study file path, a study dict (relative scenario paths resolve against the current
  /// directory) or a StudyPlan, with the command line's checks and messages.
  static std::shared_ptr<StudyPlan> load(py::handle study) {
    if (py::isinstance<StudyPlan>(study)) return study.cast<std::shared_ptr<StudyPlan>>();
    study::PlanResult planned;
    if (const auto path = pathText(study)) {
      planned = study::loadPlan(*path);
    } else if (py::isinstance<py::dict>(study)) {
      const json::Value doc = documentFromDict(py::reinterpret_borrow<py::dict>(study), study::kStudyFormat,
                                               study::kStudyVersion, "study");
      planned = plan(study::studyFromJson(doc, "study", std::filesystem::current_path()));
    } else {
      throw py::type_error("a study is a study file path, a study dict or a StudyPlan, not a " +
                           py::str(py::type::of(study).attr("__name__")).cast<std::string>());
    }
    if (!planned.ok()) throwValueError(planned.error);
    return std::make_shared<StudyPlan>(std::move(*planned.plan));
  }

  /// The canonical study document (scenario inline) and the name messages use: enough to plan
  /// the same study again anywhere (a Dask worker on another machine).
  py::tuple state() const {
    return py::make_tuple(json::write(study::studyToJson(plan_.study), -1), plan_.study.source);
  }
  static std::shared_ptr<StudyPlan> fromState(const py::tuple& t) {
    if (t.size() != 2) throw std::runtime_error("a pickled ricochet.StudyPlan has 2 fields");
    const auto text = t[0].cast<std::string>();
    const auto source = t[1].cast<std::string>();
    study::PlanResult planned = plan(study::parseStudy(text, source, std::filesystem::current_path()));
    if (!planned.ok()) throwValueError(planned.error);
    return std::make_shared<StudyPlan>(std::move(*planned.plan));
  }

  void check(py::handle jobs) const {
    const int j = jobsOf(jobs);
    std::string e;
    {
      py::gil_scoped_release release;
      e = study::checkRuns(plan_, j);
    }
    if (!e.empty()) throwValueError(e);
  }

  py::list runAll(py::handle jobs) const {
    study::RunnerOptions options;
    options.jobs = jobsOf(jobs);
    std::vector<study::RunResult> rows;
    rows.reserve(static_cast<std::size_t>(std::min<std::int64_t>(plan_.runs, 1 << 20)));
    std::atomic<bool> cancel{false};
    InterruptPoll poll;
    options.cancel = &cancel;
    options.onRow = [&rows](const study::RunResult& r) { rows.push_back(r); };
    options.progressInterval = 0.1;
    options.onProgress = [&](const study::Progress&) {
      if (poll.interrupted()) cancel.store(true);
    };
    study::RunnerOutcome outcome;
    {
      py::gil_scoped_release release;
      outcome = study::runStudy(plan_, options);
    }
    if (outcome.cancelled) throw py::error_already_set();  // the KeyboardInterrupt
    return toDicts(rows);
  }

  py::list runSome(const py::iterable& runs) const {
    std::vector<std::int64_t> indices;
    for (const py::handle r : runs) {
      const std::int64_t i = countArgument("run", r, 0);
      if (i >= plan_.runs) {
        throwValueError("run " + std::to_string(i) + " is not in this study (runs 0 to " +
                        std::to_string(plan_.runs - 1) + ")");
      }
      indices.push_back(i);
    }
    std::vector<study::RunResult> rows;
    {
      py::gil_scoped_release release;
      for (const std::int64_t i : indices) rows.push_back(study::executeRun(plan_, i));
    }
    return toDicts(rows);
  }

  std::string resultsCsv(const py::iterable& rows) const {
    std::string out = study::resultsHeader(plan_);
    std::int64_t previous = -1;
    std::size_t i = 0;
    for (const py::handle row : rows) {
      const study::RunResult r = fromDict(row, i++, previous);
      study::appendResultRow(out, plan_, r);
      previous = r.run;
    }
    return out;
  }

  void writeResults(const py::iterable& rows, py::handle path) const {
    const auto target = pathText(path);
    if (!target) throw py::type_error("the results path must be a str or os.PathLike");
    const std::string text = resultsCsv(rows);
    std::string e;
    {
      py::gil_scoped_release release;
      e = io::writeFileAtomically(*target, text);
    }
    if (!e.empty()) {
      PyErr_SetString(PyExc_OSError, e.c_str());
      throw py::error_already_set();
    }
  }

  std::int64_t runs() const { return plan_.runs; }
  const std::string& source() const { return plan_.study.source; }

  py::list keys() const {
    py::list out;
    out.append("run");
    out.append("status");
    for (const std::string& k : axisKeys_) out.append(k);
    for (const char* k : {"impacts", "reflected_impacts", "first_impact_t", "max_abs_energy_rel_error",
                          "energy_final_rel_error", "steps", "t_end"}) {
      out.append(k);
    }
    for (const std::string& c : plan_.finalColumns) out.append("final." + c);
    out.append("message");
    return out;
  }

  py::list axes() const {
    py::list out;
    for (const study::Axis& a : plan_.axes) out.append(a.name);
    return out;
  }

  std::string describeRun(py::handle run) const {
    const std::int64_t i = countArgument("run", run, 0);
    if (i >= plan_.runs) throwValueError("run " + std::to_string(i) + " is not in this study");
    return study::describeRun(plan_, i);
  }

  std::string repr() const {
    std::string axes;
    for (const study::Axis& a : plan_.axes) axes += (axes.empty() ? "" : " x ") + a.name;
    return "<ricochet.StudyPlan " + (plan_.study.source.empty() ? std::string() : plan_.study.source + ": ") +
           std::to_string(plan_.runs) + " runs of " + plan_.study.base.system +
           (axes.empty() ? std::string() : " (" + axes + ")") + ">";
  }

 private:
  static study::PlanResult plan(study::StudyResult read) {
    study::PlanResult planned;
    if (!read.ok()) {
      planned.error = read.error;
      return planned;
    }
    return study::planStudy(std::move(*read.study));
  }

  static int jobsOf(py::handle jobs) {
    if (jobs.is_none()) return 0;
    return static_cast<int>(std::min<std::int64_t>(countArgument("jobs", jobs, 1), 4096));
  }

  py::list toDicts(const std::vector<study::RunResult>& rows) const {
    py::list out;
    std::vector<std::size_t> idx(plan_.axes.size());
    for (const study::RunResult& r : rows) {
      py::dict d;
      d["run"] = r.run;
      d["status"] = r.status;
      study::axisIndices(plan_, r.run, idx);
      for (std::size_t a = 0; a < plan_.axes.size(); ++a) {
        const study::Axis& axis = plan_.axes[a];
        if (axis.target == study::AxisTarget::Integrator) d[py::str(axisKeys_[a])] = axis.names[idx[a]];
        else d[py::str(axisKeys_[a])] = axis.numbers[idx[a]];
      }
      d["impacts"] = r.impacts;
      d["reflected_impacts"] = r.reflectedImpacts;
      d["first_impact_t"] = r.firstImpactTime;
      d["max_abs_energy_rel_error"] = r.maxAbsEnergyRelError;
      d["energy_final_rel_error"] = r.energyFinalRelError;
      d["steps"] = r.steps;
      d["t_end"] = r.tEnd;
      for (std::size_t k = 0; k < plan_.finalColumns.size(); ++k) {
        const py::str key("final." + plan_.finalColumns[k]);
        if (r.finalPresent[k]) d[key] = r.final[k];
        else d[key] = py::none();
      }
      d["message"] = r.message;
      out.append(std::move(d));
    }
    return out;
  }

  /// A row dict back as the RunResult appendResultRow() writes. Rows must be this study's, in
  /// increasing run order (as ricochet.study returns them).
  study::RunResult fromDict(py::handle object, std::size_t i, std::int64_t previous) const {
    const std::string where = "rows[" + std::to_string(i) + "]";
    if (!py::isinstance<py::dict>(object)) throwValueError(where + " is not a dict (a row of ricochet.study())");
    const auto d = py::reinterpret_borrow<py::dict>(object);
    const auto get = [&](const std::string& key) -> py::handle {
      if (!d.contains(key)) throwValueError(where + " has no '" + key + "' (a row of ricochet.study())");
      return d[py::str(key)];
    };
    const auto number = [&](const std::string& key) {
      const py::handle v = get(key);
      const auto x = realNumber(v);
      if (!x) throwValueError(where + ": '" + key + "' = " + py::repr(v).cast<std::string>() + " is not a number");
      return *x;
    };
    const auto text = [&](const std::string& key) {
      const py::handle v = get(key);
      if (!py::isinstance<py::str>(v)) throwValueError(where + ": '" + key + "' must be a str");
      return v.cast<std::string>();
    };
    study::RunResult r;
    r.run = countArgument((where + ": 'run'").c_str(), get("run"), 0);
    if (r.run >= plan_.runs) {
      throwValueError(where + ": run " + std::to_string(r.run) + " is not in this study (" +
                      std::to_string(plan_.runs) + " runs)");
    }
    if (r.run <= previous) {
      throwValueError(where + ": run " + std::to_string(r.run) + " comes after run " + std::to_string(previous) +
                      " (rows go in increasing run order)");
    }
    std::vector<std::size_t> idx(plan_.axes.size());
    study::axisIndices(plan_, r.run, idx);
    for (std::size_t a = 0; a < plan_.axes.size(); ++a) {
      const study::Axis& axis = plan_.axes[a];
      const bool same = axis.target == study::AxisTarget::Integrator
                            ? text(axisKeys_[a]) == axis.names[idx[a]]
                            : std::bit_cast<std::uint64_t>(number(axisKeys_[a])) ==
                                  std::bit_cast<std::uint64_t>(axis.numbers[idx[a]]);
      if (!same) {
        throwValueError(where + ": '" + axisKeys_[a] + "' is not run " + std::to_string(r.run) +
                        "'s value in this study (" + study::describeRun(plan_, r.run) + ")");
      }
    }
    r.status = text("status");
    r.message = text("message");
    r.impacts = countArgument((where + ": 'impacts'").c_str(), get("impacts"), 0);
    r.reflectedImpacts = countArgument((where + ": 'reflected_impacts'").c_str(), get("reflected_impacts"), 0);
    r.firstImpactTime = number("first_impact_t");
    r.maxAbsEnergyRelError = number("max_abs_energy_rel_error");
    r.energyFinalRelError = number("energy_final_rel_error");
    r.steps = countArgument((where + ": 'steps'").c_str(), get("steps"), 0);
    r.tEnd = number("t_end");
    r.final.assign(plan_.finalColumns.size(), 0.0);
    r.finalPresent.assign(plan_.finalColumns.size(), 0);
    for (std::size_t k = 0; k < plan_.finalColumns.size(); ++k) {
      const std::string key = "final." + plan_.finalColumns[k];
      if (get(key).is_none()) continue;
      r.final[k] = number(key);
      r.finalPresent[k] = 1;
    }
    return r;
  }

  study::StudyPlan plan_;
  std::vector<std::string> axisKeys_;
};

}  // namespace

void bindStudy(py::module_& m) {
  py::class_<StudyPlan, std::shared_ptr<StudyPlan>>(m, "StudyPlan", R"doc(A study file read, checked and expanded into numbered runs.

ricochet.plan_study(study) makes one from a study file path or a study dict, with the command
line's checks and messages (ValueError). Pickling keeps the canonical study document (scenario
inline), so a plan sent to another process or machine plans the very same runs there.

A row (ricochet.study, run, run_runs) is a dict with the results CSV's columns as keys, in order:
run, status, one key per "vary" axis (its value for the run: a float, or the integrator's name),
impacts, reflected_impacts, first_impact_t, max_abs_energy_rel_error, energy_final_rel_error,
steps, t_end, final.<column>... (None where the run's integrator has no such column) and message.
An axis named like a result column (a "t_end" axis) is keyed "vary.<name>".)doc")
      .def_property_readonly("runs", &StudyPlan::runs, "number of runs")
      .def_property_readonly("source", &StudyPlan::source, "the name messages use (the study file)")
      .def_property_readonly("axes", &StudyPlan::axes, "the \"vary\" names, in order")
      .def_property_readonly("keys", &StudyPlan::keys, "a row's keys, in the results CSV's order")
      .def("describe_run", &StudyPlan::describeRun, py::arg("run"),
           "describe_run(run) -> str: the run's axis values, e.g. 'z0 = 5, h = 0.01'")
      .def("check", &StudyPlan::check, py::arg("jobs") = py::none(),
           "check(jobs=None): creates every run's simulation (on `jobs` threads, default all cores) and\n"
           "raises ValueError naming the first run that cannot start, as `ricochet-cli study` does\n"
           "before its first run.")
      .def("run", &StudyPlan::runAll, py::arg("jobs") = py::none(),
           "run(jobs=None) -> list of dict: every run on `jobs` threads (default all cores), one row per\n"
           "run in run order. The GIL is released; Ctrl-C stops it.")
      .def("run_runs", &StudyPlan::runSome, py::arg("runs"),
           "run_runs(runs) -> list of dict: the rows of the given run indices, run one after the other on\n"
           "the calling thread without the GIL (what a Dask task does).")
      .def("results_csv", &StudyPlan::resultsCsv, py::arg("rows"),
           "results_csv(rows) -> str: the results CSV of these rows (this study's, in increasing run\n"
           "order), byte for byte what `ricochet-cli study` writes for them.")
      .def("write_results", &StudyPlan::writeResults, py::arg("rows"), py::arg("path"),
           "write_results(rows, path): results_csv(rows) written atomically (a temporary file renamed\n"
           "into place); OSError when it cannot be written.")
      .def("__repr__", &StudyPlan::repr)
      .def(py::pickle([](const StudyPlan& p) { return p.state(); },
                      [](const py::tuple& t) { return StudyPlan::fromState(t); }));

  m.def("plan_study", &StudyPlan::load, py::arg("study"),
        "plan_study(study) -> StudyPlan: a study file path, a study dict (\"format\" and \"version\" may be\n"
        "left out; a scenario path in it is relative to the current directory) or a StudyPlan,\n"
        "read and expanded with `ricochet-cli study`'s checks; ValueError with its message.");
}

}  // namespace ricochet::python
