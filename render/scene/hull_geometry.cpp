#include "render/scene/hull_geometry.hpp"

#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace ricochet::render::geometry {
namespace {

using Vec3 = Eigen::Vector3d;
using Triangles = std::vector<std::array<int, 3>>;

Vec3 faceNormal(const std::vector<Vec3>& v, const std::array<int, 3>& t) {
  const Vec3 n = (v[std::size_t(t[1])] - v[std::size_t(t[0])]).cross(v[std::size_t(t[2])] - v[std::size_t(t[0])]);
  const double length = n.norm();
  return length > 0.0 ? Vec3(n / length) : Vec3::Zero();
}

bool valid(const std::vector<Vec3>& v, const std::array<int, 3>& t) {
  for (int k : t) {
    if (k < 0 || std::size_t(k) >= v.size()) return false;
  }
  return true;
}

void addNormal(vtkFloatArray* normals, const Vec3& n) {
  const float f[3] = {float(n.x()), float(n.y()), float(n.z())};
  normals->InsertNextTuple(f);
}

}  // namespace

vtkSmartPointer<vtkPolyData> roundedHull(const std::vector<Vec3>& vertices, const Triangles& triangles,
                                         double radius) {
  // The hull grown by a ball of `radius` (what epsilon-rounding is: every point at distance
  // `radius` from the hull): each face moved out along its own normal, a strip of cylinder along
  // each edge between faces of different planes, a patch of sphere at each corner. Faces are flat
  // shaded with their normal, the strips and patches smooth with the sphere's. (Moving each
  // vertex along the mean of its faces' normals instead warps the faces: a face's corners move
  // out by different amounts, and at a grazing view a sliver of a face turned away from the
  // camera shows, lit as a back face: a dark line along the edge.)
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto normals = vtkSmartPointer<vtkFloatArray>::New();
  normals->SetNumberOfComponents(3);
  normals->SetName("Normals");
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  const auto point = [&](const Vec3& p, const Vec3& n) {
    addNormal(normals, n);
    return points->InsertNextPoint(p.data());
  };
  // Outward: the triangle (a, b, c) turned so that its normal agrees with `out`.
  const auto triangle = [&](vtkIdType a, vtkIdType b, vtkIdType c, const Vec3& pa, const Vec3& pb,
                            const Vec3& pc, const Vec3& out) {
    vtkIdType ids[3] = {a, b, c};
    if ((pb - pa).cross(pc - pa).dot(out) < 0.0) std::swap(ids[1], ids[2]);
    polys->InsertNextCell(3, ids);
  };

  std::vector<Vec3> faceNormals;
  faceNormals.reserve(triangles.size());
  for (const auto& t : triangles)
    faceNormals.push_back(valid(vertices, t) ? faceNormal(vertices, t) : Vec3::Zero());
  // Three points per triangle: flat shading, one normal per face.
  for (std::size_t f = 0; f < triangles.size(); ++f) {
    const auto& t = triangles[f];
    const Vec3& n = faceNormals[f];
    if (!valid(vertices, t) || n.isZero()) continue;
    vtkIdType ids[3];
    for (int k = 0; k < 3; ++k)
      ids[k] = point(vertices[std::size_t(t[std::size_t(k)])] + radius * n, n);
    polys->InsertNextCell(3, ids);
  }
  if (!(radius > 0.0)) {
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(points);
    pd->SetPolys(polys);
    pd->GetPointData()->SetNormals(normals);
    return pd;
  }

  // The edges between triangles of different planes (a face's own diagonals need nothing).
  std::map<std::pair<int, int>, std::vector<std::size_t>> edgeFaces;
  for (std::size_t f = 0; f < triangles.size(); ++f) {
    const auto& t = triangles[f];
    if (!valid(vertices, t) || faceNormals[f].isZero()) continue;
    for (int k = 0; k < 3; ++k) {
      const int a = t[std::size_t(k)], b = t[std::size_t((k + 1) % 3)];
      edgeFaces[{std::min(a, b), std::max(a, b)}].push_back(f);
    }
  }
  // The arc from n0 to n1 on the unit sphere, in steps of at most 15 degrees.
  const auto arc = [](const Vec3& n0, const Vec3& n1) {
    const double angle = std::acos(std::clamp(n0.dot(n1), -1.0, 1.0));
    const int steps = std::clamp(int(std::ceil(angle / (std::acos(-1.0) / 12.0))), 1, 12);
    std::vector<Vec3> out;
    for (int j = 0; j <= steps; ++j) {
      const double s = double(j) / double(steps);
      // Spherical interpolation (the normals are never opposite on a convex hull's edge).
      const double sa = std::sin(angle);
      const Vec3 d = sa > 1e-12
                         ? Vec3((std::sin((1.0 - s) * angle) * n0 + std::sin(s * angle) * n1) / sa)
                         : Vec3(((1.0 - s) * n0 + s * n1).normalized());
      out.push_back(d.normalized());
    }
    return out;
  };
  std::vector<std::vector<std::vector<Vec3>>> cornerArcs(vertices.size());  // per vertex
  std::vector<Vec3> cornerSum(vertices.size(), Vec3::Zero());
  for (const auto& [edge, faces] : edgeFaces) {
    if (faces.size() != 2) continue;
    const Vec3& n0 = faceNormals[faces[0]];
    const Vec3& n1 = faceNormals[faces[1]];
    if (n0.dot(n1) >= 1.0 - 1e-9) continue;  // one plane
    const std::vector<Vec3> dirs = arc(n0, n1);
    const Vec3& a = vertices[std::size_t(edge.first)];
    const Vec3& b = vertices[std::size_t(edge.second)];
    // The strip: quads between consecutive directions, each point smooth with its direction.
    for (std::size_t j = 0; j + 1 < dirs.size(); ++j) {
      const Vec3 pa0 = a + radius * dirs[j], pb0 = b + radius * dirs[j];
      const Vec3 pa1 = a + radius * dirs[j + 1], pb1 = b + radius * dirs[j + 1];
      const vtkIdType ia0 = point(pa0, dirs[j]), ib0 = point(pb0, dirs[j]);
      const vtkIdType ia1 = point(pa1, dirs[j + 1]), ib1 = point(pb1, dirs[j + 1]);
      const Vec3 out = (dirs[j] + dirs[j + 1]).normalized();
      triangle(ia0, ib0, ib1, pa0, pb0, pb1, out);
      triangle(ia0, ib1, ia1, pa0, pb1, pa1, out);
    }
    for (int v : {edge.first, edge.second}) {
      cornerArcs[std::size_t(v)].push_back(dirs);
      cornerSum[std::size_t(v)] += n0 + n1;
    }
  }
  // The corners: from the corner's mean direction out to the arcs of its edges, which close
  // around it (the normals of a convex corner's faces bound a convex patch of the sphere), in
  // rings at most 15 degrees apart.
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    if (cornerArcs[v].size() < 3 || cornerSum[v].isZero()) continue;
    const Vec3 c = cornerSum[v].normalized();
    const Vec3 pc = vertices[v] + radius * c;
    const vtkIdType ic = point(pc, c);
    for (const std::vector<Vec3>& dirs : cornerArcs[v]) {
      for (std::size_t j = 0; j + 1 < dirs.size(); ++j) {
        const std::vector<Vec3> left = arc(c, dirs[j]), right = arc(c, dirs[j + 1]);
        const std::size_t rings = std::max(left.size(), right.size()) - 1;
        const auto at = [&](const std::vector<Vec3>& ray, std::size_t k) {
          // The ray's direction at ring k of `rings` (the rays may have fewer steps).
          const double s = double(k) / double(rings) * double(ray.size() - 1);
          const std::size_t i = std::min(std::size_t(s), ray.size() - 2);
          const double f = s - double(i);
          return Vec3(((1.0 - f) * ray[i] + f * ray[i + 1]).normalized());
        };
        Vec3 l0 = c, r0 = c;
        vtkIdType il0 = ic, ir0 = ic;
        for (std::size_t k = 1; k <= rings; ++k) {
          const Vec3 l1 = at(left, k), r1 = at(right, k);
          const Vec3 pl0 = vertices[v] + radius * l0, pr0 = vertices[v] + radius * r0;
          const Vec3 pl1 = vertices[v] + radius * l1, pr1 = vertices[v] + radius * r1;
          const vtkIdType il1 = point(pl1, l1), ir1 = point(pr1, r1);
          if (k == 1) {
            triangle(ic, il1, ir1, pc, pl1, pr1, c);
          } else {
            const Vec3 out = (l0 + r1).normalized();
            triangle(il0, il1, ir1, pl0, pl1, pr1, out);
            triangle(il0, ir1, ir0, pl0, pr1, pr0, out);
          }
          l0 = l1;
          r0 = r1;
          il0 = il1;
          ir0 = ir1;
        }
      }
    }
  }
  auto pd = vtkSmartPointer<vtkPolyData>::New();
  pd->SetPoints(points);
  pd->SetPolys(polys);
  pd->GetPointData()->SetNormals(normals);
  return pd;
}

vtkSmartPointer<vtkPolyData> hullEdges(const std::vector<Vec3>& vertices, const Triangles& triangles,
                                       std::size_t maxTriangles) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  if (triangles.size() <= maxTriangles) {
    // Each undirected edge with the normals of the (two) triangles that share it.
    std::map<std::pair<int, int>, std::vector<Vec3>> edges;
    for (const auto& t : triangles) {
      if (!valid(vertices, t)) continue;
      const Vec3 n = faceNormal(vertices, t);
      for (int k = 0; k < 3; ++k) {
        const int a = t[std::size_t(k)], b = t[std::size_t((k + 1) % 3)];
        edges[{std::min(a, b), std::max(a, b)}].push_back(n);
      }
    }
    for (const auto& [edge, normals] : edges) {
      const bool crease = normals.size() != 2 || normals[0].dot(normals[1]) < 1.0 - 1e-9;
      if (!crease) continue;
      vtkIdType ids[2] = {points->InsertNextPoint(vertices[std::size_t(edge.first)].data()),
                          points->InsertNextPoint(vertices[std::size_t(edge.second)].data())};
      lines->InsertNextCell(2, ids);
    }
  }
  auto pd = vtkSmartPointer<vtkPolyData>::New();
  pd->SetPoints(points);
  pd->SetLines(lines);
  return pd;
}

vtkSmartPointer<vtkPolyData> surface(const std::vector<Vec3>& points, const Triangles& triangles) {
  std::vector<Vec3> pointNormal(points.size(), Vec3::Zero());
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  for (const auto& t : triangles) {
    if (!valid(points, t)) continue;
    const Vec3 n = faceNormal(points, t);
    for (int k : t) pointNormal[std::size_t(k)] += n;
    const vtkIdType ids[3] = {t[0], t[1], t[2]};
    polys->InsertNextCell(3, ids);
  }
  auto pts = vtkSmartPointer<vtkPoints>::New();
  auto normals = vtkSmartPointer<vtkFloatArray>::New();
  normals->SetNumberOfComponents(3);
  normals->SetName("Normals");
  for (std::size_t i = 0; i < points.size(); ++i) {
    pts->InsertNextPoint(points[i].data());
    addNormal(normals, pointNormal[i].norm() > 0.0 ? Vec3(pointNormal[i].normalized()) : Vec3::UnitZ());
  }
  auto pd = vtkSmartPointer<vtkPolyData>::New();
  pd->SetPoints(pts);
  pd->SetPolys(polys);
  pd->GetPointData()->SetNormals(normals);
  return pd;
}

}  // namespace ricochet::render::geometry
