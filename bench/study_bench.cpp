// ricochet-study-bench: the cost of studies (core/study), printed beside the project's targets.
// Prints figures only; never asserts (bench/README.md). Everything goes through the code that
// `ricochet-cli study` runs: planStudy, checkRuns, runStudy, rows formatted and written to a file.
//
//  1. speed-up: runs/s of a 200-run SE(3) sweep (ellipsoid-plane, rx0 in [0, 0.5], 10000 steps
//     per run) with --jobs 1 and --jobs 2; best of --repeat. Target: >= 1.8x on 2 cores.
//  2. per-run overhead: the wall time per run of a study of short runs (cube-plane, S steps each,
//     --jobs 1) minus S times the per-step cost of the same driver measured on one long run.
//     Reported for S = 1, 10, 100. Target: < 1 ms.
//  3. memory: the resident set while a study of 1e5 short runs (particle-floor, 20 steps each,
//     all cores) streams its rows to a file: before, at 10 %, 50 % and 100 % of the rows, and the
//     peak. Target: flat, < 100 MB.
//  4. tiny runs: a study of 20,000 one-step runs (particle-floor) with --jobs 1, 2 and 16 (on a
//     machine with fewer cores, 16 is oversubscribed). Target: more threads are never slower than
//     one (the runner hands runs out in batches).

#include "core/io/atomic_file.hpp"
#include "core/study/runner.hpp"
#include "core/study/study_file.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

using namespace ricochet;
using namespace ricochet::study;
using Clock = std::chrono::steady_clock;

namespace {

long statusKb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::size_t n = std::strlen(field);
  while (std::getline(in, line)) {
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') return std::atol(line.c_str() + n + 1);
  }
  return -1;
}

/// User + system CPU time of the whole process, s.
double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

StudyPlan planOf(const std::string& text) {
  StudyResult s = parseStudy(text, "bench", ".");
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.error.c_str());
    std::exit(1);
  }
  PlanResult p = planStudy(std::move(*s.study));
  if (!p.ok()) {
    std::fprintf(stderr, "%s\n", p.error.c_str());
    std::exit(1);
  }
  return std::move(*p.plan);
}

struct Timed {
  double seconds = 0.0;
  std::int64_t rows = 0;
};

/// The CLI's path: check every run, run them, stream the rows to `out` in 1 MiB pieces.
Timed runLikeTheCli(const StudyPlan& plan, int jobs, const std::filesystem::path& out,
                    const std::function<void(std::int64_t)>& afterRow = {}) {
  const auto start = Clock::now();
  if (std::string e = checkRuns(plan, jobs); !e.empty()) {
    std::fprintf(stderr, "%s\n", e.c_str());
    std::exit(1);
  }
  io::AtomicFile file;
  if (std::string e = file.open(out); !e.empty()) {
    std::fprintf(stderr, "%s\n", e.c_str());
    std::exit(1);
  }
  std::string buffer = resultsHeader(plan);
  RunnerOptions o;
  o.jobs = jobs;
  std::int64_t rows = 0;
  o.onRow = [&](const RunResult& r) {
    appendResultRow(buffer, plan, r);
    if (buffer.size() >= (std::size_t(1) << 20)) {
      (void)file.write(buffer);
      buffer.clear();
    }
    ++rows;
    if (afterRow) afterRow(rows);
  };
  runStudy(plan, o);
  (void)file.write(buffer);
  (void)file.commit();
  return {std::chrono::duration<double>(Clock::now() - start).count(), rows};
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  std::int64_t memoryRuns = 100000;
  int only = 0;  // 0: every case
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      only = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--memory-runs") && i + 1 < argc) memoryRuns = std::max(1000L, std::atol(argv[++i]));
    else {
      std::printf("ricochet-study-bench [--repeat R] [--memory-runs N] [--only CASE]\n");
      return std::strcmp(argv[i], "--help") ? 2 : 0;
    }
  }
  const auto dir = std::filesystem::temp_directory_path() / ("ricochet-study-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::printf("ricochet-study-bench: %u cores, best of %d\n\n", std::thread::hardware_concurrency(), repeat);

  // 1. Speed-up of a 200-run SE(3) sweep.
  if (only == 0 || only == 1) {
    const StudyPlan plan = planOf(R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "ellipsoid-plane"},
      "vary": [{"name": "rx0", "linspace": [0, 0.5, 200]}], "steps": 10000})");
    double best[3] = {1e300, 1e300, 1e300}, cpu[3] = {1e300, 1e300, 1e300};
    for (int r = 0; r < repeat; ++r) {
      for (int jobs : {1, 2}) {
        const double c0 = cpuSeconds();
        best[jobs] = std::min(best[jobs], runLikeTheCli(plan, jobs, dir / "sweep.csv").seconds);
        cpu[jobs] = std::min(cpu[jobs], cpuSeconds() - c0);
      }
    }
    std::printf("1. 200-run SE(3) sweep (ellipsoid-plane, 10000 steps per run, 2e6 steps):\n");
    std::printf("   --jobs 1: %.3f s, %.1f runs/s (%.2e steps/s)\n", best[1], 200 / best[1], 2e6 / best[1]);
    std::printf("   --jobs 2: %.3f s, %.1f runs/s (%.2e steps/s)\n", best[2], 200 / best[2], 2e6 / best[2]);
    std::printf("   speed-up %.2fx   [target >= 1.8x]\n", best[1] / best[2]);
    std::printf("   CPU time %.3f s (--jobs 1) vs %.3f s (--jobs 2): equal CPU means the threads do not slow each\n"
                "   other down, and a speed-up below 2x is cores taken by other processes\n\n", cpu[1], cpu[2]);
  }

  // 2. Per-run overhead beyond the run's own steps.
  if (only == 0 || only == 2) {
    const StudyPlan longRun = planOf(R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "cube-plane"}, "steps": 200000})");
    double perStep = 1e300;
    for (int r = 0; r < repeat; ++r) {
      const auto t0 = Clock::now();
      const RunResult res = executeRun(longRun, 0);
      perStep = std::min(perStep, std::chrono::duration<double>(Clock::now() - t0).count() / static_cast<double>(res.steps));
    }
    std::printf("2. per-run overhead (cube-plane, --jobs 1; one step through the driver: %.0f ns):\n", 1e9 * perStep);
    for (int steps : {1, 10, 100}) {
      const StudyPlan plan = planOf(R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "cube-plane"},
        "vary": [{"name": "z0", "linspace": [5, 15, 2000]}], "steps": )" + std::to_string(steps) + "}");
      double best = 1e300;
      for (int r = 0; r < repeat; ++r) best = std::min(best, runLikeTheCli(plan, 1, dir / "overhead.csv").seconds);
      const double perRun = best / 2000.0;
      std::printf("   %3d steps per run: %.1f us per run, of which %.1f us beyond the steps   [target < 1000 us]\n",
                  steps, 1e6 * perRun, 1e6 * (perRun - steps * perStep));
    }
    std::printf("   (includes checking the run before the study, creating its simulation twice, the row and its I/O)\n\n");
  }

  // 3. Memory of a study of 1e5 short runs.
  if (only == 0 || only == 3) {
    const long before = statusKb("VmRSS");
    const StudyPlan plan = planOf(R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "particle-floor"},
      "vary": [{"name": "y0", "uniform": [1, 5], "samples": )" + std::to_string(memoryRuns) + R"(}], "seed": 1, "steps": 20})");
    long at10 = 0, at50 = 0, at100 = 0;
    const Timed t = runLikeTheCli(plan, 0, dir / "memory.csv", [&](std::int64_t rows) {
      if (rows == memoryRuns / 10) at10 = statusKb("VmRSS");
      if (rows == memoryRuns / 2) at50 = statusKb("VmRSS");
      if (rows == memoryRuns) at100 = statusKb("VmRSS");
    });
    std::printf("3. memory, %lld runs of 20 steps (particle-floor, all cores, rows streamed to a %.1f MB file):\n",
                static_cast<long long>(memoryRuns), static_cast<double>(std::filesystem::file_size(dir / "memory.csv")) / 1e6);
    std::printf("   RSS before %ld kB; at 10 %% %ld kB, 50 %% %ld kB, 100 %% %ld kB; peak %ld kB   [target flat, < 100 MB]\n",
                before, at10, at50, at100, statusKb("VmHWM"));
    std::printf("   %.2f s, %.0f runs/s\n", t.seconds, static_cast<double>(t.rows) / t.seconds);
  }

  // 4. Tiny runs: the runner's own cost per run, across thread counts.
  if (only == 0 || only == 4) {
    const StudyPlan plan = planOf(
        R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "particle-floor"},
      "vary": [{"name": "y0", "linspace": [1, 5, 20000]}], "steps": 1})");
    std::printf("\n4. tiny runs: 20000 runs of one step (particle-floor), best of %d:\n", repeat);
    double one = 0.0;
    for (int jobs : {1, 2, 16}) {
      double best = 1e300, cpu = 1e300;
      for (int r = 0; r < repeat; ++r) {
        const double c0 = cpuSeconds();
        best = std::min(best, runLikeTheCli(plan, jobs, dir / "tiny.csv").seconds);
        cpu = std::min(cpu, cpuSeconds() - c0);
      }
      if (jobs == 1) one = best;
      std::printf(
          "   --jobs %2d: %.3f s (%.1f us per run), %.2fx the time of --jobs 1; CPU time %.3f "
          "s%s\n",
          jobs, best, 1e6 * best / 20000.0, best / one, cpu,
          jobs > static_cast<int>(std::thread::hardware_concurrency()) ? " (oversubscribed)" : "");
    }
    std::printf(
        "   [target: no thread count slower than --jobs 1; the CPU time says what the threads "
        "cost\n"
        "    whatever else runs on the machine]\n");
  }
  std::filesystem::remove_all(dir);
  return 0;
}
