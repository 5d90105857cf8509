#pragma once
// Qt input into VTK (internal to render/qt/): an interactor whose timers are QTimers, the
// trackball camera style minus the keys that make no sense in an application, and the
// translation of Qt's mouse, wheel, key and enter/leave events into VTK interactor events.

#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>

#include <functional>
#include <map>

class QEvent;
class QObject;
class QTimer;
class QWindow;

namespace ricochet::render::detail {

// vtkGenericRenderWindowInteractor only announces timers as events; interactor styles and
// charts that animate (joystick style, chart tooltips) need real ones, so back them by QTimers.
class QtTimerInteractor : public vtkGenericRenderWindowInteractor {
 public:
  static QtTimerInteractor* New();
  vtkTypeMacro(QtTimerInteractor, vtkGenericRenderWindowInteractor);

  QObject* timerParent = nullptr;

 protected:
  QtTimerInteractor() = default;
  ~QtTimerInteractor() override;

  int InternalCreateTimer(int timerId, int timerType, unsigned long duration) override;
  int InternalDestroyTimer(int platformTimerId) override;

 private:
  void fire(int timerId);

  std::map<int, QTimer*> timers_;
  int nextPlatformId_ = 1;
};

// Trackball camera, minus the keys that make no sense inside an application ('e'/'q' quit the
// VTK event loop, '3' toggles stereo); 'r' asks the owner for the scene's own default view.
class CameraStyle : public vtkInteractorStyleTrackballCamera {
 public:
  static CameraStyle* New();
  vtkTypeMacro(CameraStyle, vtkInteractorStyleTrackballCamera);

  std::function<bool()> onResetView;  ///< true when someone handled it

  void OnChar() override;

 protected:
  CameraStyle() = default;
  ~CameraStyle() override = default;
};

/// Hands Qt input events received by the native window `surface` to `interactor`, in device
/// pixels with VTK's y axis up. Keeps the wheel's fractional steps (touchpads) between events.
class InputForwarder {
 public:
  void forward(QEvent* e, vtkRenderWindowInteractor* interactor, QWindow* surface);

 private:
  int wheelAccumulator_ = 0;  ///< angle-delta eighths of a degree not yet turned into steps
};

}  // namespace ricochet::render::detail
