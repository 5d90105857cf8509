#include "app/desktop/run/plot_samples.hpp"

#include <algorithm>
#include <cmath>

namespace ricochet::app {

StrideRows::StrideRows(int width, int capacity)
    : width_(std::max(width, 0)), capacity_(std::max(2, capacity + (capacity & 1))) {
  steps_.reserve(std::size_t(capacity_));
  values_.reserve(std::size_t(capacity_) * std::size_t(width_));
}

void StrideRows::clear() {
  stride_ = 1;
  steps_.clear();
  values_.clear();
}

void StrideRows::add(std::int64_t step, std::span<const double> row) {
  if (!wants(step)) return;
  if (int(steps_.size()) == capacity_) {
    // Full: keep the rows at even multiples of the doubled stride. Rows hold steps 0, s, 2s, ...,
    // so those are the even-indexed ones.
    const std::size_t w = std::size_t(width_);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < steps_.size(); i += 2, ++kept) {
      steps_[kept] = steps_[i];
      std::copy_n(values_.begin() + std::ptrdiff_t(i * w), w, values_.begin() + std::ptrdiff_t(kept * w));
    }
    steps_.resize(kept);
    values_.resize(kept * w);
    stride_ *= 2;
    if (!wants(step)) return;
  }
  steps_.push_back(step);
  const std::size_t n = std::min(row.size(), std::size_t(width_));
  values_.insert(values_.end(), row.begin(), row.begin() + std::ptrdiff_t(n));
  values_.resize(steps_.size() * std::size_t(width_), 0.0);
}

std::vector<double> StrideRows::column(int c) const {
  std::vector<double> out;
  if (c < 0 || c >= width_) return out;
  out.reserve(steps_.size());
  for (std::size_t i = 0; i < steps_.size(); ++i) out.push_back(values_[i * std::size_t(width_) + std::size_t(c)]);
  return out;
}

// ---------------------------------------------------------------------------------------------

ImpactRows::ImpactRows(int width, std::size_t capacity)
    : width_(std::max(width, 0)), capacity_(std::max<std::size_t>(capacity, 1)) {}

void ImpactRows::clear() {
  thinned_ = false;
  bucket_ = 1;
  filled_ = 0;
  impacts_.clear();
  values_.clear();
}

void ImpactRows::add(const ImpactRow& impact) {
  if (thinned_ && !impacts_.empty() && impacts_.back().step / bucket_ == impact.step / bucket_)
    return;
  impacts_.push_back(impact);
  values_.resize(impacts_.size() * std::size_t(width_), std::nan(""));
  if (!thinned_ && impacts_.size() > capacity_) {
    thinned_ = true;
    thin();
  }
}

void ImpactRows::fill(std::int64_t step, std::span<const double> row) {
  const std::size_t w = std::size_t(width_);
  const std::size_t n = std::min(row.size(), w);
  while (filled_ < impacts_.size() && impacts_[filled_].step <= step) {
    if (impacts_[filled_].step == step) {
      std::copy_n(row.begin(), n, values_.begin() + std::ptrdiff_t(filled_ * w));
    }
    ++filled_;
  }
}

void ImpactRows::setBucketWidth(std::int64_t width) {
  if (width <= bucket_) return;
  bucket_ = width;
  if (thinned_) thin();
}

void ImpactRows::thin() {
  const std::size_t w = std::size_t(width_);
  std::size_t kept = 0, filledKept = 0;
  for (std::size_t i = 0; i < impacts_.size(); ++i) {
    if (kept > 0 && impacts_[kept - 1].step / bucket_ == impacts_[i].step / bucket_) continue;
    impacts_[kept] = impacts_[i];
    std::copy_n(values_.begin() + std::ptrdiff_t(i * w), w, values_.begin() + std::ptrdiff_t(kept * w));
    if (i < filled_) filledKept = kept + 1;
    ++kept;
  }
  impacts_.resize(kept);
  values_.resize(kept * w);
  filled_ = filledKept;
}

std::vector<double> ImpactRows::column(int c) const {
  std::vector<double> out;
  if (c < 0 || c >= width_) return out;
  out.reserve(impacts_.size());
  for (std::size_t i = 0; i < impacts_.size(); ++i) out.push_back(values_[i * std::size_t(width_) + std::size_t(c)]);
  return out;
}

int ImpactRows::nearest(double t) const {
  if (impacts_.empty()) return -1;
  const auto it = std::lower_bound(impacts_.begin(), impacts_.end(), t,
                                   [](const ImpactRow& r, double v) { return r.t < v; });
  std::size_t i = std::size_t(it - impacts_.begin());
  if (i == impacts_.size()) return int(i - 1);
  if (i > 0 && std::fabs(impacts_[i - 1].t - t) <= std::fabs(impacts_[i].t - t)) --i;
  return int(i);
}

}  // namespace ricochet::app
