// The window's run status says when a run's energy error passed its integrator's bound (the
// CLI's summary warning, core/io/energy_check.hpp): P000's rectangle scheme at h = 0.01 creeps
// past 0.05 within two simulated seconds; the state reads "..., energy warning" with the warning
// in its tooltip and a status message once; the midpoint scheme on the same data has none.

#include "test_gui_support.hpp"

#include "core/io/energy_check.hpp"
#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"

#include <QStatusBar>
#include <QTemporaryDir>

using namespace guitest;

class TestGuiEnergyWarning : public QObject {
  Q_OBJECT

 private slots:
  void theRunStatusCarriesTheWarning() {
    QTemporaryDir dir;
    ricochet::Scenario scenario =
        ricochet::defaultScenario(*ricochet::findSystem("pendulum-cylinder"));
    scenario.integrator.name = "variational";
    scenario.integrator.h = 0.01;
    scenario.tEnd = 20.0;
    const QString creeping = dir.filePath(QStringLiteral("creeping.json"));
    QVERIFY(ricochet::io::saveScenario(creeping.toStdString(), scenario).empty());
    scenario.integrator.name = "variational-midpoint";
    const QString midpoint = dir.filePath(QStringLiteral("midpoint.json"));
    QVERIFY(ricochet::io::saveScenario(midpoint.toStdString(), scenario).empty());

    ricochet::app::MainWindowOptions options;
    options.systemId = QStringLiteral("particle-floor");
    options.restoreSettings = false;
    MainWindow w(std::move(options));
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.speedCombo()->setCurrentIndex(w.speedCombo()->findText(QStringLiteral("10\u00d7")));
    QString error;
    QVERIFY2(w.openScenarioFile(creeping, &error), qPrintable(error));
    QLabel* state = w.statusField(QStringLiteral("state"));
    QVERIFY2(
        waitFor([&] { return state->text().endsWith(QStringLiteral(", energy warning")); }, 30000),
        qPrintable(state->text()));
    QVERIFY2(
        state->toolTip().startsWith(QStringLiteral("energy error max |dE/E0| = ")) &&
            state->toolTip().endsWith(QStringLiteral("for long runs use variational-midpoint")),
        qPrintable(state->toolTip()));
    QVERIFY2(
        w.statusBar()->currentMessage().startsWith(QStringLiteral("Energy warning: energy error")),
        qPrintable(w.statusBar()->currentMessage()));

    QVERIFY2(w.openScenarioFile(midpoint, &error), qPrintable(error));
    QVERIFY(waitFor(
        [&] { return w.currentRun()->scenario.integrator.name == "variational-midpoint"; }));
    QVERIFY(waitFor(
        [&] {
          const auto s = w.lastSnapshot();
          return s && s->generation == w.currentRun()->generation && s->t > 3.0;
        },
        30000));
    QVERIFY2(!state->text().contains(QStringLiteral("warning")), qPrintable(state->text()));
    QCOMPARE(state->toolTip(), QStringLiteral("Run state"));
  }
};

int main(int argc, char** argv) {
  return runSuite<TestGuiEnergyWarning>(argc, argv, "test_gui_energy_warning");
}
#include "test_gui_energy_warning.moc"
