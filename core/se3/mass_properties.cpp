#include "core/se3/mass_properties.hpp"

#include <cmath>
#include <map>
#include <numbers>
#include <utility>

namespace ricochet::se3 {

namespace {

/// a b^T + b a^T.
Mat3 symOuter(const Vec3& a, const Vec3& b) { return a * b.transpose() + b * a.transpose(); }

/// Unit normal and area of a triangle (counter-clockwise from outside: the normal points out).
struct TriangleFrame {
  Vec3 normal = Vec3::Zero();
  double area = 0.0;
};
TriangleFrame frameOf(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 cross = (b - a).cross(c - a);
  const double twice = cross.norm();
  TriangleFrame f;
  f.area = 0.5 * twice;
  if (twice > 0.0) f.normal = cross / twice;
  return f;
}

/// The angle between two unit vectors, accurate for small and large angles, and the unit normal
/// of the plane through them (zero when they are parallel).
double angleBetween(const Vec3& a, const Vec3& b, Vec3* axis = nullptr) {
  const Vec3 c = a.cross(b);
  const double s = c.norm();
  if (axis) *axis = s > 0.0 ? Vec3(c / s) : Vec3::Zero();
  return std::atan2(s, a.dot(b));
}

}  // namespace

Moments moved(const Moments& m, const Mat3& Q, const Vec3& t) {
  Moments out;
  out.volume = m.volume;
  const Vec3 f = Q * m.first;
  out.first = f + m.volume * t;
  out.second = Q * m.second * Q.transpose() + symOuter(f, t) + m.volume * t * t.transpose();
  return out;
}

Moments ellipsoidMoments(const Vec3& semiAxes) {
  Moments m;
  m.volume = 4.0 / 3.0 * std::numbers::pi * semiAxes.prod();
  m.second = (m.volume / 5.0) * semiAxes.cwiseAbs2().asDiagonal();
  return m;
}

Moments roundedHullMoments(const ConvexHull& hull, double epsilon) {
  Moments out;
  if (!hull.ok() || hull.vertices.empty()) return out;
  // Everything relative to the vertex mean c0 (inside the hull): small numbers, less cancellation.
  Vec3 c0 = Vec3::Zero();
  for (const Vec3& v : hull.vertices) c0 += v;
  c0 /= double(hull.vertices.size());
  std::vector<Vec3> q;
  q.reserve(hull.vertices.size());
  for (const Vec3& v : hull.vertices) q.push_back(v - c0);

  Moments m;
  std::vector<TriangleFrame> frames;
  frames.reserve(hull.triangles.size());
  for (const auto& t : hull.triangles) {
    const Vec3 &a = q[std::size_t(t[0])], &b = q[std::size_t(t[1])], &c = q[std::size_t(t[2])];
    const Vec3 s = a + b + c;
    const Mat3 outer = a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose();
    // The tetrahedron (c0, a, b, c): volume a.(b x c)/6, centroid s/4, second moment V/20 (...).
    const double volume = a.dot(b.cross(c)) / 6.0;
    m.volume += volume;
    m.first += (volume / 4.0) * s;
    m.second += (volume / 20.0) * outer;
    frames.push_back(frameOf(a, b, c));
    if (!(epsilon > 0.0)) continue;
    // The slab over the face: prism T x [0, eps] n. int_T p dA = A s/3, int_T p p^T dA = A/12 outer.
    const TriangleFrame& f = frames.back();
    const Vec3 centre = s / 3.0;
    m.volume += epsilon * f.area;
    m.first += epsilon * f.area * centre + 0.5 * epsilon * epsilon * f.area * f.normal;
    m.second += (epsilon * f.area / 12.0) * outer +
                (0.5 * epsilon * epsilon * f.area) * symOuter(centre, f.normal) +
                (epsilon * epsilon * epsilon * f.area / 3.0) * f.normal * f.normal.transpose();
  }
  if (epsilon > 0.0) {
    const double e2 = epsilon * epsilon, e3 = e2 * epsilon, e4 = e3 * epsilon, e5 = e4 * epsilon;
    // Directed edge (a, b) -> the triangle that has it (counter-clockwise from outside).
    std::map<std::pair<int, int>, std::size_t> edgeOwner;
    for (std::size_t i = 0; i < hull.triangles.size(); ++i) {
      const auto& t = hull.triangles[i];
      for (int k = 0; k < 3; ++k) edgeOwner[{t[std::size_t(k)], t[std::size_t((k + 1) % 3)]}] = i;
    }
    // Edge wedges: around the edge a -> b, the offset direction turns from n1 (the face with
    // a -> b) to n2 (the face with b -> a) through the exterior angle psi.
    for (const auto& [edge, t1] : edgeOwner) {
      if (edge.first > edge.second) continue;  // each undirected edge once
      const auto other = edgeOwner.find({edge.second, edge.first});
      if (other == edgeOwner.end()) continue;  // an open mesh (not a hull): no wedge
      const Vec3 &n1 = frames[t1].normal, &n2 = frames[other->second].normal;
      const double psi = angleBetween(n1, n2);
      if (!(psi > 0.0)) continue;  // two triangles of one flat face
      const Vec3 w = (n2 - n1.dot(n2) * n1).normalized();
      const Vec3 &a = q[std::size_t(edge.first)], &b = q[std::size_t(edge.second)];
      const double L = (b - a).norm();
      const Vec3 mid = 0.5 * (a + b);
      const double sinHalf = std::sin(0.5 * psi);
      const Vec3 omega1 = std::sin(psi) * n1 + 2.0 * sinHalf * sinHalf * w;  // int_0^psi omega
      const double s2 = std::sin(2.0 * psi) / 4.0, sinPsi = std::sin(psi);
      const Mat3 omega2 = (0.5 * psi + s2) * n1 * n1.transpose() +
                          (0.5 * psi - s2) * w * w.transpose() +
                          (0.5 * sinPsi * sinPsi) * symOuter(n1, w);  // int omega omega^T
      const Mat3 segment = (L / 3.0) * (a * a.transpose() + b * b.transpose()) + (L / 6.0) * symOuter(a, b);
      const double area = 0.5 * e2 * psi;  // of the wedge's cross-section
      m.volume += L * area;
      m.first += (L * area) * mid + (L * e3 / 3.0) * omega1;
      m.second += area * segment + (L * e3 / 3.0) * symOuter(mid, omega1) + (L * e4 / 4.0) * omega2;
    }
    // Vertex sectors: the triangles around v in order (t = (v, p, r) is followed by the one
    // with the directed edge v -> r), whose normals bound v's normal cone on the unit sphere.
    std::vector<std::size_t> firstTriangle(q.size(), hull.triangles.size());
    for (std::size_t i = 0; i < hull.triangles.size(); ++i) {
      for (int v : hull.triangles[i]) {
        if (firstTriangle[std::size_t(v)] == hull.triangles.size()) firstTriangle[std::size_t(v)] = i;
      }
    }
    std::vector<Vec3> normals;
    for (std::size_t v = 0; v < q.size(); ++v) {
      if (firstTriangle[v] == hull.triangles.size()) continue;
      normals.clear();
      std::size_t t = firstTriangle[v];
      for (std::size_t guard = 0; guard <= hull.triangles.size(); ++guard) {
        normals.push_back(frames[t].normal);
        const auto& tri = hull.triangles[t];
        int k = 0;
        while (tri[std::size_t(k)] != int(v)) ++k;
        const int next = tri[std::size_t((k + 2) % 3)];
        const auto it = edgeOwner.find({int(v), next});
        if (it == edgeOwner.end() || it->second == firstTriangle[v]) break;
        t = it->second;
      }
      double solidAngle = 0.0;
      Vec3 w = Vec3::Zero();  // int over the cone of omega dOmega
      const std::size_t k = normals.size();
      for (std::size_t i = 1; i + 1 < k; ++i) {
        const Vec3 &a = normals[0], &b = normals[i], &c = normals[i + 1];
        solidAngle += 2.0 * std::atan2(a.dot(b.cross(c)), 1.0 + a.dot(b) + b.dot(c) + c.dot(a));
      }
      for (std::size_t i = 0; i < k; ++i) {
        Vec3 axis;
        const double theta = angleBetween(normals[i], normals[(i + 1) % k], &axis);
        w += (0.5 * theta) * axis;
      }
      const Vec3& p = q[v];
      m.volume += e3 / 3.0 * solidAngle;
      m.first += (e3 / 3.0 * solidAngle) * p + (e4 / 4.0) * w;
      m.second += (e3 / 3.0 * solidAngle) * p * p.transpose() + (e4 / 4.0) * symOuter(p, w);
    }
    m.second += (e5 / 5.0 * 4.0 * std::numbers::pi / 3.0) * Mat3::Identity();
  }
  return moved(m, Mat3::Identity(), c0);
}

MassProperties massPropertiesOf(const Moments& m, double mass) {
  MassProperties out;
  if (!(m.volume > 0.0)) return out;
  out.volume = m.volume;
  out.centroid = m.first / m.volume;
  const Mat3 Jd = (mass / m.volume) * (m.second - m.volume * out.centroid * out.centroid.transpose());
  out.J = standardInertia(Jd);
  return out;
}

MassProperties massProperties(const PolyhedronPart& p, double mass) {
  const ConvexHull hull = convexHull(p.vertices);
  if (!hull.ok()) return {};
  MassProperties out = massPropertiesOf(roundedHullMoments(hull, 0.0), mass);
  out.faces = hull.faces;
  return out;
}

}  // namespace ricochet::se3
