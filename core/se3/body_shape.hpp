#pragma once
// Rigid-body geometry as data, and its support point: the one query the collision detection
// function needs (docs/se3-lgvci.md, "Collision function and support points", and one
// subsection per part kind).
//
// A BodyShape is the UNION of convex parts, each given in the body frame (origin = centre of
// mass):
//  * EllipsoidPart   {centre + M y : |y| <= 1}, M = Q diag(a,b,c) Q^T;
//  * PolyhedronPart  the convex hull of its vertices, epsilon-rounded: the Minkowski sum with a
//                    ball of radius epsilon (paper §6.3);
//  * IntersectionPart the intersection of two ellipsoids (paper §6.4 gives only the SDF; the
//                    crease case is our own construction, see lowestPoint()).
// For a unit direction u (the plane normal seen in the body frame, u = R^T n) the support point
// rho_C minimises u.rho over the body; then Phi = n.x + u.rho_C and chi = rho_C x u. The minimum
// over a union is the smallest of the parts' minima, so adding a body is adding data, never
// integrator code.

#include "core/se3/so3.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace ricochet::se3 {

struct EllipsoidPart {
  Vec3 centre = Vec3::Zero();  ///< body frame, m
  Mat3 M = Mat3::Identity();   ///< symmetric shape matrix Q diag(semi-axes) Q^T, m
  Mat3 M2 = Mat3::Identity();  ///< M^2, m^2 (support point direction)
  Mat3 P = Mat3::Identity();   ///< M^-2, 1/m^2 (implicit function (rho-c)^T P (rho-c) - 1)
};

/// An ellipsoid with the given body-frame centre (m), semi-axes (m, > 0) along the columns of
/// the rotation `orientation` (identity: along body x, y, z).
EllipsoidPart makeEllipsoid(const Vec3& centre, const Vec3& semiAxes,
                            const Mat3& orientation = Mat3::Identity());

struct PolyhedronPart {
  std::vector<Vec3> vertices;  ///< body frame, m; the part is their convex hull ...
  double epsilon = 0.0;        ///< ... rounded by this radius, m (>= 0)
  /// The hull's edges (attachSupportGraph()): the neighbours of vertex i are
  /// neighbours[neighbourStart[i] .. neighbourStart[i + 1]). Empty: the support point is found
  /// by a scan of every vertex (small parts: the cube's 8 corners).
  std::vector<int> neighbourStart, neighbours;
  /// Start vertices of the hill climb, one per cell of a cube map of directions
  /// (6 kSupportSeedGrid^2 cells): the support vertex of the cell's central direction.
  std::vector<int> seeds;
};

/// Cells per side of each face of the cube map of climb start vertices.
inline constexpr int kSupportSeedGrid = 8;

/// Makes lowestPoint() climb the hull's edges instead of scanning its vertices: `triangles`
/// (indices into p.vertices) are the hull's boundary. Setup code (one scan per seed cell).
void attachSupportGraph(PolyhedronPart& p, std::span<const std::array<int, 3>> triangles);

/// The cube-map cell of a direction u (any length > 0): the face of u's largest component (and
/// its sign), then the other two components over it, each in kSupportSeedGrid bins of [-1, 1].
/// Unit directions; 0 for a zero or non-finite u.
inline int supportSeedCell(const Vec3& u) {
  int axis = 0;
  const Vec3 a = u.cwiseAbs();
  if (a.y() > a[axis]) axis = 1;
  if (a.z() > a[axis]) axis = 2;
  const double mag = a[axis];
  if (!(mag > 0.0) || !(mag < std::numeric_limits<double>::infinity())) return 0;
  constexpr double G = kSupportSeedGrid;
  const auto bin = [&](double x) {
    const double t = (x / mag + 1.0) * (0.5 * G);
    return t > 0.0 ? int(std::min(t, G - 1.0)) : 0;
  };
  const int face = 2 * axis + (u[axis] < 0.0 ? 1 : 0);
  return (face * kSupportSeedGrid + bin(u[(axis + 1) % 3])) * kSupportSeedGrid +
         bin(u[(axis + 2) % 3]);
}

/// An axis-aligned box of half-extents `halfExtents` (m) centred at `centre`, rounded by
/// epsilon (m): 8 vertices. The cube of Case IV is makeBox(0, (s/2)(1,1,1), 1e-13).
PolyhedronPart makeBox(const Vec3& centre, const Vec3& halfExtents, double epsilon);

struct IntersectionPart {
  EllipsoidPart first, second;
  int maxIterations = 100;  ///< cap on the crease solve's Newton iterations (see lowestPoint())
};

/// Union of convex parts (each list may be empty; together at least one part).
struct BodyShape {
  std::vector<EllipsoidPart> ellipsoids;
  std::vector<PolyhedronPart> polyhedra;
  std::vector<IntersectionPart> intersections;
};

/// The lowest point of a shape in direction u: argmin and min of u.rho over the body.
struct SupportPoint {
  double height = 0.0;    ///< min u.rho, m (Phi = n.x + height)
  Vec3 rho = Vec3::Zero();  ///< body-frame support point rho_C, m
  int part = -1;          ///< index of the active part, counting ellipsoids, polyhedra, intersections
  /// False if a part's support solve did not converge (only an intersection's crease solve can
  /// fail): then height is not reliable, and failedPart (same counting), iterations and residual
  /// say which part and how far it got.
  bool ok = true;
  int failedPart = -1;
  int iterations = 0;     ///< Newton iterations of the crease solve (intersection parts)
  double residual = 0.0;  ///< its KKT residual max_k |g_k| left, dimensionless (tolerance 1e-15)
};

/// Support point of one ellipsoid: height = u.c - |M u|, rho = c - M^2 u / |M u|.
inline SupportPoint lowestPoint(const EllipsoidPart& e, const Vec3& u) {
  const Vec3 Mu = e.M * u;
  const double r = Mu.norm();
  SupportPoint s;
  s.rho = e.centre - (e.M * Mu) / r;
  s.height = u.dot(e.centre) - r;
  return s;
}

/// Support point of a rounded polyhedron: the vertex v_C minimising u.v, then rho = v_C - eps u
/// and height = u.v_C - eps (003 eqs. (65)-(67); u is a unit vector). Ties go to the first
/// vertex listed (ties are a measure-zero set of directions).
/// With a support graph (attachSupportGraph()) the vertex comes from steepest descent along the
/// hull's edges from the seed of u's cube-map cell: on a convex polytope a vertex with no lower
/// neighbour is a lowest one, and the seed is already near it, so a query visits a few vertices
/// whatever the vertex count. The result depends on u only (no state between calls).
/// lowestVertex() is the vertex search alone: the index of v_C, with best = u.v_C.
inline int lowestVertex(const PolyhedronPart& p, const Vec3& u, double& best) {
  int k = 0;
  if (p.neighbours.empty()) {
    best = u.dot(p.vertices[0]);
    for (int j = 1; j < static_cast<int>(p.vertices.size()); ++j) {
      const double d = u.dot(p.vertices[j]);
      if (d < best) {
        best = d;
        k = j;
      }
    }
  } else {
    k = p.seeds[std::size_t(supportSeedCell(u))];
    best = u.dot(p.vertices[std::size_t(k)]);
    for (int from = -1; from != k;) {
      from = k;
      const int end = p.neighbourStart[std::size_t(from) + 1];
      for (int e = p.neighbourStart[std::size_t(from)]; e < end; ++e) {
        const int j = p.neighbours[std::size_t(e)];
        const double d = u.dot(p.vertices[std::size_t(j)]);
        if (d < best) {
          best = d;
          k = j;
        }
      }
    }
  }
  return k;
}

inline SupportPoint lowestPoint(const PolyhedronPart& p, const Vec3& u) {
  SupportPoint s;
  double best;
  const int k = lowestVertex(p, u, best);
  s.rho = p.vertices[k] - p.epsilon * u;
  s.height = best - p.epsilon;
  return s;
}

/// Support point of the intersection of two ellipsoids (min of u.rho over E1 n E2).
/// If the support point of the part with the larger minimum lies inside the other part, it is
/// the answer. Otherwise the minimiser lies on the crease dE1 n dE2: we maximise the
/// concave dual d(nu) = min_rho u.rho + sum_k nu_k g_k(rho), g_k = ((rho-c_k)^T P_k (rho-c_k)-1)/2,
/// over nu > 0 by damped Newton (grad d = (g1, g2), Hessian -grad g_k^T H^-1 grad g_l with
/// H = nu1 P1 + nu2 P2), i.e. the KKT system u + sum nu_k grad g_k = 0, g1 = g2 = 0.
/// The body is strictly convex, so rho_C is unique and Phi is differentiable with chi = rho x u.
SupportPoint lowestPoint(const IntersectionPart& q, const Vec3& u);

/// Support point of the union: the lowest of the parts' support points (first part wins ties).
inline SupportPoint lowestPoint(const BodyShape& shape, const Vec3& u) {
  SupportPoint best;
  best.height = std::numeric_limits<double>::infinity();
  int index = 0;
  auto consider = [&](const SupportPoint& s) {
    if (!s.ok && best.ok) {  // report the first part that failed
      best.ok = false;
      best.failedPart = index;
      best.iterations = s.iterations;
      best.residual = s.residual;
    }
    if (s.height < best.height) {
      best.height = s.height;
      best.rho = s.rho;
      best.part = index;
    }
    ++index;
  };
  for (const EllipsoidPart& e : shape.ellipsoids) consider(lowestPoint(e, u));
  for (const PolyhedronPart& p : shape.polyhedra) consider(lowestPoint(p, u));
  for (const IntersectionPart& q : shape.intersections) consider(lowestPoint(q, u));
  return best;
}

/// min u.rho over the body without the support point: what the accept test of every step needs
/// (no M^2 u product, no division). Same value as lowestPoint(shape, u).height, bit for bit.
/// If an intersection's crease solve did not converge, `status` (when given) gets ok = false,
/// failedPart, iterations and residual as in lowestPoint(shape, u); it is left alone otherwise.
inline double lowestHeight(const BodyShape& shape, const Vec3& u, SupportPoint* status = nullptr) {
  double best = std::numeric_limits<double>::infinity();
  for (const EllipsoidPart& e : shape.ellipsoids) {
    best = std::min(best, u.dot(e.centre) - (e.M * u).norm());
  }
  for (const PolyhedronPart& p : shape.polyhedra) best = std::min(best, lowestPoint(p, u).height);
  int index = static_cast<int>(shape.ellipsoids.size() + shape.polyhedra.size());
  for (const IntersectionPart& q : shape.intersections) {
    const SupportPoint s = lowestPoint(q, u);
    if (!s.ok && status && status->ok) {
      status->ok = false;
      status->failedPart = index;
      status->iterations = s.iterations;
      status->residual = s.residual;
    }
    best = std::min(best, s.height);
    ++index;
  }
  return best;
}

/// Implicit function of an ellipsoid part, (rho-c)^T M^-2 (rho-c) - 1: <= 0 inside (dimensionless).
inline double implicitValue(const EllipsoidPart& e, const Vec3& rho) {
  const Vec3 r = rho - e.centre;
  return r.dot(e.P * r) - 1.0;
}

/// Empty when the shape is usable; otherwise one line naming what is wrong (no parts, a
/// non-positive semi-axis, a polyhedron without vertices, negative epsilon, an empty
/// intersection, non-finite numbers).
std::string validate(const BodyShape& shape);

}  // namespace ricochet::se3
