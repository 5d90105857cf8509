#include "core/bodies/broad_phase.hpp"

#include <algorithm>
#include <cmath>

namespace ricochet::bodies {

namespace {

constexpr int kCellBits = 21;
constexpr std::int64_t kCellRange = std::int64_t(1) << (kCellBits - 1);

std::int64_t cellIndex(double v, double cell) {
  const double c = std::floor(v / cell);
  if (!(c > -double(kCellRange))) return -kCellRange;
  if (!(c < double(kCellRange - 1))) return kCellRange - 1;
  return std::int64_t(c);
}

std::uint64_t cellKey(std::int64_t ix, std::int64_t iy, std::int64_t iz) {
  const auto u = [](std::int64_t i) { return std::uint64_t(i + kCellRange); };
  return (u(ix) << (2 * kCellBits)) | (u(iy) << kCellBits) | u(iz);
}

}  // namespace

void BroadPhase::reserve(int bodies) {
  entries_.reserve(std::size_t(8 * bodies + 8));
  large_.reserve(std::size_t(bodies));
  pairs_.reserve(std::size_t(16 * bodies + 16));
}

void BroadPhase::findPairs(const std::vector<Aabb>& boxes, const std::vector<char>& still) {
  const int n = int(boxes.size());
  pairs_.clear();
  entries_.clear();
  large_.clear();
  // The cell: the largest extent of a moving box (at least a positive length).
  double cell = 0.0;
  for (int i = 0; i < n; ++i) {
    if (still[std::size_t(i)]) continue;
    cell = std::max(cell, (boxes[std::size_t(i)].hi - boxes[std::size_t(i)].lo).maxCoeff());
  }
  if (!(cell > 0.0) || !std::isfinite(cell)) cell = 1.0;
  cell_ = cell;
  for (int i = 0; i < n; ++i) {
    const Aabb& b = boxes[std::size_t(i)];
    if ((b.hi - b.lo).maxCoeff() > 2.0 * cell || !b.lo.allFinite() || !b.hi.allFinite()) {
      large_.push_back(i);
      continue;
    }
    const std::int64_t x0 = cellIndex(b.lo.x(), cell), x1 = cellIndex(b.hi.x(), cell);
    const std::int64_t y0 = cellIndex(b.lo.y(), cell), y1 = cellIndex(b.hi.y(), cell);
    const std::int64_t z0 = cellIndex(b.lo.z(), cell), z1 = cellIndex(b.hi.z(), cell);
    for (std::int64_t x = x0; x <= x1; ++x)
      for (std::int64_t y = y0; y <= y1; ++y)
        for (std::int64_t z = z0; z <= z1; ++z) entries_.push_back({cellKey(x, y, z), i});
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.cell < b.cell || (a.cell == b.cell && a.body < b.body);
  });
  for (std::size_t s = 0; s < entries_.size();) {
    std::size_t e = s + 1;
    while (e < entries_.size() && entries_[e].cell == entries_[s].cell) ++e;
    for (std::size_t p = s; p < e; ++p) {
      const int a = entries_[p].body;
      const Aabb& ba = boxes[std::size_t(a)];
      for (std::size_t q = p + 1; q < e; ++q) {
        const int b = entries_[q].body;
        if (still[std::size_t(a)] && still[std::size_t(b)]) continue;
        const Aabb& bb = boxes[std::size_t(b)];
        if (!ba.overlaps(bb)) continue;
        // Report the pair only from the cell of the overlap's low corner.
        const std::uint64_t home =
            cellKey(cellIndex(std::max(ba.lo.x(), bb.lo.x()), cell),
                    cellIndex(std::max(ba.lo.y(), bb.lo.y()), cell),
                    cellIndex(std::max(ba.lo.z(), bb.lo.z()), cell));
        if (home != entries_[s].cell) continue;
        pairs_.emplace_back(a, b);  // a < b: entries of a cell are sorted by body
      }
    }
    s = e;
  }
  for (const int l : large_) {
    for (int i = 0; i < n; ++i) {
      if (i == l || (still[std::size_t(i)] && still[std::size_t(l)])) continue;
      // A pair of two large bodies is found from the smaller index only.
      if (i > l && std::find(large_.begin(), large_.end(), i) != large_.end()) continue;
      if (!boxes[std::size_t(l)].overlaps(boxes[std::size_t(i)])) continue;
      pairs_.emplace_back(std::min(i, l), std::max(i, l));
    }
  }
  std::sort(pairs_.begin(), pairs_.end());
  pairs_.erase(std::unique(pairs_.begin(), pairs_.end()), pairs_.end());
}

void BroadPhase::query(const std::vector<Aabb>& boxes, const Aabb& box, int self,
                       std::vector<int>& out) const {
  for (int i = 0; i < int(boxes.size()); ++i) {
    if (i != self && boxes[std::size_t(i)].overlaps(box)) out.push_back(i);
  }
}

}  // namespace ricochet::bodies
