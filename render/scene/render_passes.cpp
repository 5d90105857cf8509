#include "render/scene/render_passes.hpp"

#include <vtkCallbackCommand.h>
#include <vtkOpenGLFXAAPass.h>
#include <vtkRenderStepsPass.h>
#include <vtkRenderer.h>

namespace ricochet::render::detail {

RenderPasses::RenderPasses(vtkRenderer* renderer) : renderer_(renderer) {
  // Translucency by plain alpha blending, props back to front in the order they were added
  // (setScene adds the backdrop first, then obstacles, then bodies). VTK 9.1's default without
  // depth peeling is order-independent transparency: two float framebuffers and a full-screen
  // composite on every frame with any translucent prop, ~14 ms of a 38 ms frame under llvmpipe
  // (bench/gui: ricochet-scene-bench). Depth peeling is costlier still, and with multisampling
  // VTK 9.1 on Mesa drew no translucent geometry at all. The few translucent things here (floor
  // fade, cylinder wall, trail, impact marks, shadows) rarely overlap each other.
  fxaa_->SetDelegatePass(steps_);
  renderer->SetPass(steps_);
  // A renderer with a pass ignores its own UseFXAA flag: keep the flag meaningful for hosts
  // (the export's --antialiasing fxaa sets it) by picking the pass at the start of each render.
  vtkNew<vtkCallbackCommand> pick;
  pick->SetClientData(this);
  pick->SetCallback([](vtkObject* caller, unsigned long, void* client, void*) {
    auto* r = static_cast<vtkRenderer*>(caller);
    auto* self = static_cast<RenderPasses*>(client);
    vtkRenderPass* want = r->GetUseFXAA() ? static_cast<vtkRenderPass*>(self->fxaa_)
                                          : static_cast<vtkRenderPass*>(self->steps_);
    if (r->GetPass() != want) r->SetPass(want);
  });
  observer_ = renderer->AddObserver(vtkCommand::StartEvent, pick);
}

RenderPasses::~RenderPasses() { renderer_->RemoveObserver(observer_); }

}  // namespace ricochet::render::detail
