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
  /// Moves the camera with the tracked body at `tracked`: exactly sideways, and along `up` only
  /// when the body leaves a central band of the view.
  void follow(const SceneSpec& scene, const Eigen::Vector3d& up, const Eigen::Vector3d& tracked);

 private:
  void regionOfInterest(const SceneSpec& scene, double L, const Eigen::Vector3d* tracked,
                        Eigen::Vector3d* lo, Eigen::Vector3d* hi) const;
  double aspect() const;

  vtkRenderer* renderer_;
};

}  // namespace ricochet::render::detail
