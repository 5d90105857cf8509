// Rolling disk against a wall (P001 §6) and inside a circular table (P002 §5): the acceptance
// rows U7, E1-E3, F1-F3 of docs/acceptance.md, and the comparison of the three disk integrators
// ("variational" = LDAP VCI with the midpoint constraint, "reduced" = Chaplygin VCI, "dla-002" =
// P002's scheme as printed) on the same runs, against an event-driven exact reference
// (test_nonholonomic_reference.hpp).

#include "core/model/registry.hpp"
#include "core/nonholonomic/dla002.hpp"
#include "core/nonholonomic/engine_simulation.hpp"
#include "core/nonholonomic/rolling_disk.hpp"
#include "test_nonholonomic_reference.hpp"
#include "test_support.hpp"

#include "core/impact/stepper_simulation.hpp"
#include "test_nonholonomic_driver.hpp"

#include <QtTest>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace ricochet;
using namespace ricochet::nonholonomic;
using namespace ricochet::testing;

namespace {

constexpr double kPi = std::numbers::pi;
const char* const kIntegrators[3] = {"variational", "reduced", "dla-002"};

/// Statistics of one run through the registry (what the CLI and the GUI run).
struct Run {
  std::vector<ImpactRecord> impacts;
  std::vector<double> last;  ///< sample() at the end
  std::vector<std::string> columns;
  double e0 = 0.0;             ///< energy() at step 0
  double maxNodeError = 0.0;   ///< max |energy() - E0c| over the nodes (E0c: continuous E0)
  double maxSegmentError = 0.0;  ///< max |e.discrete - E0c|
  double maxConstraint = 0.0;  ///< max |con.x|, |con.y|
  double minGap = 1e300;
  bool ok = true;
  std::string message;
  double col(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i] == name) return last[i];
    }
    return std::nan("");
  }
};

Scenario diskScenario(const char* id, const char* integrator, double h, double tEnd,
                      std::vector<std::pair<std::string, double>> set = {}) {
  const SystemDescription* s = findSystem(id);
  Scenario sc = defaultScenario(*s);
  sc.integrator.name = integrator;
  sc.integrator.h = h;
  sc.tEnd = tEnd;
  for (const auto& [name, value] : set) {
    const auto& info = s->info();
    bool found = false;
    for (std::size_t i = 0; i < info.parameters.size(); ++i) {
      if (info.parameters[i].name == name) {
        sc.parameters[i] = value;
        found = true;
      }
    }
    for (std::size_t i = 0; i < info.initial.size(); ++i) {
      if (info.initial[i].name == name) {
        sc.initial[i] = value;
        found = true;
      }
    }
    if (!found) qFatal("unknown name %s", name.c_str());
  }
  return sc;
}

double continuousEnergy(const Scenario& sc) {
  // Parameters m, R, I, J; initial u0, w0: E = 1/2 ((m R^2 + I) u^2 + J w^2).
  const double m = sc.parameters[0], R = sc.parameters[1], I = sc.parameters[2],
               J = sc.parameters[3];
  const double u = sc.initial[4], w = sc.initial[5];
  return 0.5 * ((m * R * R + I) * u * u + J * w * w);
}

Run run(const Scenario& sc) {
  Run r;
  CreateResult cr = createSimulation(sc);
  if (!cr.simulation) qFatal("%s", cr.error.c_str());
  Simulation& sim = *cr.simulation;
  r.columns.assign(sim.columns().begin(), sim.columns().end());
  std::vector<double> row(r.columns.size());
  int iEd = -1, iCx = -1, iCy = -1;
  for (std::size_t i = 0; i < r.columns.size(); ++i) {
    if (r.columns[i] == "e.discrete") iEd = int(i);
    if (r.columns[i] == "con.x") iCx = int(i);
    if (r.columns[i] == "con.y") iCy = int(i);
  }
  const double E0 = continuousEnergy(sc);
  r.e0 = sim.energy().total();
  ImpactLog rec;
  const std::int64_t N = std::llround(sc.tEnd / sc.integrator.h);
  for (std::int64_t k = 0; k < N; ++k) {
    const AdvanceResult ar = sim.advance(1, &rec);
    if (!ar.ok()) {
      r.ok = false;
      r.message = ar.message;
      break;
    }
    sim.sample(row);
    r.maxNodeError = std::max(r.maxNodeError, std::fabs(sim.energy().total() - E0));
    r.maxSegmentError = std::max(r.maxSegmentError, std::fabs(row[iEd] - E0));
    r.maxConstraint = std::max({r.maxConstraint, std::fabs(row[iCx]), std::fabs(row[iCy])});
    r.minGap = std::min(r.minGap, sim.minGap());
  }
  r.impacts = rec.impacts;
  r.last = row;
  return r;
}

template <class Model>
std::vector<nhref::DiskImpact> reference(const Model& model, const Scenario& sc, double T,
                                         nhref::DiskState& end) {
  nhref::DiskState s0;
  s0.q = Eigen::Vector4d(sc.initial[0], sc.initial[1], sc.initial[2], sc.initial[3]);
  s0.u = sc.initial[4];
  s0.w = sc.initial[5];
  return nhref::diskReference(model, s0, T, end);
}

DiskWallModel wallModel(double yw = 10.0) {
  DiskWallModel m;
  m.yw = yw;
  return m;
}
DiskTableModel tableModel(double a = 5.0) {
  DiskTableModel m;
  m.a = a;
  return m;
}

/// Least-squares slope of log(err) against log(h).
double slope(const std::vector<double>& h, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = double(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(err[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace

class TestNonholonomicDisk : public QObject {
  Q_OBJECT
 private slots:
  // U7: the reduced reflection (C2) equals P001's impact equations with multipliers
  // (docs/nonholonomic-vci.md, "Against a wall (P001)"), and phi = pi/2 gives P001's printed
  // closed form.
  void u7ReflectionMatchesP001Multipliers() {
    const DiskWallModel model = wallModel();
    const double m = model.m, R = model.R, I = model.I, A = model.A(), B = model.B();
    const Eigen::Matrix2d G = Eigen::Vector2d(A, B).asDiagonal();
    std::srand(7);
    for (int trial = 0; trial < 200; ++trial) {
      const double phi = 0.05 + 3.0 * std::rand() / double(RAND_MAX);  // sin phi != 0
      const double um = -3.0 + 6.0 * std::rand() / double(RAND_MAX);
      const double wm = -3.0 + 6.0 * std::rand() / double(RAND_MAX);
      const Eigen::Vector4d q(0.3, 10.0 - R * std::sin(phi), 1.0, phi);  // front edge on the wall
      const Eigen::Vector2d nu = model.distributionBasis(q).transpose() * model.gapGradient(0, q);
      Eigen::Vector2d zp;
      QVERIFY(reducedReflection(G, nu, Eigen::Vector2d(um, wm), zp));
      // P001 closed form: r = u s + w c, D = B s^2 + A c^2.
      const double s = std::sin(phi), c = std::cos(phi);
      const double r = um * s + wm * c, D = B * s * s + A * c * c;
      const double up = um - 2.0 * B * s * r / D, wp = wm - 2.0 * A * c * r / D;
      QVERIFY(std::fabs(zp[0] - up) <= 1e-12 * (1.0 + std::fabs(up)));
      QVERIFY(std::fabs(zp[1] - wp) <= 1e-12 * (1.0 + std::fabs(wp)));
      // P001 (9) with its multipliers: the four momentum jumps, v+ in Delta (by construction of
      // p = M X z), equal energies.
      const Eigen::Vector4d pm = model.momentum(q, um, wm), pp = model.momentum(q, up, wp);
      const double du = up - um;
      const double l1 = m * R * c * du, l2 = -(I + m * R * R * c * c) * du / (R * s);
      const double l0 = m * R * s * du - l2;
      const Eigen::Vector4d jump = pp - pm;
      const Eigen::Vector4d printed(l1, l0 + l2, -R * (l1 * c + l2 * s), l0 * R * c);
      QVERIFY2((jump - printed).norm() <= 1e-12 * (1.0 + pm.norm()),
               qPrintable(QString("phi %1: jump residual %2").arg(phi).arg((jump - printed).norm())));
      const double Em = 0.5 * (A * um * um + B * wm * wm), Ep = 0.5 * (A * up * up + B * wp * wp);
      QVERIFY(std::fabs(Ep - Em) <= 1e-12 * Em);
      // The normal rate reverses; A c u - B s w (momentum along T dQ ∩ Delta) is continuous.
      QVERIFY(std::fabs((up * s + wp * c) + r) <= 1e-12 * (1.0 + std::fabs(r)));
      QVERIFY(std::fabs((A * c * up - B * s * wp) - (A * c * um - B * s * wm)) <= 1e-12 * (1.0 + std::fabs(A * c * um)));
    }
    // Orthogonal hit: u+ = -u-, w+ = w-: p_x = 0, p_y+ = -p_y-, p_theta+ = -p_theta-, p_phi kept.
    const Eigen::Vector4d q(0.0, 9.0, 0.0, kPi / 2.0);
    const Eigen::Vector2d nu = model.distributionBasis(q).transpose() * model.gapGradient(0, q);
    Eigen::Vector2d zp;
    QVERIFY(reducedReflection(G, nu, Eigen::Vector2d(1.3, 0.4), zp));
    QVERIFY(std::fabs(zp[0] + 1.3) <= 1e-12 && std::fabs(zp[1] - 0.4) <= 1e-12);
    const Eigen::Vector4d pm = model.momentum(q, 1.3, 0.4), pp = model.momentum(q, zp[0], zp[1]);
    QVERIFY(std::fabs(pp[0]) <= 1e-12 && std::fabs(pp[1] + pm[1]) <= 1e-12);
    QVERIFY(std::fabs(pp[2] + pm[2]) <= 1e-12 && std::fabs(pp[3] - pm[3]) <= 1e-12);
  }

  // E1: orthogonal hit, q(0) = (0, 0, 0, pi/2), (u, w) = (1, 0), T = 20: one impact at t = 9,
  // then (u, w) = (-1, 0), p_x = 0, energy exact, q(20) = (0, -2, -2, pi/2). Tolerance 1e-9.
  void e1OrthogonalHit() {
    for (const char* integ : kIntegrators) {
      const Scenario sc = diskScenario("disk-wall", integ, 0.01, 20.0,
                                       {{"phi0", kPi / 2.0}, {"u0", 1.0}, {"w0", 0.0}});
      const Run r = run(sc);
      QVERIFY2(r.ok, r.message.c_str());
      QCOMPARE(int(r.impacts.size()), 1);
      QVERIFY2(std::fabs(r.impacts[0].t - 9.0) <= 1e-9,
               qPrintable(QString("%1: impact at %2").arg(integ).arg(r.impacts[0].t, 0, 'g', 17)));
      QVERIFY(std::fabs(r.col("mom.u") + 1.0) <= 1e-9 && std::fabs(r.col("mom.w")) <= 1e-9);
      QVERIFY(std::fabs(r.col("p.x")) <= 1e-9);
      QVERIFY(std::fabs(r.col("q.x")) <= 1e-9 && std::fabs(r.col("q.y") + 2.0) <= 1e-9);
      QVERIFY(std::fabs(r.col("q.theta") + 2.0) <= 1e-9 && std::fabs(r.col("q.phi") - kPi / 2) <= 1e-9);
      QVERIFY2(r.maxNodeError <= 1e-9 && r.maxSegmentError <= 1e-9,
               qPrintable(QString("%1: energy error %2").arg(integ).arg(r.maxNodeError)));
      std::printf("E1 %-12s impact t = %.15f, u+ = %.15f, max|E - E0| = %.2e\n", integ,
                  r.impacts[0].t, r.col("mom.u"), r.maxNodeError);
    }
  }

  // Impacts at the ends of a step: the E1 impact moved to within 1e-12 s of a node from either
  // side (alpha -> 1 and alpha -> 0): no 0/0, one impact at 9 -+ 1e-12, the same exact rebound
  // and energy.
  void impactsAtTheEndsOfAStep() {
    for (const char* integ : kIntegrators) {
      for (double shift : {-1e-12, -1e-14, 0.0, 1e-14, 1e-12}) {
        const Scenario sc = diskScenario("disk-wall", integ, 0.01, 10.0,
                                         {{"phi0", kPi / 2.0}, {"u0", 1.0}, {"w0", 0.0}, {"yw", 10.0 + shift}});
        const Run r = run(sc);
        QVERIFY2(r.ok, r.message.c_str());
        QCOMPARE(int(r.impacts.size()), 1);
        QVERIFY2(std::fabs(r.impacts[0].t - (9.0 + shift)) <= 1e-11,
                 qPrintable(QString("%1 shift %2: t = %3, alpha = %4").arg(integ).arg(shift)
                                .arg(r.impacts[0].t, 0, 'g', 17).arg(r.impacts[0].alpha, 0, 'g', 17)));
        QVERIFY(std::fabs(r.col("mom.u") + 1.0) <= 1e-9 && std::fabs(r.col("q.y") - (8.0 + 2 * shift)) <= 1e-9);
        QVERIFY(r.maxNodeError <= 1e-9 && r.minGap >= -1e-12);
      }
    }
  }

  // E2: oblique, q(0) = (0, 0, 0, pi/3), (u, w) = (2, 0.2), T = 100: 10 impacts (front/back
  // pairs), first four at 4.72333, 5.19651, 25.11514, 25.58832 (tol 1e-3); the first impact turns
  // (2, 0.2) into (0.26595, 4.85959).
  void e2ObliqueHit() {
    const Scenario base = diskScenario("disk-wall", "variational", 0.01, 100.0);
    nhref::DiskState end;
    const auto ref = reference(wallModel(), base, 100.0, end);
    QCOMPARE(int(ref.size()), 10);  // the exact reference itself reproduces E2's count
    const double accepted[4] = {4.72333, 5.19651, 25.11514, 25.58832};
    for (int i = 0; i < 4; ++i) QVERIFY(std::fabs(ref[i].t - accepted[i]) <= 1e-5);
    QVERIFY(std::fabs(ref[0].uPlus - 0.26595) <= 1e-5 && std::fabs(ref[0].wPlus - 4.85959) <= 1e-5);
    for (const char* integ : kIntegrators) {
      const Run r = run(diskScenario("disk-wall", integ, 0.01, 100.0));
      QVERIFY2(r.ok, r.message.c_str());
      QCOMPARE(int(r.impacts.size()), 10);
      for (int i = 0; i < 10; ++i) {
        QCOMPARE(r.impacts[i].constraint, i % 2);  // front, back, front, ...
        // E2 bounds the first four (1e-3); later ones carry the accumulated O(h^2) error.
        QVERIFY2(std::fabs(r.impacts[i].t - ref[i].t) <= (i < 4 ? 1e-3 : 1e-2),
                 qPrintable(QString("%1 impact %2: %3 vs exact %4").arg(integ).arg(i)
                                .arg(r.impacts[i].t, 0, 'g', 10).arg(ref[i].t, 0, 'g', 10)));
      }
      std::printf("E2 %-12s impacts %zu, first four %.6f %.6f %.6f %.6f (exact %.6f %.6f %.6f %.6f)\n",
                  integ, r.impacts.size(), r.impacts[0].t, r.impacts[1].t, r.impacts[2].t,
                  r.impacts[3].t, ref[0].t, ref[1].t, ref[2].t, ref[3].t);
    }
    // (u, w) right after the first impact (one step later, before the back-edge hit).
    const Scenario sc = diskScenario("disk-wall", "reduced", 0.01, 4.73);
    const Run r = run(sc);
    QVERIFY(std::fabs(r.col("mom.u") - 0.26595) <= 1e-3 && std::fabs(r.col("mom.w") - 4.85959) <= 1e-3);
  }

  // E3: disk vs wall, energy over the E2 run: LDAP VCI max|E - E0| <= 1e-4 ([proto] 2.8e-5),
  // reduced VCI <= 1e-12 ([proto] 1e-15); dla-002 measured beside them.
  void e3EnergyOfTheThreeIntegrators() {
    double err[3];
    for (int i = 0; i < 3; ++i) {
      const Run r = run(diskScenario("disk-wall", kIntegrators[i], 0.01, 100.0));
      QVERIFY2(r.ok, r.message.c_str());
      err[i] = std::max(r.maxNodeError, r.maxSegmentError);
      std::printf("E3 %-12s max|H - E0| = %.3e  max|E_d - E0| = %.3e\n", kIntegrators[i],
                  r.maxNodeError, r.maxSegmentError);
    }
    QVERIFY(err[0] <= 1e-4);
    QVERIFY(err[1] <= 1e-12);
    QVERIFY(err[2] <= 1e-4);
  }

  // F1: disk in the table, q(0) = 0, (u, w) = (2, 0.3), T = 100: 43 impacts, first four at
  // 2.05109, 2.59264, 6.69483, 7.23638 (tol 1e-3), alternating C+ / C-.
  void f1TableImpacts() {
    const Scenario base = diskScenario("disk-table", "variational", 0.01, 100.0);
    nhref::DiskState end;
    const auto ref = reference(tableModel(), base, 100.0, end);
    QCOMPARE(int(ref.size()), 43);
    const double accepted[4] = {2.05109, 2.59264, 6.69483, 7.23638};
    for (int i = 0; i < 4; ++i) QVERIFY(std::fabs(ref[i].t - accepted[i]) <= 1e-5);
    // [exact] q(100) = (-1.77089, 3.54732, 167.12260, 79.75265), (u, w) = (-0.78553, 4.51527).
    QVERIFY((end.q - Eigen::Vector4d(-1.77089, 3.54732, 167.12260, 79.75265)).norm() <= 2e-5);
    QVERIFY(std::fabs(end.u + 0.78553) <= 1e-5 && std::fabs(end.w - 4.51527) <= 1e-5);
    for (const char* integ : kIntegrators) {
      const Run r = run(diskScenario("disk-table", integ, 0.01, 100.0));
      QVERIFY2(r.ok, r.message.c_str());
      QCOMPARE(int(r.impacts.size()), 43);
      for (int i = 0; i < 4; ++i) {
        QCOMPARE(r.impacts[i].constraint, i % 2);
        QVERIFY2(std::fabs(r.impacts[i].t - accepted[i]) <= 1e-3,
                 qPrintable(QString("%1 impact %2 at %3").arg(integ).arg(i).arg(r.impacts[i].t)));
      }
      std::printf("F1 %-12s impacts %zu, first four %.6f %.6f %.6f %.6f, last %.4f (exact %.4f)\n",
                  integ, r.impacts.size(), r.impacts[0].t, r.impacts[1].t, r.impacts[2].t,
                  r.impacts[3].t, r.impacts.back().t, ref.back().t);
    }
  }

  // F2: 1000 s, h = 0.01: LDAP VCI max|E - E0| <= 5e-4 ([proto] 1.7e-4), reduced VCI round-off
  // (<= 1e-12). Also h = 0.02 / 0.005 for the LDAP VCI: bounded, no secular trend.
  void f2TableLongRun() {
    double err[3];
    for (int i = 0; i < 3; ++i) {
      const Run r = run(diskScenario("disk-table", kIntegrators[i], 0.01, 1000.0));
      QVERIFY2(r.ok, r.message.c_str());
      QCOMPARE(int(r.impacts.size()), 430);
      err[i] = std::max(r.maxNodeError, r.maxSegmentError);
      std::printf("F2 %-12s 1000 s: impacts %zu, max|H - E0| = %.3e, max|E_d - E0| = %.3e, "
                  "max|omega_d| = %.1e, min gap %.2e\n",
                  kIntegrators[i], r.impacts.size(), r.maxNodeError, r.maxSegmentError,
                  r.maxConstraint, r.minGap);
      QVERIFY(r.minGap >= -1e-12);
    }
    QVERIFY(err[0] <= 5e-4);
    QVERIFY(err[1] <= 1e-12);
    QVERIFY(err[2] <= 5e-4);
    // No secular trend: the error over [0, 1000] is not larger than a few times that over [0, 100].
    const Run shortRun = run(diskScenario("disk-table", "variational", 0.01, 100.0));
    QVERIFY(err[0] <= 3.0 * std::max(shortRun.maxNodeError, shortRun.maxSegmentError));
    for (double h : {0.02, 0.005}) {
      const Run r = run(diskScenario("disk-table", "variational", h, 1000.0));
      QVERIFY2(r.ok, r.message.c_str());
      std::printf("F2 variational h = %.3f: max|E_d - E0| = %.3e ([proto] %s)\n", h,
                  r.maxSegmentError, h > 0.01 ? "2.2e-3" : "1.1e-4");
      QVERIFY(r.maxSegmentError <= (h > 0.01 ? 5e-3 : 3e-4));
    }
  }

  // F3: q(10) error against the exact reference, h halving: LS slope >= 1.7 (LDAP VCI); the
  // reduced VCI too.
  void f3ConvergenceOrder() {
    const Scenario base = diskScenario("disk-table", "variational", 0.01, 10.0);
    nhref::DiskState end;
    reference(tableModel(), base, 10.0, end);
    for (const char* integ : {"variational", "reduced"}) {
      std::vector<double> hs, errs;
      for (double h : {0.04, 0.02, 0.01, 0.005, 0.0025}) {
        const Run r = run(diskScenario("disk-table", integ, h, 10.0));
        QVERIFY2(r.ok, r.message.c_str());
        const Eigen::Vector4d q(r.col("q.x"), r.col("q.y"), r.col("q.theta"), r.col("q.phi"));
        hs.push_back(h);
        errs.push_back((q - end.q).norm());
      }
      const double p = slope(hs, errs);
      std::printf("F3 %-12s errors %.3e %.3e %.3e %.3e %.3e, LS slope %.2f\n", integ, errs[0],
                  errs[1], errs[2], errs[3], errs[4], p);
      QVERIFY2(p >= 1.7, qPrintable(QString("%1: slope %2").arg(integ).arg(p)));
    }
  }

  // Near grazing (core/numerics/grazing.hpp): the disk rolls almost tangent to the rim, normal
  // speed ~3e-5 m/s beside 1.3 m/s along it, so the normal kinetic energy (~1e-9 J) is comparable
  // to the O(h^2) discrete energy defect. The energy-balanced root then doubled the rebound speed
  // (775 impacts in 100 s, the third at 2.044 s instead of 3.2712). With the reflection there the
  // LDAP VCI follows the exact sequence; the reduced VCI reflects by construction; P002's scheme
  // has no rebound root and says so.
  void grazingTableFollowsTheExactImpacts() {
    const std::vector<std::pair<std::string, double>> graze = {
        {"x0", 4.898146402194111}, {"phi0", 1.5707963267948966}, {"u0", 1.331712884789821},
        {"w0", 0.27130814913287205}};
    nhref::DiskState end;
    const auto ref = reference(tableModel(), diskScenario("disk-table", "variational", 0.01, 100.0, graze), 100.0, end);
    QCOMPARE(int(ref.size()), 85);
    QVERIFY(std::fabs(ref[2].t - 3.271212) <= 1e-6);
    for (const char* integ : {"variational", "reduced"}) {
      const Run r = run(diskScenario("disk-table", integ, 0.01, 100.0, graze));
      QVERIFY2(r.ok, r.message.c_str());
      int reflected = 0;
      double worst = 0.0;
      for (const ImpactRecord& im : r.impacts) reflected += im.reflected;
      // The impact times drift linearly (O(h^2) phase error): by the 70th impact (t = 81 s)
      // measured 2.7e-3 s (variational) and 5.8e-3 s (reduced); unguarded, the third was 1.2 s off.
      const std::size_t n = std::min<std::size_t>(70, r.impacts.size());
      for (std::size_t i = 0; i < n; ++i) {
        QCOMPARE(r.impacts[i].constraint, ref[i].gap);
        worst = std::max(worst, std::fabs(r.impacts[i].t - ref[i].t));
      }
      std::printf("grazing %-12s %zu impacts (exact 85), %d reflected, first 70 within %.2e s\n",
                  integ, r.impacts.size(), reflected, worst);
      QCOMPARE(n, std::size_t(70));
      QVERIFY2(worst <= 1e-2, qPrintable(QString("%1: %2 s").arg(integ).arg(worst)));
      QVERIFY(std::abs(int(r.impacts.size()) - 85) <= 2);
      // The LDAP VCI reflects at the grazing impacts only; the reduced VCI never flags (its jump
      // is the reflection itself).
      if (std::string(integ) == "variational") QVERIFY(reflected > 0);
      else QCOMPARE(reflected, 0);
    }
    const Run dla = run(diskScenario("disk-table", "dla-002", 0.01, 100.0, graze));
    QVERIFY(!dla.ok);
    QVERIFY2(dla.message.find("no rebound root") != std::string::npos, dla.message.c_str());
    QCOMPARE(int(dla.impacts.size()), 0);  // the first rim contact, at 0.912 s
  }

  // The three integrators on the same run: P002's scheme as printed (sum reading of its jump)
  // is the LDAP VCI in another form; the reduced VCI is the one that conserves energy.
  void threeIntegratorsOnTheSameRun() {
    const Run ldap = run(diskScenario("disk-table", "variational", 0.01, 100.0));
    const Run red = run(diskScenario("disk-table", "reduced", 0.01, 100.0));
    const Run dla = run(diskScenario("disk-table", "dla-002", 0.01, 100.0));
    QVERIFY(ldap.ok && red.ok && dla.ok);
    QCOMPARE(dla.impacts.size(), ldap.impacts.size());
    double dt = 0.0;
    for (std::size_t i = 0; i < ldap.impacts.size(); ++i) {
      dt = std::max(dt, std::fabs(dla.impacts[i].t - ldap.impacts[i].t));
    }
    double dq = 0.0;
    for (const char* c : {"q.x", "q.y", "q.theta", "q.phi"}) dq = std::max(dq, std::fabs(dla.col(c) - ldap.col(c)));
    std::printf("dla-002 vs variational over 100 s: max |impact time difference| %.2e s, "
                "|q(100) difference| %.2e; energy errors: variational %.2e, dla-002 %.2e, "
                "reduced %.2e; max|omega_d|: variational %.1e, dla-002 %.1e, reduced %.1e\n",
                dt, dq, ldap.maxSegmentError, dla.maxSegmentError, red.maxSegmentError,
                ldap.maxConstraint, dla.maxConstraint, red.maxConstraint);
    QVERIFY(dt <= 1e-8);
    QVERIFY(dq <= 1e-6);
    QVERIFY(std::fabs(dla.maxSegmentError - ldap.maxSegmentError) <= 1e-8);
    QVERIFY(red.maxSegmentError <= 1e-12 && ldap.maxSegmentError > 1e3 * red.maxSegmentError);
    // Constraint residuals: ~1e-14 for the momentum form; the position-only form of P002 recovers
    // velocities from differences of growing positions (theta ~ 170 rad here), so it is larger.
    QVERIFY(ldap.maxConstraint <= 1e-13 && red.maxConstraint <= 1e-12);
    QVERIFY(dla.maxConstraint <= 1e-8);
  }

  // Every impact of every integrator: the jump p+ - p- annihilates T dC ∩ Delta at q~ (P001 (9),
  // P002 (5), (I6')), the impact point is on the boundary, and (wall) A c u - B s w is continuous
  // for the reduced reflection.
  void jumpAnnihilatesTangentMomentum() {
    auto check = [](auto& engine, const auto& model, double T, const char* what) {
      const std::int64_t N = std::llround(T / engine.timeStep());
      int count = 0;
      for (std::int64_t k = 0; k < N; ++k) {
        QVERIFY(engine.step() == RunStatus::Ok);
        const auto& rep = engine.lastStep();
        for (int i = 0; i < rep.impactCount; ++i) {
          const auto& im = rep.impacts[i];
          ++count;
          QVERIFY(std::fabs(model.gap(im.gap, im.before.q)) <= 1e-12);
          const auto X = model.distributionBasis(im.before.q);
          const Eigen::Vector2d nu = X.transpose() * model.gapGradient(im.gap, im.before.q);
          const Eigen::Vector4d tangent = X * Eigen::Vector2d(nu[1], -nu[0]);  // in T dC ∩ Delta
          const double jump = (im.after.p - im.before.p).dot(tangent);
          QVERIFY2(std::fabs(jump) <= 1e-12 * (1.0 + im.before.p.norm()) * tangent.norm(),
                   qPrintable(QString("%1: tangential jump %2").arg(what).arg(jump)));
          QVERIFY(im.impulse > 0.0);
        }
      }
      QVERIFY(count > 0);
    };
    const DiskWallModel wm = wallModel();
    const DiskTableModel tm = tableModel();
    const double h = 0.01;
    LdapOptions opt;
    {
      nhtest::Driven<LdapVci<DiskWallModel>> e(wm, h, opt);
      const Eigen::Vector4d q0(0, 0, 0, kPi / 3);
      e.reset(q0, wm.initialMomentum(q0, 2.0, 0.2, h));
      check(e, wm, 100.0, "wall/variational");
      nhtest::Driven<ReducedDiskVci<DiskWallModel>> r(wm, h, opt);
      r.reset(q0, 2.0, 0.2);
      check(r, wm, 100.0, "wall/reduced");
      nhtest::Driven<Dla002<DiskWallModel>> d(wm, h, opt);
      d.reset(wm.previousNode(q0, 2.0, 0.2, h), q0, h);
      check(d, wm, 100.0, "wall/dla-002");
    }
    {
      const Eigen::Vector4d q0(0, 0, 0, 0);
      nhtest::Driven<LdapVci<DiskTableModel>> e(tm, h, opt);
      e.reset(q0, tm.initialMomentum(q0, 2.0, 0.3, h));
      check(e, tm, 100.0, "table/variational");
      nhtest::Driven<ReducedDiskVci<DiskTableModel>> r(tm, h, opt);
      r.reset(q0, 2.0, 0.3);
      check(r, tm, 100.0, "table/reduced");
      nhtest::Driven<Dla002<DiskTableModel>> d(tm, h, opt);
      d.reset(tm.previousNode(q0, 2.0, 0.3, h), q0, h);
      check(d, tm, 100.0, "table/dla-002");
    }
  }

  // Several impacts in one step (impulse and next contact time solved together, FMOW (78) with
  // Reg in place of the drift): a narrow table (a = 1.5, R = 1) and a fast straight roll
  // (u = 10, w = 0) give an impact every 0.1 s; with h = 0.35 each step holds 3-4 of them.
  // Straight rolling has no junction kicks, so energy is exact; impact times match the exact
  // reference. A cap of 2 impacts per step ends the run with RunStatus::Zeno.
  void severalImpactsPerStepAndZenoCap() {
    const DiskTableModel tm = tableModel(1.5);
    const double h = 0.35, T = 7.0;
    const Eigen::Vector4d q0(0.1, 0.0, 0.0, 0.0);
    nhref::DiskState s0{q0, 10.0, 0.0}, end;
    const auto ref = nhref::diskReference(tm, s0, T, end, 1e-4);
    QVERIFY(ref.size() >= 60);
    auto runEngine = [&](auto& e, const char* what) {
      std::vector<double> times;
      int maxPerStep = 0;
      const int N = int(std::lround(T / h));
      for (int k = 0; k < N; ++k) {
        QVERIFY2(e.step() == RunStatus::Ok, qPrintable(QString("%1: %2").arg(what).arg(e.lastStep().failure.what)));
        const auto& rep = e.lastStep();
        maxPerStep = std::max(maxPerStep, rep.impactCount);
        for (int i = 0; i < rep.impactCount; ++i) times.push_back(k * h + rep.impacts[i].s * h);
        QVERIFY(std::fabs(e.energy() - 0.5 * tm.A() * 100.0) <= 1e-10 * 50.0 * tm.A());
      }
      QCOMPARE(times.size(), ref.size());
      double dt = 0.0;
      for (std::size_t i = 0; i < times.size(); ++i) dt = std::max(dt, std::fabs(times[i] - ref[i].t));
      std::printf("%s: %zu impacts, up to %d per step, max |t - t_exact| = %.2e\n", what,
                  times.size(), maxPerStep, dt);
      QVERIFY(maxPerStep >= 3);
      QVERIFY(dt <= 1e-9);
      QVERIFY((e.q() - end.q).norm() <= 1e-8);
    };
    LdapOptions opt;
    nhtest::Driven<LdapVci<DiskTableModel>> ldap(tm, h, opt);
    ldap.reset(q0, tm.initialMomentum(q0, 10.0, 0.0, h));
    runEngine(ldap, "variational");
    nhtest::Driven<ReducedDiskVci<DiskTableModel>> red(tm, h, opt);
    red.reset(q0, 10.0, 0.0);
    runEngine(red, "reduced");
    nhtest::Driven<Dla002<DiskTableModel>> dla(tm, h, opt);
    dla.reset(tm.previousNode(q0, 10.0, 0.0, h), q0, h);
    runEngine(dla, "dla-002");

    LdapOptions capped;
    capped.maxImpactsPerStep = 2;
    nhtest::Driven<LdapVci<DiskTableModel>> zeno(tm, h, capped);
    zeno.reset(q0, tm.initialMomentum(q0, 10.0, 0.0, h));
    RunStatus st = RunStatus::Ok;
    for (int k = 0; k < 20 && st == RunStatus::Ok; ++k) st = zeno.step();
    QCOMPARE(st, RunStatus::Zeno);
    QVERIFY(QString(zeno.lastStep().failure.what).contains("too many impacts"));
    // Through the registry the failure is a one-line message naming the step and time.
    Scenario sc = diskScenario("disk-table", "variational", h, T, {{"a", 1.5}, {"x0", 0.1}, {"u0", 10.0}, {"w0", 0.0}});
    CreateResult cr = createSimulation(sc);
    QVERIFY(cr.simulation);
    const AdvanceResult ar = cr.simulation->advance(20, nullptr);
    QVERIFY2(ar.ok(), ar.message.c_str());  // default cap (32) is enough
  }

  void reducedPathCurvatureBoundsHold() {
    // The bounds of G'' that let the shared detector skip sub-sampling (and find dips between
    // samples) must hold: second differences along random reconstructed sub-steps never exceed
    // them, for both obstacles and both gaps, over turns up to 1.5 rad per step.
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    auto check = [&](const auto& model, const char* what) {
      using Engine = ReducedDiskVci<std::remove_cvref_t<decltype(model)>>;
      const Engine engine(model, 0.01);
      double worst = 0.0;  // max over samples of G''/bound
      for (int trial = 0; trial < 2000; ++trial) {
        const Eigen::Vector4d q0(3.0 * U(rng), 3.0 * U(rng), 10.0 * U(rng), 10.0 * U(rng));
        const Eigen::Vector2d z(20.0 * U(rng), 30.0 * U(rng));
        const double tau = 0.05 * (1.0 + U(rng));
        const typename Engine::Path path{&engine, q0, z, tau};
        const Eigen::Vector2d k = path.curvatureBounds();
        const double ds = 1e-3;
        for (int j = 0; j < 2; ++j) {
          for (double s = ds; s < 1.0; s += 0.01) {
            const double g2 = (path.gap(j, s + ds) - 2.0 * path.gap(j, s) + path.gap(j, s - ds)) /
                              (ds * ds);
            QVERIFY2(g2 <= k[j] * (1.0 + 1e-6) + 1e-6,
                     qPrintable(QString("%1 gap %2: G'' = %3 > bound %4").arg(what).arg(j).arg(g2).arg(k[j])));
            if (k[j] > 0.0) worst = std::max(worst, g2 / k[j]);
          }
        }
      }
      std::printf("%s: largest G''/bound %.3f\n", what, worst);
      QVERIFY(worst > 0.05);  // the bound is not vacuous
    };
    check(wallModel(), "wall");
    check(tableModel(), "table");
  }

  // nu = X^T n = 0 (the constraints cannot push across the boundary: no admissible impulse) is a
  // failure with a clear message, not a division by zero.
  void degenerateNormalIsReported() {
    const DiskTableModel tm = tableModel();
    LdapVci<DiskTableModel> e(tm, 0.01);
    const Eigen::Vector4d q(1.0, 0.5, 0.0, 0.7);
    const Eigen::Vector4d nj = tm.constraintMatrix(q).transpose() * Eigen::Vector2d(1.0, -2.0);  // in Delta°
    LdapVci<DiskTableModel>::Regular guess;
    const Eigen::Vector4d p = tm.momentum(q, 1.0, 0.2);
    const auto imp = e.solveImpulse(q, p, p, nj, 1.0, 0.005, guess);
    QVERIFY(!imp.ok);
    QVERIFY(QString(imp.failure).contains("tangent to the boundary, no admissible impulse"));
  }

  // Failure messages name what failed, the gap and the time of the failure inside the step, then
  // the numbers that explain it; failureText() adds the step and its time.
  void failureMessageNamesStepTimeAndGap() {
    impact::StepFailure f;
    f.what = "too many impacts in one step";
    f.gap = 1;
    f.s = 0.25;
    f.with("cap", 33).with("sub-step", 0.5, "s");
    const QString what =
        QString::fromStdString(impact::failureMessage(f, DiskTableModel::gapName(1), 1.0, 0.01));
    QCOMPARE(what, QStringLiteral("too many impacts in one step on gap 'rim-' at t = 1.0025 s (cap 33, sub-step 0.5 s)"));
    // Through the registry: P002's scheme at a nearly tangent contact, step 91 -> 92.
    CreateResult cr = createSimulation(diskScenario("disk-table", "dla-002", 0.01, 5.0,
                                                    {{"x0", 4.898146402194111}, {"phi0", 1.5707963267948966},
                                                     {"u0", 1.331712884789821}, {"w0", 0.27130814913287205}}));
    QVERIFY2(cr.simulation, cr.error.c_str());
    const AdvanceResult r = cr.simulation->advance(500, nullptr);
    QCOMPARE(r.stepsTaken, std::int64_t(91));
    const QString text = QString::fromStdString(failureText(*cr.simulation, r));
    QVERIFY2(text.startsWith("integrator failed at step 92 (t = 0.91 s): no rebound root") &&
                 text.contains("on gap 'rim+' at t = 0.9122273") && text.contains("(mu 3.07951"),
             qPrintable(text));
  }
};

QTEST_APPLESS_MAIN(TestNonholonomicDisk)
#include "test_nonholonomic_disk.moc"
