// Restitution and settling on the planar systems (docs/restitution.md): spec R1 on the
// particle, Newton's law impact by impact (R2) for every planar integrator, elastic runs
// unchanged, settled bodies that keep their energy, lift-off, and a campaign of random drops.

#include "core/io/trace.hpp"
#include "core/nonholonomic/ellipse_ldap.hpp"
#include "core/planar/planar_simulation.hpp"
#include "test_restitution_support.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace ricochet;
using namespace ricochet::testing;
using planar::EllipseFloorModel;
using planar::FmowIntegrator;
using planar::ParticleFloorModel;
using planar::Rk4EventIntegrator;
using planar::StarFloorModel;

namespace {

const char* const kIntegrators[] = {"variational", "rk4-event"};

/// Energy range (max - min) / |max| of a run from `from` s to its t_end, stepped one by one,
/// and whether it stayed settled all the while.
struct Band {
  double relative = 0.0;
  bool settledThroughout = true;
  RunStatus status = RunStatus::Ok;
};
Band energyBand(Simulation& sim, double from, double to) {
  Band b;
  while (sim.time() < from - 1e-12) {
    const AdvanceResult r = sim.advance(1, nullptr);
    if (!r.ok()) {
      b.status = r.status;
      return b;
    }
  }
  double lo = sim.energy().total(), hi = lo;
  while (sim.time() < to - 1e-12) {
    const AdvanceResult r = sim.advance(1, nullptr);
    if (!r.ok()) {
      b.status = r.status;
      return b;
    }
    const double e = sim.energy().total();
    lo = std::min(lo, e);
    hi = std::max(hi, e);
    b.settledThroughout = b.settledThroughout && !std::isnan(sim.settledTime());
  }
  b.relative = (hi - lo) / std::fabs(hi);
  return b;
}

}  // namespace

class TestPlanarRestitution : public QObject {
  Q_OBJECT
 private slots:
  // Spec R1: the ball 1 m above the floor from rest, g = 9.81, e = 0.9: impact times, v+/v- = 0.9,
  // accumulation at t1 + 2 e v1 / (g (1 - e)), then settled on the floor until t = 20, status ok.
  void r1_bouncingBall() {
    constexpr double g = 9.81, e = 0.9;
    const double t1 = std::sqrt(2.0 / g), v1 = g * t1;
    const double accumulation = t1 + 2.0 * e * v1 / (g * (1.0 - e));
    const double times[] = {0.4515236410, 1.2642661948, 1.9957344932, 2.6540559617};
    for (const char* integ : kIntegrators) {
      const Scenario sc = scenarioWith(
          "particle-floor", integ,
          {{"g", g}, {"restitution", e}, {"x0", 0.0}, {"y0", 1.0}, {"vx0", 0.0}, {"vy0", 0.0}},
          20.0);
      // Impact by impact: the times, and v+/v- from the momenta at the impact point.
      {
        CreateResult cr = createSimulation(sc);
        QVERIFY2(cr.simulation, cr.error.c_str());
        auto run = [&](auto* sim) {
          std::vector<double> at, ratio;
          while (sim->time() < sc.tEnd - 1e-9) {
            QVERIFY(sim->advance(1, nullptr).ok());
            const double tk = sim->time() - sim->timeStep();
            for (const auto& imp : sim->lastStep()) {
              at.push_back(tk + imp.s * sim->timeStep());
              ratio.push_back(-imp.after.p[1] / imp.before.p[1]);
            }
          }
          QVERIFY(at.size() >= 4);
          for (int i = 0; i < 4; ++i) {
            qInfo("R1 %s: impact %d at %.10f s", integ, i + 1, at[i]);
            QVERIFY2(std::fabs(at[i] - times[i]) <= 1e-9, integ);
          }
          double worst = 0.0;
          for (double r : ratio) worst = std::max(worst, std::fabs(r - e));
          qInfo("R1 %s: %zu impacts, worst |v+/v- - 0.9| = %.2e", integ, at.size(), worst);
          QVERIFY(worst <= 1e-12);
        };
        using Model = ParticleFloorModel<>;
        if (std::string(integ) == "variational") {
          run(dynamic_cast<impact::StepperSimulation<FmowIntegrator<Model>>*>(cr.simulation.get()));
        } else {
          run(dynamic_cast<impact::StepperSimulation<Rk4EventIntegrator<Model>>*>(
              cr.simulation.get()));
        }
      }
      // The run driver: settled near the accumulation point, then at rest until t = 20, ok.
      CreateResult cr = createSimulation(sc);
      Simulation& sim = *cr.simulation;
      ImpactLog impacts;
      struct Observer final : io::RunObserver {
        ImpactLog* log = nullptr;
        void onImpact(const ImpactRecord& r) override { log->impacts.push_back(r); }
      } observer;
      observer.log = &impacts;
      io::RunOptions o;
      o.observer = &observer;
      const io::RunSummary s = io::runSimulation(sim, sc, o);
      QCOMPARE(s.statusText(), std::string("ok"));
      QCOMPARE(s.tEnd, 20.0);
      qInfo("R1 %s: settled at %.6f s (accumulation %.6f s)", integ, s.settledTime, accumulation);
      // The flights after the last impact add up to at most h / (1 - e).
      QVERIFY(s.settledTime <= accumulation);
      QVERIFY(accumulation - s.settledTime <= sc.integrator.h / (1.0 - e));
      QCOMPARE(s.settledTime, impacts.impacts.back().t);
      // At rest on the floor, everything dissipated.
      QVERIFY(std::fabs(sim.energy().total()) <= 1e-12);
      QVERIFY(std::fabs(s.energyDissipated - 9.81) <= 1e-12);
      QVERIFY(std::fabs(sim.minGap()) <= 1e-12);
      QVERIFY(io::summaryLine(s).find("settled at t = ") != std::string::npos);
      const json::Value j = io::summaryToJson(s);
      QCOMPARE(j.find("settled_t")->asNumber(), s.settledTime);
      QCOMPARE(j.find("energy_dissipated")->asNumber(), s.energyDissipated);
    }
  }

  // The preset of R1 (resources/presets) is that run.
  void r1_preset() {
    const io::ScenarioResult r =
        io::loadScenario(RICOCHET_SOURCE_DIR "/resources/presets/rst-particle-floor-bouncing-ball.json");
    QVERIFY2(r.ok(), r.error.c_str());
    const Scenario sc = scenarioWith("particle-floor", "variational",
                                     {{"g", 9.81}, {"restitution", 0.9}, {"vx0", 0.0}}, 20.0);
    QVERIFY(io::sameScenario(*r.scenario, sc));
  }

  // Spec R2 with e = 0.5 on every planar system and integrator: per impact the energy drops by
  // (1/2) m_eff (1 - e^2) u-^2, u+ = -e u-, the jump is along W n (p_x unchanged).
  void r2_newtonPerImpact() {
    constexpr double e = 0.5;
    struct Case {
      const char* system;
      const char* integrator;
      std::map<std::string, double> set;
      double tEnd;
    };
    const Case cases[] = {
        {"particle-floor", "variational", {}, 20.0}, {"particle-floor", "rk4-event", {}, 20.0},
        {"star-floor", "variational", {}, 30.0},     {"star-floor", "rk4-event", {}, 30.0},
        {"ellipse-floor", "variational", {}, 25.0},  {"ellipse-floor", "rk4-event", {}, 25.0},
        {"ellipse-floor", "ldap", {}, 25.0},
    };
    for (const Case& c : cases) {
      std::map<std::string, double> set = c.set;
      set["restitution"] = e;
      const Scenario sc = scenarioWith(c.system, c.integrator, set, c.tEnd);
      CreateResult cr = createSimulation(sc);
      QVERIFY2(cr.simulation, cr.error.c_str());
      const std::int64_t steps = io::stepCount(sc.tEnd, sc.integrator.h);
      const std::string id = std::string(c.system) + "/" + c.integrator;
      NewtonCheck r;
      if (id == "particle-floor/variational") {
        r = checkNewtonImpacts<FmowIntegrator<ParticleFloorModel<>>>(*cr.simulation, e, steps);
      } else if (id == "particle-floor/rk4-event") {
        r = checkNewtonImpacts<Rk4EventIntegrator<ParticleFloorModel<>>>(*cr.simulation, e, steps);
      } else if (id == "star-floor/variational") {
        r = checkNewtonImpacts<FmowIntegrator<StarFloorModel<>>>(*cr.simulation, e, steps);
      } else if (id == "star-floor/rk4-event") {
        r = checkNewtonImpacts<Rk4EventIntegrator<StarFloorModel<>>>(*cr.simulation, e, steps);
      } else if (id == "ellipse-floor/variational") {
        r = checkNewtonImpacts<FmowIntegrator<EllipseFloorModel<>>>(*cr.simulation, e, steps);
      } else if (id == "ellipse-floor/rk4-event") {
        r = checkNewtonImpacts<Rk4EventIntegrator<EllipseFloorModel<>>>(*cr.simulation, e, steps);
      } else {
        using nonholonomic::EllipseLdapModel;
        r = checkNewtonImpacts<nonholonomic::LdapVci<EllipseLdapModel>>(*cr.simulation, e, steps);
      }
      qInfo("R2 %s: %d impacts, energy %.1e, ratio %.1e, tangent %.1e; %d settling", id.c_str(),
            r.impacts, r.energy, r.ratio, r.tangent, r.settled);
      QCOMPARE(int(r.status), int(RunStatus::Ok));
      QVERIFY(r.impacts >= 4);
      QVERIFY2(r.energy <= 1e-12, id.c_str());
      QVERIFY2(r.ratio <= 1e-12, id.c_str());
      QVERIFY2(r.tangent <= 1e-12, id.c_str());
      QVERIFY2(r.settled >= 1, id.c_str());
    }
  }

  // p_x is conserved to the last bit through lossy impacts, settling and the settled slide.
  void horizontalMomentumExact() {
    for (const char* system : {"star-floor", "ellipse-floor"}) {
      for (const char* integ : kIntegrators) {
        CreateResult cr = createSimulation(scenarioWith(system, integ, {{"restitution", 0.3}}, 0));
        QVERIFY2(cr.simulation, cr.error.c_str());
        Simulation& sim = *cr.simulation;
        const std::size_t px = columnIndex(sim, "mom.px");
        std::vector<double> row(sim.columns().size());
        sim.sample(row);
        const double p0 = row[px];
        QVERIFY(sim.advance(4000, nullptr).ok());
        QVERIFY(!std::isnan(sim.settledTime()));
        sim.sample(row);
        QCOMPARE(row[px], p0);
      }
    }
  }

  // restitution = 1 is the elastic run: the same trace bytes, no e.dissipated column, nothing
  // dissipated and nothing settled (the determinism pins check those bytes against the build
  // before restitution existed).
  void elasticIsUnchanged() {
    for (const char* system : {"particle-floor", "star-floor", "ellipse-floor"}) {
      const SystemDescription& desc = *findSystem(system);
      for (const IntegratorInfo& integ : desc.info().integrators) {
        Scenario base = defaultScenario(desc);
        base.integrator.name = integ.name;
        base.tEnd = 5.0;
        Scenario one = base;
        QVERIFY(io::setScenarioValue(one, "restitution", 1.0).empty());
        QVERIFY(io::setScenarioValue(base, "restitution", 0.999).empty());
        CreateResult a = createSimulation(one), b = createSimulation(base);
        if (integ.name == "ldap-paper") {  // P000's literal elastic equation: refused, one line
          QVERIFY(a.simulation && !b.simulation);
          QCOMPARE(b.error, std::string("parameter 'restitution' = 0.999 is not available with "
                                        "integrator 'ldap-paper' (P000's elastic impact equation "
                                        "as printed): use 'ldap' or 'variational'"));
          continue;
        }
        QVERIFY2(a.simulation && b.simulation, (a.error + b.error).c_str());
        QCOMPARE(columnIndex(*a.simulation, "e.dissipated"), a.simulation->columns().size());
        QVERIFY(columnIndex(*b.simulation, "e.dissipated") < b.simulation->columns().size());
        QVERIFY(a.simulation->advance(500, nullptr).ok());
        QCOMPARE(a.simulation->dissipatedEnergy(), 0.0);
        QVERIFY(std::isnan(a.simulation->settledTime()));
      }
    }
  }

  // A settled body keeps its energy: the star comes to rest on an edge (sliding at its initial
  // vx) and the particle on the floor, both to round-off; the frictionless ellipse keeps rocking
  // on the floor, where RATTLE's energy stays in a bounded O(h^2) band without drift.
  void settledBodiesKeepTheirEnergy() {
    for (const char* integ : kIntegrators) {
      {
        CreateResult cr =
            createSimulation(scenarioWith("star-floor", integ, {{"restitution", 0.5}}, 0));
        const Band b = energyBand(*cr.simulation, 10.0, 200.0);
        qInfo("star %s: settled at %.4f s, energy band %.2e (t in [10, 200] s)", integ,
              cr.simulation->settledTime(), b.relative);
        QCOMPARE(int(b.status), int(RunStatus::Ok));
        QVERIFY(b.settledThroughout);
        QVERIFY(b.relative <= 1e-12);
        QVERIFY(std::fabs(cr.simulation->energy().total() - 6.9) <= 1e-12);  // m g L/2 + m vx^2/2
      }
      {
        CreateResult cr =
            createSimulation(scenarioWith("particle-floor", integ, {{"restitution", 0.7}}, 0));
        const Band b = energyBand(*cr.simulation, 10.0, 500.0);
        QCOMPARE(int(b.status), int(RunStatus::Ok));
        QVERIFY(b.settledThroughout);
        QVERIFY(b.relative <= 1e-12);
      }
      {
        CreateResult cr =
            createSimulation(scenarioWith("ellipse-floor", integ, {{"restitution", 0.5}}, 0));
        Simulation& sim = *cr.simulation;
        const Band early = energyBand(sim, 5.0, 105.0);
        const Band late = energyBand(sim, 900.0, 1000.0);
        qInfo(
            "ellipse %s: settled at %.4f s, energy band %.2e in [5, 105] s, %.2e in [900, "
            "1000] s",
            integ, sim.settledTime(), early.relative, late.relative);
        QVERIFY(early.settledThroughout && late.settledThroughout);
        QVERIFY(early.relative <= 2e-3);
        QVERIFY(late.relative <= 2e-3);
      }
    }
  }

  // A held contact whose force would pull lifts off: the star held on its lowest tip but spinning
  // at 20 rad/s (the tip's centripetal acceleration, ~280 m/s^2, beats g) leaves the floor.
  void liftOffWhenTheForceWouldPull() {
    using Model = StarFloorModel<>;
    Model model;
    model.potentialTerm = planar::UniformGravity{1.0, 9.8};
    model.massDiagonal = Model::Vec(1.0, 1.0, Model::kInertiaFactor);
    const double theta = 0.3, omega = 20.0;
    const double y = 0.5 * (std::sin(theta) + std::cos(theta));  // tip-- on the floor
    // Zero normal rate of tip--: ydot = (L/2)(cos theta - sin theta) omega.
    const double ydot = 0.5 * (std::cos(theta) - std::sin(theta)) * omega;
    planar::FmowOptions o;
    o.restitution = 0.5;
    const FmowIntegrator<Model> fmow(model, 0.001, o);
    auto state = fmow.initialState(Model::Vec(0.0, y, theta),
                                   model.massDiagonal.cwiseProduct(Model::Vec(0.0, ydot, omega)));
    QVERIFY(std::fabs(model.gap(3, state.q)) <= 1e-15);
    state.held = 1u << 3;
    FmowIntegrator<Model>::Report report;
    QCOMPARE(int(fmow.step(state, report)), int(RunStatus::Ok));
    QCOMPARE(state.held, 0u);  // released
    QVERIFY(model.gap(3, state.q) > 0.0);
    // The same state at rest pushes: it stays held.
    auto rest = fmow.initialState(Model::Vec(0.0, y, theta), Model::Vec::Zero());
    rest.held = 1u << 3;
    QCOMPARE(int(fmow.step(rest, report)), int(RunStatus::Ok));
    QCOMPARE(rest.held, 1u << 3);
    QVERIFY(rest.force[3] > 0.0);
  }

  // Random drops: each system and integrator, e in [0.3, 0.95], random heights, spins and
  // velocities, 1000 s each (bench/ has the longer campaign): every run ends ok, with energy +
  // e.dissipated within the band of the integrator's own error, and the star and the particle
  // settled.
  void randomCampaign() {
    std::mt19937_64 rng(20261201);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int runs = 0, settledRuns = 0;
    for (int seed = 0; seed < 8; ++seed) {
      for (const char* system : {"particle-floor", "star-floor", "ellipse-floor"}) {
        for (const char* integ : {"variational", "rk4-event", "ldap"}) {
          if (std::string(integ) == "ldap" && std::string(system) != "ellipse-floor") continue;
          const double e = 0.3 + 0.65 * unit(rng);
          std::map<std::string, double> set = {{"restitution", e}};
          set[std::string(system) == "ellipse-floor" ? "omega0" : "vx0"] = -4.0 + 8.0 * unit(rng);
          set["vy0"] = -3.0 + 6.0 * unit(rng);
          set["y0"] = 2.0 + 3.0 * unit(rng);
          if (std::string(system) == "star-floor") {
            set["omega0"] = -8.0 + 16.0 * unit(rng);
            set["theta0"] = 6.0 * unit(rng);
          }
          if (std::string(system) == "ellipse-floor") set["theta0"] = 6.0 * unit(rng);
          const Scenario sc = scenarioWith(system, integ, set, 1000.0);
          CreateResult cr = createSimulation(sc);
          QVERIFY2(cr.simulation, cr.error.c_str());
          const io::RunSummary s = io::runSimulation(*cr.simulation, sc, io::RunOptions{});
          const double balance =
              std::fabs(s.energyFinal + s.energyDissipated - s.energyInitial) / s.energyInitial;
          const std::string what =
              std::string(system) + "/" + integ + " e = " + std::to_string(e) + ": " + s.message;
          QVERIFY2(s.ok(), what.c_str());
          QVERIFY2(balance <= 2e-2, what.c_str());
          if (std::string(system) != "ellipse-floor")
            QVERIFY2(!std::isnan(s.settledTime), what.c_str());
          settledRuns += !std::isnan(s.settledTime);
          ++runs;
        }
      }
    }
    qInfo("campaign: %d runs of 1000 s, all ok, %d settled at the end", runs, settledRuns);
  }
};

QTEST_APPLESS_MAIN(TestPlanarRestitution)
#include "test_planar_restitution.moc"
