#pragma once
// Broad phase: which pairs of bodies can meet within a step (docs/multibody.md, "Broad phase").
//
// Each body's swept bounds over the step (an axis-aligned box around its bounding sphere at both
// ends of its path, widened by the parabola's sag) go into a uniform grid whose cell is a little
// larger than every gridded box, each body once, in the cell of its box's low corner: two boxes
// can only overlap if those cells are neighbours, so each occupied cell is tested against itself
// and its 13 forward neighbours. Building the grid is a sort of one entry per body, so a step
// costs O(N log N) with a small constant, and the per-body cost does not grow with N at a fixed
// density. Bodies much larger than the moving ones (a fixed drum, a long post) are kept out of
// the grid and tested against every box.
//
// The result is sorted, so it does not depend on the order in which cells are visited:
// deterministic, and the same on any thread. Allocation-free once the buffers have grown to the
// world's size (reserve()).

#include <Eigen/Core>

#include <cstdint>
#include <utility>
#include <vector>

namespace ricochet::bodies {

struct Aabb {
  Eigen::Vector3d lo = Eigen::Vector3d::Zero();
  Eigen::Vector3d hi = Eigen::Vector3d::Zero();
  bool overlaps(const Aabb& o) const {
    return lo.x() <= o.hi.x() && o.lo.x() <= hi.x() && lo.y() <= o.hi.y() && o.lo.y() <= hi.y() &&
           lo.z() <= o.hi.z() && o.lo.z() <= hi.z();
  }
};

class BroadPhase {
 public:
  /// Capacity for `bodies` bodies (grid entries and pairs).
  void reserve(int bodies);

  /// The pairs (a < b, sorted) of boxes that overlap, skipping pairs where both are `still`
  /// (fixed bodies). `boxes` and `still` have one entry per body.
  void findPairs(const std::vector<Aabb>& boxes, const std::vector<char>& still);
  const std::vector<std::pair<int, int>>& pairs() const { return pairs_; }

  /// Body i's box changed since findPairs() (a restart inside the step): queries find it
  /// wherever its box is now.
  void moved(int i);

  /// Bodies whose boxes overlap `box` (other than `self`), appended to `out` in index order.
  /// Looks only at the grid cells `box` can reach, the large bodies and the moved ones.
  void query(const std::vector<Aabb>& boxes, const Aabb& box, int self,
             std::vector<int>& out) const;

 private:
  struct Entry {
    std::uint64_t cell;
    int body;
  };
  double cell_ = 1.0;
  std::vector<Entry> entries_;  ///< one per gridded body: the cell of its box's low corner, sorted
  std::vector<std::uint64_t> cellKeys_;  ///< the occupied cells, ascending
  std::vector<int> cellStart_;           ///< their first entry (one more: entries_.size())
  std::vector<int> large_;
  std::vector<int> moved_;
  std::vector<char> isMoved_;
  std::vector<std::pair<int, int>> pairs_;
};

}  // namespace ricochet::bodies
