#pragma once
// From a described body (core/model/body_description.hpp) to what the LGVCI and the window need:
// the geometry as convex parts in the body frame (origin at the centre of mass), the mass, the
// exact inertia of the uniform solid, and the surfaces to draw.
//
// Primitives become parts: an ellipsoid stays one; a box, a polyhedron and each object or group
// of a mesh become the epsilon-rounded convex hull of their points (core/se3/convex_hull.hpp).
// A union places its members by their positions and rotation vectors. The mass properties are
// those of the union of the parts with uniform density (mass_properties.hpp), so parts should
// not overlap: a shared volume would count twice (a convex decomposition's pieces only touch).
// The body is then re-centred on its centre of mass; large hulls get their support graph so the
// support point is found by hill climbing.

#include "core/model/body_description.hpp"
#include "core/se3/body_shape.hpp"

#include <array>
#include <string>
#include <vector>

namespace ricochet::se3 {

/// Hulls with more vertices than this get a support graph (hill climbing); smaller ones are
/// scanned, which is as fast for a few vertices.
inline constexpr std::size_t kClimbAboveVertices = 16;

struct BuiltBody {
  BodyShape shape;  ///< body frame: origin at the centre of mass
  double mass = 0.0;    ///< kg
  double volume = 0.0;  ///< m^3 (rounding included)
  Vec3 centreOfMass = Vec3::Zero();  ///< where it was in the description's frame, m
  Mat3 J = Mat3::Zero();             ///< inertia about the centre of mass, body frame, kg m^2
  Vec3 principalMoments = Vec3::Zero();   ///< eigenvalues of J, ascending, kg m^2
  Mat3 principalAxes = Mat3::Identity();  ///< the matching unit eigenvectors (columns)
  double reach = 0.0;  ///< largest distance of a body point from the centre of mass, m

  /// A convex hull as drawn: the unrounded hull (body frame) and its rounding radius.
  struct Hull {
    std::vector<Vec3> vertices;
    std::vector<std::array<int, 3>> triangles;
    double epsilon = 0.0;
  };
  std::vector<Hull> hulls;  ///< one per shape.polyhedra entry, same order
  /// An ellipsoid as drawn: centre, semi-axes and orientation in the body frame.
  struct Ellipsoid {
    Vec3 centre = Vec3::Zero();
    Vec3 semiAxes = Vec3::Ones();
    Mat3 orientation = Mat3::Identity();
  };
  std::vector<Ellipsoid> ellipsoids;  ///< one per shape.ellipsoids entry
  /// A mesh whose surface is not its hull (a concave mesh, or one with inner vertices), drawn
  /// faintly over the hull: its triangles in the body frame.
  struct Surface {
    std::vector<Vec3> points;
    std::vector<std::array<int, 3>> triangles;
  };
  std::vector<Surface> originals;
  int inputVertices = 0;  ///< points given (box corners, listed vertices, mesh vertices)
  int hullVertices = 0;   ///< of which extreme points of their parts

  std::string error;  ///< empty when the body is usable; else one line naming the problem
  bool ok() const { return error.empty(); }
};

/// Builds the body. `defaultEpsilon` (m) rounds boxes, polyhedra and meshes that give no
/// epsilon of their own; the mass is `density` times the volume when a density is given, else
/// `mass` (kg). Errors name the part ("body.parts[1]: ...") and the problem.
BuiltBody buildBody(const BodyScenario& description, double defaultEpsilon, double mass);

}  // namespace ricochet::se3
