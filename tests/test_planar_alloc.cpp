// Simulation::advance of the planar systems allocates nothing (engineering standard: no heap
// allocation in the step loop), with both integrators, through impacts, with an impact sink.
// Counts calls of the global operator new while advance() runs.

#include "core/model/registry.hpp"

#include <QtTest>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace ricochet;

namespace {
struct CountingSink : ImpactSink {
  long impacts = 0;
  double lastT = 0;
  void onImpact(const ImpactRecord& r) override {
    ++impacts;
    lastT = r.t;
  }
};
}  // namespace

class TestPlanarAlloc : public QObject {
  Q_OBJECT
 private slots:
  void advanceDoesNotAllocate() {
    for (const char* id : {"particle-floor", "star-floor", "ellipse-floor"}) {
      for (const char* integrator : {"variational", "rk4-event"}) {
        Scenario sc = defaultScenario(*findSystem(id));
        sc.integrator.name = integrator;
        CreateResult cr = createSimulation(sc);
        QVERIFY2(cr.simulation, cr.error.c_str());
        CountingSink sink;
        std::vector<double> row(cr.simulation->columns().size());
        allocations = 0;
        counting = true;
        const AdvanceResult r = cr.simulation->advance(20000, &sink);
        cr.simulation->sample(row);
        counting = false;
        QVERIFY2(r.ok(), r.message.c_str());
        qInfo("%s / %s: %ld impacts, %ld allocations", id, integrator, sink.impacts, allocations.load());
        QVERIFY(sink.impacts > 10);
        QCOMPARE(allocations.load(), 0L);
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestPlanarAlloc)
#include "test_planar_alloc.moc"
