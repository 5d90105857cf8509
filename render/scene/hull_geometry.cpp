#include "render/scene/hull_geometry.hpp"

#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

#include <Eigen/Geometry>

#include <algorithm>
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
  // Vertex normals (mean of the faces around each vertex) push the corners out by the radius.
  std::vector<Vec3> vertexNormal(vertices.size(), Vec3::Zero());
  for (const auto& t : triangles) {
    if (!valid(vertices, t)) continue;
    const Vec3 n = faceNormal(vertices, t);
    for (int k : t) vertexNormal[std::size_t(k)] += n;
  }
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto normals = vtkSmartPointer<vtkFloatArray>::New();
  normals->SetNumberOfComponents(3);
  normals->SetName("Normals");
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  // Three points per triangle: flat shading, one normal per face.
  for (const auto& t : triangles) {
    if (!valid(vertices, t)) continue;
    const Vec3 n = faceNormal(vertices, t);
    vtkIdType ids[3];
    for (int k = 0; k < 3; ++k) {
      const std::size_t i = std::size_t(t[std::size_t(k)]);
      const Vec3 out = vertexNormal[i].norm() > 0.0 ? Vec3(vertexNormal[i].normalized()) : n;
      const Vec3 p = vertices[i] + radius * out;
      ids[k] = points->InsertNextPoint(p.data());
      addNormal(normals, n);
    }
    polys->InsertNextCell(3, ids);
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
