// Restitution and settling on the nonholonomic systems (docs/restitution.md): Newton's law with
// the jump projected on the velocity constraints (spec R2) for the pendulum and the rolling disks,
// the pendulum that settles against the cylinder, a disk held on the rim, the elastic-only
// integrator's refusal, and a campaign of random runs.

#include "core/io/trace.hpp"
#include "core/nonholonomic/pendulum_cylinder.hpp"
#include "core/nonholonomic/rolling_disk.hpp"
#include "test_restitution_support.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

using namespace ricochet;
using namespace ricochet::testing;
using namespace ricochet::nonholonomic;

namespace {

NewtonCheck check(const std::string& system, const std::string& integrator, double e,
                  const std::map<std::string, double>& set, double tEnd) {
  std::map<std::string, double> values = set;
  values["restitution"] = e;
  const Scenario sc = scenarioWith(system, integrator, values, tEnd);
  CreateResult cr = createSimulation(sc);
  if (!cr.simulation) throw std::runtime_error(cr.error);
  const std::int64_t steps = io::stepCount(sc.tEnd, sc.integrator.h);
  Simulation& sim = *cr.simulation;
  if (system == "pendulum-cylinder")
    return checkNewtonImpacts<LdapVci<PendulumCylinderModel>>(sim, e, steps);
  if (system == "disk-wall") {
    if (integrator == "reduced")
      return checkNewtonImpacts<ReducedDiskVci<DiskWallModel>>(sim, e, steps);
    return checkNewtonImpacts<LdapVci<DiskWallModel>>(sim, e, steps);
  }
  if (integrator == "reduced")
    return checkNewtonImpacts<ReducedDiskVci<DiskTableModel>>(sim, e, steps);
  return checkNewtonImpacts<LdapVci<DiskTableModel>>(sim, e, steps);
}

}  // namespace

class TestNonholonomicRestitution : public QObject {
  Q_OBJECT
 private slots:
  // Spec R2 with e = 0.5: per impact the energy 1/2 z^T G z + V drops by (1/2) m_eff (1 - e^2)
  // u-^2 with 1/m_eff = n^T W n, W = X G^-1 X^T; u+ = -e u-; the jump is along W n (the momentum
  // paired with the allowed velocities tangent to the boundary is unchanged) and the velocity
  // constraints hold after it.
  void r2_newtonPerImpact() {
    struct Case {
      const char* system;
      const char* integrator;
      std::map<std::string, double> set;
      double tEnd;
      bool settles;
    };
    const std::map<std::string, double> up = {{"theta0", 0.5}, {"thetadot0", 1.0}};
    const Case cases[] = {
        {"pendulum-cylinder", "variational", {}, 20.0, false},
        {"pendulum-cylinder", "variational-midpoint", {}, 20.0, false},
        {"pendulum-cylinder", "variational", up, 10.0, true},
        {"pendulum-cylinder", "variational-midpoint", up, 10.0, true},
        {"disk-wall", "variational", {}, 300.0, false},
        {"disk-wall", "reduced", {}, 300.0, false},
        {"disk-table", "variational", {}, 300.0, false},
        {"disk-table", "reduced", {}, 300.0, false},
    };
    for (const Case& c : cases) {
      const NewtonCheck r = check(c.system, c.integrator, 0.5, c.set, c.tEnd);
      const std::string id =
          std::string(c.system) + "/" + c.integrator + (c.settles ? " (up)" : "");
      qInfo(
          "R2 %s: %d impacts, energy %.1e, ratio %.1e, tangent %.1e, constraints %.1e; %d "
          "settling",
          id.c_str(), r.impacts, r.energy, r.ratio, r.tangent, r.constraint, r.settled);
      QCOMPARE(int(r.status), int(RunStatus::Ok));
      QVERIFY2(r.impacts >= 5, id.c_str());
      QVERIFY2(r.energy <= 1e-12, id.c_str());
      QVERIFY2(r.ratio <= 1e-12, id.c_str());
      QVERIFY2(r.tangent <= 1e-12, id.c_str());
      QVERIFY2(r.constraint <= 1e-14, id.c_str());
      QCOMPARE(r.settled >= 1, c.settles);
    }
  }

  // The pendulum above the pivot leans on the cylinder (gravity pushes it outward): its bounces
  // accumulate and it settles at rest against the wall, l sin theta = R, where it stays with
  // its energy constant; the run reports when.
  void pendulumSettlesAgainstTheCylinder() {
    for (const char* integ : {"variational", "variational-midpoint"}) {
      const Scenario sc =
          scenarioWith("pendulum-cylinder", integ,
                       {{"theta0", 0.5}, {"thetadot0", 1.0}, {"restitution", 0.6}}, 30.0);
      CreateResult cr = createSimulation(sc);
      QVERIFY2(cr.simulation, cr.error.c_str());
      Simulation& sim = *cr.simulation;
      QVERIFY(sim.advance(10000, nullptr).ok());  // 10 s
      const double settled = sim.settledTime();
      QVERIFY(!std::isnan(settled));
      const double e10 = sim.energy().total();
      double lo = e10, hi = e10;
      for (int k = 0; k < 20000; ++k) {
        QVERIFY(sim.advance(1, nullptr).ok());
        lo = std::min(lo, sim.energy().total());
        hi = std::max(hi, sim.energy().total());
      }
      QCOMPARE(sim.settledTime(), settled);
      std::vector<double> row(sim.columns().size());
      sim.sample(row);
      const double theta = row[columnIndex(sim, "q.theta")];
      const double restHeight = 9.8 * std::sqrt(4.0 - 1.5 * 1.5);  // m g l cos(theta), l sin = R
      qInfo("pendulum %s: settled at %.4f s, theta = %.12f, energy band %.1e J over 20 s", integ,
            settled, theta, hi - lo);
      QVERIFY(std::fabs(2.0 * std::sin(theta) - 1.5) <= 1e-12);
      QVERIFY(std::fabs(sim.energy().total() - restHeight) <= 1e-10);
      QVERIFY((hi - lo) <= 1e-12 * std::fabs(hi));
      // What the impacts took is what the energy lost, up to the scheme's O(h) error.
      const double e0 = createSimulation(sc).simulation->energy().total();
      QVERIFY(std::fabs(sim.energy().total() + sim.dissipatedEnergy() - e0) <= 1e-2 * e0);
      QCOMPARE(row[columnIndex(sim, "e.dissipated")], sim.dissipatedEnergy());
    }
  }

  // P002's scheme as printed is elastic: restitution < 1 is refused with one line.
  void dla002IsElasticOnly() {
    for (const char* system : {"disk-wall", "disk-table"}) {
      const CreateResult cr =
          createSimulation(scenarioWith(system, "dla-002", {{"restitution", 0.8}}, 10.0));
      QVERIFY(!cr.simulation);
      QCOMPARE(cr.error, std::string("parameter 'restitution' = 0.8 is not available with "
                                     "integrator 'dla-002' (P002's elastic equations as printed): "
                                     "use 'variational' or 'reduced'"));
    }
  }

  // A rolling disk cannot rest against its wall or rim: along the only velocities that keep its
  // footprint end on the boundary (nu . z = 0) the heading turns and swings that end away, so
  // the contact would have to pull. Put there as held, it is released at once and rolls away,
  // with the reduced scheme's energy unchanged to round-off.
  void diskAgainstTheBoundaryLiftsOff() {
    auto run = [](auto model, const Eigen::Vector4d& q0) {
      using Model = decltype(model);
      LdapOptions o;
      o.restitution = 0.5;
      const ReducedDiskVci<Model> vci(model, 0.01, o);
      QVERIFY(std::fabs(model.gap(0, q0)) <= 1e-12);
      const Eigen::Vector2d nu = vci.nu(0, q0);
      const Eigen::Vector2d z = 1.5 * Eigen::Vector2d(-nu[1], nu[0]).normalized();
      typename ReducedDiskVci<Model>::Segment seg;
      QVERIFY(vci.solveHeld(0.01, {q0, z}, 1u, seg));
      QVERIFY(seg.force[0] < 0.0);  // it would pull
      auto state = vci.initialState(q0, z[0], z[1]);
      state.held = 1u;
      typename ReducedDiskVci<Model>::Report report;
      const double e0 = vci.energy(state);
      QCOMPARE(int(vci.step(state, report)), int(RunStatus::Ok));
      QCOMPARE(state.held, 0u);
      for (int k = 0; k < 100; ++k) QCOMPARE(int(vci.step(state, report)), int(RunStatus::Ok));
      QVERIFY(model.gap(0, state.q) > 1e-3);
      QVERIFY(std::fabs(vci.energy(state) - e0) <= 1e-14 * e0);
    };
    DiskWallModel wall;
    for (double phi : {0.2, 1.0, 2.5}) {
      run(wall, Eigen::Vector4d(0.0, wall.yw - wall.R * std::sin(phi), 0.0, phi));
    }
    // On the table: the front end on the rim at polar angle 0.4, heading 0.3 rad outward of the
    // rim's tangent (the back end then lies on the table).
    DiskTableModel table;
    const double psi = 0.4, beta = 0.3;
    const Eigen::Vector2d P = table.a * Eigen::Vector2d(std::cos(psi), std::sin(psi));
    const Eigen::Vector2d dir = std::cos(beta) * Eigen::Vector2d(-std::sin(psi), std::cos(psi)) +
                                std::sin(beta) * Eigen::Vector2d(std::cos(psi), std::sin(psi));
    run(table, Eigen::Vector4d(P[0] - table.R * dir[0], P[1] - table.R * dir[1], 0.0,
                               std::atan2(dir[1], dir[0])));
  }

  // Random runs of every nonholonomic system and integrator that takes restitution, e in
  // [0.3, 0.95]: all end ok (bench/ has the longer campaign).
  void randomCampaign() {
    std::mt19937_64 rng(20261202);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int runs = 0, settled = 0, impacts = 0;
    for (int seed = 0; seed < 6; ++seed) {
      const double e = 0.3 + 0.65 * unit(rng);
      // Pendulum: theta0 on either side of the cylinder (|sin theta0| <= R / l = 0.75).
      const bool upper = unit(rng) < 0.5;
      const double theta0 = upper ? 0.8 * unit(rng) : std::numbers::pi - 0.8 * unit(rng);
      for (const char* integ : {"variational", "variational-midpoint"}) {
        const Scenario sc = scenarioWith(
            "pendulum-cylinder", integ,
            {{"restitution", e}, {"theta0", theta0}, {"thetadot0", -3.0 + 6.0 * unit(rng)}}, 40.0);
        CreateResult cr = createSimulation(sc);
        QVERIFY2(cr.simulation, cr.error.c_str());
        const io::RunSummary s = io::runSimulation(*cr.simulation, sc, io::RunOptions{});
        QVERIFY2(s.ok(), (std::string(integ) + ": " + s.message).c_str());
        settled += !std::isnan(s.settledTime);
        impacts += static_cast<int>(s.impacts);
        ++runs;
      }
      for (const char* system : {"disk-wall", "disk-table"}) {
        std::map<std::string, double> set = {{"restitution", e},
                                             {"x0", -2.0 + 4.0 * unit(rng)},
                                             {"y0", -2.0 + 4.0 * unit(rng)},
                                             {"phi0", 6.0 * unit(rng)},
                                             {"u0", -3.0 + 6.0 * unit(rng)},
                                             {"w0", -0.5 + unit(rng)}};
        for (const char* integ : {"variational", "reduced"}) {
          const Scenario sc = scenarioWith(system, integ, set, 1000.0);
          CreateResult cr = createSimulation(sc);
          QVERIFY2(cr.simulation, cr.error.c_str());
          const io::RunSummary s = io::runSimulation(*cr.simulation, sc, io::RunOptions{});
          QVERIFY2(s.ok(), (std::string(system) + "/" + integ + ": " + s.message).c_str());
          settled += !std::isnan(s.settledTime);
          impacts += static_cast<int>(s.impacts);
          ++runs;
        }
      }
    }
    qInfo("campaign: %d runs, %d impacts, all ok, %d settled at the end", runs, impacts, settled);
  }
};

QTEST_APPLESS_MAIN(TestNonholonomicRestitution)
#include "test_nonholonomic_restitution.moc"
