// ricochet-bench: speed, impact-step cost, memory and heap allocations of the registered systems,
// printed beside the project's targets. Prints figures only; never asserts (bench/README.md).
//
// Figures, per system and integrator, each from the system's default scenario (the paper's):
//  * throughput: Simulation::advance(N, nullptr) on a fresh simulation, N chosen so that one run
//    takes about --seconds; the median over --runs (>= 5) runs gives steps/s and ns/step. No trace.
//  * impact step cost, in smooth steps. Timing single advance(1) calls at ~20 ns/step is dominated
//    by the clock (~20 ns per read) and the call itself, so the per-call medians are only used as
//    a DIFFERENCE, in which both overheads cancel:
//        extra = median(t of calls whose impactCount changed) - median(t of the other calls)
//    The unit is the smooth-step cost of the bulk run, without timer or per-call overhead. The bulk
//    cost per step is c_s + f * extra, with f the fraction of steps that contain an impact, so
//        c_s = bulk_ns_per_step - f * extra,   impact step = (c_s + extra) / c_s  smooth steps.
//    Medians keep interrupts and page faults out. The timer overhead is printed for reference.
//  * memory: resident set after a run of N steps and after 10x as many (same simulation, no trace):
//    the step loop must not grow memory. Peak RSS of the whole process at the end.
//  * allocations: a counting global operator new and malloc family (alloc_counter.hpp) around
//    every timed advance() call; the target is 0.

#include "bench/alloc_counter.hpp"
#include "core/model/registry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace ricochet;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  std::vector<std::string> systems;  ///< empty: all
  int runs = 5;
  std::int64_t steps = 0;   ///< steps per throughput run; 0: from `seconds`
  double seconds = 0.25;    ///< target duration of one throughput run
  int impactSamples = 300;  ///< impact steps to time for the impact-cost figure
  std::int64_t maxProbeSteps = 3'000'000;
  bool allIntegrators = false;
};

struct Target {
  double minStepsPerSecond = 0.0;  ///< 0: none given
  double aimStepsPerSecond = 0.0;
};

/// The project's throughput targets (bench/README.md).
Target targetFor(const std::string& id) {
  if (id == "particle-floor") return {2e7, 5e7};
  if (id == "star-floor" || id == "ellipse-floor") return {1e7, 0.0};
  if (id == "ellipsoid-plane" || id == "ellipsoid-tilted" || id == "ellipsoids-union" || id == "cube-plane") {
    return {2e6, 5e6};
  }
  return {};
}
constexpr double kImpactTargetSmoothSteps = 20.0;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  const std::size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m), v.end());
  double x = v[m];
  if (v.size() % 2 == 0) x = 0.5 * (x + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m)));
  return x;
}

/// A "VmXXX:   1234 kB" field of /proc/self/status, kB (VmRSS: now, VmHWM: peak).
long statusKb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::size_t n = std::strlen(field);
  while (std::getline(in, line)) {
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') return std::atol(line.c_str() + n + 1);
  }
  return -1;
}
long residentKb() { return statusKb("VmRSS"); }
long peakResidentKb() { return statusKb("VmHWM"); }

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  }
  return "unknown CPU";
}

struct Figures {
  bool ok = true;
  std::string failure;
  double nsPerStep = 0.0, stepsPerSecond = 0.0, spreadPercent = 0.0;
  std::int64_t stepsPerRun = 0;
  double impactSmoothSteps = std::nan("");
  int impactStepsTimed = 0;
  std::int64_t allocations = 0;
  long rssShortKb = 0, rssLongKb = 0;
};

std::unique_ptr<Simulation> create(const Scenario& sc, std::string& error) {
  CreateResult cr = createSimulation(sc);
  if (!cr.simulation) error = cr.error;
  return std::move(cr.simulation);
}

/// Runs advance(n) on a fresh simulation: wall time, allocations counted inside advance. On an
/// integrator failure returns false with the message and the steps taken before it.
bool timedRun(const Scenario& sc, std::int64_t n, double& secondsOut, std::int64_t& allocations, std::string& error,
              std::int64_t& stepsTaken) {
  auto sim = create(sc, error);
  if (!sim) {
    stepsTaken = 0;
    return false;
  }
  AdvanceResult r;
  Clock::time_point t0, t1;
  {
    alloc_counter::AllocationScope scope;
    t0 = Clock::now();
    r = sim->advance(n, nullptr);
    t1 = Clock::now();
    // A failing step may build its message string: allocation on the failure path is allowed.
    if (r.ok()) allocations += scope.count();
  }
  secondsOut = seconds(t1 - t0);
  stepsTaken = r.stepsTaken;
  if (!r.ok()) error = r.message;
  return r.ok();
}

double timerOverheadNs() {
  std::vector<double> d(200000);
  for (double& x : d) {
    const auto a = Clock::now();
    const auto b = Clock::now();
    x = std::chrono::duration<double, std::nano>(b - a).count();
  }
  return median(std::move(d));
}

Figures measure(const Scenario& sc, const Options& o) {
  Figures f;
  // Throughput. Calibrate N on a short run, then `runs` runs of N steps. A run that fails (the
  // integrator reports an error) is reported, and the runs are shortened to stay before it, so the
  // other figures can still be measured.
  std::int64_t taken = 0;
  const auto shortenBeforeFailure = [&](std::int64_t& steps) {
    f.failure = "runs shortened: step " + std::to_string(taken + 1) + " fails: " + f.failure;
    steps = taken * 9 / 10;
    return steps >= 1000;
  };
  std::int64_t n = o.steps;
  if (n <= 0) {
    double s = 0.0;
    std::int64_t probe = 2000;
    while (true) {
      if (!timedRun(sc, probe, s, f.allocations, f.failure, taken)) {
        f.ok = false;
        return f;
      }
      if (s > 0.02 || probe >= 1'000'000) break;
      probe *= 4;
    }
    n = std::clamp<std::int64_t>(static_cast<std::int64_t>(o.seconds / (s / static_cast<double>(probe))), 10'000,
                                 200'000'000);
  }
  std::vector<double> perStep;
  while (static_cast<int>(perStep.size()) < o.runs) {
    double s = 0.0;
    if (!timedRun(sc, n, s, f.allocations, f.failure, taken)) {
      if (!shortenBeforeFailure(n)) {
        f.ok = false;
        return f;
      }
      perStep.clear();  // all runs with the same N
      continue;
    }
    perStep.push_back(s / static_cast<double>(n) * 1e9);
  }
  f.stepsPerRun = n;
  f.nsPerStep = median(perStep);
  f.stepsPerSecond = 1e9 / f.nsPerStep;
  const auto [lo, hi] = std::minmax_element(perStep.begin(), perStep.end());
  f.spreadPercent = 100.0 * (*hi - *lo) / f.nsPerStep;

  // Impact step cost: single advance(1) calls, classified by whether impactCount changed.
  {
    auto sim = create(sc, f.failure);
    if (!sim) {
      f.ok = false;
      return f;
    }
    std::vector<double> smooth, impact;
    smooth.reserve(static_cast<std::size_t>(o.maxProbeSteps));
    impact.reserve(static_cast<std::size_t>(o.impactSamples) + 16);
    AdvanceResult failed;  // moved out of the loop so that no string is copied while counting
    {
      alloc_counter::AllocationScope scope;
      for (std::int64_t i = 0; i < o.maxProbeSteps && static_cast<int>(impact.size()) < o.impactSamples; ++i) {
        const std::int64_t before = sim->impactCount();
        const auto t0 = Clock::now();
        AdvanceResult r = sim->advance(1, nullptr);
        const auto t1 = Clock::now();
        if (!r.ok()) {
          failed = std::move(r);
          break;
        }
        const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
        (sim->impactCount() != before ? impact : smooth).push_back(ns);
      }
      f.allocations += scope.count();
    }
    if (!failed.ok() && f.failure.empty()) f.failure = "impact timing stopped: " + failed.message;
    f.impactStepsTimed = static_cast<int>(impact.size());
    if (!impact.empty() && !smooth.empty()) {
      const double extra = median(impact) - median(smooth);
      const double fraction = static_cast<double>(impact.size()) / static_cast<double>(impact.size() + smooth.size());
      const double smoothNs = f.nsPerStep - fraction * extra;
      if (smoothNs > 0.0) f.impactSmoothSteps = (smoothNs + extra) / smoothNs;
    }
  }

  // Memory: RSS after N steps and after 10 N steps on one simulation (no trace recorded).
  {
    auto sim = create(sc, f.failure);
    if (!sim) {
      f.ok = false;
      return f;
    }
    const std::int64_t shortRun = std::max<std::int64_t>(n / 10, 10'000);
    std::int64_t allocations[2] = {};
    {
      alloc_counter::AllocationScope scope;
      sim->advance(shortRun, nullptr);
      allocations[0] = scope.count();
    }
    f.rssShortKb = residentKb();  // reading /proc allocates: outside the counted scopes
    {
      alloc_counter::AllocationScope scope;
      sim->advance(9 * shortRun, nullptr);
      allocations[1] = scope.count();
    }
    f.rssLongKb = residentKb();
    f.allocations += allocations[0] + allocations[1];
  }
  return f;
}

std::string fmtRate(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", x);
  return b;
}

void printUsage() {
  std::puts(
      "ricochet-bench [--systems ID,ID...] [--runs R] [--steps N | --seconds S] [--impacts K]\n"
      "               [--all-integrators]\n"
      "  --systems       only these system ids (default: every registered system)\n"
      "  --runs R        throughput runs per system, median reported (default 5, at least 5)\n"
      "  --steps N       steps per throughput run (default: about --seconds of work)\n"
      "  --seconds S     target duration of one throughput run (default 0.25)\n"
      "  --impacts K     impact steps to time for the impact-cost figure (default 300)\n"
      "  --all-integrators  also the baselines (e.g. rk4-event), not only the default integrator\n"
      "See bench/README.md for what each figure means.");
}

bool parseOptions(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--help" || a == "-h") {
      printUsage();
      std::exit(0);
    } else if (a == "--systems") {
      const char* v = next();
      if (!v) return false;
      std::string list = v;
      std::size_t start = 0;
      while (start <= list.size()) {
        const std::size_t comma = list.find(',', start);
        const std::string id = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!id.empty()) o.systems.push_back(id);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else if (a == "--runs") {
      const char* v = next();
      if (!v) return false;
      o.runs = std::max(5, std::atoi(v));
    } else if (a == "--steps") {
      const char* v = next();
      if (!v) return false;
      o.steps = std::atoll(v);
    } else if (a == "--seconds") {
      const char* v = next();
      if (!v) return false;
      o.seconds = std::atof(v);
    } else if (a == "--impacts") {
      const char* v = next();
      if (!v) return false;
      o.impactSamples = std::max(1, std::atoi(v));
    } else if (a == "--all-integrators") {
      o.allIntegrators = true;
    } else {
      std::fprintf(stderr, "ricochet-bench: unknown option '%s' (see --help)\n", a.c_str());
      return false;
    }
  }
  return o.seconds > 0.0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parseOptions(argc, argv, o)) return 2;
  for (const std::string& id : o.systems) {
    if (!findSystem(id)) {
      std::fprintf(stderr, "ricochet-bench: unknown system '%s'\n", id.c_str());
      return 2;
    }
  }
#ifdef NDEBUG
  const char* build = "optimised (NDEBUG)";
#else
  const char* build = "NOT optimised (no NDEBUG): figures are meaningless, build Release";
#endif
  std::printf("ricochet-bench on %s, %ld CPUs, %s build, allocation counter %s\n", cpuModel().c_str(),
              sysconf(_SC_NPROCESSORS_ONLN), build, RICOCHET_ALLOC_COUNTER_AVAILABLE ? "on" : "OFF");
  std::printf("timer overhead (median of back-to-back steady_clock::now()): %.1f ns\n", timerOverheadNs());
  std::printf("median of %d runs; the project's targets in brackets; "
              "impact step in smooth steps (target < %g)\n\n",
              o.runs, kImpactTargetSmoothSteps);
  std::printf("%-18s %-12s %11s %9s %-22s %6s %9s %-8s %6s %-7s %s\n", "system", "integrator", "steps/s", "ns/step",
              "[target]", "spread", "impact", "[<20]", "allocs", "[0]", "RSS kB (N -> 10N steps)");

  for (const SystemDescription* system : systems()) {
    const SystemInfo& info = system->info();
    if (!o.systems.empty() && std::find(o.systems.begin(), o.systems.end(), info.id) == o.systems.end()) continue;
    for (std::size_t k = 0; k < info.integrators.size() && (k == 0 || o.allIntegrators); ++k) {
      Scenario sc = defaultScenario(*system);
      sc.integrator.name = info.integrators[k].name;
      const Figures f = measure(sc, o);
      if (!f.ok) {
        std::printf("%-18s %-12s FAILED: %s\n", info.id.c_str(), sc.integrator.name.c_str(), f.failure.c_str());
        continue;
      }
      const Target t = targetFor(info.id);
      std::string target = "-";
      if (t.minStepsPerSecond > 0.0) {
        target = ">= " + fmtRate(t.minStepsPerSecond);
        if (t.aimStepsPerSecond > 0.0) target += " (aim " + fmtRate(t.aimStepsPerSecond) + ")";
        target += f.stepsPerSecond >= t.minStepsPerSecond ? " ok" : " BELOW";
      }
      char impact[32] = "n/a";
      std::string impactVerdict = "no impact";
      if (std::isfinite(f.impactSmoothSteps)) {
        std::snprintf(impact, sizeof impact, "%.1f", f.impactSmoothSteps);
        impactVerdict = f.impactSmoothSteps < kImpactTargetSmoothSteps ? "ok" : "ABOVE";
      }
      std::printf("%-18s %-12s %11s %9.1f %-22s %5.1f%% %9s %-8s %6lld %-7s %ld -> %ld%s\n", info.id.c_str(),
                  sc.integrator.name.c_str(), fmtRate(f.stepsPerSecond).c_str(), f.nsPerStep, target.c_str(),
                  f.spreadPercent, impact, impactVerdict.c_str(), static_cast<long long>(f.allocations),
                  f.allocations == 0 ? "ok" : "NONZERO", f.rssShortKb, f.rssLongKb,
                  f.rssLongKb > f.rssShortKb ? " (grew)" : "");
      std::printf("%-18s %-12s   %lld steps/run, %d impact steps timed%s%s\n", "", "",
                  static_cast<long long>(f.stepsPerRun), f.impactStepsTimed, f.failure.empty() ? "" : "; ",
                  f.failure.c_str());
    }
  }
  std::printf("\npeak RSS of the process: %ld kB\n", peakResidentKb());
  return 0;
}
