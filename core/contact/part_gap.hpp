#pragma once
// The gap of a pair of convex parts, and of a part over a plane (docs/multibody.md, "The gap of
// a pair").
//
// Every part of a body (core/se3/body_shape.hpp) is a *core* rounded by a radius: a rounded
// polyhedron is its hull rounded by epsilon, a sphere is one point rounded by its radius, an
// ellipsoid or an intersection of two ellipsoids is itself with radius 0. The signed distance of
// two parts is then the distance of their cores (GJK over their support mappings, gjk.hpp) minus
// the two radii: positive apart, negative when they overlap. The maximising direction gives the
// contact normal n (unit, from B towards A) and the two contact points on the surfaces.
//
// For a part over a plane {z : n.z = offset} the gap is n.x - offset + min over the part of
// n.(R rho): the support point of core/se3, as the one-body LGVCI computes it.

#include "core/se3/body_shape.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ricochet::contact {

using se3::Mat3;
using se3::Vec3;

/// One convex part of a body, as the narrow phase sees it.
struct PartInfo {
  enum class Kind : std::uint8_t { Ellipsoid, Polyhedron, Intersection };
  Kind kind = Kind::Polyhedron;
  int index = 0;          ///< into the shape's list of that kind
  int shapeIndex = 0;     ///< the part's index in lowestPoint()'s counting (ellipsoids first)
  double rounding = 0.0;  ///< radius added to the core (a polyhedron's epsilon), m
  bool point = false;     ///< a one-vertex polyhedron: a sphere of radius `rounding`
  Vec3 centre = Vec3::Zero();  ///< bounding sphere of the part, body frame, m ...
  double radius = 0.0;         ///< ... and its radius (rounding included), m
};

/// The parts of a shape in lowestPoint()'s order (ellipsoids, polyhedra, intersections), each
/// with a bounding sphere.
std::vector<PartInfo> partsOf(const se3::BodyShape& shape);

/// A body placed in the world: centre of mass x and attitude R (body -> world).
struct Placement {
  const se3::BodyShape* shape = nullptr;
  Vec3 x = Vec3::Zero();
  Mat3 R = Mat3::Identity();
};

/// Support point of the core of `part` in body-frame direction u: argmax of u.rho (m).
Vec3 coreSupport(const se3::BodyShape& shape, const PartInfo& part, const Vec3& u);

struct PairGap {
  double gap = 0.0;              ///< signed distance of the two parts, m
  Vec3 normal = Vec3::UnitZ();   ///< unit, world, from B towards A
  Vec3 pointA = Vec3::Zero();    ///< contact point on A's surface, world, m
  Vec3 pointB = Vec3::Zero();    ///< contact point on B's surface, world, m
  /// The same points in the bodies' frames (for a sphere exactly its centre minus r along the
  /// normal, so its lever rho x n is exactly zero: frictionless contact never spins a sphere).
  Vec3 rhoA = Vec3::Zero(), rhoB = Vec3::Zero();
  /// The cores overlap (a penetration deeper than the roundings): `gap` is then only an upper
  /// bound, -(rA + rB), and the normal is the last search direction.
  bool overlap = false;
  bool converged = true;  ///< false: GJK's cap ended the search on smooth cores
};

/// The gap of part `pa` of body A and part `pb` of body B. `guess`: a direction from B to A
/// (the centres' difference will do; the previous normal converges fastest).
PairGap pairGap(const Placement& A, const PartInfo& pa, const Placement& B, const PartInfo& pb,
                const Vec3& guess);

/// A part over a plane: its gap and lowest point (world).
struct PlaneGap {
  double gap = 0.0;            ///< m
  Vec3 point = Vec3::Zero();   ///< the part's lowest point towards the plane, world, m
  Vec3 rho = Vec3::Zero();     ///< the same point in the body frame, m
  bool ok = true;              ///< false: an intersection part's crease solve failed
  int iterations = 0;          ///< ... after so many Newton iterations
  double residual = 0.0;       ///< ... leaving this KKT residual
};
PlaneGap planeGap(const Placement& A, const PartInfo& pa, const Vec3& n, double offset);

/// The points where a closed contact touches: several for a face or an edge of a polyhedron
/// lying on a plane or on another polyhedron's face, one otherwise.
inline constexpr int kMaxManifoldPoints = 16;
struct ContactPoint {
  Vec3 pointA = Vec3::Zero();  ///< on A's surface, world, m
  Vec3 pointB = Vec3::Zero();  ///< on B's surface (or the plane), world, m
  Vec3 rhoA = Vec3::Zero();    ///< pointA in A's body frame, m
  Vec3 rhoB = Vec3::Zero();    ///< pointB in B's body frame (planes: unused), m
  int vertexA = -1;  ///< a polyhedron's vertex on a plane: its index in the part; else -1
};
struct Manifold {
  Vec3 normal = Vec3::UnitZ();  ///< from B (or the plane) towards A
  int count = 0;
  std::array<ContactPoint, kMaxManifoldPoints> points{};
};

/// The contact points of part `pa` of A on the plane, for a contact whose gap is within
/// `tolerance` (m) of closing: every vertex of a polyhedron's core within tolerance of its
/// lowest (a face or an edge landing flat), one point for the other parts.
void planeManifold(const Placement& A, const PartInfo& pa, const Vec3& n, double offset,
                   double tolerance, Manifold& out);

/// The contact points of a closed pair contact `g` (pairGap's result): the overlap of the two
/// polyhedra's contact features (vertices within `tolerance` of the supporting planes),
/// clipped in the contact plane; one point otherwise.
void pairManifold(const Placement& A, const PartInfo& pa, const Placement& B, const PartInfo& pb,
                  const PairGap& g, double tolerance, Manifold& out);

}  // namespace ricochet::contact
