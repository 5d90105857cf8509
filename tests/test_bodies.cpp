// The `bodies` system and its engine (core/bodies) on the cases whose answers are known
// (docs/multibody.md, "Cases with known answers"): two spheres head-on, the cradle with gaps and
// touching, three in a line, Bernoulli's problem, the break, the stack drop, the flat landings of
// one cube, restitution (the bouncing ball's impact times, the halved relative velocity, inelastic
// collapse, a tumbling cube that settles), conservation of momentum and spin, independence of the
// order of the bodies, and the bad scenarios with their messages.

#include "core/bodies/bodies_system.hpp"
#include "core/model/registry.hpp"
#include "core/se3/so3.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

using namespace ricochet;
using Vec3 = Eigen::Vector3d;

namespace {

BodyEntry sphere(const std::string& name, double r, double m, const Vec3& x, const Vec3& v = Vec3::Zero()) {
  BodyEntry e;
  e.name = name;
  e.body.shape = BodyNode::Shape::Sphere;
  e.body.size = Vec3::Constant(r);
  e.mass = m;
  e.position = x;
  e.velocity = v;
  return e;
}

Scenario world(std::vector<BodyEntry> bodies, double g, bool ground, double e = 1.0) {
  Scenario sc = defaultScenario(*findSystem("bodies"));
  auto b = std::make_shared<BodyScenario>();
  b->bodies = std::move(bodies);
  b->ground = ground;
  sc.body = b;
  const auto& params = findSystem("bodies")->info().parameters;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].name == "g") sc.parameters[i] = g;
    if (params[i].name == "restitution") sc.parameters[i] = e;
  }
  return sc;
}

/// A run and its trace columns by name.
struct Run {
  std::unique_ptr<Simulation> sim;
  std::map<std::string, std::size_t> index;
  std::vector<double> values;
  std::vector<ImpactRecord> impacts;
  AdvanceResult last;
  double value(const std::string& column) {
    values.resize(sim->columns().size());
    sim->sample(values);
    return values[index.at(column)];
  }
  Vec3 velocity(const std::string& body, double m) {
    return Vec3(value(body + ".p.x"), value(body + ".p.y"), value(body + ".p.z")) / m;
  }
  Vec3 spin(const std::string& body) {
    return Vec3(value(body + ".p.Pi1"), value(body + ".p.Pi2"), value(body + ".p.Pi3"));
  }
};

class Recorder final : public ImpactSink {
 public:
  explicit Recorder(std::vector<ImpactRecord>& out) : out_(out) {}
  void onImpact(const ImpactRecord& r) override { out_.push_back(r); }

 private:
  std::vector<ImpactRecord>& out_;
};

Run start(const Scenario& sc) {
  Run r;
  CreateResult cr = createSimulation(sc);
  if (!cr.simulation) qFatal("%s", cr.error.c_str());
  r.sim = std::move(cr.simulation);
  const auto cols = r.sim->columns();
  for (std::size_t i = 0; i < cols.size(); ++i) r.index[cols[i]] = i;
  return r;
}

void advance(Run& r, std::int64_t steps) {
  Recorder rec(r.impacts);
  r.last = r.sim->advance(steps, &rec);
  QVERIFY2(r.last.ok(), r.last.message.c_str());
}

std::vector<BodyEntry> cradle(int in, double gap) {
  std::vector<BodyEntry> b;
  for (int i = 0; i < 5; ++i) {
    const double x = i * (1.0 + gap);
    b.push_back(sphere(std::string("b") + std::to_string(i), 0.5, 1.0, Vec3(x, 0, 0), Vec3(i < in ? 1.0 : 0.0, 0, 0)));
  }
  return b;
}

std::vector<BodyEntry> rack(double cueSpin) {
  std::vector<BodyEntry> b = {sphere("cue", 0.5, 1.0, Vec3(-4, 0, 0), Vec3(1, 0, 0))};
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int k = 0; k < 5; ++k) {
    for (int j = 0; j <= k; ++j) {
      BodyEntry e = sphere(std::string("r") + std::to_string(k) + "_" + std::to_string(j), 0.5, 1.0,
                           Vec3(k * std::sqrt(3.0) / 2.0, -k / 2.0 + j, 0));
      if (cueSpin > 0.0) e.angularMomentum = Vec3(u(rng), u(rng), u(rng));
      b.push_back(e);
    }
  }
  if (cueSpin > 0.0) b[0].angularMomentum = Vec3(cueSpin, -cueSpin, 0.5 * cueSpin);
  return b;
}

}  // namespace

class TestBodies : public QObject {
  Q_OBJECT
 private slots:
  void twoSpheresHeadOn() {  // spec M1
    Run r = start(world({sphere("a", 0.5, 1, Vec3(-2, 0, 0), Vec3(1, 0, 0)),
                         sphere("b", 0.5, 3, Vec3(2, 0, 0), Vec3(-1, 0, 0))},
                        0.0, false));
    advance(r, 300);
    QCOMPARE(r.impacts.size(), std::size_t(1));
    QVERIFY(std::fabs(r.velocity("a", 1).x() + 2.0) < 1e-12);
    QVERIFY(std::fabs(r.velocity("b", 3).x()) < 1e-12);
    QVERIFY(std::fabs(r.value("mom.px") + 2.0) < 1e-12);
    QVERIFY(std::fabs(r.sim->energy().total() - 2.0) < 1e-12);
    QCOMPARE(r.impacts[0].bodyA, 0);
    QCOMPARE(r.impacts[0].bodyB, 1);
    // The impact time: the centres 4 m apart, 1 m of it gap, closing at 2 m/s: t = 1.5 s.
    QVERIFY(std::fabs(r.impacts[0].t - 1.5) < 1e-12);
  }

  void cradleWithGapsAndTouching() {  // spec M3, M4
    for (const double gap : {1e-3, 0.0}) {
      for (int in = 1; in <= 3; ++in) {
        Run r = start(world(cradle(in, gap), 0.0, false));
        advance(r, 500);
        for (int i = 0; i < 5; ++i) {
          const double expected = i >= 5 - in ? 1.0 : 0.0;
          QVERIFY2(std::fabs(r.velocity(std::string("b") + std::to_string(i), 1).x() - expected) < 1e-12,
                   qPrintable(QString("gap %1, %2 in: ball %3 at %4").arg(gap).arg(in).arg(i)
                                  .arg(r.velocity(std::string("b") + std::to_string(i), 1).x(), 0, 'g', 17)));
        }
      }
    }
  }

  // A ball dropped off-centre onto a fixed ball far from the origin: the jump reflects the
  // velocity about the line of centres at the contact (n = (0.3, 0, sqrt(0.91)) here), so the
  // ball leaves sideways at vx = -2 (v.n) n_x. (Fixed bodies once entered the impact with the
  // state of a body at the origin: the normal came out nearly vertical and the ball bounced
  // almost straight up, or fell into the next fixed body it met.)
  void ballOffAFixedBallReflectsAboutTheLineOfCentres() {
    BodyEntry post = sphere("post", 0.5, 1.0, Vec3(20.0, -7.0, 3.0));
    post.fixed = true;
    Run r = start(world({sphere("ball", 0.5, 2.0, Vec3(20.3, -7.0, 5.0)), post}, 9.81, false));
    advance(r, 60);  // 0.6 s: one impact, at about 0.46 s
    QCOMPARE(r.impacts.size(), std::size_t(1));
    QCOMPARE(r.impacts[0].bodyA, 0);
    QCOMPARE(r.impacts[0].bodyB, 1);
    const double nz = std::sqrt(1.0 - 0.09), drop = 5.0 - (3.0 + nz);
    const double v = std::sqrt(2.0 * 9.81 * drop);  // speed at the contact
    QVERIFY2(std::fabs(r.impacts[0].t - v / 9.81) < 1e-9, qPrintable(QString::number(r.impacts[0].t, 'g', 17)));
    const Vec3 after = r.velocity("ball", 2.0);
    const double vn = -v * nz;  // v.n before
    QVERIFY2(std::fabs(after.x() - (-2.0 * vn * 0.3)) < 1e-9, qPrintable(QString::number(after.x(), 'g', 17)));
    QVERIFY(std::fabs(after.y()) < 1e-12);
  }

  void threeInALine() {  // spec M5
    Run r = start(world({sphere("a", 0.5, 1, Vec3(-2, 0, 0), Vec3(2, 0, 0)), sphere("b", 0.5, 1, Vec3::Zero()),
                         sphere("c", 0.5, 1, Vec3(2, 0, 0), Vec3(-2, 0, 0))},
                        0.0, false));
    advance(r, 300);
    QVERIFY(std::fabs(r.velocity("a", 1).x() + 2.0) < 1e-12);
    QVERIFY(std::fabs(r.velocity("b", 1).x()) < 1e-12);
    QVERIFY(std::fabs(r.velocity("c", 1).x() - 2.0) < 1e-12);
    QVERIFY(std::fabs(r.sim->energy().total() - 4.0) < 1e-12);
  }

  void bernoullisProblem() {  // spec M6
    Run r = start(world({sphere("a", 0.5, 1, Vec3(-2, 0, 0), Vec3(2, 0, 0)), sphere("b", 0.5, 1, Vec3(0, 0.5, 0)),
                         sphere("c", 0.5, 1, Vec3(0, -0.5, 0))},
                        0.0, false));
    advance(r, 300);
    QVERIFY(std::fabs(r.velocity("a", 1).x() + 0.4) < 1e-10);
    QVERIFY((r.velocity("b", 1) - Vec3(1.2, 0.4 * std::sqrt(3.0), 0)).norm() < 1e-10);
    QVERIFY((r.velocity("c", 1) - Vec3(1.2, -0.4 * std::sqrt(3.0), 0)).norm() < 1e-10);
    QVERIFY(std::fabs(r.velocity("b", 1).y() + r.velocity("c", 1).y()) <= 1e-15);
    QCOMPARE(r.velocity("b", 1).x(), r.velocity("c", 1).x());
  }

  void theBreak() {  // spec M10, and with random spins
    for (const double spin : {0.0, 3.0}) {
      const std::vector<BodyEntry> bodies = rack(spin);
      Run r = start(world(bodies, 0.0, false));
      advance(r, 1500);
      QVERIFY(std::fabs(r.value("mom.px") - 1.0) < 1e-12);
      QVERIFY(std::fabs(r.value("mom.py")) < 1e-12);
      QVERIFY(std::fabs(r.velocity("cue", 1).x() + 0.2) < 1e-12);
      double kinetic = 0.0;
      for (const BodyEntry& b : bodies) kinetic += 0.5 * r.velocity(b.name, 1).squaredNorm();
      QVERIFY(std::fabs(kinetic - 0.5) < 1e-12);
      // Mirror symmetry in y: ball j of row k mirrors ball k - j.
      for (int k = 0; k < 5; ++k) {
        for (int j = 0; j <= k; ++j) {
          const Vec3 a = r.velocity(std::string("r") + std::to_string(k) + "_" + std::to_string(j), 1);
          const Vec3 b = r.velocity(std::string("r") + std::to_string(k) + "_" + std::to_string(k - j), 1);
          QVERIFY(std::fabs(a.x() - b.x()) < 1e-12 && std::fabs(a.y() + b.y()) < 1e-12);
        }
      }
      // Frictionless contact between spheres never changes a spin.
      for (const BodyEntry& b : bodies) QCOMPARE(r.spin(b.name), b.angularMomentum);
    }
  }

  void stackDrop() {  // spec M11
    Scenario sc = world({sphere("low", 0.5, 1.0, Vec3(0, 0, 1.5)), sphere("up", 0.5, 0.1, Vec3(0, 0, 2.5))},
                        9.81, true);
    sc.integrator.h = 1e-3;
    Run r = start(sc);
    // Fall to the ground (1 m: t = sqrt(2/g)), then a few steps.
    const double v = std::sqrt(2.0 * 9.81);
    while (r.impacts.empty()) advance(r, 1);
    const double t = r.sim->time(), tImpact = r.impacts.front().t;
    QVERIFY(std::fabs(tImpact - std::sqrt(2.0 / 9.81)) < 1e-12);
    // Velocities at the end of the impact's step: 29/11 v and 7/11 v less g (t - tImpact).
    QVERIFY(std::fabs(r.velocity("up", 0.1).z() - (29.0 / 11.0 * v - 9.81 * (t - tImpact))) < 1e-9);
    QVERIFY(std::fabs(r.velocity("low", 1.0).z() - (7.0 / 11.0 * v - 9.81 * (t - tImpact))) < 1e-9);
    // Ground first, then the pair: two rows at the same instant.
    QCOMPARE(r.impacts.size(), std::size_t(2));
    QCOMPARE(r.impacts[0].bodyB, -1);
    QCOMPARE(r.impacts[1].bodyB, 1);
  }

  void flatLandingsBounceStraightUp() {  // spec F1
    for (const double side : {0.5, 1.0, 2.0, 2.0 * std::sqrt(3.0), 4.0, 10.0}) {
      BodyEntry cube;
      cube.name = "cube";
      cube.body.shape = BodyNode::Shape::Box;
      cube.body.size = Vec3::Constant(side);
      cube.position = Vec3(0, 0, 1.0 + side / 2.0);
      Run r = start(world({cube}, 9.81, true));
      while (r.impacts.empty()) advance(r, 1);
      advance(r, 5);
      QVERIFY2(r.spin("cube").norm() <= 1e-12, qPrintable(QString::number(r.spin("cube").norm())));
      QVERIFY(r.velocity("cube", 1).head<2>().norm() <= 1e-12);
      QVERIFY(r.velocity("cube", 1).z() > 0.0);
    }
  }

  void convergingSpheresConserveMomenta() {  // spec M13, wall-less part
    std::mt19937_64 rng(11);
    std::normal_distribution<double> n01(0.0, 1.0);
    std::vector<BodyEntry> bodies;
    for (int i = 0; i < 50; ++i) {
      // A shell of radius 8 (a Fibonacci lattice: no two closer than 3 m), moving inwards with a
      // random spin and a random tangential part.
      const double z = 1.0 - (2.0 * i + 1.0) / 50.0, phi = 2.399963229728653 * i;
      const Vec3 dir(std::sqrt(1.0 - z * z) * std::cos(phi), std::sqrt(1.0 - z * z) * std::sin(phi), z);
      // A swirl about z (the shell turns as a whole) plus random tangential parts.
      BodyEntry e = sphere(std::string("s") + std::to_string(i), 0.5, 1.0 + 0.02 * i, 8.0 * dir,
                           -1.5 * dir + Vec3(0, 0, 0.15).cross(8.0 * dir) +
                               0.3 * Vec3(n01(rng), n01(rng), n01(rng)));
      e.angularMomentum = Vec3(n01(rng), n01(rng), n01(rng));
      bodies.push_back(e);
    }
    Run r = start(world(bodies, 0.0, false));
    const Vec3 P0(r.value("mom.px"), r.value("mom.py"), r.value("mom.pz"));
    const Vec3 L0(r.value("mom.Lx"), r.value("mom.Ly"), r.value("mom.Lz"));
    const double E0 = r.sim->energy().total();
    advance(r, 10000);
    QVERIFY2(r.impacts.size() >= 10, qPrintable(QString::number(r.impacts.size())));
    const Vec3 P(r.value("mom.px"), r.value("mom.py"), r.value("mom.pz"));
    const Vec3 L(r.value("mom.Lx"), r.value("mom.Ly"), r.value("mom.Lz"));
    QVERIFY2((P - P0).norm() <= 1e-12 * P0.norm() + 1e-13, qPrintable(QString::number((P - P0).norm())));
    QVERIFY2((L - L0).norm() <= 1e-12 * L0.norm(), qPrintable(QString::number((L - L0).norm() / L0.norm())));
    QVERIFY(std::fabs(r.sim->energy().total() - E0) <= 1e-12 * E0);
    for (const BodyEntry& b : bodies) QCOMPARE(r.spin(b.name), b.angularMomentum);
  }

  void outcomeDoesNotDependOnTheOrderOfBodies() {
    std::vector<BodyEntry> bodies = rack(0.0);
    Run a = start(world(bodies, 0.0, false));
    std::reverse(bodies.begin(), bodies.end());
    Run b = start(world(bodies, 0.0, false));
    advance(a, 1500);
    advance(b, 1500);
    for (const BodyEntry& e : bodies) {
      QVERIFY((a.velocity(e.name, 1) - b.velocity(e.name, 1)).norm() < 1e-13);
    }
  }

  void bouncingBallSettles() {  // spec R1 on a sphere
    Run r = start(world({sphere("ball", 0.5, 1.0, Vec3(0, 0, 1.5))}, 9.81, true, 0.9));
    advance(r, 2000);
    const double expected[] = {0.4515236410, 1.2642661948, 1.9957344932, 2.6540559617};
    QVERIFY(r.impacts.size() > 30);
    for (int k = 0; k < 4; ++k) {
      QVERIFY2(std::fabs(r.impacts[std::size_t(k)].t - expected[k]) < 1e-9,
               qPrintable(QString::number(r.impacts[std::size_t(k)].t, 'g', 12)));
    }
    // Every rebound at 0.9 of the approach: the energy after each impact is 0.81 of the kinetic.
    for (std::size_t k = 0; k + 1 < r.impacts.size(); ++k) {
      const double before = r.impacts[k].energyBefore, after = r.impacts[k].energyAfter;
      QVERIFY(after < before);
    }
    const double v1 = std::sqrt(2.0 * 9.81), t1 = std::sqrt(2.0 / 9.81);
    const double accumulation = t1 + 2.0 * 0.9 * v1 / (9.81 * 0.1);
    const double settled = r.sim->settledTime();
    QVERIFY2(settled > accumulation - 0.15 && settled <= accumulation,
             qPrintable(QString::number(settled)));
    QVERIFY(std::fabs(r.value("ball.q.z") - 0.5) < 1e-12);
    QVERIFY(std::fabs(r.velocity("ball", 1).z()) < 1e-12);
    // Energy plus dissipated energy is the initial energy.
    QVERIFY(std::fabs(r.sim->energy().total() + r.sim->dissipatedEnergy() - 1.5 * 9.81) < 1e-9);
  }

  void restitutionHalvesTheRelativeVelocity() {  // spec R3
    Run r = start(world({sphere("a", 0.5, 1, Vec3(-2, 0, 0), Vec3(1, 0, 0)),
                         sphere("b", 0.5, 3, Vec3(2, 0, 0), Vec3(-1, 0, 0))},
                        0.0, false, 0.5));
    advance(r, 300);
    QVERIFY(std::fabs(r.value("mom.px") + 2.0) < 1e-12);
    QVERIFY(std::fabs(r.velocity("a", 1).x() - r.velocity("b", 3).x() + 1.0) < 1e-12);
    QVERIFY(std::fabs(r.sim->dissipatedEnergy() - 1.125) < 1e-12);
    QVERIFY(std::fabs(r.value("e.dissipated") - 1.125) < 1e-12);
  }

  void inelasticCollapseEndsClearly() {  // spec R5
    auto line = [](double e) {
      return world({sphere("a", 0.5, 1, Vec3(-2, 0, 0), Vec3(1, 0, 0)), sphere("b", 0.5, 1, Vec3(0.3, 0, 0)),
                    sphere("c", 0.5, 1, Vec3(2, 0, 0), Vec3(-1, 0, 0))},
                   0.0, false, e);
    };
    Run r = start(line(0.08));
    advance(r, 400);
    QVERIFY2(r.impacts.size() >= 8 && r.impacts.size() <= 14, qPrintable(QString::number(r.impacts.size())));
    QVERIFY(r.impacts.back().t < 2.5);
    // Below 7 - 4 sqrt 3 the impacts accumulate: the run stops with a named status, promptly.
    Run c = start(line(0.05));
    Recorder rec(c.impacts);
    const AdvanceResult res = c.sim->advance(400, &rec);
    QVERIFY(res.ok() || res.status == RunStatus::Zeno);
    if (!res.ok()) QVERIFY(res.message.find("Zeno") != std::string::npos);
  }

  void tumblingCubeSettlesFlat() {  // spec R6
    BodyEntry cube;
    cube.name = "cube";
    cube.body.shape = BodyNode::Shape::Box;
    cube.body.size = Vec3::Constant(1.0);
    cube.body.epsilon = 0.05;
    cube.position = Vec3(0, 0, 2);
    cube.rotation = Vec3(0.3, 0.2, 0.1);
    cube.angularVelocity = Vec3(6.0, -4.0, 0.0);
    Run r = start(world({cube}, 9.81, true, 0.7));
    advance(r, 1500);
    const double settled = r.sim->settledTime();
    QVERIFY(std::isfinite(settled));
    // On a face: z = half side + rounding, nothing left to slide or spin.
    QVERIFY(std::fabs(r.value("cube.q.z") - 0.55) < 1e-12);
    QVERIFY(r.velocity("cube", 1).norm() < 1e-12);
    QVERIFY(r.spin("cube").norm() < 1e-12);
    const double e1 = r.sim->energy().total();
    advance(r, 1000);
    QVERIFY(std::fabs(r.sim->energy().total() - e1) <= 1e-12 * e1);
  }

  void badWorldsAreRefusedByName() {
    auto refused = [](const Scenario& sc) {
      const CreateResult cr = createSimulation(sc);
      return cr.simulation ? std::string() : cr.error;
    };
    std::string e = refused(world({sphere("a", 0.5, 1, Vec3::Zero()), sphere("b", 0.5, 1, Vec3(0.7, 0, 0))}, 0, false));
    QVERIFY2(e.find("'a' and 'b' overlap by 0.3") != std::string::npos, e.c_str());
    QVERIFY(refused(world({sphere("a", 0.5, 1, Vec3::Zero()), sphere("b", 0.5, 1, Vec3(1, 0, 0))}, 0, false)).empty());
    e = refused(world({sphere("a", 0.5, 1, Vec3::Zero()), sphere("a", 0.5, 1, Vec3(3, 0, 0))}, 0, false));
    QVERIFY2(e.find("name 'a' is used by an earlier body") != std::string::npos, e.c_str());
    e = refused(world({sphere("plane", 0.5, 1, Vec3(0, 0, 3))}, 0, true));
    QVERIFY2(e.find("is reserved") != std::string::npos, e.c_str());
    e = refused(world({sphere("a b", 0.5, 1, Vec3(0, 0, 3))}, 0, true));
    QVERIFY2(e.find("letters, digits") != std::string::npos, e.c_str());
    BodyEntry post = sphere("post", 0.5, 1, Vec3(0, 0, 3), Vec3(1, 0, 0));
    post.fixed = true;
    e = refused(world({post}, 0, true));
    QVERIFY2(e.find("is fixed but has a velocity") != std::string::npos, e.c_str());
    e = refused(world({sphere("a", 0.5, -2, Vec3(0, 0, 3))}, 0, true));
    QVERIFY2(e.find("mass m = -2 kg must be > 0") != std::string::npos, e.c_str());
    e = refused(world({sphere("a", 0.5, 1, Vec3(0, 0, 0.2))}, 9.81, true));
    QVERIFY2(e.find("body 'a' cuts 'plane' by 0.3") != std::string::npos, e.c_str());
    e = refused(world({sphere("a", 0.5, 1, Vec3(0, std::nan(""), 1))}, 9.81, true));
    QVERIFY2(e.find("must be finite") != std::string::npos, e.c_str());
  }
};

QTEST_APPLESS_MAIN(TestBodies)
#include "test_bodies.moc"
