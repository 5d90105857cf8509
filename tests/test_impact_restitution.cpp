// Newton's law and the settling rule of core/impact/restitution.hpp, and the gap curvatures the
// rule uses (planar models), checked by hand-computed cases and finite differences.

#include "core/impact/restitution.hpp"
#include "core/planar/planar_model.hpp"
#include "finite_difference.hpp"

#include <QtTest>

#include <cmath>

using namespace ricochet;
using namespace ricochet::impact;

class TestImpactRestitution : public QObject {
  Q_OBJECT
 private slots:
  // One contact: mu = -(1 + e) u / k, u+ = -e u, loss (1/2)(1 - e^2) u^2 / k; e = 1 is the
  // reflection -2 u / k bit for bit.
  void singleContact() {
    const double u = -3.0, k = 0.4, e = 0.6;
    const double mu = restitutionImpulse(u, k, e);
    QCOMPARE(mu, 12.0);
    QCOMPARE(u + k * mu, -e * u);
    QCOMPARE(restitutionEnergyLoss(u, k, e), 0.5 * 0.64 * 9.0 / 0.4);
    QCOMPARE(restitutionImpulse(u, k, 1.0), -2.0 * u / k);
    QCOMPARE(restitutionEnergyLoss(u, k, 1.0), 0.0);
    // The same through the contact problem.
    ContactMatrix K(1, 1);
    K(0, 0) = k;
    ContactVector uu(1), ee(1), P;
    uu[0] = u;
    ee[0] = e;
    QVERIFY(simultaneousImpulses(K, uu, ee, 0.0, P));
    QCOMPARE(P[0], mu);
  }

  // A contact that does not approach takes no impulse.
  void separatingContact() {
    ContactMatrix K(1, 1);
    K(0, 0) = 2.0;
    ContactVector u(1), e(1), P;
    u[0] = 0.5;
    e[0] = 0.5;
    QVERIFY(simultaneousImpulses(K, u, e, 0.0, P));
    QCOMPARE(P[0], 0.0);
  }

  // A landing contact (e = 0.5) coupled to a held one (e = 0): when the landing's impulse would
  // drive the held contact in (negative coupling in K), the held one takes the impulse that keeps
  // it closed; with the opposite coupling it lifts off and takes none.
  void heldContactPushesOrLifts() {
    ContactVector u(2), e(2), P;
    u << -2.0, 0.0;
    e << 0.5, 0.0;
    ContactMatrix K(2, 2);
    K << 1.0, -0.5, -0.5, 1.0;  // an impulse at 0 pushes contact 1 inward
    QVERIFY(simultaneousImpulses(K, u, e, 0.0, P));
    const ContactVector after = u + K * P;
    QVERIFY(P[0] > 0.0 && P[1] > 0.0);
    QVERIFY(std::fabs(after[0] - 1.0) <= 1e-15);  // -e u
    QVERIFY(std::fabs(after[1]) <= 1e-15);         // held
    K << 1.0, 0.5, 0.5, 1.0;  // an impulse at 0 lifts contact 1
    QVERIFY(simultaneousImpulses(K, u, e, 0.0, P));
    QCOMPARE(P[1], 0.0);
    QCOMPARE(P[0], 3.0);
    QVERIFY((u + K * P)[1] > 0.0);
  }

  // The rule: a rebound at u+ under a_n lands after 2 u+ / a_n; settle when that is <= h.
  void settlingRule() {
    QVERIFY(bounceBelowResolution(0.049, 9.81, 0.01));   // 2 * 0.049 / 9.81 = 0.00999 s
    QVERIFY(!bounceBelowResolution(0.050, 9.81, 0.01));  // 0.0102 s
    QVERIFY(bounceBelowResolution(0.0, 9.81, 0.01));     // at rest on the floor
    QVERIFY(!bounceBelowResolution(0.0, 0.0, 0.01));     // no gravity: never
    QVERIFY(!bounceBelowResolution(0.0, -1.0, 0.01));    // the contact opens by itself
  }

  // v^T (Hessian g_j) v of the planar models against finite differences of the gradient.
  void gapCurvatureMatchesFiniteDifferences() {
    const Eigen::Vector3d q(0.3, 1.1, 0.7), v(-0.4, 0.9, 2.3);
    planar::StarFloorModel<> star;
    planar::EllipseFloorModel<> ellipse;
    for (int j = 0; j < 4; ++j) {
      const double fd = testing::directionalDifference(
          [&](const Eigen::Vector3d& x) { return star.gapGradient(j, x).dot(v); }, q, v);
      QVERIFY(std::fabs(star.gapCurvature(j, q, v) - fd) <= 1e-8);
    }
    for (double theta : {0.0, 0.7, 1.5707963267948966, 2.9}) {
      const Eigen::Vector3d qe(0.0, 1.0, theta);
      const double fd = testing::directionalDifference(
          [&](const Eigen::Vector3d& x) { return ellipse.gapGradient(0, x).dot(v); }, qe, v);
      QVERIFY(std::fabs(ellipse.gapCurvature(0, qe, v) - fd) <= 1e-8);
    }
    planar::ParticleFloorModel<> particle;
    QCOMPARE(particle.gapCurvature(0, Eigen::Vector2d(1, 2), Eigen::Vector2d(3, 4)), 0.0);
  }
};

QTEST_APPLESS_MAIN(TestImpactRestitution)
#include "test_impact_restitution.moc"
