// The three nonholonomic registry entries (pendulum-cylinder, disk-wall, disk-table) as every
// layer sees them: names and ranges, trace columns, input checks, admissibility and constraint
// residuals along runs of every integrator, impact records, scenes and poses, determinism and
// failure reporting.

#include "core/model/registry.hpp"
#include "test_support.hpp"

#include <Eigen/LU>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <numbers>
#include <set>
#include <string>
#include <vector>

using namespace ricochet;
using namespace ricochet::testing;

namespace {

constexpr double kPi = std::numbers::pi;
const char* const kIds[3] = {"pendulum-cylinder", "disk-wall", "disk-table"};

Scenario scenarioWith(const char* id, std::vector<std::pair<std::string, double>> set) {
  const SystemDescription* s = findSystem(id);
  Scenario sc = defaultScenario(*s);
  for (const auto& [name, value] : set) {
    bool found = false;
    for (std::size_t i = 0; i < s->info().parameters.size(); ++i) {
      if (s->info().parameters[i].name == name) sc.parameters[i] = value, found = true;
    }
    for (std::size_t i = 0; i < s->info().initial.size(); ++i) {
      if (s->info().initial[i].name == name) sc.initial[i] = value, found = true;
    }
    if (!found) qFatal("unknown name %s", name.c_str());
  }
  return sc;
}

int column(const Simulation& sim, const char* name) {
  const auto cols = sim.columns();
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (cols[i] == name) return int(i);
  }
  return -1;
}

}  // namespace

class TestNonholonomicSystems : public QObject {
  Q_OBJECT
 private slots:
  void registryEntriesFollowTheConventions() {
    for (const char* id : kIds) {
      const SystemDescription* s = findSystem(id);
      QVERIFY2(s, id);
      const SystemInfo& info = s->info();
      std::set<std::string> names;
      for (const auto& p : info.parameters) {
        QVERIFY2(names.insert(p.name).second, p.name.c_str());
        QVERIFY(!p.help.empty());
      }
      for (const auto& p : info.initial) {
        QVERIFY2(names.insert(p.name).second, p.name.c_str());
        QVERIFY2(p.name.back() == '0', p.name.c_str());  // initial conditions end in 0
        QVERIFY(!p.help.empty() && !p.unit.empty());
      }
      QCOMPARE(info.integrators.front().name, std::string("variational"));
      QCOMPARE(int(info.constraints.size()), 2);
    }
    QCOMPARE(findSystem("pendulum-cylinder")->info().integrators.size(), std::size_t(2));
    QCOMPARE(findSystem("pendulum-cylinder")->info().integrators[1].name, std::string("variational-midpoint"));
    for (const char* id : {"disk-wall", "disk-table"}) {
      const auto& in = findSystem(id)->info().integrators;
      QCOMPARE(int(in.size()), 3);
      QCOMPARE(in[1].name, std::string("reduced"));
      QCOMPARE(in[2].name, std::string("dla-002"));
    }
    QCOMPARE(findSystem("disk-wall")->info().constraints[0], std::string("wall-front"));
    QCOMPARE(findSystem("disk-table")->info().constraints[1], std::string("rim-"));
  }

  void traceColumnsAreOrdered() {
    // q.* first, then p.*, mom.*, e.discrete, con.* with con.gap last (no std::regex: GCC 12's
    // <regex> trips -Wmaybe-uninitialized in sanitizer builds).
    const char* const groups[5] = {"q.", "p.", "mom.", "e.", "con."};
    for (const char* id : kIds) {
      for (const auto& integ : findSystem(id)->info().integrators) {
        Scenario sc = defaultScenario(*findSystem(id));
        sc.integrator.name = integ.name;
        CreateResult cr = createSimulation(sc);
        QVERIFY(cr.simulation);
        const auto cols = cr.simulation->columns();
        int group = 0, seen[5] = {};
        for (const std::string& c : cols) {
          int g = -1;
          for (int i = 0; i < 5; ++i) {
            if (c.rfind(groups[i], 0) == 0 && c.size() > std::strlen(groups[i])) g = i;
          }
          QVERIFY2(g >= group, (std::string(id) + ": column out of order: " + c).c_str());
          group = g;
          ++seen[g];
        }
        for (int i = 0; i < 5; ++i) QVERIFY2(seen[i] > 0, id);
        QCOMPARE(seen[3], 1);
        QCOMPARE(std::string(cols[cols.size() - 1 - seen[4]]), std::string("e.discrete"));
        QCOMPARE(std::string(cols.back()), std::string("con.gap"));
      }
    }
  }

  void inadmissibleStartsAreRejectedNamingGapAndValue() {
    struct Case {
      const char* id;
      std::vector<std::pair<std::string, double>> set;
      const char* gap;
      const char* value;
    };
    const std::vector<Case> cases = {
        {"disk-wall", {{"y0", 9.5}, {"phi0", kPi / 2}}, "'wall-front'", "= -0.5"},
        {"disk-wall", {{"y0", 9.5}, {"phi0", -kPi / 2}}, "'wall-back'", "= -0.5"},
        {"disk-table", {{"x0", 4.5}}, "'rim+'", "= -5.25"},
        {"disk-table", {{"a", 0.5}}, "'rim+'", "< 0"},
        {"pendulum-cylinder", {{"R", 1.0}}, "'cylinder+'", "< 0"},
    };
    for (const Case& c : cases) {
      const CreateResult cr = createSimulation(scenarioWith(c.id, c.set));
      QVERIFY(!cr.simulation);
      const QString e = QString::fromStdString(cr.error);
      QVERIFY2(e.contains("outside the admissible set") && e.contains(c.gap) && e.contains(c.value),
               qPrintable(e));
    }
    // Out-of-range parameters are caught by the generic checks with the value named.
    Scenario bad = defaultScenario(*findSystem("disk-table"));
    bad.parameters[0] = -1.0;  // m
    QVERIFY(QString::fromStdString(createSimulation(bad).error).contains("'m' = -1"));
    bad = defaultScenario(*findSystem("disk-wall"));
    bad.initial[4] = std::nan("");
    QVERIFY(QString::fromStdString(createSimulation(bad).error).contains("'u0' = nan"));
    // Touching the boundary is admissible.
    QVERIFY(createSimulation(scenarioWith("disk-wall", {{"y0", 9.0}, {"phi0", kPi / 2}, {"u0", -1.0}})).simulation);
  }

  // Every integrator of every system over its default run: admissible nodes, discrete
  // constraints at round-off, finite samples, impact records on the obstacles with equal
  // energies and positive impulses.
  void defaultRunsStayAdmissibleWithConsistentImpactRecords() {
    for (const char* id : kIds) {
      for (const auto& integ : findSystem(id)->info().integrators) {
        Scenario sc = defaultScenario(*findSystem(id));
        sc.integrator.name = integ.name;
        CreateResult cr = createSimulation(sc);
        QVERIFY(cr.simulation);
        Simulation& sim = *cr.simulation;
        const std::string what = std::string(id) + "/" + integ.name;
        std::vector<double> row(sim.columns().size());
        std::vector<int> cons;
        for (std::size_t i = 0; i < sim.columns().size(); ++i) {
          if (sim.columns()[i].rfind("con.", 0) == 0 && sim.columns()[i] != "con.gap") cons.push_back(int(i));
        }
        ImpactLog rec;
        double maxCon = 0.0, minGap = 1e300;
        const std::int64_t N = std::llround(sc.tEnd / sc.integrator.h);
        for (std::int64_t k = 0; k < N; ++k) {
          const AdvanceResult ar = sim.advance(1, &rec);
          QVERIFY2(ar.ok(), (what + ": " + ar.message).c_str());
          sim.sample(row);
          for (double v : row) QVERIFY(std::isfinite(v));
          for (int i : cons) maxCon = std::max(maxCon, std::fabs(row[i]));
          minGap = std::min(minGap, sim.minGap());
          QCOMPARE(row[column(sim, "con.gap")], sim.minGap());
        }
        QVERIFY2(minGap >= -1e-12, what.c_str());
        QVERIFY2(maxCon <= (integ.name == "dla-002" ? 1e-8 : 1e-12), (what + ": " + std::to_string(maxCon)).c_str());
        QVERIFY(!rec.impacts.empty());
        QCOMPARE(sim.impactCount(), std::int64_t(rec.impacts.size()));
        const auto& params = sc.parameters;
        for (const ImpactRecord& r : rec.impacts) {
          QVERIFY(r.alpha >= 0.0 && r.alpha <= 1.0 && r.impulse > 0.0);
          QVERIFY(r.constraint == 0 || r.constraint == 1);
          QVERIFY(std::fabs(r.energyAfter - r.energyBefore) <= 1e-3 * std::fabs(r.energyBefore));
          const Eigen::Vector3d& c = r.contactPoint;
          if (std::strcmp(id, "pendulum-cylinder") == 0) {
            QVERIFY(std::fabs(std::hypot(c.x(), c.y()) - params[3]) <= 1e-9);  // on the cylinder
          } else if (std::strcmp(id, "disk-wall") == 0) {
            QVERIFY(std::fabs(c.y() - params[4]) <= 1e-9);  // on the wall
          } else {
            QVERIFY(std::fabs(std::hypot(c.x(), c.y()) - params[4]) <= 1e-9);  // on the rim
          }
        }
        qInfo("%s: %zu impacts, min gap %.2e, max |omega_d| %.1e", what.c_str(), rec.impacts.size(), minGap, maxCon);
      }
    }
  }

  void scenesAndPoses() {
    {
      const SystemDescription& s = *findSystem("disk-wall");
      const Scenario sc = defaultScenario(s);
      const SceneSpec scene = s.scene(sc.parameters);
      QCOMPARE(int(scene.bodies.size()), 1);
      QVERIFY(scene.bodies[0].parts[0].showAxes);
      QVERIFY(std::holds_alternative<CylinderShape>(scene.bodies[0].parts[0].shape));
      QCOMPARE(int(scene.obstacles.size()), 2);
      const auto& wall = std::get<PlaneObstacle>(scene.obstacles[1]);
      QVERIFY(std::fabs(wall.point.y() - 10.0) < 1e-15 && wall.normal.isApprox(-Eigen::Vector3d::UnitY()));
    }
    {
      const SystemDescription& s = *findSystem("disk-table");
      const SceneSpec scene = s.scene(defaultScenario(s).parameters);
      QVERIFY(std::holds_alternative<DiscObstacle>(scene.obstacles[1]));
      QCOMPARE(std::get<DiscObstacle>(scene.obstacles[1]).radius, 5.0);
      QVERIFY(std::get<CylinderObstacle>(scene.obstacles[2]).inside);
    }
    // Disk pose: centre at (x, y, R); axle (body z) horizontal, perpendicular to the heading;
    // rolling turns body x about the axle by theta.
    for (const char* id : {"disk-wall", "disk-table"}) {
      CreateResult cr = createSimulation(defaultScenario(*findSystem(id)));
      Simulation& sim = *cr.simulation;
      std::vector<Pose> pose(1);
      std::vector<double> row(sim.columns().size());
      for (int k = 0; k < 40; ++k) {
        QVERIFY(sim.advance(13, nullptr).ok());
        sim.poses(pose);
        sim.sample(row);
        const double x = row[0], y = row[1], th = row[2], ph = row[3];
        QVERIFY((pose[0].position - Eigen::Vector3d(x, y, 1.0)).norm() < 1e-12);
        QVERIFY((pose[0].rotation.col(2) - Eigen::Vector3d(-std::sin(ph), std::cos(ph), 0)).norm() < 1e-12);
        const Eigen::Vector3d bx = pose[0].rotation.col(0);
        const Eigen::Vector3d expect = std::cos(th) * Eigen::Vector3d::UnitZ() +
                                       std::sin(th) * Eigen::Vector3d(std::cos(ph), std::sin(ph), 0.0);
        QVERIFY((bx - expect).norm() < 1e-12);
        QVERIFY(std::fabs(pose[0].rotation.determinant() - 1.0) < 1e-12);
      }
    }
  }

  // The same scenario run twice gives a bitwise identical trace.
  void runsAreDeterministic() {
    for (const char* id : kIds) {
      for (const auto& integ : findSystem(id)->info().integrators) {
        Scenario sc = defaultScenario(*findSystem(id));
        sc.integrator.name = integ.name;
        std::vector<double> a, b;
        for (auto* out : {&a, &b}) {
          CreateResult cr = createSimulation(sc);
          std::vector<double> row(cr.simulation->columns().size());
          for (int k = 0; k < 20; ++k) {
            QVERIFY(cr.simulation->advance(97, nullptr).ok());
            cr.simulation->sample(row);
            out->insert(out->end(), row.begin(), row.end());
          }
        }
        QVERIFY2(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0, id);
      }
    }
  }

  // A step far too long for the dynamics ends with a one-line failure naming the step and time
  // (never a hang, never silent garbage); the state stays at the last good step.
  void absurdStepsFailCleanly() {
    Scenario sc = defaultScenario(*findSystem("pendulum-cylinder"));
    sc.integrator.h = 0.5;
    CreateResult cr = createSimulation(sc);
    QVERIFY(cr.simulation);
    const AdvanceResult ar = cr.simulation->advance(1000, nullptr);
    QVERIFY(!ar.ok());
    QCOMPARE(ar.status, RunStatus::SolverFailed);
    const QString msg = QString::fromStdString(failureText(*cr.simulation, ar));
    QVERIFY2(msg.startsWith(QStringLiteral("integrator failed at step %1 (t = ").arg(ar.stepsTaken + 1)),
             qPrintable(msg));
    QCOMPARE(cr.simulation->step(), ar.stepsTaken);
    std::vector<double> row(cr.simulation->columns().size());
    cr.simulation->sample(row);
    for (double v : row) QVERIFY(std::isfinite(v));
    QVERIFY(cr.simulation->minGap() >= -1e-12);
  }
};

QTEST_APPLESS_MAIN(TestNonholonomicSystems)
#include "test_nonholonomic_systems.moc"
