#include "render/qt/hosted_render_window.hpp"

#include <vtkCommand.h>
#include <vtkObjectFactory.h>
#include <vtkOpenGLState.h>
#include <vtk_glew.h>

namespace ricochet::render::detail {

vtkStandardNewMacro(HostedRenderWindow);

void HostedRenderWindow::Render() {
  if (!painting) {
    if (onRenderRequest) onRenderRequest();
    return;
  }
  Superclass::Render();
}

// VTK 9.1 renders into its own framebuffer object, copies it (colour and depth) into a second
// one in Frame(), and the host then copies that into the window: two full-frame copies, the
// second a format conversion (RGBA into the window's BGRX) that Mesa's llvmpipe draws as a
// textured quad, ~2 ms of CPU per 538x720 frame. Without multisampling nothing needs VTK's
// framebuffers, so the frame is drawn straight into the window's back buffer instead: Start()
// binds it after VTK bound its own, and Frame() copies nothing. With multisampling (the window
// has no samples of its own), or while the window is not exposed (a grab of a hidden view
// reads VTK's framebuffer, which any driver keeps), VTK's own path is taken as before.
void HostedRenderWindow::Start() {
  drewToWindow = windowExposed && this->MultiSamples <= 1;
  Superclass::Start();
  if (!drewToWindow) return;
  vtkOpenGLState* state = this->GetState();
  state->vtkglBindFramebuffer(GL_FRAMEBUFFER, windowFramebuffer);
  state->vtkglDrawBuffer(GL_BACK);
  state->vtkglReadBuffer(GL_BACK);
}

void HostedRenderWindow::Frame() {
  if (!drewToWindow) {
    Superclass::Frame();
    return;
  }
  this->InvokeEvent(vtkCommand::WindowFrameEvent, nullptr);  // as the superclass does
  this->GetState()->ResetFramebufferBindings();
}

}  // namespace ricochet::render::detail
