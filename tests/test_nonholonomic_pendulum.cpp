// Nonholonomic spherical pendulum inside a cylinder (P000 §4.3): the acceptance rows D1-D4
// (docs/acceptance.md, "Pendulum (D1–D4)") with P000's rectangle scheme ("variational"), the
// symmetric midpoint variant, the exact 1-DOF reference, and the system's input checks.

#include "core/model/registry.hpp"
#include "core/nonholonomic/pendulum_cylinder.hpp"
#include "test_nonholonomic_reference.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

using namespace ricochet;
using namespace ricochet::nonholonomic;
using namespace ricochet::testing;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kE0 = -4.445419310;  // continuous energy of P000's initial data

struct Run {
  std::vector<ImpactRecord> impacts;
  std::vector<double> t, ed, invariant;  ///< per node: time, e.discrete, mom.invariant
  double minGap = 1e300, maxConstraint = 0.0;
  double theta = 0.0, phi = 0.0;
  bool ok = true;
  std::string message;
};

Run run(const char* integrator, double h, double tEnd) {
  Scenario sc = defaultScenario(*findSystem("pendulum-cylinder"));
  sc.integrator.name = integrator;
  sc.integrator.h = h;
  CreateResult cr = createSimulation(sc);
  if (!cr.simulation) qFatal("%s", cr.error.c_str());
  Simulation& sim = *cr.simulation;
  const auto cols = sim.columns();
  int iEd = -1, iInv = -1, iOm = -1;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (cols[i] == "e.discrete") iEd = int(i);
    if (cols[i] == "mom.invariant") iInv = int(i);
    if (cols[i] == "con.omega") iOm = int(i);
  }
  std::vector<double> row(cols.size());
  Run r;
  ImpactLog rec;
  sim.sample(row);
  r.t.push_back(sim.time());
  r.ed.push_back(row[iEd]);
  r.invariant.push_back(row[iInv]);
  const std::int64_t N = std::llround(tEnd / h);
  for (std::int64_t k = 0; k < N; ++k) {
    const AdvanceResult ar = sim.advance(1, &rec);
    if (!ar.ok()) {
      r.ok = false;
      r.message = ar.message;
      break;
    }
    sim.sample(row);
    r.t.push_back(sim.time());
    r.ed.push_back(row[iEd]);
    r.invariant.push_back(row[iInv]);
    r.minGap = std::min(r.minGap, sim.minGap());
    r.maxConstraint = std::max(r.maxConstraint, std::fabs(row[iOm]));
  }
  r.theta = row[0];
  r.phi = row[1];
  r.impacts = rec.impacts;
  return r;
}

double invariantDrift(const Run& r) {
  double d = 0.0;
  for (double v : r.invariant) d = std::max(d, std::fabs(v - r.invariant.front()));
  return d;
}

/// Mean of E_d - E0 over the nodes with t in [a, b].
double windowMean(const Run& r, double a, double b) {
  double s = 0.0;
  int n = 0;
  for (std::size_t i = 0; i < r.t.size(); ++i) {
    if (r.t[i] >= a && r.t[i] <= b) {
      s += r.ed[i] - kE0;
      ++n;
    }
  }
  return s / n;
}

/// Exact impact times from the 1-DOF quadrature (the constraint is integrable).
std::vector<double> exactImpacts(double T) {
  const double m = 1, g = 9.8, l = 2, R = 1.5;
  const double wLow = kPi - std::asin(R / l), wHigh = kPi + std::asin(R / l);
  const double first = nhref::pendulumTravelTime(m, g, l, kE0, 0.75 * kPi, wHigh);
  const double period = nhref::pendulumTravelTime(m, g, l, kE0, wLow, wHigh);
  std::vector<double> t;
  for (double x = first; x <= T; x += period) t.push_back(x);
  return t;
}

}  // namespace

class TestNonholonomicPendulum : public QObject {
  Q_OBJECT
 private slots:
  // The exact reference: E0 of P000's data, first impact 1.232602 s, then
  // every 1.315919 s; 3 impacts in 5 s, 76 in 100 s.
  void exactReference() {
    const double th = 0.75 * kPi, thd = 0.25 * kPi, f = kPi + std::cos(th) * std::cos(th);
    const double E = 0.5 * 4.0 * (thd * thd + f * f * thd * thd * std::sin(th) * std::sin(th)) +
                     9.8 * 2.0 * std::cos(th);
    QVERIFY(std::fabs(E - kE0) < 1e-9);
    QVERIFY(std::fabs(f - (kPi + 0.5)) < 1e-15);  // v(0) of P000 satisfies the constraint
    const auto t = exactImpacts(100.0);
    QVERIFY(std::fabs(t[0] - 1.232602) < 1e-6);
    QVERIFY(std::fabs((t[1] - t[0]) - 1.315919) < 1e-6);
    QCOMPARE(int(exactImpacts(5.0).size()), 3);
    QCOMPARE(int(t.size()), 76);
  }

  // D1: h = 1e-3, [0, 5] s: 3 impacts at 1.2323, 2.5475, 3.8623 (count exact, times 3e-3),
  // alternating walls; D4: invariant drift <= 1e-3 ([proto] 3.7e-4). Admissible at every node,
  // discrete constraint at round-off.
  void d1ThreeImpactsInFiveSeconds() {
    const Run r = run("variational", 1e-3, 5.0);
    QVERIFY2(r.ok, r.message.c_str());
    QCOMPARE(int(r.impacts.size()), 3);
    const double proto[3] = {1.2323, 2.5475, 3.8623};
    const auto exact = exactImpacts(5.0);
    for (int i = 0; i < 3; ++i) {
      QVERIFY(std::fabs(r.impacts[i].t - proto[i]) <= 3e-3);
      QCOMPARE(r.impacts[i].constraint, i % 2 == 0 ? 1 : 0);  // cylinder-, cylinder+, cylinder-
    }
    double lo = 1e300, hi = -1e300;
    for (double e : r.ed) {
      lo = std::min(lo, e - kE0);
      hi = std::max(hi, e - kE0);
    }
    std::printf("D1 h = 1e-3: impacts %.6f %.6f %.6f (exact %.6f %.6f %.6f); E_d - E0 in "
                "[%.3f, %.3f] ([proto] [-0.055, 0.089]); invariant drift %.2e; min gap %.2e; "
                "max |omega_d| %.1e\n",
                r.impacts[0].t, r.impacts[1].t, r.impacts[2].t, exact[0], exact[1], exact[2], lo,
                hi, invariantDrift(r), r.minGap, r.maxConstraint);
    QVERIFY(invariantDrift(r) <= 1e-3);
    QVERIFY(r.minGap >= -1e-12);
    QVERIFY(r.maxConstraint <= 1e-12);
  }

  // D2: h = 1e-4, [0, 100] s: 76 impacts, first at 1.2326 (5e-4). D3: E_d(100) - E0 (mean over
  // the last 2 s) in [0.02, 0.1] ([proto] +0.059; P000 Fig. 4: slow increase). D4: invariant
  // drift <= 1e-4 ([proto] 3.7e-5).
  void d2d3d4LongRun() {
    const Run r = run("variational", 1e-4, 100.0);
    QVERIFY2(r.ok, r.message.c_str());
    QCOMPARE(int(r.impacts.size()), 76);
    QVERIFY(std::fabs(r.impacts[0].t - 1.2326) <= 5e-4);
    const double m0 = windowMean(r, 0.0, 2.0), m10 = windowMean(r, 9.0, 11.0),
                 m50 = windowMean(r, 49.0, 51.0), m100 = windowMean(r, 98.0, 100.0);
    std::printf("D2/D3/D4 h = 1e-4: %zu impacts, first %.6f, last %.4f ([proto] 99.8006, exact "
                "%.4f); E_d - E0 window means %.1e (0 s) %.1e (10 s) %.1e (50 s) %.3f (100 s) "
                "([proto] 5.3e-4, 6.0e-3, 3.0e-2, 0.059); invariant drift %.2e; min gap %.2e\n",
                r.impacts.size(), r.impacts[0].t, r.impacts.back().t, exactImpacts(100.0).back(),
                m0, m10, m50, m100, invariantDrift(r), r.minGap);
    QVERIFY(m100 >= 0.02 && m100 <= 0.1);
    QVERIFY(m0 < m10 && m10 < m50 && m50 < m100);  // the paper's creeping increase
    QVERIFY(invariantDrift(r) <= 1e-4);
    QVERIFY(r.minGap >= -1e-12);
    QVERIFY(r.maxConstraint <= 1e-12);
  }

  // The symmetric midpoint variant (a proposal, not in P000) on the same data, h = 1e-3, 100 s: the
  // impact times follow the exact ones, E_d stays within 1e-3 of E0 without the creep, and the
  // invariant phi - F(theta) drifts O(h^2) (the midpoint constraint misses F by f'' dtheta^3/24
  // per step) instead of O(h).
  void midpointVariantRemovesTheCreep() {
    const Run mid = run("variational-midpoint", 1e-3, 100.0);
    QVERIFY2(mid.ok, mid.message.c_str());
    const auto exact = exactImpacts(100.0);
    QCOMPARE(mid.impacts.size(), exact.size());
    double dt = 0.0, de = 0.0;
    for (std::size_t i = 0; i < exact.size(); ++i) dt = std::max(dt, std::fabs(mid.impacts[i].t - exact[i]));
    for (double e : mid.ed) de = std::max(de, std::fabs(e - kE0));
    const Run rect = run("variational", 1e-3, 100.0);
    double deRect = 0.0;
    for (double e : rect.ed) deRect = std::max(deRect, std::fabs(e - kE0));
    std::printf("midpoint h = 1e-3, 100 s: max |t - t_exact| %.2e, max |E_d - E0| %.2e "
                "(rectangle: %.2e, last window mean %+.3f), invariant drift %.2e (rectangle %.2e)\n",
                dt, de, deRect, windowMean(rect, 98.0, 100.0), invariantDrift(mid), invariantDrift(rect));
    QVERIFY(dt <= 1e-3);
    QVERIFY(de <= 1e-3 && de < 0.05 * deRect);
    QVERIFY(std::fabs(windowMean(mid, 98.0, 100.0)) <= 1e-4);
    QVERIFY(invariantDrift(mid) <= 1e-6 && invariantDrift(mid) < 1e-2 * invariantDrift(rect));
    QVERIFY(mid.minGap >= -1e-12 && mid.maxConstraint <= 1e-12);
  }

  // The forward conversion (rectangle): the first step lands on q(0) + h v(0) exactly,
  // with phidot0 = f(theta0) thetadot0 derived from the constraint.
  void firstStepIsTheForwardConversion() {
    Scenario sc = defaultScenario(*findSystem("pendulum-cylinder"));
    CreateResult cr = createSimulation(sc);
    QVERIFY(cr.simulation);
    QVERIFY(cr.simulation->advance(1, nullptr).ok());
    std::vector<double> row(cr.simulation->columns().size());
    cr.simulation->sample(row);
    const double h = sc.integrator.h, th = sc.initial[0], thd = sc.initial[2];
    QVERIFY(std::fabs(row[0] - (th + h * thd)) <= 1e-15);
    QVERIFY(std::fabs(row[1] - (sc.initial[1] + h * PendulumCylinderModel::f(th) * thd)) <= 1e-15);
  }

  void inadmissibleStartIsRejectedNamingTheGap() {
    Scenario sc = defaultScenario(*findSystem("pendulum-cylinder"));
    sc.initial[0] = kPi / 2.0;  // l sin(theta0) = 2 > R = 1.5
    const CreateResult cr = createSimulation(sc);
    QVERIFY(!cr.simulation);
    const QString e = QString::fromStdString(cr.error);
    QVERIFY2(e.contains("'cylinder+'") && e.contains("= -0.5"), qPrintable(e));
    sc.initial[0] = -kPi / 2.0;
    QVERIFY(QString::fromStdString(createSimulation(sc).error).contains("'cylinder-'"));
    // theta is a chart on R (never wrapped): theta0 = 0.75 pi + 2 pi is the same admissible
    // point and runs the same impacts.
    sc.initial[0] = 0.75 * kPi + 2.0 * kPi;
    CreateResult ok = createSimulation(sc);
    QVERIFY2(ok.simulation, ok.error.c_str());
    ImpactLog rec;
    QVERIFY(ok.simulation->advance(5000, &rec).ok());
    QCOMPARE(int(rec.impacts.size()), 3);
  }

  void sceneAndPoses() {
    const SystemDescription& s = *findSystem("pendulum-cylinder");
    Scenario sc = defaultScenario(s);
    const SceneSpec scene = s.scene(sc.parameters);
    QCOMPARE(int(scene.bodies.size()), 2);
    QCOMPARE(scene.view, ViewKind::Spatial);
    QVERIFY(std::holds_alternative<CylinderObstacle>(scene.obstacles.at(0)));
    QCOMPARE(std::get<CylinderObstacle>(scene.obstacles[0]).radius, 1.5);
    CreateResult cr = createSimulation(sc);
    std::vector<Pose> poses(2);
    for (int k = 0; k < 50; ++k) {
      QVERIFY(cr.simulation->advance(37, nullptr).ok());
      cr.simulation->poses(poses);
      QVERIFY(std::fabs(poses[0].position.norm() - 2.0) < 1e-12);       // bob on the sphere
      QVERIFY(std::hypot(poses[0].position.x(), poses[0].position.y()) <= 1.5 + 1e-12);  // inside
      QVERIFY((poses[1].position - 0.5 * poses[0].position).norm() < 1e-12);  // rod centre
      QVERIFY((poses[1].rotation.col(2) - poses[0].position / 2.0).norm() < 1e-12);  // rod axis
    }
  }
};

QTEST_APPLESS_MAIN(TestNonholonomicPendulum)
#include "test_nonholonomic_pendulum.moc"
