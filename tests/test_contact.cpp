// core/contact: the pair gap of convex parts (GJK over support mappings), the contact manifolds,
// the LCP solver and generalized reflections, each against closed forms.

#include "core/contact/gjk.hpp"
#include "core/contact/lcp.hpp"
#include "core/contact/part_gap.hpp"
#include "core/contact/reflections.hpp"
#include "core/se3/rigid_body.hpp"

#include <QtTest>

#include <cmath>
#include <random>

using namespace ricochet;
using namespace ricochet::contact;

namespace {

se3::BodyShape sphereShape(double r) {
  se3::BodyShape s;
  se3::PolyhedronPart p;
  p.vertices = {Vec3::Zero()};
  p.epsilon = r;
  s.polyhedra.push_back(p);
  return s;
}

se3::BodyShape boxShape(const Vec3& half, double eps) {
  se3::BodyShape s;
  s.polyhedra.push_back(se3::makeBox(Vec3::Zero(), half, eps));
  return s;
}

se3::BodyShape ellipsoidShape(const Vec3& axes) {
  se3::BodyShape s;
  s.ellipsoids.push_back(se3::makeEllipsoid(Vec3::Zero(), axes));
  return s;
}

Placement at(const se3::BodyShape& s, const Vec3& x, const Mat3& R = Mat3::Identity()) {
  Placement p;
  p.shape = &s;
  p.x = x;
  p.R = R;
  return p;
}

PairGap gapOf(const Placement& a, const Placement& b) {
  const std::vector<PartInfo> pa = partsOf(*a.shape), pb = partsOf(*b.shape);
  return pairGap(a, pa[0], b, pb[0], a.x - b.x);
}

}  // namespace

class TestContact : public QObject {
  Q_OBJECT
 private slots:
  void twoSpheres() {
    const se3::BodyShape a = sphereShape(0.5), b = sphereShape(0.25);
    const PairGap g = gapOf(at(a, Vec3(3, 4, 0)), at(b, Vec3(0, 0, 0)));
    QCOMPARE(g.gap, 5.0 - 0.75);
    QVERIFY((g.normal - Vec3(0.6, 0.8, 0)).norm() < 1e-15);
    QVERIFY((g.pointA - Vec3(3 - 0.3, 4 - 0.4, 0)).norm() < 1e-15);
    QVERIFY((g.pointB - Vec3(0.15, 0.2, 0)).norm() < 1e-15);
  }

  void boxesFaceToFaceAndCornerToCorner() {
    // Two unit cubes rounded by 0.05, face to face along x: gap = 0.5 - 2 eps.
    const se3::BodyShape a = boxShape(Vec3::Constant(0.5), 0.05), b = boxShape(Vec3::Constant(0.5), 0.05);
    PairGap g = gapOf(at(a, Vec3(1.5, 0.2, -0.1)), at(b, Vec3::Zero()));
    QVERIFY(std::fabs(g.gap - (0.5 - 0.1)) < 1e-14);
    QVERIFY((g.normal - Vec3::UnitX()).norm() < 1e-14);
    // Corner to corner along the diagonal: centres sqrt(3) * 1.5 apart.
    const Vec3 d = Vec3::Ones().normalized();
    g = gapOf(at(a, 1.5 * std::sqrt(3.0) * d), at(b, Vec3::Zero()));
    QVERIFY(std::fabs(g.gap - (1.5 * std::sqrt(3.0) - std::sqrt(3.0) - 0.1)) < 1e-14);
    QVERIFY((g.normal - d).norm() < 1e-12);
  }

  void sphereOverEllipsoidMatchesItsSupportDistance() {
    // A sphere above an ellipsoid's pole: the distance is along z.
    const se3::BodyShape e = ellipsoidShape(Vec3(2, 3, 4)), s = sphereShape(0.5);
    const PairGap g = gapOf(at(s, Vec3(0, 0, 6)), at(e, Vec3::Zero()));
    QVERIFY2(std::fabs(g.gap - 1.5) < 1e-12, qPrintable(QString::number(g.gap, 'g', 17)));
    QVERIFY((g.normal - Vec3::UnitZ()).norm() < 1e-9);
  }

  void randomHullsAgainstBruteForce() {
    // GJK's distance of two point clouds' hulls equals the smallest distance between the hulls,
    // bounded by the vertex-to-vertex minimum and attained by its witness points.
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int trial = 0; trial < 200; ++trial) {
      se3::BodyShape a, b;
      se3::PolyhedronPart pa, pb;
      for (int k = 0; k < 12; ++k) {
        pa.vertices.push_back(Vec3(u(rng), u(rng), u(rng)));
        pb.vertices.push_back(Vec3(u(rng), u(rng), u(rng)));
      }
      a.polyhedra.push_back(pa);
      b.polyhedra.push_back(pb);
      const Vec3 offset = Vec3(u(rng), u(rng), u(rng)).normalized() * 4.0;
      const PairGap g = gapOf(at(a, offset), at(b, Vec3::Zero()));
      QVERIFY(!g.overlap);
      double vertexMin = 1e9;
      for (const Vec3& p : pa.vertices)
        for (const Vec3& q : pb.vertices) vertexMin = std::min(vertexMin, (p + offset - q).norm());
      QVERIFY(g.gap <= vertexMin + 1e-12);
      QVERIFY(std::fabs((g.pointA - g.pointB).norm() - g.gap) < 1e-12);
      // No vertex of A lies below the separating plane through B's witness point, and vice versa.
      for (const Vec3& p : pa.vertices) QVERIFY(g.normal.dot(p + offset - g.pointB) >= g.gap - 1e-12);
      for (const Vec3& q : pb.vertices) QVERIFY(g.normal.dot(g.pointA - q) >= g.gap - 1e-12);
    }
  }

  void overlappingCoresAreNegative() {
    const se3::BodyShape a = boxShape(Vec3::Constant(0.5), 0.0), b = boxShape(Vec3::Constant(0.5), 0.0);
    const PairGap g = gapOf(at(a, Vec3(0.9, 0, 0)), at(b, Vec3::Zero()));
    QVERIFY(g.overlap);
    QVERIFY(g.gap <= 0.0);
  }

  void faceOnPlaneAndFaceOnFaceManifolds() {
    const se3::BodyShape a = boxShape(Vec3::Constant(0.5), 0.01);
    const std::vector<PartInfo> parts = partsOf(a);
    Manifold m;
    planeManifold(at(a, Vec3(0, 0, 0.51)), parts[0], Vec3::UnitZ(), 0.0, 1e-12, m);
    QCOMPARE(m.count, 4);
    for (int k = 0; k < 4; ++k) {
      QVERIFY(std::fabs(m.points[std::size_t(k)].pointA.z()) < 1e-15);
      QVERIFY(m.points[std::size_t(k)].vertexA >= 0);
    }
    // A smaller box resting on a bigger one's top face: the clipped square of the smaller.
    const se3::BodyShape big = boxShape(Vec3(1, 1, 0.5), 0.01), small = boxShape(Vec3::Constant(0.25), 0.01);
    const Placement top = at(small, Vec3(0.2, -0.1, 0.5 + 0.25 + 0.02)), bottom = at(big, Vec3::Zero());
    const std::vector<PartInfo> ps = partsOf(small), pb = partsOf(big);
    const PairGap g = pairGap(top, ps[0], bottom, pb[0], top.x - bottom.x);
    QVERIFY(std::fabs(g.gap) < 1e-14);
    pairManifold(top, ps[0], bottom, pb[0], g, 1e-12, m);
    QCOMPARE(m.count, 4);
    double xmin = 1e9, xmax = -1e9;
    for (int k = 0; k < m.count; ++k) {
      xmin = std::min(xmin, m.points[std::size_t(k)].pointA.x());
      xmax = std::max(xmax, m.points[std::size_t(k)].pointA.x());
    }
    QVERIFY(std::fabs(xmin + 0.05) < 1e-12 && std::fabs(xmax - 0.45) < 1e-12);
  }

  void lcpSolvesARedundantSystem() {
    // Four equal contacts on one direction (a face on a plane seen from one degree of freedom):
    // M = 1 1^T is singular, the solution's M x is unique: w = 0 everywhere, sum x = 2.
    LcpSolver lcp;
    lcp.reserve(4);
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) lcp.M(i, j) = 1.0;
      lcp.q(i) = -2.0;
    }
    lcp.solve(4, 1e-14);
    double sum = 0.0;
    for (int i = 0; i < 4; ++i) {
      QVERIFY(lcp.x(i) >= 0.0);
      QVERIFY(std::fabs(lcp.w(i)) < 1e-14);
      sum += lcp.x(i);
    }
    QVERIFY(std::fabs(sum - 2.0) < 1e-14);
  }

  void reflectionsOfTheCradleAndBernoulli() {
    ImpactWorkspace ws;
    // A touching cradle of five, one ball in: generalized reflections pass the velocity on.
    std::vector<ImpactBody> b(5);
    b[0].gamma = Vec3(1, 0, 0);
    std::vector<ImpactContact> c;
    for (int i = 0; i < 4; ++i) {
      ImpactContact k;
      k.a = i;
      k.b = i + 1;
      k.n = Vec3(-1, 0, 0);
      c.push_back(k);
    }
    ImpactOutcome o = resolveImpacts(b, c, ws);
    QVERIFY(o.ok);
    QCOMPARE(b[4].gamma.x(), 1.0);
    for (int i = 0; i < 4; ++i) QCOMPARE(b[std::size_t(i)].gamma.x(), 0.0);
    // Bernoulli: one sphere into two touching ones, both contacts at once.
    std::vector<ImpactBody> s(3);
    s[0].gamma = Vec3(2, 0, 0);
    const Vec3 c0(-std::sqrt(3.0) / 2.0, 0, 0);
    std::vector<ImpactContact> k(3);
    for (int j = 1; j <= 2; ++j) {
      k[std::size_t(j - 1)].a = 0;
      k[std::size_t(j - 1)].b = j;
      k[std::size_t(j - 1)].n = (c0 - Vec3(0, j == 1 ? 0.5 : -0.5, 0)).normalized();
    }
    k[2].a = 1;
    k[2].b = 2;
    k[2].n = Vec3(0, 1, 0);
    o = resolveImpacts(s, k, ws);
    QVERIFY(std::fabs(s[0].gamma.x() + 0.4) < 1e-12);
    QVERIFY(std::fabs(s[1].gamma.x() - 1.2) < 1e-12);
    QVERIFY(std::fabs(s[1].gamma.y() - 0.4 * std::sqrt(3.0)) < 1e-12);
    QCOMPARE(s[1].gamma.x(), s[2].gamma.x());
    QCOMPARE(s[1].gamma.y(), -s[2].gamma.y());
    QVERIFY(std::fabs(o.energyLost) < 1e-15);
    // The sequential rule resolves one contact per pass: it is a different law.
    std::vector<ImpactBody> q(3);
    q[0].gamma = Vec3(2, 0, 0);
    resolveImpacts(q, k, ws, ImpactLaw::Sequential);
    QVERIFY(std::fabs(q[1].gamma.y() + q[2].gamma.y()) > 1e-3);  // not mirror-symmetric
  }

  void restitutionHalvesTheRelativeVelocity() {
    // Spec R3: m = (1, 3), v = (1, -1), e = 0.5: P exact, relative velocity reversed and halved,
    // energy loss 1.125 J... of the kinetic energy 2 J: (1/2) mu (1 - e^2) u^2 = 0.5 * 0.75 * 0.75 * 4.
    ImpactWorkspace ws;
    std::vector<ImpactBody> b(2);
    b[0].m = 1;
    b[0].gamma = Vec3(1, 0, 0);
    b[1].m = 3;
    b[1].gamma = Vec3(-3, 0, 0);
    std::vector<ImpactContact> c(1);
    c[0].a = 0;
    c[0].b = 1;
    c[0].n = Vec3(-1, 0, 0);
    c[0].e = 0.5;
    const ImpactOutcome o = resolveImpacts(b, c, ws);
    QVERIFY(std::fabs(b[0].gamma.x() + b[1].gamma.x() + 2.0) < 1e-15);
    const double rel = b[0].gamma.x() / 1.0 - b[1].gamma.x() / 3.0;
    QVERIFY(std::fabs(rel + 1.0) < 1e-15);
    QVERIFY(std::fabs(o.energyLost - 1.125) < 1e-14);
  }
};

QTEST_APPLESS_MAIN(TestContact)
#include "test_contact.moc"
