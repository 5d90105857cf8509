// The three planar SystemDescriptions: naming conventions, trace columns and samples, poses,
// scenes, rejection of bad input with the value named, the rk4-event baseline (exact flight with
// uniform gravity; energy drift against the variational integrator with a nonlinear force), and a
// printed (not asserted) speed report.

#include "core/model/registry.hpp"
#include "core/planar/planar_simulation.hpp"
#include "test_planar_models.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <array>
#include <chrono>
#include <cmath>
#include <numbers>
#include <set>
#include <string>
#include <vector>

using namespace ricochet;
using namespace ricochet::planar;
using namespace ricochet::planar::testing;
using namespace ricochet::testing;

namespace {

const std::vector<std::string> kPlanar = {"particle-floor", "star-floor", "ellipse-floor"};

QStringList columnList(const Simulation& sim) {
  QStringList out;
  for (const std::string& c : sim.columns()) out << QString::fromStdString(c);
  return out;
}

Scenario with(Scenario sc, const std::string& name, double value) {
  const SystemInfo& info = findSystem(sc.system)->info();
  if (auto i = indexOf(info.parameters, name)) sc.parameters[*i] = value;
  else if (auto j = indexOf(info.initial, name)) sc.initial[*j] = value;
  return sc;
}

QString createError(const Scenario& sc) {
  CreateResult cr = createSimulation(sc);
  return cr.simulation ? QString() : QString::fromStdString(cr.error);
}

/// Energy error of a run, per tenth of the run: mean of H - E0 and max |H - E0| in each window.
struct EnergyWindows {
  std::array<double, 10> mean{}, max{};
};

template <class Integrator>
EnergyWindows energyWindows(Integrator integ, Eigen::Vector2d q, Eigen::Vector2d p, long steps) {
  const double e0 = integ.nodeEnergy(q, p);
  auto state = integ.initialState(q, p);
  typename Integrator::Report report;
  EnergyWindows w;
  for (long k = 0; k < steps; ++k) {
    if (integ.step(state, report) != RunStatus::Ok) return {};
    const double dev = integ.nodeEnergy(state.q, state.p) - e0;
    const auto i = static_cast<std::size_t>(k * 10 / steps);
    w.mean[i] += dev / static_cast<double>(steps / 10);
    w.max[i] = std::max(w.max[i], std::fabs(dev));
  }
  return w;
}

QString format(const std::array<double, 10>& v) {
  QString s;
  for (double x : v) s += QString::number(x, 'e', 2) + " ";
  return s;
}

}  // namespace

class TestPlanarSystems : public QObject {
  Q_OBJECT
 private slots:
  void registeredInContractOrder() {
    std::vector<std::string> ids;
    for (const SystemDescription* s : systems()) ids.push_back(s->info().id);
    QVERIFY(ids.size() >= 3);
    QVERIFY(std::equal(kPlanar.begin(), kPlanar.end(), ids.begin()));
  }

  // Conventions shared by every system: short unique names, initial conditions ending in 0, SI
  // units, ranges, help; "variational" first, then "rk4-event"; gap names.
  void followTheNamingConventions() {
    const std::vector<std::vector<std::string>> gaps = {
        {"floor"}, {"tip++", "tip+-", "tip-+", "tip--"}, {"floor"}};
    for (std::size_t s = 0; s < kPlanar.size(); ++s) {
      const SystemInfo& info = findSystem(kPlanar[s])->info();
      std::set<std::string> names;
      for (const auto& p : info.parameters) {
        QVERIFY(names.insert(p.name).second);
        // Every parameter has a unit, but the coefficient of restitution is a pure number.
        QVERIFY(!p.help.empty() && (!p.unit.empty() || p.name == "restitution"));
      }
      for (const auto& p : info.initial) {
        QVERIFY(names.insert(p.name).second);
        QVERIFY2(p.name.back() == '0', p.name.c_str());
        QVERIFY(!p.help.empty() && !p.unit.empty());
      }
      const ParameterSpec& m = info.parameters.at(*indexOf(info.parameters, "m"));
      QVERIFY(m.min == 0.0 && m.minExclusive && m.unit == "kg");
      QVERIFY(!checkValue(info.parameters.at(*indexOf(info.parameters, "g")), -1.0, "parameter").empty());
      // ellipse-floor also offers P000's LDAP scheme (consistent and literal (I8) readings).
      const std::vector<std::string> integrators =
          s == 2 ? std::vector<std::string>{"variational", "rk4-event", "ldap", "ldap-paper"}
                 : std::vector<std::string>{"variational", "rk4-event"};
      QCOMPARE(info.integrators.size(), integrators.size());
      for (std::size_t i = 0; i < integrators.size(); ++i)
        QCOMPARE(QString::fromStdString(info.integrators[i].name),
                 QString::fromStdString(integrators[i]));
      QVERIFY(info.constraints == gaps[s]);
    }
    QCOMPARE(findSystem("particle-floor")->info().defaultH, 0.01);
    QCOMPARE(findSystem("star-floor")->info().defaultH, 0.005);
    QCOMPARE(findSystem("ellipse-floor")->info().defaultH, 0.01);
    QVERIFY(QString::fromStdString(findSystem("star-floor")->info().parameters[1].help).contains("29/192"));
  }

  // Trace columns: q, p, mom.px (+ mom.ptheta), e.discrete (variational only), con.gap; the first
  // sample is the initial node (p = M qdot).
  void columnsAndFirstSample() {
    const QStringList particle = {"q.x", "q.y", "p.x", "p.y", "mom.px", "e.discrete", "con.gap"};
    const QStringList body = {"q.x", "q.y", "q.theta", "p.x", "p.y", "p.theta",
                              "mom.px", "mom.ptheta", "e.discrete", "con.gap"};
    for (const std::string& id : kPlanar) {
      Scenario sc = defaultScenario(*findSystem(id));
      CreateResult cr = createSimulation(sc);
      QVERIFY2(cr.simulation, cr.error.c_str());
      QStringList expected = id == "particle-floor" ? particle : body;
      QCOMPARE(columnList(*cr.simulation), expected);
      sc.integrator.name = "rk4-event";
      CreateResult rk = createSimulation(sc);
      QVERIFY2(rk.simulation, rk.error.c_str());
      expected.removeAll("e.discrete");
      QCOMPARE(columnList(*rk.simulation), expected);
    }
    // star: q = (0, 3.5, 0), p = (-2, 0, 5 I), I = 29/192; min tip gap 3.5 - 0.5.
    CreateResult cr = createSimulation(defaultScenario(*findSystem("star-floor")));
    std::vector<double> row(cr.simulation->columns().size());
    cr.simulation->sample(row);
    const double I = 29.0 / 192.0;
    const std::vector<double> expected = {0, 3.5, 0, -2, 0, 5 * I, -2, 5 * I,
                                          cr.simulation->energy().total() - 0.005 * 0.005 / 8 * 9.8 * 9.8, 3.0};
    for (std::size_t i = 0; i < row.size(); ++i) QVERIFY2(std::fabs(row[i] - expected[i]) <= 1e-12, qPrintable(QString::number(i)));
    QCOMPARE(cr.simulation->minGap(), 3.0);
  }

  // Poses: (x, y, 0) and Rz(theta).
  void posesFollowTheState() {
    Scenario sc = with(defaultScenario(*findSystem("ellipse-floor")), "theta0", 0.3);
    sc = with(sc, "x0", 1.5);
    CreateResult cr = createSimulation(sc);
    const SceneSpec scene = findSystem("ellipse-floor")->scene(sc.parameters);
    std::vector<Pose> poses(scene.bodies.size());
    cr.simulation->poses(poses);
    QCOMPARE(poses[0].position, Eigen::Vector3d(1.5, 3.5, 0.0));
    const Eigen::Matrix3d rz = Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    QVERIFY((poses[0].rotation - rz).norm() <= 1e-15);
    CreateResult pc = createSimulation(defaultScenario(*findSystem("particle-floor")));
    std::vector<Pose> pp(1);
    pc.simulation->poses(pp);
    QCOMPARE(pp[0].position, Eigen::Vector3d(0.0, 1.0, 0.0));
    QCOMPARE(pp[0].rotation, Eigen::Matrix3d::Identity());
  }

  // Scenes: planar view, one body, the floor y = 0 with normal +y; the ellipse outline lies on the
  // ellipse and shows its axes.
  void scenesDescribeTheBodies() {
    for (const std::string& id : kPlanar) {
      const Scenario sc = defaultScenario(*findSystem(id));
      const SceneSpec scene = findSystem(id)->scene(sc.parameters);
      QCOMPARE(scene.view, ViewKind::Planar);
      QCOMPARE(scene.bodies.size(), std::size_t(1));
      QCOMPARE(scene.obstacles.size(), std::size_t(1));
      const auto& floor = std::get<PlaneObstacle>(scene.obstacles[0]);
      QCOMPARE(floor.normal, Eigen::Vector3d::UnitY());
      QCOMPARE(floor.point, Eigen::Vector3d::Zero());
    }
    QVERIFY(std::holds_alternative<SphereShape>(
        findSystem("particle-floor")->scene(std::vector<double>{1, 9.8}).bodies[0].parts[0].shape));
    const SceneSpec e = findSystem("ellipse-floor")->scene(std::vector<double>{1, 9.8, 2.0, 0.7});
    const auto& part = e.bodies[0].parts[0];
    QVERIFY(part.showAxes);
    const auto& outline = std::get<PrismShape>(part.shape).outline;
    QCOMPARE(outline.size(), std::size_t(96));
    for (const auto& v : outline) {
      QVERIFY(std::fabs(v.x() * v.x() / 4.0 + v.y() * v.y() / 0.49 - 1.0) <= 1e-12);
    }
    QCOMPARE(e.characteristicLength, 2.0);
  }

  // Bad input: the message names the value (and, for an inadmissible state, the gap).
  void badInputNamesTheValue() {
    const Scenario particle = defaultScenario(*findSystem("particle-floor"));
    QCOMPARE(createError(with(particle, "m", -1.0)),
             QStringLiteral("parameter 'm' = -1 is out of range: must be > 0 kg"));
    QCOMPARE(createError(with(particle, "vx0", std::nan(""))),
             QStringLiteral("initial condition 'vx0' = nan is not a finite number"));
    QCOMPARE(createError(with(particle, "y0", -0.5)),
             QStringLiteral("initial condition outside the admissible set: gap 'floor' = -0.5 m < 0 at y0 = -0.5"));
    // star at 45 degrees 0.6 m up: "tip--" (body (-L/2, -L/2)) is at 0.6 - 0.7071 = -0.1071.
    const Scenario star = with(with(defaultScenario(*findSystem("star-floor")), "theta0", std::numbers::pi / 4), "y0", 0.6);
    const QString se = createError(star);
    QVERIFY2(se.startsWith("initial condition outside the admissible set: gap 'tip--'"), qPrintable(se));
    QVERIFY2(se.contains("= -0.1071") && se.contains("y0 = 0.6") && se.contains("theta0 = 0.785"), qPrintable(se));
    QCOMPARE(createError(with(star, "L", 0.0)), QStringLiteral("parameter 'L' = 0 is out of range: must be > 0 m"));
    // ellipse standing on its long axis (theta0 = pi/2): lowest point 1 below the centre.
    const QString ee = createError(with(defaultScenario(*findSystem("ellipse-floor")), "y0", 0.4));
    QVERIFY2(ee.startsWith("initial condition outside the admissible set: gap 'floor' = -0.6"), qPrintable(ee));
    QCOMPARE(createError(with(defaultScenario(*findSystem("ellipse-floor")), "b", -0.5)),
             QStringLiteral("parameter 'b' = -0.5 is out of range: must be > 0 m"));
    // On the boundary is admissible.
    QVERIFY(createError(with(particle, "y0", 0.0)).isEmpty());
  }

  // A particle starting on the floor and moving into it bounces at alpha = 0 (a zero-length first
  // sub-step).
  void impactAtTheInitialNode() {
    Scenario sc = with(with(defaultScenario(*findSystem("particle-floor")), "y0", 0.0), "vy0", -1.0);
    CreateResult cr = createSimulation(sc);
    QVERIFY2(cr.simulation, cr.error.c_str());
    ImpactLog sink;
    QVERIFY(cr.simulation->advance(1, &sink).ok());
    QCOMPARE(sink.impacts.size(), std::size_t(1));
    QCOMPARE(sink.impacts[0].alpha, 0.0);
    QVERIFY(cr.simulation->minGap() > 0.0);
    // Exact flight afterwards: E_d = E- on the post-impact segment, so H(q1, p1) - H0 = (h^2/8) m g^2.
    QVERIFY(std::fabs(cr.simulation->energy().total() - (0.5 * 5.0) - 0.01 * 0.01 / 8 * 9.8 * 9.8) <= 1e-12);
  }

  // With uniform gravity RK4 integrates the flight exactly and the reflection conserves the
  // kinetic energy, so rk4-event is the event-driven exact solution: it meets the variational
  // integrator's first impact (also exact) and keeps H to round-off.
  void rk4EventIsExactForUniformGravity() {
    for (const std::string& id : kPlanar) {
      Scenario sc = defaultScenario(*findSystem(id));
      ImpactLog vi, rk;
      CreateResult v = createSimulation(sc);
      sc.integrator.name = "rk4-event";
      CreateResult r = createSimulation(sc);
      QVERIFY2(r.simulation, r.error.c_str());
      const double e0 = r.simulation->energy().total();
      double dev = 0;
      while (rk.impacts.size() < 3 && r.simulation->time() < 10) {
        QVERIFY(r.simulation->advance(1, &rk).ok());
        dev = std::max(dev, std::fabs(r.simulation->energy().total() - e0));
      }
      while (vi.impacts.empty()) QVERIFY(v.simulation->advance(1, &vi).ok());
      qInfo("%s rk4-event: first impact %.12f (variational %.12f), max|H - E0| %.1e over %zu impacts",
            id.c_str(), rk.impacts[0].t, vi.impacts[0].t, dev, rk.impacts.size());
      QVERIFY(std::fabs(rk.impacts[0].t - vi.impacts[0].t) <= 1e-10);
      QVERIFY(dev <= 1e-11 * e0);
      for (const auto& i : rk.impacts) QVERIFY(std::fabs(i.energyAfter - i.energyBefore) <= 1e-12 * e0);
    }
  }

  // With a nonlinear force the baseline's energy error drifts while the variational one stays in
  // its band: a particle bouncing vertically in a harmonic well V = 1/2 k |q - c|^2 over the floor
  // (k = 40, c = (0, 0.3), omega h = 0.32), 10^4 steps of both integrators from the same state.
  // Measured per tenth of the run and compared (no expected value is hard-coded).
  void rk4EnergyDriftsVariationalStaysBounded() {
    using Model = ParticleFloorModel<BowlPotential>;
    Model model;
    const double h = 0.05;
    const Eigen::Vector2d q0(0.0, 0.8), p0(0.0, 0.0);
    const long steps = 10000;
    const EnergyWindows v = energyWindows(FmowIntegrator<Model>(model, h), q0, p0, steps);
    const EnergyWindows r = energyWindows(Rk4EventIntegrator<Model>(model, h), q0, p0, steps);
    qInfo("harmonic well, E0 = 5, 10^4 steps, per tenth of the run:");
    qInfo("  variational mean(H - E0): %s", qPrintable(format(v.mean)));
    qInfo("  variational max|H - E0|:  %s", qPrintable(format(v.max)));
    qInfo("  rk4-event   mean(H - E0): %s", qPrintable(format(r.mean)));
    qInfo("  rk4-event   max|H - E0|:  %s", qPrintable(format(r.max)));
    QVERIFY(v.max[0] > 0 && r.max[0] > 0);
    // Variational: the same band in the last tenth as in the first (no drift).
    QVERIFY(v.max[9] <= 1.1 * v.max[0]);
    QVERIFY(std::fabs(v.mean[9] - v.mean[0]) <= 0.1 * v.max[0]);
    // rk4-event: one-signed drift, growing steadily, ending above the variational band.
    for (std::size_t i = 1; i < 10; ++i) QVERIFY(r.mean[i] < r.mean[i - 1]);
    QVERIFY(r.max[9] >= 5.0 * r.max[0]);
    QVERIFY(r.max[9] > v.max[9]);
  }

  // The same scenario run twice gives a bitwise identical trace and impact list.
  void runsAreDeterministic() {
    for (const std::string& id : kPlanar) {
      std::vector<std::vector<double>> rows[2];
      std::vector<ImpactRecord> impacts[2];
      for (int run = 0; run < 2; ++run) {
        CreateResult cr = createSimulation(defaultScenario(*findSystem(id)));
        ImpactLog sink;
        std::vector<double> row(cr.simulation->columns().size());
        for (int k = 0; k < 200; ++k) {
          QVERIFY(cr.simulation->advance(50, &sink).ok());
          cr.simulation->sample(row);
          rows[run].push_back(row);
        }
        impacts[run] = sink.impacts;
      }
      QVERIFY(rows[0] == rows[1]);
      QCOMPARE(impacts[0].size(), impacts[1].size());
      QVERIFY(!impacts[0].empty());
      for (std::size_t i = 0; i < impacts[0].size(); ++i) {
        QCOMPARE(impacts[0][i].t, impacts[1][i].t);
        QCOMPARE(impacts[0][i].impulse, impacts[1][i].impulse);
      }
    }
  }

  // Speed, printed for orientation only (targets: particle 2e7 steps/s, star/ellipse 1e7; an
  // impact step under 20 smooth steps). No assertion: timings belong in bench/.
  void speedReport() {
    for (const std::string& id : kPlanar) {
      for (const char* integrator : {"variational", "rk4-event"}) {
        Scenario sc = defaultScenario(*findSystem(id));
        sc.integrator.name = integrator;
        CreateResult cr = createSimulation(sc);
        const std::int64_t n = std::string(integrator) == "variational" ? 4000000 : 400000;
        const auto t0 = std::chrono::steady_clock::now();
        const AdvanceResult r = cr.simulation->advance(n, nullptr);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY2(r.ok(), r.message.c_str());
        qInfo("speed %-15s %-12s %.3g steps/s (%lld impacts)", id.c_str(), integrator, n / s,
              static_cast<long long>(cr.simulation->impactCount()));
      }
    }
    // Cost of an impact step relative to a smooth one: particle with and without impacts.
    auto timeRun = [](const Scenario& sc, std::int64_t n, std::int64_t* impacts) {
      CreateResult cr = createSimulation(sc);
      const auto t0 = std::chrono::steady_clock::now();
      cr.simulation->advance(n, nullptr);
      *impacts = cr.simulation->impactCount();
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    std::int64_t none = 0, some = 0;
    const std::int64_t n = 4000000;
    Scenario high = with(defaultScenario(*findSystem("particle-floor")), "g", 0.0);
    const double smooth = timeRun(high, n, &none) / n;
    Scenario bouncing = with(defaultScenario(*findSystem("particle-floor")), "y0", 0.002);
    const double total = timeRun(bouncing, n, &some);
    qInfo("particle: smooth step %.1f ns; impact step ~ %.1f smooth steps (%lld impacts)", smooth * 1e9,
          (total - (n - some) * smooth) / some / smooth, static_cast<long long>(some));
    QCOMPARE(none, std::int64_t(0));
    QVERIFY(some > 0);
  }
};

QTEST_APPLESS_MAIN(TestPlanarSystems)
#include "test_planar_systems.moc"
