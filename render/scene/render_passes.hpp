#pragma once
// How the scene's renderer draws (internal to render/scene/): plain back-to-front alpha
// blending instead of VTK's order-independent transparency, with FXAA behind it when the host
// turns the renderer's UseFXAA flag on.

#include <vtkNew.h>

class vtkOpenGLFXAAPass;
class vtkRenderStepsPass;
class vtkRenderer;

namespace ricochet::render::detail {

class RenderPasses {
 public:
  /// Installs the passes on `renderer` (not owned; must outlive this object).
  explicit RenderPasses(vtkRenderer* renderer);
  /// Stops choosing the pass; the pass stays on the renderer (it holds its own reference), so
  /// the host's Finalize() releases its GL objects while their context is current.
  ~RenderPasses();
  RenderPasses(const RenderPasses&) = delete;
  RenderPasses& operator=(const RenderPasses&) = delete;

 private:
  vtkRenderer* renderer_;
  vtkNew<vtkRenderStepsPass> steps_;
  vtkNew<vtkOpenGLFXAAPass> fxaa_;
  unsigned long observer_ = 0;
};

}  // namespace ricochet::render::detail
