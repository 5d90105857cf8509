// ricochet-body-campaign: long runs of random user bodies (`rigid-body`), the campaign behind
// README "Reliability": hulls of 8 to 60 points, boxes and ellipsoids of random sizes, over the
// ground alone or in a box of walls, thrown lively or gently, with the default time step.
//
//   ricochet-body-campaign [--runs N] [--steps S] [--seed K] [--threads T]
//                          [--restitution LO:HI]   (default elastic; e.g. 0.3:0.95)
//                          [--kinds hull,box,ellipsoid] [--worlds ground,walls]
//
// Prints one line per failed run (its scenario's numbers, enough to replay it) and a summary:
// runs, failures by message, the largest energy error (elastic) or energy + dissipated error
// (restitution), how many runs ended settled, steps per second. Deterministic for a seed.

#include "bench/body_campaign.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace ricochet;
using Vec3 = Eigen::Vector3d;

using namespace ricochet::campaign;

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "ricochet-body-campaign: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--runs") o.runs = std::atoi(next().c_str());
    else if (a == "--steps") o.steps = std::atoll(next().c_str());
    else if (a == "--seed") o.seed = unsigned(std::atoi(next().c_str()));
    else if (a == "--threads") o.threads = std::max(1, std::atoi(next().c_str()));
    else if (a == "--kinds") o.kinds = split(next());
    else if (a == "--worlds") o.worlds = split(next());
    else if (a == "--restitution") {
      const std::string v = next();
      const auto colon = v.find(':');
      o.eLo = std::atof(v.substr(0, colon).c_str());
      o.eHi = colon == std::string::npos ? o.eLo : std::atof(v.substr(colon + 1).c_str());
    } else {
      std::fprintf(stderr, "ricochet-body-campaign: unknown option '%s'\n", a.c_str());
      return 2;
    }
  }
  const std::vector<Case> cases = makeCases(o);
  std::vector<Outcome> outcomes(cases.size());
  std::atomic<std::size_t> next{0};
  std::mutex print;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < o.threads; ++t) {
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < cases.size();) {
        outcomes[i] = runCase(cases[i], o.steps);
        if (!outcomes[i].ok) {
          const std::lock_guard<std::mutex> lock(print);
          std::printf("FAILED %s: %s\n", outcomes[i].label.c_str(), outcomes[i].message.c_str());
          std::fflush(stdout);
        }
      }
    });
  }
  for (std::thread& t : pool) t.join();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::map<std::string, int> byMessage;
  int failed = 0, settled = 0;
  long long steps = 0, impacts = 0;
  double worst = 0.0;
  std::string worstLabel;
  for (const Outcome& r : outcomes) {
    steps += r.steps;
    impacts += r.impacts;
    settled += r.settled;
    if (!r.ok) {
      ++failed;
      const auto cut = r.message.find(" at t =");
      ++byMessage[r.message.substr(r.message.find(": ") + 2, cut == std::string::npos ? 80 : cut - r.message.find(": ") - 2)];
    }
    if (r.worstEnergy > worst) {
      worst = r.worstEnergy;
      worstLabel = r.label;
    }
  }
  std::printf("runs %zu, steps %lld each (h = 0.01), restitution %g..%g, seed %u\n", cases.size(),
              o.steps, o.eLo, o.eHi, o.seed);
  std::printf("failed %d; ended settled %d; impacts %lld; steps %lld in %.1f s (%.3g steps/s on %d threads)\n",
              failed, settled, impacts, steps, wall, double(steps) / wall, o.threads);
  std::printf("largest |E + dissipated - E0| / |E0|: %.3e (%s)\n", worst, worstLabel.c_str());
  for (const auto& [m, n] : byMessage) std::printf("  %d x %s\n", n, m.c_str());
  return failed == 0 ? 0 : 1;
}
