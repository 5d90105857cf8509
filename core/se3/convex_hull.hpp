#pragma once
// The convex hull of a point set in 3-D, computed by qhull (Debian libqhull-dev, the reentrant C
// library libqhull_r), in a canonical form: the result depends on the set of points only, never
// on their order, so a cube read from a mesh file and the same cube listed by hand give the same
// hull, the same mass properties and the same trajectory, bit for bit.
//
// Canonical form: the hull's vertices (the extreme points) sorted lexicographically by (x, y, z);
// each face polygon fanned into triangles from its smallest vertex index, counter-clockwise seen
// from outside; the triangles rotated to start at their smallest index and sorted.

#include "core/se3/so3.hpp"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace ricochet::se3 {

struct ConvexHull {
  std::vector<Vec3> vertices;                ///< extreme points, sorted by (x, y, z), m
  std::vector<int> sourceIndex;              ///< index of each vertex in the input points
  std::vector<std::array<int, 3>> triangles; ///< outward (counter-clockwise from outside)
  int faces = 0;                             ///< polygonal faces qhull found (before the fans)
  /// Empty when the hull exists; otherwise one line saying why not: fewer than four points, a
  /// non-finite coordinate, all points on one plane, line or point, or qhull's own error.
  std::string error;
  bool ok() const { return error.empty(); }
};

/// The hull of `points` (m). Setup code: O(n log n) through qhull, never called in a step loop.
ConvexHull convexHull(std::span<const Vec3> points);

/// Undirected edges of a triangle mesh as adjacency lists in compressed form: the neighbours of
/// vertex i are neighbours[start[i] .. start[i+1]), ascending.
struct Adjacency {
  std::vector<int> start;
  std::vector<int> neighbours;
};
Adjacency adjacencyOf(int vertexCount, std::span<const std::array<int, 3>> triangles);

}  // namespace ricochet::se3
