// The FMOW variational collision integrator against FMOW's own equations (spec §2, §7 U1-U4):
// Verlet = DEL (73), E_d = -D3 L_d, the impact equations (74)-(77) and (78) at the computed
// solution, the exact energy identity for linear potentials, every analytic derivative against
// central finite differences, the detection rule's curvature bounds, the impulse root selection
// and grazing fallback (P12), corners (§2.8) and the per-step impact cap (Zeno).

#include "core/planar/discrete_lagrangian.hpp"
#include "core/planar/fmow_integrator.hpp"
#include "core/planar/planar_simulation.hpp"
#include "finite_difference.hpp"
#include "test_planar_models.hpp"

#include <QtTest>

#include <cmath>
#include <random>

using namespace ricochet;
using namespace ricochet::planar;
using namespace ricochet::testing;
using namespace ricochet::planar::testing;

namespace {

std::mt19937 rng(20240611);
double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
template <class Vec>
Vec randomVec(double lo, double hi) {
  Vec v;
  for (int i = 0; i < v.size(); ++i) v[i] = uniform(lo, hi);
  return v;
}

constexpr double kG = 9.8;

/// Largest residuals of (74a), (74b), (75a), (76), (77) over the single-impact steps of a run
/// (FMOW's q-form equations evaluated on the nodes of our (q, p)-form run).
struct ImpactResiduals {
  double e74a = 0, e74b = 0, e75a = 0, e76 = 0, e77 = 0;
  int checked = 0;
};

template <class Model>
ImpactResiduals impactResiduals(const Model& model, const typename Model::Vec& q0,
                                const typename Model::Vec& v0, double h, long steps) {
  using Vec = typename Model::Vec;
  FmowIntegrator<Model> integ(model, h);
  const auto run = runSteps(integ, q0, model.massDiagonal.cwiseProduct(v0), steps);
  ImpactResiduals r;
  const Vec M = model.massDiagonal;
  for (std::size_t k = 1; k + 1 < run.impacts.size(); ++k) {
    // (74a) needs a full regular step before, (77) a regular step after.
    if (run.impacts[k].size() != 1 || !run.impacts[k - 1].empty() || !run.impacts[k + 1].empty()) continue;
    const auto& imp = run.impacts[k][0];
    const double a = imp.s;
    if (a < 0.05 || a > 0.95) continue;  // difference quotients over alpha h lose digits near 0 and 1
    const Vec& qm = run.q[k - 1];
    const Vec& qk = run.q[k];
    const Vec& q1 = run.q[k + 1];
    const Vec& q2 = run.q[k + 2];
    const Vec& qt = imp.before.q;
    const Vec wMinus = (qt - qk) / (a * h), wPlus = (q1 - qt) / ((1 - a) * h);
    const Vec n = model.gapGradient(imp.gap, qt);
    const Vec r74a = M.cwiseProduct(qt - qk) / (a * h) - M.cwiseProduct(qk - qm) / h +
                     (1 + a) * (h / 2) * model.potentialGradient(qk);
    const double r75a = 0.5 * wPlus.dot(M.cwiseProduct(wPlus)) - 0.5 * wMinus.dot(M.cwiseProduct(wMinus)) +
                        0.5 * (model.potential(q1) - model.potential(qk));
    const Vec r76 = M.cwiseProduct(wPlus) - M.cwiseProduct(wMinus) +
                    (h / 2) * model.potentialGradient(qt) - imp.impulse * n;  // lambda = -mu
    const Vec r77 = M.cwiseProduct(q2 - q1) / h - M.cwiseProduct(wPlus) +
                    (2 - a) * (h / 2) * model.potentialGradient(q1);
    r.e74a = std::max(r.e74a, r74a.norm());
    r.e74b = std::max(r.e74b, std::fabs(model.gap(imp.gap, qt)));
    r.e75a = std::max(r.e75a, std::fabs(r75a));
    r.e76 = std::max(r.e76, r76.norm());
    r.e77 = std::max(r.e77, r77.norm());
    ++r.checked;
  }
  return r;
}

/// Largest violation of the §2.7 identity over a run with a linear potential c:
/// smooth steps keep H; an impact step changes it by (h^2/8) c^T M^-1 c (s_last^2 - s_first^2).
template <class Model>
std::pair<double, double> energyIdentityErrors(const Model& model, const typename Model::Vec& q0,
                                               const typename Model::Vec& v0, double h, long steps,
                                               int* impactSteps = nullptr) {
  using Vec = typename Model::Vec;
  FmowIntegrator<Model> integ(model, h);
  const auto run = runSteps(integ, q0, model.massDiagonal.cwiseProduct(v0), steps);
  const Vec c = model.potentialGradient(q0);
  const double kappa = c.dot(c.cwiseQuotient(model.massDiagonal));
  double flight = 0, impact = 0;
  int count = 0;
  for (std::size_t k = 0; k < run.impacts.size(); ++k) {
    const double dH = integ.nodeEnergy(run.q[k + 1], run.p[k + 1]) - integ.nodeEnergy(run.q[k], run.p[k]);
    if (run.impacts[k].empty()) {
      flight = std::max(flight, std::fabs(dH));
    } else {
      const double sFirst = run.impacts[k].front().s, sLast = 1.0 - run.impacts[k].back().s;
      const double expected = h * h / 8.0 * kappa * (sLast * sLast - sFirst * sFirst);
      impact = std::max(impact, std::fabs(dH - expected));
      ++count;
    }
  }
  if (impactSteps) *impactSteps = count;
  return {flight, impact};
}

StarFloorModel<> defaultStar() {
  StarFloorModel<> m;
  m.potentialTerm = UniformGravity{1.0, kG};
  return m;
}

}  // namespace

class TestPlanarFmow : public QObject {
  Q_OBJECT
 private slots:
  // U1: velocity Verlet (V) reproduces the DEL (73), and its momenta are the discrete Legendre
  // transforms p_k = -D1 L_d(q_k, q_{k+1}, h), p_{k+1} = D2 L_d(q_k, q_{k+1}, h) (spec §2.2).
  void u1_verletEqualsDel73() {
    using Model = StarFloorModel<WavyPotential>;
    for (int trial = 0; trial < 200; ++trial) {
      Model model;
      model.massDiagonal = randomVec<Model::Vec>(0.5, 2.0);
      const double h = uniform(1e-3, 5e-2);
      FmowIntegrator<Model> integ(model, h);
      Model::Vec q = randomVec<Model::Vec>(-1, 1) + Model::Vec(0, 6, 0);  // floor far below
      Model::Vec p = randomVec<Model::Vec>(-2, 2);
      const Model::Vec q0 = q, p0 = p;
      auto state = integ.initialState(q, p);
      FmowIntegrator<Model>::Report report;
      QCOMPARE(integ.step(state, report), RunStatus::Ok);
      const Model::Vec q1 = state.q, p1 = state.p;
      QCOMPARE(integ.step(state, report), RunStatus::Ok);
      QCOMPARE(report.impactCount, 0);
      q = state.q;
      p = state.p;
      const Model::Vec& M = model.massDiagonal;
      const Model::Vec q2Del = 2 * q1 - q0 - h * h * model.potentialGradient(q1).cwiseQuotient(M);
      QVERIFY2((q - q2Del).norm() <= 1e-13 * q.norm(), qPrintable(QString::number((q - q2Del).norm())));
      // Legendre transforms: difference quotients carry ~eps |q| / h of round-off.
      const Model::Vec w = (q1 - q0) / h;
      const double tol = 8 * 2.2e-16 * (q0.norm() + q1.norm()) / h * M.maxCoeff() + 1e-13 * p0.norm();
      QVERIFY((p0 - (M.cwiseProduct(w) + h / 2 * model.potentialGradient(q0))).norm() <= tol);
      QVERIFY((p1 - (M.cwiseProduct(w) - h / 2 * model.potentialGradient(q1))).norm() <= tol);
    }
  }

  // U2: E_d = -D3 L_d for the rectangle, midpoint and trapezoid quadratures (spec §1.2), by
  // central finite differences in tau; and the integrator's momentum-form segment energy is (72).
  void u2_discreteEnergyIsMinusD3Ld() {
    struct VariableMass {  // L = 1/2 v^T M(q) v - V(q) with a configuration-dependent M
      WavyPotential V;
      double kinetic(const Eigen::Vector3d& q, const Eigen::Vector3d& v) const {
        const Eigen::Vector3d m(1.0 + q[0] * q[0], 2.0 + std::sin(q[1]), 1.5 + 0.5 * std::cos(q[2]));
        return 0.5 * v.dot(m.cwiseProduct(v));
      }
      double potential(const Eigen::Vector3d& q) const { return V.value(q); }
    };
    struct ConstantMass {
      WavyPotential V;
      Eigen::Vector3d m{1.0, 1.0, 0.3};
      double kinetic(const Eigen::Vector3d&, const Eigen::Vector3d& v) const {
        return 0.5 * v.dot(m.cwiseProduct(v));
      }
      double potential(const Eigen::Vector3d& q) const { return V.value(q); }
    };
    auto check = [](Quadrature quad, const auto& L) {
      double worst = 0;
      for (int trial = 0; trial < 100; ++trial) {
        const Eigen::Vector3d q0 = randomVec<Eigen::Vector3d>(-1, 1), q1 = randomVec<Eigen::Vector3d>(-1, 1);
        const double tau = uniform(0.05, 1.0), eps = 1e-5 * tau;
        const double d3 = (discreteLagrangian(quad, L, q0, q1, tau + eps) -
                           discreteLagrangian(quad, L, q0, q1, tau - eps)) / (2 * eps);
        const double ed = discreteEnergy(quad, L, q0, q1, tau);
        worst = std::max(worst, std::fabs(ed + d3) / std::max(1.0, std::fabs(ed)));
      }
      return worst;
    };
    const double r = check(Quadrature::Rectangle, VariableMass{});
    const double m = check(Quadrature::Midpoint, VariableMass{});
    const double t = check(Quadrature::Trapezoid, ConstantMass{});
    qInfo("U2 max rel |E_d + D3 L_d|: rectangle %.2e, midpoint %.2e, trapezoid %.2e", r, m, t);
    QVERIFY(r <= 1e-7);
    QVERIFY(m <= 1e-7);
    QVERIFY(t <= 1e-7);

    // The integrator's segment energy (momentum form) is (72) on the drift segment.
    using Model = StarFloorModel<WavyPotential>;
    Model model;
    model.massDiagonal = ConstantMass{}.m;
    FmowIntegrator<Model> integ(model, 0.01);
    for (int trial = 0; trial < 100; ++trial) {
      const Model::Vec q = randomVec<Model::Vec>(-1, 1), p = randomVec<Model::Vec>(-2, 2);
      const double tau = uniform(0.01, 0.5);
      const Model::Vec c = model.potentialGradient(q);
      const Model::Vec q1 = integ.drift(tau, q, p, c).position(1.0);
      const double e72 = discreteEnergy(Quadrature::Trapezoid, ConstantMass{}, q, q1, tau);
      QVERIFY(std::fabs(integ.segmentEnergy(tau, q, p, c) - e72) <= 1e-12 * std::max(1.0, std::fabs(e72)));
    }
  }

  // U3: (74a), (74b), (75a), (76), (77) vanish at the computed impacts (tolerance 1e-10), for the
  // three systems and the star with the nonlinear potential of B4.
  void u3_impactResidualsVanish() {
    auto verify = [](const char* name, const ImpactResiduals& r) {
      qInfo("U3 %s (%d impacts): (74a) %.1e (74b) %.1e (75a) %.1e (76) %.1e (77) %.1e", name,
            r.checked, r.e74a, r.e74b, r.e75a, r.e76, r.e77);
      QVERIFY2(r.checked >= 5, name);
      for (double e : {r.e74a, r.e74b, r.e75a, r.e76, r.e77}) QVERIFY2(e <= 1e-10, name);
    };
    ParticleFloorModel<> particle;
    verify("particle", impactResiduals(particle, {0, 1}, {-2, 0}, 0.01, 2000));
    verify("star", impactResiduals(defaultStar(), {0, 3.5, 0}, {-2, 0, 5}, 0.005, 4000));
    EllipseFloorModel<> ellipse;
    verify("ellipse", impactResiduals(ellipse, {0, 3.5, M_PI / 2}, {2, 0, -3}, 0.01, 2000));
    StarFloorModel<RadialGravity> radial;
    radial.massDiagonal = defaultStar().massDiagonal;
    verify("star, nonlinear V", impactResiduals(radial, {0, 3.5, 0}, {-2, 0, 5}, 0.005, 4000));
  }

  // U4: linear V: H is constant on smooth steps and jumps by (h^2/8) c^T M^-1 c (1 - 2 alpha) per
  // impact (s_last^2 - s_first^2 with several impacts in a step), tolerance 1e-10 (spec §2.7).
  void u4_linearPotentialEnergyIdentity() {
    int n = 0;
    auto [fp, ip] = energyIdentityErrors(ParticleFloorModel<>{}, {0, 1}, {-2, 0}, 0.01, 90400, &n);
    qInfo("U4 particle: %d impact steps, flight %.1e, impact %.1e", n, fp, ip);
    QVERIFY(n >= 1000 && fp <= 1e-10 && ip <= 1e-10);
    auto [fs, is] = energyIdentityErrors(defaultStar(), {0, 3.5, 0}, {-2, 0, 5}, 0.005, 20000, &n);
    qInfo("U4 star: %d impact steps, flight %.1e, impact %.1e", n, fs, is);
    QVERIFY(n >= 10 && fs <= 1e-10 && is <= 1e-10);
    auto [fe, ie] = energyIdentityErrors(EllipseFloorModel<>{}, {0, 3.5, M_PI / 2}, {2, 0, -3}, 0.01, 2500, &n);
    qInfo("U4 ellipse: %d impact steps, flight %.1e, impact %.1e", n, fe, ie);
    QVERIFY(n >= 20 && fe <= 1e-10 && ie <= 1e-10);
    ChannelModel<> channel;
    auto [fc, ic] = energyIdentityErrors(channel, {0, 0.025}, {1, 8}, 0.01, 2000, &n);
    qInfo("U4 channel (several impacts per step): %d impact steps, flight %.1e, impact %.1e", n, fc, ic);
    QVERIFY(n >= 100 && fc <= 1e-10 && ic <= 1e-10);
  }

  // Every analytic gradient (grad V, grad g_j) against central finite differences.
  void gradientsMatchFiniteDifferences() {
    auto check = [](const auto& model, auto q) {
      using Vec = decltype(q);
      const Vec fdV = gradientDifference([&](const Vec& x) { return model.potential(x); }, q);
      QVERIFY2((fdV - model.potentialGradient(q)).norm() <= 1e-7 * std::max(1.0, fdV.norm()),
               qPrintable(QString::number((fdV - model.potentialGradient(q)).norm())));
      for (int j = 0; j < std::decay_t<decltype(model)>::kGaps; ++j) {
        const Vec fdG = gradientDifference([&](const Vec& x) { return model.gap(j, x); }, q);
        QVERIFY((fdG - model.gapGradient(j, q)).norm() <= 1e-8 * std::max(1.0, fdG.norm()));
        typename std::decay_t<decltype(model)>::GapVec all;
        model.gaps(q, all);
        QCOMPARE(all[j], model.gap(j, q));
      }
    };
    for (int trial = 0; trial < 100; ++trial) {
      const Eigen::Vector3d q3 = randomVec<Eigen::Vector3d>(-3, 3);
      const Eigen::Vector2d q2 = randomVec<Eigen::Vector2d>(-3, 3);
      check(ParticleFloorModel<>{}, q2);
      check(ParticleFloorModel<BowlPotential>{}, q2);
      check(ChannelModel<>{}, q2);
      StarFloorModel<> star = defaultStar();
      star.L = uniform(0.2, 3.0);
      check(star, q3);
      check(StarFloorModel<RadialGravity>{}, q3);
      check(StarFloorModel<WavyPotential>{}, q3);
      EllipseFloorModel<> ellipse;
      ellipse.a = uniform(0.2, 3.0);
      ellipse.b = uniform(0.2, 3.0);
      check(ellipse, q3);
    }
  }

  // The impact solves' analytic derivatives against central finite differences, for each planar
  // model (nonlinear V where the model has one): F'(mu) of the energy equation (§2.5b; used by
  // Newton when V is nonlinear) and the Jacobian of the joint (mu, d) system (78).
  void impactDerivativesMatchFiniteDifferences() {
    auto check = [](const auto& model, double h) {
      using Model = std::decay_t<decltype(model)>;
      using Vec = typename Model::Vec;
      FmowIntegrator<Model> integ(model, h);
      for (int trial = 0; trial < 100; ++trial) {
        const Vec qi = randomVec<Vec>(-1, 1) + Vec::UnitY();
        const Vec pm = randomVec<Vec>(-5, 5);
        const int j = trial % Model::kGaps, k = (trial / 2) % Model::kGaps;
        const Vec nj = model.gapGradient(j, qi), ci = model.potentialGradient(qi);
        const double eMinus = uniform(-10, 10), mu = uniform(-5, 5), d = uniform(0.0, h);
        // F'(mu), remaining time d.
        const double fd = centralDifference(
            [&](double x) { return integ.energyEquation(qi, ci, pm, nj, eMinus, d, x).first; }, mu);
        const double df = integ.energyEquation(qi, ci, pm, nj, eMinus, d, mu).second;
        QVERIFY2(std::fabs(fd - df) <= 1e-6 * std::max(1.0, std::fabs(df)),
                 qPrintable(QString("F': %1 vs %2").arg(fd).arg(df)));
        // (78): columns d/dmu and d/dd.
        const auto R = integ.jointResidual(qi, ci, pm, nj, eMinus, k, mu, d);
        const Eigen::Vector2d dmu = centralDifference(
            [&](double x) { return integ.jointResidual(qi, ci, pm, nj, eMinus, k, x, d).r; }, mu);
        const Eigen::Vector2d dd = centralDifference(
            [&](double x) { return integ.jointResidual(qi, ci, pm, nj, eMinus, k, mu, x).r; }, d,
            1e-6 * h);
        QVERIFY((dmu - R.J.col(0)).norm() <= 1e-6 * std::max(1.0, R.J.col(0).norm()));
        QVERIFY2((dd - R.J.col(1)).norm() <= 1e-5 * std::max(1.0, R.J.col(1).norm()),
                 qPrintable(QString("%1 vs %2").arg(dd.norm()).arg(R.J.col(1).norm())));
      }
    };
    StarFloorModel<RadialGravity> radial;
    radial.massDiagonal = defaultStar().massDiagonal;
    check(radial, 0.005);
    check(defaultStar(), 0.005);
    check(EllipseFloorModel<WavyPotential>{}, 0.01);
    check(ParticleFloorModel<>{}, 0.01);
    check(ParticleFloorModel<BowlPotential>{}, 0.01);
  }

  // The detection rule's curvature bounds really bound G''(s) along the drift (crossing.hpp),
  // checked by second differences on random drifts with fast rotation and nonlinear potentials.
  void curvatureBoundsBoundTheGapAlongTheDrift() {
    auto check = [](const auto& model) {
      using Model = std::decay_t<decltype(model)>;
      using Vec = typename Model::Vec;
      FmowIntegrator<Model> integ(model, 0.01);
      for (int trial = 0; trial < 300; ++trial) {
        const Vec q = randomVec<Vec>(-3, 3), p = randomVec<Vec>(-20, 20);
        const double tau = uniform(0.001, 0.2);
        const auto path = integ.drift(tau, q, p, model.potentialGradient(q));
        typename Model::GapVec bound;
        model.gapCurvatureBounds(q, path.a, path.b, bound);
        const double ds = 1e-3;
        for (int j = 0; j < Model::kGaps; ++j) {
          for (double s = ds; s < 1.0; s += 0.01) {
            const double g2 = (model.gap(j, path.position(s + ds)) - 2 * model.gap(j, path.position(s)) +
                               model.gap(j, path.position(s - ds))) / (ds * ds);
            QVERIFY2(g2 <= bound[j] + 1e-5 * (1.0 + std::fabs(bound[j])),
                     qPrintable(QString("gap %1: G'' = %2 > bound %3").arg(j).arg(g2).arg(bound[j])));
          }
        }
      }
    };
    check(ParticleFloorModel<>{});
    check(defaultStar());
    check(StarFloorModel<WavyPotential>{});
    EllipseFloorModel<WavyPotential> e;
    for (auto [a, b] : {std::pair{1.0, 0.5}, {0.3, 2.0}, {1.0, 1.0}}) {
      e.a = a;
      e.b = b;
      check(e);
    }
  }

  // §2.5b: the impulse is the rebound root: closed form (Q) for linear V, Newton otherwise; the
  // post-impact normal rate is positive and the energy equation holds.
  void impulseTakesTheReboundRoot() {
    ParticleFloorModel<> particle;
    FmowIntegrator<ParticleFloorModel<>> integ(particle, 0.01);
    const Eigen::Vector2d qi(0.3, 0.0), ci = particle.potentialGradient(qi), n(0, 1), pm(-2, -3);
    for (double delta : {-1e-4, 0.0, 1e-4}) {
      const double tau = 0.004;
      const double eMinus = integ.segmentEnergy(tau, qi, pm, ci) - delta;  // F(0) = delta
      const auto s = integ.solveImpulse(qi, ci, pm, n, eMinus, tau);
      const double A = 1.0, B = -3.0;
      const double expected = (-B + std::sqrt(B * B - 2 * A * delta)) / A;  // (Q), rebound root
      QVERIFY(s.ok && !s.reflectionFallback);
      QVERIFY(std::fabs(s.mu - expected) <= 1e-13 * expected);
      QVERIFY(std::fabs(s.residual) <= 1e-13);
      QVERIFY(n.dot(pm + s.mu * n) > 0);  // leaves the floor
    }
    // Nonlinear V: Newton on F with F' from the reflection guess.
    StarFloorModel<RadialGravity> star;
    star.massDiagonal = defaultStar().massDiagonal;
    FmowIntegrator<decltype(star)> si(star, 0.005);
    for (int trial = 0; trial < 50; ++trial) {
      const Eigen::Vector3d q(uniform(-1, 1), 0.0, uniform(-3, 3));
      const int j = trial % 4;
      Eigen::Vector3d qi3 = q;
      qi3[1] = -star.gap(j, q);  // put tip j on the floor
      const Eigen::Vector3d n3 = star.gapGradient(j, qi3), c3 = star.potentialGradient(qi3);
      // Approaching at a normal rate <= -0.5: with |F(0)| <= 1e-4 J the root then moves the
      // rebound rate by < 1e-3, far from the grazing reflection (grazing.hpp).
      Eigen::Vector3d p3 = randomVec<Eigen::Vector3d>(-3, 3);
      while (si.inverseMass(n3).dot(p3) > -0.5) p3 -= n3;
      const double tau = uniform(0.0, 0.005);
      const double eMinus = si.nodeEnergy(qi3, p3) + uniform(-1e-4, 1e-4);
      const auto s = si.solveImpulse(qi3, c3, p3, n3, eMinus, tau);
      QVERIFY(s.ok);
      QVERIFY(!s.reflectionFallback);
      QVERIFY(std::fabs(s.residual) <= 1e-12 * std::fabs(eMinus) + 1e-13);
      QVERIFY(si.inverseMass(n3).dot(p3 + s.mu * n3) > 0);
      QVERIFY(s.mu > 0);
    }
  }

  // P12: a negative discriminant (near-grazing, F(0) too large for a real rebound root) falls
  // back to the pure reflection mu = -2B/A and reports its residual, F(-2B/A) = delta.
  void grazingFallsBackToReflection() {
    ParticleFloorModel<> particle;
    FmowIntegrator<ParticleFloorModel<>> integ(particle, 0.01);
    const Eigen::Vector2d qi(0, 0), ci = particle.potentialGradient(qi), n(0, 1), pm(1.0, -1e-3);
    const double tau = 0.006, delta = 1e-6;  // B^2 - 2 A delta = 1e-6 - 2e-6 < 0
    const auto s = integ.solveImpulse(qi, ci, pm, n, integ.segmentEnergy(tau, qi, pm, ci) - delta, tau);
    QVERIFY(s.ok && s.reflectionFallback);
    QCOMPARE(s.mu, 2e-3);
    QVERIFY(std::fabs(s.residual - delta) <= 1e-15);
    // Same with a nonlinear potential (Newton cannot find a rebound root either).
    ParticleFloorModel<RadialGravity> radial;
    FmowIntegrator<decltype(radial)> ri(radial, 0.01);
    const Eigen::Vector2d cr = radial.potentialGradient(qi);
    const auto r = ri.solveImpulse(qi, cr, pm, n, ri.segmentEnergy(tau, qi, pm, cr) - delta, tau);
    QVERIFY(r.ok && r.reflectionFallback);
    QCOMPARE(r.mu, 2e-3);
    QVERIFY(std::fabs(r.residual) >= 0.5 * delta);
  }

  // §2.6: several impacts in one step (a particle in a channel y in [0, H]); the first impulse and
  // the second contact time are solved together (78): every segment of an impact step has the same
  // discrete energy E_d (72), every impact point is on its boundary, p_x is exact, nodes admissible.
  void multipleImpactsInOneStep() {
    using Model = ChannelModel<>;
    Model model;
    const double h = 0.01;
    FmowIntegrator<Model> integ(model, h);
    const auto run = runSteps(integ, Eigen::Vector2d(0, 0.025), Eigen::Vector2d(1, 8), 2000);
    QCOMPARE(run.status, RunStatus::Ok);
    struct Trapezoid {
      Model m;
      double kinetic(const Eigen::Vector2d&, const Eigen::Vector2d& v) const { return 0.5 * v.squaredNorm(); }
      double potential(const Eigen::Vector2d& q) const { return m.potential(q); }
    } L{model};
    int multi = 0, checked = 0;
    double worstEd = 0, worstGap = 0;
    for (std::size_t k = 0; k < run.impacts.size(); ++k) {
      QVERIFY(run.q[k + 1][1] >= -1e-12 && model.H - run.q[k + 1][1] >= -1e-12);
      QCOMPARE(run.p[k + 1][0], 1.0);  // bit-exact
      const auto& imps = run.impacts[k];
      if (imps.size() > 1) ++multi;
      for (const auto& imp : imps) worstGap = std::max(worstGap, std::fabs(model.gap(imp.gap, imp.before.q)));
      if (imps.size() < 2) continue;
      // Segment energies (72) from the points: node, impact points, next node.
      std::vector<std::pair<Eigen::Vector2d, double>> pts{{run.q[k], 0.0}};
      for (const auto& imp : imps) pts.emplace_back(imp.before.q, imp.s);
      pts.emplace_back(run.q[k + 1], 1.0);
      bool wellSeparated = true;
      for (std::size_t i = 0; i + 1 < pts.size(); ++i) wellSeparated &= pts[i + 1].second - pts[i].second > 0.05;
      if (!wellSeparated) continue;  // difference quotients over tiny sub-steps lose digits
      const double e0 = discreteEnergy(Quadrature::Trapezoid, L, pts[0].first, pts[1].first, pts[1].second * h);
      for (std::size_t i = 1; i + 1 < pts.size(); ++i) {
        const double ei = discreteEnergy(Quadrature::Trapezoid, L, pts[i].first, pts[i + 1].first,
                                         (pts[i + 1].second - pts[i].second) * h);
        worstEd = std::max(worstEd, std::fabs(ei - e0));
      }
      ++checked;
    }
    qInfo("channel: %d steps with several impacts, E_d checked on %d, max |E_d - E-| %.1e, max |g(q~)| %.1e",
          multi, checked, worstEd, worstGap);
    QVERIFY(multi >= 100);
    QVERIFY(checked >= 20);
    QVERIFY(worstEd <= 1e-9);
    QVERIFY(worstGap <= 1e-12);
  }

  // The per-step impact cap: a channel narrower than one step's travel needs ~100 impacts per
  // step (> 32) -> Zeno with a message naming step, time and gap; a cap of 1 with a double impact
  // -> Zeno too. The state is left at the last good node.
  void zenoCapStopsTheStep() {
    using Model = ChannelModel<>;
    Model narrow;
    narrow.H = 1e-3;
    narrow.lengthScale = 1e-3;
    narrow.potentialTerm.g = 0.0;
    PlanarSimulation<Model, FmowIntegrator<Model>> sim(FmowIntegrator<Model>(narrow, 0.01),
                                                       Eigen::Vector2d(0, 5e-4), Eigen::Vector2d(0, 10));
    const AdvanceResult r = sim.advance(10, nullptr);
    QCOMPARE(r.status, RunStatus::Zeno);
    QCOMPARE(r.stepsTaken, std::int64_t(0));
    QCOMPARE(sim.step(), std::int64_t(0));
    QCOMPARE(sim.q(), Eigen::Vector2d(0, 5e-4));
    QVERIFY2(QString::fromStdString(failureText(sim, r)).startsWith(QStringLiteral("integrator failed at step 1 (t = 0 s): ") + kZenoText) &&
                 QString::fromStdString(r.message).contains("(cap 32)"),
             r.message.c_str());
    QVERIFY(QString::fromStdString(r.message).contains("on gap '"));

    FmowOptions capOne;
    capOne.maxImpactsPerStep = 1;
    // H = 0.05, v = 8: ceiling at t = 0.003125 s, floor at 0.009375 s, both inside step 1.
    Model channel;
    PlanarSimulation<Model, FmowIntegrator<Model>> sim1(FmowIntegrator<Model>(channel, 0.01, capOne),
                                                        Eigen::Vector2d(0, 0.025), Eigen::Vector2d(1, 8));
    const AdvanceResult r1 = sim1.advance(1000, nullptr);
    QCOMPARE(r1.status, RunStatus::Zeno);
    QCOMPARE(r1.stepsTaken, std::int64_t(0));
    QVERIFY2(QString::fromStdString(r1.message).startsWith(QString(kZenoText)) &&
                 QString::fromStdString(r1.message).endsWith("(cap 1)"),
             r1.message.c_str());
    // ... while the default cap resolves the same steps.
    PlanarSimulation<Model, FmowIntegrator<Model>> sim2(FmowIntegrator<Model>(channel, 0.01),
                                                        Eigen::Vector2d(0, 0.025), Eigen::Vector2d(1, 8));
    QVERIFY(sim2.advance(1000, nullptr).ok());
  }

  // Why (78) can have no solution for a second impact of the SAME gap (a tiny hop inside one
  // step): with linear V the discrete energy of a complete parabolic hop does not depend on the
  // impulse, E_d(q~, q~', d(mu)) = V(q~) + p_x^2/2m for every mu, so (78a) fixes nothing.
  void jointSystemIsDegenerateForARepeatedFloorImpact() {
    ParticleFloorModel<> particle;
    FmowIntegrator<ParticleFloorModel<>> integ(particle, 0.01);
    const Eigen::Vector2d qi(0.0, 0.0), ci = particle.potentialGradient(qi), n(0, 1), pm(0.7, -0.02);
    for (double mu : {0.025, 0.03, 0.04}) {
      const Eigen::Vector2d pp = pm + mu * n;
      const double d = 2.0 * pp[1] / 9.8;  // hop duration: y returns to 0
      QVERIFY(std::fabs(integ.drift(d, qi, pp, ci).position(1.0)[1]) <= 1e-17);
      QVERIFY(std::fabs(integ.segmentEnergy(d, qi, pp, ci) - 0.5 * 0.7 * 0.7) <= 1e-15);
    }
  }

  // A state from a long run of the star dropped flat (y0 = 0.52, at rest; t = 521 s) where the
  // energy root made tip+- rebound by a hop of 5 um that landed within the same step, and (78)
  // then had no solution (the sequential fallback above). Such a hop needs a rebound slower than
  // g (1 - alpha) h / 2, whose normal kinetic energy is of the order of the §2.7 defect, so the
  // root moves the rebound rate by far more than 1 %: the impact is a grazing reflection
  // (core/numerics/grazing.hpp), the tip leaves at its incoming rate, and the §2.7 identity of
  // the step is off by exactly the reported energy residual.
  void tinyHopIsAGrazingReflection() {
    StarFloorModel<> star = defaultStar();
    const double h = 0.005;
    FmowIntegrator<StarFloorModel<>> integ(star, h);
    Eigen::Vector3d q(0, 0.5179382474686004, -0.036546823569609352);
    Eigen::Vector3d p(0, 0.14503597730782281, -0.0417869995692201);
    const Eigen::Vector3d q0 = q, p0 = p;
    auto state = integ.initialState(q, p);
    FmowIntegrator<StarFloorModel<>>::Report rep;
    QCOMPARE(integ.step(state, rep), RunStatus::Ok);
    q = state.q;
    p = state.p;
    const Eigen::Vector4d& g = state.gaps;
    QCOMPARE(rep.impactCount, 1);
    const auto& im = rep.impacts[0];
    QCOMPARE(im.gap, 1);
    QVERIFY(im.reflected && !im.jointFallback);
    // (C1): the normal rate n^T M^-1 p flips exactly.
    const Eigen::Vector3d n = star.gapGradient(im.gap, im.before.q);
    const Eigen::Vector3d mInv = star.massDiagonal.cwiseInverse();
    const double rateIn = n.dot(mInv.cwiseProduct(im.before.p)), rateOut = n.dot(mInv.cwiseProduct(im.after.p));
    QVERIFY(rateIn < 0.0);
    QVERIFY(std::fabs(rateOut + rateIn) <= 1e-14 * std::fabs(rateIn) + 1e-17);
    const double kick = h * h / 8 * kG * kG;  // largest §2.7 kick
    QVERIFY(std::fabs(im.energyResidual) > 1e-9 && std::fabs(im.energyResidual) < kick);
    QVERIFY(g.minCoeff() >= 0.0);
    const double dH = integ.nodeEnergy(q, p) - integ.nodeEnergy(q0, p0);
    const double expected = kick * ((1 - im.s) * (1 - im.s) - im.s * im.s) + im.energyResidual;
    QVERIFY(std::fabs(dH - expected) <= 1e-12);
  }

  // P12, alpha -> 1: an impact at the very end of a step (particle released at rest from
  // y0 = g h^2 / 2 lands at t = h): the remainder is below 1e-12 h, the step ends at the impact
  // point with the rebound momentum.
  void impactAtTheEndOfAStep() {
    ParticleFloorModel<> particle;
    const double h = 0.01;
    FmowIntegrator<ParticleFloorModel<>> integ(particle, h);
    Eigen::Vector2d q(0.0, 0.5 * kG * h * h), p(0.0, 0.0);
    const double h0 = integ.nodeEnergy(q, p);
    auto state = integ.initialState(q, p);
    FmowIntegrator<ParticleFloorModel<>>::Report rep;
    QCOMPARE(integ.step(state, rep), RunStatus::Ok);
    q = state.q;
    p = state.p;
    const auto& g = state.gaps;
    QCOMPARE(rep.impactCount, 1);
    const double alpha = rep.impacts[0].s;
    QVERIFY(alpha > 1.0 - 1e-12);
    QVERIFY(g[0] >= 0.0 && g[0] <= 1e-15);
    // Incoming speed g h. The E_d equality (E- = H0 - (h^2/8) m g^2, E_d -> H on the vanishing
    // remainder) would give p_y+ = sqrt(g^2 h^2 - g^2 h^2 / 4) = (sqrt(3)/2) g h, 13 % off the
    // reflection: a grazing impact (grazing.hpp), so p_y+ = g h and H is unchanged, the
    // (h^2/8) m g^2 defect staying in the reported residual.
    QVERIFY(rep.impacts[0].reflected);
    QVERIFY(std::fabs(p[1] - kG * h) <= 1e-13 * kG * h);
    QVERIFY(std::fabs(integ.nodeEnergy(q, p) - h0) <= 1e-13 * h0);
    QVERIFY(std::fabs(rep.impacts[0].energyResidual - h * h / 8 * kG * kG) <= 1e-15);
    QVERIFY(std::fabs(state.lastTau) <= 1e-12 * h);
  }

  // §2.8 corner: the star landing flat puts two tips on the floor at the same instant. The
  // sequential rule applies one impulse per tip at the same point and time; both tips leave,
  // the energy identity of §2.7 still holds, p_x is unchanged.
  void cornerImpactIsSequential() {
    StarFloorModel<> star = defaultStar();
    FmowIntegrator<StarFloorModel<>> integ(star, 0.005);
    const auto run = runSteps(integ, Eigen::Vector3d(0, 1.2, 0), Eigen::Vector3d(0, 0, 0), 200);
    QCOMPARE(run.status, RunStatus::Ok);
    std::size_t k = 0;
    while (k < run.impacts.size() && run.impacts[k].empty()) ++k;
    QVERIFY(k < run.impacts.size());
    const auto& imps = run.impacts[k];
    QCOMPARE(int(imps.size()), 2);
    QVERIFY(imps[0].gap != imps[1].gap);
    QVERIFY(std::fabs(imps[0].s - imps[1].s) <= 1e-12);  // same instant (beta = 0 or ~0)
    for (int j : {1, 3}) {  // the two lower tips (b = -1) leave the floor
      QVERIFY(imps[0].gap == j || imps[1].gap == j);
      QVERIFY(integ.inverseMass(star.gapGradient(j, imps[1].before.q)).dot(imps[1].after.p) >= 0);
    }
    const double kappa = kG * kG, h = 0.005;
    const double sFirst = imps.front().s, sLast = 1 - imps.back().s;
    const double dH = integ.nodeEnergy(run.q[k + 1], run.p[k + 1]) - integ.nodeEnergy(run.q[k], run.p[k]);
    QVERIFY(std::fabs(dH - h * h / 8 * kappa * (sLast * sLast - sFirst * sFirst)) <= 1e-10);
    QCOMPARE(run.p[k + 1][0], 0.0);
    for (const auto& q : run.q) {
      Eigen::Vector4d g;
      star.gaps(q, g);
      QVERIFY(g.minCoeff() >= -1e-12);
    }
  }
};

QTEST_APPLESS_MAIN(TestPlanarFmow)
#include "test_planar_fmow.moc"
