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
      {"ellipsoid-plane/variational", {0x71b964db54be1570ull, 0xab7f99b751744dafull}},  // 3000 steps, 15 impacts, ok
      {"ellipsoid-plane/variational-bisection", {0x8a61bff79767dd02ull, 0xc0dace017ffbb6a4ull}},  // 3000 steps, 15 impacts, ok
      {"ellipsoid-tilted/variational", {0x0f4bd9a91dc6e9b2ull, 0x7427db3db998a114ull}},  // 3000 steps, 14 impacts, ok
      {"ellipsoid-tilted/variational-bisection", {0xfe17639ac20117deull, 0x088a7644ce8a8c11ull}},  // 3000 steps, 14 impacts, ok
      {"ellipsoids-union/variational", {0x689dd03163cc45abull, 0x17408dc8bdf13e22ull}},  // 3000 steps, 19 impacts, ok
      {"ellipsoids-union/variational-bisection", {0x8706add1a41d283eull, 0x04929de216c724fdull}},  // 3000 steps, 19 impacts, ok
      {"cube-plane/variational", {0x963dd390f29f12e4ull, 0x62e77abaa0e2b12dull}},  // 3000 steps, 16 impacts, ok
      {"cube-plane/variational-bisection", {0xa8165d2e16abfd83ull, 0xd1794609d3ce3b35ull}},  // 3000 steps, 16 impacts, ok
      {"rigid-body/variational", {0x7ea034c6c8edb8c9ull, 0x62e77abaa0e2b12dull}},  // 3000 steps, 16 impacts, ok
      {"rigid-body/variational-bisection", {0x7b3f46f4a0c642acull, 0xd1794609d3ce3b35ull}},  // 3000 steps, 16 impacts, ok
      {"bodies/variational", {0xb06e8ab3b6c06e0bull, 0x9b7065dd075dee2cull}},  // 1000 steps, 24 impacts, ok
      {"bodies/variational-sequential", {0xb06e8ab3b6c06e0bull, 0x9b7065dd075dee2cull}},  // 1000 steps, 24 impacts, ok
      {"disk-table/variational/grazing", {0x7a545407941812dbull, 0x30b8b11ae1abf85dull}},  // 3000 steps, 26 impacts, ok
      {"disk-table/reduced/grazing", {0xdba324b0b886cc60ull, 0xe062f03724c4b582ull}},  // 3000 steps, 26 impacts, ok
      {"disk-table/dla-002/grazing", {0x1e9d13e33e4d68f5ull, 0xb5ef7f0ac7a497f4ull}},  // 91 steps, 0 impacts, solver-failed
      {"star-floor/variational/flat", {0xcc9488e63c8e29f7ull, 0x8cf30180303839adull}},  // 600 steps, 8 impacts, ok
      {"star-floor/rk4-event/flat", {0xc0c13686e5018cdcull, 0x75c3425d0ed3f406ull}},  // 600 steps, 8 impacts, ok
      {"ellipse-floor/variational/300s", {0x74b7a08ca3ed4e3bull, 0xeaa5ec8213fe083cull}},  // 30000 steps, 296 impacts, ok
      {"cube-plane/variational/flat", {0xe31ad931e6d58b97ull, 0x87fa85f46afa3500ull}},  // 500 steps, 4 impacts, ok
      {"cube-plane/variational-bisection/flat", {0x33b96753e082e8e6ull, 0xb683923cc5a29c94ull}},  // 500 steps, 4 impacts, ok
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
