#pragma once
// The thread pool of studies: plain std::threads taking indices from a shared counter, so a slow
// index never holds up the others' threads.

#include <cstdint>
#include <functional>

namespace ricochet::study {

/// `jobs` when >= 1, else the number of cores (std::thread::hardware_concurrency, at least 1).
int resolveJobs(int jobs);

/// Calls body(i) for every i in [0, count) on min(jobs, count) threads (the calling thread is one
/// of them), each thread taking the next index when it is done. Returns when all calls have.
/// `body` must be safe to call concurrently; exceptions must not escape it.
void parallelFor(std::int64_t count, int jobs, const std::function<void(std::int64_t)>& body);

}  // namespace ricochet::study
