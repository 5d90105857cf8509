#pragma once
// The scene's camera (internal to render/scene/): the default view of a scene kind, framed on
// the tracked body and the obstacles near it, and the follow mode that keeps the tracked body in
// view as it travels.

#include "render/scene/scene_support.hpp"

class vtkCamera;

namespace ricochet::render::detail {

class SceneCamera {
 public:
  /// Drives the active camera of `renderer` (not owned). Sets the renderer's near clipping
  /// plane tolerance for deep scenes.
  explicit SceneCamera(vtkRenderer* renderer);
  /// The default view of `scene` (planar: parallel projection facing the x-y plane; spatial: a
  /// 3/4 view from the front right and above, z up), framed on `tracked` (world, m; the origin
  /// when null) with its reach and the obstacles near it. `L` is the scene's length (m).
  void frame(const SceneSpec& scene, double L, const Eigen::Vector3d* tracked);
  /// Moves the camera with the tracked body at `tracked`: exactly sideways, while vertically it
  /// frames the motion so far with the ground under the body: from the floor below it (a plane
  /// facing `up`) to the highest the body has been above that floor since the last frame(), or,
  /// with no floor, the whole vertical range the body has covered. The view widens (never
  /// narrows) when that range needs it, so the ground stays in view and the body off the edges.
  void follow(const SceneSpec& scene, const Eigen::Vector3d& up, const Eigen::Vector3d& tracked);

 private:
  // The up coordinate of the floor under `tracked`, if a plane facing up lies under it.
  bool floorBelow(const SceneSpec& scene, const Eigen::Vector3d& up, const Eigen::Vector3d& tracked,
                  double* footUp) const;

  void regionOfInterest(const SceneSpec& scene, double L, const Eigen::Vector3d* tracked,
                        Eigen::Vector3d* lo, Eigen::Vector3d* hi) const;
  double aspect() const;

  vtkRenderer* renderer_;
  double L_ = 1.0;                // the scene's length at the last frame(), m
  double above_ = 0.0;            // highest top of the body above its floor since frame(), m
  double lowest_ = 0.0, highest_ = 0.0;  // without a floor: the body's vertical range
  bool range_ = false;            // lowest_/highest_ hold a range
};

}  // namespace ricochet::render::detail
