// star-floor (docs/acceptance.md, "Star (B1–B4)"): early impacts against the event-driven exact
// times, the energy band over 1500 impacts, admissibility and exact p_x, second-order convergence
// through an impact with the nonlinear potential of B4, and the drawn outline's inertia.

#include "core/model/registry.hpp"
#include "core/planar/fmow_integrator.hpp"
#include "core/planar/planar_model.hpp"
#include "core/planar/planar_simulation.hpp"
#include "core/planar/planar_systems.hpp"
#include "test_planar_models.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <cmath>
#include <vector>

using namespace ricochet;
using namespace ricochet::planar;
using namespace ricochet::planar::testing;
using namespace ricochet::testing;

class TestPlanarStar : public QObject {
  Q_OBJECT
 private slots:
  // B1: first two impacts 0.7559990 (1e-8) and 2.263966 (2e-5) [exact, event-driven, g = 9.8].
  void b1_firstTwoImpacts() {
    CreateResult cr = createSimulation(defaultScenario(*findSystem("star-floor")));
    QVERIFY2(cr.simulation, cr.error.c_str());
    ImpactLog sink;
    while (sink.impacts.size() < 2) QVERIFY(cr.simulation->advance(1, &sink).ok());
    qInfo("B1: %.9f (gap %d), %.9f (gap %d)", sink.impacts[0].t, sink.impacts[0].constraint,
          sink.impacts[1].t, sink.impacts[1].constraint);
    QVERIFY(std::fabs(sink.impacts[0].t - 0.7559990) <= 1e-8);
    QVERIFY(std::fabs(sink.impacts[1].t - 2.263966) <= 2e-5);
    // theta(t1) = 3.78 rad, sin and cos < 0: the tip at body (+L/2, +L/2) ("tip++") is lowest.
    QCOMPARE(sink.impacts[0].constraint, 0);
  }

  // B2: 1500 impacts, max |H - E0| <= 1.5e-2 (proto 7.3e-3), E0 = 38.188021.
  // B3: every tip gap >= -1e-12 at every step, p_x = -2 exactly.
  void b2b3_1500Impacts() {
    CreateResult cr = createSimulation(defaultScenario(*findSystem("star-floor")));
    QVERIFY2(cr.simulation, cr.error.c_str());
    Simulation& sim = *cr.simulation;
    const double e0 = sim.energy().total();
    QVERIFY(std::fabs(e0 - 38.188021) <= 1e-6);
    const std::size_t px = columnIndex(sim, "mom.px"), gap = columnIndex(sim, "con.gap");
    std::vector<double> row(sim.columns().size());
    ImpactLog sink;
    double maxDev = 0.0, minGap = 1e300, worstPx = 0.0;
    while (sink.impacts.size() < 1500) {
      const AdvanceResult r = sim.advance(1, &sink);
      QVERIFY2(r.ok(), r.message.c_str());
      maxDev = std::max(maxDev, std::fabs(sim.energy().total() - e0));
      sim.sample(row);
      minGap = std::min(minGap, row[gap]);
      worstPx = std::max(worstPx, std::fabs(row[px] + 2.0));
    }
    const auto d = dynamic_cast<const impact::StepperSimulation<FmowIntegrator<StarFloorModel<>>>&>(sim).diagnostics();
    qInfo("B2: 1500th impact at %.2f s after %lld steps; max|H - E0| = %.3e; min gap %.2e; "
          "steps with several impacts %lld (max %d in one step); grazing fallbacks %lld; "
          "max energy residual %.1e",
          sink.impacts[1499].t, static_cast<long long>(sim.step()), maxDev, minGap,
          static_cast<long long>(d.multiImpactSteps), d.maxImpactsInStep,
          static_cast<long long>(d.reflected), d.maxEnergyResidual);
    QVERIFY(maxDev <= 1.5e-2);
    QVERIFY(minGap >= -1e-12);
    QCOMPARE(worstPx, 0.0);
  }

  // B4: V = -m g rho^2/(rho + y), rho = 10, T = 1.6: exactly one impact (t = 0.997403); the error
  // of q(T) against h_ref = T/2^14 over h = T/2^5 ... T/2^11 has a least-squares slope in
  // [1.8, 2.6] (proto 2.21): second order survives the impact (FMOW Fig. 5).
  void b4_secondOrderThroughAnImpact() {
    using Model = StarFloorModel<RadialGravity>;
    Model model;
    model.massDiagonal = Model::Vec(1.0, 1.0, 29.0 / 192.0);
    const double T = 1.6;
    auto run = [&](int exponent, std::vector<double>* impactTimes) {
      const long steps = 1L << exponent;
      const double h = T / static_cast<double>(steps);
      FmowIntegrator<Model> integ(model, h);
      const auto hist = runSteps(integ, Model::Vec(0, 3.5, 0), Model::Vec(-2, 0, 5 * model.massDiagonal[2]), steps);
      if (impactTimes) {
        for (std::size_t k = 0; k < hist.impacts.size(); ++k) {
          for (const auto& imp : hist.impacts[k]) impactTimes->push_back((k + imp.s) * h);
        }
      }
      return hist.q.back();
    };
    std::vector<double> impacts;
    const Model::Vec reference = run(14, &impacts);
    QCOMPARE(impacts.size(), std::size_t(1));
    qInfo("B4: impact at %.6f s (h_ref = T/2^14)", impacts[0]);
    QVERIFY(std::fabs(impacts[0] - 0.997403) <= 1e-5);
    std::vector<double> hs, errors;
    QString rates;
    for (int e = 5; e <= 11; ++e) {
      hs.push_back(T / std::pow(2.0, e));
      errors.push_back((run(e, nullptr) - reference).norm());
      if (errors.size() > 1) {
        rates += QString::number(std::log2(errors[errors.size() - 2] / errors.back()), 'f', 2) + " ";
      }
    }
    const double slope = logLogSlope(hs, errors);
    qInfo("B4: least-squares slope %.3f; step-to-step rates %s", slope, qPrintable(rates));
    QVERIFY(slope >= 1.8 && slope <= 2.6);
  }

  // The drawn star is the uniform plate whose inertia is FMOW's 29/192 m L^2 (tips at the hull
  // corners): polar moment of the outline polygon about its centroid, per unit area.
  void outlineHasTheStarsInertia() {
    const SystemDescription& star = *findSystem("star-floor");
    for (double L : {1.0, 2.5}) {
      const std::vector<double> params = {1.0, L, 9.8};
      const SceneSpec scene = star.scene(params);
      QCOMPARE(scene.view, ViewKind::Planar);
      QCOMPARE(scene.bodies.size(), std::size_t(1));
      const auto& outline = std::get<PrismShape>(scene.bodies[0].parts.at(0).shape).outline;
      double area = 0, j = 0;
      for (std::size_t i = 0; i < outline.size(); ++i) {
        const Eigen::Vector2d a = outline[i], b = outline[(i + 1) % outline.size()];
        const double cross = a.x() * b.y() - b.x() * a.y();
        area += cross / 2;
        j += cross * (a.squaredNorm() + a.dot(b) + b.squaredNorm()) / 12;
      }
      QVERIFY(area > 0);  // counter-clockwise
      QVERIFY(std::fabs(j / area - 29.0 / 192.0 * L * L) <= 1e-12 * L * L);
      for (double sx : {-1.0, 1.0}) {
        for (double sy : {-1.0, 1.0}) {
          const Eigen::Vector2d tip(sx * L / 2, sy * L / 2);
          QVERIFY(std::any_of(outline.begin(), outline.end(),
                              [&](const Eigen::Vector2d& v) { return (v - tip).norm() < 1e-15; }));
        }
      }
      QCOMPARE(scene.characteristicLength, L);
    }
  }
};

QTEST_APPLESS_MAIN(TestPlanarStar)
#include "test_planar_star.moc"
