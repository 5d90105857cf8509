#include "core/trace/minmax_decimator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::trace {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

MinMaxDecimator::MinMaxDecimator(int seriesCount, int capacity)
    : series_(std::max(seriesCount, 0)),
      capacity_(std::max(4, capacity + (capacity & 1))),
      buckets_(static_cast<std::size_t>(capacity_)),
      extrema_(static_cast<std::size_t>(capacity_) * static_cast<std::size_t>(series_)),
      last_(static_cast<std::size_t>(series_), kNaN) {}

void MinMaxDecimator::clear() {
  width_ = 1;
  samples_ = 0;
  events_ = 0;
  used_ = 0;
  pendingEvents_ = 0;
  pendingFirstEvent_ = 0.0;
  std::fill(last_.begin(), last_.end(), kNaN);
}

int MinMaxDecimator::bucketCount() const { return used_; }

double MinMaxDecimator::firstTime() const { return used_ > 0 ? buckets_[0].tFirst : kNaN; }

double MinMaxDecimator::lastTime() const {
  return used_ > 0 ? buckets_[static_cast<std::size_t>(used_ - 1)].tLast : kNaN;
}

std::size_t MinMaxDecimator::memoryBytes() const {
  return sizeof(*this) + buckets_.capacity() * sizeof(Bucket) +
         extrema_.capacity() * sizeof(Extrema) + last_.capacity() * sizeof(double);
}

void MinMaxDecimator::markEvent(double t) {
  if (pendingEvents_ == 0) pendingFirstEvent_ = t;
  ++pendingEvents_;
  ++events_;
}

void MinMaxDecimator::openBucket(double t) {
  if (used_ == capacity_) compact();
  Bucket& b = buckets_[static_cast<std::size_t>(used_)];
  b.tFirst = b.tLast = t;
  b.count = 0;
  b.events = 0;
  b.firstEvent = 0.0;
  Extrema* e = extrema_.data() + static_cast<std::size_t>(used_) * series_;
  for (int s = 0; s < series_; ++s) e[s] = Extrema{kInf, -kInf, true};
  ++used_;
}

void MinMaxDecimator::mergeInto(Extrema& a, const Extrema& b) {
  // `b` follows `a` in time. Strict comparisons keep the earlier sample on ties.
  const bool minFromB = b.min < a.min;
  const bool maxFromB = b.max > a.max;
  if (minFromB == maxFromB) {
    if (minFromB) a.minFirst = b.minFirst;
  } else {
    a.minFirst = maxFromB;  // min in a, max in b -> min first; and the converse
  }
  if (minFromB) a.min = b.min;
  if (maxFromB) a.max = b.max;
}

void MinMaxDecimator::compact() {
  // All buckets are full (width_ samples each): merge neighbours, doubling the width.
  const int half = used_ / 2;
  for (int i = 0; i < half; ++i) {
    const Bucket& a = buckets_[static_cast<std::size_t>(2 * i)];
    const Bucket& b = buckets_[static_cast<std::size_t>(2 * i + 1)];
    Bucket m;
    m.tFirst = a.tFirst;
    m.tLast = b.tLast;
    m.count = a.count + b.count;
    m.events = a.events + b.events;
    m.firstEvent = a.events > 0 ? a.firstEvent : b.firstEvent;
    Extrema* ea = extrema_.data() + static_cast<std::size_t>(2 * i) * series_;
    const Extrema* eb = ea + series_;
    for (int s = 0; s < series_; ++s) mergeInto(ea[s], eb[s]);
    Extrema* dst = extrema_.data() + static_cast<std::size_t>(i) * series_;
    std::copy(ea, ea + series_, dst);
    buckets_[static_cast<std::size_t>(i)] = m;
  }
  used_ = half;
  width_ *= 2;
}

void MinMaxDecimator::append(double t, std::span<const double> values) {
  if (used_ == 0 || buckets_[static_cast<std::size_t>(used_ - 1)].count >= width_) openBucket(t);
  Bucket& b = buckets_[static_cast<std::size_t>(used_ - 1)];
  b.tLast = t;
  ++b.count;
  if (pendingEvents_ > 0) {
    if (b.events == 0) b.firstEvent = pendingFirstEvent_;
    b.events += pendingEvents_;
    pendingEvents_ = 0;
  }
  Extrema* e = extrema_.data() + static_cast<std::size_t>(used_ - 1) * series_;
  const int n = std::min(series_, static_cast<int>(values.size()));
  for (int s = 0; s < n; ++s) {
    const double v = values[static_cast<std::size_t>(s)];
    last_[static_cast<std::size_t>(s)] = v;
    if (!std::isfinite(v)) continue;
    if (v < e[s].min) {
      e[s].min = v;
      e[s].minFirst = false;  // the new minimum is the latest extreme
    }
    if (v > e[s].max) {
      e[s].max = v;
      e[s].minFirst = true;  // the new maximum is the latest extreme
    }
  }
  ++samples_;
}

void MinMaxDecimator::render(int columns, PlotData& out) const {
  columns = std::max(columns, 1);
  out.t.clear();
  out.eventTimes.clear();
  out.samples = samples_;
  out.y.resize(static_cast<std::size_t>(series_));
  for (auto& y : out.y) y.clear();
  if (used_ == 0) return;

  const double t0 = firstTime();
  const double span = lastTime() - t0;
  auto columnOf = [&](const Bucket& b) {
    if (!(span > 0.0)) return 0;
    const double c = std::floor((b.tFirst - t0) / span * columns);
    return static_cast<int>(std::clamp(c, 0.0, static_cast<double>(columns - 1)));
  };

  // Walk the buckets once; each run of buckets starting in the same column becomes <= 2 points.
  int begin = 0;
  while (begin < used_) {
    const int col = columnOf(buckets_[static_cast<std::size_t>(begin)]);
    int end = begin + 1;
    while (end < used_ && columnOf(buckets_[static_cast<std::size_t>(end)]) == col) ++end;

    const Bucket& first = buckets_[static_cast<std::size_t>(begin)];
    const Bucket& lastB = buckets_[static_cast<std::size_t>(end - 1)];
    std::int64_t count = 0;
    std::int64_t events = 0;
    double firstEvent = 0.0;
    for (int i = begin; i < end; ++i) {
      const Bucket& b = buckets_[static_cast<std::size_t>(i)];
      count += b.count;
      if (events == 0 && b.events > 0) firstEvent = b.firstEvent;
      events += b.events;
    }
    if (events > 0) out.eventTimes.push_back(firstEvent);
    const bool single = count == 1;
    out.t.push_back(first.tFirst);
    if (!single) out.t.push_back(lastB.tLast);

    for (int s = 0; s < series_; ++s) {
      Extrema acc = extrema_[static_cast<std::size_t>(begin) * series_ + s];
      for (int i = begin + 1; i < end; ++i) {
        mergeInto(acc, extrema_[static_cast<std::size_t>(i) * series_ + s]);
      }
      auto& y = out.y[static_cast<std::size_t>(s)];
      if (!(acc.min <= acc.max)) {  // no finite value in this column
        y.push_back(kNaN);
        if (!single) y.push_back(kNaN);
      } else if (single) {
        y.push_back(acc.min);
      } else {
        y.push_back(acc.minFirst ? acc.min : acc.max);
        y.push_back(acc.minFirst ? acc.max : acc.min);
      }
    }
    begin = end;
  }
}

}  // namespace ricochet::trace
