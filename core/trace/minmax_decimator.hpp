#pragma once
// Bounded-memory min/max summary of a run's scalar series, for live plots of runs of any length.
//
// Every step of the run is appended (time and one value per series). Consecutive samples are
// gathered in buckets of equal sample count; each bucket keeps, per series, the minimum and the
// maximum and which of the two came first. When all `capacity` buckets are full, neighbours are
// merged pairwise and the bucket width doubles, so memory is fixed at construction while a spike
// that lasts a single step (an impact) still shows as an extreme of its bucket. render() turns the
// buckets into at most two points per plot column (M4-style min/max decimation), so the cost of a
// redraw depends on the plot width, not on the length of the run.
//
// Events (impacts) are counted per bucket together with the time of the first one, so the plots
// can mark impact times at pixel resolution however long the run is.
//
// Plain C++ (no Qt, no VTK). Not thread-safe: one thread appends and renders.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ricochet::trace {

/// Decimated polyline(s) on a shared time axis, ready for a plot. Vectors are reused between
/// render() calls (capacity is kept), so steady-state rendering does not allocate.
struct PlotData {
  std::vector<double> t;               ///< s, non-decreasing
  std::vector<std::vector<double>> y;  ///< y[series][i] pairs with t[i]; empty series -> NaN
  std::vector<double> eventTimes;      ///< s, increasing: first event of each column with events
  std::int64_t samples = 0;            ///< samples summarised (the run's recorded steps)
};

class MinMaxDecimator {
 public:
  /// `seriesCount` >= 0 series, at most `capacity` buckets (rounded up to an even number >= 4).
  explicit MinMaxDecimator(int seriesCount = 0, int capacity = 2048);

  /// Forgets every sample (keeps the storage); the bucket width goes back to one sample.
  void clear();

  /// Appends one sample at time `t` (s, non-decreasing) with one value per series
  /// (`values.size() == seriesCount()`). Non-finite values are ignored for the min/max.
  /// O(1) amortised; never allocates.
  void append(double t, std::span<const double> values);

  /// Records an event (an impact) at time `t` (s). It is attributed to the bucket that receives
  /// the next appended sample, i.e. the sample of the step that contained the event.
  void markEvent(double t);

  int seriesCount() const { return series_; }
  int capacity() const { return capacity_; }
  std::int64_t sampleCount() const { return samples_; }
  std::int64_t eventCount() const { return events_; }
  /// Number of buckets in use, including the one being filled (<= capacity()).
  int bucketCount() const;
  /// Samples per (full) bucket: 1, 2, 4, ...
  std::int64_t bucketWidth() const { return width_; }
  double firstTime() const;  ///< s; NaN when empty
  double lastTime() const;   ///< s; NaN when empty
  /// The last appended values (size seriesCount(); NaN before the first sample).
  std::span<const double> lastValues() const { return last_; }
  /// Bytes held by this object (fixed after construction).
  std::size_t memoryBytes() const;

  /// Writes at most two points per column (min and max of each series over the samples whose
  /// bucket starts in that column, in the order they occurred; one point for a column holding a
  /// single sample) for `columns` equal time columns spanning [firstTime(), lastTime()].
  /// `columns` >= 1. Columns with no sample produce no point.
  void render(int columns, PlotData& out) const;

 private:
  struct Bucket {
    double tFirst = 0.0, tLast = 0.0;
    std::int64_t count = 0;
    std::int64_t events = 0;
    double firstEvent = 0.0;
  };
  // Per-series extrema of a bucket, stored at [bucket * series_ + s].
  struct Extrema {
    double min, max;
    bool minFirst;  // the minimum occurred no later than the maximum
  };
  void openBucket(double t);
  void compact();
  static void mergeInto(Extrema& a, const Extrema& b);

  int series_;
  int capacity_;
  std::int64_t width_ = 1;
  std::int64_t samples_ = 0;
  std::int64_t events_ = 0;
  int used_ = 0;  // buckets holding samples; the last one may be partially filled
  std::int64_t pendingEvents_ = 0;
  double pendingFirstEvent_ = 0.0;
  std::vector<Bucket> buckets_;
  std::vector<Extrema> extrema_;
  std::vector<double> last_;
};

}  // namespace ricochet::trace
