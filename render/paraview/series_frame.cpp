#include "render/paraview/series_frame.hpp"

#include "render/scene/bodies.hpp"
#include "render/scene/ground.hpp"
#include "render/scene/scene_geometry.hpp"
#include "render/scene/scene_support.hpp"

#include <vtkCellArray.h>
#include <vtkCellArrayIterator.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkTypeInt64Array.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

namespace ricochet::render::paraview {

using detail::finite;
using detail::positive;

namespace {

constexpr double kPatchSnap = 0.2;  // a following patch moves in steps of this fraction of its size

// The arrays of one frame, filled in cell order: vertices, lines, polygons.
struct FrameData {
  vtkNew<vtkPoints> points;
  vtkNew<vtkFloatArray> normals;
  vtkNew<vtkDoubleArray> impulse;
  vtkNew<vtkCellArray> verts, lines, polys;
  vtkNew<vtkIntArray> kind;
  vtkNew<vtkTypeInt64Array> object;

  FrameData() {
    points->SetDataTypeToDouble();
    normals->SetName("Normals");
    normals->SetNumberOfComponents(3);
    impulse->SetName("impulse");
    kind->SetName("kind");
    object->SetName("object");
  }

  vtkIdType point(const Eigen::Vector3d& p, const Eigen::Vector3d& n, double j = 0.0) {
    normals->InsertNextTuple3(n.x(), n.y(), n.z());
    impulse->InsertNextValue(j);
    return points->InsertNextPoint(p.data());
  }
  void cell(FrameKind k, std::int64_t id) {
    kind->InsertNextValue(static_cast<int>(k));
    object->InsertNextValue(id);
  }

  // The polygons of `geometry` moved by the rigid transform `m`.
  void surface(vtkPolyData* geometry, const Eigen::Matrix4d& m, FrameKind k, std::int64_t id) {
    const Eigen::Matrix3d R = m.block<3, 3>(0, 0);
    const Eigen::Vector3d t = m.block<3, 1>(0, 3);
    vtkPoints* p = geometry->GetPoints();
    vtkDataArray* n = geometry->GetPointData()->GetNormals();
    const vtkIdType base = points->GetNumberOfPoints();
    for (vtkIdType i = 0; i < p->GetNumberOfPoints(); ++i) {
      Eigen::Vector3d x, nx = Eigen::Vector3d::Zero();
      p->GetPoint(i, x.data());
      if (n) n->GetTuple(i, nx.data());
      point(R * x + t, R * nx);
    }
    auto it = vtk::TakeSmartPointer(geometry->GetPolys()->NewIterator());
    for (it->GoToFirstCell(); !it->IsDoneWithTraversal(); it->GoToNextCell()) {
      vtkIdType count = 0;
      const vtkIdType* ids = nullptr;
      it->GetCurrentCell(count, ids);
      polys->InsertNextCell(count);
      for (vtkIdType k = 0; k < count; ++k) polys->InsertCellPoint(base + ids[k]);
      cell(k, id);
    }
  }

  vtkSmartPointer<vtkPolyData> finish() {
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(points);
    pd->SetVerts(verts);
    pd->SetLines(lines);
    pd->SetPolys(polys);
    pd->GetPointData()->SetNormals(normals);
    pd->GetPointData()->AddArray(impulse);
    pd->GetCellData()->AddArray(kind);
    pd->GetCellData()->AddArray(object);
    return pd;
  }
};

}  // namespace

FrameBuilder::FrameBuilder(const SceneSpec& scene) {
  detail::Problems problems;
  const double L = positive(scene.characteristicLength) ? scene.characteristicLength : 1.0;
  const int bodies = static_cast<int>(scene.bodies.size());
  tracked_ = scene.trackedBody >= 0 && scene.trackedBody < bodies ? scene.trackedBody : 0;
  for (int b = 0; b < bodies; ++b) {
    const BodySpec& body = scene.bodies[static_cast<std::size_t>(b)];
    for (std::size_t k = 0; k < body.parts.size(); ++k) {
      const BodyPart& part = body.parts[k];
      if (!detail::drawable(part)) {
        problems.note("body " + std::to_string(b) + " part " + std::to_string(k) +
                      " cannot be drawn (left out)");
        continue;
      }
      pieces_.push_back({detail::shapeGeometry(part.shape), detail::toMatrix(part.offset), b,
                         FrameKind::Body, b});
    }
  }
  for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
    const int id = static_cast<int>(i);
    const auto leftOut = [&](const char* what) {
      problems.note("obstacle " + std::to_string(i) + " (" + what + ") cannot be drawn (left out)");
    };
    if (const auto* plane = std::get_if<PlaneObstacle>(&scene.obstacles[i])) {
      if (!finite(plane->point) || !finite(plane->normal) || plane->normal.norm() < 1e-12 ||
          !positive(plane->halfExtent)) {
        leftOut("plane");
        continue;
      }
      const Eigen::Vector3d n = plane->normal.normalized();
      patches_.push_back({detail::frameWithZ(plane->point, n, Eigen::Vector3d::UnitX()),
                          std::min(plane->halfExtent, detail::kMaxPlanePatch * L),
                          plane->followBody, id});
    } else if (const auto* c = std::get_if<CylinderObstacle>(&scene.obstacles[i])) {
      if (!finite(c->base) || !finite(c->axis) || c->axis.norm() < 1e-12 || !positive(c->radius) ||
          !positive(c->height)) {
        leftOut("cylinder");
        continue;
      }
      pieces_.push_back(
          {geometry::tube(c->radius, c->height),
           detail::frameWithZ(c->base, c->axis.normalized(), Eigen::Vector3d::UnitX()), id,
           FrameKind::Obstacle, -1});
    } else if (const auto* disc = std::get_if<DiscObstacle>(&scene.obstacles[i])) {
      if (!finite(disc->center) || !finite(disc->normal) || disc->normal.norm() < 1e-12 ||
          !positive(disc->radius)) {
        leftOut("disc");
        continue;
      }
      pieces_.push_back(
          {geometry::disc(disc->radius),
           detail::frameWithZ(disc->center, disc->normal.normalized(), Eigen::Vector3d::UnitX()),
           id, FrameKind::Obstacle, -1});
    }
  }
  problems_ = problems.text();
}

FrameBuilder::~FrameBuilder() = default;

vtkSmartPointer<vtkPolyData> FrameBuilder::build(std::span<const Pose> poses,
                                                 std::span<const Eigen::Vector3d> trail,
                                                 std::span<const FrameImpact> impacts) const {
  FrameData f;
  for (const FrameImpact& impact : impacts) {
    const vtkIdType id = f.point(impact.point, Eigen::Vector3d::Zero(), impact.impulse);
    f.verts->InsertNextCell(1, &id);
    f.cell(FrameKind::Impact, impact.row);
  }
  if (trail.size() >= 2) {
    f.lines->InsertNextCell(static_cast<vtkIdType>(trail.size()));
    for (const Eigen::Vector3d& p : trail)
      f.lines->InsertCellPoint(f.point(p, Eigen::Vector3d::Zero()));
    f.cell(FrameKind::Trail, tracked_);
  }
  for (const Piece& piece : pieces_) {
    if (piece.body < 0) {
      f.surface(piece.geometry, piece.offset, piece.kind, piece.object);
      continue;
    }
    if (static_cast<std::size_t>(piece.body) >= poses.size()) continue;
    const Pose& pose = poses[static_cast<std::size_t>(piece.body)];
    if (!detail::validPose(pose)) continue;  // a body with a broken pose is left out of the frame
    f.surface(piece.geometry, detail::toMatrix(pose) * piece.offset, piece.kind, piece.object);
  }
  const bool hasTracked = static_cast<std::size_t>(tracked_) < poses.size() &&
                          finite(poses[static_cast<std::size_t>(tracked_)].position);
  for (const Patch& patch : patches_) {
    const Eigen::Vector3d a = patch.frame.block<3, 1>(0, 0), b = patch.frame.block<3, 1>(0, 1);
    const Eigen::Vector3d n = patch.frame.block<3, 1>(0, 2);
    Eigen::Vector3d centre = patch.frame.block<3, 1>(0, 3);
    if (patch.follow && hasTracked) {
      const Eigen::Vector3d d = poses[static_cast<std::size_t>(tracked_)].position - centre;
      const double snap = kPatchSnap * patch.half;
      centre += std::round(d.dot(a) / snap) * snap * a + std::round(d.dot(b) / snap) * snap * b;
    }
    const double h = patch.half;
    const vtkIdType ids[4] = {
        f.point(centre - h * a - h * b, n), f.point(centre + h * a - h * b, n),
        f.point(centre + h * a + h * b, n), f.point(centre - h * a + h * b, n)};
    f.polys->InsertNextCell(4, ids);
    f.cell(FrameKind::Obstacle, patch.object);
  }
  return f.finish();
}

}  // namespace ricochet::render::paraview
