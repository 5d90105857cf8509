#include "render/scene/scene_camera.hpp"

#include "render/scene/bodies.hpp"

#include <vtkCamera.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

namespace ricochet::render::detail {
namespace {

double viewHalfHeight(vtkCamera* cam) {
  if (cam->GetParallelProjection()) return cam->GetParallelScale();
  return cam->GetDistance() * std::tan(0.5 * cam->GetViewAngle() * 3.14159265358979323846 / 180.0);
}

}  // namespace

SceneCamera::SceneCamera(vtkRenderer* renderer) : renderer_(renderer) {
  // Near plane at 1e-4 of the scene depth (VTK's default is 1e-3 with a 24-bit depth buffer):
  // long trails and large floors deepen the scene, and the bodies must not be clipped.
  renderer_->SetNearClippingPlaneTolerance(1e-4);
}

// What the default view must show: the tracked body (with its reach), where it meets the
// obstacles near it (foot point on a floor, nearest point of a wall) and the whole of a
// cylinder or table it moves in. Far-off obstacles (> 10 L) are left out of the frame.
void SceneCamera::regionOfInterest(const SceneSpec& scene, double L, const Eigen::Vector3d* tracked,
                                   Eigen::Vector3d* lo, Eigen::Vector3d* hi) const {
  const Eigen::Vector3d c = tracked ? *tracked : Eigen::Vector3d::Zero();
  double reach = 0.0;
  if (scene.trackedBody < static_cast<int>(scene.bodies.size())) {
    reach = bodyReach(scene.bodies[scene.trackedBody]);
  }
  reach = std::max(reach, 0.25 * L);
  *lo = c - Eigen::Vector3d::Constant(reach);
  *hi = c + Eigen::Vector3d::Constant(reach);
  auto include = [&](const Eigen::Vector3d& p) {
    if (!p.allFinite() || (p - c).norm() > 10.0 * L) return;
    *lo = lo->cwiseMin(p);
    *hi = hi->cwiseMax(p);
  };
  for (const Obstacle& o : scene.obstacles) {
    if (const auto* pl = std::get_if<PlaneObstacle>(&o)) {
      const Eigen::Vector3d n = pl->normal.normalized();
      const Eigen::Vector3d foot = c - (c - pl->point).dot(n) * n;
      include(foot);
      if (scene.view == ViewKind::Planar) include(foot - 0.3 * L * n);  // the hatched band
    } else if (const auto* cy = std::get_if<CylinderObstacle>(&o)) {
      const Eigen::Vector3d ax = cy->axis.normalized();
      for (double t : {0.0, cy->height}) {
        const Eigen::Vector3d centre = cy->base + t * ax;
        include(centre - Eigen::Vector3d::Constant(cy->radius));
        include(centre + Eigen::Vector3d::Constant(cy->radius));
      }
    } else if (const auto* di = std::get_if<DiscObstacle>(&o)) {
      include(di->center - Eigen::Vector3d::Constant(di->radius));
      include(di->center + Eigen::Vector3d::Constant(di->radius));
    }
  }
  if (scene.view == ViewKind::Planar) {
    lo->z() = 0.0;
    hi->z() = 0.0;
  }
}

// Width over height of the viewport, 4:3 until the renderer has a size.
double SceneCamera::aspect() const {
  const int* size = renderer_->GetRenderWindow() ? renderer_->GetSize() : nullptr;
  if (!size || size[0] <= 0 || size[1] <= 0) return 4.0 / 3.0;
  return static_cast<double>(size[0]) / size[1];
}

void SceneCamera::frame(const SceneSpec& scene, double L, const Eigen::Vector3d* tracked) {
  vtkCamera* cam = renderer_->GetActiveCamera();
  L_ = L;
  above_ = 0.0;
  range_ = false;
  Eigen::Vector3d lo, hi;
  regionOfInterest(scene, L, tracked, &lo, &hi);
  const Eigen::Vector3d c = 0.5 * (lo + hi);
  const double ar = aspect();
  if (scene.view == ViewKind::Planar) {
    // Half-height: the region's, or its half-width over the aspect ratio, plus a 30% margin;
    // at least 1.3 L so small bodies are not blown up.
    const Eigen::Vector3d e = 0.5 * (hi - lo);
    const double halfHeight = std::max({1.3 * e.y(), 1.3 * e.x() / ar, 1.3 * L});
    cam->ParallelProjectionOn();
    cam->SetFocalPoint(c.x(), c.y(), 0.0);
    cam->SetPosition(c.x(), c.y(), 20.0 * L + 10.0 * halfHeight);
    cam->SetViewUp(0.0, 1.0, 0.0);
    cam->SetParallelScale(halfHeight);
  } else {
    cam->ParallelProjectionOff();
    cam->SetViewAngle(30.0);
    // A 3/4 view from the front right and above (azimuth ~30 deg off -y, elevation ~27 deg),
    // backed off until every corner of the region is inside 85% of the 30 degree (vertical)
    // field of view, and of the horizontal one the aspect ratio gives.
    const Eigen::Vector3d dir = Eigen::Vector3d(0.5, -0.87, 0.5).normalized();  // to the eye
    const Eigen::Vector3d right = Eigen::Vector3d::UnitZ().cross(dir).normalized();
    const Eigen::Vector3d screenUp = dir.cross(right);
    const double tanHalf = 0.85 * std::tan(15.0 * 3.14159265358979323846 / 180.0);
    double distance = 2.0 * L;
    for (int k = 0; k < 8; ++k) {
      const Eigen::Vector3d corner((k & 1) ? hi.x() : lo.x(), (k & 2) ? hi.y() : lo.y(),
                                   (k & 4) ? hi.z() : lo.z());
      const Eigen::Vector3d v = corner - c;
      const double lateral = std::max(std::fabs(v.dot(right)) / ar, std::fabs(v.dot(screenUp)));
      distance = std::max(distance, v.dot(dir) + lateral / tanHalf);
    }
    const Eigen::Vector3d eye = c + distance * dir;
    cam->SetFocalPoint(c.x(), c.y(), c.z());
    cam->SetPosition(eye.x(), eye.y(), eye.z());
    cam->SetViewUp(0.0, 0.0, 1.0);
  }
  cam->OrthogonalizeViewUp();
  renderer_->ResetCameraClippingRange();
}

bool SceneCamera::floorBelow(const SceneSpec& scene, const Eigen::Vector3d& up,
                             const Eigen::Vector3d& tracked, double* footUp) const {
  bool found = false;
  for (const Obstacle& o : scene.obstacles) {
    const auto* pl = std::get_if<PlaneObstacle>(&o);
    if (!pl || !pl->normal.allFinite() || pl->normal.norm() < 1e-12 || !pl->point.allFinite()) continue;
    const Eigen::Vector3d n = pl->normal.normalized();
    if (n.dot(up) < 0.5) continue;  // a wall or a ceiling
    const Eigen::Vector3d foot = tracked - (tracked - pl->point).dot(n) * n;
    const double u = foot.dot(up);
    if (u > tracked.dot(up)) continue;  // not under the body
    if (!found || u > *footUp) *footUp = u;
    found = true;
  }
  return found;
}

// Sideways the tracked body keeps its place on screen exactly (no lag and no jitter). Vertically
// the view holds the floor and the highest point of the motion so far, so the ground never leaves
// the picture and bounces do not shake it; it only grows, once, as a higher bounce comes.
void SceneCamera::follow(const SceneSpec& scene, const Eigen::Vector3d& up,
                         const Eigen::Vector3d& tracked) {
  vtkCamera* cam = renderer_->GetActiveCamera();
  Eigen::Vector3d focal, eye;
  cam->GetFocalPoint(focal.data());
  cam->GetPosition(eye.data());
  double reach = 0.25 * L_;
  if (scene.trackedBody >= 0 && scene.trackedBody < static_cast<int>(scene.bodies.size())) {
    reach = std::max(reach, bodyReach(scene.bodies[static_cast<std::size_t>(scene.trackedBody)]));
  }
  const double bodyUp = tracked.dot(up);
  double lo = 0.0, hi = 0.0, footUp = 0.0;
  if (floorBelow(scene, up, tracked, &footUp)) {
    above_ = std::max(above_, bodyUp + reach - footUp);
    // The planar view's hatched band lies 0.3 L under the floor line.
    lo = footUp - (scene.view == ViewKind::Planar ? 0.3 * L_ : 0.1 * reach);
    hi = footUp + above_;
  } else {
    lowest_ = range_ ? std::min(lowest_, bodyUp - reach) : bodyUp - reach;
    highest_ = range_ ? std::max(highest_, bodyUp + reach) : bodyUp + reach;
    range_ = true;
    lo = lowest_;
    hi = highest_;
  }
  const Eigen::Vector3d d = tracked - focal;
  Eigen::Vector3d shift = d - d.dot(up) * up + (0.5 * (lo + hi) - focal.dot(up)) * up;
  if (scene.view == ViewKind::Planar) shift.z() = 0.0;
  focal += shift;
  eye += shift;
  // Room for the range with a 30 % margin (as the default view has).
  const double needed = 0.65 * (hi - lo);
  const double half = viewHalfHeight(cam);
  if (cam->GetParallelProjection()) {
    if (half < needed) cam->SetParallelScale(needed);
  } else if (half > 0.0 && half < needed) {
    eye = focal + (eye - focal) * (needed / half);
  }
  cam->SetFocalPoint(focal.data());
  cam->SetPosition(eye.data());
}

}  // namespace ricochet::render::detail
