#include "app/desktop/run/trail_sampler.hpp"

#include <algorithm>

namespace ricochet::app {

TrailSampler::TrailSampler() {
  clear();
}

void TrailSampler::clear() {
  path_.clear();
  path_.reserve(kHistory);
  pathStep_.clear();
  pathStep_.reserve(kHistory);
  recentCount_ = recentNext_ = 0;
  stride_ = countdown_ = 1;
}

void TrailSampler::add(std::int64_t step, const Eigen::Vector3d& p) {
  recent_[std::size_t(recentNext_)] = p;
  recentNext_ = (recentNext_ + 1) % kRecent;
  recentCount_ = std::min(recentCount_ + 1, kRecent);
  if (--countdown_ > 0) return;
  countdown_ = stride_;
  if (int(path_.size()) == kHistory) {
    // Full: keep the samples at even multiples of the stride (the newest included) and sample
    // half as often. This step lies one old stride past the newest kept sample, so the next
    // sample on the new grid is one old stride away; this one is not taken.
    for (std::size_t i = 0; i < std::size_t(kHistory / 2); ++i) {
      path_[i] = path_[2 * i + 1];
      pathStep_[i] = pathStep_[2 * i + 1];
    }
    path_.resize(kHistory / 2);
    pathStep_.resize(kHistory / 2);
    stride_ *= 2;
    return;
  }
  path_.push_back(p);
  pathStep_.push_back(step);
}

void TrailSampler::take(std::int64_t step, std::vector<Eigen::Vector3d>& out) {
  // The history up to where the recent ring starts, then the ring (oldest first).
  const std::int64_t recentFirst = step - recentCount_ + 1;
  out.reserve(out.size() + path_.size() + std::size_t(recentCount_));
  for (std::size_t i = 0; i < path_.size() && pathStep_[i] < recentFirst; ++i)
    out.push_back(path_[i]);
  for (int k = 0; k < recentCount_; ++k) {
    out.push_back(recent_[std::size_t((recentNext_ - recentCount_ + k + kRecent) % kRecent)]);
  }
  // Sample more densely again when the snapshots come more often than the stride needs (e.g.
  // after a switch from max speed to 1x): aim at a quarter to a whole buffer per snapshot.
  if (stride_ > 1 && int(path_.size()) < kHistory / 4) {
    stride_ /= 2;
    countdown_ = std::min(countdown_, stride_);
  }
  path_.clear();
  pathStep_.clear();
  recentCount_ = 0;
}

}  // namespace ricochet::app
