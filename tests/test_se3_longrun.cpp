// Long runs of the SE(3) LGVCI (rows 8.2 and 8.4 of docs/acceptance.md): 1e5 steps (t = 1000 s)
// per case with the per-step invariants checked at every step and every impact, the impact-count
// bands, and the cube sensitivity experiment of paper §7.4 / Figs 7-8. Also prints (never
// asserts) the steps per second of a plain run.

#include "core/model/registry.hpp"
#include "core/se3/se3_systems.hpp"

#include <Eigen/SVD>

#include <QtTest>

#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>

using namespace ricochet;
using namespace ricochet::se3;

namespace {

struct Bounds {
  const char* id;
  int minImpacts, maxImpacts;    // 8.4 pass band
  double energy1e5;              // |E - E0| over 1e5 steps
  double tpePerStep;             // |dT.P.E.| per impact-free step
  double flightDrift;            // |T.P.E.|, |R.E.| change within one flight phase (NaN: unchecked)
  bool horizontalPlane;          // x1 = x2 = 2t (else only x2 = 2t)
};

struct Stats {
  int impacts = 0, multiImpactSteps = 0;
  double minAlpha = 1.0, maxImpactPhi = 0.0, minImpactPhi = kUnbounded, minGridPhi = kUnbounded;
  double maxImpactPhiOverFloor = 0.0, maxImpactPhiOverBound = 0.0, firstTimeAbove1e14 = -1.0;
  double maxVnRatio = 0.0, maxE1000 = 0.0, maxE = 0.0;
  double maxTpeStep = 0.0, maxReStep = 0.0, maxFlightTpe = 0.0, maxFlightRe = 0.0;
  double maxRPiStep = 0.0, maxNRPi = 0.0, maxOrth = 0.0, maxX12 = 0.0, maxGamma12 = 0.0;
  bool lambdaPositive = true;
  double rootIterations = 0.0;
};

Stats longRun(const Setup& setup, int steps) {
  Stats st;
  const RigidBodyModel& m = setup.model;
  LgvciStepper stepper(m, setup.h);
  StepReport report;
  RigidBodyState s = setup.initial;
  const double e0 = totalEnergy(m, s);
  const double nRPi0 = m.n.dot(s.R * s.Pi);
  double tpe = translationalEnergy(m, s), re = rotationalEnergy(m, s);
  double flightTpe = tpe, flightRe = re;  // values at the start of the current flight phase
  Vec3 RPi = s.R * s.Pi;
  const bool horizontal = m.n == Vec3::UnitZ();
  for (int k = 1; k <= steps; ++k) {
    if (stepper.step(s, report) != RunStatus::Ok) {
      qWarning("step %d failed", k);
      st.impacts = -1;
      return st;
    }
    const double t = k * setup.h;
    const StepReport& events = report;
    const double newTpe = translationalEnergy(m, s), newRe = rotationalEnergy(m, s);
    const Vec3 newRPi = s.R * s.Pi;
    if (events.impactCount == 0) {
      // Between impacts T.P.E., R.E. and R Pi are each constant (8.2; the flow conserves them).
      st.maxTpeStep = std::max(st.maxTpeStep, std::fabs(newTpe - tpe));
      st.maxReStep = std::max(st.maxReStep, std::fabs(newRe - re));
      st.maxRPiStep = std::max(st.maxRPiStep, (newRPi - RPi).norm());
      st.maxFlightTpe = std::max(st.maxFlightTpe, std::fabs(newTpe - flightTpe));
      st.maxFlightRe = std::max(st.maxFlightRe, std::fabs(newRe - flightRe));
    } else {
      flightTpe = newTpe;
      flightRe = newRe;
      if (events.impactCount >= 2) ++st.multiImpactSteps;
      for (const ImpactEvent& e : events) {
        ++st.impacts;
        st.minAlpha = std::min(st.minAlpha, e.detail.alpha);
        st.rootIterations += e.detail.rootIterations;
        st.maxImpactPhi = std::max(st.maxImpactPhi, e.detail.phi);
        // Phi = n1 x1 + n2 x2 + n3 x3 + u.rho is a sum of cancelling terms: it changes with alpha
        // in steps of one ulp of the largest n_i x_i, and its evaluation rounds at eps times
        // their sum, so it cannot be resolved below about eps (|n1 x1| + |n2 x2| + |n3 x3| +
        // |u.rho|). Case II slides to x1 ~ 1.2e5 m, x3 ~ -4e3 m, where that is ~2e-12 m.
        const Vec3 u = e.before.R.transpose() * m.n;
        const double cancelling = m.n.cwiseProduct(e.before.x).cwiseAbs().sum() +
                                  std::fabs(u.dot(e.detail.rhoC));
        const double floor = std::numeric_limits<double>::epsilon() * cancelling;
        st.maxImpactPhiOverFloor = std::max(st.maxImpactPhiOverFloor, e.detail.phi / floor);
        st.maxImpactPhiOverBound =
            std::max(st.maxImpactPhiOverBound, e.detail.phi / std::max(1e-14, 2.0 * floor));
        if (e.detail.phi > 1e-14 && st.firstTimeAbove1e14 < 0.0) {
          st.firstTimeAbove1e14 = (k - 1 + e.s) * setup.h;
        }
        st.minImpactPhi = std::min(st.minImpactPhi, e.detail.phi);
        st.maxVnRatio = std::max(st.maxVnRatio, std::fabs(e.detail.jump.vnAfter + e.detail.jump.vnBefore) /
                                                    std::fabs(e.detail.jump.vnBefore));
        st.lambdaPositive = st.lambdaPositive && e.detail.jump.lambda > 0.0;
      }
    }
    tpe = newTpe;
    re = newRe;
    RPi = newRPi;
    st.minGridPhi = std::min(st.minGridPhi, phi(m, s.x, s.R));
    const double dE = std::fabs(newTpe + newRe - e0);
    st.maxE = std::max(st.maxE, dE);
    if (k <= 1000) st.maxE1000 = std::max(st.maxE1000, dE);
    st.maxNRPi = std::max(st.maxNRPi, std::fabs(m.n.dot(newRPi) - nRPi0));
    st.maxOrth = std::max(st.maxOrth, (s.R.transpose() * s.R - Mat3::Identity()).norm());
    // Horizontal momentum: x1 = x2 = 2t and gamma1 = gamma2 = 2 (Case II: only the y pair).
    st.maxX12 = std::max(st.maxX12, std::fabs(s.x.y() - 2.0 * t));
    st.maxGamma12 = std::max(st.maxGamma12, std::fabs(s.gamma.y() - 2.0));
    if (horizontal) {
      st.maxX12 = std::max(st.maxX12, std::fabs(s.x.x() - 2.0 * t));
      st.maxGamma12 = std::max(st.maxGamma12, std::fabs(s.gamma.x() - 2.0));
    }
  }
  return st;
}

double spectralNorm(const Mat3& A) {
  return Eigen::JacobiSVD<Mat3>(A).singularValues()(0);
}

}  // namespace

class TestSe3LongRun : public QObject {
  Q_OBJECT
 private slots:
  void invariantsAndImpactCountsOver1e5Steps_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("integrator");
    for (const char* integrator : {"variational", "variational-bisection"}) {
      const char* names[] = {"I ellipsoid-plane", "II ellipsoid-tilted", "III ellipsoids-union",
                             "IV cube-plane"};
      for (int k = 0; k < 4; ++k) {
        QTest::newRow(qPrintable(QString("%1 / %2").arg(names[k], integrator)))
            << k << QString(integrator);
      }
    }
  }

  // 8.2 at every step and impact, 8.4 bands, over 1e5 steps (t = 1000 s).
  void invariantsAndImpactCountsOver1e5Steps() {
    QFETCH(int, which);
    QFETCH(QString, integrator);
    const double none = std::nan("");
    const Bounds all[] = {
        {"ellipsoid-plane", 480, 640, 1e-9, 1e-13, 1e-11, true},
        {"ellipsoid-tilted", 480, 650, 1e-6, 2e-11, none, false},
        {"ellipsoids-union", 725, 890, 1e-9, 1e-13, 1e-11, true},
        {"cube-plane", 585, 720, 1e-9, 1e-13, 1e-11, true},
    };
    const Bounds& b = all[which];
    Scenario sc = defaultScenario(*findSystem(b.id));
    sc.integrator.name = integrator.toStdString();
    const Setup setup = makeSetup(sc);
    QVERIFY(setup.error.empty());
    const Stats st = longRun(setup, 100000);
    QVERIFY2(st.impacts >= 0, "a step failed");
    qInfo("%s/%s: %d impacts (band %d-%d), %d steps with >= 2 impacts, min alpha %.1e, %.1f "
          "sub-step evaluations per impact",
          b.id, qPrintable(integrator), st.impacts, b.minImpacts, b.maxImpacts,
          st.multiImpactSteps, st.minAlpha, st.rootIterations / std::max(1, st.impacts));
    qInfo("  Phi: grid min %.2e, impact states in [%.1e, %.1e] (<= %.2f eps sum|terms|; first above "
          "1e-14 at t = %.1f s, -1: never); |vn+ + vn-|/|vn-| <= %.1e",
          st.minGridPhi, st.minImpactPhi, st.maxImpactPhi, st.maxImpactPhiOverFloor,
          st.firstTimeAbove1e14, st.maxVnRatio);
    qInfo("  |E - E0|: %.1e over 1000 steps, %.1e over 1e5 steps", st.maxE1000, st.maxE);
    qInfo("  per impact-free step: |dTPE| %.1e, |dRE| %.1e, |d(R Pi)| %.1e; flight phase: "
          "|dTPE| %.1e, |dRE| %.1e",
          st.maxTpeStep, st.maxReStep, st.maxRPiStep, st.maxFlightTpe, st.maxFlightRe);
    qInfo("  |n.(R Pi) - n.(R Pi)0| <= %.1e; |R^T R - I| <= %.1e; |x_h - 2t| <= %.1e, "
          "|gamma_h - 2| <= %.1e",
          st.maxNRPi, st.maxOrth, st.maxX12, st.maxGamma12);

    QVERIFY(st.impacts >= b.minImpacts && st.impacts <= b.maxImpacts);  // 8.4
    QVERIFY(st.lambdaPositive);
    QVERIFY(st.minGridPhi > 0.0);                                       // admissible grid states
    // Impact states on dC: 0 < Phi <= 1e-14 (8.2), or 2 eps sum|terms| of Phi where that is
    // larger. Only Case II needs the second bound, from t ~ 100 s on (sum > 22 m), far down the
    // incline where Phi is not representable closer to 0; measured <= 1.17 eps sum|terms| over
    // all eight runs (Case II: 0.58), max Phi 9e-13 m there.
    QVERIFY(st.minImpactPhi > 0.0 && st.maxImpactPhiOverBound <= 1.0);
    if (b.horizontalPlane) QVERIFY(st.maxImpactPhi <= 1e-14);
    QVERIFY(st.maxVnRatio <= 1e-14);
    QVERIFY(st.maxE1000 <= 1e-11);
    QVERIFY(st.maxE <= b.energy1e5);
    QVERIFY(st.maxTpeStep <= b.tpePerStep);
    QVERIFY(st.maxReStep <= 2e-13);  // measured <= 1.1e-13 (case I)
    QVERIFY(st.maxRPiStep <= 3e-14);
    if (!std::isnan(b.flightDrift)) {
      QVERIFY(st.maxFlightTpe <= b.flightDrift && st.maxFlightRe <= b.flightDrift);
    }
    QVERIFY(st.maxNRPi <= 2e-12);
    // No re-orthonormalisation anywhere. The cube's inertia is isotropic: between impacts its
    // Pi is constant, so every flight step multiplies R by the same rounded Cayley F and the
    // step's round-off adds up linearly instead of as a random walk (measured 1.2e-12 over 1e5
    // steps, 1.2e-13 for the ellipsoids).
    QVERIFY(st.maxOrth <= (std::string(b.id) == "cube-plane" ? 3e-12 : 1e-12));
    QVERIFY(st.maxX12 <= 3e-9);
    QCOMPARE(st.maxGamma12, 0.0);  // the normal impulse never touches these components
  }

  // 8.4 sensitivity (paper §7.4, Figs 7-8): the cube from x0 + (0,0,1e-8) and from
  // R0 R_y(pi 1e-8) separates from the unperturbed run by roughly an order of magnitude per
  // collision (double hits count as two), reaches 1e-2 by about the 9th-11th collision, and
  // saturates at O(1-10). Err "after collision c" is taken at the first grid state after the
  // reference run's c-th impact, which is how the prototype's values were taken: with it the
  // position run reproduces them to their two printed digits (midway between collisions, each
  // value would be that of the next collision, and separation would show one collision early).
  void cubeSensitivityExperiment() {
    const int steps = 10000;  // t = 100 s
    const double h = 0.01;
    auto gridRun = [&](const Scenario& sc, std::vector<double>& impactTimes) {
      const Setup setup = makeSetup(sc);
      LgvciStepper stepper(setup.model, setup.h);
      StepReport report;
      RigidBodyState s = setup.initial;
      std::vector<RigidBodyState> grid{s};
      for (int k = 1; k <= steps; ++k) {
        if (stepper.step(s, report) != RunStatus::Ok) break;
        for (const ImpactEvent& e : report) impactTimes.push_back((k - 1 + e.s) * h);
        grid.push_back(s);
      }
      return grid;
    };
    const SystemInfo& info = findSystem("cube-plane")->info();
    const Scenario base = defaultScenario(*findSystem("cube-plane"));
    Scenario dz = base, dR = base;
    dz.initial[*indexOf(info.initial, "z0")] += 1e-8;
    const double theta = std::numbers::pi * 1e-8;
    dR.initial[*indexOf(info.initial, "ry0")] = theta;
    std::vector<double> times, posTimes, attTimes;
    const auto ref = gridRun(base, times);
    const auto pos = gridRun(dz, posTimes);
    const auto att = gridRun(dR, attTimes);
    QCOMPARE(int(ref.size()), steps + 1);
    QVERIFY(int(pos.size()) == steps + 1 && int(att.size()) == steps + 1);
    auto err = [&](const std::vector<RigidBodyState>& run, int k) {
      return (run[k].x - ref[k].x).norm() + spectralNorm(run[k].R - ref[k].R);
    };
    // Initial errors: exactly the perturbations. Err_att(0) = 2 sin(theta/2) = 3.14e-8; the paper's
    // 1.75e-8 would be theta = 1e-6 degree (the authors may have used degrees).
    QVERIFY(std::fabs(err(pos, 0) - 1e-8) <= 1e-14);
    QVERIFY(std::fabs(err(att, 0) - 2.0 * std::sin(0.5 * theta)) <= 1e-15);
    QVERIFY(std::fabs(err(att, 0) - 3.14159e-8) <= 1e-12);

    // 8.4, the prototype's Err_pos after collisions 1..12.
    const double proto[12] = {8.0e-9, 4.2e-8, 1.4e-6, 1.4e-6, 2.0e-5, 5.9e-5,
                              7.4e-4, 7.5e-4, 1.9e-2, 2.9e-2, 2.6e-1, 7.3};
    QVERIFY(times.size() >= 12 && posTimes.size() >= 12);
    for (const auto* run : {&pos, &att}) {
      const char* name = run == &pos ? "position" : "attitude";
      QString line;
      int firstLarge = -1;
      std::vector<double> after;  // Err at the first grid state after reference collision c
      for (int c = 0; c < 12; ++c) {
        after.push_back(err(*run, static_cast<int>(std::floor(times[c] / h)) + 1));
        line += QString::asprintf(" %.1e", after.back());
        if (firstLarge < 0 && after.back() >= 1e-2) firstLarge = c + 1;
      }
      double saturation = 0.0;
      for (int k = 0; k <= steps; ++k) saturation = std::max(saturation, err(*run, k));
      double slowestPair = kUnbounded;  // smallest growth over two collisions, before saturation
      for (int c = 0; c + 2 < 11; ++c) slowestPair = std::min(slowestPair, after[c + 2] / after[c]);
      const double perCollision = std::pow(after[10] / after[0], 0.1);
      qInfo("sensitivity (%s perturbation): Err after collisions 1..12:%s; >= 1e-2 from "
            "collision %d; growth x%.1f per collision (1 -> 11), >= x%.1f per two; max Err over "
            "100 s %.2f",
            name, qPrintable(line), firstLarge, perCollision, slowestPair, saturation);
      if (run == &pos) {
        for (int c = 0; c < 12; ++c) {  // the two printed digits (their rounding: < 4 %)
          QVERIFY2(std::fabs(after[c] / proto[c] - 1.0) <= 0.05, qPrintable(QString::number(c + 1)));
        }
      }
      QVERIFY(after[0] >= 5e-9 && after[0] <= 5e-8);  // still at the perturbation's level
      QVERIFY(firstLarge >= 9 && firstLarge <= 11);   // 8.4: by about the 9th-11th
      QVERIFY(perCollision >= std::pow(10.0, 0.6));   // ~ an order of magnitude per collision
      QVERIFY(slowestPair >= 5.0);                    // ... and no stalling between pairs
      QVERIFY(after[11] >= 1.0);                      // saturated at the 12th
      QVERIFY(saturation >= 1.0 && saturation <= 30.0);  // O(1-10): unrelated runs, same energy
    }
    // 8.4 (prototype): impact times of the position run differ by 3e-5 s at the 7th collision and
    // 1.6e-3 s at the 9th; the 11th happens at 18.93 s vs 18.95 s.
    const double dt7 = std::fabs(posTimes[6] - times[6]), dt9 = std::fabs(posTimes[8] - times[8]);
    qInfo("impact times, position run vs reference: |dt7| %.1e s, |dt9| %.1e s, t11 %.3f vs %.3f s",
          dt7, dt9, times[10], posTimes[10]);
    QVERIFY(dt7 >= 2.5e-5 && dt7 <= 3.5e-5);
    QVERIFY(dt9 >= 1.5e-3 && dt9 <= 1.7e-3);
    QVERIFY(std::fabs(times[10] - 18.93) <= 5e-3 && std::fabs(posTimes[10] - 18.95) <= 5e-3);
  }

  // Print (never assert) the speed of a plain run, for comparison with the bench targets
  // (>= 2e6 steps/s per case, aim 5e6).
  void printStepsPerSecond() {
    for (const char* integrator : {"variational", "variational-bisection"})
    for (const char* id : {"ellipsoid-plane", "ellipsoid-tilted", "ellipsoids-union", "cube-plane"}) {
      double best = 0.0;
      for (int rep = 0; rep < 3; ++rep) {
        Scenario sc = defaultScenario(*findSystem(id));
        sc.integrator.name = integrator;
        const CreateResult cr = createSimulation(sc);
        const auto t0 = std::chrono::steady_clock::now();
        const AdvanceResult r = cr.simulation->advance(100000, nullptr);
        const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY(r.ok());
        best = std::max(best, 1e5 / dt);
      }
      qInfo("%s/%s: %.2e steps/s (best of 3 runs of 1e5 steps)", id, integrator, best);
    }
  }
};

QTEST_APPLESS_MAIN(TestSe3LongRun)
#include "test_se3_longrun.moc"
