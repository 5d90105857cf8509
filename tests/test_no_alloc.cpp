// "No heap allocation inside Simulation::advance" (engineering standard), checked for every
// registered system and every integrator it offers: the global operator new/delete and the C
// allocation functions are replaced by counting versions (bench/alloc_counter.hpp), and the count
// covers the advance() calls only, after the simulation has been created.

#include "bench/alloc_counter.hpp"
#include "core/model/registry.hpp"

#include <Eigen/Core>

#include <QtTest>

#include <memory>
#include <vector>

using namespace ricochet;
using alloc_counter::AllocationScope;

namespace {

/// Counts impacts without allocating (what the GUI's sink must do as well).
class CountingSink final : public ImpactSink {
 public:
  void onImpact(const ImpactRecord&) override { ++impacts; }
  std::int64_t impacts = 0;
};

}  // namespace

class TestNoAlloc : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
#if !RICOCHET_ALLOC_COUNTER_AVAILABLE
    QSKIP("allocation counting is not available in this build (sanitizers or non-glibc)");
#endif
  }

  void counterSeesEveryKindOfAllocation() {
    // The check below would pass vacuously if the counter missed allocations: prove it does not.
    std::int64_t counts[4] = {};
    {
      AllocationScope scope;
      auto p = std::make_unique<int>(3);
      counts[0] = scope.count();
      std::vector<double> v(100);
      counts[1] = scope.count();
      Eigen::MatrixXd m = Eigen::MatrixXd::Identity(7, 7);  // Eigen allocates with std::malloc
      counts[2] = scope.count();
      void* raw = std::malloc(16);
      void* grown = std::realloc(raw, 4096);
      counts[3] = scope.count();
      std::free(grown);
      QVERIFY(*p == 3 && v.size() == 100 && m(6, 6) == 1.0);
    }
    QCOMPARE(counts[0], std::int64_t(1));
    QCOMPARE(counts[1], std::int64_t(2));
    QCOMPARE(counts[2], std::int64_t(3));
    QCOMPARE(counts[3], std::int64_t(5));
    // Outside a scope nothing is counted.
    const std::int64_t before = alloc_counter::tCount;
    auto q = std::make_unique<double>(1.0);
    QCOMPARE(alloc_counter::tCount, before);
    QVERIFY(*q == 1.0);
  }

  void advanceNeverAllocates() {
    if (systems().empty()) QSKIP("no system registered yet");
    for (const SystemDescription* system : systems()) {
      const SystemInfo& info = system->info();
      for (const IntegratorInfo& integrator : info.integrators) {
        Scenario sc = defaultScenario(*system);
        sc.integrator.name = integrator.name;
        CreateResult cr = createSimulation(sc);
        QVERIFY2(cr.simulation, (info.id + "/" + integrator.name + ": " + cr.error).c_str());
        Simulation& sim = *cr.simulation;
        const std::string what = info.id + "/" + integrator.name;

        std::int64_t allocations = 0;
        AdvanceResult first;
        {
          AllocationScope scope;
          first = sim.advance(1000, nullptr);
          allocations = scope.count();
        }
        QVERIFY2(first.ok(), (what + ": " + first.message).c_str());
        QVERIFY2(allocations == 0,
                 (what + ": " + std::to_string(allocations) + " heap allocations in advance(1000)").c_str());

        // Longer, with an impact sink attached (as the GUI and the CLI run it), so that impact steps
        // are covered for systems whose first impact comes late.
        CountingSink sink;
        AdvanceResult second;
        {
          AllocationScope scope;
          second = sim.advance(20000, &sink);
          allocations = scope.count();
        }
        QVERIFY2(second.ok(), (what + ": " + second.message).c_str());
        QVERIFY2(allocations == 0,
                 (what + ": " + std::to_string(allocations) + " heap allocations in advance(20000, sink)").c_str());
        qInfo("%s: 0 allocations over %lld steps, %lld impacts", what.c_str(),
              static_cast<long long>(sim.step()), static_cast<long long>(sim.impactCount()));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestNoAlloc)
#include "test_no_alloc.moc"
