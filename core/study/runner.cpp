#include "core/study/runner.hpp"

#include "core/study/parallel.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ricochet::study {

std::int64_t shardSize(std::int64_t runs, int index, int count) {
  if (count < 1 || index < 0 || index >= count || runs <= index) return 0;
  return (runs - index + count - 1) / count;
}

RunnerOutcome runStudy(const StudyPlan& plan, const RunnerOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  RunnerOutcome outcome;
  const std::int64_t total = shardSize(plan.runs, options.shardIndex, options.shardCount);
  const int jobs = static_cast<int>(std::min<std::int64_t>(resolveJobs(options.jobs), std::max<std::int64_t>(total, 1)));
  outcome.jobs = jobs;
  const std::int64_t window = options.window > 0 ? options.window : std::max<std::int64_t>(256, 64 * jobs);
  const auto cancelled = [&] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };
  const auto runOf = [&](std::int64_t j) { return options.shardIndex + j * options.shardCount; };

  std::mutex mutex;
  std::condition_variable readyChanged;  // a row arrived (consumer waits)
  std::condition_variable emittedMoved;  // the window moved (workers wait)
  std::map<std::int64_t, RunResult> ready;  // finished rows waiting for earlier ones, by job index
  std::int64_t emitted = 0;                 // rows handed out so far
  bool stop = false;
  std::atomic<std::int64_t> next{0};
  double runSeconds = 0.0;

  const auto worker = [&] {
    for (;;) {
      const std::int64_t j = next.fetch_add(1);
      if (j >= total) return;
      {
        std::unique_lock lock(mutex);
        emittedMoved.wait(lock, [&] { return stop || j < emitted + window; });
        if (stop) return;
      }
      if (cancelled()) return;
      RunResult r;
      try {
        r = executeRun(plan, runOf(j), options.extras, options.cancel);
      } catch (const std::exception& e) {
        r = RunResult{};
        r.run = runOf(j);
        r.status = "error";
        r.message = e.what();
      }
      {
        std::lock_guard lock(mutex);
        runSeconds += r.wallSeconds;
        ready.emplace(j, std::move(r));
      }
      readyChanged.notify_one();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(jobs));
  for (int t = 0; t < jobs; ++t) pool.emplace_back(worker);

  const auto progress = [&] {
    if (!options.onProgress) return;
    Progress p;
    p.done = outcome.rows;
    p.total = total;
    p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    p.runsPerSecond = p.elapsedSeconds > 0.0 ? static_cast<double>(p.done) / p.elapsedSeconds : 0.0;
    p.etaSeconds = p.runsPerSecond > 0.0 ? static_cast<double>(total - p.done) / p.runsPerSecond : 0.0;
    options.onProgress(p);
  };
  auto lastProgress = Clock::now();
  const auto interval = std::chrono::duration<double>(std::max(0.01, options.progressInterval));
  while (outcome.rows < total) {
    RunResult row;
    {
      std::unique_lock lock(mutex);
      // Wake up now and then even without a row: to notice a cancel and to report progress.
      readyChanged.wait_for(lock, std::chrono::milliseconds(50), [&] { return ready.count(emitted) > 0; });
      if (cancelled()) {
        outcome.cancelled = true;
        break;
      }
      const auto it = ready.find(emitted);
      if (it != ready.end()) {
        row = std::move(it->second);
        ready.erase(it);
        ++emitted;
      } else {
        row.run = -1;
      }
    }
    if (row.run >= 0) {
      emittedMoved.notify_all();
      if (row.status == "cancelled") {  // a run stopped by a cancel that came between the checks
        outcome.cancelled = true;
        break;
      }
      ++outcome.rows;
      ++outcome.statuses[row.status];
      if (!row.ok()) ++outcome.failed;
      if (options.onRow) options.onRow(row);
    }
    if (options.onProgress && Clock::now() - lastProgress >= interval) {
      lastProgress = Clock::now();
      progress();
    }
  }
  {
    std::lock_guard lock(mutex);
    stop = true;
  }
  emittedMoved.notify_all();
  for (std::thread& t : pool) t.join();
  if (!outcome.cancelled) progress();
  outcome.runSeconds = runSeconds;
  outcome.wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
  return outcome;
}

}  // namespace ricochet::study
