#pragma once
// Runs a planned study on a pool of threads and hands the rows back in run order.
//
// Workers take the next batch of consecutive runs from a shared counter and execute them
// (run.hpp); a batch is sized from the worker's runs' duration (one run when runs take a few
// milliseconds, as many as take about 2 ms when they take microseconds), so that the lock and the
// wake-ups are paid per batch and a study of tiny runs does not slow down with more threads.
// Finished rows wait in a small reorder buffer until every earlier run is done, then onRow()
// receives them in run order, on the calling thread: the rows do not depend on the batches. A
// worker never gets more than `window` runs ahead of the oldest unfinished one, so memory is
// bounded whatever the study's size: a row is a few hundred bytes, and no trace is kept. progress()
// is called on the calling thread as well, so a CLI prints and a window posts from one place.
//
// Shards: shard K of N (0-based here; the CLI's --shard is 1-based) runs K, K + N, K + 2N ...;
// interleaving spreads slow corners of a grid over all shards. The rows of the N shards, merged by
// run (merge.hpp), are the rows of the whole study, byte for byte.

#include "core/study/run.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace ricochet::study {

struct Progress {
  std::int64_t done = 0;    ///< rows handed to onRow so far
  std::int64_t total = 0;   ///< rows this shard will give
  double elapsedSeconds = 0.0;
  double runsPerSecond = 0.0;  ///< done / elapsed
  double etaSeconds = 0.0;     ///< (total - done) / runsPerSecond; 0 before the first row
};

struct RunnerOptions {
  int jobs = 0;  ///< worker threads; 0: all cores
  int shardIndex = 0;
  int shardCount = 1;
  RunExtras extras;
  /// Every row, in run order, on the calling thread. Must not throw (the workers are still
  /// running while it is called); to stop, set `cancel`.
  std::function<void(const RunResult&)> onRow;
  /// On the calling thread, at most every progressInterval seconds, and once at the end.
  std::function<void(const Progress&)> onProgress;
  double progressInterval = 1.0;
  /// Set from anywhere (a signal handler, a Cancel button) to stop: running runs stop within
  /// 4096 steps, no further row is handed out.
  const std::atomic<bool>* cancel = nullptr;
  std::int64_t window = 0;  ///< reorder window in runs; 0: 64 per worker, at least 256
};

struct RunnerOutcome {
  bool cancelled = false;
  std::int64_t rows = 0;    ///< rows handed to onRow
  std::int64_t failed = 0;  ///< rows whose status is not "ok"
  std::map<std::string, std::int64_t> statuses;  ///< rows per status
  double wallSeconds = 0.0;
  double runSeconds = 0.0;  ///< sum of the runs' own wall times (over all workers)
  int jobs = 1;
};

/// Number of runs in shard `index` of `count`.
std::int64_t shardSize(std::int64_t runs, int index, int count);

/// Runs the shard's runs of `plan` (checkRuns() should have passed). Returns when every row has
/// been handed out, or after a cancel.
RunnerOutcome runStudy(const StudyPlan& plan, const RunnerOptions& options);

}  // namespace ricochet::study
