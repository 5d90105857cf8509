// Long runs of the bodies engine, at a size CTest can afford (the full campaign is the bench
// program ricochet-body-campaign, README "Reliability"):
//  * random user bodies (hulls, boxes, ellipsoids; over the ground and in a box of walls; lively
//    and gentle) run 20000 steps each without stopping, energy bounded; with restitution they
//    end settled with energy + dissipated equal to the start;
//  * a die rattling in a tight box through 1e6 impacts shows no energy drift per impact (the
//    one-body bias that drained -2e-15 J per impact is gone);
//  * 50 spheres in a closed box through thousands of impacts: energy to 1e-10 relative and no
//    gap below -1e-12 m.

#include "bench/body_campaign.hpp"
#include "core/model/registry.hpp"

#include <QtTest>

#include <cmath>
#include <random>

using namespace ricochet;
using Vec3 = Eigen::Vector3d;

namespace {

/// Least-squares slope of y against x, and its standard error.
struct Fit {
  double slope = 0.0, standardError = 0.0;
};
Fit fitSlope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = double(x.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mx += x[i], my += y[i];
  mx /= n;
  my /= n;
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
  Fit f;
  f.slope = sxy / sxx;
  const double b0 = my - f.slope * mx;
  double rss = 0;
  for (std::size_t i = 0; i < x.size(); ++i) rss += (y[i] - b0 - f.slope * x[i]) * (y[i] - b0 - f.slope * x[i]);
  f.standardError = std::sqrt(rss / (n - 2.0) / sxx);
  return f;
}

Scenario bodiesWorld(std::vector<BodyEntry> bodies, double g, const BoxWorld& box) {
  Scenario sc = defaultScenario(*findSystem("bodies"));
  auto b = std::make_shared<BodyScenario>();
  b->bodies = std::move(bodies);
  b->ground = true;
  b->world.box = box;
  sc.body = b;
  const auto& params = findSystem("bodies")->info().parameters;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].name == "g") sc.parameters[i] = g;
  }
  sc.tEnd = 1e300;
  return sc;
}

}  // namespace

class TestBodiesLongrun : public QObject {
  Q_OBJECT
 private slots:
  void randomUserBodiesRunWithoutStopping() {
    campaign::Options o;
    o.runs = 1;
    o.seed = 7;
    const std::vector<campaign::Case> cases = campaign::makeCases(o);
    QCOMPARE(cases.size(), std::size_t(12));
    for (const campaign::Case& c : cases) {
      const campaign::Outcome r = campaign::runCase(c, 20000);
      QVERIFY2(r.ok, qPrintable(QString::fromStdString(r.label + ": " + r.message)));
      QCOMPARE(r.steps, 20000LL);
      QVERIFY2(r.impacts > 0, r.label.c_str());
      qInfo("%s: %lld impacts, max |dE|/E0 %.2e", r.label.c_str(), r.impacts, r.worstEnergy);
      QVERIFY2(r.worstEnergy < kElasticBound,
               qPrintable(QString::fromStdString(r.label) + ": " + QString::number(r.worstEnergy)));
    }
  }

  void randomUserBodiesWithRestitutionSettle() {
    campaign::Options o;
    o.runs = 1;
    o.seed = 11;
    o.eLo = 0.3;
    o.eHi = 0.95;
    for (const campaign::Case& c : campaign::makeCases(o)) {
      const campaign::Outcome r = campaign::runCase(c, 30000);
      QVERIFY2(r.ok, qPrintable(QString::fromStdString(r.label + ": " + r.message)));
      qInfo("%s: %lld impacts, settled %d, max |E + D - E0|/E0 %.2e", r.label.c_str(), r.impacts,
            int(r.settled), r.worstEnergy);
      QVERIFY2(r.settled, r.label.c_str());
      QVERIFY2(r.worstEnergy < kDissipativeBound,
               qPrintable(QString::fromStdString(r.label) + ": " + QString::number(r.worstEnergy)));
    }
  }

  // A unit die (isotropic: the closed-form rotation) in a box 1.9 x 1.7 x 2 m, thrown hard: an
  // impact every two steps or so, 1e6 of them. The energy after each impact, fitted against the impact count, has a slope
  // at round-off level, and the end differs from the start by round-off.
  void dieInATightBoxHasNoEnergyDrift() {
    BodyEntry die;
    die.name = "die";
    die.body.shape = BodyNode::Shape::Box;
    die.body.size = Vec3::Ones();
    die.body.epsilon = 0.05;
    die.position = Vec3(0.1, -0.05, 1.0);
    die.velocity = Vec3(7.0, 5.5, 3.0);
    die.angularMomentum = Vec3(0.4, -0.7, 0.3);
    BoxWorld box;
    box.size = Eigen::Vector2d(1.9, 1.7);
    box.height = 2.0;
    const Scenario sc = bodiesWorld({die}, 9.81, box);
    CreateResult cr = createSimulation(sc);
    QVERIFY2(cr.simulation, cr.error.c_str());
    Simulation& sim = *cr.simulation;
    const double e0 = sim.energy().total();
    std::vector<double> n, e;
    std::int64_t last = 0;
    double worst = 0.0;
    for (int k = 0; k < 2400000 && last < 1000000; ++k) {
      const AdvanceResult r = sim.advance(1, nullptr);
      QVERIFY2(r.ok(), qPrintable(QString::fromStdString(failureText(sim, r))));
      QVERIFY2(sim.minGap() >= -1e-12, qPrintable(QString::number(sim.minGap())));
      worst = std::max(worst, std::fabs(sim.energy().total() - e0) / e0);
      if (sim.impactCount() != last) {
        last = sim.impactCount();
        n.push_back(double(last));
        e.push_back((sim.energy().total() - e0) / e0);
      }
    }
    const Fit fit = fitSlope(n, e);
    // Round-off makes E a random walk: the slope's standard error is that of the mean increment
    // per impact (the increments are what is independent), not the least-squares one.
    double mean = 0.0, var = 0.0;
    for (std::size_t i = 1; i < e.size(); ++i) mean += (e[i] - e[i - 1]) / (n[i] - n[i - 1]);
    mean /= double(e.size() - 1);
    for (std::size_t i = 1; i < e.size(); ++i) {
      const double d = (e[i] - e[i - 1]) / (n[i] - n[i - 1]) - mean;
      var += d * d;
    }
    const double se = std::sqrt(var / double(e.size() - 2) / double(e.size() - 1));
    qInfo("die: %lld impacts, max |dE|/E0 %.2e, slope %.2e (least squares), mean increment %.2e +- %.1e per impact",
          (long long)last, worst, fit.slope, mean, se);
    QVERIFY2(last >= 1000000, qPrintable(QString::number(last)));
    // The old bias was -2e-15 J per impact (about -1e-16 relative here): now the mean increment
    // per impact is within three standard errors of zero.
    QVERIFY2(std::fabs(mean) <= 3.0 * se, qPrintable(QStringLiteral("%1 +- %2").arg(mean).arg(se)));
    QVERIFY2(std::fabs(fit.slope) <= 1e-18, qPrintable(QString::number(fit.slope)));
    QVERIFY2(worst < 1e-11, qPrintable(QString::number(worst)));
  }

  // Case M13 at CTest's size: 50 spheres of mixed masses and radii in a closed box, no gravity.
  void fiftySpheresInABoxKeepEnergyAndStayAdmissible() {
    std::mt19937_64 rng(13);
    std::normal_distribution<double> n01(0.0, 1.0);
    std::vector<BodyEntry> bodies;
    for (int i = 0; i < 50; ++i) {
      BodyEntry s;
      s.name = std::string("s").append(std::to_string(i));
      s.body.shape = BodyNode::Shape::Sphere;
      s.body.size = Vec3::Constant(0.3 + 0.01 * (i % 7));
      s.mass = 0.5 + 0.05 * i;
      s.position = Vec3(-4.0 + 2.0 * (i % 5), -4.0 + 2.0 * ((i / 5) % 5), 1.0 + 2.0 * (i / 25));
      s.velocity = 2.0 * Vec3(n01(rng), n01(rng), n01(rng));
      s.angularMomentum = 0.1 * Vec3(n01(rng), n01(rng), n01(rng));
      bodies.push_back(s);
    }
    BoxWorld box;
    box.size = Eigen::Vector2d(10.0, 10.0);
    box.height = 4.0;
    const Scenario sc = bodiesWorld(bodies, 0.0, box);
    CreateResult cr = createSimulation(sc);
    QVERIFY2(cr.simulation, cr.error.c_str());
    Simulation& sim = *cr.simulation;
    const double e0 = sim.energy().total();
    double worst = 0.0;
    for (int k = 0; k < 200; ++k) {
      const AdvanceResult r = sim.advance(100, nullptr);
      QVERIFY2(r.ok(), qPrintable(QString::fromStdString(failureText(sim, r))));
      QVERIFY2(sim.minGap() >= -1e-12, qPrintable(QString::number(sim.minGap())));
      worst = std::max(worst, std::fabs(sim.energy().total() - e0) / e0);
    }
    qInfo("50 spheres: %lld impacts, max |dE|/E0 %.2e", (long long)sim.impactCount(), worst);
    QVERIFY2(sim.impactCount() > 2000, qPrintable(QString::number(sim.impactCount())));
    QVERIFY2(worst <= 1e-10, qPrintable(QString::number(worst)));
  }

 private:
  // Elastic: measured <= 1.5e-14 on these 12 runs of 20000 steps (the full campaign's 720 runs
  // of 1e6 steps: <= 1.1e-12, README "Reliability").
  static constexpr double kElasticBound = 1e-12;
  // E + dissipated against E0 with restitution over 30000 steps: measured <= 2.6e-6 for hulls
  // and boxes, <= 4.1e-5 for the held, rocking ellipsoids (their drift while held is an open
  // defect, docs/restitution.md; up to 0.1 of E0 over 1e6 steps in the full campaign).
  static constexpr double kDissipativeBound = 2e-4;
};

QTEST_GUILESS_MAIN(TestBodiesLongrun)
#include "test_bodies_longrun.moc"
