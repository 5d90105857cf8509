// ellipse-floor (docs/acceptance.md, "Ellipse (C1–C4)", rows C1-C3; P000 §4.2 with the
// consistent impact reading): early impacts against the exact event-driven times, the count in
// [0, 2] s, the energy band over 25 s, the P000-order initial conditions, exact p_x and
// admissibility.

#include "core/model/registry.hpp"
#include "core/numerics/roots.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <vector>

using namespace ricochet;
using namespace ricochet::testing;

class TestPlanarEllipse : public QObject {
  Q_OBJECT
 private slots:
  // P000 order: the first initial conditions are theta0, x0, y0; q.theta starts at pi/2, and the
  // first node is (q(0), M qdot(0)) (no conversion, as in FMOW): E0 = 37.70625.
  void initialConditionsInP000Order() {
    const SystemInfo& info = findSystem("ellipse-floor")->info();
    QCOMPARE(QString::fromStdString(info.initial[0].name), QStringLiteral("theta0"));
    QCOMPARE(QString::fromStdString(info.initial[3].name), QStringLiteral("omega0"));
    CreateResult cr = createSimulation(defaultScenario(*findSystem("ellipse-floor")));
    QVERIFY2(cr.simulation, cr.error.c_str());
    std::vector<double> row(cr.simulation->columns().size());
    cr.simulation->sample(row);
    QCOMPARE(row[columnIndex(*cr.simulation, "q.theta")], std::numbers::pi / 2);
    QCOMPARE(row[columnIndex(*cr.simulation, "q.y")], 3.5);
    QCOMPARE(row[columnIndex(*cr.simulation, "p.theta")], -3.0 * 0.3125);
    QCOMPARE(row[columnIndex(*cr.simulation, "p.x")], 2.0);
    QVERIFY(std::fabs(cr.simulation->energy().total() - 37.70625) <= 1e-12);
  }

  // C1: first three impacts 0.7506, 1.1525, 2.3244 (1e-3) with h = 1e-2. C2: 2 impacts in
  // [0, 2] s. The first one also against the closed-form flight (exact until then): Brent on
  // y(t) - phi(theta(t)).
  void c1c2_earlyImpacts() {
    CreateResult cr = createSimulation(defaultScenario(*findSystem("ellipse-floor")));
    QVERIFY2(cr.simulation, cr.error.c_str());
    ImpactLog sink;
    while (cr.simulation->time() < 2.5) QVERIFY(cr.simulation->advance(1, &sink).ok());
    QVERIFY(sink.impacts.size() >= 3);
    qInfo("C1: %.6f %.6f %.6f", sink.impacts[0].t, sink.impacts[1].t, sink.impacts[2].t);
    QVERIFY(std::fabs(sink.impacts[0].t - 0.7506) <= 1e-3);
    QVERIFY(std::fabs(sink.impacts[1].t - 1.1525) <= 1e-3);
    QVERIFY(std::fabs(sink.impacts[2].t - 2.3244) <= 1e-3);
    const auto inFirstTwo = std::count_if(sink.impacts.begin(), sink.impacts.end(),
                                          [](const ImpactRecord& r) { return r.t <= 2.0; });
    QCOMPARE(inFirstTwo, 2);
    auto gap = [](double t) {
      const double th = std::numbers::pi / 2 - 3.0 * t;
      return 3.5 - 4.9 * t * t - std::sqrt(std::sin(th) * std::sin(th) + 0.25 * std::cos(th) * std::cos(th));
    };
    const RootResult exact = brentRoot(gap, 0.5, 0.8, gap(0.5), gap(0.8), 1e-15, 0.0);
    QVERIFY(exact.converged);
    QVERIFY(std::fabs(sink.impacts[0].t - exact.x) <= 1e-12);
    // The contact point is the lowest point of the ellipse, on the floor.
    QVERIFY(std::fabs(sink.impacts[0].contactPoint.y()) <= 1e-12);
  }

  // C3: max |H - E0| over 25 s with h = 1e-2 <= 1e-2 (proto 5.1e-3); p_x exact, gap >= -1e-12.
  void c3_energyBandOver25s() {
    Scenario sc = defaultScenario(*findSystem("ellipse-floor"));
    QCOMPARE(sc.tEnd, 25.0);
    CreateResult cr = createSimulation(sc);
    Simulation& sim = *cr.simulation;
    const double e0 = sim.energy().total();
    const std::size_t px = columnIndex(sim, "mom.px"), gap = columnIndex(sim, "con.gap");
    std::vector<double> row(sim.columns().size());
    ImpactLog sink;
    double maxDev = 0.0, minGap = 1e300;
    const auto steps = static_cast<std::int64_t>(std::llround(sc.tEnd / sc.integrator.h));
    for (std::int64_t k = 0; k < steps; ++k) {
      const AdvanceResult r = sim.advance(1, &sink);
      QVERIFY2(r.ok(), r.message.c_str());
      maxDev = std::max(maxDev, std::fabs(sim.energy().total() - e0));
      sim.sample(row);
      minGap = std::min(minGap, row[gap]);
      QCOMPARE(row[px], 2.0);
    }
    qInfo("C3: %zu impacts in [0, 25] s (chaotic; not asserted), max|H - E0| = %.3e, min gap %.2e",
          sink.impacts.size(), maxDev, minGap);
    QVERIFY(maxDev <= 1e-2);
    QVERIFY(minGap >= -1e-12);
  }

  // The user-facing "ldap" option of ellipse-floor: P000's scheme in the consistent reading is
  // FMOW's for Delta = TQ (U6), so through the registry it must track "variational"
  // step for step until chaos amplifies round-off (a few impacts); same columns, same start.
  void ldapOptionTracksVariational() {
    Scenario sc = defaultScenario(*findSystem("ellipse-floor"));
    CreateResult fmow = createSimulation(sc);
    sc.integrator.name = "ldap";
    CreateResult ldap = createSimulation(sc);
    QVERIFY2(fmow.simulation && ldap.simulation, (fmow.error + ldap.error).c_str());
    QVERIFY(std::equal(fmow.simulation->columns().begin(), fmow.simulation->columns().end(),
                       ldap.simulation->columns().begin(), ldap.simulation->columns().end()));
    QCOMPARE(ldap.simulation->time(), 0.0);
    ImpactLog fi, li;
    std::vector<double> a(fmow.simulation->columns().size()), b(a.size());
    double maxDiff = 0.0;
    for (int k = 0; k < 200; ++k) {  // [0, 2] s: the first two impacts
      QVERIFY(fmow.simulation->advance(1, &fi).ok());
      QVERIFY(ldap.simulation->advance(1, &li).ok());
      fmow.simulation->sample(a);
      ldap.simulation->sample(b);
      for (std::size_t i = 0; i < 6; ++i) maxDiff = std::max(maxDiff, std::fabs(a[i] - b[i]));
    }
    qInfo("ldap vs variational over [0, 2] s: max |dq|, |dp| = %.2e", maxDiff);
    QCOMPARE(fi.impacts.size(), std::size_t(2));
    QCOMPARE(li.impacts.size(), std::size_t(2));
    QVERIFY(maxDiff <= 1e-10);
    QVERIFY(std::fabs(fi.impacts[1].t - li.impacts[1].t) <= 1e-10);
  }

  // C4 through the registry: "ldap-paper" (P000's literal (I8)) gives 1 impact in [0, 2] s, the
  // second at 2.042 (1e-2), and 15-20 impacts in [0, 25] s (P000 reports 17, proto 18).
  void c4_ldapPaperOptionReproducesP000Figures() {
    Scenario sc = defaultScenario(*findSystem("ellipse-floor"));
    sc.integrator.name = "ldap-paper";
    CreateResult cr = createSimulation(sc);
    QVERIFY2(cr.simulation, cr.error.c_str());
    ImpactLog sink;
    while (cr.simulation->time() < 25.0 - 1e-9) {
      const AdvanceResult r = cr.simulation->advance(1, &sink);
      QVERIFY2(r.ok(), r.message.c_str());
      QVERIFY(cr.simulation->minGap() >= -1e-12);
    }
    const auto inFirstTwo = std::count_if(sink.impacts.begin(), sink.impacts.end(),
                                          [](const ImpactRecord& r) { return r.t <= 2.0; });
    qInfo("C4 via ellipse-floor/ldap-paper: %zu impacts in 25 s, second at %.4f",
          sink.impacts.size(), sink.impacts.size() > 1 ? sink.impacts[1].t : -1.0);
    QCOMPARE(inFirstTwo, 1);
    QVERIFY(sink.impacts.size() >= 2);
    QVERIFY(std::fabs(sink.impacts[1].t - 2.042) <= 1e-2);
    QVERIFY(sink.impacts.size() >= 15 && sink.impacts.size() <= 20);
  }
};

QTEST_APPLESS_MAIN(TestPlanarEllipse)
#include "test_planar_ellipse.moc"
