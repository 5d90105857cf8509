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

namespace {

/// A batch's target duration: long enough that the lock, the wake-up and the counter are paid once
/// for many tiny runs, short enough that rows, progress and a cancel flow without a visible pause.
constexpr double kBatchSeconds = 2e-3;

}  // namespace

RunnerOutcome runStudy(const StudyPlan& plan, const RunnerOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  RunnerOutcome outcome;
  const std::int64_t total = shardSize(plan.runs, options.shardIndex, options.shardCount);
  const int jobs = static_cast<int>(std::min<std::int64_t>(resolveJobs(options.jobs), std::max<std::int64_t>(total, 1)));
  outcome.jobs = jobs;
  const std::int64_t window = options.window > 0 ? options.window : std::max<std::int64_t>(256, 64 * jobs);
  // Every worker's batch fits in the window with room for the others' (a batch never waits for
  // itself), and batches stay short next to the study (the last ones still spread over all
  // workers).
  const std::int64_t maxBatch =
      std::max<std::int64_t>(1, std::min(window / (2 * jobs), total / (8 * jobs)));
  const auto cancelled = [&] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };
  const auto runOf = [&](std::int64_t j) { return options.shardIndex + j * options.shardCount; };

  std::mutex mutex;
  std::condition_variable readyChanged;  // rows arrived (consumer waits)
  std::condition_variable emittedMoved;  // the window moved (workers wait)
  std::map<std::int64_t, RunResult> ready;  // finished rows waiting for earlier ones, by job index
  std::int64_t emitted = 0;                 // rows handed out so far
  bool stop = false;
  std::atomic<std::int64_t> next{0};
  double runSeconds = 0.0;

  // Each worker takes a batch of consecutive runs at a time, sized from its own runs' duration
  // (one run at a time for long runs, up to maxBatch for runs of microseconds), and hands their
  // rows over together: one lock and one wake-up per batch instead of per run. The rows' order,
  // and so the file, does not depend on the batches.
  const auto worker = [&] {
    std::int64_t batch = 1;
    std::vector<std::pair<std::int64_t, RunResult>> done;
    for (;;) {
      const std::int64_t first = next.fetch_add(batch);
      if (first >= total) return;
      const std::int64_t last = std::min(first + batch, total);  // one past
      {
        std::unique_lock lock(mutex);
        emittedMoved.wait(lock, [&] { return stop || last - 1 < emitted + window; });
        if (stop) return;
      }
      const auto batchStart = Clock::now();
      double seconds = 0.0;
      done.clear();
      for (std::int64_t j = first; j < last; ++j) {
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
        seconds += r.wallSeconds;
        done.emplace_back(j, std::move(r));
      }
      {
        std::lock_guard lock(mutex);
        runSeconds += seconds;
        for (auto& [j, r] : done) ready.emplace(j, std::move(r));
      }
      readyChanged.notify_one();
      const double perRun = std::chrono::duration<double>(Clock::now() - batchStart).count() /
                            static_cast<double>(last - first);
      batch = perRun > 0.0 ? std::clamp<std::int64_t>(
                                 static_cast<std::int64_t>(kBatchSeconds / perRun), 1, maxBatch)
                           : maxBatch;
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
  std::vector<RunResult> rows;  // the rows taken out of `ready` at one wake-up, in run order
  while (outcome.rows < total) {
    rows.clear();
    {
      std::unique_lock lock(mutex);
      // Wake up now and then even without a row: to notice a cancel and to report progress.
      readyChanged.wait_for(lock, std::chrono::milliseconds(50), [&] { return ready.count(emitted) > 0; });
      if (cancelled()) {
        outcome.cancelled = true;
        break;
      }
      for (auto it = ready.find(emitted); it != ready.end() && it->first == emitted;
           it = ready.erase(it)) {
        rows.push_back(std::move(it->second));
        ++emitted;
      }
    }
    if (!rows.empty()) emittedMoved.notify_all();
    for (const RunResult& row : rows) {
      // A run stopped by a cancel that came between the checks, or a cancel asked for while the
      // rows of this wake-up are handed out (by the row callback itself): no row after it.
      if (row.status == "cancelled" || cancelled()) {
        outcome.cancelled = true;
        break;
      }
      ++outcome.rows;
      ++outcome.statuses[row.status];
      if (!row.ok()) ++outcome.failed;
      if (options.onRow) options.onRow(row);
    }
    if (outcome.cancelled) break;
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
