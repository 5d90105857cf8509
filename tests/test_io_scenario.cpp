// core/io/scenario_io: scenario files round-trip exactly for every registered system, missing
// optional keys take the system's defaults, and every malformed file is rejected with one line that
// names the key. Saving is atomic.

#include "core/io/json.hpp"
#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ricochet;

namespace {

std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeAll(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

int filesIn(const std::filesystem::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

/// A parameter of `specs` with a finite lower bound, or nullptr.
const ParameterSpec* boundedBelow(const std::vector<ParameterSpec>& specs) {
  for (const ParameterSpec& p : specs) {
    if (std::isfinite(p.min)) return &p;
  }
  return nullptr;
}

/// A valid value different from the default (so the round trip exercises non-default numbers).
double perturbed(const ParameterSpec& p) {
  const double candidates[] = {p.defaultValue * (1.0 + 1.0 / 3.0), p.defaultValue + 0.1 / 3.0,
                               p.defaultValue - 0.1 / 3.0, std::nextafter(p.defaultValue, p.max),
                               std::nextafter(p.defaultValue, p.min)};
  for (double x : candidates) {
    if (x != p.defaultValue && checkValue(p, x, "parameter").empty()) return x;
  }
  return p.defaultValue;
}

}  // namespace

class TestIoScenario : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::filesystem::path path(const char* name) const { return dir_.filePath(name).toStdString(); }

  /// `text` must be rejected with one line that starts with the source and contains `needle`.
  void expectRejected(const std::string& text, const std::string& needle) {
    const io::ScenarioResult r = io::parseScenario(text, "scenario.json");
    QVERIFY2(!r.ok(), ("accepted: " + text).c_str());
    QVERIFY2(r.error.find(needle) != std::string::npos, (r.error + "   [wanted: " + needle + "]").c_str());
    QVERIFY2(r.error.rfind("scenario.json: ", 0) == 0, r.error.c_str());
    QVERIFY2(r.error.find('\n') == std::string::npos, r.error.c_str());
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void roundTripIsExactForEveryRegisteredSystem() {
    if (systems().empty()) QSKIP("no system registered yet");
    for (const SystemDescription* system : systems()) {
      const SystemInfo& info = system->info();
      for (int variant = 0; variant < 2; ++variant) {
        Scenario s = defaultScenario(*system);
        if (variant == 1) {  // every number changed to a valid non-default, non-short value
          for (std::size_t i = 0; i < s.parameters.size(); ++i) s.parameters[i] = perturbed(info.parameters[i]);
          for (std::size_t i = 0; i < s.initial.size(); ++i) s.initial[i] = perturbed(info.initial[i]);
          s.integrator.h = s.integrator.h / 3.0;
          s.integrator.tolerance = s.integrator.tolerance * (1.0 + 1.0 / 7.0);
          s.tEnd = s.tEnd / 7.0;
          s.integrator.name = info.integrators.back().name;
        }
        QVERIFY2(validateScenario(s).empty(), validateScenario(s).c_str());
        const auto file = path("roundtrip.json");
        const std::string e = io::saveScenario(file, s);
        QVERIFY2(e.empty(), e.c_str());
        const io::ScenarioResult back = io::loadScenario(file);
        QVERIFY2(back.ok(), back.error.c_str());
        QVERIFY2(io::sameScenario(*back.scenario, s), info.id.c_str());
        // Saving the loaded scenario again gives the same bytes (stable key order and numbers).
        QCOMPARE(io::scenarioToText(*back.scenario), readAll(file));
      }
    }
  }

  void savedFileFollowsTheContract() {
    if (systems().empty()) QSKIP("no system registered yet");
    const SystemDescription* system = systems().front();
    const Scenario s = defaultScenario(*system);
    const json::ParseResult doc = json::parse(io::scenarioToText(s));
    QVERIFY(doc.ok());
    const json::Object& o = doc.value->asObject();
    const char* keys[] = {"format", "version", "system", "parameters", "initial", "integrator", "t_end"};
    QCOMPARE(o.size(), std::size(keys));
    for (std::size_t i = 0; i < o.size(); ++i) QCOMPARE(o[i].first, std::string(keys[i]));
    QCOMPARE(doc.value->find("format")->asString(), std::string("ricochet-scenario"));
    QCOMPARE(doc.value->find("version")->asNumber(), 1.0);
    QCOMPARE(doc.value->find("system")->asString(), system->info().id);
    const json::Object& params = doc.value->find("parameters")->asObject();
    QCOMPARE(params.size(), system->info().parameters.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
      QCOMPARE(params[i].first, system->info().parameters[i].name);  // spec order
      QCOMPARE(params[i].second.asNumber(), system->info().parameters[i].defaultValue);
    }
    QCOMPARE(doc.value->find("initial")->asObject().size(), system->info().initial.size());
    const json::Value* in = doc.value->find("integrator");
    QCOMPARE(in->find("name")->asString(), system->info().integrators.front().name);
    QCOMPARE(in->find("h")->asNumber(), system->info().defaultH);
    QCOMPARE(in->find("tolerance")->asNumber(), system->info().defaultTolerance);
    QCOMPARE(doc.value->find("t_end")->asNumber(), system->info().defaultTEnd);
  }

  void missingOptionalKeysTakeTheDefaults() {
    if (systems().empty()) QSKIP("no system registered yet");
    for (const SystemDescription* system : systems()) {
      const SystemInfo& info = system->info();
      const std::string head = "{\"format\": \"ricochet-scenario\", \"version\": 1, \"system\": \"" + info.id + "\"";
      const io::ScenarioResult minimal = io::parseScenario(head + "}", "min.json");
      QVERIFY2(minimal.ok(), minimal.error.c_str());
      QVERIFY(io::sameScenario(*minimal.scenario, defaultScenario(*system)));
      // A subset: one parameter, one initial condition, only h; everything else stays default.
      // (A world of several bodies has no initial conditions: its bodies carry them.)
      const ParameterSpec& p = info.parameters.front();
      const bool hasInitial = !info.initial.empty();
      const double pv = perturbed(p), qv = hasInitial ? perturbed(info.initial.front()) : 0.0;
      const std::string initial =
          hasInitial ? "\"initial\": {\"" + info.initial.front().name + "\": " + formatNumber(qv) + "}, " : "";
      const std::string text = head + ", \"parameters\": {\"" + p.name + "\": " + formatNumber(pv) +
                               "}, " + initial + "\"integrator\": {\"h\": 0.005}}";
      const io::ScenarioResult subset = io::parseScenario(text, "subset.json");
      QVERIFY2(subset.ok(), subset.error.c_str());
      Scenario expected = defaultScenario(*system);
      expected.parameters.front() = pv;
      if (hasInitial) expected.initial.front() = qv;
      expected.integrator.h = 0.005;
      QVERIFY(io::sameScenario(*subset.scenario, expected));
    }
  }

  // A world of several bodies: every field of an entry, the ground switch, the box and walls and
  // the pair coefficients survive a save and a load bit for bit, and bad entries name their key.
  void bodiesScenarioRoundTripsAndRefusesBadEntries() {
    const std::string head = R"({"format": "ricochet-scenario", "version": 1, "system": "bodies", )";
    const std::string text = head + R"("parameters": {"g": 9.80665, "restitution": 0.875},
      "world": {"ground": false, "box": {"size": [6, 5, 4]}, "walls": [{"point": [0, 0, -3], "normal": [0, 0, 1]}]},
      "bodies": [
        {"name": "cue", "body": {"shape": "sphere", "radius": 0.5}, "m": 1.25, "position": [-2, 0, 0.1],
         "velocity": [1, 0.2, 0], "rotation": [0.1, 0, 0], "angular_velocity": [0, 0, 3]},
        {"name": "die", "body": {"shape": "box", "size": [1, 1, 1], "epsilon": 0.08, "density": 1100},
         "position": [1, 1, 0], "angular_momentum": [0.5, -0.25, 0.125]},
        {"name": "post", "fixed": true, "body": {"shape": "ellipsoid", "axes": [0.2, 0.2, 1]}, "position": [2, -1.5, 0]}],
      "restitution": {"cue|die": 0.5, "die|box.-x": 0.25}, "t_end": 3})";
    const io::ScenarioResult r = io::parseScenario(text, "bodies.json");
    QVERIFY2(r.ok(), r.error.c_str());
    const BodyScenario& b = *r.scenario->body;
    QVERIFY(!b.ground);
    QCOMPARE(b.bodies.size(), std::size_t(3));
    QCOMPARE(b.bodies[0].mass, 1.25);
    QVERIFY(b.bodies[0].angularVelocity && b.bodies[0].angularVelocity->z() == 3.0);
    QCOMPARE(*b.bodies[1].density, 1100.0);
    QCOMPARE(b.bodies[1].angularMomentum.y(), -0.25);
    QVERIFY(b.bodies[2].fixed);
    QCOMPARE(b.restitution.size(), std::size_t(2));
    QCOMPARE(b.restitution[1].second, std::string("box.-x"));
    QCOMPARE(b.restitution[1].e, 0.25);
    QCOMPARE(b.world.box->height, 4.0);
    QVERIFY2(createSimulation(*r.scenario).simulation, createSimulation(*r.scenario).error.c_str());
    const auto file = path("bodies.json");
    QVERIFY(io::saveScenario(file, *r.scenario).empty());
    const io::ScenarioResult back = io::loadScenario(file);
    QVERIFY2(back.ok(), back.error.c_str());
    QVERIFY(io::sameScenario(*back.scenario, *r.scenario));
    QCOMPARE(io::scenarioToText(*back.scenario), readAll(file));
    // "bodies" without "world": the ground is there (a world written out says "ground").
    const io::ScenarioResult grounded = io::parseScenario(
        head + R"("bodies": [{"body": {"shape": "sphere", "radius": 0.5}, "position": [0, 0, 1]}]})", "g.json");
    QVERIFY2(grounded.ok(), grounded.error.c_str());
    QVERIFY(grounded.scenario->body->ground);
    QCOMPARE(grounded.scenario->body->bodies.front().mass, 1.0);

    const std::string one = R"({"body": {"shape": "sphere", "radius": 0.5}})";
    expectRejected(head + R"("bodies": []})", "\"bodies\" must be a non-empty array of bodies, not an empty array");
    expectRejected(head + R"("bodies": [{"position": [0, 0, 1]}]})", "missing key \"bodies[0].body\"");
    expectRejected(head + R"("bodies": [{"body": {"shape": "sphere", "radius": 0.5}, "m": -2}]})",
                   "\"bodies[0].m\" = -2 must be > 0 kg");
    expectRejected(head + R"("bodies": [{"body": {"shape": "sphere", "radius": 0.5}, "colour": 1}]})",
                   "unknown key \"bodies[0].colour\"");
    expectRejected(head + R"("bodies": [{"body": {"shape": "sphere", "radius": 0.5}, "position": [0, 1]}]})",
                   "\"bodies[0].position\" must be an array of 3 numbers (it has 2)");
    expectRejected(head + R"("bodies": [{"body": {"shape": "sphere", "radius": 0.5}, "angular_momentum": [0, 0, 1], "angular_velocity": [0, 0, 1]}]})",
                   "give one of the two");
    expectRejected(head + R"("bodies": [)" + one + R"(], "restitution": {"b0": 0.5}})",
                   "\"restitution.b0\": a pair is two names joined by '|'");
    expectRejected(head + R"("bodies": [)" + one + R"(], "restitution": {"b0|plane": 1.5}})",
                   "\"restitution.b0|plane\" = 1.5 must be in [0, 1]");
    expectRejected(head + R"("world": {"ground": 0}})", "\"world.ground\" must be true or false, not a number");
    expectRejected(head + R"("body": {"shape": "sphere", "radius": 0.5}})", "takes a \"bodies\" list");
    expectRejected(R"({"format": "ricochet-scenario", "version": 1, "system": "rigid-body", "bodies": []})",
                   "'rigid-body' takes no list of bodies");
    expectRejected(R"({"format": "ricochet-scenario", "version": 1, "system": "rigid-body", "world": {"ground": false}})",
                   "unknown key \"world.ground\"");
  }

  // `--set NAME.FIELD=VALUE` reaches one body of the default world (lower and upper), copying the
  // world (scenarios share it) and naming what is wrong.
  void setAddressesOneBodyByName() {
    Scenario s = defaultScenario(*findSystem("bodies"));
    const auto before = s.body;
    QVERIFY(io::setScenarioValue(s, "lower.vx0", 2.5).empty());
    QVERIFY(io::setScenarioValue(s, "upper.m", 7.0).empty());
    QVERIFY(io::setScenarioValue(s, "upper.wz0", 3.0).empty());
    QVERIFY(io::setScenarioValue(s, "restitution", 0.5).empty());
    QCOMPARE(s.body->bodies[0].velocity.x(), 2.5);
    QCOMPARE(s.body->bodies[1].mass, 7.0);
    QCOMPARE(s.body->bodies[1].angularVelocity->z(), 3.0);
    QCOMPARE(before->bodies[0].velocity.x(), 0.0);  // the shared default is untouched
    QCOMPARE(QString::fromStdString(io::setScenarioValue(s, "lower.colour", 1.0)).left(40),
             QStringLiteral("unknown field 'colour' of body 'lower' ("));
    QCOMPARE(QString::fromStdString(io::setScenarioValue(s, "nobody.m", 1.0)),
             QStringLiteral("no body named 'nobody' (bodies: lower, upper)"));
    QCOMPARE(QString::fromStdString(io::setScenarioValue(s, "lower.m", -1.0)),
             QStringLiteral("'lower.m' = -1 must be > 0 kg"));
    QCOMPARE(QString::fromStdString(io::setScenarioValue(s, "upper.Pi1_0", 1.0)),
             QStringLiteral("'upper.Pi1_0': body 'upper' gives its angular velocity: set wx0, wy0, wz0 instead"));
  }

  void malformedScenariosNameTheKey() {
    // Independent of the registry.
    expectRejected("[]", "a scenario must be a JSON object, not an array");
    expectRejected("{\"version\": 1, \"system\": \"particle-floor\"}", "missing key \"format\"");
    expectRejected("{\"format\": 5, \"version\": 1}", "\"format\" must be a string, not a number");
    expectRejected("{\"format\": \"other\", \"version\": 1}", "\"format\" = \"other\" is not \"ricochet-scenario\"");
    expectRejected("{\"format\": \"ricochet-scenario\"}", "missing key \"version\"");
    expectRejected("{\"format\": \"ricochet-scenario\", \"version\": \"1\"}", "\"version\" must be a number, not a string");
    expectRejected("{\"format\": \"ricochet-scenario\", \"version\": 2}", "\"version\" = 2 is not supported");
    expectRejected("{\"format\": \"ricochet-scenario\", \"version\": 1}", "missing key \"system\"");
    expectRejected("{\"format\": \"ricochet-scenario\", \"version\": 1, \"system\": 3}", "\"system\" must be a string");
    expectRejected("{\"format\": \"ricochet-scenario\", \"version\": 1, \"system\": \"no-such\"}",
                   "\"system\" = \"no-such\" is not a known system id");
    expectRejected("{\"format\": \"ricochet-scenario\", \"version\": 1, \"colour\": \"red\"}", "unknown key \"colour\"");
    // JSON-level errors carry the position and the key path.
    expectRejected("{\"format\": \"ricochet-scenario\", \"format\": \"ricochet-scenario\"}",
                   "line 1, column 33: duplicate key \"format\"");
    expectRejected("{\"format\": \"ricochet-scenario\", \"version\": 1,", "unexpected end of input");
    expectRejected("", "unexpected end of input");
    expectRejected("{\"t_end\": NaN}", "numbers must be finite (at \"t_end\")");

    if (systems().empty()) QSKIP("no system registered yet: system-specific cases not run");
    const SystemInfo& info = systems().front()->info();
    const std::string head = "{\"format\": \"ricochet-scenario\", \"version\": 1, \"system\": \"" + info.id + "\", ";
    const std::string p = info.parameters.front().name;
    const std::string q = info.initial.front().name;
    expectRejected(head + "\"parameters\": [1]}", "\"parameters\" must be an object, not an array");
    expectRejected(head + "\"parameters\": {\"zz_unknown\": 1}}", "unknown key \"parameters.zz_unknown\"");
    expectRejected(head + "\"parameters\": {\"" + p + "\": \"1\"}}",
                   "\"parameters." + p + "\" must be a number, not a string");
    expectRejected(head + "\"parameters\": {\"" + p + "\": null}}", "\"parameters." + p + "\" must be a number, not null");
    expectRejected(head + "\"parameters\": {\"" + p + "\": 1e999}}",
                   "out of the range of a double (at \"parameters." + p + "\")");
    expectRejected(head + "\"parameters\": {\"" + p + "\": NaN}}", "(at \"parameters." + p + "\")");
    expectRejected(head + "\"parameters\": {\"" + p + "\": 1e300}}",
                   "\"parameters." + p + "\" = 1e+300 is too large: |value| must be <= 1e+15");
    expectRejected(head + "\"parameters\": {\"" + p + "\": 1, \"" + p + "\": 2}}", "duplicate key \"" + p + "\"");
    expectRejected(head + "\"initial\": {\"zz_unknown\": 1}}", "unknown key \"initial.zz_unknown\"");
    expectRejected(head + "\"initial\": {\"" + q + "\": -1e16}}", "\"initial." + q + "\" = -1e+16 is too large");
    // An integer literal is a number like any other: the same bound applies.
    expectRejected(head + "\"initial\": {\"" + q + "\": 2000000000000000}}",
                   "\"initial." + q + "\" = 2e+15 is too large: |value| must be <= 1e+15");
    expectRejected(head + "\"initial\": {\"" + q + "\": true}}", "\"initial." + q + "\" must be a number, not a boolean");
    if (const ParameterSpec* b = boundedBelow(info.parameters)) {
      const double below = b->min - 1.0;
      // e.g. "parameters.m" = -1 is out of range: must be > 0 kg
      expectRejected(head + "\"parameters\": {\"" + b->name + "\": " + formatNumber(below) + "}}",
                     "\"parameters." + b->name + "\" = " + formatNumber(below) + " is out of range: must be");
    }
    expectRejected(head + "\"integrator\": 1}", "\"integrator\" must be an object, not a number");
    expectRejected(head + "\"integrator\": {\"order\": 2}}", "unknown key \"integrator.order\"");
    expectRejected(head + "\"integrator\": {\"name\": \"magic\"}}", "\"integrator.name\": unknown integrator 'magic'");
    expectRejected(head + "\"integrator\": {\"name\": 1}}", "\"integrator.name\" must be a string");
    expectRejected(head + "\"integrator\": {\"h\": 0}}", "\"integrator.h\": time step h = 0 is invalid");
    expectRejected(head + "\"integrator\": {\"h\": -0.01}}", "\"integrator.h\": time step h = -0.01 is invalid");
    expectRejected(head + "\"integrator\": {\"tolerance\": 0}}", "\"integrator.tolerance\": tolerance = 0 is invalid");
    expectRejected(head + "\"integrator\": {\"tolerance\": 2}}", "\"integrator.tolerance\": tolerance = 2 is invalid");
    expectRejected(head + "\"t_end\": 0}", "\"t_end\": t_end = 0 is invalid");
    expectRejected(head + "\"t_end\": \"10\"}", "\"t_end\" must be a number, not a string");
    // The position points at the offending value.
    const io::ScenarioResult r = io::parseScenario(head + "\n  \"t_end\": -5}", "scenario.json");
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("line 2, column 12: \"t_end\"") != std::string::npos, r.error.c_str());
  }

  void loadRejectsUnreadableFiles() {
    const io::ScenarioResult missing = io::loadScenario(path("does-not-exist.json"));
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error.find("does-not-exist.json: no such file") != std::string::npos, missing.error.c_str());
    const auto big = path("big.json");
    writeAll(big, "{\"format\": \"ricochet-scenario\"," + std::string(json::kMaxFileBytes, ' ') + "}");
    const io::ScenarioResult tooBig = io::loadScenario(big);
    QVERIFY(!tooBig.ok());
    QVERIFY2(tooBig.error.find("larger than 1048576 bytes") != std::string::npos, tooBig.error.c_str());
    const auto truncated = path("truncated.json");
    writeAll(truncated, "{\"format\": \"ricochet-scenario\", \"vers");
    const io::ScenarioResult t = io::loadScenario(truncated);
    QVERIFY(!t.ok());
    QVERIFY2(t.error.rfind(truncated.string() + ": line 1, column 33: unterminated string", 0) == 0, t.error.c_str());
  }

  void saveIsAtomic() {
    if (systems().empty()) QSKIP("no system registered yet");
    QTemporaryDir d;
    const std::filesystem::path dir = d.path().toStdString();
    const auto file = dir / "s.json";
    Scenario s = defaultScenario(*systems().front());
    QVERIFY(io::saveScenario(file, s).empty());
    const std::string first = readAll(file);
    QCOMPARE(filesIn(dir), 1);  // no temporary file left behind
    // Overwrite with a different scenario: the file is replaced as a whole.
    s.tEnd = 1.25;
    QVERIFY(io::saveScenario(file, s).empty());
    QCOMPARE(filesIn(dir), 1);
    QVERIFY(readAll(file) != first);
    QCOMPARE(io::loadScenario(file).scenario->tEnd, 1.25);
    // An invalid scenario is refused and the existing file is untouched.
    const std::string before = readAll(file);
    Scenario bad = s;
    bad.integrator.h = -1.0;
    const std::string e = io::saveScenario(file, bad);
    QVERIFY2(e.find("not saved: time step h = -1") != std::string::npos, e.c_str());
    QCOMPARE(readAll(file), before);
    // A missing directory is reported, and nothing is created.
    const std::string e2 = io::saveScenario(dir / "no-dir" / "s.json", s);
    QVERIFY2(e2.find("does not exist") != std::string::npos, e2.c_str());
    QCOMPARE(filesIn(dir), 1);
  }

  void setValueByName() {
    if (systems().empty()) QSKIP("no system registered yet");
    const SystemInfo& info = systems().front()->info();
    Scenario s = defaultScenario(*systems().front());
    const std::string p = info.parameters.front().name, q = info.initial.back().name;
    QVERIFY(io::setScenarioValue(s, p, 0.75).empty());
    QCOMPARE(s.parameters.front(), 0.75);
    QVERIFY(io::setScenarioValue(s, q, -0.25).empty());
    QCOMPARE(s.initial.back(), -0.25);
    QVERIFY(io::setScenarioValue(s, "initial." + q, 0.5).empty());
    QCOMPARE(s.initial.back(), 0.5);
    QVERIFY(!io::setScenarioValue(s, "initial." + p, 1.0).empty() || indexOf(info.initial, p).has_value());
    const std::string unknown = io::setScenarioValue(s, "zz_unknown", 1.0);
    QVERIFY2(unknown.find("unknown parameter 'zz_unknown' for " + info.id) != std::string::npos, unknown.c_str());
    const std::string huge = io::setScenarioValue(s, p, 1e200);
    QVERIFY2(huge.find("'" + p + "' = 1e+200 is too large") != std::string::npos, huge.c_str());
    // NaN is accepted here and named by validateScenario, like every other range check.
    QVERIFY(io::setScenarioValue(s, p, std::nan("")).empty());
    QVERIFY2(validateScenario(s).find("'" + p + "' = nan is not a finite number") != std::string::npos,
             validateScenario(s).c_str());
  }
};

QTEST_APPLESS_MAIN(TestIoScenario)
#include "test_io_scenario.moc"
