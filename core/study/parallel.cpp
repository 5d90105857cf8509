#include "core/study/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace ricochet::study {

int resolveJobs(int jobs) {
  if (jobs >= 1) return jobs;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores >= 1 ? static_cast<int>(cores) : 1;
}

void parallelFor(std::int64_t count, int jobs, const std::function<void(std::int64_t)>& body) {
  if (count <= 0) return;
  const int threads = static_cast<int>(std::min<std::int64_t>(resolveJobs(jobs), count));
  std::atomic<std::int64_t> next{0};
  const auto work = [&] {
    for (std::int64_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) body(i);
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace ricochet::study
