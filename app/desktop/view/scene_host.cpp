#include "app/desktop/view/scene_host.hpp"

#include "render/qt/vtk_widget.hpp"
#include "render/scene/scene_view.hpp"

#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>

namespace ricochet::app {

struct SceneHost::Scene {
  vtkSmartPointer<vtkRenderer> renderer;
  std::unique_ptr<render::SceneView> view;
  std::string system;                        // system of the scene on screen
  std::vector<double> parameters;            // parameters the scene was built from
  std::shared_ptr<const BodyScenario> body;  // the body it was built from (rigid-body)
  std::size_t bodies = 0;                    // bodies drawn (none for a replay without poses)
  // The user's camera across a geometry rebuild: SceneView frames its new scene on the first
  // poses, so the camera is put back right after the first snapshot of the new run.
  vtkSmartPointer<vtkCamera> keptCamera;
};

SceneHost::SceneHost(QWidget* parent) : QObject(parent), scene_(std::make_unique<Scene>()) {
  widget_ = new render::VtkWidget(parent);
  widget_->setObjectName(QStringLiteral("sceneView"));
  widget_->setMinimumSize(320, 240);
  scene_->renderer = vtkSmartPointer<vtkRenderer>::New();
  widget_->renderWindow()->AddRenderer(scene_->renderer);
  scene_->view = std::make_unique<render::SceneView>(scene_->renderer);
}

SceneHost::~SceneHost() = default;

vtkRenderer* SceneHost::renderer() const {
  return scene_->renderer;
}

render::SceneView* SceneHost::view() const {
  return scene_->view.get();
}

void SceneHost::runStarted(const RunInfo& run) {
  const Scenario& s = run.scenario;
  if (scene_->system != s.system) {
    scene_->keptCamera = nullptr;
    scene_->view->setScene(run.scene);  // a new system: its default camera
  } else if (scene_->parameters != s.parameters || !sameBody(scene_->body, s.body) ||
             scene_->bodies != run.scene.bodies.size()) {
    // Same system, new geometry (or a replay that draws no bodies): rebuild the actors but keep
    // the user's camera.
    if (!scene_->keptCamera) {
      scene_->keptCamera = vtkSmartPointer<vtkCamera>::New();
      scene_->keptCamera->DeepCopy(scene_->renderer->GetActiveCamera());
    }
    scene_->view->setScene(run.scene);
  } else {
    scene_->view->clearHistory();
  }
  scene_->view->setFollow(follow_);
  scene_->view->setTrailVisible(trail_);
  scene_->system = s.system;
  scene_->parameters = s.parameters;
  scene_->body = s.body;
  scene_->bodies = run.scene.bodies.size();
}

void SceneHost::show(const Snapshot& s) {
  if (s.seeked) scene_->view->clearHistory();  // a replay jumped: `path` is the whole trail
  scene_->view->extendTrail(s.path);  // the path since the last snapshot, then its end pose
  scene_->view->setPoses(s.poses, s.t);
  if (scene_->keptCamera) {
    scene_->renderer->GetActiveCamera()->DeepCopy(scene_->keptCamera);
    scene_->renderer->ResetCameraClippingRange();
    scene_->keptCamera = nullptr;
  }
  for (const ImpactMark& m : s.newImpacts) scene_->view->addImpact(m.point, m.t);
}

void SceneHost::setFollow(bool on) {
  follow_ = on;
  scene_->view->setFollow(on);
  widget_->requestRender();
}

void SceneHost::setTrailVisible(bool on) {
  trail_ = on;
  scene_->view->setTrailVisible(on);
  widget_->requestRender();
}

void SceneHost::resetCamera() {
  scene_->view->resetCamera();
  widget_->requestRender();
}

void SceneHost::setMultiSamples(int samples) {
  widget_->renderWindow()->SetMultiSamples(samples);
}

void SceneHost::requestRender() {
  widget_->requestRender();
}

}  // namespace ricochet::app
