#pragma once
// Polygons for the rigid bodies built from points (internal to render/): a convex hull drawn
// with its rounding, the polygon edges of a hull, and a triangle surface drawn as it is (the
// mesh a hull was computed from).

#include <Eigen/Core>

#include <vtkSmartPointer.h>

#include <array>
#include <vector>

class vtkPolyData;

namespace ricochet::render::geometry {

/// The hull of `vertices` (outward `triangles`, counter-clockwise from outside) rounded by
/// `radius` (m, >= 0): each vertex pushed out by `radius` along its normal (the mean of its
/// faces' normals), flat-shaded per face so the hull's facets read. A radius far below the hull's
/// size (the usual 1e-13 m) draws the plain hull.
vtkSmartPointer<vtkPolyData> roundedHull(const std::vector<Eigen::Vector3d>& vertices,
                                         const std::vector<std::array<int, 3>>& triangles,
                                         double radius);
/// The hull's polygon edges as lines: the edges between triangles of different planes (the
/// diagonals that fan a face into triangles are left out). None for more than `maxTriangles`.
vtkSmartPointer<vtkPolyData> hullEdges(const std::vector<Eigen::Vector3d>& vertices,
                                       const std::vector<std::array<int, 3>>& triangles,
                                       std::size_t maxTriangles = 20000);
/// A triangle surface as it is, with per-point normals from its faces.
vtkSmartPointer<vtkPolyData> surface(const std::vector<Eigen::Vector3d>& points,
                                     const std::vector<std::array<int, 3>>& triangles);

}  // namespace ricochet::render::geometry
