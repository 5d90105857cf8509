// Registry-wide determinism (Box2D's determinism test, for every system and integrator): the
// default scenario of each system, run to its default t_end with every integrator it offers,
// writes its trace and impacts CSVs through the same driver as `ricochet-cli run`; the bytes of
// both files are hashed and compared with the pinned values below.
//
// The pins make a refactor prove that it changed nothing: any change of numbers, however small,
// changes a hash. A change that is meant to move numbers re-pins them in its own commit and says
// why there. To print the table after such a change: RICOCHET_PRINT_HASHES=1 test_determinism.
//
// The same runs are also made on 4 threads at once: the bytes must not depend on the thread
// count or on what runs beside them.

#include "core/io/scenario_io.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

using namespace ricochet;

namespace {

/// 64-bit FNV-1a of a byte string (stable across platforms and runs, no dependency).
std::uint64_t fnv1a(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Case {
  std::string system;
  std::string integrator;
  std::string name;  ///< empty for the default scenario, else what the overrides exercise
  std::vector<std::pair<std::string, double>> set;  ///< --set NAME=VALUE overrides
  double tEnd = 0.0;  ///< > 0: overrides the default t_end
  std::string key() const {
    return system + "/" + integrator + (name.empty() ? "" : "/" + name);
  }
};

struct Outcome {
  std::uint64_t trace = 0;
  std::uint64_t impacts = 0;
  std::int64_t impactCount = 0;
  std::int64_t steps = 0;
  std::string status;  ///< "ok" or the integrator's failure status
  std::string error;   ///< the run could not be made at all
};

std::vector<Case> allCases() {
  std::vector<Case> cases;
  for (const SystemDescription* s : systems()) {
    for (const IntegratorInfo& i : s->info().integrators) cases.push_back({s->info().id, i.name, {}, {}, 0.0});
  }
  // Paths the default scenarios do not take, or take rarely.
  // A disk rolling almost tangent to the rim of its table: grazing impacts (exact reflection).
  const std::vector<std::pair<std::string, double>> graze = {
      {"x0", 4.898146402194111}, {"phi0", 1.5707963267948966}, {"u0", 1.331712884789821},
      {"w0", 0.27130814913287205}};
  for (const char* integ : {"variational", "reduced", "dla-002"}) {
    cases.push_back({"disk-table", integ, "grazing", graze, 30.0});
  }
  // The star landing flat: two tips at the same instant (sequential impulses at one point).
  for (const char* integ : {"variational", "rk4-event"}) {
    cases.push_back({"star-floor", integ, "flat", {{"y0", 1.2}, {"vx0", 0.0}, {"omega0", 0.0}}, 3.0});
  }
  // The ellipse over 300 s: chaotic bouncing, several impacts per step, grazing reflections.
  cases.push_back({"ellipse-floor", "variational", "300s", {}, 300.0});
  // The cube landing flat: four corners at once, one impulse per approaching corner.
  for (const char* integ : {"variational", "variational-bisection"}) {
    cases.push_back({"cube-plane", integ, "flat",
                     {{"vx0", 0.0}, {"vy0", 0.0}, {"vz0", 0.0}, {"Pi1_0", 0.0}, {"Pi2_0", 0.0},
                      {"Pi3_0", 0.0}},
                     5.0});
  }
  // The pendulum over its paper run (first-order rectangle scheme and the midpoint one).
  for (const char* integ : {"variational", "variational-midpoint"}) {
    cases.push_back({"pendulum-cylinder", integ, "20s", {}, 20.0});
  }
  return cases;
}

Outcome runCase(const Case& c, const std::string& dir) {
  Outcome out;
  Scenario sc = defaultScenario(*findSystem(c.system));
  sc.integrator.name = c.integrator;
  for (const auto& [name, value] : c.set) {
    if (std::string e = io::setScenarioValue(sc, name, value); !e.empty()) {
      out.error = e;
      return out;
    }
  }
  if (c.tEnd > 0.0) sc.tEnd = c.tEnd;
  CreateResult created = createSimulation(sc);
  if (!created.simulation) {
    out.error = created.error;
    return out;
  }
  io::RunOptions options;
  const std::string stem = dir + "/" + c.system + "-" + c.integrator + "-" + c.name;
  options.traceCsv = stem + ".csv";
  options.impactsCsv = stem + "-impacts.csv";
  const io::RunSummary summary = io::runSimulation(*created.simulation, sc, options);
  // A failed run (dla-002 at a grazing contact has no rebound root) writes everything up to the
  // failure: those bytes are pinned as well.
  if (summary.outcome != io::RunOutcome::Completed &&
      summary.outcome != io::RunOutcome::IntegratorFailed) {
    out.error = summary.message;
    return out;
  }
  out.status = summary.statusText();
  out.trace = fnv1a(readAll(options.traceCsv.string()));
  out.impacts = fnv1a(readAll(options.impactsCsv.string()));
  out.impactCount = summary.impacts;
  out.steps = summary.steps;
  return out;
}

struct Pin {
  std::uint64_t trace;
  std::uint64_t impacts;
};

// system/integrator[/case] -> FNV-1a of the trace CSV and of the impacts CSV (every step recorded;
// the default scenario and t_end unless a case name says otherwise, see allCases()).
const std::map<std::string, Pin>& pins() {
  static const std::map<std::string, Pin> table = {
      // PINS-BEGIN
      {"particle-floor/variational", {0x2a0737313bf09007ull, 0x4ed7d3c3d16741e9ull}},  // 2000 steps, 22 impacts, ok
      {"particle-floor/rk4-event", {0xb7542d3a85979753ull, 0x8ddec98b291b0a31ull}},  // 2000 steps, 22 impacts, ok
      {"star-floor/variational", {0x53f5ad23e5e0ff7full, 0xc622133c62d6a2a8ull}},  // 6000 steps, 30 impacts, ok
      {"star-floor/rk4-event", {0xc5ff92fcd62b5e3bull, 0x253e71660fa61616ull}},  // 6000 steps, 28 impacts, ok
      {"ellipse-floor/variational", {0x64a82a9b0624ee24ull, 0x0d1a069634692c16ull}},  // 2500 steps, 24 impacts, ok
      {"ellipse-floor/rk4-event", {0xa23268f80a67b74bull, 0x8b54bb3a83568c9cull}},  // 2500 steps, 26 impacts, ok
      {"ellipse-floor/ldap", {0x4388423157659a09ull, 0x2799e4196e5d1245ull}},  // 2500 steps, 23 impacts, ok
      {"ellipse-floor/ldap-paper", {0x1436b4653e1f4e75ull, 0xcb9b09e4488ac813ull}},  // 2500 steps, 18 impacts, ok
      {"pendulum-cylinder/variational", {0xaf48ffdd633416fbull, 0x8a9d4255ff0a11daull}},  // 5000 steps, 3 impacts, ok
      {"pendulum-cylinder/variational-midpoint", {0x007e0c18293981a1ull, 0xb682a13ea9491180ull}},  // 5000 steps, 3 impacts, ok
      {"disk-wall/variational", {0xe3c42b0518765e22ull, 0x62280898cc71735full}},  // 10000 steps, 10 impacts, ok
      {"disk-wall/reduced", {0xa816a65a8078767full, 0xe72e52f46ad385dcull}},  // 10000 steps, 10 impacts, ok
      {"disk-wall/dla-002", {0xd538d3ddeaae41b4ull, 0x3673b900b3785d17ull}},  // 10000 steps, 10 impacts, ok
      {"disk-table/variational", {0x4281c87f356c8ee1ull, 0x2780b32a1938b65dull}},  // 10000 steps, 43 impacts, ok
      {"disk-table/reduced", {0xabd0a711196f8643ull, 0xfaed553db877c279ull}},  // 10000 steps, 43 impacts, ok
      {"disk-table/dla-002", {0xb383a906868967e6ull, 0x3047d25ec14489f0ull}},  // 10000 steps, 43 impacts, ok
      {"ellipsoid-plane/variational", {0xcfa22ca820d3e3e5ull, 0xcbea5e46bd1dcc50ull}},  // 3000 steps, 15 impacts, ok
      {"ellipsoid-plane/variational-bisection", {0xaaa08dbc31b4779full, 0xc9cfe0b4a004dac1ull}},  // 3000 steps, 15 impacts, ok
      {"ellipsoid-tilted/variational", {0x3534c12e383b2d16ull, 0x732e27e619c98ec7ull}},  // 3000 steps, 14 impacts, ok
      {"ellipsoid-tilted/variational-bisection", {0xa038fa14fe6c3b19ull, 0x96498d6961ddd029ull}},  // 3000 steps, 14 impacts, ok
      {"ellipsoids-union/variational", {0x15895de1f9c80b07ull, 0x3413d2c011122c07ull}},  // 3000 steps, 19 impacts, ok
      {"ellipsoids-union/variational-bisection", {0xfb9cbbb8e2466f44ull, 0xecdc71ca303b82e6ull}},  // 3000 steps, 19 impacts, ok
      {"cube-plane/variational", {0x469e4f305ed8cae7ull, 0xbfbdbbade9b9866dull}},  // 3000 steps, 16 impacts, ok
      {"cube-plane/variational-bisection", {0x7561b7856824e81bull, 0x713e8982b43f0464ull}},  // 3000 steps, 16 impacts, ok
      {"rigid-body/variational", {0xef4d48103db9c0b6ull, 0xbfbdbbade9b9866dull}},  // 3000 steps, 16 impacts, ok
      {"rigid-body/variational-bisection", {0xee3800251f571a48ull, 0x713e8982b43f0464ull}},  // 3000 steps, 16 impacts, ok
      {"disk-table/variational/grazing", {0x7a545407941812dbull, 0x30b8b11ae1abf85dull}},  // 3000 steps, 26 impacts, ok
      {"disk-table/reduced/grazing", {0xdba324b0b886cc60ull, 0xe062f03724c4b582ull}},  // 3000 steps, 26 impacts, ok
      {"disk-table/dla-002/grazing", {0x1e9d13e33e4d68f5ull, 0xb5ef7f0ac7a497f4ull}},  // 91 steps, 0 impacts, solver-failed
      {"star-floor/variational/flat", {0xcc9488e63c8e29f7ull, 0x8cf30180303839adull}},  // 600 steps, 8 impacts, ok
      {"star-floor/rk4-event/flat", {0xc0c13686e5018cdcull, 0x75c3425d0ed3f406ull}},  // 600 steps, 8 impacts, ok
      {"ellipse-floor/variational/300s", {0x74b7a08ca3ed4e3bull, 0xeaa5ec8213fe083cull}},  // 30000 steps, 296 impacts, ok
      {"cube-plane/variational/flat", {0x9926b7cdf06bbc37ull, 0x8caadca0af8382baull}},  // 500 steps, 6 impacts, ok
      {"cube-plane/variational-bisection/flat", {0xbd7b7753dbc37691ull, 0x1f3271317d394c97ull}},  // 500 steps, 6 impacts, ok
      {"pendulum-cylinder/variational/20s", {0x7cacc87f37cb56e5ull, 0x3a4d99d7363a6ae3ull}},  // 20000 steps, 15 impacts, ok
      {"pendulum-cylinder/variational-midpoint/20s", {0xbd25f3b646ac47dcull, 0xe7dae396781bb53aull}},  // 20000 steps, 15 impacts, ok
      // PINS-END
  };
  return table;
}

}  // namespace

class TestDeterminism : public QObject {
  Q_OBJECT
 private slots:
  void everySystemAndIntegratorMatchesItsPin() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const bool print = std::getenv("RICOCHET_PRINT_HASHES") != nullptr;
    int checked = 0;
    for (const Case& c : allCases()) {
      const std::string key = c.key();
      const Outcome o = runCase(c, dir.path().toStdString());
      QVERIFY2(o.error.empty(), (key + ": " + o.error).c_str());
      // Every pinned run goes through impacts (or ends in a failure), so the impact path is
      // covered by the hash too.
      QVERIFY2(o.impactCount > 0 || o.status != "ok", (key + " has no impact").c_str());
      if (print) {
        std::printf("      {\"%s\", {0x%016llxull, 0x%016llxull}},  // %lld steps, %lld impacts, %s\n",
                    key.c_str(), static_cast<unsigned long long>(o.trace),
                    static_cast<unsigned long long>(o.impacts), static_cast<long long>(o.steps),
                    static_cast<long long>(o.impactCount), o.status.c_str());
        continue;
      }
      const auto it = pins().find(key);
      QVERIFY2(it != pins().end(), (key + " has no pinned hash (print them with "
                                          "RICOCHET_PRINT_HASHES=1)").c_str());
      char got[80];
      std::snprintf(got, sizeof got, "trace %016llx impacts %016llx",
                    static_cast<unsigned long long>(o.trace),
                    static_cast<unsigned long long>(o.impacts));
      QVERIFY2(o.trace == it->second.trace && o.impacts == it->second.impacts,
               (key + ": the bytes changed (" + got + ")").c_str());
      ++checked;
    }
    if (!print) QCOMPARE(static_cast<std::size_t>(checked), pins().size());
  }

  void bytesDoNotDependOnTheThreadCount() {
    // Serial reference, then the same runs on 4 threads sharing the registry.
    const std::vector<Case> cases = allCases();
    QTemporaryDir serialDir, parallelDir;
    QVERIFY(serialDir.isValid() && parallelDir.isValid());
    std::vector<Outcome> serial, parallel(cases.size());
    for (const Case& c : cases) serial.push_back(runCase(c, serialDir.path().toStdString()));
    std::vector<std::thread> workers;
    const std::size_t threads = 4;
    for (std::size_t w = 0; w < threads; ++w) {
      workers.emplace_back([&, w] {
        for (std::size_t i = w; i < cases.size(); i += threads) {
          parallel[i] = runCase(cases[i], parallelDir.path().toStdString());
        }
      });
    }
    for (std::thread& t : workers) t.join();
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const std::string key = cases[i].key();
      QVERIFY2(serial[i].error.empty() && parallel[i].error.empty(), key.c_str());
      QVERIFY2(serial[i].trace == parallel[i].trace, (key + ": trace differs across threads").c_str());
      QVERIFY2(serial[i].impacts == parallel[i].impacts,
               (key + ": impacts differ across threads").c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestDeterminism)
#include "test_determinism.moc"
