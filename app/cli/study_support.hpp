#pragma once
// What the study commands of ricochet-cli share: --jobs / --shard / --quiet, progress lines on
// stderr, the output files and the summary JSON. Ctrl-C and a scheduler's SIGTERM set the flag of
// interrupt.hpp, which the runner polls; the commands then leave no file behind.

#include "app/cli/cli_args.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/json.hpp"
#include "core/study/runner.hpp"

#include <optional>
#include <string>

namespace ricochet::cli {

struct StudyRunSettings {
  int jobs = 0;  ///< 0: all cores
  int shardIndex = 0, shardCount = 1;  ///< 0-based (--shard K/N is 1-based)
  bool quiet = false;
  /// Runner options with the jobs, the shard and (unless quiet) progress lines on stderr.
  study::RunnerOptions runnerOptions() const;
};

/// Reads --jobs N, --shard K/N (when the command has them) and --quiet. Empty on success, else
/// the one-line message naming the value.
std::string parseStudyRunSettings(const ParsedArgs& a, StudyRunSettings& settings);

/// The results file and the optional summary file, both opened before any run (so a bad path
/// fails at once) and committed at the end; discarded when the object dies uncommitted.
struct StudyOutput {
  io::AtomicFile results;
  io::AtomicFile summary;
  std::string open(const std::string& resultsPath, const std::optional<std::string>& summaryPath);
  std::string commitSummary(const json::Value& value);
};

/// {"study", "runs", "shard", "runs_in_shard", "jobs", "rows", "failed", "statuses",
///  "wall_seconds", "runs_per_second", "mean_run_seconds", "status"}: the timings of a study.
json::Value studySummaryJson(const std::string& source, const study::StudyPlan& plan,
                             const StudyRunSettings& settings, const study::RunnerOutcome& outcome);
/// One line for stdout: runs, failures by status, time, runs/s, the output file.
std::string studySummaryLine(const study::StudyPlan& plan, const StudyRunSettings& settings,
                             const study::RunnerOutcome& outcome, const std::string& out);

}  // namespace ricochet::cli
