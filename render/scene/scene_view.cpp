// SceneView: VTK actors for a SceneSpec. Geometry is built once per setScene(); per frame only
// actor matrices (in place), the trail ring buffer (in place) and pooled impact marks change.
// Each idea lives in its own layer (bodies, ground, shadows, trail, impact marks, camera, render
// passes, lighting); SceneView builds them in drawing order and hands each frame's poses on.

#include "render/scene/scene_view.hpp"

#include "render/scene/bodies.hpp"
#include "render/scene/ground.hpp"
#include "render/scene/impact_marks.hpp"
#include "render/scene/lighting.hpp"
#include "render/scene/render_passes.hpp"
#include "render/scene/scene_camera.hpp"
#include "render/scene/shadows.hpp"
#include "render/scene/trail.hpp"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::render {

using namespace detail;

struct SceneView::Impl {
  vtkRenderer* renderer;
  Lighting lighting;
  RenderPasses passes;
  SceneCamera camera;
  PropList props;  // everything this view added to the renderer, in drawing order
  Problems problems;

  SceneSpec scene;
  double L = 1.0;       // characteristic length, m
  double frontZ = 0.0;  // planar scenes: z just in front of every body (for impact marks)
  Eigen::Vector3d up = Eigen::Vector3d::UnitZ();

  Ground ground;
  Bodies bodies;
  Shadows shadows;
  Trail trail;
  ImpactMarks marks;
  PropList ghostProps;  // the ghost's actors, after (over) everything else
  Bodies ghost;
  Problems ghostProblems;  // not reported: the ghost's scene is the shown one's system

  bool follow = false;
  bool haveTracked = false;
  bool framePending = true;
  Eigen::Vector3d tracked = Eigen::Vector3d::Zero();
  double lastTime = -std::numeric_limits<double>::infinity();

  explicit Impl(vtkRenderer* r)
      : renderer(r), lighting(r), passes(r), camera(r), props(r), ghostProps(r) {}

  void clearGhost() {
    ghostProps.clear();
    ghost.clear();
  }

  void clearActors() {
    clearGhost();
    props.clear();
    bodies.clear();
    ground.clear();
    shadows.clear();
    marks.clear();
  }

  void frameCamera() { camera.frame(scene, L, haveTracked ? &tracked : nullptr); }
};

SceneView::SceneView(vtkRenderer* renderer) : d(std::make_unique<Impl>(renderer)) {}

SceneView::~SceneView() { d->clearActors(); }

void SceneView::setScene(const SceneSpec& scene) {
  d->clearActors();
  d->scene = scene;
  d->problems.clear();
  d->L = scene.characteristicLength;
  if (!positive(d->L)) {
    d->problems.note("characteristicLength = " + num(d->L) + " m is not > 0 (using 1 m)");
    d->L = 1.0;
  }
  d->up = scene.view == ViewKind::Planar ? Eigen::Vector3d::UnitY() : Eigen::Vector3d::UnitZ();
  if (scene.trackedBody < 0 || scene.trackedBody >= static_cast<int>(scene.bodies.size())) {
    if (!scene.bodies.empty()) {
      d->problems.note("trackedBody = " + std::to_string(scene.trackedBody) +
                       " is not a body index (using 0)");
    }
    d->scene.trackedBody = 0;
  }
  d->frontZ = 0.0;
  for (const BodySpec& body : scene.bodies) {
    for (const BodyPart& part : body.parts) {
      if (drawable(part)) {
        d->frontZ = std::max(d->frontZ, part.offset.position.z() + shapeExtent(part.shape).norm());
      }
    }
  }
  d->frontZ += 0.01 * d->L;
  // Back to front: translucent props are blended in the order they were added (no depth
  // peeling, see RenderPasses), so the backdrop goes first, then obstacles, then bodies.
  d->ground.build(d->scene, d->L, d->up, d->frontZ, d->props, d->problems);
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    d->bodies.build(scene.bodies[i], static_cast<int>(i), d->L, d->props, d->problems);
  }
  d->trail.takeColour(d->scene);
  d->shadows.build(d->scene, d->ground.floors(), d->props);
  d->trail.build(d->props);
  d->marks.build(d->renderer->GetActiveCamera(), d->L, d->props);
  d->trail.reset();
  d->haveTracked = false;
  d->lastTime = -std::numeric_limits<double>::infinity();
  resetCamera();
}

void SceneView::setPoses(std::span<const Pose> poses, double time) {
  const std::size_t n = std::min(poses.size(), d->bodies.size());
  for (std::size_t b = 0; b < n; ++b) {
    if (validPose(poses[b])) d->bodies.place(b, poses[b]);  // else keep the last good pose
  }
  d->shadows.update(poses, n, d->L);
  if (std::isfinite(time) && time < d->lastTime) clearHistory();  // the run restarted
  if (std::isfinite(time)) d->lastTime = time;

  const std::size_t t = static_cast<std::size_t>(d->scene.trackedBody);
  if (t < poses.size() && validPose(poses[t])) {
    d->tracked = poses[t].position;
    d->haveTracked = true;
    if (d->trail.addPoint(d->tracked, d->L)) d->trail.recolour();
    if (d->framePending) {
      d->framePending = false;
      d->frameCamera();
    } else if (d->follow) {
      d->camera.follow(d->scene, d->up, d->tracked);
    }
    // The floor as large as the view needs, then under the body.
    if (d->scene.view != ViewKind::Planar) {
      double eye[3];
      d->renderer->GetActiveCamera()->GetPosition(eye);
      d->ground.fitView((Eigen::Vector3d(eye[0], eye[1], eye[2]) - d->tracked).norm());
    }
    d->ground.recentre(d->tracked);
  }
  if (std::isfinite(time)) d->marks.age(time);
  d->renderer->ResetCameraClippingRange();
}

void SceneView::extendTrail(std::span<const Eigen::Vector3d> path) {
  if (d->bodies.size() == 0) return;  // no scene: no trail
  bool added = false;
  for (const Eigen::Vector3d& p : path) added = d->trail.addPoint(p, d->L) || added;
  if (added) d->trail.recolour();  // once for the whole path: a recolour touches every segment
}

void SceneView::addImpact(const Eigen::Vector3d& point, double time) {
  if (!point.allFinite() || !std::isfinite(time)) return;
  Eigen::Vector3d p = point;
  // Planar scenes: in front of the bodies' mid-plane so the ring is not hidden inside a prism.
  if (d->scene.view == ViewKind::Planar) p.z() = d->frontZ;
  d->marks.add(p, time, d->renderer->GetActiveCamera());
}

void SceneView::clearHistory() {
  d->trail.reset();
  d->marks.hideAll();
  d->lastTime = -std::numeric_limits<double>::infinity();
}

void SceneView::resetCamera() {
  d->frameCamera();
  d->framePending = !d->haveTracked;  // frame on the body as soon as its pose is known
}

void SceneView::setFollow(bool follow) { d->follow = follow; }

bool SceneView::follow() const { return d->follow; }

void SceneView::setTrailVisible(bool visible) { d->trail.setVisible(visible); }

void SceneView::setGhost(const SceneSpec& scene) {
  d->clearGhost();
  d->ghostProblems.clear();
  // One cool tint for every part, whatever the bodies' own colours: the ghost reads as "the other
  // run" at a glance.
  constexpr Rgb kTint{0.30f, 0.55f, 0.95f};
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    BodySpec body = scene.bodies[i];
    for (BodyPart& part : body.parts) {
      part.color = kTint;
      part.opacity = std::min(part.opacity, kGhostOpacity);
      part.showAxes = false;
    }
    d->ghost.build(body, static_cast<int>(i), d->L, d->ghostProps, d->ghostProblems);
  }
}

void SceneView::setGhostPoses(std::span<const Pose> poses) {
  const std::size_t n = std::min(poses.size(), d->ghost.size());
  for (std::size_t b = 0; b < n; ++b) {
    if (validPose(poses[b])) d->ghost.place(b, poses[b]);
  }
}

void SceneView::clearGhost() {
  d->clearGhost();
}

bool SceneView::hasGhost() const {
  return d->ghost.size() > 0;
}

std::optional<Pose> SceneView::bodyPose(std::size_t b) const {
  return d->bodies.pose(b);
}

std::optional<Pose> SceneView::ghostPose(std::size_t b) const {
  return d->ghost.pose(b);
}

const std::string& SceneView::sceneError() const { return d->problems.text(); }

}  // namespace ricochet::render
