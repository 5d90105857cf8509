// ricochet-restitution-bench: the long campaign of restitution and settling (docs/restitution.md)
// on the planar and nonholonomic systems. For each system and integrator that takes restitution,
// --seeds runs with e drawn in [0.3, 0.95] and random drops (heights, velocities, spins, headings),
// each --t-end seconds of its default h. Prints, per system and integrator: runs, failures (with
// the first message), runs settled at the end, impacts, the worst energy balance
// |E + dissipated - E0| / E0, the median settling time and the throughput. Prints figures only;
// never asserts (bench/README.md). The CTest suites run a shorter campaign.

#include "core/io/scenario_io.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace ricochet;
using Clock = std::chrono::steady_clock;

namespace {

struct Case {
  const char* system;
  const char* integrator;
};

/// A random drop of `system` (the ranges of the CTest campaigns, wider spins).
std::map<std::string, double> draw(const std::string& system, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::map<std::string, double> set = {{"restitution", 0.3 + 0.65 * unit(rng)}};
  if (system == "particle-floor" || system == "star-floor" || system == "ellipse-floor") {
    set["y0"] = 2.0 + 4.0 * unit(rng);
    set["vx0"] = -4.0 + 8.0 * unit(rng);
    set["vy0"] = -3.0 + 6.0 * unit(rng);
    if (system != "particle-floor") {
      set["theta0"] = 2.0 * std::numbers::pi * unit(rng);
      set["omega0"] = -10.0 + 20.0 * unit(rng);
    }
  } else if (system == "pendulum-cylinder") {
    const bool upper = unit(rng) < 0.5;
    set["theta0"] = upper ? 0.84 * unit(rng) : std::numbers::pi - 0.84 * unit(rng);
    set["thetadot0"] = -4.0 + 8.0 * unit(rng);
  } else {  // disks
    set["x0"] = -2.0 + 4.0 * unit(rng);
    set["y0"] = -2.0 + 4.0 * unit(rng);
    set["phi0"] = 2.0 * std::numbers::pi * unit(rng);
    set["u0"] = -3.0 + 6.0 * unit(rng);
    set["w0"] = -1.0 + 2.0 * unit(rng);
  }
  return set;
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 50;
  double tEnd = 2000.0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seeds") && i + 1 < argc) {
      seeds = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--t-end") && i + 1 < argc) {
      tEnd = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: ricochet-restitution-bench [--seeds N] [--t-end T]\n");
      return 2;
    }
  }
  const Case cases[] = {
      {"particle-floor", "variational"}, {"particle-floor", "rk4-event"},
      {"star-floor", "variational"},     {"star-floor", "rk4-event"},
      {"ellipse-floor", "variational"},  {"ellipse-floor", "rk4-event"},
      {"ellipse-floor", "ldap"},         {"pendulum-cylinder", "variational"},
      {"pendulum-cylinder", "variational-midpoint"},
      {"disk-wall", "variational"},      {"disk-wall", "reduced"},
      {"disk-table", "variational"},     {"disk-table", "reduced"},
  };
  std::printf("restitution campaign: %d seeds per case, e in [0.3, 0.95], t_end %g s\n", seeds,
              tEnd);
  std::printf("%-18s %-21s %5s %6s %8s %9s %12s %10s %11s\n", "system", "integrator", "runs",
              "failed", "settled", "impacts", "max|E+D-E0|", "median ts", "steps/s");
  for (const Case& c : cases) {
    std::mt19937_64 rng(std::hash<std::string>{}(std::string(c.system) + c.integrator));
    int failed = 0, settled = 0;
    long long impacts = 0, steps = 0;
    double worst = 0.0, seconds = 0.0;
    std::vector<double> settleTimes;
    std::string firstFailure;
    for (int k = 0; k < seeds; ++k) {
      Scenario sc = defaultScenario(*findSystem(c.system));
      sc.integrator.name = c.integrator;
      sc.tEnd = tEnd;
      for (const auto& [name, value] : draw(c.system, rng)) {
        if (std::string e = io::setScenarioValue(sc, name, value); !e.empty()) {
          std::fprintf(stderr, "%s\n", e.c_str());
          return 1;
        }
      }
      CreateResult cr = createSimulation(sc);
      if (!cr.simulation) {
        ++failed;
        if (firstFailure.empty()) firstFailure = cr.error;
        continue;
      }
      const auto start = Clock::now();
      const io::RunSummary s = io::runSimulation(*cr.simulation, sc, io::RunOptions{});
      seconds += std::chrono::duration<double>(Clock::now() - start).count();
      steps += s.steps;
      impacts += s.impacts;
      if (!s.ok()) {
        ++failed;
        if (firstFailure.empty()) firstFailure = s.message;
        continue;
      }
      const double scale = std::max(std::fabs(s.energyInitial), 1e-300);
      worst = std::max(worst, std::fabs(s.energyFinal + s.energyDissipated - s.energyInitial) / scale);
      if (!std::isnan(s.settledTime)) {
        ++settled;
        settleTimes.push_back(s.settledTime);
      }
    }
    double median = std::numeric_limits<double>::quiet_NaN();
    if (!settleTimes.empty()) {
      std::sort(settleTimes.begin(), settleTimes.end());
      median = settleTimes[settleTimes.size() / 2];
    }
    std::printf("%-18s %-21s %5d %6d %8d %9lld %12.2e %10.3g %11.3g\n", c.system, c.integrator,
                seeds, failed, settled, impacts, worst, median,
                seconds > 0.0 ? static_cast<double>(steps) / seconds : 0.0);
    if (!firstFailure.empty()) std::printf("    first failure: %s\n", firstFailure.c_str());
  }
  return 0;
}
