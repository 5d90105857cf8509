#pragma once
// The VTK render window a VtkWidget hosts (internal to render/qt/): VTK code that wants a frame
// calls Render(); here that becomes a coalesced request to the widget, which renders once per
// display update into its own OpenGL context. No Qt in this header.

#include <vtkGenericOpenGLRenderWindow.h>

#include <functional>

namespace ricochet::render::detail {

// Anything in VTK that wants a frame calls Render() (the interactor after a camera move, a chart
// after a data change, the app after new poses). Outside VtkWidget::renderNow a Render() becomes
// a coalesced VtkWidget::requestRender(), and the actual VTK render happens once per display
// update (frame pacing: never more renders than frames).
class HostedRenderWindow : public vtkGenericOpenGLRenderWindow {
 public:
  static HostedRenderWindow* New();
  vtkTypeMacro(HostedRenderWindow, vtkGenericOpenGLRenderWindow);

  void Render() override;
  /// True once VTK loaded the OpenGL functions (GLEW) of the current context.
  bool glFunctionsLoaded() const { return this->Initialized; }

  void Start() override;
  void Frame() override;

  std::function<void()> onRenderRequest;
  bool painting = false;
  unsigned int windowFramebuffer = 0;  ///< the window's default framebuffer (0 for a QWindow)
  bool windowExposed = false;          ///< the frame being rendered goes on screen
  bool drewToWindow = false;           ///< the last frame is in the window's back buffer

 protected:
  HostedRenderWindow() = default;
  ~HostedRenderWindow() override = default;
};

}  // namespace ricochet::render::detail
