#pragma once
// A scenario from what Python passes: a system id, a scenario file path or a scenario dict, then
// overrides by keyword, with the command line's checks and messages (raised as ValueError).

#include "convert.hpp"

#include "core/model/system.hpp"

namespace ricochet::python {

/// The scenario `target` names, with `overrides` applied in `ricochet-cli run`'s order: the
/// integrator name first, then every parameter or initial condition (any `--set` name, in the
/// dict's order), then `h`, `tolerance` and `t_end`; then the generic checks (validateScenario).
/// `target` is a system id or a scenario file path (as `ricochet-cli run TARGET`), or a dict in
/// the scenario file's format ("format" and "version" may be left out) whose messages start with
/// "scenario: ". Throws ValueError with the command line's message on bad input, TypeError for a
/// target or a value of the wrong Python type.
Scenario scenarioFrom(py::handle target, const py::dict& overrides);

/// ValueError with `message` (the core's one-line message, as `ricochet-cli` prints it after
/// "ricochet-cli: ").
[[noreturn]] void throwValueError(const std::string& message);

/// A document given as a dict: the JSON tree, with "format" and "version" put first when the
/// dict leaves them out (the file's only required bookkeeping, which a dict need not repeat).
json::Value documentFromDict(const py::dict& document, const char* format, int version, const std::string& where);

}  // namespace ricochet::python
