#include "core/contact/part_gap.hpp"

#include "core/contact/gjk.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace ricochet::contact {

namespace {

double largestSemiAxis(const se3::EllipsoidPart& e) {
  Eigen::SelfAdjointEigenSolver<Mat3> eig(e.M, Eigen::EigenvaluesOnly);
  return eig.eigenvalues().cwiseAbs().maxCoeff();
}

Vec3 worldSupport(const Placement& P, const PartInfo& part, const Vec3& d) {
  return P.x + P.R * coreSupport(*P.shape, part, P.R.transpose() * d);
}

/// An orthonormal pair spanning the plane normal to n (unit).
void tangentBasis(const Vec3& n, Vec3& t1, Vec3& t2) {
  const Vec3 a = std::fabs(n.x()) < 0.6 ? Vec3::UnitX() : Vec3::UnitY();
  t1 = (a - a.dot(n) * n).normalized();
  t2 = n.cross(t1);
}

using Point2 = Eigen::Vector2d;

/// Convex hull of up to kMaxManifoldPoints 2-D points (monotone chain, counter-clockwise, no
/// collinear points); returns the count.
int hull2(std::array<Point2, kMaxManifoldPoints>& p, int n, std::array<Point2, kMaxManifoldPoints>& out) {
  std::sort(p.begin(), p.begin() + n, [](const Point2& a, const Point2& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  if (n < 3) {
    for (int i = 0; i < n; ++i) out[std::size_t(i)] = p[std::size_t(i)];
    return n;
  }
  std::array<Point2, 2 * kMaxManifoldPoints> h{};
  int k = 0;
  auto cross = [](const Point2& o, const Point2& a, const Point2& b) {
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
  };
  for (int i = 0; i < n; ++i) {
    while (k >= 2 && cross(h[std::size_t(k - 2)], h[std::size_t(k - 1)], p[std::size_t(i)]) <= 0.0) --k;
    h[std::size_t(k++)] = p[std::size_t(i)];
  }
  for (int i = n - 2, t = k + 1; i >= 0; --i) {
    while (k >= t && cross(h[std::size_t(k - 2)], h[std::size_t(k - 1)], p[std::size_t(i)]) <= 0.0) --k;
    h[std::size_t(k++)] = p[std::size_t(i)];
  }
  k = std::min(k - 1, kMaxManifoldPoints);
  for (int i = 0; i < k; ++i) out[std::size_t(i)] = h[std::size_t(i)];
  return k;
}

/// Sutherland-Hodgman: the part of convex polygon `subject` (ccw) inside convex polygon `clip`
/// (ccw, >= 3 vertices). A degenerate subject (a segment: 2 points) is clipped as a segment.
int clipConvex(const std::array<Point2, kMaxManifoldPoints>& subject, int ns,
               const std::array<Point2, kMaxManifoldPoints>& clip, int nc,
               std::array<Point2, kMaxManifoldPoints>& out) {
  std::array<Point2, 2 * kMaxManifoldPoints + 2> cur{}, next{};
  int n = ns;
  for (int i = 0; i < ns; ++i) cur[std::size_t(i)] = subject[std::size_t(i)];
  for (int e = 0; e < nc && n > 0; ++e) {
    const Point2 a = clip[std::size_t(e)], b = clip[std::size_t((e + 1) % nc)];
    auto side = [&](const Point2& p) {
      return (b.x() - a.x()) * (p.y() - a.y()) - (b.y() - a.y()) * (p.x() - a.x());
    };
    int m = 0;
    const int edges = n == 2 ? 1 : n;  // a segment has one edge, not a closed loop
    if (n == 1) {
      if (side(cur[0]) >= 0.0) next[std::size_t(m++)] = cur[0];
    } else {
      for (int i = 0; i < edges; ++i) {
        const Point2 p = cur[std::size_t(i)], q = cur[std::size_t((i + 1) % n)];
        const double sp = side(p), sq = side(q);
        const bool pin = sp >= 0.0, qin = sq >= 0.0;
        if (pin) next[std::size_t(m++)] = p;
        if (pin != qin) next[std::size_t(m++)] = p + (sp / (sp - sq)) * (q - p);
        if (n == 2 && qin) next[std::size_t(m++)] = q;
        if (m > 2 * kMaxManifoldPoints) break;
      }
    }
    n = std::min(m, 2 * kMaxManifoldPoints);
    cur = next;
  }
  // Drop repeated points.
  int k = 0;
  for (int i = 0; i < n && k < kMaxManifoldPoints; ++i) {
    bool seen = false;
    for (int j = 0; j < k; ++j) seen = seen || (out[std::size_t(j)] - cur[std::size_t(i)]).norm() <= 1e-15;
    if (!seen) out[std::size_t(k++)] = cur[std::size_t(i)];
  }
  return k;
}

/// Body-frame vertex search of every vertex of polyhedron `p` whose value u.v is within `tol` of
/// the smallest: a scan for small parts, a walk over the hull's edges from the lowest vertex for
/// parts with a support graph. Writes up to kMaxManifoldPoints indices; returns the count.
int lowVertices(const se3::PolyhedronPart& p, const Vec3& u, double tol,
                std::array<int, kMaxManifoldPoints>& out) {
  double best;
  const int k0 = se3::lowestVertex(p, u, best);
  int n = 0;
  if (p.neighbours.empty()) {
    for (int j = 0; j < int(p.vertices.size()) && n < kMaxManifoldPoints; ++j) {
      if (u.dot(p.vertices[std::size_t(j)]) <= best + tol) out[std::size_t(n++)] = j;
    }
    return n;
  }
  out[std::size_t(n++)] = k0;
  for (int i = 0; i < n; ++i) {  // breadth-first over the low vertices
    const int from = out[std::size_t(i)];
    const int end = p.neighbourStart[std::size_t(from) + 1];
    for (int e = p.neighbourStart[std::size_t(from)]; e < end && n < kMaxManifoldPoints; ++e) {
      const int j = p.neighbours[std::size_t(e)];
      if (u.dot(p.vertices[std::size_t(j)]) > best + tol) continue;
      if (std::find(out.begin(), out.begin() + n, j) != out.begin() + n) continue;
      out[std::size_t(n++)] = j;
    }
  }
  return n;
}

}  // namespace

std::vector<PartInfo> partsOf(const se3::BodyShape& shape) {
  std::vector<PartInfo> parts;
  int s = 0;
  for (int i = 0; i < int(shape.ellipsoids.size()); ++i) {
    const se3::EllipsoidPart& e = shape.ellipsoids[std::size_t(i)];
    PartInfo p;
    p.kind = PartInfo::Kind::Ellipsoid;
    p.index = i;
    p.shapeIndex = s++;
    p.centre = e.centre;
    p.radius = largestSemiAxis(e);
    parts.push_back(p);
  }
  for (int i = 0; i < int(shape.polyhedra.size()); ++i) {
    const se3::PolyhedronPart& h = shape.polyhedra[std::size_t(i)];
    PartInfo p;
    p.kind = PartInfo::Kind::Polyhedron;
    p.index = i;
    p.shapeIndex = s++;
    p.rounding = h.epsilon;
    p.point = h.vertices.size() == 1;
    Vec3 lo = h.vertices.front(), hi = h.vertices.front();
    for (const Vec3& v : h.vertices) {
      lo = lo.cwiseMin(v);
      hi = hi.cwiseMax(v);
    }
    p.centre = 0.5 * (lo + hi);
    double r = 0.0;
    for (const Vec3& v : h.vertices) r = std::max(r, (v - p.centre).norm());
    p.radius = r + h.epsilon;
    parts.push_back(p);
  }
  for (int i = 0; i < int(shape.intersections.size()); ++i) {
    const se3::IntersectionPart& q = shape.intersections[std::size_t(i)];
    PartInfo p;
    p.kind = PartInfo::Kind::Intersection;
    p.index = i;
    p.shapeIndex = s++;
    const double r1 = largestSemiAxis(q.first), r2 = largestSemiAxis(q.second);
    p.centre = r1 <= r2 ? q.first.centre : q.second.centre;
    p.radius = std::min(r1, r2);
    parts.push_back(p);
  }
  return parts;
}

Vec3 coreSupport(const se3::BodyShape& shape, const PartInfo& part, const Vec3& u) {
  switch (part.kind) {
    case PartInfo::Kind::Ellipsoid: {
      const se3::EllipsoidPart& e = shape.ellipsoids[std::size_t(part.index)];
      const double r = (e.M * u).norm();
      return r > 0.0 ? Vec3(e.centre + (e.M2 * u) / r) : e.centre;
    }
    case PartInfo::Kind::Polyhedron: {
      const se3::PolyhedronPart& p = shape.polyhedra[std::size_t(part.index)];
      double best;
      return p.vertices[std::size_t(se3::lowestVertex(p, -u, best))];
    }
    case PartInfo::Kind::Intersection:
      return se3::lowestPoint(shape.intersections[std::size_t(part.index)], -u).rho;
  }
  return Vec3::Zero();
}

PairGap pairGap(const Placement& A, const PartInfo& pa, const Placement& B, const PartInfo& pb,
                const Vec3& guess) {
  PairGap out;
  const double radii = pa.rounding + pb.rounding;
  if (pa.point && pb.point) {  // two spheres: the centres' distance
    const Vec3 ca = A.x + A.R * A.shape->polyhedra[std::size_t(pa.index)].vertices[0];
    const Vec3 cb = B.x + B.R * B.shape->polyhedra[std::size_t(pb.index)].vertices[0];
    const Vec3 d = ca - cb;
    const double dist = d.norm();
    out.normal = dist > 0.0 ? Vec3(d / dist) : (guess.squaredNorm() > 0.0 ? guess.normalized() : Vec3::UnitZ());
    out.overlap = !(dist > 0.0);
    out.gap = dist - radii;
    out.pointA = ca - pa.rounding * out.normal;
    out.pointB = cb + pb.rounding * out.normal;
    out.rhoA = A.shape->polyhedra[std::size_t(pa.index)].vertices[0] -
               pa.rounding * (A.R.transpose() * out.normal);
    out.rhoB = B.shape->polyhedra[std::size_t(pb.index)].vertices[0] +
               pb.rounding * (B.R.transpose() * out.normal);
    return out;
  }
  const auto sa = [&](const Vec3& d) { return worldSupport(A, pa, d); };
  const auto sb = [&](const Vec3& d) { return worldSupport(B, pb, d); };
  const GjkResult r = gjkDistance(sa, sb, guess);
  out.converged = r.converged;
  if (r.overlap || !(r.distance > 0.0)) {
    out.overlap = true;
    out.gap = -radii;
    out.normal = guess.squaredNorm() > 0.0 ? guess.normalized() : Vec3::UnitZ();
    out.pointA = r.pointA;
    out.pointB = r.pointB;
    out.rhoA = A.R.transpose() * (out.pointA - A.x);
    out.rhoB = B.R.transpose() * (out.pointB - B.x);
    return out;
  }
  out.normal = (r.pointA - r.pointB) / r.distance;
  out.gap = r.distance - radii;
  out.pointA = r.pointA - pa.rounding * out.normal;
  out.pointB = r.pointB + pb.rounding * out.normal;
  // A point core (a sphere): the contact point exactly along the normal from its centre.
  out.rhoA = pa.point ? Vec3(A.shape->polyhedra[std::size_t(pa.index)].vertices[0] -
                             pa.rounding * (A.R.transpose() * out.normal))
                      : Vec3(A.R.transpose() * (out.pointA - A.x));
  out.rhoB = pb.point ? Vec3(B.shape->polyhedra[std::size_t(pb.index)].vertices[0] +
                             pb.rounding * (B.R.transpose() * out.normal))
                      : Vec3(B.R.transpose() * (out.pointB - B.x));
  return out;
}

PlaneGap planeGap(const Placement& A, const PartInfo& pa, const Vec3& n, double offset) {
  const Vec3 u = A.R.transpose() * n;
  se3::SupportPoint s;
  switch (pa.kind) {
    case PartInfo::Kind::Ellipsoid:
      s = se3::lowestPoint(A.shape->ellipsoids[std::size_t(pa.index)], u);
      break;
    case PartInfo::Kind::Polyhedron:
      s = se3::lowestPoint(A.shape->polyhedra[std::size_t(pa.index)], u);
      break;
    case PartInfo::Kind::Intersection:
      s = se3::lowestPoint(A.shape->intersections[std::size_t(pa.index)], u);
      break;
  }
  PlaneGap g;
  g.gap = (n.dot(A.x) - offset) + s.height;
  g.rho = s.rho;
  g.point = A.x + A.R * s.rho;
  g.ok = s.ok;
  g.iterations = s.iterations;
  g.residual = s.residual;
  return g;
}

void planeManifold(const Placement& A, const PartInfo& pa, const Vec3& n, double offset,
                   double tolerance, Manifold& out) {
  out.normal = n;
  out.count = 0;
  if (pa.kind != PartInfo::Kind::Polyhedron || pa.point) {
    const PlaneGap g = planeGap(A, pa, n, offset);
    out.points[0].pointA = g.point;
    out.points[0].pointB = g.point - g.gap * n;
    out.points[0].rhoA = g.rho;
    out.count = 1;
    return;
  }
  const se3::PolyhedronPart& p = A.shape->polyhedra[std::size_t(pa.index)];
  const Vec3 u = A.R.transpose() * n;
  std::array<int, kMaxManifoldPoints> idx{};
  const double base = n.dot(A.x) - offset - p.epsilon;
  // Every vertex within `tolerance` of the plane, also when the lowest one is pressed slightly
  // into it (a held vertex, by the constrained step's round-off): a tolerance relative to the
  // lowest vertex alone would drop a vertex that is touching too.
  double lowest;
  se3::lowestVertex(p, u, lowest);
  const int k = lowVertices(p, u, tolerance + std::max(0.0, -(base + lowest)), idx);
  for (int i = 0; i < k; ++i) {
    const Vec3& v = p.vertices[std::size_t(idx[std::size_t(i)])];
    const double gap = base + u.dot(v);
    if (!(gap <= tolerance) && out.count > 0) continue;
    ContactPoint& c = out.points[std::size_t(out.count++)];
    c.vertexA = idx[std::size_t(i)];
    c.rhoA = v - p.epsilon * u;
    c.pointA = A.x + A.R * c.rhoA;
    c.pointB = c.pointA - gap * n;
  }
}

void pairManifold(const Placement& A, const PartInfo& pa, const Placement& B, const PartInfo& pb,
                  const PairGap& g, double tolerance, Manifold& out) {
  out.normal = g.normal;
  out.count = 1;
  out.points[0].pointA = g.pointA;
  out.points[0].pointB = g.pointB;
  out.points[0].rhoA = g.rhoA;
  out.points[0].rhoB = g.rhoB;
  if (pa.kind != PartInfo::Kind::Polyhedron || pb.kind != PartInfo::Kind::Polyhedron || pa.point ||
      pb.point || g.overlap) {
    return;
  }
  // Contact features: A's vertices lowest along n (A lies on the +n side), B's highest.
  const se3::PolyhedronPart& ha = A.shape->polyhedra[std::size_t(pa.index)];
  const se3::PolyhedronPart& hb = B.shape->polyhedra[std::size_t(pb.index)];
  std::array<int, kMaxManifoldPoints> ia{}, ib{};
  const int na = lowVertices(ha, A.R.transpose() * g.normal, tolerance, ia);
  const int nb = lowVertices(hb, B.R.transpose() * Vec3(-g.normal), tolerance, ib);
  if (na < 2 || nb < 2) return;  // a vertex touches: GJK's witness is the contact point
  Vec3 t1, t2;
  tangentBasis(g.normal, t1, t2);
  std::array<Point2, kMaxManifoldPoints> pa2{}, pb2{}, ha2{}, hb2{}, cut{};
  for (int i = 0; i < na; ++i) {
    const Vec3 w = A.x + A.R * ha.vertices[std::size_t(ia[std::size_t(i)])];
    pa2[std::size_t(i)] = Point2(t1.dot(w), t2.dot(w));
  }
  for (int i = 0; i < nb; ++i) {
    const Vec3 w = B.x + B.R * hb.vertices[std::size_t(ib[std::size_t(i)])];
    pb2[std::size_t(i)] = Point2(t1.dot(w), t2.dot(w));
  }
  const int ca = hull2(pa2, na, ha2), cb = hull2(pb2, nb, hb2);
  int k = 0;
  if (cb >= 3) {
    k = clipConvex(ha2, ca, hb2, cb, cut);
  } else if (ca >= 3) {
    k = clipConvex(hb2, cb, ha2, ca, cut);
  } else {
    // Two segments: parallel and overlapping edges give their overlap's ends; crossing edges
    // touch at GJK's witness point.
    const Point2 da = ha2[1] - ha2[0], db = hb2[1] - hb2[0];
    const double crossAB = da.x() * db.y() - da.y() * db.x();
    if (std::fabs(crossAB) > 1e-9 * da.norm() * db.norm()) return;
    const double len2 = da.squaredNorm();
    double lo = 0.0, hi = 1.0;
    const double s0 = (hb2[0] - ha2[0]).dot(da) / len2, s1 = (hb2[1] - ha2[0]).dot(da) / len2;
    lo = std::max(lo, std::min(s0, s1));
    hi = std::min(hi, std::max(s0, s1));
    if (!(hi > lo)) return;
    cut[0] = ha2[0] + lo * da;
    cut[1] = ha2[0] + hi * da;
    k = 2;
  }
  if (k < 1) return;
  // Lift the 2-D points onto the two contact planes: A's surface at the witness level of A,
  // B's at B's (the witness points lie on the supporting planes).
  const double nA = g.normal.dot(g.pointA), nB = g.normal.dot(g.pointB);
  out.count = 0;
  for (int i = 0; i < k; ++i) {
    const Vec3 inPlane = cut[std::size_t(i)].x() * t1 + cut[std::size_t(i)].y() * t2;
    ContactPoint& c = out.points[std::size_t(out.count++)];
    c.pointA = inPlane + nA * g.normal;
    c.pointB = inPlane + nB * g.normal;
    c.rhoA = A.R.transpose() * (c.pointA - A.x);
    c.rhoB = B.R.transpose() * (c.pointB - B.x);
  }
}

}  // namespace ricochet::contact
