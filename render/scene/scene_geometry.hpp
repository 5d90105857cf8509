#pragma once
// Polygonal geometry for the scene's shapes and obstacles, in their own frames (internal to
// render/). Built once per setScene; bodies then move only through actor matrices.
// All lengths in metres, like core/model/scene.hpp.

#include <Eigen/Core>

#include <vtkSmartPointer.h>

#include <array>
#include <string>
#include <vector>

class vtkPolyData;

namespace ricochet::render::geometry {

/// Ear-clipping triangulation of a simple polygon (either orientation, non-convex allowed, no
/// holes). Returns triangles as vertex indices, counter-clockwise; empty when the polygon is
/// degenerate (fewer than 3 vertices or zero area).
std::vector<std::array<int, 3>> triangulate(const std::vector<Eigen::Vector2d>& outline);

/// Signed area (m^2) of a polygon: > 0 when counter-clockwise (shoelace formula).
double signedArea(const std::vector<Eigen::Vector2d>& outline);

/// Sphere of `radius` with smooth normals.
vtkSmartPointer<vtkPolyData> sphere(double radius);
/// Ellipsoid with semi-axes along x, y, z and exact normals (gradient of x^2/a^2 + ...).
vtkSmartPointer<vtkPolyData> ellipsoid(const Eigen::Vector3d& semiAxes);
/// Outline extruded symmetrically along z by `depth`: caps plus sides, sides smooth-shaded
/// where the outline turns gently (a sampled ellipse) and creased at corners (a star).
vtkSmartPointer<vtkPolyData> prism(const std::vector<Eigen::Vector2d>& outline, double depth);
/// The prism's feature edges as lines: both outline loops and the vertical edges at corners.
vtkSmartPointer<vtkPolyData> prismEdges(const std::vector<Eigen::Vector2d>& outline, double depth);
/// Box of half-extents h; cornerRadius r > 1e-3 min(h) rounds edges and corners with radius r
/// (the Minkowski sum of the inner box h - r with a ball of radius r), otherwise a plain box.
vtkSmartPointer<vtkPolyData> box(const Eigen::Vector3d& halfExtents, double cornerRadius);
/// The 12 edges of the box of half-extents h, as lines.
vtkSmartPointer<vtkPolyData> boxEdges(const Eigen::Vector3d& h);
/// Solid capped cylinder of `radius`, axis along z, from -length/2 to +length/2.
vtkSmartPointer<vtkPolyData> cylinder(double radius, double length);
/// Three lines from `origin` along +x, +y, +z with lengths `lengths`, coloured red, green, blue
/// (RGB cell scalars).
vtkSmartPointer<vtkPolyData> axesMarkers(const Eigen::Vector3d& origin,
                                         const Eigen::Vector3d& lengths);

/// An open cylindrical surface of `radius` around z from z = 0 to z = height.
vtkSmartPointer<vtkPolyData> tube(double radius, double height);
/// Circles at both ends of the tube plus `generators` vertical lines on it.
vtkSmartPointer<vtkPolyData> tubeOutline(double radius, double height, int generators);
/// A flat disc of `radius` in the z = 0 plane, normal +z.
vtkSmartPointer<vtkPolyData> disc(double radius);
/// A polar grid on the disc: rings every `ringSpacing`, `spokes` radial lines, and the rim.
vtkSmartPointer<vtkPolyData> polarGrid(double radius, double ringSpacing, int spokes);
/// Rectangle [lo, hi] in the z = 0 plane, normal +z, as subdivisions^2 quads (so per-vertex
/// colours can fade it out towards its edge).
vtkSmartPointer<vtkPolyData> rectangle(const Eigen::Vector2d& lo, const Eigen::Vector2d& hi,
                                       int subdivisions);
/// Lines x = k s and y = k s (integer k) across the rectangle [lo, hi] at z = 0, leaving out the
/// k that are multiples of `skipMultiplesOf` when it is > 1 (those are drawn by a coarser, darker
/// grid). Each line is a polyline of `segments` pieces (for per-vertex fading).
vtkSmartPointer<vtkPolyData> gridLines(const Eigen::Vector2d& lo, const Eigen::Vector2d& hi,
                                       double spacing, int skipMultiplesOf, int segments);
/// Planar-view ground, in a frame where x runs along the floor and +y is the admissible side:
/// the band -depth <= y <= 0, |x| <= half, in `segments` pieces along x.
vtkSmartPointer<vtkPolyData> groundBand(double half, double depth, int segments);
/// The floor line y = 0 (in `segments` pieces) and diagonal hatch strokes every `spacing` inside
/// the band.
vtkSmartPointer<vtkPolyData> groundHatch(double half, double depth, double spacing, int segments);
/// An annulus of unit outer radius and `innerRatio` inner radius in the z = 0 plane.
vtkSmartPointer<vtkPolyData> ring(double innerRatio);

/// A soft round shadow of unit radius in the z = 0 plane: RGBA point scalars, dark at the centre
/// fading to fully transparent at the rim (Gaussian-like falloff).
vtkSmartPointer<vtkPolyData> shadowDisc();

/// A "nice" grid step (1, 2 or 5 times a power of ten) close to `target` (> 0).
double niceStep(double target);

}  // namespace ricochet::render::geometry
