#pragma once
// What a system looks like, as data (Box2D style: the core describes, render/ draws).
//
// A SceneSpec lists rigid bodies (each a union of simple parts in its body frame) and fixed
// obstacles, in world coordinates. render/ builds VTK actors from it once; afterwards only the
// body poses change (Simulation::poses), so geometry is never rebuilt per frame.
//
// World conventions:
//  * ViewKind::Planar: the motion lies in the world x-y plane, y up (gravity along -y); the camera
//    looks at that plane from +z. Planar bodies are prisms extruded along z.
//  * ViewKind::Spatial: z up (gravity along -z); a perspective camera looks from above the side.

#include <Eigen/Core>

#include <array>
#include <string>
#include <variant>
#include <vector>

namespace ricochet {

/// A rigid transform: world point = position + rotation * body point.
struct Pose {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
};

using Rgb = std::array<float, 3>;  ///< colour components in [0, 1]

struct SphereShape {
  double radius = 0.05;  ///< m
};
struct EllipsoidShape {
  Eigen::Vector3d semiAxes = Eigen::Vector3d::Ones();  ///< m, along body x, y, z
};
/// A planar outline in the body x-y plane (counter-clockwise, possibly non-convex, no holes),
/// extruded symmetrically along body z by `depth`.
struct PrismShape {
  std::vector<Eigen::Vector2d> outline;
  double depth = 0.2;  ///< m
};
/// A box centred at the body origin; `cornerRadius` > 0 draws the epsilon-rounded polyhedron.
struct BoxShape {
  Eigen::Vector3d halfExtents = Eigen::Vector3d::Constant(0.5);  ///< m
  double cornerRadius = 0.0;                                     ///< m
};
/// A solid cylinder with its axis along body z, centred at the body origin (a rolling disk is a
/// short one, a pendulum rod a long thin one).
struct CylinderShape {
  double radius = 0.5;  ///< m
  double length = 0.1;  ///< m, along body z
};

/// A convex hull (its vertices and outward triangles, counter-clockwise seen from outside, in the
/// part's frame) rounded by `roundingRadius`: the Minkowski sum with a ball, what a rigid body
/// built from points (a mesh, a polyhedron, a box) is.
struct HullShape {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;
  double roundingRadius = 0.0;  ///< m
};
/// A triangle surface drawn as it is, e.g. the mesh a hull was computed from.
struct SurfaceShape {
  std::vector<Eigen::Vector3d> points;
  std::vector<std::array<int, 3>> triangles;
};

using Shape = std::variant<SphereShape, EllipsoidShape, PrismShape, BoxShape, CylinderShape,
                           HullShape, SurfaceShape>;

struct BodyPart {
  Shape shape;
  Pose offset;  ///< part frame relative to the body frame
  Rgb color{0.85f, 0.45f, 0.20f};
  /// Draw body-frame marker lines (so rotation of round shapes is visible).
  bool showAxes = false;
  /// Below 1: drawn translucent and without edges (a faint original mesh over its hull).
  float opacity = 1.0f;
};

struct BodySpec {
  std::string name;
  std::vector<BodyPart> parts;
};

/// A plane through `point` with unit `normal` pointing into the admissible side; drawn as a
/// square patch of half-size `halfExtent` (render may move the patch along the plane to follow the
/// body, so it looks unbounded).
struct PlaneObstacle {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  double halfExtent = 10.0;
  Rgb color{0.55f, 0.58f, 0.62f};
  bool followBody = true;  ///< recentre the patch under the tracked body
  /// Below 1: a translucent wall, drawn as the rectangle of half-sizes `halfSize` around `point`
  /// (along the plane's horizontal and the other in-plane direction), with no grid.
  double opacity = 1.0;
  Eigen::Vector2d halfSize = Eigen::Vector2d::Zero();  ///< m (translucent walls only)
};
/// A cylindrical surface (open ends) around `axis` through `base`, from base to base+height*axis.
/// `inside`: the admissible side is inside (pendulum cylinder, table rim).
struct CylinderObstacle {
  Eigen::Vector3d base = Eigen::Vector3d::Zero();
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
  double radius = 1.0;
  double height = 1.0;
  bool inside = true;
  Rgb color{0.55f, 0.70f, 0.85f};
  double opacity = 0.25;
};
/// A flat disc (e.g. a circular table top) centred at `center` with unit `normal`.
struct DiscObstacle {
  Eigen::Vector3d center = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  double radius = 1.0;
  Rgb color{0.60f, 0.50f, 0.40f};
};

using Obstacle = std::variant<PlaneObstacle, CylinderObstacle, DiscObstacle>;

enum class ViewKind { Planar, Spatial };

struct SceneSpec {
  ViewKind view = ViewKind::Spatial;
  std::vector<BodySpec> bodies;       ///< Simulation::poses fills one Pose per body, same order
  std::vector<Obstacle> obstacles;
  int trackedBody = 0;                ///< body whose origin draws the trail and the camera follows
  double characteristicLength = 1.0;  ///< m; sizes of trail, impact marks and the default view
};

}  // namespace ricochet
