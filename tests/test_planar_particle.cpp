// particle-floor through the registry (docs/acceptance.md, "Particle (A1–A4)"): first impact,
// 1000 impacts, energy band, exact p_x, admissibility at every step, and the content of the
// impact records.

#include "core/model/registry.hpp"
#include "core/numerics/grazing.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

using namespace ricochet;
using namespace ricochet::testing;

namespace {

Scenario particleDefaults() { return defaultScenario(*findSystem("particle-floor")); }

constexpr double kG = 9.8, kH = 0.01;

}  // namespace

class TestPlanarParticle : public QObject {
  Q_OBJECT
 private slots:
  // A1: first impact at t1 = sqrt(2 y0 / g) = 0.4517539515 s (exact; 1e-9), alpha = 0.1754 (1e-4).
  void a1_firstImpact() {
    CreateResult cr = createSimulation(particleDefaults());
    QVERIFY2(cr.simulation, cr.error.c_str());
    ImpactLog sink;
    while (sink.impacts.empty()) QVERIFY(cr.simulation->advance(1, &sink).ok());
    const ImpactRecord& r = sink.impacts.front();
    qInfo("A1: t = %.12f s, alpha = %.6f", r.t, r.alpha);
    QVERIFY(std::fabs(r.t - 0.4517539515) <= 1e-9);
    QVERIFY(std::fabs(r.alpha - 0.1754) <= 1e-4);
    // Verlet is exact on the parabola, so the only error left is the root tolerance.
    QVERIFY(std::fabs(r.t - std::sqrt(2.0 / kG)) <= 1e-12);
    QCOMPARE(r.step, std::int64_t(46));  // inside step 45 -> 46
    QCOMPARE(r.constraint, 0);
    QVERIFY(std::fabs(r.contactPoint.y()) <= 1e-12);
    QVERIFY(std::fabs(r.contactPoint.x() - (-2.0 * r.t)) <= 1e-12);
    QVERIFY(r.impulse > 0.0);
    // The continuous energy at the impact point changes by (h^2/8) m g^2 (1 - 2 alpha)
    // (docs/planar-vci.md, "Energy identity for linear potentials").
    const double expected = kH * kH / 8.0 * kG * kG * (1.0 - 2.0 * r.alpha);
    QVERIFY(std::fabs((r.energyAfter - r.energyBefore) - expected) <= 1e-12);
  }

  // A2: 1000th impact at 903.05 s (+-0.05; exact 903.056). A3: max |H - E0| over 1000 impacts
  // <= 4e-3 (proto 1.8e-3). A4: p_x = -2 exactly. Admissibility: gap >= -1e-12 at every step.
  void a2a3a4_thousandImpacts() {
    Scenario sc = particleDefaults();
    CreateResult cr = createSimulation(sc);
    QVERIFY2(cr.simulation, cr.error.c_str());
    Simulation& sim = *cr.simulation;
    const double e0 = sim.energy().total();
    QVERIFY(std::fabs(e0 - 11.8) <= 1e-12);
    const std::size_t px = columnIndex(sim, "mom.px"), gap = columnIndex(sim, "con.gap");
    QVERIFY(px < sim.columns().size() && gap < sim.columns().size());
    std::vector<double> row(sim.columns().size());
    ImpactLog sink;
    double maxDev = 0.0, minGap = 1e300, worstPx = 0.0;
    std::vector<double> afterImpact;  // H - E0 after each impact's step
    while (sink.impacts.size() < 1000) {
      const std::size_t before = sink.impacts.size();
      const AdvanceResult r = sim.advance(1, &sink);
      QVERIFY2(r.ok(), r.message.c_str());
      if (sink.impacts.size() > before) afterImpact.push_back(sim.energy().total() - e0);
      maxDev = std::max(maxDev, std::fabs(sim.energy().total() - e0));
      sim.sample(row);
      minGap = std::min(minGap, row[gap]);
      worstPx = std::max(worstPx, std::fabs(row[px] + 2.0));
      QVERIFY(sim.time() < 1000.0);
    }
    const double t1000 = sink.impacts[999].t;
    qInfo("A2: 1000th impact at %.4f s (exact 903.056); A3: max|H - E0| = %.3e; min gap %.2e; "
          "max |p_x + 2| = %.1e", t1000, maxDev, minGap, worstPx);
    QVERIFY(std::fabs(t1000 - 903.05) <= 0.05);
    QVERIFY(maxDev <= 4e-3);
    QVERIFY(maxDev > 1e-4);  // the O(h^2) kicks are really there (amplitude (h^2/8) m g^2 = 1.2e-3)
    QCOMPARE(worstPx, 0.0);
    QVERIFY(minGap >= -1e-12);
    // No drift: the kicks of size (1 - 2 alpha)(h^2/8) m g^2 average out. The mean of H - E0
    // over the last 100 impacts is that of the first 100 to a small fraction of the 1.2e-3 J
    // kick amplitude (the bound catches a drift of 1.3e-7 J per impact over the 900 between).
    QCOMPARE(afterImpact.size(), std::size_t(1000));
    double first = 0.0, last = 0.0;
    for (int i = 0; i < 100; ++i) {
      first += afterImpact[std::size_t(i)] / 100.0;
      last += afterImpact[std::size_t(900 + i)] / 100.0;
    }
    qInfo("A3: mean H - E0 after impacts 1-100: %.3e J, 901-1000: %.3e J", first, last);
    QVERIFY(std::fabs(last - first) <= 1.2e-4);
    // Every record: one floor impact per step, alpha in (0, 1], time inside its step.
    for (const ImpactRecord& r : sink.impacts) {
      QVERIFY(r.alpha >= 0.0 && r.alpha <= 1.0);
      QVERIFY(r.t >= (r.step - 1) * kH - 1e-9 && r.t <= r.step * kH + 1e-9);
    }
  }

  // Near grazing (core/numerics/grazing.hpp), in closed form. A drop from rest at height y0 lands
  // at t1 = sqrt(2 y0 / g) with speed v = g t1 (the flight is exact). The energy root changes H by
  // kick = (1 - 2 alpha)(h^2/8) m g^2 (as in A1), so it rebounds at sqrt(v^2 + 2 kick / m)
  // and the reflection at v. The root is kept when it moves the rebound speed by at most
  // kGrazingReboundTolerance; otherwise the impulse is 2 m v exactly and H does not change.
  void grazingImpactsReflect() {
    const SystemDescription& system = *findSystem("particle-floor");
    const auto initialIndex = [&](const char* name) {
      for (std::size_t i = 0; i < system.info().initial.size(); ++i) {
        if (system.info().initial[i].name == name) return i;
      }
      qFatal("no initial condition %s", name);
    };
    int reflected = 0, balanced = 0;
    for (int i = 0; i <= 80; ++i) {
      const double y0 = 1e-4 * std::pow(10.0, i / 20.0);  // 0.1 mm .. 1 m
      Scenario sc = particleDefaults();
      sc.initial[initialIndex("y0")] = y0;
      sc.initial[initialIndex("vx0")] = 0.0;
      sc.initial[initialIndex("vy0")] = 0.0;
      CreateResult cr = createSimulation(sc);
      QVERIFY2(cr.simulation, cr.error.c_str());
      ImpactLog sink;
      while (sink.impacts.empty()) QVERIFY(cr.simulation->advance(1, &sink).ok());
      const ImpactRecord& r = sink.impacts.front();
      const double t1 = std::sqrt(2.0 * y0 / kG), v = kG * t1;  // m = 1
      QVERIFY(std::fabs(r.t - t1) <= 1e-12);
      const double kick = (1.0 - 2.0 * r.alpha) * kH * kH / 8.0 * kG * kG;
      const double disc = v * v + 2.0 * kick;
      const double change = disc < 0.0 ? 1.0 : std::fabs(std::sqrt(disc) - v) / v;
      if (std::fabs(change - kGrazingReboundTolerance) <= 1e-6) continue;  // too close to call
      if (change > kGrazingReboundTolerance) {
        ++reflected;
        QVERIFY2(r.reflected, qPrintable(QString("y0 = %1").arg(y0)));
        QVERIFY(std::fabs(r.impulse - 2.0 * v) <= 1e-12 * v);
        QVERIFY(std::fabs(r.energyAfter - r.energyBefore) <= 1e-14 * (1.0 + r.energyBefore));
      } else {
        ++balanced;
        QVERIFY2(!r.reflected, qPrintable(QString("y0 = %1").arg(y0)));
        QVERIFY(std::fabs(r.impulse - (v + std::sqrt(disc))) <= 1e-10 * v);
        QVERIFY(std::fabs((r.energyAfter - r.energyBefore) - kick) <= 1e-12);
      }
    }
    qInfo("grazing: %d of the drops reflected, %d energy-balanced", reflected, balanced);
    QVERIFY(reflected >= 10 && balanced >= 10);
  }

  // The e.discrete column is E_d of the last segment (72): H - (h^2/8) m g^2 on smooth steps with
  // linear gravity, a constant offset and not an error
  // (docs/design-notes.md, "Which energy: E_d and H").
  void discreteEnergyColumn() {
    CreateResult cr = createSimulation(particleDefaults());
    Simulation& sim = *cr.simulation;
    const std::size_t ed = columnIndex(sim, "e.discrete");
    QVERIFY(ed < sim.columns().size());
    std::vector<double> row(sim.columns().size());
    for (int k = 0; k < 40; ++k) {  // before the first impact (step 46)
      sim.sample(row);
      QVERIFY(std::fabs(row[ed] - (sim.energy().total() - kH * kH / 8.0 * kG * kG)) <= 1e-12);
      QVERIFY(sim.advance(1, nullptr).ok());
    }
  }
};

QTEST_APPLESS_MAIN(TestPlanarParticle)
#include "test_planar_particle.moc"
