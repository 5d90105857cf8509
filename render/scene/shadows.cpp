#include "render/scene/shadows.hpp"

#include "render/scene/bodies.hpp"
#include "render/scene/scene_geometry.hpp"

#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>

#include <algorithm>

namespace ricochet::render::detail {

void Shadows::build(const SceneSpec& scene, const std::vector<Ground::Floor>& floors,
                    PropList& props) {
  if (scene.view != ViewKind::Spatial || floors.empty()) return;
  vtkSmartPointer<vtkPolyData> disc = geometry::shadowDisc();
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const double reach = bodyReach(scene.bodies[b]);
    if (!(reach > 0.0)) continue;
    for (const Ground::Floor& floor : floors) {
      vtkNew<vtkPolyDataMapper> mapper;
      mapper->SetInputData(disc);
      mapper->SetColorModeToDirectScalars();
      mapper->ScalarVisibilityOn();
      auto actor = vtkSmartPointer<vtkActor>::New();
      actor->SetMapper(mapper);
      actor->GetProperty()->LightingOff();
      actor->VisibilityOff();  // until the body has a pose
      Shadow sh{static_cast<int>(b), floor, reach, actor, vtkSmartPointer<vtkMatrix4x4>::New()};
      actor->SetUserMatrix(sh.matrix);
      props.add(actor);
      shadows_.push_back(sh);
    }
  }
}

void Shadows::update(std::span<const Pose> poses, std::size_t n, double L) {
  for (Shadow& sh : shadows_) {
    if (static_cast<std::size_t>(sh.body) < n && validPose(poses[sh.body])) {
      place(sh, poses[sh.body].position, L);
    }
  }
}

void Shadows::place(Shadow& sh, const Eigen::Vector3d& p, double L) {
  const Ground::Floor& f = sh.floor;
  const double h = (p - f.point).dot(f.normal);
  if (!(h > -0.5 * sh.radius)) {  // under this plane (e.g. a wall behind): no shadow on it
    sh.actor->VisibilityOff();
    return;
  }
  // Wider and fainter with the body's clearance above the plane; 0.55 opacity when resting.
  // Below 0.06 it would not be seen, yet a wide translucent disc still costs its blended
  // pixels every frame under a software renderer (~3 ms for a high ellipsoid's): not drawn.
  const double clearance = std::max(0.0, h - sh.radius);
  const double opacity = 0.55 / (1.0 + 1.5 * clearance / sh.radius);
  if (opacity < 0.06) {
    sh.actor->VisibilityOff();
    return;
  }
  const double s = 0.9 * sh.radius * (1.0 + std::min(1.5, 0.6 * clearance / sh.radius));
  Eigen::Matrix4d m = f.frame;
  m.block<3, 3>(0, 0) *= s;
  m.block<3, 1>(0, 3) = p - h * f.normal + f.lift * L * f.normal;
  setMatrix(sh.matrix, m);
  sh.actor->GetProperty()->SetOpacity(opacity);
  sh.actor->VisibilityOn();
}

}  // namespace ricochet::render::detail
