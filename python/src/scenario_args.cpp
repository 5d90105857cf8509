#include "scenario_args.hpp"

#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"

namespace ricochet::python {

void throwValueError(const std::string& message) { throw py::value_error(message); }

json::Value documentFromDict(const py::dict& document, const char* format, int version, const std::string& where) {
  json::Value given = toJson(document, where);
  json::Value doc = json::Value::object();
  if (!given.find("format")) doc.add("format", json::Value::string(format));
  if (!given.find("version")) doc.add("version", json::Value::integer(version));
  for (json::Member& m : given.asObject()) doc.add(std::move(m.first), std::move(m.second));
  return doc;
}

namespace {

constexpr const char* kScenarioKeys[] = {"integrator", "h", "tolerance", "t_end"};

bool isScenarioKey(const std::string& key) {
  for (const char* k : kScenarioKeys) {
    if (key == k) return true;
  }
  return false;
}

double numberOf(const std::string& name, py::handle value) {
  if (const auto x = realNumber(value)) return *x;
  throwValueError(name + " = " + py::repr(value).cast<std::string>() + " is not a number");
}

}  // namespace

Scenario scenarioFrom(py::handle target, const py::dict& overrides) {
  // 1. The starting scenario: a system's defaults, a scenario file or a dict.
  io::ScenarioResult start;
  if (const auto text = pathText(target)) {
    start = io::scenarioFromTarget(*text);
  } else if (py::isinstance<py::dict>(target)) {
    start = io::scenarioFromJson(documentFromDict(py::reinterpret_borrow<py::dict>(target), io::kScenarioFormat,
                                                  io::kScenarioVersion, "scenario"),
                                 "scenario");
  } else {
    throw py::type_error("a scenario is a system id (str), a scenario file path or a dict, not a " +
                         py::str(py::type::of(target).attr("__name__")).cast<std::string>());
  }
  if (!start.ok()) throwValueError(start.error);
  Scenario scenario = std::move(*start.scenario);

  // 2. Overrides, in the command line's order.
  if (overrides.contains("integrator") && !overrides["integrator"].is_none()) {
    const py::handle name = overrides["integrator"];
    if (!py::isinstance<py::str>(name)) {
      throwValueError("integrator = " + py::repr(name).cast<std::string>() + " is not a name (a str)");
    }
    scenario.integrator.name = name.cast<std::string>();
  }
  for (const auto& [key, value] : overrides) {
    const std::string name = key.cast<std::string>();
    if (isScenarioKey(name)) continue;
    if (std::string e = io::setScenarioValue(scenario, name, numberOf(name, value)); !e.empty()) throwValueError(e);
  }
  const auto number = [&](const char* key, double& into) {
    if (overrides.contains(key) && !overrides[key].is_none()) into = numberOf(key, overrides[key]);
  };
  number("h", scenario.integrator.h);
  number("tolerance", scenario.integrator.tolerance);
  number("t_end", scenario.tEnd);
  if (std::string e = validateScenario(scenario); !e.empty()) throwValueError(e);
  return scenario;
}

}  // namespace ricochet::python
