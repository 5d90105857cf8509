#pragma once
// Bounded samples of a run for the plots that need whole states rather than min/max envelopes.
//
// * StrideRows, for the phase portrait: the row of every plotted quantity at evenly spaced steps
//   0, s, 2s, ... Every step is kept until `capacity` rows are held; then every other row goes
//   and the stride doubles. So at any run length the rows cover the whole run evenly, in at most
//   `capacity` rows, and each is exactly the state of its step (a trace row).
// * ImpactRows, for the impact map (a Poincare section) and the impact read-out: every impact,
//   with the row of the step after it (the trace row the impacts CSV's `step` names), as long as
//   there are at most `capacity` of them; past that, the first impact of each bucket of the time
//   plots' decimator (steps [k w, (k+1) w) for its bucket width w). Those include the impacts the
//   time plots draw as lines, so a click on any line finds its impact, and the decimator's bucket
//   count bounds their number.
//
// Plain C++ (no Qt). Not thread-safe: the worker fills them and hands out copies.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ricochet::app {

class StrideRows {
 public:
  /// Rows of `width` values; `capacity` >= 2 (rounded up to an even number).
  explicit StrideRows(int width = 0, int capacity = 4096);

  void clear();
  /// Whether the row of `step` is kept (steps are offered in increasing order).
  bool wants(std::int64_t step) const { return step % stride_ == 0; }
  /// Keeps `row` (size width()) as the state of `step`, if wants(step).
  void add(std::int64_t step, std::span<const double> row);

  int width() const { return width_; }
  int capacity() const { return capacity_; }
  std::size_t size() const { return steps_.size(); }
  std::int64_t stride() const { return stride_; }
  std::int64_t step(std::size_t i) const { return steps_[i]; }
  std::span<const double> row(std::size_t i) const {
    return {values_.data() + i * std::size_t(width_), std::size_t(width_)};
  }
  /// Values of column `c` of every row.
  std::vector<double> column(int c) const;

 private:
  int width_;
  int capacity_;
  std::int64_t stride_ = 1;
  std::vector<std::int64_t> steps_;
  std::vector<double> values_;
};

/// One impact as the impacts CSV writes it, plus its number in the run (1 for the first).
struct ImpactRow {
  std::int64_t number = 0;
  std::int64_t step = 0;  ///< the first step after the impact (the trace row below)
  double t = 0.0;         ///< s
  double alpha = 0.0;
  int constraint = 0;     ///< index into the system's constraint names
  double energyBefore = 0.0, energyAfter = 0.0;  ///< J
  double impulse = 0.0;
  bool reflected = false;
};

class ImpactRows {
 public:
  /// Rows of `width` values; every impact is kept while there are at most `capacity`.
  explicit ImpactRows(int width = 0, std::size_t capacity = 2048);

  void clear();
  /// An impact in the step that ends at `impact.step`; kept while there are few, else when it is
  /// the first of its bucket. Its row is filled by the next fill() of that step.
  void add(const ImpactRow& impact);
  /// The row of `step` (size width()), for the impacts of that step waiting for it.
  void fill(std::int64_t step, std::span<const double> row);
  /// The decimator's bucket width now (it only grows): once the impacts outnumber the capacity,
  /// all but the first impact of each bucket go.
  void setBucketWidth(std::int64_t width);
  /// Whether an impact still waits for its row.
  bool pending() const { return filled_ < impacts_.size(); }

  int width() const { return width_; }
  std::size_t size() const { return impacts_.size(); }
  std::int64_t bucketWidth() const { return bucket_; }
  const ImpactRow& impact(std::size_t i) const { return impacts_[i]; }
  std::span<const double> row(std::size_t i) const {
    return {values_.data() + i * std::size_t(width_), std::size_t(width_)};
  }
  /// Values of column `c` of every impact.
  std::vector<double> column(int c) const;
  /// The index of the kept impact nearest in time to `t` (s); -1 when there is none.
  int nearest(double t) const;

 private:
  void thin();  // the first impact of each bucket only

  int width_;
  std::size_t capacity_;
  bool thinned_ = false;  // past the capacity: one impact per bucket
  std::int64_t bucket_ = 1;
  std::size_t filled_ = 0;  // impacts [0, filled_) have their row
  std::vector<ImpactRow> impacts_;
  std::vector<double> values_;
};

}  // namespace ricochet::app
