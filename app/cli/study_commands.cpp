// ricochet-cli study: runs a study file on all cores (or one shard of it) and writes the results
// CSV; `study merge` joins the shards' files. The study itself lives in core/study.

#include "app/cli/cli_commands.hpp"
#include "app/cli/interrupt.hpp"
#include "app/cli/study_support.hpp"

#include "core/io/atomic_file.hpp"
#include "core/io/json.hpp"
#include "core/model/parameter.hpp"
#include "core/study/merge.hpp"
#include "core/study/runner.hpp"
#include "core/study/study_file.hpp"

#include <cstdio>
#include <filesystem>

namespace ricochet::cli {

namespace {

constexpr const char* kStudyUsage =
    "ricochet-cli study STUDY.json --out RESULTS.csv [--jobs N] [--shard K/N] [--summary-json FILE] [--quiet]\n"
    "ricochet-cli study merge --out RESULTS.csv [--study STUDY.json] SHARD.csv...\n";

int mergeCommand(const std::vector<std::string>& args) {
  const ParsedArgs a = parseArgs(args, {{"--out", true, false}, {"--study", true, false}, {"--help", false, false}},
                                 "study merge");
  if (!a.error.empty()) return badInput(a.error);
  if (a.has("--help")) {
    print(kStudyUsage);
    return kExitOk;
  }
  const auto out = a.value("--out");
  if (!out) return badInput("'study merge' needs --out RESULTS.csv");
  if (a.positionals.empty()) return badInput("'study merge' needs the shards' results files");
  std::vector<std::filesystem::path> shards;
  for (const std::string& p : a.positionals) {
    if (io::sameOutput(p, *out)) {
      return badInput("--out '" + *out + "' is also one of the shards");
    }
    shards.emplace_back(p);
  }
  study::PlanResult planned;
  if (const auto studyPath = a.value("--study")) {
    planned = study::loadPlan(*studyPath);
    if (!planned.ok()) return badInput(planned.error);
  }
  const study::StudyPlan* plan = planned.ok() ? &*planned.plan : nullptr;
  if (std::string e = study::mergeShards(shards, *out, plan, interruptFlag()); !e.empty()) {
    if (interrupted()) return interruptedExit(e + "; no file written");
    return badInput(e);
  }
  return kExitOk;
}

}  // namespace

int studyCommand(const std::vector<std::string>& args) {
  if (!args.empty() && args.front() == "merge") return mergeCommand({args.begin() + 1, args.end()});
  const ParsedArgs a = parseArgs(args,
                                 {{"--out", true, false},
                                  {"--jobs", true, false},
                                  {"--shard", true, false},
                                  {"--summary-json", true, false},
                                  {"--quiet", false, false},
                                  {"--help", false, false}},
                                 "study");
  if (!a.error.empty()) return badInput(a.error);
  if (a.has("--help")) {
    print(kStudyUsage);
    return kExitOk;
  }
  if (a.positionals.size() != 1) return badInput("'study' needs one STUDY.json (or 'study merge ...')");
  const auto out = a.value("--out");
  if (!out) return badInput("'study' needs --out RESULTS.csv");
  StudyRunSettings settings;
  if (std::string e = parseStudyRunSettings(a, settings); !e.empty()) return badInput(e);
  if (const auto summary = a.value("--summary-json"); summary && io::sameOutput(*summary, *out)) {
    return badInput("--out and --summary-json name the same file '" + *out + "'");
  }

  study::PlanResult planned = study::loadPlan(a.positionals.front());
  if (!planned.ok()) return badInput(planned.error);
  const study::StudyPlan& plan = *planned.plan;
  StudyOutput output;
  if (std::string e = output.open(*out, a.value("--summary-json")); !e.empty()) return badInput(e);
  if (std::string e = study::checkRuns(plan, settings.jobs, interruptFlag()); !e.empty())
    return badInput(e);
  if (interruptFlag()->load()) return interruptedExit("before any run; no file written");

  // A shard's file says whose shard it is (study merge checks it); a whole study's does not.
  std::string buffer = a.has("--shard")
                           ? study::shardLine(plan, settings.shardIndex, settings.shardCount)
                           : std::string();
  buffer += study::resultsHeader(plan);
  std::string ioError;
  study::RunnerOptions options = settings.runnerOptions();
  options.cancel = interruptFlag();
  options.onRow = [&](const study::RunResult& row) {
    study::appendResultRow(buffer, plan, row);
    if (buffer.size() >= (std::size_t(1) << 20) && ioError.empty()) {
      ioError = output.results.write(buffer);
      buffer.clear();
    }
  };
  const study::RunnerOutcome outcome = study::runStudy(plan, options);
  if (outcome.cancelled)
    return interruptedExit(std::to_string(outcome.rows) + " of the runs done; no file written");
  if (ioError.empty()) ioError = output.results.write(buffer);
  if (ioError.empty()) ioError = output.results.commit();
  if (!ioError.empty()) return badInput(ioError);

  json::Value summary = studySummaryJson(a.positionals.front(), plan, settings, outcome);
  if (std::string e = output.commitSummary(summary); !e.empty()) return badInput(e);
  printReport(a, {"--out", "--summary-json"},
              studySummaryLine(plan, settings, outcome, *out) + "\n");
  return kExitOk;
}

}  // namespace ricochet::cli
