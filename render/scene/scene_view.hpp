#pragma once
// VTK actors for one system's SceneSpec (core/model/scene.hpp). Pure VTK, no Qt: the desktop
// app, `ricochet-cli video` and tests share it. Geometry is built once in setScene(); per frame
// only actor transforms, the trail points and the impact marks change.

#include "core/model/scene.hpp"

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <span>
#include <string>

class vtkRenderer;

namespace ricochet::render {

class SceneView {
 public:
  /// Adds its actors to `renderer` (not owned; must outlive the SceneView).
  explicit SceneView(vtkRenderer* renderer);
  ~SceneView();
  SceneView(const SceneView&) = delete;
  SceneView& operator=(const SceneView&) = delete;

  /// Replaces all actors with those of `scene` and resets the camera to its default view.
  void setScene(const SceneSpec& scene);
  /// Moves the bodies (one pose per scene body), extends the trail of the tracked body and ages
  /// impact marks, all against simulated `time` (s) so recordings are true to the sim clock.
  void setPoses(std::span<const Pose> poses, double time);
  /// Extends the tracked body's trail through `path` (world positions in m, oldest first): where
  /// the body went since the previous setPoses(), so the trail follows the integrated path, not
  /// the chords between displayed poses, at any speed. Call it before the setPoses() of the pose
  /// that ends the path. Nothing is drawn or moved; non-finite points are skipped.
  void extendTrail(std::span<const Eigen::Vector3d> path);
  /// A brief visual mark at a world point where an impact happened at simulated `time`.
  void addImpact(const Eigen::Vector3d& point, double time);
  /// Forgets trail and impact marks (on reset).
  void clearHistory();
  /// Default camera for the scene kind (planar: facing the x-y plane; spatial: 3/4 view, z up).
  void resetCamera();
  /// Camera (and floor patch) follow the tracked body.
  void setFollow(bool follow);
  bool follow() const;
  void setTrailVisible(bool visible);
  /// Where body `b` is drawn, read back from its actor (nullopt without that body).
  std::optional<Pose> bodyPose(std::size_t b) const;

  /// A ghost: the bodies of `scene` drawn translucent (kGhostOpacity) in one tint over the scene,
  /// e.g. a second run of the same system overlaid on the one shown. It has no trail, impact
  /// marks or shadow; its poses come from setGhostPoses() only. Replaces any earlier ghost; the
  /// obstacles of `scene` are not drawn. setScene() removes it (call setGhost() again).
  void setGhost(const SceneSpec& scene);
  /// Moves the ghost's bodies (one pose per ghost body; non-finite poses keep the last one).
  void setGhostPoses(std::span<const Pose> poses);
  void clearGhost();
  bool hasGhost() const;
  /// Where ghost body `b` is drawn, read back from its actor (nullopt without that body).
  std::optional<Pose> ghostPose(std::size_t b) const;
  static constexpr float kGhostOpacity = 0.35f;

  /// What setScene() could not draw, one clause per skipped element naming the offending value
  /// (e.g. "body 'star' part 0: prism depth = -1 m is not > 0 (not drawn)"); empty when all is
  /// drawn. Bad input never crashes the view: bad parts are left out, bad poses keep the last one.
  const std::string& sceneError() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace ricochet::render
