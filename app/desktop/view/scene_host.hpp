#pragma once
// The window's 3-D view: the VTK widget, its renderer and the SceneView drawing the current run,
// kept across runs. A run of another system gets that system's scene and default camera; a run of
// the same system with new geometry (parameters, body, or a replay that draws no bodies) gets its
// actors rebuilt under the user's camera; the same geometry keeps its actors and only clears the
// trail and flashes. Each snapshot moves the bodies, extends the trail and flashes the impacts.

#include "app/desktop/run/run_data.hpp"

#include <QObject>

#include <memory>

class QWidget;
class vtkRenderer;

namespace ricochet::render {
class SceneView;
class VtkWidget;
}  // namespace ricochet::render

namespace ricochet::app {

class SceneHost : public QObject {
  Q_OBJECT
 public:
  /// Creates the VTK widget as a child of `parent` (the window places it).
  explicit SceneHost(QWidget* parent);
  ~SceneHost() override;

  render::VtkWidget* widget() const { return widget_; }
  vtkRenderer* renderer() const;
  /// The actors (bodies, ghost, trail) and their read-outs.
  render::SceneView* view() const;

  /// A run started: its scene, rebuilt or kept as above.
  void runStarted(const RunInfo& run);
  /// Shows `snapshot` of the current run (the frame is drawn when the pacer asks for it).
  void show(const Snapshot& snapshot);

  /// The camera follows the tracked body (View > Follow Body).
  void setFollow(bool on);
  /// The trail behind the tracked body (View > Trail).
  void setTrailVisible(bool on);
  /// Back to the scene's default camera.
  void resetCamera();
  /// Multisampling of the 3-D view (View > Antialiasing).
  void setMultiSamples(int samples);
  /// Asks for a frame.
  void requestRender();

 private:
  struct Scene;
  render::VtkWidget* widget_ = nullptr;
  std::unique_ptr<Scene> scene_;
  bool follow_ = true;
  bool trail_ = true;
};

}  // namespace ricochet::app
