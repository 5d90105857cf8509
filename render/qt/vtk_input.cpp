#include "render/qt/vtk_input.hpp"

#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QTimer>
#include <QWheelEvent>
#include <QWindow>

#include <vtkCommand.h>
#include <vtkObjectFactory.h>

namespace ricochet::render::detail {
namespace {

// X11 keysym names VTK styles and widgets compare against, for the non-character keys.
const char* keySymFor(int key) {
  switch (key) {
    case Qt::Key_Left: return "Left";
    case Qt::Key_Right: return "Right";
    case Qt::Key_Up: return "Up";
    case Qt::Key_Down: return "Down";
    case Qt::Key_Return: return "Return";
    case Qt::Key_Enter: return "KP_Enter";
    case Qt::Key_Escape: return "Escape";
    case Qt::Key_Tab: return "Tab";
    case Qt::Key_Backspace: return "BackSpace";
    case Qt::Key_Delete: return "Delete";
    case Qt::Key_Home: return "Home";
    case Qt::Key_End: return "End";
    case Qt::Key_PageUp: return "Prior";
    case Qt::Key_PageDown: return "Next";
    case Qt::Key_Space: return "space";
    case Qt::Key_Plus: return "plus";
    case Qt::Key_Minus: return "minus";
    case Qt::Key_Shift: return "Shift_L";
    case Qt::Key_Control: return "Control_L";
    case Qt::Key_Alt: return "Alt_L";
    default: return nullptr;
  }
}

// Device-pixel position, as VTK expects (Qt's is logical and y-down).
void setMouseInfo(vtkRenderWindowInteractor* interactor, QWindow* surface, const QPointF& pos,
                  Qt::KeyboardModifiers mods, int repeat) {
  const double r = surface ? surface->devicePixelRatio() : 1.0;
  interactor->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
  interactor->SetEventInformationFlipY(static_cast<int>(pos.x() * r + 0.5),
                                       static_cast<int>(pos.y() * r + 0.5),
                                       (mods & Qt::ControlModifier) ? 1 : 0,
                                       (mods & Qt::ShiftModifier) ? 1 : 0, 0, repeat);
}

}  // namespace

// ---- QtTimerInteractor ----------------------------------------------------------------------

vtkStandardNewMacro(QtTimerInteractor);

QtTimerInteractor::~QtTimerInteractor() {
  for (auto& entry : timers_) entry.second->deleteLater();
}

int QtTimerInteractor::InternalCreateTimer(int timerId, int timerType, unsigned long duration) {
  auto* timer = new QTimer(timerParent);
  timer->setSingleShot(timerType == vtkRenderWindowInteractor::OneShotTimer);
  timer->setInterval(static_cast<int>(duration));
  const int platformId = nextPlatformId_++;
  QObject::connect(timer, &QTimer::timeout, timer, [this, timerId] { fire(timerId); });
  timers_[platformId] = timer;
  timer->start();
  return platformId;
}

int QtTimerInteractor::InternalDestroyTimer(int platformTimerId) {
  auto it = timers_.find(platformTimerId);
  if (it == timers_.end()) return 0;
  it->second->stop();
  it->second->deleteLater();  // may be called from inside that timer's own timeout
  timers_.erase(it);
  return 1;
}

void QtTimerInteractor::fire(int timerId) {
  if (!this->GetEnabled()) return;
  int id = timerId;
  this->InvokeEvent(vtkCommand::TimerEvent, &id);
  if (this->IsOneShotTimer(timerId)) this->DestroyTimer(timerId);
}

// ---- CameraStyle ----------------------------------------------------------------------------

vtkStandardNewMacro(CameraStyle);

void CameraStyle::OnChar() {
  switch (this->Interactor ? this->Interactor->GetKeyCode() : 0) {
    case 'e': case 'E': case 'q': case 'Q': case '3':
      return;
    case 'r': case 'R':
      if (onResetView && onResetView()) return;
      break;
    default:
      break;
  }
  Superclass::OnChar();
}

// ---- InputForwarder -------------------------------------------------------------------------

void InputForwarder::forward(QEvent* e, vtkRenderWindowInteractor* i, QWindow* surface) {
  switch (e->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseButtonRelease:
    case QEvent::MouseMove: {
      auto* me = static_cast<QMouseEvent*>(e);
      const bool dbl = e->type() == QEvent::MouseButtonDblClick;
      setMouseInfo(i, surface, me->position(), me->modifiers(), dbl ? 1 : 0);
      if (e->type() == QEvent::MouseButtonPress && QGuiApplication::focusWindow() != surface) {
        // A click in the view gives it the keyboard (as xcb does for real clicks). While it
        // has it no widget has focus; the window's shortcuts still work (Qt's shortcut map
        // looks through an embedded window to its top-level).
        surface->requestActivate();
      }
      if (e->type() == QEvent::MouseMove) {
        i->MouseMoveEvent();
      } else if (e->type() == QEvent::MouseButtonRelease) {
        switch (me->button()) {
          case Qt::LeftButton: i->LeftButtonReleaseEvent(); break;
          case Qt::MiddleButton: i->MiddleButtonReleaseEvent(); break;
          case Qt::RightButton: i->RightButtonReleaseEvent(); break;
          default: break;
        }
      } else {
        switch (me->button()) {
          case Qt::LeftButton: i->LeftButtonPressEvent(); break;
          case Qt::MiddleButton: i->MiddleButtonPressEvent(); break;
          case Qt::RightButton: i->RightButtonPressEvent(); break;
          default: break;
        }
      }
      e->accept();
      break;
    }
    case QEvent::Wheel: {
      auto* we = static_cast<QWheelEvent*>(e);
      setMouseInfo(i, surface, we->position(), we->modifiers(), 0);
      // 120 eighths of a degree is one notch; touchpads send fractions that add up.
      wheelAccumulator_ += we->angleDelta().y() != 0 ? we->angleDelta().y() : we->angleDelta().x();
      while (wheelAccumulator_ >= 120) {
        i->MouseWheelForwardEvent();
        wheelAccumulator_ -= 120;
      }
      while (wheelAccumulator_ <= -120) {
        i->MouseWheelBackwardEvent();
        wheelAccumulator_ += 120;
      }
      e->accept();
      break;
    }
    case QEvent::KeyPress:
    case QEvent::KeyRelease: {
      auto* ke = static_cast<QKeyEvent*>(e);
      const Qt::KeyboardModifiers mods = ke->modifiers();
      const QString text = ke->text();
      const char ascii = text.size() == 1 && text.at(0).unicode() < 128
                             ? static_cast<char>(text.at(0).unicode())
                             : '\0';
      char single[2] = {ascii, '\0'};
      const char* sym = keySymFor(ke->key());
      if (!sym && ascii > ' ') sym = single;
      i->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
      i->SetKeyEventInformation((mods & Qt::ControlModifier) ? 1 : 0,
                                (mods & Qt::ShiftModifier) ? 1 : 0, ascii,
                                ke->isAutoRepeat() ? 1 : 0, sym);
      if (e->type() == QEvent::KeyPress) {
        i->KeyPressEvent();
        if (ascii) i->CharEvent();
      } else {
        i->KeyReleaseEvent();
      }
      break;
    }
    case QEvent::Enter:
      i->EnterEvent();
      break;
    case QEvent::Leave:
      i->LeaveEvent();
      break;
    default:
      break;
  }
}

}  // namespace ricochet::render::detail
