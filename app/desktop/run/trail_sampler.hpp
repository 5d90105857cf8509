#pragma once
// The tracked body's path between two snapshots, in bounded memory (Snapshot::path).
//
// History: a sample every `stride` steps; when it fills, every other sample goes and the stride
// doubles. Recent: a ring of the last kRecent steps, so that at max speed the trail just behind
// the body is the integrated path (a history sample every few hundred steps aliases a bounce into
// a straight line). A snapshot takes the history up to where the ring starts, then the ring.

#include <Eigen/Core>

#include <array>
#include <cstdint>
#include <vector>

namespace ricochet::app {

class TrailSampler {
 public:
  static constexpr int kHistory = 256;
  static constexpr int kRecent = 256;
  static constexpr int kSamples = kHistory + kRecent;  ///< the most one take() hands out

  TrailSampler();
  /// Forgets everything (a new run, a seek).
  void clear();
  /// The tracked body is at `position` (m) after step `step`.
  void add(std::int64_t step, const Eigen::Vector3d& position);
  /// Appends the path since the last take (oldest first) to `out`, `step` being the current step,
  /// and starts a new one.
  void take(std::int64_t step, std::vector<Eigen::Vector3d>& out);

 private:
  std::vector<Eigen::Vector3d> path_;
  std::vector<std::int64_t> pathStep_;
  std::array<Eigen::Vector3d, kRecent> recent_{};
  int recentCount_ = 0, recentNext_ = 0;
  std::int64_t stride_ = 1;
  std::int64_t countdown_ = 1;
};

}  // namespace ricochet::app
