// core/io/energy_check: the energy warning of a run. Every registered integrator has a documented
// bound; no preset of the papers passes it; P000's rectangle scheme run long does, and says so in
// the summary (status stays "ok") and its line; a run that removes energy on purpose is judged
// on E + dissipated, not on E alone.

#include "core/io/energy_check.hpp"
#include "core/io/scenario_io.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"

#include <QtTest>

#include <filesystem>

using namespace ricochet;

namespace {

/// Energy that falls linearly from 3 J to 1.5 J over `steps` steps; with `reportsDissipation` the
/// lost energy is the column `e.dissipated` (a run with restitution < 1), else the column has
/// another name (a run that leaks energy it should not).
class LeakingSimulation final : public Simulation {
 public:
  LeakingSimulation(std::int64_t steps, bool reportsDissipation)
      : steps_(steps), columns_{"q.y", reportsDissipation ? "e.dissipated" : "e.other"} {}

  std::int64_t step() const override { return k_; }
  double time() const override { return 0.01 * static_cast<double>(k_); }
  std::int64_t impactCount() const override { return 0; }
  double timeStep() const override { return 0.01; }
  AdvanceResult advance(std::int64_t maxSteps, ImpactSink*) override {
    k_ += maxSteps;
    return AdvanceResult{maxSteps, RunStatus::Ok, {}};
  }
  EnergySplit energy() const override { return {1.0 - lost(), 2.0}; }
  double minGap() const override { return 1.0; }
  std::span<const std::string> columns() const override { return columns_; }
  void sample(std::span<double> out) const override {
    out[0] = 1.0;
    out[1] = lost();
  }
  void poses(std::span<Pose>) const override {}

 private:
  double lost() const { return 1.5 * static_cast<double>(k_) / static_cast<double>(steps_); }
  std::int64_t k_ = 0;
  std::int64_t steps_;
  std::vector<std::string> columns_;
};

io::RunSummary runScenario(Scenario scenario, std::int64_t steps) {
  CreateResult created = createSimulation(scenario);
  if (!created.simulation) qFatal("%s", created.error.c_str());
  io::RunOptions options;
  options.steps = steps;
  return io::runSimulation(*created.simulation, scenario, options);
}

}  // namespace

class TestIoEnergyCheck : public QObject {
  Q_OBJECT

 private slots:
  // The table covers every integrator of every system; the classes have their documented bounds.
  void everyIntegratorHasABound() {
    for (const SystemDescription* s : systems()) {
      for (const IntegratorInfo& i : s->info().integrators) {
        const io::EnergyBound b = io::energyBound(s->info().id, i.name);
        QVERIFY2(b.registered,
                 qPrintable(QString::fromStdString(
                     s->info().id + " / " + i.name +
                     ": no energy bound; add a row to kRows in core/io/energy_check.cpp")));
        QCOMPARE(b.relative, b.energyClass == io::EnergyClass::Conserving ? 1e-6 : 5e-2);
      }
    }
    QCOMPARE(int(io::energyBound("cube-plane", "variational").energyClass),
             int(io::EnergyClass::Conserving));
    QCOMPARE(int(io::energyBound("pendulum-cylinder", "variational").energyClass),
             int(io::EnergyClass::FirstOrder));
    QCOMPARE(int(io::energyBound("star-floor", "variational").energyClass),
             int(io::EnergyClass::Bounded));
    QCOMPARE(int(io::energyBound("star-floor", "rk4-event").energyClass),
             int(io::EnergyClass::Conserving));
    QVERIFY(!io::energyBound("no-such-system", "variational").registered);
  }

  void theWarningSaysWhatAndWhatToDo() {
    QVERIFY(io::energyWarning("pendulum-cylinder", "variational", 0.049).empty());
    QCOMPARE(io::energyWarning("pendulum-cylinder", "variational", 660.0),
             std::string("energy error max |dE/E0| = 6.6e+02 is beyond 0.05, the bound of a sound "
                         "run of variational "
                         "on pendulum-cylinder (P000's first-order rectangle scheme, whose energy "
                         "creeps): do not "
                         "trust this result; for long runs use variational-midpoint"));
    QVERIFY(io::energyWarning("cube-plane", "variational", 9e-7).empty());
    const std::string w = io::energyWarning("cube-plane", "variational", 2e-6, true);
    QVERIFY2(w.starts_with(
                 "energy balance error max |E + dissipated - E0|/|E0| = 2e-06 is beyond 1e-06") &&
                 w.ends_with("reduce h"),
             w.c_str());
    QVERIFY(!io::energyWarning("cube-plane", "variational", std::nan("")).empty());
    QCOMPARE(io::energyBalanceError(2.5, 0.5, 3.0, 2.0), 0.0);
    QCOMPARE(io::energyBalanceError(2.5, 0.0, 3.0, 2.0), -0.25);
  }

  // The acceptance runs and every preset of resources/presets/ end without a warning.
  void noPresetPassesItsBound() {
    int presets = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(RICOCHET_SOURCE_DIR "/resources/presets")) {
      if (entry.path().extension() != ".json") continue;
      const io::ScenarioResult loaded = io::loadScenario(entry.path());
      QVERIFY2(loaded.ok(), loaded.error.c_str());
      const io::RunSummary s = runScenario(*loaded.scenario, -1);
      QVERIFY2(s.ok(), s.message.c_str());
      QVERIFY2(s.warning.empty(), (entry.path().filename().string() + ": " + s.warning).c_str());
      ++presets;
    }
    QVERIFY(presets >= 20);
  }

  // P000's rectangle scheme over 100 s at its default h = 1e-3: max |dE/E0| = 0.15, beyond 0.05.
  // The run is still ok; its summary and its line say why not to trust it. The midpoint scheme
  // over the same steps stays at 4e-5.
  void aCreepingPendulumIsFlagged() {
    const SystemDescription* pendulum = findSystem("pendulum-cylinder");
    QVERIFY(pendulum);
    Scenario scenario = defaultScenario(*pendulum);
    scenario.integrator.name = "variational";
    const io::RunSummary rectangle = runScenario(scenario, 100000);
    QVERIFY(rectangle.ok());
    QCOMPARE(rectangle.statusText(), std::string("ok"));
    QVERIFY2(rectangle.maxAbsEnergyRelError > 0.1 && rectangle.maxAbsEnergyRelError < 0.2,
             std::to_string(rectangle.maxAbsEnergyRelError).c_str());
    QVERIFY2(rectangle.warning.starts_with("energy error max |dE/E0| = 0.15 is beyond 0.05") &&
                 rectangle.warning.ends_with("for long runs use variational-midpoint"),
             rectangle.warning.c_str());
    const json::Value summary = io::summaryToJson(rectangle);
    QCOMPARE(summary.find("status")->asString(), std::string("ok"));
    QCOMPARE(summary.find("warning")->asString(), rectangle.warning);
    QVERIFY(io::summaryLine(rectangle).ends_with(": ok (warning: " + rectangle.warning + ")"));

    scenario.integrator.name = "variational-midpoint";
    const io::RunSummary midpoint = runScenario(scenario, 20000);
    QVERIFY(midpoint.ok() && midpoint.warning.empty() && midpoint.maxAbsEnergyRelError < 1e-4);
    QCOMPARE(io::summaryToJson(midpoint).find("warning")->asString(), std::string());
    QVERIFY(io::summaryLine(midpoint).ends_with(": ok"));
  }

  // Energy removed on purpose is no error: E + dissipated is what is compared with the bound.
  void dissipatedEnergyIsPartOfTheBalance() {
    Scenario scenario;
    scenario.system = "particle-floor";
    scenario.integrator.name = "variational";
    io::RunOptions options;
    options.steps = 1000;
    LeakingSimulation restituting(1000, true);
    const io::RunSummary kept = io::runSimulation(restituting, scenario, options);
    QVERIFY(kept.ok());
    QCOMPARE(kept.maxAbsEnergyRelError, 0.5);  // E itself fell by half: the trace says so
    QVERIFY2(kept.warning.empty(), kept.warning.c_str());
    LeakingSimulation leaking(1000, false);
    const io::RunSummary lost = io::runSimulation(leaking, scenario, options);
    QVERIFY2(lost.warning.starts_with("energy error max |dE/E0| = 0.5 is beyond 0.05"),
             lost.warning.c_str());
  }
};

QTEST_GUILESS_MAIN(TestIoEnergyCheck)
#include "test_io_energy_check.moc"
