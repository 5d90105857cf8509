// ricochet-body-bench: steps/s of the rigid-body system for convex hulls of 8, 100, 1000 and
// 10000 vertices (points on an ellipsoid, all of them extreme), the support point found by hill
// climbing on the hull's edges above 16 vertices. Prints figures only; never asserts
// (bench/README.md). Each figure is the median over --runs runs of advance(N) on a fresh
// simulation (N from --seconds), over the ground alone and in a closed box of walls.

#include "core/model/registry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

using namespace ricochet;
using Clock = std::chrono::steady_clock;

namespace {

/// n points spread evenly over the ellipsoid of semi-axes (0.5, 0.4, 0.3) (a Fibonacci sphere,
/// stretched): every point is a hull vertex. n = 8 gives the corners of a box instead.
std::vector<Eigen::Vector3d> hullPoints(int n) {
  std::vector<Eigen::Vector3d> p;
  if (n == 8) {
    for (int i = 0; i < 8; ++i) p.emplace_back(i & 1 ? 0.5 : -0.5, i & 2 ? 0.4 : -0.4, i & 4 ? 0.3 : -0.3);
    return p;
  }
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / n, r = std::sqrt(1.0 - z * z);
    p.emplace_back(0.5 * r * std::cos(golden * i), 0.4 * r * std::sin(golden * i), 0.3 * z);
  }
  return p;
}

Scenario scenarioFor(int vertices, bool walls) {
  Scenario sc = defaultScenario(*findSystem("rigid-body"));
  auto b = std::make_shared<BodyScenario>();
  b->body.shape = BodyNode::Shape::Polyhedron;
  b->body.vertices = hullPoints(vertices);
  if (walls) b->world.box = BoxWorld{Eigen::Vector2d(6.0, 5.0), 14.0, Eigen::Vector2d::Zero()};
  sc.body = std::move(b);
  // cube-plane's body momentum Pi0 = (4, -4, 4) kg m^2/s spins this body (a thousand times less
  // inertia than the cube) at h |Omega0| > 1 rad per step, which the LGVCI refuses: keep its
  // direction at 1/20 of its size (about 6 rad/s).
  const SystemInfo& info = findSystem("rigid-body")->info();
  for (std::size_t i = 0; i < info.initial.size(); ++i) {
    if (info.initial[i].name.starts_with("Pi")) sc.initial[i] *= 0.05;
  }
  return sc;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  double seconds = 0.25;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc) {
      seconds = std::max(0.01, std::atof(argv[++i]));
    } else {
      std::fprintf(stderr, "ricochet-body-bench [--runs R] [--seconds S]\n");
      return 2;
    }
  }
  std::printf("rigid-body, default integrator, cube-plane's initial state with Pi0 / 20, h = 0.01 s\n");
  std::printf("%8s  %-12s  %12s  %10s  %9s\n", "vertices", "world", "steps/s", "ns/step", "impacts");
  for (int n : {8, 100, 1000, 10000}) {
    for (bool walls : {false, true}) {
      const Scenario sc = scenarioFor(n, walls);
      // Probe: steps for about `seconds`.
      std::int64_t steps = 20000;
      std::vector<double> rates;
      std::int64_t impacts = 0;
      std::string shortened;  // the integrator's failure that shortened the runs, if any
      std::int64_t cap = std::numeric_limits<std::int64_t>::max();  // steps before that failure
      for (int r = 0; r <= runs; ++r) {
        CreateResult cr = createSimulation(sc);
        if (!cr.simulation) {
          std::printf("%8d  %-12s  failed: %s\n", n, walls ? "box" : "ground", cr.error.c_str());
          return 1;
        }
        const Clock::time_point t0 = Clock::now();
        const AdvanceResult a = cr.simulation->advance(steps, nullptr);
        const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
        if (!a.ok()) {
          // A failing step is a finding for the integrator, not for the bench: as ricochet-bench
          // does, say so and time runs that stop before it.
          if (a.stepsTaken < 100 || !shortened.empty()) {
            std::printf("%8d  %-12s  failed: %s\n", n, walls ? "box" : "ground", a.message.c_str());
            return 1;
          }
          shortened = "step " + std::to_string(a.stepsTaken + 1) + " fails: " + a.message;
          cap = std::max<std::int64_t>(1, (a.stepsTaken * 9) / 10);
          steps = cap;
          r = -1;  // probe again with the shorter runs
          rates.clear();
          continue;
        }
        if (r == 0) {  // the probe sets the run length
          steps = std::min(cap, std::max<std::int64_t>(1000, std::llround(steps * seconds / std::max(dt, 1e-6))));
          continue;
        }
        rates.push_back(double(steps) / dt);
        impacts = cr.simulation->impactCount();
      }
      const double rate = median(rates);
      std::printf("%8d  %-12s  %12.3g  %10.1f  %9lld\n", n, walls ? "box (5 walls)" : "ground", rate,
                  1e9 / rate, static_cast<long long>(impacts));
      if (!shortened.empty()) std::printf("          runs shortened: %s\n", shortened.c_str());
    }
  }
  return 0;
}
