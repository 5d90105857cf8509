// The core model: parameter specs and their checks, the shared root finder, the registry
// invariants every system must satisfy, and the layering rule (core/ has no Qt or VTK).

#include "core/model/registry.hpp"
#include "core/numerics/roots.hpp"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

using namespace ricochet;

class TestModel : public QObject {
  Q_OBJECT
 private slots:
  void checkValueNamesTheValue() {
    ParameterSpec m{"m", "kg", 1.0, 0.0, kUnbounded, true, false, "mass"};
    QVERIFY(checkValue(m, 1.0, "parameter").empty());
    const std::string neg = checkValue(m, -1.0, "parameter");
    QCOMPARE(QString::fromStdString(neg),
             QStringLiteral("parameter 'm' = -1 is out of range: must be > 0 kg"));
    QVERIFY(!checkValue(m, 0.0, "parameter").empty());  // exclusive bound
    const std::string nan = checkValue(m, std::nan(""), "parameter");
    QCOMPARE(QString::fromStdString(nan), QStringLiteral("parameter 'm' = nan is not a finite number"));
    ParameterSpec a{"alpha", "", 0.5, 0.0, 1.0, false, false, ""};
    QCOMPARE(QString::fromStdString(checkValue(a, 2.0, "initial condition")),
             QStringLiteral("initial condition 'alpha' = 2 is out of range: must be in [0, 1]"));
    QVERIFY(checkValue(a, 1.0, "initial condition").empty());
  }

  void namedParametersMatchTheSpecLists() {
    // A NameList's index is the position in its list (compile time), and the registry's check
    // (compareNames) reports where a spec list and the names the code reads differ.
    constexpr NameList k{"m", "g", "L"};
    static_assert(k("m") == 0 && k("L") == 2);
    auto spec = [](const char* name) {
      ParameterSpec p;
      p.name = name;
      return p;
    };
    const std::vector<ParameterSpec> specs = {spec("m"), spec("L"), spec("g")};
    QCOMPARE(QString::fromStdString(compareNames(specs, k.view())),
             QStringLiteral("entry 1 is 'L' in the spec list but 'g' where the code reads it"));
    QCOMPARE(QString::fromStdString(compareNames(std::span(specs).first(2), k.view())),
             QStringLiteral("entry 1 is 'L' in the spec list but 'g' where the code reads it"));
    const std::vector<ParameterSpec> same = {spec("m"), spec("g"), spec("L")};
    QVERIFY(compareNames(same, k.view()).empty());
    QCOMPARE(QString::fromStdString(compareNames(std::span(same).first(2), k.view())),
             QStringLiteral("entry 2 is '(none)' in the spec list but 'L' where the code reads it"));
    // Every registered system reads exactly its spec lists, and every integrator has a factory
    // (the registry aborts otherwise; here it is visible as a test).
    for (const SystemDescription* sys : systems()) {
      QVERIFY(compareNames(sys->info().parameters, sys->parameterNames()).empty());
      QVERIFY(compareNames(sys->info().initial, sys->initialNames()).empty());
      QCOMPARE(sys->parameterNames().size(), sys->info().parameters.size());
      for (const IntegratorInfo& i : sys->info().integrators) QVERIFY(static_cast<bool>(i.create));
    }
  }

  void formatNumberRoundTrips() {
    for (double v : {0.1, -2.0, 1e-15, 0.4517539515, 38.188021, 1.0 / 3.0}) {
      const std::string s = formatNumber(v);
      QCOMPARE(std::stod(s), v);
    }
    QCOMPARE(QString::fromStdString(formatNumber(0.1)), QStringLiteral("0.1"));
  }

  void brentFindsBracketedRoots() {
    // Parabola of a falling particle: y(s) = 1 - 0.5*9.8*s^2, root sqrt(2/9.8) = 0.4517539515...
    auto y = [](double s) { return 1.0 - 0.5 * 9.8 * s * s; };
    RootResult r = brentRoot(y, 0.0, 1.0, y(0.0), y(1.0), 1e-15, 1e-15);
    QVERIFY(r.converged);
    QVERIFY(std::fabs(r.x - std::sqrt(2.0 / 9.8)) < 1e-14);
    QVERIFY(r.iterations < 20);
    // Not a bracket: reported, not looped.
    RootResult bad = brentRoot(y, 0.0, 0.1, y(0.0), y(0.1), 1e-15, 1e-15);
    QVERIFY(!bad.converged);
    // Flat-ish function with a root at an end point of the tolerance scale.
    auto cubic = [](double s) { return (s - 0.3) * (s - 0.3) * (s - 0.3); };
    RootResult c = brentRoot(cubic, 0.0, 1.0, cubic(0.0), cubic(1.0), 1e-13, 0.0);
    QVERIFY(c.converged);
    QVERIFY(std::fabs(c.x - 0.3) < 1e-12);
  }

  void registryInvariantsHoldForEverySystem() {
    // Ids are the contract's, in its order, and unique.
    const std::vector<std::string> contract = {
        "particle-floor", "star-floor",      "ellipse-floor",    "pendulum-cylinder",
        "disk-wall",      "disk-table",      "ellipsoid-plane",  "ellipsoid-tilted",
        "ellipsoids-union", "cube-plane",      "rigid-body",       "bodies"};
    std::size_t next = 0;
    std::set<std::string> seen;
    for (const SystemDescription* s : systems()) {
      const SystemInfo& info = s->info();
      QVERIFY2(seen.insert(info.id).second, info.id.c_str());
      while (next < contract.size() && contract[next] != info.id) ++next;
      QVERIFY2(next < contract.size(), ("id not in contract order: " + info.id).c_str());
      QCOMPARE(findSystem(info.id), s);
      QVERIFY(!info.title.empty() && !info.source.empty() && !info.integrators.empty());
      QVERIFY(!info.constraints.empty());
      // `--set NAME=VALUE` does not say which list a name belongs to: names are unique across
      // parameters and initial conditions.
      std::set<std::string> names;
      for (const auto& p : info.parameters) QVERIFY2(names.insert(p.name).second, p.name.c_str());
      for (const auto& p : info.initial) QVERIFY2(names.insert(p.name).second, p.name.c_str());
      for (const auto& p : info.parameters) {
        QVERIFY2(checkValue(p, p.defaultValue, "parameter").empty(), p.name.c_str());
        QVERIFY2(!p.help.empty(), p.name.c_str());
      }
      for (const auto& p : info.initial) {
        QVERIFY2(checkValue(p, p.defaultValue, "initial condition").empty(), p.name.c_str());
        QVERIFY2(!p.help.empty(), p.name.c_str());
      }
      // The paper's defaults give a valid, admissible simulation whose columns follow the contract.
      Scenario sc = defaultScenario(*s);
      QVERIFY2(validateScenario(sc).empty(), validateScenario(sc).c_str());
      CreateResult cr = createSimulation(sc);
      QVERIFY2(cr.simulation, cr.error.c_str());
      Simulation& sim = *cr.simulation;
      QCOMPARE(sim.step(), std::int64_t(0));
      QVERIFY(sim.minGap() >= 0.0);
      QVERIFY(std::isfinite(sim.energy().total()));
      QVERIFY(!sim.columns().empty());
      // The configuration first; a world of several bodies first has its total momenta.
      QVERIFY(sim.columns().front().rfind("q.", 0) == 0 ||
              (info.id == "bodies" && sim.columns().front() == "mom.px"));
      for (const std::string& c : sim.columns()) {
        // A world of several bodies has each body's own columns too, NAME.q.x ...
        const std::regex own(info.id == "bodies" ? "([A-Za-z0-9_-]+\\.)?(q|v|p|mom|e|con)\\.[A-Za-z0-9_]+"
                                                 : "(q|v|p|mom|e|con)\\.[A-Za-z0-9_]+");
        QVERIFY2(std::regex_match(c, own), c.c_str());
      }
      SceneSpec scene = s->scene(sc.parameters);
      QVERIFY(!scene.bodies.empty());
      std::vector<Pose> poses(scene.bodies.size());
      sim.poses(poses);
      AdvanceResult ar = sim.advance(10, nullptr);
      QVERIFY2(ar.ok(), ar.message.c_str());
      QCOMPARE(ar.stepsTaken, std::int64_t(10));
      QCOMPARE(sim.step(), std::int64_t(10));
      std::vector<double> row(sim.columns().size());
      sim.sample(row);
      for (double v : row) QVERIFY(std::isfinite(v));
      // Every integrator the system offers starts from its defaults too.
      for (const IntegratorInfo& ii : info.integrators) {
        Scenario alt = sc;
        alt.integrator.name = ii.name;
        CreateResult ac = createSimulation(alt);
        QVERIFY2(ac.simulation, (info.id + "/" + ii.name + ": " + ac.error).c_str());
        QVERIFY2(ac.simulation->advance(10, nullptr).ok(), (info.id + "/" + ii.name).c_str());
      }
    }
    // All ten contract systems are registered, in the contract's order.
    QCOMPARE(systems().size(), contract.size());
    for (std::size_t i = 0; i < contract.size(); ++i) {
      QCOMPARE(QString::fromStdString(systems()[i]->info().id), QString::fromStdString(contract[i]));
    }
  }

  void invalidScenariosAreRejectedWithTheValueNamed() {
    Scenario unknown;
    unknown.system = "no-such-system";
    QVERIFY(QString::fromStdString(validateScenario(unknown)).contains("no-such-system"));
    if (systems().empty()) QSKIP("no system registered yet");
    Scenario sc = defaultScenario(*systems().front());
    Scenario h = sc;
    h.integrator.h = 0.0;
    QVERIFY(QString::fromStdString(validateScenario(h)).contains("h = 0"));
    Scenario in = sc;
    in.integrator.name = "magic";
    QVERIFY(QString::fromStdString(validateScenario(in)).contains("'magic'"));
    Scenario p = sc;
    p.parameters.at(0) = std::nan("");
    const std::string e = validateScenario(p);
    QVERIFY(QString::fromStdString(e).contains(QString::fromStdString(
        "'" + systems().front()->info().parameters.at(0).name + "'")));
    QVERIFY(!createSimulation(p).simulation);
  }

  void coreHasNoGuiDependencies() {
    // core/ is plain C++ and Eigen: no Qt, no VTK includes anywhere under it.
    const std::filesystem::path core = std::filesystem::path(RICOCHET_SOURCE_DIR) / "core";
    // (A plain string literal: moc mis-parses raw strings that contain a hash-include.)
    const std::regex forbidden("^\\s*#\\s*include\\s*[<\"](Q[A-Za-z]|qt|vtk)");
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(core)) {
      if (!entry.is_regular_file()) continue;
      const auto ext = entry.path().extension();
      if (ext != ".hpp" && ext != ".cpp" && ext != ".h") continue;
      ++files;
      std::ifstream in(entry.path());
      std::string line;
      while (std::getline(in, line)) {
        QVERIFY2(!std::regex_search(line, forbidden),
                 (entry.path().string() + ": " + line).c_str());
      }
    }
    QVERIFY(files >= 4);
    // ... and no Qt or VTK target linked or found by its CMake file (an include check alone
    // would not see a link dependency).
    std::ifstream cmake(core / "CMakeLists.txt");
    QVERIFY(cmake.good());
    const std::regex forbiddenTarget("(Qt[56]?::|VTK::|find_package\\s*\\(\\s*(Qt|VTK))",
                                     std::regex::icase);
    int lines = 0;
    for (std::string line; std::getline(cmake, line); ++lines) {
      const std::string code = line.substr(0, line.find('#'));  // comments may name them
      QVERIFY2(!std::regex_search(code, forbiddenTarget), ("core/CMakeLists.txt: " + line).c_str());
    }
    QVERIFY(lines >= 3);
  }
};

QTEST_APPLESS_MAIN(TestModel)
#include "test_model.moc"
