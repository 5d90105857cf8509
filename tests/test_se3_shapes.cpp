// Collision detection function Phi of the SE(3) LGVCI and the shapes it is built from
// (docs/se3-lgvci.md, "Collision function and support points"): U4 (Phi and energies at the
// paper's initial states), U5 (chi and Phi_x against central differences at random poses for
// every shape, including an intersection and a general rounded polyhedron), the closed forms of
// the ellipsoid and the rounded cube, the intersection's support point against brute-force
// sampling plus a KKT certificate, polyhedral mass properties against closed forms, shape
// validation and the scenes.

#include "core/model/registry.hpp"
#include "core/se3/mass_properties.hpp"
#include "core/se3/se3_systems.hpp"

#include "finite_difference.hpp"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>

using namespace ricochet;
using namespace ricochet::se3;
using ricochet::testing::gradientDifference;

namespace {

Vec3 randomUnit(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Vec3(n(rng), n(rng), n(rng)).normalized();
}

Mat3 randomRotation(std::mt19937& rng) {
  std::uniform_real_distribution<double> angle(0.0, std::numbers::pi);
  return expSO3(angle(rng) * randomUnit(rng));
}

RigidBodyModel registryModel(const char* id) {
  const Setup s = makeSetup(defaultScenario(*findSystem(id)));
  return s.model;
}

// Height gap between the lowest and the second-lowest candidate (part, or vertex of a
// polyhedron) in direction u: where it is tiny, Phi has a kink and finite differences are moot.
double supportMargin(const BodyShape& shape, const Vec3& u) {
  std::vector<double> h;
  for (const EllipsoidPart& e : shape.ellipsoids) h.push_back(lowestPoint(e, u).height);
  for (const PolyhedronPart& p : shape.polyhedra) {
    for (const Vec3& v : p.vertices) h.push_back(u.dot(v) - p.epsilon);
  }
  for (const IntersectionPart& q : shape.intersections) h.push_back(lowestPoint(q, u).height);
  if (h.size() < 2) return kUnbounded;
  std::sort(h.begin(), h.end());
  return h[1] - h[0];
}

// Two overlapping, rotated, off-centre ellipsoids: lowest points fall on either smooth part or
// on the crease depending on the direction.
IntersectionPart sampleIntersection() {
  IntersectionPart q;
  q.first = makeEllipsoid(Vec3(0.5, 0.0, 0.1), Vec3(1.5, 1.0, 0.8), expSO3(Vec3(0.2, 0.4, -0.3)));
  q.second = makeEllipsoid(Vec3(-0.4, 0.2, 0.0), Vec3(1.2, 1.3, 0.9), expSO3(Vec3(-0.5, 0.1, 0.7)));
  return q;
}

}  // namespace

class TestSe3Shapes : public QObject {
  Q_OBJECT
 private slots:
  // U4: Phi(x0, R0), E0 and R.E.0 of the four cases (exact arithmetic values, 10 decimals).
  void u4InitialValues() {
    struct Case {
      const char* id;
      double phi, energy, rotational;
    };
    const double tilt = 2.0 * std::numbers::pi / 180.0;
    const double phiTilted =
        10.0 * std::cos(tilt) -
        std::sqrt(4.0 * std::pow(std::sin(tilt), 2) + 16.0 * std::pow(std::cos(tilt), 2));
    QVERIFY(std::fabs(phiTilted - 5.9957356499) <= 1e-10);
    const Case cases[] = {
        {"ellipsoid-plane", 6.0, 158.7434230769, 6.6769230769},
        {"ellipsoid-tilted", phiTilted, 158.7434230769, 6.6769230769},
        {"ellipsoids-union", 5.0, 154.8924758117, 2.8259758117},
        {"cube-plane", 10.0 - std::sqrt(3.0) - 1e-13, 164.0665, 12.0},
    };
    for (const Case& c : cases) {
      const Setup s = makeSetup(defaultScenario(*findSystem(c.id)));
      QVERIFY2(s.error.empty(), s.error.c_str());
      const double p = phi(s.model, s.initial.x, s.initial.R);
      QVERIFY2(std::fabs(p - c.phi) <= 1e-14, c.id);
      QVERIFY2(std::fabs(totalEnergy(s.model, s.initial) - c.energy) <= 1e-9, c.id);
      QVERIFY2(std::fabs(rotationalEnergy(s.model, s.initial) - c.rotational) <= 1e-9, c.id);
      QVERIFY2(std::fabs(translationalEnergy(s.model, s.initial) - 152.0665) <= 1e-12, c.id);
      // The Simulation reports the same numbers through the common interface.
      const CreateResult cr = createSimulation(defaultScenario(*findSystem(c.id)));
      QVERIFY(cr.simulation);
      QVERIFY(std::fabs(cr.simulation->minGap() - c.phi) <= 1e-14);
      QVERIFY(std::fabs(cr.simulation->energy().total() - c.energy) <= 1e-9);
    }
    QVERIFY(std::fabs((10.0 - std::sqrt(3.0) - 1e-13) - 8.2679491924) <= 1e-10);
  }

  // U5: chi = rho_C x u and Phi_x = n against central differences (delta = 1e-6) at random poses,
  // for every shape kind: expect ~1e-9 agreement.
  void u5GradientsMatchFiniteDifferences() {
    struct Shape {
      const char* name;
      RigidBodyModel model;
    };
    std::vector<Shape> shapes = {
        {"ellipsoid (case I)", registryModel("ellipsoid-plane")},
        {"tilted ellipsoid (case II)", registryModel("ellipsoid-tilted")},
        {"union (case III)", registryModel("ellipsoids-union")},
        {"cube (case IV)", registryModel("cube-plane")},
    };
    {
      RigidBodyModel m;
      m.n = Vec3(0.3, -0.2, 1.0).normalized();
      m.shape.ellipsoids.push_back(
          makeEllipsoid(Vec3(0.3, -0.1, 0.2), Vec3(1.0, 2.0, 0.5), expSO3(Vec3(0.4, 0.9, -0.2))));
      shapes.push_back({"rotated off-centre ellipsoid", m});
    }
    {
      RigidBodyModel m;  // a rounded random polyhedron (interior points are never support points)
      std::mt19937 rng(11);
      PolyhedronPart p;
      p.epsilon = 0.1;
      for (int k = 0; k < 12; ++k) p.vertices.push_back(1.5 * randomUnit(rng));
      m.shape.polyhedra.push_back(p);
      shapes.push_back({"rounded random polyhedron", m});
    }
    {
      RigidBodyModel m;
      m.shape.intersections.push_back(sampleIntersection());
      shapes.push_back({"intersection of two ellipsoids", m});
    }
    {
      RigidBodyModel m;  // union of an ellipsoid, a rounded box and an intersection
      m.shape.ellipsoids.push_back(makeEllipsoid(Vec3(1.0, 0.0, 0.0), Vec3(1.0, 0.6, 0.6)));
      m.shape.polyhedra.push_back(makeBox(Vec3(-1.0, 0.0, 0.0), Vec3(0.5, 0.7, 0.4), 0.05));
      m.shape.intersections.push_back(sampleIntersection());
      shapes.push_back({"union of mixed parts", m});
    }

    std::mt19937 rng(5);
    std::uniform_real_distribution<double> coord(-5.0, 5.0);
    const double d = 1e-6;
    for (const Shape& s : shapes) {
      double worstChi = 0.0, worstX = 0.0;
      int tested = 0;
      for (int trial = 0; trial < 300; ++trial) {
        const Vec3 x(coord(rng), coord(rng), coord(rng));
        const Mat3 R = randomRotation(rng);
        if (supportMargin(s.model.shape, R.transpose() * s.model.n) < 1e-4) continue;
        ++tested;
        SupportPoint sp;
        phi(s.model, x, R, &sp);
        QVERIFY(sp.ok);
        const Vec3 analyticChi = chi(s.model, R, sp.rho);
        // Rotational gradient: dR = R hat(zeta), along the exponential curve R exp(zeta).
        const Vec3 fdChi = gradientDifference(
            [&](const Vec3& zeta) { return phi(s.model, x, R * expSO3(zeta)); }, Vec3(Vec3::Zero()), d);
        const Vec3 fdX = gradientDifference([&](const Vec3& y) { return phi(s.model, y, R); }, x, d);
        worstChi = std::max(worstChi, (fdChi - analyticChi).cwiseAbs().maxCoeff());
        worstX = std::max(worstX, (fdX - s.model.n).cwiseAbs().maxCoeff());
      }
      qInfo("U5 %-32s %3d poses: |chi - FD| <= %.1e, |Phi_x - FD| <= %.1e", s.name, tested,
            worstChi, worstX);
      QVERIFY2(tested >= 250, s.name);
      QVERIFY2(worstChi <= 1e-8, s.name);
      QVERIFY2(worstX <= 1e-8, s.name);
    }
  }

  // The ellipsoid's and the rounded cube's closed forms agree with the generic support-point
  // evaluation.
  void closedFormsOfEllipsoidAndCube() {
    const RigidBodyModel ell = registryModel("ellipsoid-tilted");
    const RigidBodyModel cube = registryModel("cube-plane");
    const Mat3 A = Vec3(2.0, 3.0, 4.0).asDiagonal();
    const double half = std::sqrt(3.0), eps = 1e-13;
    std::mt19937 rng(6);
    std::uniform_real_distribution<double> coord(-5.0, 5.0);
    double worst = 0.0;
    for (int trial = 0; trial < 500; ++trial) {
      const Vec3 x(coord(rng), coord(rng), coord(rng));
      const Mat3 R = randomRotation(rng);
      // Ellipsoid: Phi = n.x - |A R^T n|, rho_C = -A^2 u/|A u|.
      SupportPoint sp;
      const Vec3 u = R.transpose() * ell.n;
      const double pe = phi(ell, x, R, &sp);
      worst = std::max(worst, std::fabs(pe - (ell.n.dot(x) - (A * u).norm())));
      worst = std::max(worst, (sp.rho - (-(A * A * u) / (A * u).norm())).norm());
      // Cube: Phi = n.x - (s/2)|u|_1 - eps, v_C = -(s/2) sign(u), chi = v_C x u.
      const Vec3 uc = R.transpose() * cube.n;
      const double pc = phi(cube, x, R, &sp);
      worst = std::max(worst, std::fabs(pc - (cube.n.dot(x) - half * uc.cwiseAbs().sum() - eps)));
      const Vec3 vC = -half * uc.cwiseSign();
      worst = std::max(worst, (chi(cube, R, sp.rho) - vC.cross(uc)).norm());
      worst = std::max(worst, (sp.rho - (vC - eps * uc)).norm());
    }
    qInfo("closed forms vs generic support point: %.1e", worst);
    QVERIFY(worst <= 1e-13);
  }

  // Union: Phi is the smaller of the parts' values, rho_C from the active part.
  void unionTakesTheLowerPart() {
    const RigidBodyModel m = registryModel("ellipsoids-union");
    QCOMPARE(int(m.shape.ellipsoids.size()), 2);
    QVERIFY((m.shape.ellipsoids[0].centre - Vec3(1.5 - 0.9937128, 0, 0)).norm() <= 1e-15);
    QVERIFY((m.shape.ellipsoids[1].centre - Vec3(-4.5 - 0.9937128, 0, 0)).norm() <= 1e-15);
    std::mt19937 rng(7);
    int active[2] = {0, 0};
    for (int trial = 0; trial < 400; ++trial) {
      const Vec3 u = randomUnit(rng);
      const SupportPoint a = lowestPoint(m.shape.ellipsoids[0], u);
      const SupportPoint b = lowestPoint(m.shape.ellipsoids[1], u);
      const SupportPoint s = lowestPoint(m.shape, u);
      QCOMPARE(s.height, std::min(a.height, b.height));
      QCOMPARE(s.rho, a.height <= b.height ? a.rho : b.rho);
      ++active[s.part];
    }
    QVERIFY(active[0] > 20 && active[1] > 20);  // both parts are sometimes the lowest
  }

  // Intersection of two ellipsoids: the support point is feasible, satisfies the KKT conditions
  // (a certificate of global optimality for this convex problem), and no sample of the body's
  // boundary lies lower (brute force).
  void intersectionMatchesBruteForceSampling() {
    const IntersectionPart q = sampleIntersection();
    // Boundary of E1 n E2 = (dE1 inside E2) u (dE2 inside E1), sampled on an angle grid.
    std::vector<Vec3> samples;
    const int nt = 300, np = 600;
    for (const auto* pair : {&q.first, &q.second}) {
      const EllipsoidPart& e = *pair;
      const EllipsoidPart& other = pair == &q.first ? q.second : q.first;
      for (int i = 0; i <= nt; ++i) {
        const double th = std::numbers::pi * i / nt;
        for (int j = 0; j < np; ++j) {
          const double ph = 2.0 * std::numbers::pi * j / np;
          const Vec3 y(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th));
          const Vec3 rho = e.centre + e.M * y;
          if (implicitValue(other, rho) <= 0.0) samples.push_back(rho);
        }
      }
    }
    QVERIFY(samples.size() > 10000);
    std::mt19937 rng(8);
    int crease = 0, smooth = 0;
    double worstBelow = 0.0, worstGap = 0.0, worstKkt = 0.0, worstFeasible = 0.0;
    for (int trial = 0; trial < 300; ++trial) {
      const Vec3 u = randomUnit(rng);
      const SupportPoint s = lowestPoint(q, u);
      QVERIFY(s.ok);
      QVERIFY(std::fabs(s.height - u.dot(s.rho)) <= 1e-14);
      const double g1 = implicitValue(q.first, s.rho), g2 = implicitValue(q.second, s.rho);
      worstFeasible = std::max({worstFeasible, g1, g2});
      // KKT: u = -nu1 grad g1 - nu2 grad g2, nu >= 0, nu_k = 0 unless g_k is active.
      const bool onFirst = std::fabs(g1) <= 1e-10, onSecond = std::fabs(g2) <= 1e-10;
      QVERIFY(onFirst || onSecond);
      Eigen::Matrix<double, 3, 2> G;
      G.col(0) = onFirst ? Vec3(-q.first.P * (s.rho - q.first.centre)) : Vec3::Zero();
      G.col(1) = onSecond ? Vec3(-q.second.P * (s.rho - q.second.centre)) : Vec3::Zero();
      const Eigen::Vector2d nu = G.completeOrthogonalDecomposition().solve(u);
      QVERIFY(nu.minCoeff() >= -1e-12);
      worstKkt = std::max(worstKkt, (G * nu - u).norm());
      (onFirst && onSecond) ? ++crease : ++smooth;
      double brute = kUnbounded;
      for (const Vec3& rho : samples) brute = std::min(brute, u.dot(rho));
      worstBelow = std::max(worstBelow, s.height - brute);  // > 0 would mean a lower sample
      worstGap = std::max(worstGap, brute - s.height);
    }
    qInfo("intersection: %d crease / %d smooth directions; KKT residual %.1e; max g %.1e; "
          "samples below the solution by <= %.1e; grid gap <= %.1e",
          crease, smooth, worstKkt, worstFeasible, worstBelow, worstGap);
    QVERIFY(crease >= 30 && smooth >= 30);
    QVERIFY(worstKkt <= 1e-10);
    QVERIFY(worstFeasible <= 1e-12);
    QVERIFY(worstBelow <= 1e-12);
    QVERIFY(worstGap <= 2e-2);  // the grid's resolution (spacing ~1e-2 m)

    // One ellipsoid inside the other: the intersection is the inner one.
    IntersectionPart nested;
    nested.first = makeEllipsoid(Vec3::Zero(), Vec3(3.0, 3.0, 3.0));
    nested.second = makeEllipsoid(Vec3(0.2, 0.0, 0.0), Vec3(1.0, 0.5, 0.7));
    for (int trial = 0; trial < 50; ++trial) {
      const Vec3 u = randomUnit(rng);
      QCOMPARE(lowestPoint(nested, u).height, lowestPoint(nested.second, u).height);
    }
  }

  // massProperties() of polyhedra (hull faces + tetrahedral decomposition) against closed forms:
  // the Case IV cube (J = m s^2/6 I, what the registry uses), an off-centre box
  // (J = m/12 diag(b^2+c^2, ...)), a regular tetrahedron (J = m a^2/20 I, V = a^3/(6 sqrt 2)); a
  // random convex polytope moved rigidly (V kept, c -> Q c + t, J -> Q J Q^T) with an interior
  // point added (ignored); a flat vertex set has no volume.
  void polyhedronMassPropertiesMatchClosedForms() {
    const Setup cubeCase = makeSetup(defaultScenario(*findSystem("cube-plane")));
    const MassProperties cube = massProperties(cubeCase.model.shape.polyhedra[0], 1.0);
    const double s = 2.0 * std::sqrt(3.0);
    QCOMPARE(cube.faces, 6);
    QVERIFY(std::fabs(cube.volume - s * s * s) <= 1e-14 * s * s * s);
    QVERIFY(cube.centroid.norm() <= 1e-15);
    QVERIFY((cube.J - cubeCase.model.J).cwiseAbs().maxCoeff() <= 1e-14);
    QVERIFY((cube.J - (s * s / 6.0) * Mat3::Identity()).cwiseAbs().maxCoeff() <= 1e-14);

    const MassProperties box = massProperties(makeBox(Vec3(1, 2, 3), Vec3(0.5, 1.0, 1.5), 0.0), 2.0);
    QVERIFY(std::fabs(box.volume - 6.0) <= 1e-14);
    QVERIFY((box.centroid - Vec3(1, 2, 3)).norm() <= 1e-14);
    const Mat3 boxJ = (2.0 / 12.0) * Vec3(4.0 + 9.0, 1.0 + 9.0, 1.0 + 4.0).asDiagonal();
    QVERIFY((box.J - boxJ).cwiseAbs().maxCoeff() <= 1e-14);

    PolyhedronPart tet;
    const double a = 1.7, k = a / (2.0 * std::sqrt(2.0));  // alternate cube corners: edge a
    tet.vertices = {k * Vec3(1, 1, 1), k * Vec3(1, -1, -1), k * Vec3(-1, 1, -1), k * Vec3(-1, -1, 1)};
    const MassProperties t = massProperties(tet, 3.0);
    QCOMPARE(t.faces, 4);
    QVERIFY(std::fabs(t.volume - a * a * a / (6.0 * std::sqrt(2.0))) <= 1e-15);
    QVERIFY((t.J - (3.0 * a * a / 20.0) * Mat3::Identity()).cwiseAbs().maxCoeff() <= 1e-14);

    std::mt19937 rng(12);
    PolyhedronPart poly;
    for (int j = 0; j < 14; ++j) poly.vertices.push_back(1.5 * randomUnit(rng));
    const MassProperties p = massProperties(poly, 1.0);
    const Mat3 Q = randomRotation(rng);
    const Vec3 shift(0.3, -2.0, 5.0);
    PolyhedronPart moved;
    for (const Vec3& v : poly.vertices) moved.vertices.push_back(Q * v + shift);
    moved.vertices.push_back(Q * p.centroid + shift);  // interior: not a hull vertex
    const MassProperties m = massProperties(moved, 1.0);
    qInfo("random polytope: %d faces, V = %.6f, |c| = %.2e, J diag %.6f %.6f %.6f", p.faces,
          p.volume, p.centroid.norm(), p.J(0, 0), p.J(1, 1), p.J(2, 2));
    QCOMPARE(p.faces, 24);  // 14 points on a sphere, general position: 2*14 - 4 triangles
    QVERIFY(p.volume > 0.5 && p.volume < 4.0 / 3.0 * std::numbers::pi * 1.5 * 1.5 * 1.5);
    QVERIFY(std::fabs(m.volume - p.volume) <= 1e-13);
    QVERIFY((m.centroid - (Q * p.centroid + shift)).norm() <= 1e-13);
    QVERIFY((m.J - Q * p.J * Q.transpose()).cwiseAbs().maxCoeff() <= 1e-13);

    PolyhedronPart flat;
    flat.vertices = {Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 1), Vec3(1, 1, 1)};
    QCOMPARE(massProperties(flat, 1.0).volume, 0.0);
  }

  void invalidShapesAreNamed() {
    BodyShape empty;
    QVERIFY(QString::fromStdString(validate(empty)).contains("no parts"));
    BodyShape disjoint;
    IntersectionPart q;
    q.first = makeEllipsoid(Vec3(-3.0, 0.0, 0.0), Vec3(1.0, 1.0, 1.0));
    q.second = makeEllipsoid(Vec3(3.0, 0.0, 0.0), Vec3(1.0, 1.0, 1.0));
    disjoint.intersections.push_back(q);
    QVERIFY(QString::fromStdString(validate(disjoint)).contains("empty"));
    BodyShape negative;
    negative.polyhedra.push_back(makeBox(Vec3::Zero(), Vec3::Ones(), -0.1));
    QVERIFY(QString::fromStdString(validate(negative)).contains("epsilon = -0.1"));
    BodyShape flat;
    flat.ellipsoids.push_back(makeEllipsoid(Vec3::Zero(), Vec3(1.0, 0.0, 1.0)));
    QVERIFY(QString::fromStdString(validate(flat)).contains("semi-axis"));
    BodyShape good;
    good.intersections.push_back(sampleIntersection());
    QVERIFY(validate(good).empty());
    BodyShape capped = good;  // the crease solve needs at least one Newton iteration
    capped.intersections[0].maxIterations = 0;
    QVERIFY(QString::fromStdString(validate(capped)).contains("maxIterations = 0 must be >= 1"));
  }

  // Scenes: ellipsoid parts with their body-frame offsets, the rounded cube, the (tilted) plane.
  void scenesDescribeTheBodies() {
    auto sceneOf = [](const char* id) {
      const SystemDescription* s = findSystem(id);
      return s->scene(defaultScenario(*s).parameters);
    };
    const SceneSpec e = sceneOf("ellipsoid-plane");
    QCOMPARE(e.view, ViewKind::Spatial);
    QCOMPARE(int(e.bodies.size()), 1);
    QCOMPARE(std::get<EllipsoidShape>(e.bodies[0].parts[0].shape).semiAxes, Vec3(2, 3, 4));
    QVERIFY(e.bodies[0].parts[0].showAxes);
    QCOMPARE(std::get<PlaneObstacle>(e.obstacles[0]).normal, Vec3(0, 0, 1));
    const SceneSpec t = sceneOf("ellipsoid-tilted");
    const double tilt = 2.0 * std::numbers::pi / 180.0;
    QVERIFY((std::get<PlaneObstacle>(t.obstacles[0]).normal -
             Vec3(std::sin(tilt), 0.0, std::cos(tilt))).norm() <= 1e-16);
    const SceneSpec u = sceneOf("ellipsoids-union");
    QCOMPARE(int(u.bodies[0].parts.size()), 2);
    QVERIFY((u.bodies[0].parts[0].offset.position - Vec3(1.5 - 0.9937128, 0, 0)).norm() <= 1e-15);
    QVERIFY((u.bodies[0].parts[1].offset.position - Vec3(-4.5 - 0.9937128, 0, 0)).norm() <= 1e-15);
    QCOMPARE(std::get<EllipsoidShape>(u.bodies[0].parts[1].shape).semiAxes, Vec3(6, 1, 1));
    const SceneSpec c = sceneOf("cube-plane");
    const BoxShape box = std::get<BoxShape>(c.bodies[0].parts[0].shape);
    QVERIFY((box.halfExtents - Vec3::Constant(std::sqrt(3.0))).norm() <= 1e-15);
    QCOMPARE(box.cornerRadius, 1e-13);
    // Poses: (x, R) of the state.
    Scenario sc = defaultScenario(*findSystem("cube-plane"));
    sc.initial[*indexOf(findSystem("cube-plane")->info().initial, "ry0")] = 0.25;
    const CreateResult cr = createSimulation(sc);
    QVERIFY(cr.simulation);
    Pose pose;
    cr.simulation->poses(std::span<Pose>(&pose, 1));
    QCOMPARE(pose.position, Vec3(0, 0, 10));
    QVERIFY((pose.rotation - rotationY(0.25)).norm() <= 1e-15);
  }
};

QTEST_APPLESS_MAIN(TestSe3Shapes)
#include "test_se3_shapes.moc"
