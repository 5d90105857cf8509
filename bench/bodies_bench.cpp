// ricochet-bodies-bench: what the `bodies` engine costs (bench/README.md, "Many bodies").
//
//  1. A gas of N spheres (radius 0.5 m, 1 kg, packing fraction 5 %, random positions without
//     overlap, velocities N(0, 1) m/s per component from a fixed seed, g = 0, h = 0.01 s, no
//     outputs) in a closed cubic box (the ground, four walls and a ceiling): body-steps and impact
//     rows per second on one core, the cost of a body-step, and the energy drift |E - E0| / E0.
//  2. With MuJoCo (when the build found it): the same gas, built in MJCF from a string, with
//     near-elastic soft contacts (direct stiffness, no damping, condim 1: no friction) at
//     h = 1e-3 s: steps/s, wall time per simulated second, and its kinetic energy drift.
//  3. cube-plane: steps/s of the one-body LGVCI (se3::LgvciStepper, general Newton SolveF) and of
//     the same cube as a one-body world of `bodies` (isotropic inertia: closed-form rotation), and
//     the first impacts of both.
//
// Prints figures only; never asserts. Every figure is given as the median of --runs runs and the
// spread (max - min) / median.

#include "core/bodies/bodies_system.hpp"
#include "core/model/registry.hpp"
#include "core/se3/se3_systems.hpp"

#ifdef RICOCHET_BENCH_MUJOCO
#include <mujoco/mujoco.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ricochet;
using Clock = std::chrono::steady_clock;
using Vec3 = Eigen::Vector3d;

namespace {

constexpr double kRadius = 0.5;
constexpr double kPacking = 0.05;

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double threadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// Which clock the figures use: this thread's CPU time (default: on a machine shared with other
/// jobs, the time the core was ours) or wall time (--wall).
bool gUseWall = false;

/// Accumulates the time of the timed pieces on both clocks.
struct Stopwatch {
  double cpu = 0.0, wall = 0.0;
  double c0 = 0.0;
  Clock::time_point w0;
  void start() {
    w0 = Clock::now();
    c0 = threadCpuSeconds();
  }
  void stop() {
    cpu += threadCpuSeconds() - c0;
    wall += seconds(w0, Clock::now());
  }
  /// The figure's time, s.
  double time() const { return gUseWall ? wall : cpu; }
  /// Share of the wall time this thread ran.
  double share() const { return wall > 0.0 ? cpu / wall : 0.0; }
};

double loadAverage() {
  double l = -1.0;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &l) != 1) l = -1.0;
    std::fclose(f);
  }
  return l;
}

/// Median, min and max of a sample.
struct Stats {
  double median = 0.0, lo = 0.0, hi = 0.0;
  double spread() const { return median != 0.0 ? (hi - lo) / std::fabs(median) : 0.0; }
};
Stats statsOf(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.lo = v.front();
  s.hi = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  return s;
}

// ------------------------------------------------------------------------------------------------
// The gas: the same initial state for both engines.

struct Gas {
  int n = 0;
  double side = 0.0;  ///< the box's edge, m (x, y in [-side/2, side/2], z in [0, side])
  std::vector<Vec3> x, v;
};

/// N(0, 1) from a 64-bit Mersenne twister by Box-Muller (the same numbers with every standard
/// library, unlike std::normal_distribution).
class Normal {
 public:
  explicit Normal(std::uint64_t seed) : rng_(seed) {}
  double uniform() { return (double(rng_() >> 11) + 0.5) * 0x1.0p-53; }  // in (0, 1)
  double operator()() {
    if (spare_) {
      spare_ = false;
      return next_;
    }
    const double r = std::sqrt(-2.0 * std::log(uniform())), a = 2.0 * std::numbers::pi * uniform();
    next_ = r * std::sin(a);
    spare_ = true;
    return r * std::cos(a);
  }

 private:
  std::mt19937_64 rng_;
  bool spare_ = false;
  double next_ = 0.0;
};

Gas makeGas(int n, std::uint64_t seed) {
  Gas g;
  g.n = n;
  const double volume = n * 4.0 / 3.0 * std::numbers::pi * kRadius * kRadius * kRadius / kPacking;
  g.side = std::cbrt(volume);
  Normal rnd(seed);
  // Centres in the box, at least a micrometre off every wall and every other sphere; a grid of
  // cells of one diameter finds the neighbours.
  const double margin = 1e-6, lo = kRadius + margin, span = g.side - 2.0 * lo;
  const int cells = std::max(1, int(g.side / (2.0 * kRadius + margin)));
  const double cell = g.side / cells;
  std::vector<std::vector<int>> grid(std::size_t(cells) * cells * cells);
  auto cellOf = [&](const Vec3& p, int k) {
    const double c = k == 2 ? p.z() : p(k) + 0.5 * g.side;
    return std::clamp(int(c / cell), 0, cells - 1);
  };
  while (int(g.x.size()) < n) {
    const Vec3 p(-0.5 * g.side + lo + span * rnd.uniform(),
                 -0.5 * g.side + lo + span * rnd.uniform(), lo + span * rnd.uniform());
    const int cx = cellOf(p, 0), cy = cellOf(p, 1), cz = cellOf(p, 2);
    bool free = true;
    for (int i = std::max(0, cx - 1); free && i <= std::min(cells - 1, cx + 1); ++i)
      for (int j = std::max(0, cy - 1); free && j <= std::min(cells - 1, cy + 1); ++j)
        for (int k = std::max(0, cz - 1); free && k <= std::min(cells - 1, cz + 1); ++k)
          for (const int q : grid[(std::size_t(i) * cells + j) * cells + k])
            if ((g.x[std::size_t(q)] - p).norm() < 2.0 * kRadius + margin) free = false;
    if (!free) continue;
    grid[(std::size_t(cx) * cells + cy) * cells + cz].push_back(int(g.x.size()));
    g.x.push_back(p);
  }
  for (int i = 0; i < n; ++i) {
    const double a = rnd(), b = rnd(), c = rnd();
    g.v.emplace_back(a, b, c);
  }
  return g;
}

/// A `bodies` scenario of the gas: spheres of 1 kg in the box with a ceiling, ground on, g = 0.
Scenario gasScenario(const Gas& gas, double h) {
  const SystemDescription& sys = *findSystem("bodies");
  Scenario sc = defaultScenario(sys);
  sc.integrator.h = h;
  const auto& params = sys.info().parameters;
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (params[k].name == "g") sc.parameters[k] = 0.0;
  }
  auto w = std::make_shared<BodyScenario>();
  w->ground = true;
  w->world.box = BoxWorld{Eigen::Vector2d::Constant(gas.side), gas.side, Eigen::Vector2d::Zero()};
  w->bodies.reserve(std::size_t(gas.n));
  for (int i = 0; i < gas.n; ++i) {
    BodyEntry e;
    e.name = std::to_string(i);
    e.name.insert(e.name.begin(), 's');  // not "s" + ...: GCC 12 -Wrestrict misfires on it
    e.body.shape = BodyNode::Shape::Sphere;
    e.body.size = Vec3::Constant(kRadius);
    e.mass = 1.0;
    e.position = gas.x[std::size_t(i)];
    e.velocity = gas.v[std::size_t(i)];
    w->bodies.push_back(std::move(e));
  }
  sc.body = std::move(w);
  return sc;
}

// ------------------------------------------------------------------------------------------------
// 1. Ricochet's gas.

struct GasRun {
  bool ok = true;
  std::string message;
  Stopwatch time;  ///< stepping only
  std::int64_t steps = 0;
  std::int64_t impacts = 0;  ///< impact rows (contact points that got an impulse)
  std::int64_t events = 0;
  std::int64_t restarts = 0;
  double driftEnd = 0.0,
         driftMax = 0.0;     ///< |E - E0| / E0 at the end, and the largest of the checkpoints
  std::uint64_t digest = 0;  ///< of the final state
};

/// FNV-1a over the bytes of every body's final (x, R, gamma, Pi): equal digests, same bits.
std::uint64_t digestOf(const bodies::WorldState& s) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](const double* p, int count) {
    for (int k = 0; k < count; ++k) {
      std::uint64_t bits;
      std::memcpy(&bits, p + k, sizeof bits);
      for (int b = 0; b < 8; ++b) {
        h ^= (bits >> (8 * b)) & 0xffu;
        h *= 1099511628211ull;
      }
    }
  };
  for (const bodies::BodyState& b : s.bodies) {
    mix(b.x.data(), 3);
    mix(b.R.data(), 9);
    mix(b.gamma.data(), 3);
    mix(b.Pi.data(), 3);
  }
  return h;
}

/// Steps `steps` steps in `checkpoints` timed pieces; the energy is read between them, untimed.
GasRun runRicochet(const bodies::WorldSetup& setup, std::int64_t steps, int checkpoints) {
  GasRun r;
  const bodies::BodiesStepper stepper(setup.model, setup.h, bodies::bodyPairConstraint());
  bodies::WorldState state = setup.initial;
  bodies::Report report;
  stepper.prepare(report);
  const double e0 = stepper.energy(state);
  std::int64_t done = 0;
  for (int c = 1; c <= checkpoints && r.ok; ++c) {
    const std::int64_t until = steps * c / checkpoints;
    r.time.start();
    for (; done < until; ++done) {
      if (stepper.step(state, report) != RunStatus::Ok) {
        r.ok = false;
        r.message =
            std::string("step ") + std::to_string(done + 1) + " fails: " + report.failure.what;
        break;
      }
      r.impacts += report.impactCount;
      r.events += report.events;
      r.restarts += report.restarts;
    }
    r.time.stop();
    const double d = std::fabs(stepper.energy(state) - e0) / e0;
    r.driftMax = std::max(r.driftMax, d);
    r.driftEnd = d;
  }
  r.steps = done;
  r.digest = digestOf(state);
  return r;
}

struct GasFigures {
  int n = 0;
  double side = 0.0;
  std::int64_t steps = 0;
  double simulated = 0.0;  ///< s
  Stats bodySteps;         ///< body-steps per second
  Stats nsPerBodyStep;
  Stats impactsPerSecond;  ///< impact rows per wall second
  double impactsPerSimSecond = 0.0;
  double driftEnd = 0.0, driftMax = 0.0;  ///< largest over the runs
  std::int64_t events = 0, restarts = 0;
  double setupSeconds = 0.0;
  double cpuShare = 0.0;     ///< thread CPU time / wall time of the timed pieces (median)
  std::uint64_t digest = 0;  ///< of the final state (0: the runs disagree)
  bool ok = true;
};

GasFigures benchRicochet(const Gas& gas, std::int64_t bodyStepBudget, int runs) {
  GasFigures f;
  f.n = gas.n;
  f.side = gas.side;
  const double h = 0.01;
  const Clock::time_point s0 = Clock::now();
  const bodies::WorldSetup setup = bodies::makeWorldSetup(gasScenario(gas, h));
  f.setupSeconds = seconds(s0, Clock::now());
  if (!setup.error.empty()) {
    std::printf("%6d  setup failed: %s\n", gas.n, setup.error.c_str());
    f.ok = false;
    return f;
  }
  f.steps = std::max<std::int64_t>(100, bodyStepBudget / gas.n);
  f.simulated = double(f.steps) * h;
  std::vector<double> rate, ns, ips, share;
  for (int k = 0; k < runs; ++k) {
    const GasRun r = runRicochet(setup, f.steps, 10);
    if (!r.ok) {
      std::printf("%6d  run failed: %s\n", gas.n, r.message.c_str());
      f.ok = false;
      return f;
    }
    const double bs = double(r.steps) * gas.n;
    rate.push_back(bs / r.time.time());
    ns.push_back(1e9 * r.time.time() / bs);
    ips.push_back(double(r.impacts) / r.time.time());
    share.push_back(r.time.share());
    f.impactsPerSimSecond = double(r.impacts) / f.simulated;
    f.driftEnd = std::max(f.driftEnd, r.driftEnd);
    f.driftMax = std::max(f.driftMax, r.driftMax);
    f.events = r.events;
    f.restarts = r.restarts;
    f.digest = k == 0 || f.digest == r.digest ? r.digest : 0;
  }
  f.bodySteps = statsOf(rate);
  f.nsPerBodyStep = statsOf(ns);
  f.impactsPerSecond = statsOf(ips);
  f.cpuShare = statsOf(share).median;
  return f;
}

// ------------------------------------------------------------------------------------------------
// 2. MuJoCo's gas.

struct MujocoFigures {
  int n = 0;
  std::int64_t steps = 0;
  double h = 1e-3;
  double simulated = 0.0;
  Stats stepsPerSecond, bodySteps, wallPerSimSecond;
  double driftEnd = 0.0, driftMax = 0.0;
  double meanContacts = 0.0;
  double cpuShare = 0.0;
  double loadSeconds = 0.0;  ///< wall time of mj_loadXML (parse and compile)
  bool ok = false;
  std::string error;
};

#ifdef RICOCHET_BENCH_MUJOCO

/// The MJCF of the gas: spheres of 1 kg with free joints, six planes for the box, no gravity,
/// frictionless (condim 1) contacts with direct stiffness k and no damping (solref = (-k, 0)), a
/// constant impedance (solimp 0.99), h = `h`.
std::string gasMjcf(const Gas& gas, double h, double stiffness, const std::string& solver) {
  std::ostringstream s;
  s.precision(17);
  const double L = gas.side, a = 0.5 * L;
  // Contacts and constraint rows (condim 1: one row per contact) MuJoCo makes room for. Its
  // constraint Jacobian is njmax x 6 N doubles, so 4 N would not fit in memory at N = 10000; at
  // 5 % packing there are 0.4-1.2 contacts per 100 spheres at a time (mean `contacts`), and
  // running out is reported.
  const int room = 100 + gas.n / 20;
  // MuJoCo 2.2.2 sizes its stack from nv^2 by default (~5 nv^2 numbers, past int at N = 10000),
  // and its Newton solver uses ~3 nv^2 of it once a contact is active: 86 GB at N = 10000. The
  // CG and PGS solvers need ~ njmax x nv; give them that, with room to spare.
  const long long nv = 6ll * gas.n;
  const std::string stack =
      solver == "Newton" ? ""
                         : " nstack=\"" + std::to_string(1000000 + 2 * room * nv + 100 * nv) + "\"";
  s << "<mujoco model=\"gas\">\n"
    << "  <option timestep=\"" << h << "\" gravity=\"0 0 0\" integrator=\"Euler\" solver=\""
    << solver << "\"/>\n"
    << "  <size nconmax=\"" << room << "\" njmax=\"" << room << "\"" << stack << "/>\n"
    << "  <default><geom condim=\"1\" friction=\"0 0 0\" solref=\"" << -stiffness
    << " 0\" solimp=\"0.99 0.99 0.001\"/></default>\n"
    << "  <worldbody>\n"
    << "    <geom name=\"floor\" type=\"plane\" size=\"0 0 1\" pos=\"0 0 0\" zaxis=\"0 0 1\"/>\n"
    << "    <geom name=\"ceiling\" type=\"plane\" size=\"0 0 1\" pos=\"0 0 " << L
    << "\" zaxis=\"0 0 -1\"/>\n"
    << "    <geom name=\"-x\" type=\"plane\" size=\"0 0 1\" pos=\"" << -a
    << " 0 0\" zaxis=\"1 0 0\"/>\n"
    << "    <geom name=\"+x\" type=\"plane\" size=\"0 0 1\" pos=\"" << a
    << " 0 0\" zaxis=\"-1 0 0\"/>\n"
    << "    <geom name=\"-y\" type=\"plane\" size=\"0 0 1\" pos=\"0 " << -a
    << " 0\" zaxis=\"0 1 0\"/>\n"
    << "    <geom name=\"+y\" type=\"plane\" size=\"0 0 1\" pos=\"0 " << a
    << " 0\" zaxis=\"0 -1 0\"/>\n";
  for (int i = 0; i < gas.n; ++i) {
    const Vec3& x = gas.x[std::size_t(i)];
    s << "    <body pos=\"" << x.x() << ' ' << x.y() << ' ' << x.z() << "\"><freejoint/>"
      << "<geom type=\"sphere\" size=\"" << kRadius << "\" mass=\"1\"/></body>\n";
  }
  s << "  </worldbody>\n</mujoco>\n";
  return s.str();
}

/// Kinetic energy from qvel (free joints: world linear velocity, then local angular velocity)
/// and the bodies' masses and principal inertias.
double mujocoKinetic(const mjModel* m, const mjData* d) {
  double e = 0.0;
  for (int b = 1; b < m->nbody; ++b) {
    const int dof = m->jnt_dofadr[m->body_jntadr[b]];
    const double* v = d->qvel + dof;
    const double* I = m->body_inertia + 3 * b;
    e += 0.5 * m->body_mass[b] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
         0.5 * (I[0] * v[3] * v[3] + I[1] * v[4] * v[4] + I[2] * v[5] * v[5]);
  }
  return e;
}

struct MujocoModel {
  mjModel* m = nullptr;
  ~MujocoModel() {
    if (m) mj_deleteModel(m);
  }
};

bool loadMujoco(const std::string& xml, MujocoModel& out, std::string& error) {
  auto vfs = std::make_unique<mjVFS>();  // ~2 MB: not on the stack
  mj_defaultVFS(vfs.get());
  const char* name = "gas.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, int(xml.size())) != 0) {
    error = "MuJoCo VFS: cannot make the file";
    return false;
  }
  const int f = mj_findFileVFS(vfs.get(), name);
  std::memcpy(vfs->filedata[f], xml.data(), xml.size());
  char err[1000] = "";
  out.m = mj_loadXML(name, vfs.get(), err, sizeof err);
  mj_deleteVFS(vfs.get());
  if (!out.m) error = std::string("MuJoCo: ") + err;
  return out.m != nullptr;
}

MujocoFigures benchMujoco(const Gas& gas, std::int64_t bodyStepBudget, int runs, double h,
                          double stiffness, const std::string& solver) {
  MujocoFigures f;
  f.n = gas.n;
  f.h = h;
  MujocoModel model;
  const Clock::time_point l0 = Clock::now();
  if (!loadMujoco(gasMjcf(gas, h, stiffness, solver), model, f.error)) return f;
  f.loadSeconds = seconds(l0, Clock::now());
  const mjModel* m = model.m;
  f.steps = std::max<std::int64_t>(100, bodyStepBudget / gas.n);
  f.simulated = double(f.steps) * h;
  std::vector<double> sps, bs, wps, share;
  const int checkpoints = 10;
  for (int k = 0; k < runs; ++k) {
    mjData* d = mj_makeData(m);
    for (int i = 0; i < gas.n; ++i) {
      const int dof = m->jnt_dofadr[m->body_jntadr[i + 1]];
      for (int j = 0; j < 3; ++j) d->qvel[dof + j] = gas.v[std::size_t(i)](j);
    }
    mj_forward(m, d);
    const double e0 = mujocoKinetic(m, d);
    Stopwatch time;
    double contacts = 0.0;
    std::int64_t done = 0;
    for (int c = 1; c <= checkpoints; ++c) {
      const std::int64_t until = f.steps * c / checkpoints;
      time.start();
      for (; done < until; ++done) {
        mj_step(m, d);
        contacts += d->ncon;
      }
      time.stop();
      const double drift = std::fabs(mujocoKinetic(m, d) - e0) / e0;
      f.driftMax = std::max(f.driftMax, drift);
      if (c == checkpoints) f.driftEnd = std::max(f.driftEnd, drift);
    }
    if (d->warning[mjWARN_CONTACTFULL].number > 0 || d->warning[mjWARN_CNSTRFULL].number > 0) {
      f.error = "MuJoCo ran out of contact or constraint space (nconmax/njmax)";
    }
    mj_deleteData(d);
    f.meanContacts = contacts / double(f.steps);
    sps.push_back(double(f.steps) / time.time());
    bs.push_back(double(f.steps) * gas.n / time.time());
    wps.push_back(time.time() / f.simulated);
    share.push_back(time.share());
  }
  f.stepsPerSecond = statsOf(sps);
  f.bodySteps = statsOf(bs);
  f.wallPerSimSecond = statsOf(wps);
  f.cpuShare = statsOf(share).median;
  f.ok = f.error.empty();
  return f;
}

#endif  // RICOCHET_BENCH_MUJOCO

// ------------------------------------------------------------------------------------------------
// 3. cube-plane, old engine against the one-body world.

struct ImpactTime {
  double t = 0.0;
  int gap = 0;
};

/// Steps/s of `step` over `steps` steps, median of `runs` runs from `initial`.
template <class Stepper>
Stats stepRate(const Stepper& stepper, const typename Stepper::State& initial, std::int64_t steps,
               int runs, std::string& failure) {
  std::vector<double> rates;
  for (int k = 0; k < runs; ++k) {
    typename Stepper::State s = initial;
    typename Stepper::Report report;
    if constexpr (requires { stepper.prepare(report); }) stepper.prepare(report);
    Stopwatch time;
    time.start();
    for (std::int64_t i = 0; i < steps; ++i) {
      if (stepper.step(s, report) != RunStatus::Ok) {
        failure = "step " + std::to_string(i + 1) + ": " + report.failure.what;
        return Stats{};
      }
    }
    time.stop();
    rates.push_back(double(steps) / time.time());
  }
  return statsOf(rates);
}

/// The first `count` impact events: t = t_k + s h, as StepperSimulation reports them (rows of one
/// event at one instant are one impact here).
template <class Stepper>
std::vector<ImpactTime> firstImpacts(const Stepper& stepper, const typename Stepper::State& initial,
                                     int count) {
  std::vector<ImpactTime> out;
  typename Stepper::State s = initial;
  typename Stepper::Report report;
  if constexpr (requires { stepper.prepare(report); }) stepper.prepare(report);
  const double h = stepper.timeStep();
  for (std::int64_t k = 0; k < 1000000 && int(out.size()) < count; ++k) {
    if (stepper.step(s, report) != RunStatus::Ok) break;
    for (const auto& imp : report) {
      const double t = double(k) * h + imp.s * h;
      if (!out.empty() && out.back().t == t) continue;
      out.push_back({t, imp.gap});
      if (int(out.size()) == count) break;
    }
  }
  return out;
}

void benchCube(std::int64_t steps, int runs) {
  const SystemDescription& cubeSys = *findSystem("cube-plane");
  const Scenario cube = defaultScenario(cubeSys);
  const se3::Setup old = se3::makeSetup(cube);
  if (!old.error.empty()) {
    std::printf("cube-plane setup failed: %s\n", old.error.c_str());
    return;
  }
  const se3::LgvciStepper oldStepper(old.model, old.h);

  // The same cube as a one-body world: side 2 sqrt 3, epsilon 1e-13, 1 kg, x0 = (0, 0, 10),
  // v0 = (2, 2, 10), Pi0 = (4, -4, 4), ground on, g = 9.80665, cube-plane's h and tolerance.
  const SystemDescription& sys = *findSystem("bodies");
  Scenario sc = defaultScenario(sys);
  sc.integrator.h = old.h;
  sc.integrator.tolerance = cube.integrator.tolerance;
  const auto& params = sys.info().parameters;
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (params[k].name == "g") sc.parameters[k] = 9.80665;
    if (params[k].name == "epsilon") sc.parameters[k] = 1e-13;
  }
  auto w = std::make_shared<BodyScenario>();
  w->ground = true;
  BodyEntry e;
  e.name = "cube";
  e.body.shape = BodyNode::Shape::Box;
  e.body.size = Vec3::Constant(2.0 * std::sqrt(3.0));
  e.body.epsilon = 1e-13;
  e.mass = 1.0;
  e.position = Vec3(0.0, 0.0, 10.0);
  e.velocity = Vec3(2.0, 2.0, 10.0);
  e.angularMomentum = Vec3(4.0, -4.0, 4.0);
  w->bodies = {e};
  sc.body = std::move(w);
  const bodies::WorldSetup world = bodies::makeWorldSetup(sc);
  if (!world.error.empty()) {
    std::printf("bodies cube setup failed: %s\n", world.error.c_str());
    return;
  }
  const bodies::BodiesStepper newStepper(world.model, world.h, bodies::bodyPairConstraint());
  const bodies::Body& body = world.model->bodies[0];
  // The same world with the isotropic shortcut off: the general Newton SolveF inside the new
  // engine, which separates the closed form's gain from the rest of the engine's.
  auto newton = std::make_shared<bodies::WorldModel>(*world.model);
  newton->bodies[0].isotropic = false;
  const bodies::BodiesStepper newtonStepper(newton, world.h, bodies::bodyPairConstraint());
  // What the registered cube-plane runs: its own model as a one-body world.
  const bodies::BodiesStepper registeredStepper(se3::oneBodyWorld(old.model), old.h, -1);
  bodies::WorldState registeredInitial;
  registeredInitial.bodies = {old.initial};

  std::printf(
      "\n== cube-plane: one-body LGVCI (general SolveF) against a one-body `bodies` world\n");
  std::printf("h = %g s, %lld steps per run, median of %d runs; load average %.2f\n", old.h,
              static_cast<long long>(steps), runs, loadAverage());
  std::printf("old J = diag(%.17g, %.17g, %.17g); bodies J = %.17g I, isotropic: %s\n",
              old.model.J(0, 0), old.model.J(1, 1), old.model.J(2, 2), body.j,
              body.isotropic ? "yes (closed-form rotation)" : "NO (Newton SolveF)");
  std::printf("%-44s  %24s  %6s  %9s  %8s\n", "engine", "steps/s [min, max]", "spread", "ns/step",
              "vs old");
  double oldRate = 0.0;
  auto row = [&](const char* name, const Stats& r, const std::string& failure) {
    if (!failure.empty()) {
      std::printf("%-44s  failed: %s\n", name, failure.c_str());
      return;
    }
    if (oldRate == 0.0) oldRate = r.median;
    std::printf("%-44s  %8.3g [%6.3g, %6.3g]  %5.1f%%  %9.1f  %7.2fx\n", name, r.median, r.lo, r.hi,
                100.0 * r.spread(), 1e9 / r.median, r.median / oldRate);
  };
  std::string failure;
  const Stats a = stepRate(oldStepper, old.initial, steps, runs, failure);
  row("se3::LgvciStepper (cube-plane, Newton SolveF)", a, failure);
  failure.clear();
  const Stats c = stepRate(newtonStepper, world.initial, steps, runs, failure);
  row("bodies::BodiesStepper, Newton SolveF", c, failure);
  failure.clear();
  const Stats b = stepRate(newStepper, world.initial, steps, runs, failure);
  row("bodies::BodiesStepper, closed-form rotation", b, failure);
  failure.clear();
  const Stats d = stepRate(registeredStepper, registeredInitial, steps, runs, failure);
  row("cube-plane as registered (se3::oneBodyWorld)", d, failure);

  const std::vector<ImpactTime> ta = firstImpacts(oldStepper, old.initial, 5);
  const std::vector<ImpactTime> tb = firstImpacts(newStepper, world.initial, 5);
  const std::vector<ImpactTime> tc = firstImpacts(newtonStepper, world.initial, 5);
  const std::vector<ImpactTime> td = firstImpacts(registeredStepper, registeredInitial, 5);
  std::printf("%-7s  %22s  %22s  %10s  %10s  %10s\n", "impact", "t old [s]", "t closed form [s]",
              "- old", "Newton-old", "regist-old");
  const std::size_t count = std::max({ta.size(), tb.size(), tc.size(), td.size()});
  for (std::size_t k = 0; k < count; ++k) {
    auto at = [k](const std::vector<ImpactTime>& v) { return k < v.size() ? v[k].t : NAN; };
    const double x = at(ta);
    std::printf("%-7zu  %22.17g  %22.17g  %10.2e  %10.2e  %10.2e\n", k + 1, x, at(tb), at(tb) - x,
                at(tc) - x, at(td) - x);
  }
  std::printf(
      "Newton-old: the one-body world with the Newton SolveF; regist-old: cube-plane as "
      "registered\n");
}

// ------------------------------------------------------------------------------------------------

std::vector<int> parseList(const char* s) {
  std::vector<int> v;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) v.push_back(std::atoi(item.c_str()));
  return v;
}

bool wants(const std::string& only, const char* what) {
  return only.empty() ||
         ("," + only + ",").find(std::string(",") + what + ",") != std::string::npos;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3;
  std::vector<int> sizes = {10, 100, 1000, 10000};
  std::int64_t budget = 10000000, mujocoBudget = 2000000, cubeSteps = 1000000;
  double stiffness = 1e5;
  std::uint64_t seed = 21;
  std::string only, solver = "CG";
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // line by line: long runs show progress
  for (int i = 1; i < argc; ++i) {
    const bool more = i + 1 < argc;
    if (!std::strcmp(argv[i], "--runs") && more) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--n") && more) {
      sizes = parseList(argv[++i]);
    } else if (!std::strcmp(argv[i], "--body-steps") && more) {
      budget = std::max<std::int64_t>(1, std::atoll(argv[++i]));
    } else if (!std::strcmp(argv[i], "--mujoco-body-steps") && more) {
      mujocoBudget = std::max<std::int64_t>(1, std::atoll(argv[++i]));
    } else if (!std::strcmp(argv[i], "--mujoco-stiffness") && more) {
      stiffness = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--mujoco-solver") && more) {
      solver = argv[++i];
      if (solver != "Newton" && solver != "CG" && solver != "PGS") {
        std::fprintf(stderr, "--mujoco-solver: '%s', must be Newton, CG or PGS\n", solver.c_str());
        return 2;
      }
    } else if (!std::strcmp(argv[i], "--cube-steps") && more) {
      cubeSteps = std::max<std::int64_t>(1, std::atoll(argv[++i]));
    } else if (!std::strcmp(argv[i], "--seed") && more) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--wall")) {
      gUseWall = true;
    } else if (!std::strcmp(argv[i], "--only") && more) {
      only = argv[++i];
    } else {
      std::fprintf(stderr,
                   "ricochet-bodies-bench [--runs R] [--n 10,100,1000,10000] [--body-steps B]\n"
                   "                      [--mujoco-body-steps B] [--mujoco-stiffness K]\n"
                   "                      [--mujoco-solver CG|Newton|PGS]\n"
                   "                      [--cube-steps S] [--seed S] [--only gas,mujoco,cube]\n"
                   "                      [--wall]\n");
      return 2;
    }
  }
  for (const int n : sizes) {
    if (n < 1 || n > kMaxBodies) {
      std::fprintf(stderr, "--n: %d bodies, must be 1 to %d\n", n, kMaxBodies);
      return 2;
    }
  }

  std::printf(
      "times: %s; `cpu`: that thread's share of the wall time; spread: (max - min) / "
      "median of the runs\n",
      gUseWall ? "wall clock (--wall)"
               : "the bench thread's CPU time (CLOCK_THREAD_CPUTIME_ID; --wall for wall time)");
  std::vector<Gas> gases;
  if (wants(only, "gas") || wants(only, "mujoco")) {
    for (const int n : sizes) gases.push_back(makeGas(n, seed));
  }

  std::vector<GasFigures> ours;
  if (wants(only, "gas")) {
    std::printf(
        "== gas of N spheres (r = 0.5 m, 1 kg, 5 %% packing, v ~ N(0, 1) per component, "
        "seed %llu) in a closed box, g = 0, h = 0.01 s, no outputs\n",
        static_cast<unsigned long long>(seed));
    std::printf(
        "bodies::BodiesStepper, one thread; ~%lld body-steps per run; median of %d runs "
        "[min, max]; load average %.2f\n",
        static_cast<long long>(budget), runs, loadAverage());
    std::printf("%6s  %6s  %7s  %6s  %28s  %6s  %20s  %9s  %9s  %11s  %9s  %5s  %16s  %7s\n", "N",
                "box m", "steps", "sim s", "body-steps/s [min, max]", "spread",
                "ns/body-step [min, max]", "impacts/s", "imp/sim s", "|dE|/E0 end", "max", "cpu",
                "final state", "setup s");
    for (const Gas& gas : gases) {
      const GasFigures f = benchRicochet(gas, budget, runs);
      ours.push_back(f);
      if (!f.ok) continue;
      std::printf(
          "%6d  %6.2f  %7lld  %6.4g  %8.3g [%8.3g, %8.3g]  %5.1f%%  %6.0f [%5.0f, %5.0f]  "
          "%9.3g  %9.4g  %11.1e  %9.1e  %4.0f%%  %016llx  %7.2f\n",
          f.n, f.side, static_cast<long long>(f.steps), f.simulated, f.bodySteps.median,
          f.bodySteps.lo, f.bodySteps.hi, 100.0 * f.bodySteps.spread(), f.nsPerBodyStep.median,
          f.nsPerBodyStep.lo, f.nsPerBodyStep.hi, f.impactsPerSecond.median, f.impactsPerSimSecond,
          f.driftEnd, f.driftMax, 100.0 * f.cpuShare, static_cast<unsigned long long>(f.digest),
          f.setupSeconds);
      if (f.restarts > 0) {
        std::printf("        (%lld restarts: crossings continued without an impulse)\n",
                    static_cast<long long>(f.restarts));
      }
      std::fflush(stdout);
    }
    const GasFigures *n100 = nullptr, *n1000 = nullptr, *n10000 = nullptr;
    for (const GasFigures& f : ours) {
      if (!f.ok) continue;
      if (f.n == 100) n100 = &f;
      if (f.n == 1000) n1000 = &f;
      if (f.n == 10000) n10000 = &f;
    }
    if (n1000) {
      std::printf("target >= 2e6 body-steps/s at N = 1000: %.3g (%s)\n", n1000->bodySteps.median,
                  n1000->bodySteps.median >= 2e6 ? "met" : "missed");
    }
    if (n100 && n10000) {
      const double ratio = n10000->nsPerBodyStep.median / n100->nsPerBodyStep.median;
      std::printf("target cost per body-step at N = 10000 within 2x of N = 100: %.2fx (%s)\n",
                  ratio, ratio <= 2.0 ? "met" : "missed");
    }
  }

  if (wants(only, "mujoco")) {
#ifdef RICOCHET_BENCH_MUJOCO
    std::printf(
        "\n== the same gas in MuJoCo %s: MJCF from a string, free joints, 6 planes, condim 1, "
        "solref = (-%g, 0) (stiffness, no damping), solimp 0.99, h = 1e-3 s, Euler, %s "
        "solver\n",
        mj_versionString(), stiffness, solver.c_str());
    std::printf(
        "~%lld body-steps per run; median of %d runs; kinetic energy from qvel; load average "
        "%.2f\n",
        static_cast<long long>(mujocoBudget), runs, loadAverage());
    std::printf("%6s  %7s  %6s  %28s  %6s  %12s  %9s  %8s  %11s  %9s  %5s  %7s\n", "N", "steps",
                "sim s", "steps/s [min, max]", "spread", "body-steps/s", "s/sim s", "contacts",
                "|dE|/E0 end", "max", "cpu", "load s");
    std::vector<MujocoFigures> theirs;
    for (const Gas& gas : gases) {
      const MujocoFigures f = benchMujoco(gas, mujocoBudget, runs, 1e-3, stiffness, solver);
      theirs.push_back(f);
      if (!f.ok) {
        std::printf("%6d  failed: %s\n", gas.n, f.error.c_str());
        continue;
      }
      std::printf(
          "%6d  %7lld  %6.4g  %8.3g [%8.3g, %8.3g]  %5.1f%%  %12.3g  %9.3g  %8.2f  %11.1e  "
          "%9.1e  %4.0f%%  %7.1f\n",
          f.n, static_cast<long long>(f.steps), f.simulated, f.stepsPerSecond.median,
          f.stepsPerSecond.lo, f.stepsPerSecond.hi, 100.0 * f.stepsPerSecond.spread(),
          f.bodySteps.median, f.wallPerSimSecond.median, f.meanContacts, f.driftEnd, f.driftMax,
          100.0 * f.cpuShare, f.loadSeconds);
      std::fflush(stdout);
    }
    if (!ours.empty()) {
      std::printf("\n== Ricochet (h = 0.01 s) against MuJoCo (h = 1e-3 s), medians\n");
      std::printf("%6s  %14s  %10s  %10s  %14s  %10s  %10s  %9s\n", "N", "R body-steps/s",
                  "R s/sim s", "R |dE|/E0", "M body-steps/s", "M s/sim s", "M |dE|/E0",
                  "sim speed");
      for (std::size_t k = 0; k < theirs.size() && k < ours.size(); ++k) {
        const GasFigures& r = ours[k];
        const MujocoFigures& m = theirs[k];
        if (!r.ok || !m.ok) continue;
        // Seconds per simulated second: N / (body-steps/s h).
        const double rw = double(r.n) / (r.bodySteps.median * 0.01);
        std::printf("%6d  %14.3g  %10.3g  %10.1e  %14.3g  %10.3g  %10.1e  %8.0fx\n", r.n,
                    r.bodySteps.median, rw, r.driftMax, m.bodySteps.median,
                    m.wallPerSimSecond.median, m.driftMax, m.wallPerSimSecond.median / rw);
      }
      std::printf(
          "sim speed: how many times faster Ricochet covers a simulated second; |dE|/E0: "
          "the largest of the checkpoints of every run\n");
    }
#else
    (void)mujocoBudget;
    (void)stiffness;
    std::printf("\n== MuJoCo: not found when this bench was built (Debian libmujoco-dev)\n");
#endif
  }

  if (wants(only, "cube")) benchCube(cubeSteps, runs);
  return 0;
}
