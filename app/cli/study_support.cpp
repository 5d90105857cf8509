#include "app/cli/study_support.hpp"

#include "app/cli/cli_commands.hpp"
#include "core/model/parameter.hpp"

#include <cmath>
#include <cstdio>

namespace ricochet::cli {

namespace {

std::string duration(double seconds) {
  char buf[64];
  if (!(seconds < 1e9)) return "?";
  if (seconds < 60.0) std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  else if (seconds < 3600.0) std::snprintf(buf, sizeof buf, "%dm%02ds", int(seconds) / 60, int(seconds) % 60);
  else std::snprintf(buf, sizeof buf, "%dh%02dm", int(seconds) / 3600, int(seconds) % 3600 / 60);
  return buf;
}

}  // namespace

study::RunnerOptions StudyRunSettings::runnerOptions() const {
  study::RunnerOptions o;
  o.jobs = jobs;
  o.shardIndex = shardIndex;
  o.shardCount = shardCount;
  if (!quiet) {
    o.onProgress = [](const study::Progress& p) {
      std::fprintf(stderr, "study: %lld/%lld runs, %.3g runs/s, ETA %s\n", static_cast<long long>(p.done),
                   static_cast<long long>(p.total), p.runsPerSecond,
                   p.done >= p.total ? "0 s" : p.done == 0 ? "?" : duration(p.etaSeconds).c_str());
    };
  }
  return o;
}

std::string parseStudyRunSettings(const ParsedArgs& a, StudyRunSettings& s) {
  if (const auto v = a.value("--jobs")) {
    const auto n = parseInteger(*v);
    if (!n || *n < 1 || *n > 4096) return "--jobs '" + *v + "' is invalid: must be an integer in [1, 4096]";
    s.jobs = static_cast<int>(*n);
  }
  if (const auto v = a.value("--shard")) {
    const auto slash = v->find('/');
    const auto k = slash == std::string::npos ? std::nullopt : parseInteger(v->substr(0, slash));
    const auto n = slash == std::string::npos ? std::nullopt : parseInteger(v->substr(slash + 1));
    if (!k || !n || *n < 1 || *n > 1000000 || *k < 1 || *k > *n) {
      return "--shard '" + *v + "' is invalid: must be K/N with 1 <= K <= N (the K-th of N slices)";
    }
    s.shardIndex = static_cast<int>(*k - 1);
    s.shardCount = static_cast<int>(*n);
  }
  s.quiet = a.has("--quiet");
  return {};
}

std::string StudyOutput::open(const std::string& resultsPath, const std::optional<std::string>& summaryPath) {
  if (std::string e = results.open(resultsPath); !e.empty()) return e;
  if (summaryPath) return summary.open(*summaryPath);
  return {};
}

std::string StudyOutput::commitSummary(const json::Value& value) {
  if (!summary.isOpen()) return {};
  std::string e = summary.write(json::write(value, 2));
  if (e.empty()) e = summary.commit();
  return e;
}

json::Value studySummaryJson(const std::string& source, const study::StudyPlan& plan,
                             const StudyRunSettings& settings, const study::RunnerOutcome& outcome) {
  json::Value o = json::Value::object();
  o.add("study", json::Value::string(source));
  o.add("runs", json::Value::number(static_cast<double>(plan.runs)));
  o.add("shard", json::Value::string(std::to_string(settings.shardIndex + 1) + "/" + std::to_string(settings.shardCount)));
  o.add("runs_in_shard", json::Value::number(static_cast<double>(study::shardSize(plan.runs, settings.shardIndex, settings.shardCount))));
  o.add("jobs", json::Value::number(outcome.jobs));
  o.add("rows", json::Value::number(static_cast<double>(outcome.rows)));
  o.add("failed", json::Value::number(static_cast<double>(outcome.failed)));
  json::Value statuses = json::Value::object();
  for (const auto& [status, n] : outcome.statuses) statuses.add(status, json::Value::number(static_cast<double>(n)));
  o.add("statuses", std::move(statuses));
  o.add("wall_seconds", json::Value::number(outcome.wallSeconds));
  o.add("runs_per_second", json::Value::number(outcome.wallSeconds > 0 ? outcome.rows / outcome.wallSeconds : 0.0));
  o.add("mean_run_seconds", json::Value::number(outcome.rows > 0 ? outcome.runSeconds / outcome.rows : 0.0));
  o.add("status", json::Value::string("ok"));
  return o;
}

std::string studySummaryLine(const study::StudyPlan& plan, const StudyRunSettings& settings,
                             const study::RunnerOutcome& outcome, const std::string& out) {
  std::string failed;
  for (const auto& [status, n] : outcome.statuses) {
    if (status == "ok") continue;
    failed += (failed.empty() ? " (" : ", ") + std::to_string(n) + " " + status;
  }
  if (!failed.empty()) failed += ")";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%lld runs%s, %lld failed%s, in %.3g s on %d jobs (%.3g runs/s) -> ",
                static_cast<long long>(outcome.rows),
                settings.shardCount > 1
                    ? (" of " + std::to_string(plan.runs) + " (shard " + std::to_string(settings.shardIndex + 1) + "/" +
                       std::to_string(settings.shardCount) + ")").c_str()
                    : "",
                static_cast<long long>(outcome.failed), failed.c_str(), outcome.wallSeconds, outcome.jobs,
                outcome.wallSeconds > 0 ? outcome.rows / outcome.wallSeconds : 0.0);
  return "study: " + std::string(buf) + out;
}

}  // namespace ricochet::cli
