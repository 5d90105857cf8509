// The paper presets (resources/presets): every file loads, validates, runs and is canonical; the
// index (README.md there) lists exactly the files; every system's paper defaults are a preset;
// the notable runs reproduce what the index says (spec test ids in each check); and
// make_presets.sh regenerates the files byte for byte through `ricochet-cli scenario`.

#include "core/io/json.hpp"
#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"

#include <QtTest>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace ricochet;

namespace {

const QString kPresetDir = QStringLiteral(RICOCHET_SOURCE_DIR "/resources/presets");

QStringList presetFiles() {
  return QDir(kPresetDir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
}

std::string readAll(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll().toStdString();
}

Scenario load(const QString& name) {
  io::ScenarioResult r = io::loadScenario((kPresetDir + "/" + name).toStdString());
  if (!r.ok()) qFatal("%s", r.error.c_str());
  return *r.scenario;
}

struct Outcome {
  std::int64_t steps = 0;
  std::int64_t impacts = 0;
  std::vector<double> impactTimes;
  double maxAbsEnergyError = 0.0;  ///< |E - E0| over every step, J
  bool ok = false;
  std::string message;
};

class Times final : public ImpactSink {
 public:
  std::vector<double>* out = nullptr;
  void onImpact(const ImpactRecord& i) override { out->push_back(i.t); }
};

/// Runs a preset to its t_end (ceil(t_end/h) steps, as `run` does), step by step.
Outcome runPreset(const QString& name) {
  const Scenario s = load(name);
  CreateResult c = createSimulation(s);
  Outcome o;
  if (!c.simulation) {
    o.message = c.error;
    return o;
  }
  Simulation& sim = *c.simulation;
  const double e0 = sim.energy().total();
  const auto n = static_cast<std::int64_t>(std::ceil(s.tEnd / s.integrator.h * (1.0 - 1e-9)));
  Times sink;
  sink.out = &o.impactTimes;
  for (std::int64_t k = 0; k < n; ++k) {
    const AdvanceResult r = sim.advance(1, &sink);
    if (!r.ok()) {
      o.message = r.message;
      return o;
    }
    o.maxAbsEnergyError = std::max(o.maxAbsEnergyError, std::fabs(sim.energy().total() - e0));
  }
  o.steps = sim.step();
  o.impacts = sim.impactCount();
  o.ok = true;
  return o;
}

}  // namespace

class TestExportPresets : public QObject {
  Q_OBJECT
 private slots:
  void everyPresetLoadsValidatesRunsAndIsCanonical() {
    const QStringList files = presetFiles();
    QVERIFY2(files.size() >= 20, qPrintable(QStringLiteral("only %1 presets").arg(files.size())));
    for (const QString& name : files) {
      const QString path = kPresetDir + "/" + name;
      io::ScenarioResult r = io::loadScenario(path.toStdString());
      QVERIFY2(r.ok(), r.error.c_str());
      QVERIFY2(validateScenario(*r.scenario).empty(), qPrintable(name));
      CreateResult c = createSimulation(*r.scenario);
      QVERIFY2(c.simulation, qPrintable(name + ": " + QString::fromStdString(c.error)));
      const AdvanceResult a = c.simulation->advance(100, nullptr);
      QVERIFY2(a.ok(), qPrintable(name + ": " + QString::fromStdString(a.message)));
      QVERIFY(std::isfinite(c.simulation->energy().total()));
      QCOMPARE(c.simulation->step(), std::int64_t(100));
      // Written by core/io's serializer: loading and saving gives back the same bytes.
      QVERIFY2(readAll(path) == io::scenarioToText(*r.scenario), qPrintable(name + " is not canonical"));
      // The name tells the system (NNN-<system id>-...json).
      QVERIFY2(name.mid(4).startsWith(QString::fromStdString(r.scenario->system)), qPrintable(name));
    }
  }

  void indexListsEveryFileWithItsSystem() {
    QFile f(kPresetDir + "/README.md");
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    std::map<QString, QStringList> rows;  // file -> its columns
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n')) {
      if (!line.startsWith(QStringLiteral("| `"))) continue;
      QStringList cols = line.split(QStringLiteral(" | "));
      QVERIFY2(cols.size() == 4, qPrintable(line));
      const QString file = cols[0].mid(3, cols[0].size() - 4);  // "| `name`" -> name
      QVERIFY2(!rows.count(file), qPrintable("listed twice: " + file));
      rows[file] = cols;
    }
    const QStringList files = presetFiles();
    for (const QString& name : files) {
      QVERIFY2(rows.count(name), qPrintable("README.md does not list " + name));
      const QStringList& cols = rows[name];
      QCOMPARE(cols[1], QString::fromStdString(load(name).system));
      QVERIFY2(cols[2].size() > 20, qPrintable("no description for " + name));
    }
    for (const auto& [file, cols] : rows) {
      QVERIFY2(files.contains(file), qPrintable("README.md lists a missing file " + file));
    }
  }

  void everySystemHasExactlyOnePresetWithItsPaperDefaults() {
    std::map<std::string, int> found;
    for (const QString& name : presetFiles()) {
      const Scenario s = load(name);
      if (io::sameScenario(s, defaultScenario(*findSystem(s.system)))) ++found[s.system];
    }
    for (const SystemDescription* system : systems()) {
      QVERIFY2(found[system->info().id] == 1,
               qPrintable(QStringLiteral("%1 paper-default presets for %2")
                              .arg(found[system->info().id])
                              .arg(QString::fromStdString(system->info().id))));
    }
  }

  // The runs the index describes reproduce the acceptance numbers (docs/acceptance.md), so the
  // descriptions stay true.
  void particle1000ImpactsA2A3A4() {
    const Outcome o = runPreset("004-particle-floor-1000-impacts.json");
    QVERIFY2(o.ok, o.message.c_str());
    QCOMPARE(o.impacts, std::int64_t(1000));
    QVERIFY2(std::fabs(o.impactTimes[999] - 903.05) <= 0.05, qPrintable(QString::number(o.impactTimes[999], 'g', 10)));
    QVERIFY2(std::fabs(o.impactTimes[0] - 0.4517539515) < 1e-9, "A1 first impact");
    // A3: max |H - E0| <= 4e-3 J over the 1000 impacts (proto 1.82e-3 J).
    QVERIFY2(o.maxAbsEnergyError <= 4e-3, qPrintable(QString::number(o.maxAbsEnergyError)));
  }

  void pendulumRunsD1D2() {
    const Outcome a = runPreset("000-pendulum-cylinder-h1e-3-5s.json");
    QVERIFY2(a.ok, a.message.c_str());
    QCOMPARE(a.impacts, std::int64_t(3));  // D1
    const double d1[] = {1.2323, 2.5475, 3.8623};
    for (int i = 0; i < 3; ++i) QVERIFY2(std::fabs(a.impactTimes[i] - d1[i]) <= 3e-3, "D1 impact times");
    const Outcome b = runPreset("000-pendulum-cylinder-h1e-4-100s.json");
    QVERIFY2(b.ok, b.message.c_str());
    QCOMPARE(b.steps, std::int64_t(1000000));
    QCOMPARE(b.impacts, std::int64_t(76));  // D2
    QVERIFY2(std::fabs(b.impactTimes[0] - 1.2326) <= 5e-4, "D2 first impact");
  }

  void diskRunsE1E2F1() {
    const Outcome e1 = runPreset("001-disk-wall-e1-orthogonal.json");
    QVERIFY2(e1.ok, e1.message.c_str());
    QCOMPARE(e1.impacts, std::int64_t(1));
    QVERIFY2(std::fabs(e1.impactTimes[0] - 9.0) <= 1e-9, "E1 impact at t = 9");
    QVERIFY2(e1.maxAbsEnergyError <= 1e-9, "E1 energy exact");
    const Outcome e2 = runPreset("001-disk-wall-e2-oblique.json");
    QVERIFY2(e2.ok, e2.message.c_str());
    QCOMPARE(e2.impacts, std::int64_t(10));
    const double e2t[] = {4.72333, 5.19651, 25.11514, 25.58832};
    for (int i = 0; i < 4; ++i) QVERIFY2(std::fabs(e2.impactTimes[i] - e2t[i]) <= 1e-3, "E2 impact times");
    const Outcome f1 = runPreset("002-disk-table-100s.json");
    QVERIFY2(f1.ok, f1.message.c_str());
    QCOMPARE(f1.impacts, std::int64_t(43));
    const double f1t[] = {2.05109, 2.59264, 6.69483, 7.23638};
    for (int i = 0; i < 4; ++i) QVERIFY2(std::fabs(f1.impactTimes[i] - f1t[i]) <= 1e-3, "F1 impact times");
  }

  void se3LongRunsInTheBandsOf84() {
    struct Band {
      const char* file;
      std::int64_t lo, hi;
    };
    for (const Band& b : {Band{"003-ellipsoid-plane-case-I-1e5-steps.json", 480, 640},
                          Band{"003-ellipsoid-tilted-case-II-1e5-steps.json", 480, 650},
                          Band{"003-ellipsoids-union-case-III-1e5-steps.json", 725, 890},
                          Band{"003-cube-plane-case-IV-1e5-steps.json", 585, 720}}) {
      const Outcome o = runPreset(b.file);
      QVERIFY2(o.ok, o.message.c_str());
      QCOMPARE(o.steps, std::int64_t(100000));
      QVERIFY2(o.impacts >= b.lo && o.impacts <= b.hi,
               qPrintable(QStringLiteral("%1: %2 impacts").arg(b.file).arg(o.impacts)));
    }
  }

  void cubeSensitivityPresetsPerturbOnlyWhatThePaperSays() {
    // 003 §7.4 item 4: x0 + (0, 0, 1e-8) and R0 R_y(pi 1e-8), everything else as case IV.
    const Scenario ref = load("003-cube-plane-case-IV.json");
    const SystemInfo& info = findSystem("cube-plane")->info();
    const auto index = [&](const char* n) { return *indexOf(info.initial, n); };
    Scenario pos = load("003-cube-plane-sensitivity-position.json");
    QCOMPARE(pos.initial[index("z0")], ref.initial[index("z0")] + 1e-8);
    pos.initial[index("z0")] = ref.initial[index("z0")];
    QVERIFY(io::sameScenario(pos, ref));
    Scenario att = load("003-cube-plane-sensitivity-attitude.json");
    QCOMPARE(att.initial[index("ry0")], M_PI * 1e-8);
    att.initial[index("ry0")] = 0.0;
    QVERIFY(io::sameScenario(att, ref));
  }

  void makePresetsScriptReproducesTheFiles() {
    const QString cli = QStringLiteral(RICOCHET_BINARY_DIR "/bin/ricochet-cli");
    QVERIFY2(QFileInfo::exists(cli), "build the ricochet-cli target first");
    QTemporaryDir out;
    QVERIFY(out.isValid());
    QProcess p;
    p.start(QStringLiteral("/bin/sh"), {kPresetDir + "/make_presets.sh", cli, out.path()});
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
    const QStringList made = QDir(out.path()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QCOMPARE(made, presetFiles());
    for (const QString& name : made) {
      QVERIFY2(readAll(out.filePath(name)) == readAll(kPresetDir + "/" + name),
               qPrintable(name + " differs from what make_presets.sh writes (run it, and update README.md)"));
    }
  }
};

QTEST_APPLESS_MAIN(TestExportPresets)
#include "test_export_presets.moc"
