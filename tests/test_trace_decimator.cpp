// core/trace: the bounded-memory min/max decimator behind the live plots.
// Spikes of a single step survive any run length, memory is fixed, rendering gives at most two
// points per plot column on a non-decreasing time axis, and the extrema are exactly those of the
// samples (checked against brute force).

#include "core/trace/minmax_decimator.hpp"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <random>
#include <vector>

// Counting global allocator: append() promises no allocation.
static std::atomic<long> gAllocations{0};
void* operator new(std::size_t n) {
  ++gAllocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using ricochet::trace::MinMaxDecimator;
using ricochet::trace::PlotData;

namespace {
double maxOf(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }
double minOf(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }
}  // namespace

class TestTraceDecimator : public QObject {
  Q_OBJECT
 private slots:
  void singleStepSpikesSurviveAMillionSamples() {
    // An impact spike lasts one step; decimated to 640 columns it must still be the extreme.
    const double h = 1e-3;
    MinMaxDecimator d(2, 2048);
    std::int64_t n = 1'000'000;
    for (std::int64_t i = 0; i < n; ++i) {
      const double t = i * h;
      double a = 0.01 * std::sin(t);
      double b = 1.0 + 0.01 * std::cos(t);
      if (i == 333'333) {
        d.markEvent(t - 0.5 * h);
        a = 5.0;
      }
      if (i == 777'777) b = -7.0;
      const double v[2] = {a, b};
      d.append(t, v);
    }
    PlotData p;
    d.render(640, p);
    QCOMPARE(p.samples, n);
    QVERIFY(p.t.size() <= 2u * 640u);
    QCOMPARE(maxOf(p.y[0]), 5.0);
    QCOMPARE(minOf(p.y[1]), -7.0);
    QVERIFY(minOf(p.y[0]) >= -0.01 && minOf(p.y[0]) < -0.0099);  // the smooth part's trough
    // The marked impact keeps its exact time.
    QCOMPARE(p.eventTimes.size(), std::size_t(1));
    QCOMPARE(p.eventTimes[0], 333'333 * h - 0.5 * h);
    QCOMPARE(d.eventCount(), std::int64_t(1));
  }

  void memoryIsBoundedAfterTenMillionSamples() {
    MinMaxDecimator d(4, 2048);
    const std::size_t bytes = d.memoryBytes();
    double v[4] = {0, 0, 0, 0};
    const long before = gAllocations.load();
    for (std::int64_t i = 0; i < 10'000'000; ++i) {
      v[0] = double(i % 1000);
      v[1] = -v[0];
      v[2] = std::sqrt(double(i));
      v[3] = (i == 9'999'990) ? 1e9 : 0.0;
      if (i % 100'000 == 0) d.markEvent(i * 1e-4);
      d.append(i * 1e-4, v);
    }
    QCOMPARE(gAllocations.load() - before, 0L);  // append never allocates
    QCOMPARE(d.memoryBytes(), bytes);
    QCOMPARE(d.sampleCount(), std::int64_t(10'000'000));
    QVERIFY(d.bucketCount() <= d.capacity());
    // The width doubles on each compaction: it is the smallest power of two w such that the
    // buckets in use (between capacity/2 and capacity of them) hold every sample.
    const std::int64_t w = d.bucketWidth();
    QVERIFY((w & (w - 1)) == 0);
    QVERIFY(std::int64_t(d.capacity()) * w >= 10'000'000);
    QVERIFY(std::int64_t(d.capacity()) * (w / 2) < 10'000'000);
    PlotData p;
    d.render(1000, p);
    QVERIFY(p.t.size() <= 2000u);
    QCOMPARE(maxOf(p.y[3]), 1e9);  // the late spike is there
    QCOMPARE(maxOf(p.y[0]), 999.0);
    QCOMPARE(minOf(p.y[1]), -999.0);
    QCOMPARE(p.eventTimes.size(), std::size_t(100));
    // Re-rendering into the same PlotData does not allocate (capacity is kept).
    const long beforeRender = gAllocations.load();
    d.render(1000, p);
    QCOMPARE(gAllocations.load() - beforeRender, 0L);
  }

  void timeIsMonotoneAndPointsPerColumnBounded() {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> dt(0.0, 2e-3);  // uneven steps, including zero
    std::normal_distribution<double> noise(0.0, 1.0);
    for (int columns : {1, 3, 97, 800}) {
      MinMaxDecimator d(1, 256);
      double t = 10.0;
      for (int i = 0; i < 54'321; ++i) {
        t += dt(rng);
        const double v = noise(rng);
        d.append(t, {&v, 1});
      }
      PlotData p;
      d.render(columns, p);
      QVERIFY(!p.t.empty());
      QVERIFY(p.t.size() <= 2u * std::size_t(columns));
      QCOMPARE(p.y[0].size(), p.t.size());
      QVERIFY(std::is_sorted(p.t.begin(), p.t.end()));
      QCOMPARE(p.t.front(), d.firstTime());
      QCOMPARE(p.t.back(), d.lastTime());
    }
  }

  void columnExtremaEqualBruteForce() {
    // A random walk; the buckets are consecutive blocks of bucketWidth() samples, a column holds
    // the buckets whose first sample falls in it. Check every column's min/max and their order.
    std::mt19937_64 rng(7);
    std::normal_distribution<double> step(0.0, 1.0);
    const int n = 100'003;
    std::vector<double> ts(n), ys(n);
    MinMaxDecimator d(1, 64);
    double y = 0.0;
    for (int i = 0; i < n; ++i) {
      y += step(rng);
      ts[i] = 0.01 * i;
      ys[i] = y;
      d.append(ts[i], {&y, 1});
    }
    const int columns = 7;
    PlotData p;
    d.render(columns, p);
    const int w = int(d.bucketWidth());
    const double span = ts.back() - ts.front();
    auto colOf = [&](int sample) {
      return std::min(columns - 1, int(std::floor((ts[sample] - ts[0]) / span * columns)));
    };
    std::size_t k = 0;
    int colCount = 0;
    for (int begin = 0; begin < n;) {
      int end = begin;  // extend by whole buckets while they start in the same column
      while (end < n && colOf(end) == colOf(begin)) end = std::min(end + w, n);
      const auto lo = std::min_element(ys.begin() + begin, ys.begin() + end);
      const auto hi = std::max_element(ys.begin() + begin, ys.begin() + end);
      const bool minFirst = lo <= hi;
      QVERIFY(k + 1 < p.t.size());
      QCOMPARE(p.t[k], ts[begin]);
      QCOMPARE(p.t[k + 1], ts[end - 1]);
      QCOMPARE(p.y[0][k], minFirst ? *lo : *hi);
      QCOMPARE(p.y[0][k + 1], minFirst ? *hi : *lo);
      k += 2;
      ++colCount;
      begin = end;
    }
    QCOMPARE(k, p.t.size());
    QCOMPARE(colCount, columns);
  }

  void shortRunsAreReproducedExactly() {
    MinMaxDecimator d(2, 2048);
    for (int i = 0; i < 5; ++i) {
      const double v[2] = {double(i), double(i * i)};
      d.append(0.5 * i, v);
    }
    PlotData p;
    d.render(800, p);  // more columns than samples: one point per sample
    QCOMPARE(p.t, (std::vector<double>{0.0, 0.5, 1.0, 1.5, 2.0}));
    QCOMPARE(p.y[1], (std::vector<double>{0.0, 1.0, 4.0, 9.0, 16.0}));
    QCOMPARE(d.lastValues()[1], 16.0);
  }

  void nonFiniteValuesAreSkippedAndClearForgets() {
    MinMaxDecimator d(1, 16);
    const double nan = std::nan("");
    const double vals[] = {1.0, nan, 3.0, INFINITY, 2.0};
    for (int i = 0; i < 5; ++i) d.append(i, {&vals[i], 1});
    PlotData p;
    d.render(1, p);
    QCOMPARE(p.t.size(), std::size_t(2));
    QCOMPARE(minOf(p.y[0]), 1.0);
    QCOMPARE(maxOf(p.y[0]), 3.0);
    d.clear();
    QCOMPARE(d.sampleCount(), std::int64_t(0));
    QCOMPARE(d.bucketWidth(), std::int64_t(1));
    d.render(10, p);
    QVERIFY(p.t.empty());
    QVERIFY(std::isnan(d.firstTime()));
  }
};

QTEST_APPLESS_MAIN(TestTraceDecimator)
#include "test_trace_decimator.moc"
