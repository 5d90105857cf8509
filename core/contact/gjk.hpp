#pragma once
// Distance between two convex sets from their support mappings: the Gilbert-Johnson-Keerthi
// algorithm (GJK), with Johnson's distance sub-algorithm written as explicit Voronoi-region
// tests on the simplex (docs/multibody.md, "The gap of a pair").
//
// The sets are the *cores* of the parts: a rounded polyhedron's hull without its rounding, a
// sphere's centre (a hull of one point), an ellipsoid itself. The signed distance of the parts is
// the cores' distance minus the two rounding radii, so a contact between rounded or round parts
// is a distance between separated cores, which GJK finds to round-off: exactly (in finitely many
// iterations) for polytopes, and to a relative tolerance for smooth cores.
//
// supportA(d) must return argmax over A of d.p (any length d); the same for B. The search
// works on the Minkowski difference C = A - B and returns the point of C closest to the origin,
// v = pA - pB, with the witness points pA in A and pB in B. Header-only and allocation-free.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ricochet::contact {

using Vec3 = Eigen::Vector3d;

struct GjkResult {
  double distance = 0.0;       ///< |pA - pB|, m (0 when the cores overlap)
  Vec3 pointA = Vec3::Zero();  ///< witness point on A's core, world, m
  Vec3 pointB = Vec3::Zero();  ///< witness point on B's core, world, m
  bool overlap = false;        ///< the cores intersect (distance 0: the simplex holds the origin)
  bool converged = true;       ///< false: the iteration cap ended the search (smooth cores)
  int iterations = 0;
};

namespace gjk_detail {

/// A vertex of the simplex: w = a - b with its two support points.
struct Vertex {
  Vec3 w = Vec3::Zero(), a = Vec3::Zero(), b = Vec3::Zero();
};

/// Closest point to the origin of the simplex s[0..n), reduced in place to the smallest
/// sub-simplex that holds it; returns the closest point and sets `lambda` (barycentric weights
/// of the kept vertices). Regions are tested from the newest vertex s[n - 1], which the previous
/// iteration's search direction guarantees belongs to the answer.
inline Vec3 closestOnSegment(std::array<Vertex, 4>& s, int& n, std::array<double, 4>& lambda) {
  const Vec3& a = s[1].w;  // newest
  const Vec3& b = s[0].w;
  const Vec3 ab = b - a;
  const double t = -a.dot(ab);
  if (t <= 0.0) {
    s[0] = s[1];
    n = 1;
    lambda[0] = 1.0;
    return s[0].w;
  }
  const double denom = ab.squaredNorm();
  if (t >= denom) {  // cannot happen for the newest vertex in exact arithmetic; be safe
    n = 1;
    lambda[0] = 1.0;
    return s[0].w;
  }
  const double u = t / denom;  // weight of b
  lambda[0] = u;
  lambda[1] = 1.0 - u;
  return a + u * ab;
}

inline Vec3 closestOnTriangle(std::array<Vertex, 4>& s, int& n, std::array<double, 4>& lambda);

/// Keeps vertices idx[0..k) of s (in that order).
inline void keep(std::array<Vertex, 4>& s, int& n, const int* idx, int k) {
  std::array<Vertex, 4> t{};
  for (int i = 0; i < k; ++i) t[std::size_t(i)] = s[std::size_t(idx[i])];
  for (int i = 0; i < k; ++i) s[std::size_t(i)] = t[std::size_t(i)];
  n = k;
}

/// Closest point of triangle (s[0], s[1], s[2]) to the origin (Ericson, Real-Time Collision
/// Detection, 5.1.5), reducing the simplex to the feature that holds it.
inline Vec3 closestOnTriangle(std::array<Vertex, 4>& s, int& n, std::array<double, 4>& lambda) {
  const Vec3 a = s[2].w, b = s[1].w, c = s[0].w;  // a newest
  const Vec3 ab = b - a, ac = c - a, ap = -a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) {
    const int idx[] = {2};
    keep(s, n, idx, 1);
    lambda[0] = 1.0;
    return a;
  }
  const Vec3 bp = -b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) {
    const int idx[] = {1};
    keep(s, n, idx, 1);
    lambda[0] = 1.0;
    return b;
  }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double v = d1 / (d1 - d3);
    const int idx[] = {1, 2};  // b, a
    keep(s, n, idx, 2);
    lambda[0] = v;
    lambda[1] = 1.0 - v;
    return a + v * ab;
  }
  const Vec3 cp = -c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) {
    const int idx[] = {0};
    keep(s, n, idx, 1);
    lambda[0] = 1.0;
    return c;
  }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double w = d2 / (d2 - d6);
    const int idx[] = {0, 2};  // c, a
    keep(s, n, idx, 2);
    lambda[0] = w;
    lambda[1] = 1.0 - w;
    return a + w * ac;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    const int idx[] = {0, 1};  // c, b
    keep(s, n, idx, 2);
    lambda[0] = w;
    lambda[1] = 1.0 - w;
    return b + w * (c - b);
  }
  const double denom = 1.0 / (va + vb + vc);
  const double v = vb * denom, w = vc * denom;
  lambda[0] = w;              // c
  lambda[1] = v;              // b
  lambda[2] = 1.0 - v - w;    // a
  return a + ab * v + ac * w;
}

/// Closest point of tetrahedron s[0..4) to the origin: the origin inside gives n = 4 and 0;
/// otherwise the closest of the faces the origin lies outside of.
inline Vec3 closestOnTetrahedron(std::array<Vertex, 4>& s, int& n, std::array<double, 4>& lambda,
                                 bool& inside) {
  inside = false;
  const Vec3 a = s[3].w;  // newest
  const int faces[3][3] = {{0, 1, 3}, {1, 2, 3}, {2, 0, 3}};
  const int opposite[3] = {2, 0, 1};
  // Outside the face (i, j, a) when the origin and the opposite vertex are on different sides.
  double best = std::numeric_limits<double>::infinity();
  std::array<Vertex, 4> bestS{};
  int bestN = 0;
  std::array<double, 4> bestL{};
  Vec3 bestP = Vec3::Zero();
  bool any = false;
  for (int f = 0; f < 3; ++f) {
    const Vec3& p = s[std::size_t(faces[f][0])].w;
    const Vec3& q = s[std::size_t(faces[f][1])].w;
    const Vec3 normal = (p - a).cross(q - a);
    const double sideOrigin = normal.dot(-a);
    const double sideOpposite = normal.dot(s[std::size_t(opposite[f])].w - a);
    if (sideOrigin * sideOpposite >= 0.0) continue;  // same side: not outside this face
    any = true;
    std::array<Vertex, 4> t{};
    t[0] = s[std::size_t(faces[f][1])];
    t[1] = s[std::size_t(faces[f][0])];
    t[2] = s[3];
    int tn = 3;
    std::array<double, 4> tl{};
    const Vec3 c = closestOnTriangle(t, tn, tl);
    const double d = c.squaredNorm();
    if (d < best) {
      best = d;
      bestS = t;
      bestN = tn;
      bestL = tl;
      bestP = c;
    }
  }
  if (!any) {
    inside = true;
    return Vec3::Zero();
  }
  s = bestS;
  n = bestN;
  lambda = bestL;
  return bestP;
}

}  // namespace gjk_detail

/// GJK distance between the convex sets with support mappings supportA and supportB.
/// `guess`: an initial search direction (e.g. centre of B minus centre of A's opposite: any
/// non-zero vector pointing roughly from B to A works; the last step's normal converges fastest).
/// relTolerance: stop when |v|^2 - v.w <= relTolerance |v|^2 (the duality gap of the distance);
/// polytopes stop earlier, when no new support point is found.
template <class SupportA, class SupportB>
GjkResult gjkDistance(const SupportA& supportA, const SupportB& supportB, Vec3 guess,
                      double relTolerance = 1e-15, int maxIterations = 128) {
  using gjk_detail::Vertex;
  GjkResult r;
  std::array<Vertex, 4> s{};
  std::array<double, 4> lambda{};
  int n = 0;
  if (!(guess.squaredNorm() > 0.0) || !guess.allFinite()) guess = Vec3::UnitX();
  // v: the current closest point of the simplex; start from a support point of C along -guess.
  auto support = [&](const Vec3& d) {  // support of C = A - B in direction d
    Vertex x;
    x.a = supportA(d);
    x.b = supportB(Vec3(-d));
    x.w = x.a - x.b;
    return x;
  };
  s[0] = support(Vec3(-guess));
  n = 1;
  lambda[0] = 1.0;
  Vec3 v = s[0].w;
  double best = v.squaredNorm();
  for (int it = 1; it <= maxIterations; ++it) {
    r.iterations = it;
    const double vv = v.squaredNorm();
    if (vv == 0.0) {  // the origin is on the simplex: touching or overlapping cores
      r.overlap = true;
      break;
    }
    const Vertex w = support(Vec3(-v));
    // Duality gap: |v|^2 - v.w >= |v|^2 - dist^2 >= 0 bounds how far v is from optimal. Its own
    // round-off is a few ulps of |v||w|: below that no support point can prove progress.
    const double gap = vv - v.dot(w.w);
    const double floor = 8.0 * std::numeric_limits<double>::epsilon() * std::sqrt(vv) *
                         w.w.cwiseAbs().maxCoeff();
    if (gap <= relTolerance * vv || gap <= floor) break;
    // A support point already in the simplex: no progress possible (polytope optimum).
    bool repeated = false;
    for (int i = 0; i < n; ++i) repeated = repeated || s[std::size_t(i)].w == w.w;
    if (repeated) break;
    s[std::size_t(n++)] = w;
    Vec3 next;
    if (n == 2) {
      next = gjk_detail::closestOnSegment(s, n, lambda);
    } else if (n == 3) {
      next = gjk_detail::closestOnTriangle(s, n, lambda);
    } else {
      // A flat tetrahedron (the new point in the plane of the triangle, round-off of a face
      // contact between polytopes) has no inside: the triangle's answer stands.
      const Vec3 e1 = s[0].w - s[3].w, e2 = s[1].w - s[3].w, e3 = s[2].w - s[3].w;
      const double scale = std::max({e1.squaredNorm(), e2.squaredNorm(), e3.squaredNorm()});
      const double volume = std::fabs(e1.dot(e2.cross(e3)));
      if (!(volume > 1e-12 * scale * std::sqrt(scale))) {
        n = 3;
        break;
      }
      bool inside = false;
      next = gjk_detail::closestOnTetrahedron(s, n, lambda, inside);
      if (inside) {
        r.overlap = true;
        v = Vec3::Zero();
        break;
      }
    }
    const double nn = next.squaredNorm();
    if (!(nn < best)) {  // no decrease: round-off floor reached; keep the previous simplex's v
      if (it == maxIterations) r.converged = false;
      v = next;
      break;
    }
    best = nn;
    v = next;
    if (it == maxIterations) r.converged = false;
  }
  // Witness points from the barycentric weights of the final simplex.
  r.pointA = Vec3::Zero();
  r.pointB = Vec3::Zero();
  if (n == 1) lambda[0] = 1.0;
  for (int i = 0; i < n; ++i) {
    r.pointA += lambda[std::size_t(i)] * s[std::size_t(i)].a;
    r.pointB += lambda[std::size_t(i)] * s[std::size_t(i)].b;
  }
  r.distance = r.overlap ? 0.0 : std::sqrt(v.squaredNorm());
  return r;
}

}  // namespace ricochet::contact
