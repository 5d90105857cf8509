// VtkWidget: VTK rendering inside a Qt 6 QOpenGLWidget without VTK's (Qt 5) GUISupportQt.
// The sequence follows ../shared/notes/qt6-vtk-on-debian.md ("Hosting VTK in a Qt 6 widget"),
// which mirrors what VTK's own QVTKOpenGLNativeWidget / QVTKRenderWindowAdapter do.

#include "render/vtk_widget.hpp"

#include <QApplication>
#include <QEvent>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QMetaMethod>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLFunctions>
#include <QOffscreenSurface>
#include <QSurface>
#include <QTimer>
#include <QWheelEvent>

#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkOpenGLState.h>

#include <functional>
#include <map>

namespace ricochet::render {
namespace {

// A vtkCommand running a C++ callable (VTK 9.1's AddObserver takes no lambdas).
class LambdaCommand : public vtkCommand {
 public:
  static LambdaCommand* New() { return new LambdaCommand; }
  std::function<void(void* callData)> fn;
  void Execute(vtkObject*, unsigned long, void* callData) override {
    if (fn) fn(callData);
  }
};

void observe(vtkObject* subject, unsigned long event, std::function<void(void*)> fn) {
  vtkNew<LambdaCommand> cmd;
  cmd->fn = std::move(fn);
  subject->AddObserver(event, cmd);
}

// The render window VTK code talks to. Anything in VTK that wants a frame calls Render() (the
// interactor after a camera move, a chart after a data change, the app after new poses). Only
// paintGL has the widget's framebuffer to draw into, so outside paintGL a Render() becomes a
// coalesced QWidget::update() and the actual VTK render happens in the next paintGL.
class HostedRenderWindow : public vtkGenericOpenGLRenderWindow {
 public:
  static HostedRenderWindow* New();
  vtkTypeMacro(HostedRenderWindow, vtkGenericOpenGLRenderWindow);

  void Render() override {
    if (!painting) {
      if (onRenderRequest) onRenderRequest();
      return;
    }
    Superclass::Render();
  }
  /// True once VTK loaded the OpenGL functions (GLEW) of the current context.
  bool glFunctionsLoaded() const { return this->Initialized; }

  std::function<void()> onRenderRequest;
  bool painting = false;

 protected:
  HostedRenderWindow() = default;
  ~HostedRenderWindow() override = default;
};
vtkStandardNewMacro(HostedRenderWindow);

// vtkGenericRenderWindowInteractor only announces timers as events; interactor styles and
// charts that animate (joystick style, chart tooltips) need real ones, so back them by QTimers.
class QtTimerInteractor : public vtkGenericRenderWindowInteractor {
 public:
  static QtTimerInteractor* New();
  vtkTypeMacro(QtTimerInteractor, vtkGenericRenderWindowInteractor);

  QObject* timerParent = nullptr;

 protected:
  QtTimerInteractor() = default;
  ~QtTimerInteractor() override {
    for (auto& entry : timers_) entry.second->deleteLater();
  }

  int InternalCreateTimer(int timerId, int timerType, unsigned long duration) override {
    auto* timer = new QTimer(timerParent);
    timer->setSingleShot(timerType == vtkRenderWindowInteractor::OneShotTimer);
    timer->setInterval(static_cast<int>(duration));
    const int platformId = nextPlatformId_++;
    QObject::connect(timer, &QTimer::timeout, timer, [this, timerId] { fire(timerId); });
    timers_[platformId] = timer;
    timer->start();
    return platformId;
  }

  int InternalDestroyTimer(int platformTimerId) override {
    auto it = timers_.find(platformTimerId);
    if (it == timers_.end()) return 0;
    it->second->stop();
    it->second->deleteLater();  // may be called from inside that timer's own timeout
    timers_.erase(it);
    return 1;
  }

 private:
  void fire(int timerId) {
    if (!this->GetEnabled()) return;
    int id = timerId;
    this->InvokeEvent(vtkCommand::TimerEvent, &id);
    if (this->IsOneShotTimer(timerId)) this->DestroyTimer(timerId);
  }

  std::map<int, QTimer*> timers_;
  int nextPlatformId_ = 1;
};
vtkStandardNewMacro(QtTimerInteractor);

// Trackball camera, minus the keys that make no sense inside an application ('e'/'q' quit the
// VTK event loop, '3' toggles stereo); 'r' asks the owner for the scene's own default view.
class CameraStyle : public vtkInteractorStyleTrackballCamera {
 public:
  static CameraStyle* New();
  vtkTypeMacro(CameraStyle, vtkInteractorStyleTrackballCamera);

  std::function<bool()> onResetView;  ///< true when someone handled it

  void OnChar() override {
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

 protected:
  CameraStyle() = default;
  ~CameraStyle() override = default;
};
vtkStandardNewMacro(CameraStyle);

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

QString noContextMessage() {
  return QStringLiteral(
             "no OpenGL context can be created on this display (QT_QPA_PLATFORM=%1). "
             "Run on an X11 display (QT_QPA_PLATFORM=xcb) or under xvfb-run.")
      .arg(QGuiApplication::platformName());
}

// Empty when `ctx` (created) is an OpenGL the VTK 9.1 OpenGL2 backend can use: desktop >= 3.2.
QString versionProblem(const QOpenGLContext& ctx) {
  const QSurfaceFormat got = ctx.format();
  if (!ctx.isOpenGLES() && got.version() >= qMakePair(3, 2)) return {};
  return QStringLiteral("OpenGL 3.2 or later is required, this display offers %1%2.%3")
      .arg(ctx.isOpenGLES() ? QStringLiteral("OpenGL ES ") : QString())
      .arg(got.majorVersion())
      .arg(got.minorVersion());
}

}  // namespace

struct VtkWidget::Impl {
  vtkNew<HostedRenderWindow> window;
  vtkNew<QtTimerInteractor> interactor;
  vtkNew<CameraStyle> style;
  QOpenGLContext* glContext = nullptr;  ///< the widget's context, while initialized
  QSurface* glSurface = nullptr;        ///< the surface it was current on in initializeGL
  bool hasContext = false;
  bool announced = false;  ///< initialized() was emitted
  bool failed = false;
  QString error;
  QLabel* message = nullptr;  ///< shown instead of the 3-D view when OpenGL is unavailable
  QMetaObject::Connection contextDestroyed;
  int wheelAccumulator = 0;   ///< angle-delta eighths of a degree not yet turned into steps

  // Device-pixel position, as VTK expects (Qt's is logical and y-down).
  void setMouseInfo(const QWidget* w, const QPointF& pos, Qt::KeyboardModifiers mods, int repeat) {
    const double dpr = w->devicePixelRatioF();
    interactor->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
    interactor->SetEventInformationFlipY(static_cast<int>(pos.x() * dpr + 0.5),
                                         static_cast<int>(pos.y() * dpr + 0.5),
                                         (mods & Qt::ControlModifier) ? 1 : 0,
                                         (mods & Qt::ShiftModifier) ? 1 : 0, 0, repeat);
  }

  bool isCurrent() const {
    QOpenGLContext* current = QOpenGLContext::currentContext();
    return glContext && current == glContext && current->surface() == glSurface;
  }
};

QSurfaceFormat VtkWidget::defaultFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  format.setRedBufferSize(8);
  format.setGreenBufferSize(8);
  format.setBlueBufferSize(8);
  format.setAlphaBufferSize(8);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(0);
  format.setSamples(0);  // VTK multisamples its own framebuffer; the widget's FBO needs none
  return format;
}

VtkWidget::VtkWidget(QWidget* parent) : QOpenGLWidget(parent), d(new Impl) {
  setFormat(defaultFormat());
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);  // hover events for charts
  setMinimumSize(64, 64);

  d->window->onRenderRequest = [this] { update(); };
  d->window->SetReadyForRendering(false);
  d->window->SetMultiSamples(8);  // antialiased edges; VTK falls back when unsupported
  d->window->SetInteractor(d->interactor);
  d->interactor->timerParent = this;
  d->interactor->SetRenderWindow(d->window);
  d->interactor->SetInteractorStyle(d->style);
  d->interactor->EnableRenderOn();
  d->style->onResetView = [this] {
    if (!isSignalConnected(QMetaMethod::fromSignal(&VtkWidget::resetViewRequested))) return false;
    emit resetViewRequested();
    return true;
  };
  d->interactor->Initialize();  // enables event processing; its Render() becomes an update()

  if (QString reason; !openGLAvailable(&reason)) {
    // Known before any window exists: say so now, and tell listeners once they are connected.
    failContext(reason);
  }

  observe(d->window, vtkCommand::WindowMakeCurrentEvent, [this](void*) {
    // QOpenGLContext::makeCurrent, not QOpenGLWidget::makeCurrent (the latter rebinds the
    // widget FBO and broke VTK's framebuffers).
    if (d->glContext && d->glSurface) d->glContext->makeCurrent(d->glSurface);
  });
  observe(d->window, vtkCommand::WindowIsCurrentEvent,
          [this](void* callData) { *static_cast<bool*>(callData) = d->isCurrent(); });
}

VtkWidget::~VtkWidget() {
  QObject::disconnect(d->contextDestroyed);  // ~QOpenGLWidget destroys the context after `d`
  if (d->hasContext && context()) {
    makeCurrent();
    d->window->Finalize();  // release VTK's GL objects while their context is current
    doneCurrent();
  }
  d->window->SetInteractor(nullptr);
  d->interactor->SetRenderWindow(nullptr);
  delete d;
}

vtkGenericOpenGLRenderWindow* VtkWidget::renderWindow() const { return d->window; }

vtkRenderWindowInteractor* VtkWidget::interactor() const { return d->interactor; }

bool VtkWidget::hasContext() const { return d->hasContext; }

QString VtkWidget::contextError() const { return d->error; }

void VtkWidget::requestRender() { update(); }

void VtkWidget::failContext(const QString& message) {
  if (d->failed) return;
  d->failed = true;
  d->hasContext = false;
  d->error = message;
  // A plain child widget: the OpenGL widget itself cannot paint anything without a context.
  delete d->message;
  d->message = static_cast<QLabel*>(createUnavailableNotice(message, this));
  d->message->setGeometry(rect());
  d->message->show();
  // Queued: from the constructor nobody is connected yet.
  QMetaObject::invokeMethod(
      this, [this, message] { emit contextFailed(message); }, Qt::QueuedConnection);
}

QWidget* VtkWidget::createUnavailableNotice(const QString& reason, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName(QStringLiteral("ricochetGlUnavailableNotice"));
  label->setAlignment(Qt::AlignCenter);
  label->setWordWrap(true);
  label->setMargin(24);
  label->setAutoFillBackground(true);
  label->setStyleSheet(QStringLiteral(
      "QLabel { background: #eef1f5; color: #3a4250; font-size: 13px; }"));
  label->setText(QStringLiteral("<b>3-D view unavailable</b><br><br>%1").arg(reason.toHtmlEscaped()));
  label->setMinimumSize(64, 64);
  return label;
}

namespace {
QtMessageHandler g_previousHandler = nullptr;
bool g_sawUnsupported = false;
void probeMessageHandler(QtMsgType type, const QMessageLogContext& context, const QString& msg) {
  if (msg.contains(QLatin1String("QOpenGLWidget is not supported on this platform"))) {
    g_sawUnsupported = true;
    return;
  }
  if (g_previousHandler) g_previousHandler(type, context, msg);
}
}  // namespace

bool VtkWidget::openGLAvailable(QString* reason) {
  // Probed once per process. Two questions: can Qt compose QOpenGLWidgets on this platform at
  // all (it says so only as a warning from the QOpenGLWidget constructor; the offscreen platform
  // says no even when GLX works), and does a context of the format VTK needs, made current,
  // really have version >= 3.2 (a display may hand out an older one than asked for).
  static const QString why = [] {
    if (!qobject_cast<QApplication*>(QCoreApplication::instance())) {
      return QStringLiteral("no QApplication exists yet");
    }
    g_sawUnsupported = false;
    g_previousHandler = qInstallMessageHandler(probeMessageHandler);
    { QOpenGLWidget widgetProbe; }
    qInstallMessageHandler(g_previousHandler);
    if (g_sawUnsupported) return noContextMessage();
    QOpenGLContext probe;
    probe.setFormat(defaultFormat());
    if (!probe.create()) return noContextMessage();
    QOffscreenSurface surface;
    surface.setFormat(probe.format());
    surface.create();
    if (!probe.makeCurrent(&surface)) {
      return QStringLiteral("an OpenGL context was created but cannot be made current");
    }
    probe.doneCurrent();
    return versionProblem(probe);
  }();
  if (reason) *reason = why;
  return why.isEmpty();
}

void VtkWidget::initializeGL() {
  QOpenGLContext* ctx = context();
  if (!ctx || !ctx->isValid()) {
    failContext(noContextMessage());
    return;
  }
  if (const QString problem = versionProblem(*ctx); !problem.isEmpty()) {
    failContext(problem);
    return;
  }
  // A new context (first show, or re-parenting into another window): VTK's GL objects of the
  // old one must be released while it is still current.
  QObject::disconnect(d->contextDestroyed);
  d->contextDestroyed = connect(ctx, &QOpenGLContext::aboutToBeDestroyed, this, [this] {
    if (!d->hasContext) return;
    makeCurrent();
    d->window->Finalize();
    doneCurrent();
    d->hasContext = false;
    d->glContext = nullptr;
    d->glSurface = nullptr;
  });

  d->glContext = ctx;
  d->glSurface = ctx->surface();
  HostedRenderWindow* w = d->window;
  w->SetOwnContext(false);
  w->SetFrameBlitModeToNoBlit();  // we blit into the widget FBO ourselves in paintGL
  w->SetReadyForRendering(false);
  w->SetMapped(true);
  w->SetIsCurrent(true);
  w->SetForceMaximumHardwareLineWidth(1);  // core profile: VTK draws wide lines itself
  w->OpenGLInitContext();
  if (!w->glFunctionsLoaded()) {
    failContext(QStringLiteral("VTK could not load the OpenGL functions of this context"));
    return;
  }
  d->hasContext = true;
  const double dpr = devicePixelRatioF();
  d->interactor->UpdateSize(static_cast<int>(width() * dpr + 0.5),
                            static_cast<int>(height() * dpr + 0.5));
  w->SetDPI(static_cast<int>(72 * dpr + 0.5));
  if (!d->announced) {  // a re-parented widget gets a new context: announce only the first
    d->announced = true;
    emit initialized();
  }
}

void VtkWidget::resizeGL(int w, int h) {
  const double dpr = devicePixelRatioF();
  const int pw = static_cast<int>(w * dpr + 0.5);
  const int ph = static_cast<int>(h * dpr + 0.5);
  // UpdateSize resizes the render window too, and keeps the interactor's y flip in step.
  d->interactor->UpdateSize(pw, ph);
  d->window->SetDPI(static_cast<int>(72 * dpr + 0.5));
}

void VtkWidget::paintGL() {
  if (!d->hasContext) return;
  HostedRenderWindow* w = d->window;
  vtkOpenGLState* state = w->GetState();
  // Qt touched GL behind VTK's back: forget VTK's cached state, and restore Qt's afterwards.
  state->Reset();
  state->Push();
  state->vtkglDepthFunc(GL_LEQUAL);  // as VTK's own Qt adapter does

  w->painting = true;
  w->SetReadyForRendering(true);
  w->Render();
  w->SetReadyForRendering(false);
  w->painting = false;

  // Rendering may have made another surface current (the make-current observer); come back.
  makeCurrent();
  const double dpr = devicePixelRatioF();
  const int pw = static_cast<int>(width() * dpr + 0.5);
  const int ph = static_cast<int>(height() * dpr + 0.5);
  QOpenGLFunctions* f = context()->functions();
  state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
  const GLboolean scissor = f->glIsEnabled(GL_SCISSOR_TEST);
  if (scissor) state->vtkglDisable(GL_SCISSOR_TEST);
  w->BlitDisplayFramebuffer(0, 0, 0, pw, ph, 0, 0, pw, ph, GL_COLOR_BUFFER_BIT, GL_NEAREST);

  // Force alpha to 1: Mesa otherwise composes the VTK background as transparent.
  GLboolean mask[4];
  f->glGetBooleanv(GL_COLOR_WRITEMASK, mask);
  GLfloat clear[4];
  f->glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
  f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
  f->glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  f->glClear(GL_COLOR_BUFFER_BIT);
  f->glColorMask(mask[0], mask[1], mask[2], mask[3]);
  f->glClearColor(clear[0], clear[1], clear[2], clear[3]);
  if (scissor) state->vtkglEnable(GL_SCISSOR_TEST);
  state->Pop();
}

bool VtkWidget::event(QEvent* e) {
  const bool live = d->hasContext && isEnabled();
  switch (e->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseButtonRelease:
    case QEvent::MouseMove: {
      if (!live) break;
      auto* me = static_cast<QMouseEvent*>(e);
      const bool dbl = e->type() == QEvent::MouseButtonDblClick;
      d->setMouseInfo(this, me->position(), me->modifiers(), dbl ? 1 : 0);
      vtkRenderWindowInteractor* i = d->interactor;
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
      break;
    }
    case QEvent::Wheel: {
      if (!live) break;
      auto* we = static_cast<QWheelEvent*>(e);
      d->setMouseInfo(this, we->position(), we->modifiers(), 0);
      // 120 eighths of a degree is one notch; touchpads send fractions that add up.
      d->wheelAccumulator += we->angleDelta().y() != 0 ? we->angleDelta().y() : we->angleDelta().x();
      while (d->wheelAccumulator >= 120) {
        d->interactor->MouseWheelForwardEvent();
        d->wheelAccumulator -= 120;
      }
      while (d->wheelAccumulator <= -120) {
        d->interactor->MouseWheelBackwardEvent();
        d->wheelAccumulator += 120;
      }
      e->accept();
      return true;
    }
    case QEvent::KeyPress:
    case QEvent::KeyRelease: {
      if (!live) break;
      auto* ke = static_cast<QKeyEvent*>(e);
      const Qt::KeyboardModifiers mods = ke->modifiers();
      const QString text = ke->text();
      const char ascii = text.size() == 1 && text.at(0).unicode() < 128
                             ? static_cast<char>(text.at(0).unicode())
                             : '\0';
      char single[2] = {ascii, '\0'};
      const char* sym = keySymFor(ke->key());
      if (!sym && ascii > ' ') sym = single;
      d->interactor->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
      d->interactor->SetKeyEventInformation((mods & Qt::ControlModifier) ? 1 : 0,
                                            (mods & Qt::ShiftModifier) ? 1 : 0, ascii,
                                            ke->isAutoRepeat() ? 1 : 0, sym);
      if (e->type() == QEvent::KeyPress) {
        d->interactor->KeyPressEvent();
        if (ascii) d->interactor->CharEvent();
      } else {
        d->interactor->KeyReleaseEvent();
      }
      break;
    }
    case QEvent::Enter:
      if (live) d->interactor->EnterEvent();
      break;
    case QEvent::Leave:
      if (live) d->interactor->LeaveEvent();
      break;
    default:
      break;
  }

  const bool handled = QOpenGLWidget::event(e);

  switch (e->type()) {
    case QEvent::Resize:
    case QEvent::Show:
    case QEvent::Paint:
    case QEvent::UpdateRequest:
      // QOpenGLWidget creates its context on the first non-empty resize and silently gives up
      // when it cannot ("Failed to create context"; e.g. QT_QPA_PLATFORM=offscreen): then no
      // initializeGL ever comes, and the widget would stay blank without a word.
      if (!d->failed && !d->hasContext && isVisible() && width() > 0 && height() > 0 &&
          (!context() || !context()->isValid())) {
        failContext(noContextMessage());
      }
      if (d->message) d->message->setGeometry(rect());
      break;
    default:
      break;
  }
  return handled;
}

}  // namespace ricochet::render
