#pragma once
// Exact mass properties of uniform solids: ellipsoids, epsilon-rounded convex polyhedra (the
// Minkowski sum of a convex hull with a ball of radius epsilon) and unions of them.
//
// Everything goes through the moments of the solid about the origin of its frame,
//   V = int dV,   f = int rho dV,   S = int rho rho^T dV,
// which add over disjoint pieces and move rigidly (moved()). A rounded hull is cut into disjoint
// pieces with closed-form moments (the Steiner decomposition):
//   * the polytope itself: one tetrahedron per boundary triangle and a reference point;
//   * a slab of thickness eps over every face (a prism along its outward normal);
//   * a cylindrical wedge of radius eps along every edge, of the exterior dihedral angle psi;
//   * a spherical sector of radius eps at every vertex, over its normal cone: solid angle
//     Omega_v (fan of spherical triangles), int omega dOmega = 1/2 sum_i theta_i u_i over the
//     cone's boundary arcs (length theta_i, unit normal u_i = n_i x n_{i+1}/|..|), and, summed
//     over all vertices, int omega omega^T dOmega = 4 pi/3 I.
// The volume is Steiner's V + eps A + eps^2 sum_e L_e psi_e/2 + 4 pi eps^3/3.
// Then J_d = (m/V)(S - V c c^T) about the centre of mass c = f/V and J = tr(J_d) I - J_d.

#include "core/se3/body_shape.hpp"
#include "core/se3/convex_hull.hpp"

namespace ricochet::se3 {

/// Volume (m^3), first (m^4) and second (m^5) moments of a uniform solid about its frame's origin.
struct Moments {
  double volume = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  Moments& operator+=(const Moments& o) {
    volume += o.volume;
    first += o.first;
    second += o.second;
    return *this;
  }
};

/// The moments of the same solid moved to rotation Q and position t (rho -> Q rho + t).
Moments moved(const Moments& m, const Mat3& Q, const Vec3& t);

/// A solid ellipsoid centred at the origin with semi-axes (a, b, c) along x, y, z:
/// V = 4 pi abc/3, f = 0, S = V/5 diag(a^2, b^2, c^2).
Moments ellipsoidMoments(const Vec3& semiAxes);

/// The convex hull rounded by epsilon (m, >= 0): the Steiner decomposition above.
Moments roundedHullMoments(const ConvexHull& hull, double epsilon);

/// Mass properties of a uniform solid body.
struct MassProperties {
  double volume = 0.0;           ///< m^3 (0 for a degenerate, flat vertex set)
  Vec3 centroid = Vec3::Zero();  ///< centre of mass, in the frame of the input, m
  Mat3 J = Mat3::Zero();         ///< standard inertia about the centroid for the given mass, kg m^2
  int faces = 0;                 ///< polygonal faces of the hull (polyhedra only)
};

/// Centre of mass and inertia about it of a solid of total mass `mass` (kg) with these moments.
MassProperties massPropertiesOf(const Moments& m, double mass);

/// Mass properties of the convex hull of a polyhedron part's vertices (uniform density, total
/// mass `mass` in kg), ignoring the rounding epsilon (what paper 003 does for its cube); a flat
/// or degenerate vertex set gives volume 0. Bodies with their rounding: roundedHullMoments().
MassProperties massProperties(const PolyhedronPart& p, double mass);

}  // namespace ricochet::se3
