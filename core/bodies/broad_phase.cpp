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

bool inRange(std::int64_t i) { return i >= -kCellRange && i < kCellRange; }

/// The forward neighbour columns of a cell (dx, dy), each over z - 1 .. z + 1, except the cell's
/// own column, which only looks up (z + 1): with the cell itself, every unordered pair of
/// neighbouring cells once.
constexpr int kColumns = 5;
constexpr int kColumnDx[kColumns] = {0, 0, 1, 1, 1};
constexpr int kColumnDy[kColumns] = {0, 1, -1, 0, 1};

}  // namespace

void BroadPhase::reserve(int bodies) {
  entries_.reserve(std::size_t(bodies + 1));
  cellKeys_.reserve(std::size_t(bodies + 1));
  cellStart_.reserve(std::size_t(bodies + 2));
  large_.reserve(std::size_t(bodies));
  moved_.reserve(std::size_t(bodies));
  isMoved_.assign(std::size_t(bodies), 0);
  pairs_.reserve(std::size_t(16 * bodies + 16));
}

void BroadPhase::findPairs(const std::vector<Aabb>& boxes, const std::vector<char>& still) {
  const int n = int(boxes.size());
  pairs_.clear();
  entries_.clear();
  cellKeys_.clear();
  cellStart_.clear();
  large_.clear();
  for (const int i : moved_) isMoved_[std::size_t(i)] = 0;
  moved_.clear();
  if (isMoved_.size() < std::size_t(n)) isMoved_.resize(std::size_t(n), 0);
  // The largest extent of a moving box; fixed boxes up to twice that are gridded too.
  double moving = 0.0;
  for (int i = 0; i < n; ++i) {
    if (still[std::size_t(i)]) continue;
    moving = std::max(moving, (boxes[std::size_t(i)].hi - boxes[std::size_t(i)].lo).maxCoeff());
  }
  if (!(moving > 0.0) || !std::isfinite(moving)) moving = 1.0;
  double cell = moving;
  for (int i = 0; i < n; ++i) {
    const double e = (boxes[std::size_t(i)].hi - boxes[std::size_t(i)].lo).maxCoeff();
    if (still[std::size_t(i)] && e <= 2.0 * moving) cell = std::max(cell, e);
  }
  // A little larger than every gridded box, so that the low corners of two overlapping boxes
  // are at most one cell apart whatever the rounding of v / cell.
  cell *= 1.0 + 1e-9;
  cell_ = cell;
  for (int i = 0; i < n; ++i) {
    const Aabb& b = boxes[std::size_t(i)];
    if ((b.hi - b.lo).maxCoeff() >= cell || !b.lo.allFinite() || !b.hi.allFinite()) {
      large_.push_back(i);
      continue;
    }
    entries_.push_back({cellKey(cellIndex(b.lo.x(), cell), cellIndex(b.lo.y(), cell),
                                cellIndex(b.lo.z(), cell)),
                        i});
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.cell < b.cell || (a.cell == b.cell && a.body < b.body);
  });
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    if (e == 0 || entries_[e].cell != entries_[e - 1].cell) {
      cellKeys_.push_back(entries_[e].cell);
      cellStart_.push_back(int(e));
    }
  }
  cellStart_.push_back(int(entries_.size()));
  const int cells = int(cellKeys_.size());
  auto testRanges = [&](int c, int d) {
    for (int p = cellStart_[std::size_t(c)]; p < cellStart_[std::size_t(c) + 1]; ++p) {
      const int a = entries_[std::size_t(p)].body;
      const Aabb& ba = boxes[std::size_t(a)];
      for (int q = c == d ? p + 1 : cellStart_[std::size_t(d)]; q < cellStart_[std::size_t(d) + 1];
           ++q) {
        const int b = entries_[std::size_t(q)].body;
        if (still[std::size_t(a)] && still[std::size_t(b)]) continue;
        if (!ba.overlaps(boxes[std::size_t(b)])) continue;
        pairs_.emplace_back(std::min(a, b), std::max(a, b));
      }
    }
  };
  // For each forward column, the first occupied cell not below its range: the ranges move up
  // with the cell, so each pointer only moves forward.
  int next[kColumns] = {0, 0, 0, 0, 0};
  const std::uint64_t mask = (std::uint64_t(1) << kCellBits) - 1;
  for (int c = 0; c < cells; ++c) {
    testRanges(c, c);
    const std::uint64_t key = cellKeys_[std::size_t(c)];
    const std::int64_t x = std::int64_t((key >> (2 * kCellBits)) & mask) - kCellRange;
    const std::int64_t y = std::int64_t((key >> kCellBits) & mask) - kCellRange;
    const std::int64_t z = std::int64_t(key & mask) - kCellRange;
    for (int k = 0; k < kColumns; ++k) {
      const std::int64_t cx = x + kColumnDx[k], cy = y + kColumnDy[k];
      const std::int64_t z0 = k == 0 ? z + 1 : std::max(z - 1, -kCellRange);
      const std::int64_t z1 = std::min(z + 1, kCellRange - 1);
      if (!inRange(cx) || !inRange(cy) || z0 > z1) continue;
      const std::uint64_t lo = cellKey(cx, cy, z0), hi = cellKey(cx, cy, z1);
      int& d = next[k];
      while (d < cells && cellKeys_[std::size_t(d)] < lo) ++d;
      for (int e = d; e < cells && cellKeys_[std::size_t(e)] <= hi; ++e) testRanges(c, e);
    }
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

void BroadPhase::moved(int i) {
  if (std::size_t(i) >= isMoved_.size() || isMoved_[std::size_t(i)]) return;
  isMoved_[std::size_t(i)] = 1;
  moved_.push_back(i);
}

void BroadPhase::query(const std::vector<Aabb>& boxes, const Aabb& box, int self,
                       std::vector<int>& out) const {
  const std::size_t first = out.size();
  auto consider = [&](int i) {
    if (i != self && boxes[std::size_t(i)].overlaps(box)) out.push_back(i);
  };
  const double cell = cell_;
  // A gridded box overlapping `box` has its low corner within one cell below box.lo .. box.hi.
  const std::int64_t x0 = cellIndex(box.lo.x(), cell) - 1, x1 = cellIndex(box.hi.x(), cell);
  const std::int64_t y0 = cellIndex(box.lo.y(), cell) - 1, y1 = cellIndex(box.hi.y(), cell);
  const std::int64_t z0 = cellIndex(box.lo.z(), cell) - 1, z1 = cellIndex(box.hi.z(), cell);
  const bool gridded = !entries_.empty() && cellStart_.size() == cellKeys_.size() + 1;
  if (gridded && box.lo.allFinite() && box.hi.allFinite() &&
      double(x1 - x0 + 1) * double(y1 - y0 + 1) <= double(cellKeys_.size())) {
    for (std::int64_t x = std::max(x0, -kCellRange); x <= x1; ++x) {
      for (std::int64_t y = std::max(y0, -kCellRange); y <= y1; ++y) {
        const std::uint64_t lo = cellKey(x, y, std::max(z0, -kCellRange)), hi = cellKey(x, y, z1);
        auto c = std::lower_bound(cellKeys_.begin(), cellKeys_.end(), lo);
        for (; c != cellKeys_.end() && *c <= hi; ++c) {
          const std::size_t k = std::size_t(c - cellKeys_.begin());
          for (int p = cellStart_[k]; p < cellStart_[k + 1]; ++p) consider(entries_[std::size_t(p)].body);
        }
      }
    }
    for (const int i : large_) consider(i);
    for (const int i : moved_) consider(i);
    std::sort(out.begin() + std::ptrdiff_t(first), out.end());
    out.erase(std::unique(out.begin() + std::ptrdiff_t(first), out.end()), out.end());
    return;
  }
  for (int i = 0; i < int(boxes.size()); ++i) consider(i);
}

}  // namespace ricochet::bodies
