#pragma once
// Scenario files: the published JSON format (README, "Command line", scenario files), read
// strictly and written in a stable order.
//
//   {"format": "ricochet-scenario", "version": 1, "system": ID,
//    "parameters": {NAME: number}, "initial": {NAME: number},
//    "body": {...}, "world": {...},
//    "integrator": {"name": ..., "h": ..., "tolerance": ...}, "t_end": ...}
//
// "body" and "world" only for a system that reads them (rigid-body; core/io/body_io.hpp).
// Required keys: "format", "version" (1) and "system". Everything else is optional: a parameter
// or initial condition that is not listed, a missing integrator field, or a missing "t_end" takes
// the system's default (SystemInfo). So a file may hold only what differs from the paper.
// Unknown keys, wrong types, non-finite or huge numbers (|x| > kMaxScenarioMagnitude),
// out-of-range values and unknown names are rejected with ONE line naming the key, e.g.
//   scenario.json: line 5, column 11: "parameters.m" = -1 is out of range: must be > 0 kg
// Whether the initial state is admissible is the system's create() check, not the parser's.

#include "core/io/json.hpp"
#include "core/model/system.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ricochet::io {

inline constexpr const char* kScenarioFormat = "ricochet-scenario";
inline constexpr int kScenarioVersion = 1;
/// Largest magnitude accepted for any scenario number (SI units). Far beyond every physical value
/// in the papers (all below 1e4), small enough that energies cannot overflow.
inline constexpr double kMaxScenarioMagnitude = 1e15;

struct ScenarioResult {
  std::optional<Scenario> scenario;
  std::string error;  ///< one line, starts with the source name
  bool ok() const { return scenario.has_value(); }
};

/// Builds a Scenario from a parsed document; `source` (a file name) prefixes messages. Mesh files
/// of a "body" are named relative to `baseDirectory` (empty: the working directory).
ScenarioResult scenarioFromJson(const json::Value& document, std::string_view source,
                                const std::filesystem::path& baseDirectory = {});

/// parse() then scenarioFromJson().
ScenarioResult parseScenario(std::string_view text, std::string_view source,
                             const std::filesystem::path& baseDirectory = {});

/// Reads (at most json::kMaxFileBytes) and parses a scenario file; messages start with the path.
/// Mesh files are named relative to the file's folder.
ScenarioResult loadScenario(const std::filesystem::path& path);

/// What `ricochet-cli run TARGET` starts from: the defaults of the system with id `target`, else
/// the scenario file at that path. A target that is neither a system id nor an existing file (nor
/// ends in ".json", whose load then names the file) is "unknown system 'TARGET' (try
/// `ricochet-cli list`)".
ScenarioResult scenarioFromTarget(const std::string& target);

/// The contract document for `scenario`, keys in a stable order, every value written (shortest
/// round-trip numbers, so load(save(s)) == s exactly). Parameter names come from the registry;
/// `scenario` must belong to a registered system with vectors of the right sizes. Mesh files
/// are written relative to `baseDirectory` (empty: the working directory), the folder of the
/// file the document goes to.
json::Value scenarioToJson(const Scenario& scenario, const std::filesystem::path& baseDirectory = {});

/// scenarioToJson() as text (2-space indent, trailing newline).
std::string scenarioToText(const Scenario& scenario, const std::filesystem::path& baseDirectory = {});

/// Validates (validateScenario) and writes `scenario` atomically (temporary file, then rename),
/// mesh files named relative to the file's folder. Empty on success, otherwise one line.
std::string saveScenario(const std::filesystem::path& path, const Scenario& scenario);

/// Sets the parameter or initial condition `name` (as listed by `describe`; "parameters.NAME" and
/// "initial.NAME" are accepted too) to `value`. Empty on success, otherwise one line naming the
/// value (unknown name, ambiguous name, |value| > kMaxScenarioMagnitude). Range checks are left to
/// validateScenario(), which names the value in the same way.
std::string setScenarioValue(Scenario& scenario, std::string_view name, double value);

/// True when a == b exactly (bitwise-equal numbers, same names, the same body and world).
bool sameScenario(const Scenario& a, const Scenario& b);

}  // namespace ricochet::io
