// The rigid-body system with bodies given as shapes (no mesh files: test_mesh_bodies.cpp reads
// those): its primitives reproduce the paper's cases, the mass properties of boxes, tetrahedra,
// rounded hulls and unions equal their closed forms, the support point found by hill climbing
// equals the scan's, a random hull in a box of walls keeps its energy at round-off through
// hundreds of wall impacts, the momenta a world's symmetries leave free stay conserved, and bad
// bodies and worlds are refused with messages that name the problem.

#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"
#include "core/se3/convex_hull.hpp"
#include "core/se3/mass_properties.hpp"
#include "core/se3/rigid_body.hpp"
#include "core/se3/rigid_body_system.hpp"
#include "core/se3/se3_systems.hpp"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

using namespace ricochet;
using namespace ricochet::se3;

namespace {

struct Run {
  std::vector<double> impactTimes;
  std::vector<int> impactGaps;
  std::vector<int> impactSteps;  ///< the step each impact happened in
  double maxRelativeEnergyError = 0.0;
  double maxMomentumChange = 0.0;  ///< of the watched momentum (see runStepper)
  RunStatus status = RunStatus::Ok;
};

/// Runs `steps` steps of the LGVCI from the setup, recording impact times and the energy error.
/// `momentum` (optional) is a conserved quantity whose largest change is recorded.
template <class Momentum>
Run runStepper(const Setup& setup, int steps, Momentum momentum) {
  Run run;
  LgvciStepper stepper(setup.model, setup.h);
  StepReport report;
  RigidBodyState s = setup.initial;
  const double e0 = totalEnergy(setup.model, s);
  const double m0 = momentum(s);
  for (int k = 1; k <= steps; ++k) {
    run.status = stepper.step(s, report);
    if (run.status != RunStatus::Ok) break;
    for (const ImpactEvent& e : report) {
      run.impactTimes.push_back((k - 1 + e.s) * setup.h);
      run.impactGaps.push_back(e.gap);
      run.impactSteps.push_back(k);
    }
    run.maxRelativeEnergyError =
        std::max(run.maxRelativeEnergyError, std::fabs(totalEnergy(setup.model, s) - e0) / std::fabs(e0));
    run.maxMomentumChange = std::max(run.maxMomentumChange, std::fabs(momentum(s) - m0));
  }
  return run;
}
Run runStepper(const Setup& setup, int steps) {
  return runStepper(setup, steps, [](const RigidBodyState&) { return 0.0; });
}

Scenario rigidBody(const BodyScenario& body) {
  Scenario sc = defaultScenario(*findSystem("rigid-body"));
  sc.body = std::make_shared<const BodyScenario>(body);
  return sc;
}

void set(Scenario& sc, const char* name, double value) {
  const std::string e = io::setScenarioValue(sc, name, value);
  QVERIFY2(e.empty(), e.c_str());
}

BodyScenario boxBody(const Vec3& size, std::optional<double> epsilon = {}) {
  BodyScenario b;
  b.body.shape = BodyNode::Shape::Box;
  b.body.size = size;
  b.body.epsilon = epsilon;
  return b;
}

BodyNode polyhedron(std::vector<Vec3> vertices, double epsilon = 0.0) {
  BodyNode n;
  n.shape = BodyNode::Shape::Polyhedron;
  n.vertices = std::move(vertices);
  n.epsilon = epsilon;
  return n;
}

/// The corner tetrahedron (0, a e1, b e2, c e3).
BodyNode cornerTetrahedron(double a, double b, double c) {
  return polyhedron({Vec3::Zero(), Vec3(a, 0, 0), Vec3(0, b, 0), Vec3(0, 0, c)});
}

/// Closed form second moment about the origin of a uniform solid: returns V and S = int rho rho^T.
Mat3 inertiaFromSecondMoment(const Mat3& S, const Vec3& c, double volume, double mass) {
  const Mat3 Jd = (mass / volume) * (S - volume * c * c.transpose());
  return Jd.trace() * Mat3::Identity() - Jd;
}

double relativeDifference(const Mat3& a, const Mat3& b) { return (a - b).norm() / b.norm(); }

/// A seeded random point cloud in an ellipsoidal shell of semi-axes `axes`.
std::vector<Vec3> randomCloud(int n, const Vec3& axes, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> radius(0.6, 1.0);
  std::vector<Vec3> points;
  for (int i = 0; i < n; ++i) {
    const Vec3 d = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
    points.push_back(radius(rng) * axes.cwiseProduct(d));
  }
  return points;
}

}  // namespace

class TestSe3Bodies : public QObject {
  Q_OBJECT
 private slots:
  void boxPrimitiveReproducesCubePlane() {
    // The default body of rigid-body is cube-plane's cube: a box of side 2 sqrt(3), eps 1e-13.
    for (const char* integrator : {"variational", "variational-bisection"}) {
      Scenario cube = defaultScenario(*findSystem("cube-plane"));
      Scenario body = defaultScenario(*findSystem("rigid-body"));
      cube.integrator.name = body.integrator.name = integrator;
      const Run a = runStepper(makeSetup(cube), 4000);
      const Setup setup = makeRigidBodySetup(body);
      QVERIFY2(setup.error.empty(), setup.error.c_str());
      const Run b = runStepper(setup, 4000);
      QVERIFY(a.impactTimes.size() >= 20 && b.impactTimes.size() >= 20);
      double worst = 0.0;
      for (int k = 0; k < 20; ++k) worst = std::max(worst, std::fabs(a.impactTimes[k] - b.impactTimes[k]));
      QVERIFY2(worst <= 1e-9, QByteArray::number(worst));
    }
  }

  void polyhedronIsTheSameBodyWhateverTheVertexOrder() {
    // The hull is canonical: a box's corners listed in another order (and with an inner point)
    // give the same parts and the same trajectory, bit for bit.
    const double h = std::sqrt(3.0);
    std::vector<Vec3> corners;
    for (int i = 0; i < 8; ++i) corners.push_back(Vec3(i & 1 ? h : -h, i & 2 ? h : -h, i & 4 ? h : -h));
    BodyScenario sorted, shuffled;
    sorted.body = polyhedron(corners, 1e-13);
    std::reverse(corners.begin(), corners.end());
    std::swap(corners[1], corners[5]);
    corners.insert(corners.begin() + 3, Vec3(0.1, -0.2, 0.3));
    shuffled.body = polyhedron(corners, 1e-13);
    const Run a = runStepper(makeRigidBodySetup(rigidBody(sorted)), 2000);
    const Run b = runStepper(makeRigidBodySetup(rigidBody(shuffled)), 2000);
    QVERIFY(a.impactTimes.size() >= 5);
    QCOMPARE(b.impactTimes, a.impactTimes);
  }

  void ellipsoidPrimitiveReproducesEllipsoidPlane() {
    for (const char* id : {"ellipsoid-plane", "ellipsoid-tilted"}) {
      Scenario paper = defaultScenario(*findSystem(id));
      const auto& params = findSystem(id)->info().parameters;
      const auto value = [&](const char* name) { return paper.parameters[*indexOf(params, name)]; };
      BodyScenario e;
      e.body.shape = BodyNode::Shape::Ellipsoid;
      e.body.size = Vec3(value("a"), value("b"), value("c"));
      Scenario body = rigidBody(e);
      body.initial = paper.initial;
      body.integrator.tolerance = paper.integrator.tolerance;
      if (std::string(id) == "ellipsoid-tilted") set(body, "tilt", value("tilt"));
      const Run a = runStepper(makeSetup(paper), 3000);
      const Setup setup = makeRigidBodySetup(body);
      QVERIFY2(setup.error.empty(), setup.error.c_str());
      const Run b = runStepper(setup, 3000);
      QVERIFY(a.impactTimes.size() >= 10);
      QCOMPARE(b.impactTimes.size(), a.impactTimes.size());
      for (std::size_t k = 0; k < a.impactTimes.size(); ++k) {
        QVERIFY2(std::fabs(a.impactTimes[k] - b.impactTimes[k]) <= 1e-12, id);
      }
    }
  }

  void boxMassPropertiesAreTheClosedForm() {
    const Vec3 size(2.0, 1.0, 0.5);
    const BuiltBody b = buildBody(boxBody(size, 0.0), 0.0, 3.0);
    QVERIFY2(b.ok(), b.error.c_str());
    QCOMPARE(b.mass, 3.0);
    QVERIFY(std::fabs(b.volume - 1.0) <= 1e-15);
    const Vec3 s2 = size.cwiseAbs2();
    const Mat3 J = (3.0 / 12.0) * Vec3(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()).asDiagonal();
    QVERIFY(relativeDifference(b.J, J) <= 1e-14);
    QVERIFY(b.centreOfMass.norm() <= 1e-15);

    // Rounded by eps: Steiner's volume abc + 2 eps (ab + bc + ca) + pi eps^2 (a + b + c) + 4/3 pi eps^3.
    const double eps = 0.1, a = size.x(), bb = size.y(), c = size.z(), pi = std::numbers::pi;
    const BuiltBody r = buildBody(boxBody(size, eps), 0.0, 1.0);
    QVERIFY2(r.ok(), r.error.c_str());
    const double steiner = a * bb * c + 2 * eps * (a * bb + bb * c + c * a) + pi * eps * eps * (a + bb + c) +
                           4.0 / 3.0 * pi * eps * eps * eps;
    QVERIFY(std::fabs(r.volume - steiner) <= 1e-14 * steiner);
    // A density gives the mass.
    BodyScenario dense = boxBody(size, 0.0);
    dense.density = 2500.0;
    QVERIFY(std::fabs(buildBody(dense, 0.0, 1.0).mass - 2500.0) <= 1e-10);
  }

  void roundedHullOfAPointIsABall() {
    // A tiny tetrahedron rounded by 1 is a ball of radius 1 up to terms in its size.
    BodyScenario b;
    const double d = 1e-9;
    b.body = polyhedron({Vec3(-d, -d, -d), Vec3(d, -d, -d), Vec3(0, d, -d), Vec3(0, 0, d)}, 1.0);
    const BuiltBody r = buildBody(b, 0.0, 1.0);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY2(std::fabs(r.volume - 4.0 / 3.0 * std::numbers::pi) <= 1e-7, QByteArray::number(r.volume));
    QVERIFY2(relativeDifference(r.J, Mat3::Identity() * 0.4) <= 1e-7,  // 2/5 m r^2
             QByteArray::number(relativeDifference(r.J, Mat3::Identity() * 0.4)));
  }

  void tetrahedronMassPropertiesAreTheClosedForm() {
    const double a = 1.0, b = 2.0, c = 3.0, m = 2.0;
    BodyScenario t;
    t.body = cornerTetrahedron(a, b, c);
    const BuiltBody r = buildBody(t, 0.0, m);
    QVERIFY2(r.ok(), r.error.c_str());
    const double V = a * b * c / 6.0;
    QVERIFY(std::fabs(r.volume - V) <= 1e-15);
    const Vec3 centroid(a / 4, b / 4, c / 4);
    QVERIFY((r.centreOfMass - centroid).norm() <= 1e-15);
    // About the origin: int x^2 dV = V a^2/10, int x y dV = V a b/20.
    const Vec3 e(a, b, c);
    Mat3 S = (V / 20.0) * e * e.transpose();
    S.diagonal() = (V / 10.0) * e.cwiseAbs2();
    const Mat3 J = inertiaFromSecondMoment(S, centroid, V, m);
    QVERIFY2(relativeDifference(r.J, J) <= 1e-14, QByteArray::number(relativeDifference(r.J, J)));
    // Re-centred: the built hull's own first moment is zero.
    ConvexHull hull = convexHull(r.shape.polyhedra.at(0).vertices);
    QVERIFY(roundedHullMoments(hull, 0.0).first.norm() <= 1e-15);
  }

  void unionMassPropertiesAreTheClosedForm() {
    // A box and a tetrahedron, each moved and turned, plus an ellipsoid: the sum of the parts'
    // closed forms, moved by the parallel-axis rule.
    const Vec3 boxSize(1.0, 2.0, 0.5), boxAt(-2.0, 0.5, 0.0), tetAt(1.0, 0.0, 0.0);
    const Vec3 boxTurn(0.0, 0.0, std::numbers::pi / 2), ellAxes(0.5, 0.4, 0.3), ellAt(0.0, 4.0, 0.0);
    BodyScenario u;
    u.body.shape = BodyNode::Shape::Union;
    BodyNode box;
    box.shape = BodyNode::Shape::Box;
    box.size = boxSize;
    box.epsilon = 0.0;
    box.position = boxAt;
    box.rotation = boxTurn;
    BodyNode tet = cornerTetrahedron(1.0, 1.0, 1.0);
    tet.position = tetAt;
    BodyNode ell;
    ell.shape = BodyNode::Shape::Ellipsoid;
    ell.size = ellAxes;
    ell.position = ellAt;
    u.body.parts = {box, tet, ell};
    u.density = 1000.0;
    const BuiltBody r = buildBody(u, 0.0, 1.0);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(int(r.shape.polyhedra.size()), 2);
    QCOMPARE(int(r.shape.ellipsoids.size()), 1);

    // Closed forms about the union's origin.
    const Mat3 Q = expSO3(boxTurn);
    const double Vb = boxSize.prod(), Vt = 1.0 / 6.0, Ve = 4.0 / 3.0 * std::numbers::pi * ellAxes.prod();
    const Mat3 Sb = Q * ((Vb / 12.0) * boxSize.cwiseAbs2().asDiagonal().toDenseMatrix()) * Q.transpose() +
                    Vb * boxAt * boxAt.transpose();
    Mat3 St = (Vt / 20.0) * Mat3::Ones();
    St.diagonal() = Vec3::Constant(Vt / 10.0);
    const Vec3 ft = Vt * Vec3::Constant(0.25);
    St += ft * tetAt.transpose() + tetAt * ft.transpose() + Vt * tetAt * tetAt.transpose();
    const Mat3 Se = (Ve / 5.0) * ellAxes.cwiseAbs2().asDiagonal().toDenseMatrix() + Ve * ellAt * ellAt.transpose();
    const double V = Vb + Vt + Ve;
    const Vec3 c = (Vb * boxAt + ft + Vt * tetAt + Ve * ellAt) / V;
    QVERIFY(std::fabs(r.volume - V) <= 1e-14 * V);
    QVERIFY(std::fabs(r.mass - 1000.0 * V) <= 1e-11 * r.mass);
    QVERIFY((r.centreOfMass - c).norm() <= 1e-14);
    const Mat3 J = inertiaFromSecondMoment(Sb + St + Se, c, V, r.mass);
    QVERIFY2(relativeDifference(r.J, J) <= 1e-13, QByteArray::number(relativeDifference(r.J, J)));
    // The principal moments are J's eigenvalues, ascending, with orthonormal axes.
    QVERIFY((r.principalAxes * r.principalMoments.asDiagonal() * r.principalAxes.transpose() - r.J).norm() <=
            1e-12 * r.J.norm());
    QVERIFY(r.principalMoments[0] <= r.principalMoments[1] && r.principalMoments[1] <= r.principalMoments[2]);
  }

  void hillClimbFindsTheScansSupportPoint() {
    BodyScenario rock;
    rock.body = polyhedron(randomCloud(3000, Vec3(1.0, 0.7, 0.4), 7), 0.01);
    const BuiltBody r = buildBody(rock, 0.0, 1.0);
    QVERIFY2(r.ok(), r.error.c_str());
    const PolyhedronPart& climbed = r.shape.polyhedra.at(0);
    QVERIFY(climbed.vertices.size() > kClimbAboveVertices);
    QVERIFY(!climbed.neighbours.empty());
    PolyhedronPart scanned;
    scanned.vertices = climbed.vertices;
    scanned.epsilon = climbed.epsilon;
    std::mt19937_64 rng(11);
    std::normal_distribution<double> normal;
    for (int i = 0; i < 20000; ++i) {
      const Vec3 u = Vec3(normal(rng), normal(rng), normal(rng)).normalized();
      QCOMPARE(lowestPoint(climbed, u).height, lowestPoint(scanned, u).height);
    }
    // The axis directions too (cube-map cell borders, ties between equal coordinates).
    for (int k = 0; k < 3; ++k) {
      for (double sign : {-1.0, 1.0}) {
        const Vec3 u = sign * Vec3::Unit(k);
        QCOMPARE(lowestPoint(climbed, u).height, lowestPoint(scanned, u).height);
      }
    }
  }

  void randomHullInABoxKeepsItsEnergy() {
    // A rock (hull of a seeded random cloud) thrown around a closed box: 1e5 steps, hundreds of
    // wall impacts, |dE|/|E0| at round-off.
    BodyScenario rock;
    rock.body = polyhedron(randomCloud(60, Vec3(1.0, 0.7, 0.5), 3));
    rock.world.box = BoxWorld{Eigen::Vector2d(6.0, 5.0), 14.0, Eigen::Vector2d::Zero()};
    Scenario sc = rigidBody(rock);
    set(sc, "vx0", 6.0);
    set(sc, "vy0", -5.0);
    const Setup setup = makeRigidBodySetup(sc);
    QVERIFY2(setup.error.empty(), setup.error.c_str());
    QCOMPARE(int(setup.model.walls.size()), 5);
    const Run run = runStepper(setup, 100000);
    QCOMPARE(run.status, RunStatus::Ok);
    const auto walls = std::count_if(run.impactGaps.begin(), run.impactGaps.end(), [](int g) { return g != 0; });
    const auto floor = std::count(run.impactGaps.begin(), run.impactGaps.end(), 0);
    qInfo("%lld wall and %lld floor impacts, max |dE|/|E0| = %.3g", static_cast<long long>(walls),
          static_cast<long long>(floor), run.maxRelativeEnergyError);
    QVERIFY(walls >= 200);
    QVERIFY(floor >= 100);
    QVERIFY(run.maxRelativeEnergyError <= 1e-12);
  }

  void aCubeWedgedBetweenWallsKeepsBouncing() {
    // cube-plane's cube, spinning, in a box narrower than its diagonal (6 m): it wedges between
    // two walls, and after the impulse on one wall the other is touched at once and approached.
    // That second point must be resolved in the same step (the first plane's gap rounds to 0 as
    // its point leaves, so it is the lowest at both ends of the bracket): no failure, energy at
    // round-off.
    for (const double side : {5.0, 7.0}) {
      BodyScenario cube = *findSystem("rigid-body")->info().defaultBody;
      cube.world.box = BoxWorld{Eigen::Vector2d(side, side), 0.0, Eigen::Vector2d::Zero()};
      const Setup setup = makeRigidBodySetup(rigidBody(cube));
      QVERIFY2(setup.error.empty(), setup.error.c_str());
      const Run run = runStepper(setup, 100000);
      int wedged = 0;  // steps with impacts on two different walls
      for (std::size_t i = 1; i < run.impactSteps.size(); ++i) {
        wedged += run.impactSteps[i] == run.impactSteps[i - 1] && run.impactGaps[i] != run.impactGaps[i - 1] &&
                  run.impactGaps[i] != 0 && run.impactGaps[i - 1] != 0;
      }
      qInfo("box %g m: %zu impacts, %d steps wedged between two walls, max |dE|/|E0| = %.3g", side,
            run.impactTimes.size(), wedged, run.maxRelativeEnergyError);
      QCOMPARE(run.status, RunStatus::Ok);
      QVERIFY(run.impactTimes.size() >= 5000);
      QVERIFY(wedged >= 10);
      QVERIFY(run.maxRelativeEnergyError <= 1e-12);
    }
  }

  void wallsKeepTheMomentaTheirSymmetriesLeave() {
    // Two walls with normals along x: the momentum along y is conserved exactly (no plane can
    // push along y), and with the ground alone so is the angular momentum about the vertical.
    BodyScenario rock;
    rock.body = polyhedron(randomCloud(40, Vec3(1.0, 0.6, 0.5), 5));
    rock.world.walls = {WallSpec{Vec3(-3.0, 0, 0), Vec3(1, 0, 0)}, WallSpec{Vec3(3.0, 0, 0), Vec3(-2, 0, 0)}};
    Scenario sc = rigidBody(rock);
    set(sc, "vx0", 5.0);
    Setup setup = makeRigidBodySetup(sc);
    QVERIFY2(setup.error.empty(), setup.error.c_str());
    const Run walls = runStepper(setup, 20000, [](const RigidBodyState& s) { return s.gamma.y(); });
    QVERIFY(std::count_if(walls.impactGaps.begin(), walls.impactGaps.end(), [](int g) { return g != 0; }) >= 20);
    QVERIFY2(walls.maxMomentumChange <= 1e-12, QByteArray::number(walls.maxMomentumChange));

    BodyScenario open = rock;
    open.world = WorldSpec{};
    setup = makeRigidBodySetup(rigidBody(open));
    const Run ground = runStepper(setup, 20000, [](const RigidBodyState& s) {
      return s.x.cross(s.gamma).z() + (s.R * s.Pi).z();
    });
    QVERIFY(ground.impactTimes.size() >= 20);
    QVERIFY2(ground.maxMomentumChange <= 1e-10, QByteArray::number(ground.maxMomentumChange));
  }

  void aWorldRoundTripsThroughTheScenarioFile() {
    BodyScenario b;
    b.body.shape = BodyNode::Shape::Union;
    BodyNode box;
    box.shape = BodyNode::Shape::Box;
    box.size = Vec3(1.0, 0.5, 0.25);
    box.epsilon = 0.01;
    box.position = Vec3(0.5, 0, 0);
    box.rotation = Vec3(0.1, 0.2, 0.3);
    BodyNode ell;
    ell.shape = BodyNode::Shape::Ellipsoid;
    ell.size = Vec3(0.3, 0.2, 0.1);
    ell.position = Vec3(-0.5, 0, 0);
    b.body.parts = {box, ell};
    b.density = 7.5;
    b.world.box = BoxWorld{Eigen::Vector2d(8.0, 6.0), 20.0, Eigen::Vector2d(0.5, -0.25)};
    b.world.walls = {WallSpec{Vec3(0, 0, 0), Vec3(1, 1, 0.5)}};
    Scenario sc = rigidBody(b);
    set(sc, "x0", 1.0);
    const std::string text = io::scenarioToText(sc);
    const io::ScenarioResult back = io::parseScenario(text, "round-trip.json");
    QVERIFY2(back.ok(), back.error.c_str());
    QVERIFY(io::sameScenario(*back.scenario, sc));
    QCOMPARE(io::scenarioToText(*back.scenario), text);
    QVERIFY(validateScenario(sc).empty());
    const CreateResult created = createSimulation(sc);
    QVERIFY2(created.simulation, created.error.c_str());
  }

  void badBodiesAndWorldsNameTheProblem() {
    const auto errorOf = [](const std::string& body, const std::string& world = {}) {
      const std::string text = R"({"format": "ricochet-scenario", "version": 1, "system": "rigid-body", "body": )" +
                               body + (world.empty() ? "" : ", \"world\": " + world) + "}";
      const io::ScenarioResult r = io::parseScenario(text, "bad.json");
      if (!r.ok()) return r.error;
      const CreateResult c = createSimulation(*r.scenario);
      return c.simulation ? std::string() : c.error;
    };
    const auto expect = [&](const std::string& body, const std::string& world, const char* part) {
      const std::string e = errorOf(body, world);
      QVERIFY2(e.find(part) != std::string::npos, ("'" + e + "' lacks '" + part + "'").c_str());
    };
    // Fewer than four points, and four in one plane.
    expect(R"({"shape": "polyhedron", "vertices": [[0,0,0],[1,0,0],[0,1,0]]})", "", "at least 4");
    expect(R"({"shape": "polyhedron", "vertices": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]})", "", "lie in one plane");
    expect(R"({"shape": "polyhedron", "vertices": [[0,0,0],[1,0,0],[2,0,0],[3,0,0]]})", "", "lie on one line");
    // Sizes, mass and density.
    expect(R"({"shape": "box", "size": [1, 0, 1]})", "", "\"body.size[1]\" = 0 must be > 0 m");
    expect(R"({"shape": "ellipsoid", "axes": [1, 1, -2]})", "", "\"body.axes[2]\" = -2 must be > 0 m");
    expect(R"({"shape": "box", "size": [1, 1, 1], "density": -3})", "", "\"body.density\" = -3 must be > 0 kg/m^3");
    expect(R"({"shape": "box", "size": [1, 1, 1], "epsilon": -1})", "", "\"body.epsilon\" = -1 must be >= 0 m");
    expect(R"({"shape": "cylinder"})", "", "is not a shape");
    expect(R"({"shape": "union", "parts": []})", "", "non-empty array");
    expect(R"({"shape": "box", "size": [1, 1, 1], "colour": 1})", "", "unknown key \"body.colour\"");
    // A mesh file that is not there (core reads meshes itself: test_io_mesh_reader).
    expect(R"({"shape": "mesh", "file": "no-such-die.stl"})", "",
           "\"body.file\": mesh 'no-such-die.stl': no such file");
    // The world: a zero normal, and a box too small for the body (the initial pose cuts a wall).
    expect(R"({"shape": "box", "size": [1, 1, 1]})", R"({"walls": [{"point": [0,0,0], "normal": [0,0,0]}]})",
           "non-zero normal");
    expect(R"({"shape": "box", "size": [1, 1, 1]})", R"({"box": {"size": [0.5, 4]}})",
           "gap 'box.-x' Phi = ");
    expect(R"({"shape": "box", "size": [1, 1, 1]})", R"({"box": {"size": [4, 4, 5]}})",
           "gap 'box.top' Phi = ");
    // A non-positive mass: the parameter's range.
    Scenario sc = defaultScenario(*findSystem("rigid-body"));
    set(sc, "m", 0.0);
    QVERIFY(validateScenario(sc).find("'m'") != std::string::npos);
    // A body for a system that takes none.
    const io::ScenarioResult r = io::parseScenario(
        R"({"format": "ricochet-scenario", "version": 1, "system": "cube-plane", "body": {"shape": "box", "size": [1,1,1]}})",
        "bad.json");
    QVERIFY(!r.ok() && r.error.find("takes no body") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(TestSe3Bodies)
#include "test_se3_bodies.moc"
