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
/// `radius` (m, >= 0): the hull grown by a ball of that radius, as the collision model sees it.
/// Each face moved out along its normal (flat-shaded, so the hull's facets read), a cylinder
/// strip along each edge between two planes and a sphere patch at each corner (smooth). Every
/// vertex lies at `radius` from the hull (the arcs' chords, in steps of at most 15 degrees, dip
/// below by under 2 %). A radius of 0 draws the plain hull.
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
