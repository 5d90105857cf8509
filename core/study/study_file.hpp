#pragma once
// Study files: the JSON form of a Study (study.hpp), read strictly and written in a stable order.
//
//   {"format": "ricochet-study", "version": 1,
//    "scenario": {"system": "cube-plane", ...} | "relative/path/to/scenario.json",
//    "vary": [{"name": "h", "values": [0.02, 0.01]},
//             {"name": "z0", "linspace": [5, 15, 11]},
//             {"name": "ry0", "normal": [0, 1e-8], "samples": 100}],
//    "combine": "grid" | "zip", "seed": 1, "steps": 100000 | "t_end": 30}
//
// "format", "version" and "scenario" are required. "scenario" is a scenario object (the scenario
// file's keys, "format"/"version" optional; read by io::scenarioFromJson) or the path of a
// scenario file, relative to the study file. A "vary" entry has a "name" and exactly one of
// "values", "linspace", "logspace" ([from, to, count]), "uniform" ([low, high]), "normal"
// ([mean, sd]) or "perturb" ([sd], around the base value), the last three with "samples". "seed"
// is an integer in [0, 2^53] (default 0). "steps" (an integer >= 1) or "t_end" (s) sets every
// run's length; without them each run lasts its scenario's t_end.
//
// Errors are one line naming the key and its position, like scenario files':
//   study.json: line 4, column 13: "vary[1].linspace": count 0 is an empty range: must be >= 1
// Reading a file also plans it (planStudy), so a bad axis or a study of too many runs fails
// here; whether every run can start is checkRuns()'s.

#include "core/io/json.hpp"
#include "core/study/study.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ricochet::study {

inline constexpr const char* kStudyFormat = "ricochet-study";
inline constexpr int kStudyVersion = 1;

struct StudyResult {
  std::optional<Study> study;
  std::string error;  ///< one line, starts with the source name
  bool ok() const { return study.has_value(); }
};

/// Builds a Study from a parsed document. `source` prefixes messages and becomes Study::source;
/// `baseDir` resolves a "scenario" given as a path.
StudyResult studyFromJson(const json::Value& document, std::string_view source,
                          const std::filesystem::path& baseDir);

/// parse() then studyFromJson().
StudyResult parseStudy(std::string_view text, std::string_view source, const std::filesystem::path& baseDir);

/// Reads (at most json::kMaxFileBytes) and parses a study file; messages start with the path.
StudyResult loadStudy(const std::filesystem::path& path);

/// loadStudy() then planStudy(), with the error of either.
PlanResult loadPlan(const std::filesystem::path& path);

/// The file form of `study` (the scenario inline, in canonical form; keys in a stable order), so
/// that studyFromJson(studyToJson(s)) == s.
json::Value studyToJson(const Study& study);

}  // namespace ricochet::study
