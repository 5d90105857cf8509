// The extension module ricochet._ricochet: ricochet_core for Python. The package ricochet
// (__init__.py) wraps it with keyword arguments and documentation; ricochet.distributed maps
// studies over Dask.

#include "bindings.hpp"
#include "scenario_args.hpp"

#include "core/io/describe.hpp"
#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"

#include <memory>

namespace ricochet::python {

std::int64_t countArgument(const char* name, py::handle value, std::int64_t min) {
  if (!py::isinstance<py::bool_>(value) &&
      (PyLong_Check(value.ptr()) || py::isinstance(value, py::module_::import("numbers").attr("Integral")))) {
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(py::int_(py::reinterpret_borrow<py::object>(value)).ptr(), &overflow);
    if (overflow == 0 && !PyErr_Occurred() && n >= min) return n;
    PyErr_Clear();
  }
  throwValueError(std::string(name) + " = " + py::repr(value).cast<std::string>() +
                  " is invalid: must be an integer >= " + std::to_string(min));
}

void bindModel(py::module_& m) {
  m.def(
      "systems",
      [] {
        py::list ids;
        for (const SystemDescription* s : systems()) ids.append(s->info().id);
        return ids;
      },
      "systems() -> list of str: the system ids, in the order of `ricochet-cli list`.");

  m.def(
      "describe",
      [](const std::string& id) {
        const SystemDescription* s = findSystem(id);
        if (!s) throwValueError("unknown system '" + id + "' (try `ricochet-cli list`)");
        return toPython(io::describeToJson(s->info()));
      },
      py::arg("system"),
      "describe(system) -> dict: what `ricochet-cli describe SYSTEM --json` prints (parameters and\n"
      "initial conditions with unit, default, range and help; integrators; constraints; defaults).");

  m.def(
      "_scenario",
      [](py::handle target, const py::dict& overrides) {
        const Scenario scenario = scenarioFrom(target, overrides);
        CreateResult created;
        {
          py::gil_scoped_release release;
          created = createSimulation(scenario);
        }
        if (!created.simulation) throwValueError(created.error);
        return toPython(io::scenarioToJson(scenario));
      },
      py::arg("system_or_scenario"), py::arg("overrides"),
      "ricochet.scenario() without its keyword handling. Use ricochet.scenario().");
}

}  // namespace ricochet::python

PYBIND11_MODULE(_ricochet, m) {
  m.doc() = "Ricochet's physics core (ricochet_core) for Python; use the package `ricochet`.";
  ricochet::python::bindModel(m);
  ricochet::python::bindRun(m);
  ricochet::python::bindStudy(m);
}
