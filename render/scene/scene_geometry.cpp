#include "render/scene/scene_geometry.hpp"

#include <vtkCellArray.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkDiskSource.h>
#include <vtkFloatArray.h>
#include <vtkPointData.h>
#include <vtkCellData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ricochet::render::geometry {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Collects points (with normals), triangles and lines, then hands out a vtkPolyData.
class MeshBuilder {
 public:
  MeshBuilder() { normals_->SetNumberOfComponents(3); }
  vtkIdType point(const Eigen::Vector3d& p, const Eigen::Vector3d& n = Eigen::Vector3d::Zero()) {
    points_->InsertNextPoint(p.data());
    const float nf[3] = {static_cast<float>(n.x()), static_cast<float>(n.y()),
                         static_cast<float>(n.z())};
    normals_->InsertNextTuple(nf);
    return points_->GetNumberOfPoints() - 1;
  }
  void triangle(vtkIdType a, vtkIdType b, vtkIdType c) {
    const vtkIdType ids[3] = {a, b, c};
    polys_->InsertNextCell(3, ids);
  }
  void line(vtkIdType a, vtkIdType b) {
    const vtkIdType ids[2] = {a, b};
    lines_->InsertNextCell(2, ids);
  }
  void polyline(const std::vector<vtkIdType>& ids) {
    lines_->InsertNextCell(static_cast<vtkIdType>(ids.size()), ids.data());
  }
  vtkSmartPointer<vtkPolyData> build(bool withNormals) {
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(points_);
    if (polys_->GetNumberOfCells() > 0) pd->SetPolys(polys_);
    if (lines_->GetNumberOfCells() > 0) pd->SetLines(lines_);
    if (withNormals) {
      normals_->SetName("Normals");
      pd->GetPointData()->SetNormals(normals_);
    }
    return pd;
  }

 private:
  vtkNew<vtkPoints> points_;
  vtkNew<vtkFloatArray> normals_;
  vtkNew<vtkCellArray> polys_;
  vtkNew<vtkCellArray> lines_;
};

double cross2(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return a.x() * b.y() - a.y() * b.x();
}

// Closed (boundary included) point-in-triangle test for a counter-clockwise triangle.
bool inTriangle(const Eigen::Vector2d& p, const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                const Eigen::Vector2d& c, double eps) {
  return cross2(b - a, p - a) >= -eps && cross2(c - b, p - b) >= -eps &&
         cross2(a - c, p - c) >= -eps;
}

// Outline in counter-clockwise order without repeated consecutive points.
std::vector<Eigen::Vector2d> ccwOutline(const std::vector<Eigen::Vector2d>& outline) {
  std::vector<Eigen::Vector2d> out;
  for (const Eigen::Vector2d& p : outline) {
    if (out.empty() || (p - out.back()).norm() > 0.0) out.push_back(p);
  }
  while (out.size() > 1 && (out.front() - out.back()).norm() == 0.0) out.pop_back();
  if (signedArea(out) < 0.0) std::reverse(out.begin(), out.end());
  return out;
}

// Offsets of the sample lines across a rounded box face along one axis of half-extent `a`:
// the flat middle needs only its two ends; each rounded band [a - r, a] gets `k` steps placed at
// equal angles of the edge's quarter circle (a - r + r tan(theta), theta up to 45 degrees, the
// neighbouring face covers the other 45).
std::vector<double> roundedSamples(double a, double r, int k) {
  const double inner = a - r;
  std::vector<double> s;
  for (int m = k; m >= 0; --m) s.push_back(-(inner + r * std::tan(m * (kPi / 4.0) / k)));
  for (int m = 0; m <= k; ++m) {
    const double v = inner + r * std::tan(m * (kPi / 4.0) / k);
    if (v > s.back() + 1e-12 * a) s.push_back(v);
  }
  return s;
}

}  // namespace

double signedArea(const std::vector<Eigen::Vector2d>& outline) {
  double twice = 0.0;
  const std::size_t n = outline.size();
  for (std::size_t i = 0; i < n; ++i) twice += cross2(outline[i], outline[(i + 1) % n]);
  return 0.5 * twice;
}

std::vector<std::array<int, 3>> triangulate(const std::vector<Eigen::Vector2d>& outline) {
  std::vector<std::array<int, 3>> tris;
  const int n = static_cast<int>(outline.size());
  if (n < 3) return tris;
  double extent = 0.0;
  for (const auto& p : outline) extent = std::max(extent, (p - outline.front()).norm());
  const double eps = 1e-12 * extent * extent;
  const double area = signedArea(outline);
  if (!(std::fabs(area) > eps)) return tris;

  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  if (area < 0.0) std::reverse(idx.begin(), idx.end());
  // Drop exact duplicates of the previous vertex (they would make zero-length edges).
  idx.erase(std::unique(idx.begin(), idx.end(),
                        [&](int a, int b) { return (outline[a] - outline[b]).norm() == 0.0; }),
            idx.end());

  // Ear clipping: a convex vertex whose triangle holds no other vertex is cut off. Each pass
  // removes one vertex, so at most n passes; a self-intersecting outline stops early.
  while (idx.size() > 3) {
    const int m = static_cast<int>(idx.size());
    bool cut = false;
    for (int i = 0; i < m && !cut; ++i) {
      const int a = idx[(i + m - 1) % m], b = idx[i], c = idx[(i + 1) % m];
      const Eigen::Vector2d &A = outline[a], &B = outline[b], &C = outline[c];
      if (cross2(B - A, C - B) <= eps) continue;  // reflex or straight: not an ear
      bool empty = true;
      for (int j : idx) {
        if (j == a || j == b || j == c) continue;
        const Eigen::Vector2d& P = outline[j];
        if ((P - A).norm() == 0.0 || (P - B).norm() == 0.0 || (P - C).norm() == 0.0) continue;
        if (inTriangle(P, A, B, C, eps)) {
          empty = false;
          break;
        }
      }
      if (!empty) continue;
      tris.push_back({a, b, c});
      idx.erase(idx.begin() + i);
      cut = true;
    }
    if (!cut) {
      // Only straight-angle vertices can block every ear of a simple polygon: drop one (it adds
      // no area). Otherwise the outline self-intersects; keep what was triangulated.
      bool dropped = false;
      for (int i = 0; i < m && !dropped; ++i) {
        const Eigen::Vector2d& A = outline[idx[(i + m - 1) % m]];
        const Eigen::Vector2d& B = outline[idx[i]];
        const Eigen::Vector2d& C = outline[idx[(i + 1) % m]];
        if (std::fabs(cross2(B - A, C - B)) <= eps) {
          idx.erase(idx.begin() + i);
          dropped = true;
        }
      }
      if (!dropped) break;
    }
  }
  if (idx.size() == 3 &&
      cross2(outline[idx[1]] - outline[idx[0]], outline[idx[2]] - outline[idx[1]]) > eps) {
    tris.push_back({idx[0], idx[1], idx[2]});
  }
  return tris;
}

vtkSmartPointer<vtkPolyData> sphere(double radius) {
  vtkNew<vtkSphereSource> src;
  src->SetRadius(radius);
  src->SetThetaResolution(64);
  src->SetPhiResolution(40);
  src->Update();
  return src->GetOutput();
}

vtkSmartPointer<vtkPolyData> ellipsoid(const Eigen::Vector3d& semiAxes) {
  vtkSmartPointer<vtkPolyData> pd = sphere(1.0);
  vtkPoints* pts = pd->GetPoints();
  vtkDataArray* normals = pd->GetPointData()->GetNormals();
  for (vtkIdType i = 0; i < pts->GetNumberOfPoints(); ++i) {
    Eigen::Vector3d u;
    pts->GetPoint(i, u.data());
    const Eigen::Vector3d p = u.cwiseProduct(semiAxes);
    // Normal = gradient of sum (x_k / a_k)^2, i.e. x_k / a_k^2 = u_k / a_k.
    const Eigen::Vector3d n = u.cwiseQuotient(semiAxes).normalized();
    pts->SetPoint(i, p.data());
    normals->SetTuple3(i, n.x(), n.y(), n.z());
  }
  return pd;
}

vtkSmartPointer<vtkPolyData> prism(const std::vector<Eigen::Vector2d>& outlineIn, double depth) {
  const std::vector<Eigen::Vector2d> outline = ccwOutline(outlineIn);
  const int n = static_cast<int>(outline.size());
  MeshBuilder mb;
  const double zt = 0.5 * depth, zb = -0.5 * depth;
  // Caps.
  const auto tris = triangulate(outline);
  std::vector<vtkIdType> top(n), bottom(n);
  for (int i = 0; i < n; ++i) {
    top[i] = mb.point({outline[i].x(), outline[i].y(), zt}, Eigen::Vector3d::UnitZ());
    bottom[i] = mb.point({outline[i].x(), outline[i].y(), zb}, -Eigen::Vector3d::UnitZ());
  }
  for (const auto& t : tris) {
    mb.triangle(top[t[0]], top[t[1]], top[t[2]]);
    mb.triangle(bottom[t[0]], bottom[t[2]], bottom[t[1]]);
  }
  // Sides: outward normal of a counter-clockwise edge (dx, dy) is (dy, -dx).
  std::vector<Eigen::Vector3d> edgeNormal(n);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d e = outline[(i + 1) % n] - outline[i];
    edgeNormal[i] = Eigen::Vector3d(e.y(), -e.x(), 0.0).normalized();
  }
  // Smooth across a vertex when the outline turns by less than 25 degrees there.
  const double smoothCos = std::cos(25.0 * kPi / 180.0);
  auto smoothAt = [&](int i) { return edgeNormal[(i + n - 1) % n].dot(edgeNormal[i]) > smoothCos; };
  auto vertexNormal = [&](int i) {
    return (edgeNormal[(i + n - 1) % n] + edgeNormal[i]).normalized().eval();
  };
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    const Eigen::Vector3d ni = smoothAt(i) ? vertexNormal(i) : edgeNormal[i];
    const Eigen::Vector3d nj = smoothAt(j) ? vertexNormal(j) : edgeNormal[i];
    const vtkIdType b0 = mb.point({outline[i].x(), outline[i].y(), zb}, ni);
    const vtkIdType b1 = mb.point({outline[j].x(), outline[j].y(), zb}, nj);
    const vtkIdType t1 = mb.point({outline[j].x(), outline[j].y(), zt}, nj);
    const vtkIdType t0 = mb.point({outline[i].x(), outline[i].y(), zt}, ni);
    mb.triangle(b0, b1, t1);
    mb.triangle(b0, t1, t0);
  }
  return mb.build(true);
}

vtkSmartPointer<vtkPolyData> prismEdges(const std::vector<Eigen::Vector2d>& outlineIn,
                                        double depth) {
  const std::vector<Eigen::Vector2d> outline = ccwOutline(outlineIn);
  const int n = static_cast<int>(outline.size());
  MeshBuilder mb;
  std::vector<vtkIdType> top, bottom;
  for (int i = 0; i <= n; ++i) {
    const Eigen::Vector2d& p = outline[i % n];
    top.push_back(mb.point({p.x(), p.y(), 0.5 * depth}));
    bottom.push_back(mb.point({p.x(), p.y(), -0.5 * depth}));
  }
  mb.polyline(top);
  mb.polyline(bottom);
  const double creaseCos = std::cos(25.0 * kPi / 180.0);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d a = (outline[i] - outline[(i + n - 1) % n]).normalized();
    const Eigen::Vector2d b = (outline[(i + 1) % n] - outline[i]).normalized();
    if (a.dot(b) <= creaseCos) mb.line(top[i], bottom[i]);
  }
  return mb.build(false);
}

vtkSmartPointer<vtkPolyData> box(const Eigen::Vector3d& h, double cornerRadius) {
  const double r = std::min(cornerRadius, h.minCoeff());
  if (!(r > 1e-3 * h.minCoeff())) {
    vtkNew<vtkCubeSource> cube;
    cube->SetXLength(2 * h.x());
    cube->SetYLength(2 * h.y());
    cube->SetZLength(2 * h.z());
    cube->Update();
    return cube->GetOutput();
  }
  // Sample each face on a grid dense only in the rounded bands, then map every grid point q on
  // the box surface to inner + r * normalize(q - inner), inner = q clamped to the box h - r.
  const Eigen::Vector3d inner = (h.array() - r).matrix();
  std::array<std::vector<double>, 3> samples;
  for (int k = 0; k < 3; ++k) samples[k] = roundedSamples(h[k], r, 8);
  MeshBuilder mb;
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;  // e_i x e_j = e_k
    for (double s : {1.0, -1.0}) {
      const auto& su = samples[i];
      const auto& sv = samples[j];
      std::vector<vtkIdType> ids(su.size() * sv.size());
      for (std::size_t a = 0; a < su.size(); ++a) {
        for (std::size_t b = 0; b < sv.size(); ++b) {
          Eigen::Vector3d q;
          q[k] = s * h[k];
          q[i] = su[a];
          q[j] = sv[b];
          const Eigen::Vector3d c = q.cwiseMax(-inner).cwiseMin(inner);
          Eigen::Vector3d nrm = q - c;
          nrm = nrm.norm() > 0.0 ? nrm.normalized() : (s * Eigen::Vector3d::Unit(k)).eval();
          ids[a * sv.size() + b] = mb.point(c + r * nrm, nrm);
        }
      }
      for (std::size_t a = 0; a + 1 < su.size(); ++a) {
        for (std::size_t b = 0; b + 1 < sv.size(); ++b) {
          const vtkIdType p00 = ids[a * sv.size() + b], p10 = ids[(a + 1) * sv.size() + b];
          const vtkIdType p01 = ids[a * sv.size() + b + 1], p11 = ids[(a + 1) * sv.size() + b + 1];
          if (s > 0) {
            mb.triangle(p00, p10, p11);
            mb.triangle(p00, p11, p01);
          } else {
            mb.triangle(p00, p11, p10);
            mb.triangle(p00, p01, p11);
          }
        }
      }
    }
  }
  return mb.build(true);
}

vtkSmartPointer<vtkPolyData> boxEdges(const Eigen::Vector3d& h) {
  MeshBuilder mb;
  std::array<vtkIdType, 8> v;
  for (int i = 0; i < 8; ++i) {
    v[i] = mb.point({(i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z()});
  }
  for (int i = 0; i < 8; ++i) {
    for (int bit : {1, 2, 4}) {
      if (!(i & bit)) mb.line(v[i], v[i | bit]);  // the 12 edges: corners differing in one bit
    }
  }
  return mb.build(false);
}

vtkSmartPointer<vtkPolyData> cylinder(double radius, double length) {
  vtkNew<vtkCylinderSource> src;
  src->SetRadius(radius);
  src->SetHeight(length);
  src->SetResolution(96);
  src->CappingOn();
  vtkNew<vtkTransform> yToZ;
  yToZ->RotateX(90.0);  // vtkCylinderSource's axis is y; ours is z
  vtkNew<vtkTransformPolyDataFilter> tf;
  tf->SetTransform(yToZ);
  tf->SetInputConnection(src->GetOutputPort());
  tf->Update();
  return tf->GetOutput();
}

vtkSmartPointer<vtkPolyData> axesMarkers(const Eigen::Vector3d& origin,
                                         const Eigen::Vector3d& lengths) {
  MeshBuilder mb;
  for (int k = 0; k < 3; ++k) {
    const vtkIdType a = mb.point(origin);
    const vtkIdType b = mb.point(origin + lengths[k] * Eigen::Vector3d::Unit(k));
    mb.line(a, b);
  }
  vtkSmartPointer<vtkPolyData> pd = mb.build(false);
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetName("AxisColors");
  colors->SetNumberOfComponents(3);
  colors->InsertNextTuple3(214, 39, 40);   // x: red
  colors->InsertNextTuple3(44, 160, 44);   // y: green
  colors->InsertNextTuple3(31, 119, 220);  // z: blue
  pd->GetCellData()->SetScalars(colors);
  return pd;
}

vtkSmartPointer<vtkPolyData> tube(double radius, double height) {
  constexpr int kRes = 128;
  MeshBuilder mb;
  std::vector<vtkIdType> lo(kRes + 1), hi(kRes + 1);
  for (int i = 0; i <= kRes; ++i) {
    const double a = 2.0 * kPi * i / kRes;
    const Eigen::Vector3d n(std::cos(a), std::sin(a), 0.0);
    lo[i] = mb.point(radius * n, n);
    hi[i] = mb.point(radius * n + height * Eigen::Vector3d::UnitZ(), n);
  }
  for (int i = 0; i < kRes; ++i) {
    mb.triangle(lo[i], lo[i + 1], hi[i + 1]);
    mb.triangle(lo[i], hi[i + 1], hi[i]);
  }
  return mb.build(true);
}

vtkSmartPointer<vtkPolyData> tubeOutline(double radius, double height, int generators) {
  constexpr int kRes = 128;
  MeshBuilder mb;
  for (double z : {0.0, height}) {
    std::vector<vtkIdType> loop;
    for (int i = 0; i <= kRes; ++i) {
      const double a = 2.0 * kPi * i / kRes;
      loop.push_back(mb.point({radius * std::cos(a), radius * std::sin(a), z}));
    }
    mb.polyline(loop);
  }
  for (int g = 0; g < generators; ++g) {
    const double a = 2.0 * kPi * g / generators;
    mb.line(mb.point({radius * std::cos(a), radius * std::sin(a), 0.0}),
            mb.point({radius * std::cos(a), radius * std::sin(a), height}));
  }
  return mb.build(false);
}

vtkSmartPointer<vtkPolyData> disc(double radius) {
  constexpr int kRes = 128;
  MeshBuilder mb;
  const vtkIdType c = mb.point(Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ());
  std::vector<vtkIdType> rim(kRes + 1);
  for (int i = 0; i <= kRes; ++i) {
    const double a = 2.0 * kPi * i / kRes;
    rim[i] = mb.point({radius * std::cos(a), radius * std::sin(a), 0.0}, Eigen::Vector3d::UnitZ());
  }
  for (int i = 0; i < kRes; ++i) mb.triangle(c, rim[i], rim[i + 1]);
  return mb.build(true);
}

vtkSmartPointer<vtkPolyData> polarGrid(double radius, double ringSpacing, int spokes) {
  constexpr int kRes = 128;
  MeshBuilder mb;
  auto circle = [&](double rr) {
    std::vector<vtkIdType> loop;
    for (int i = 0; i <= kRes; ++i) {
      const double a = 2.0 * kPi * i / kRes;
      loop.push_back(mb.point({rr * std::cos(a), rr * std::sin(a), 0.0}));
    }
    mb.polyline(loop);
  };
  for (int k = 1; k * ringSpacing < radius * (1.0 - 1e-6); ++k) circle(k * ringSpacing);
  circle(radius);
  for (int s = 0; s < spokes; ++s) {
    const double a = 2.0 * kPi * s / spokes;
    mb.line(mb.point(Eigen::Vector3d::Zero()),
            mb.point({radius * std::cos(a), radius * std::sin(a), 0.0}));
  }
  return mb.build(false);
}

vtkSmartPointer<vtkPolyData> rectangle(const Eigen::Vector2d& lo, const Eigen::Vector2d& hi,
                                       int subdivisions) {
  MeshBuilder mb;
  const int n = std::max(1, subdivisions);
  const Eigen::Vector3d up = Eigen::Vector3d::UnitZ();
  std::vector<vtkIdType> ids((n + 1) * (n + 1));
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n; ++j) {
      const double x = lo.x() + (hi.x() - lo.x()) * i / n, y = lo.y() + (hi.y() - lo.y()) * j / n;
      ids[i * (n + 1) + j] = mb.point({x, y, 0.0}, up);
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const vtkIdType a = ids[i * (n + 1) + j], b = ids[(i + 1) * (n + 1) + j];
      const vtkIdType c = ids[(i + 1) * (n + 1) + j + 1], d = ids[i * (n + 1) + j + 1];
      mb.triangle(a, b, c);
      mb.triangle(a, c, d);
    }
  }
  return mb.build(true);
}

vtkSmartPointer<vtkPolyData> gridLines(const Eigen::Vector2d& lo, const Eigen::Vector2d& hi,
                                       double spacing, int skipMultiplesOf, int segments) {
  MeshBuilder mb;
  const int m = std::max(1, segments);
  auto segmentedLine = [&](const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    std::vector<vtkIdType> ids;
    for (int k = 0; k <= m; ++k) ids.push_back(mb.point(a + (b - a) * (static_cast<double>(k) / m)));
    mb.polyline(ids);
  };
  for (int axis = 0; axis < 2; ++axis) {
    const int other = 1 - axis;
    const long k0 = static_cast<long>(std::ceil(lo[axis] / spacing - 1e-9));
    const long k1 = static_cast<long>(std::floor(hi[axis] / spacing + 1e-9));
    for (long k = k0; k <= k1; ++k) {
      if (skipMultiplesOf > 1 && k % skipMultiplesOf == 0) continue;
      Eigen::Vector3d a = Eigen::Vector3d::Zero(), b = Eigen::Vector3d::Zero();
      a[axis] = b[axis] = k * spacing;  // a line of constant coordinate `axis`
      a[other] = lo[other];
      b[other] = hi[other];
      segmentedLine(a, b);
    }
  }
  return mb.build(false);
}

vtkSmartPointer<vtkPolyData> groundBand(double half, double depth, int segments) {
  MeshBuilder mb;
  const int m = std::max(1, segments);
  const Eigen::Vector3d n = Eigen::Vector3d::UnitZ();
  std::vector<vtkIdType> lo(m + 1), hi(m + 1);
  for (int k = 0; k <= m; ++k) {
    const double x = -half + 2.0 * half * k / m;
    lo[k] = mb.point({x, -depth, 0.0}, n);
    hi[k] = mb.point({x, 0.0, 0.0}, n);
  }
  for (int k = 0; k < m; ++k) {
    mb.triangle(lo[k], lo[k + 1], hi[k + 1]);
    mb.triangle(lo[k], hi[k + 1], hi[k]);
  }
  return mb.build(true);
}

vtkSmartPointer<vtkPolyData> groundHatch(double half, double depth, double spacing, int segments) {
  MeshBuilder mb;
  const int m = std::max(1, segments);
  std::vector<vtkIdType> floorLine;
  for (int k = 0; k <= m; ++k) floorLine.push_back(mb.point({-half + 2.0 * half * k / m, 0.0, 0.0}));
  mb.polyline(floorLine);
  // Strokes at 45 degrees from (x0, 0) down-left to (x0 - depth, -depth), clipped to |x| <= half.
  const long k0 = static_cast<long>(std::ceil(-half / spacing));
  const long k1 = static_cast<long>(std::floor((half + depth) / spacing));
  for (long k = k0; k <= k1; ++k) {
    const double x0 = k * spacing;
    const double t0 = std::max(0.0, (x0 - half) / depth);
    const double t1 = std::min(1.0, (x0 + half) / depth);
    if (t1 <= t0) continue;
    mb.line(mb.point({x0 - t0 * depth, -t0 * depth, 0.0}),
            mb.point({x0 - t1 * depth, -t1 * depth, 0.0}));
  }
  return mb.build(false);
}

vtkSmartPointer<vtkPolyData> ring(double innerRatio) {
  vtkNew<vtkDiskSource> src;
  src->SetInnerRadius(innerRatio);
  src->SetOuterRadius(1.0);
  src->SetCircumferentialResolution(72);
  src->SetRadialResolution(1);
  src->Update();
  return src->GetOutput();
}

vtkSmartPointer<vtkPolyData> shadowDisc() {
  constexpr int kRings = 8, kRes = 64;
  MeshBuilder mb;
  vtkNew<vtkUnsignedCharArray> rgba;
  rgba->SetName("ShadowColors");
  rgba->SetNumberOfComponents(4);
  auto shade = [&](double r) {  // alpha falls as exp(-3 r^2), cut to 0 at the rim
    const double a = r >= 1.0 ? 0.0 : std::exp(-3.0 * r * r) * (1.0 - r * r);
    rgba->InsertNextTuple4(20, 24, 32, std::lround(255.0 * a));
  };
  const vtkIdType c = mb.point(Eigen::Vector3d::Zero());
  shade(0.0);
  std::vector<std::vector<vtkIdType>> rings(kRings);
  for (int k = 1; k <= kRings; ++k) {
    const double r = static_cast<double>(k) / kRings;
    for (int i = 0; i < kRes; ++i) {
      const double a = 2.0 * kPi * i / kRes;
      rings[k - 1].push_back(mb.point({r * std::cos(a), r * std::sin(a), 0.0}));
      shade(r);
    }
  }
  for (int i = 0; i < kRes; ++i) mb.triangle(c, rings[0][i], rings[0][(i + 1) % kRes]);
  for (int k = 1; k < kRings; ++k) {
    for (int i = 0; i < kRes; ++i) {
      const int j = (i + 1) % kRes;
      mb.triangle(rings[k - 1][i], rings[k][i], rings[k][j]);
      mb.triangle(rings[k - 1][i], rings[k][j], rings[k - 1][j]);
    }
  }
  vtkSmartPointer<vtkPolyData> pd = mb.build(false);
  pd->GetPointData()->SetScalars(rgba);
  return pd;
}

double niceStep(double target) {
  const double e = std::floor(std::log10(target));
  const double base = std::pow(10.0, e);
  const double f = target / base;
  const double m = f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0;
  return m * base;
}

}  // namespace ricochet::render::geometry
