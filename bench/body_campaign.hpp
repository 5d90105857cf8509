#pragma once
// The random user bodies of the long-run campaign (`ricochet-body-campaign` and the CTest
// campaign in tests/test_bodies_longrun.cpp): hulls of 8 to 60 points, boxes and ellipsoids of
// random sizes, over the ground alone or in a box of walls, thrown lively or gently, elastic or
// with a restitution drawn from a range. Deterministic for a seed.

#include "core/model/registry.hpp"
#include "core/se3/rigid_body.hpp"
#include "core/se3/so3.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace ricochet::campaign {

using Vec3 = Eigen::Vector3d;

struct Options {
  int runs = 12;  // per kind and world and liveliness
  long long steps = 1000000;
  unsigned seed = 1;
  int threads = 2;
  double eLo = 1.0, eHi = 1.0;
  std::vector<std::string> kinds = {"hull", "box", "ellipsoid"};
  std::vector<std::string> worlds = {"ground", "walls"};
};

struct Case {
  std::string label;
  Scenario scenario;
};

struct Outcome {
  std::string label;
  bool ok = true;
  std::string message;
  long long steps = 0;
  long long impacts = 0;
  double worstEnergy = 0.0;
  bool settled = false;
  double seconds = 0.0;
};

inline std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

inline void set(Scenario& sc, const SystemInfo& info, const std::string& name, double v) {
  for (std::size_t i = 0; i < info.parameters.size(); ++i) {
    if (info.parameters[i].name == name) sc.parameters[i] = v;
  }
  for (std::size_t i = 0; i < info.initial.size(); ++i) {
    if (info.initial[i].name == name) sc.initial[i] = v;
  }
}

inline Case makeCase(const Options& o, const std::string& kind, const std::string& worldKind, bool lively,
              int index, std::mt19937_64& rng) {
  const SystemDescription& sys = *findSystem("rigid-body");
  const SystemInfo& info = sys.info();
  Case c;
  c.scenario = defaultScenario(sys);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::normal_distribution<double> n01(0.0, 1.0);
  auto body = std::make_shared<BodyScenario>();
  BodyNode& n = body->body;
  if (kind == "hull") {
    n.shape = BodyNode::Shape::Polyhedron;
    const int count = 8 + int(u01(rng) * 53.0);
    const Vec3 axes(0.2 + 1.8 * u01(rng), 0.2 + 1.8 * u01(rng), 0.2 + 1.8 * u01(rng));
    for (int k = 0; k < count; ++k) {
      Vec3 p(n01(rng), n01(rng), n01(rng));
      n.vertices.push_back(axes.cwiseProduct(p.normalized()) * (0.6 + 0.4 * u01(rng)));
    }
  } else if (kind == "box") {
    n.shape = BodyNode::Shape::Box;
    n.size = Vec3(0.2 + 2.8 * u01(rng), 0.2 + 2.8 * u01(rng), 0.2 + 2.8 * u01(rng));
  } else {
    n.shape = BodyNode::Shape::Ellipsoid;
    n.size = Vec3(0.2 + 1.8 * u01(rng), 0.2 + 1.8 * u01(rng), 0.2 + 1.8 * u01(rng));
  }
  const se3::BuiltBody built = se3::buildBody(*body, 1e-13, 1.0);
  if (!built.ok()) return makeCase(o, kind, worldKind, lively, index, rng);
  const double reach = built.reach;
  if (worldKind == "walls") {
    BoxWorld box;
    const double side = 2.0 * reach + 1.0 + 3.0 * reach * u01(rng);
    box.size = Eigen::Vector2d(side, side * (0.8 + 0.4 * u01(rng)));
    body->world.box = box;
  }
  c.scenario.body = body;
  const double speed = lively ? 3.0 : 0.3, spin = lively ? 5.0 : 0.5;
  const Vec3 v(speed * n01(rng), speed * n01(rng), speed * n01(rng));
  const Vec3 r(n01(rng), n01(rng), n01(rng));
  const Vec3 omega(spin * n01(rng), spin * n01(rng), spin * n01(rng));
  const Eigen::Matrix3d R = se3::expSO3(r);
  const Vec3 Pi = built.J * (R.transpose() * omega);
  set(c.scenario, info, "x0", 0.0);
  set(c.scenario, info, "y0", 0.0);
  set(c.scenario, info, "z0", reach + 0.1 + 3.0 * u01(rng));
  set(c.scenario, info, "vx0", v.x());
  set(c.scenario, info, "vy0", v.y());
  set(c.scenario, info, "vz0", v.z());
  set(c.scenario, info, "rx0", r.x());
  set(c.scenario, info, "ry0", r.y());
  set(c.scenario, info, "rz0", r.z());
  set(c.scenario, info, "Pi1_0", Pi.x());
  set(c.scenario, info, "Pi2_0", Pi.y());
  set(c.scenario, info, "Pi3_0", Pi.z());
  const double e = o.eLo + (o.eHi - o.eLo) * u01(rng);
  set(c.scenario, info, "restitution", e);
  c.scenario.tEnd = 1e300;
  char label[128];
  std::snprintf(label, sizeof label, "%s/%s/%s #%d (e = %.3f)", kind.c_str(), worldKind.c_str(),
                lively ? "lively" : "gentle", index, e);
  c.label = label;
  return c;
}

/// Every case of a campaign, in its order: kinds, worlds, lively then gentle, `runs` of each,
/// drawn from one generator seeded with `o.seed`.
inline std::vector<Case> makeCases(const Options& o) {
  std::mt19937_64 rng(o.seed);
  std::vector<Case> cases;
  for (const std::string& kind : o.kinds)
    for (const std::string& world : o.worlds)
      for (const bool lively : {true, false})
        for (int k = 0; k < o.runs; ++k) cases.push_back(makeCase(o, kind, world, lively, k, rng));
  return cases;
}

inline Outcome runCase(const Case& c, long long steps) {
  Outcome out;
  out.label = c.label;
  CreateResult cr = createSimulation(c.scenario);
  if (!cr.simulation) {
    out.ok = false;
    out.message = "refused: " + cr.error;
    return out;
  }
  Simulation& sim = *cr.simulation;
  const double e0 = sim.energy().total();
  const auto t0 = std::chrono::steady_clock::now();
  constexpr long long kChunk = 1000;
  while (out.steps < steps) {
    const AdvanceResult r = sim.advance(std::min(kChunk, steps - out.steps), nullptr);
    out.steps += r.stepsTaken;
    const double err = std::fabs(sim.energy().total() + sim.dissipatedEnergy() - e0) / std::fabs(e0);
    out.worstEnergy = std::max(out.worstEnergy, err);
    if (!r.ok()) {
      out.ok = false;
      out.message = failureText(sim, r);
      break;
    }
  }
  out.impacts = sim.impactCount();
  out.settled = std::isfinite(sim.settledTime());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}


}  // namespace ricochet::campaign
