// VtkWidget: VTK rendering in a native child window of a Qt 6 widget, without VTK's (Qt 5)
// GUISupportQt. The VTK side follows ../shared/notes/qt6-vtk-on-debian.md ("Hosting VTK in a
// Qt 6 widget", which mirrors VTK's own QVTKOpenGLNativeWidget / QVTKRenderWindowAdapter); the
// Qt side is a QWindow with its own QOpenGLContext instead of a QOpenGLWidget (see the header).

#include "render/qt/vtk_widget.hpp"

#include <QApplication>
#include <QEvent>
#include <QExposeEvent>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QMetaMethod>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QWindow>

#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkOpenGLFramebufferObject.h>
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
// interactor after a camera move, a chart after a data change, the app after new poses). Outside
// VtkWidget::renderNow a Render() becomes a coalesced VtkWidget::requestRender(), and the actual
// VTK render happens once per display update (frame pacing: never more renders than frames).
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

  // VTK 9.1 renders into its own framebuffer object, copies it (colour and depth) into a second
  // one in Frame(), and the host then copies that into the window: two full-frame copies, the
  // second a format conversion (RGBA into the window's BGRX) that Mesa's llvmpipe draws as a
  // textured quad, ~2 ms of CPU per 538x720 frame. Without multisampling nothing needs VTK's
  // framebuffers, so the frame is drawn straight into the window's back buffer instead: Start()
  // binds it after VTK bound its own, and Frame() copies nothing. With multisampling (the window
  // has no samples of its own), or while the window is not exposed (a grab of a hidden view
  // reads VTK's framebuffer, which any driver keeps), VTK's own path is taken as before.
  void Start() override {
    drewToWindow = windowExposed && this->MultiSamples <= 1;
    Superclass::Start();
    if (!drewToWindow) return;
    vtkOpenGLState* state = this->GetState();
    state->vtkglBindFramebuffer(GL_FRAMEBUFFER, windowFramebuffer);
    state->vtkglDrawBuffer(GL_BACK);
    state->vtkglReadBuffer(GL_BACK);
  }
  void Frame() override {
    if (!drewToWindow) {
      Superclass::Frame();
      return;
    }
    this->InvokeEvent(vtkCommand::WindowFrameEvent, nullptr);  // as the superclass does
    this->GetState()->ResetFramebufferBindings();
  }

  std::function<void()> onRenderRequest;
  bool painting = false;
  unsigned int windowFramebuffer = 0;  ///< the window's default framebuffer (0 for a QWindow)
  bool windowExposed = false;          ///< the frame being rendered goes on screen
  bool drewToWindow = false;           ///< the last frame is in the window's back buffer

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

QString noWindowsMessage() {
  return QStringLiteral(
             "this platform shows no OpenGL windows (QT_QPA_PLATFORM=%1). "
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

// The native window VTK draws into. It only forwards: exposure, update requests and input go
// to its VtkWidget, which owns the context and the VTK objects.
class RenderSurface : public QWindow {
 public:
  explicit RenderSurface(VtkWidget* owner) : owner_(owner) {
    setSurfaceType(QWindow::OpenGLSurface);
    setFormat(VtkWidget::defaultFormat());
  }

 protected:
  void exposeEvent(QExposeEvent*) override {
    // Qt asks for a synchronous paint when a window becomes (or stays) visible.
    if (isExposed()) owner_->renderNow(nullptr);
  }
  bool event(QEvent* e) override {
    switch (e->type()) {
      case QEvent::UpdateRequest:
        owner_->handleUpdateRequest();
        return true;
      case QEvent::MouseButtonPress:
      case QEvent::MouseButtonDblClick:
      case QEvent::MouseButtonRelease:
      case QEvent::MouseMove:
      case QEvent::Wheel:
      case QEvent::KeyPress:
      case QEvent::KeyRelease:
      case QEvent::Enter:
      case QEvent::Leave:
        owner_->handleSurfaceEvent(e);
        break;
      case QEvent::Resize:
        owner_->requestRender();  // the new size is applied at the next render
        break;
      default:
        break;
    }
    return QWindow::event(e);
  }

 private:
  VtkWidget* owner_;
};

struct VtkWidget::Impl {
  vtkNew<HostedRenderWindow> window;
  vtkNew<QtTimerInteractor> interactor;
  vtkNew<CameraStyle> style;
  RenderSurface* surface = nullptr;     ///< owned by `container`
  QWidget* container = nullptr;         ///< createWindowContainer(surface)
  QOpenGLContext* context = nullptr;    ///< ours, created at the first exposure
  bool hasContext = false;
  bool announced = false;  ///< initialized() was emitted
  bool failed = false;
  bool rendering = false;  ///< inside renderNow (re-entrant requests are dropped)
  QTimer updateTimer;      ///< single-shot, 0 ms: the coalesced render request (requestRender)
  QString error;
  QLabel* message = nullptr;  ///< shown instead of the 3-D view when OpenGL is unavailable
  int wheelAccumulator = 0;   ///< angle-delta eighths of a degree not yet turned into steps
  QSize pixelSize;            ///< device pixels VTK was last sized to
  double dpr = 0.0;           ///< device pixel ratio VTK's DPI was last set for
  qint64 swapped = 0;

  // Device-pixel position, as VTK expects (Qt's is logical and y-down).
  void setMouseInfo(const QPointF& pos, Qt::KeyboardModifiers mods, int repeat) {
    const double r = surface ? surface->devicePixelRatio() : 1.0;
    interactor->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
    interactor->SetEventInformationFlipY(static_cast<int>(pos.x() * r + 0.5),
                                         static_cast<int>(pos.y() * r + 0.5),
                                         (mods & Qt::ControlModifier) ? 1 : 0,
                                         (mods & Qt::ShiftModifier) ? 1 : 0, 0, repeat);
  }

  bool isCurrent() const {
    QOpenGLContext* current = QOpenGLContext::currentContext();
    return context && current == context && current->surface() == surface;
  }

  // Keeps VTK's window size and DPI in step with the native window (resizes, moves to a screen
  // with another device pixel ratio); cheap when nothing changed.
  void syncSize() {
    const double r = surface->devicePixelRatio();
    const QSize px(static_cast<int>(surface->width() * r + 0.5),
                   static_cast<int>(surface->height() * r + 0.5));
    if (px != pixelSize) {
      pixelSize = px;
      // UpdateSize resizes the render window too, and keeps the interactor's y flip in step.
      interactor->UpdateSize(px.width(), px.height());
    }
    if (r != dpr) {
      dpr = r;
      window->SetDPI(static_cast<int>(72 * r + 0.5));
    }
  }
};

QSurfaceFormat VtkWidget::defaultFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  format.setSwapInterval(0);
  format.setRedBufferSize(8);
  format.setGreenBufferSize(8);
  format.setBlueBufferSize(8);
  // No alpha in the window: VTK keeps its own RGBA framebuffer, and an opaque visual never lets a
  // compositor show the view see-through (clearing the alpha channel instead cost ~1 ms a frame).
  format.setAlphaBufferSize(0);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(0);
  format.setSamples(0);  // VTK multisamples its own framebuffer; the window needs none
  return format;
}

VtkWidget::VtkWidget(QWidget* parent) : QWidget(parent), d(new Impl) {
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(64, 64);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);

  d->updateTimer.setSingleShot(true);
  d->updateTimer.setInterval(0);
  d->updateTimer.setTimerType(Qt::PreciseTimer);
  connect(&d->updateTimer, &QTimer::timeout, this, [this] { handleUpdateRequest(); });
  d->window->onRenderRequest = [this] { requestRender(); };
  d->window->SetReadyForRendering(false);
  d->window->SetMultiSamples(0);  // the owner opts into MSAA (it doubles llvmpipe's frame cost)
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
  d->interactor->Initialize();  // enables event processing; its Render() becomes a request

  observe(d->window, vtkCommand::WindowMakeCurrentEvent, [this](void*) {
    if (d->context && d->surface) d->context->makeCurrent(d->surface);
  });
  observe(d->window, vtkCommand::WindowIsCurrentEvent,
          [this](void* callData) { *static_cast<bool*>(callData) = d->isCurrent(); });

  if (QString reason; !openGLAvailable(&reason)) {
    // Known before any window exists: say so now, and tell listeners once they are connected.
    failContext(reason);
    return;
  }
  d->surface = new RenderSurface(this);
  d->container = QWidget::createWindowContainer(d->surface, this);
  d->container->setObjectName(QStringLiteral("ricochetVtkSurface"));
  d->container->setFocusPolicy(Qt::StrongFocus);
  d->container->setMinimumSize(16, 16);
  setFocusProxy(d->container);
  layout->addWidget(d->container);
}

VtkWidget::~VtkWidget() {
  if (d->context && d->surface && d->context->makeCurrent(d->surface)) {
    d->window->Finalize();  // release VTK's GL objects while their context is current
    d->context->doneCurrent();
  }
  d->window->SetInteractor(nullptr);
  d->interactor->SetRenderWindow(nullptr);
  delete d->context;
  delete d;  // the surface goes with the container, a child widget
}

vtkGenericOpenGLRenderWindow* VtkWidget::renderWindow() const { return d->window; }

vtkRenderWindowInteractor* VtkWidget::interactor() const { return d->interactor; }

bool VtkWidget::hasContext() const { return d->hasContext; }

QString VtkWidget::contextError() const { return d->error; }

QWindow* VtkWidget::renderSurface() const { return d->surface; }

qint64 VtkWidget::framesSwapped() const { return d->swapped; }

void VtkWidget::requestRender() {
  // Coalesced: one zero-interval single-shot timer however many calls, so the frame comes in
  // the next pass of the event loop, after the timers that fell due before it was asked for.
  // Not QWindow::requestUpdate(): where the platform has no vertical-blank signal (xcb) Qt
  // delivers that from a 5 ms timer (QT_QPA_UPDATE_IDLE_TIME), so every frame started 5 ms after
  // it was asked for, idle time that capped the frame rate (bench/gui/README.md). Not a posted
  // event either: Qt's glib dispatcher serves posted events before timers that fell due during
  // a frame, so a plot frame requested by the 3-D frame's end would run before them (p95 timer
  // lateness at max speed doubled). Pacing stays with the callers: one frame per snapshot, the
  // views taking turns.
  if (!d->surface || d->failed || d->updateTimer.isActive()) return;
  d->updateTimer.start();
}

void VtkWidget::failContext(const QString& message) {
  if (d->failed) return;
  d->failed = true;
  d->hasContext = false;
  d->error = message;
  if (d->container) d->container->hide();  // a native window would cover any sibling
  delete d->message;
  d->message = static_cast<QLabel*>(createUnavailableNotice(message, this));
  layout()->addWidget(d->message);
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

bool VtkWidget::openGLAvailable(QString* reason) {
  // Probed once per process. Two questions: can this platform show OpenGL windows at all (the
  // offscreen and minimal platforms have no windows to show; offscreen may even hand out GLX
  // contexts), and does a context of the format VTK needs, made current, really have version
  // >= 3.2 (a display may hand out an older one than asked for).
  static const QString why = [] {
    if (!qobject_cast<QApplication*>(QCoreApplication::instance())) {
      return QStringLiteral("no QApplication exists yet");
    }
    const QString platform = QGuiApplication::platformName();
    if (platform == QLatin1String("offscreen") || platform == QLatin1String("minimal")) {
      return noWindowsMessage();
    }
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

bool VtkWidget::initializeContext() {
  auto* context = new QOpenGLContext;
  context->setFormat(d->surface->requestedFormat());
  if (!context->create()) {
    delete context;
    failContext(noContextMessage());
    return false;
  }
  if (const QString problem = versionProblem(*context); !problem.isEmpty()) {
    delete context;
    failContext(problem);
    return false;
  }
  if (!context->makeCurrent(d->surface)) {
    delete context;
    failContext(QStringLiteral("the OpenGL context cannot be made current on the view's window"));
    return false;
  }
  d->context = context;
  HostedRenderWindow* w = d->window;
  w->SetOwnContext(false);
  w->SetFrameBlitModeToNoBlit();  // multisampled frames: renderNow blits them into the window
  w->SetReadyForRendering(false);
  w->SetMapped(true);
  w->SetIsCurrent(true);
  w->SetForceMaximumHardwareLineWidth(1);  // core profile: VTK draws wide lines itself
  w->OpenGLInitContext();
  if (!w->glFunctionsLoaded()) {
    failContext(QStringLiteral("VTK could not load the OpenGL functions of this context"));
    return false;
  }
  d->hasContext = true;
  return true;
}

bool VtkWidget::renderNow(QImage* grab) {
  if (d->failed || !d->surface || d->rendering) return false;
  if (!d->surface->handle()) return false;  // no native window yet (never shown)
  if (!d->context) {
    if (!initializeContext()) return false;
  } else if (!d->context->makeCurrent(d->surface)) {
    return false;
  }
  d->rendering = true;
  emit frameStarted();
  d->syncSize();
  HostedRenderWindow* w = d->window;
  vtkOpenGLState* state = w->GetState();
  // Other code (a second view's context, Qt) may have touched GL: forget VTK's cached state.
  state->Reset();
  state->Push();
  state->vtkglDepthFunc(GL_LEQUAL);  // as VTK's own Qt adapter does

  w->windowFramebuffer = d->context->defaultFramebufferObject();
  w->windowExposed = d->surface->isExposed();
  w->painting = true;
  w->SetReadyForRendering(true);
  w->Render();
  w->SetReadyForRendering(false);
  w->painting = false;

  // Rendering may have made another surface current (the make-current observer); come back.
  d->context->makeCurrent(d->surface);
  const int pw = d->pixelSize.width(), ph = d->pixelSize.height();
  QOpenGLFunctions* f = d->context->functions();
  const GLuint windowFbo = d->context->defaultFramebufferObject();
  if (grab) {
    // The finished frame is in the window's back buffer (not yet swapped) or, multisampled, in
    // VTK's display framebuffer (an FBO: readable even while the window is hidden). Rows come
    // bottom-up.
    QImage image(pw, ph, QImage::Format_RGBA8888);
    if (w->drewToWindow) {
      state->vtkglBindFramebuffer(GL_READ_FRAMEBUFFER, windowFbo);
      d->context->extraFunctions()->glReadBuffer(GL_BACK);
    } else {
      state->vtkglBindFramebuffer(GL_READ_FRAMEBUFFER, w->GetDisplayFramebuffer()->GetFBOIndex());
      d->context->extraFunctions()->glReadBuffer(GL_COLOR_ATTACHMENT0);
    }
    f->glPixelStorei(GL_PACK_ALIGNMENT, 4);
    f->glReadPixels(0, 0, pw, ph, GL_RGBA, GL_UNSIGNED_BYTE, image.bits());
    *grab = image.mirrored().convertToFormat(QImage::Format_RGBX8888);  // opaque, as shown
    grab->setDevicePixelRatio(d->dpr);
  }
  if (!w->drewToWindow) {
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, windowFbo);
    const GLboolean scissor = f->glIsEnabled(GL_SCISSOR_TEST);
    if (scissor) state->vtkglDisable(GL_SCISSOR_TEST);
    w->BlitDisplayFramebuffer(0, 0, 0, pw, ph, 0, 0, pw, ph, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    if (scissor) state->vtkglEnable(GL_SCISSOR_TEST);
  }
  state->Pop();
  const bool shown = d->surface->isExposed();
  if (shown) d->context->swapBuffers(d->surface);

  d->rendering = false;
  if (!d->announced) {
    d->announced = true;
    emit initialized();
  }
  if (shown) {
    ++d->swapped;
    emit frameSwapped();
  }
  return true;
}

void VtkWidget::handleUpdateRequest() {
  d->updateTimer.stop();  // this frame serves any pending request; one from here on asks again
  if (d->surface && d->surface->isExposed()) renderNow(nullptr);
}

QImage VtkWidget::grabFrame() {
  QImage image;
  if (!renderNow(&image)) return {};
  return image;
}

void VtkWidget::paintEvent(QPaintEvent*) {
  // On screen the native child window covers this widget; only a render into another device
  // (QWidget::grab() or render() of an ancestor) reaches here with a redirection, and it gets
  // the frame read back from VTK.
  if (!redirected(nullptr) || !d->hasContext) return;
  const QImage frame = grabFrame();
  if (frame.isNull()) return;
  QPainter painter(this);
  painter.drawImage(rect(), frame);
}

void VtkWidget::handleSurfaceEvent(QEvent* e) {
  if (!d->hasContext || !isEnabled()) return;
  switch (e->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseButtonRelease:
    case QEvent::MouseMove: {
      auto* me = static_cast<QMouseEvent*>(e);
      const bool dbl = e->type() == QEvent::MouseButtonDblClick;
      d->setMouseInfo(me->position(), me->modifiers(), dbl ? 1 : 0);
      vtkRenderWindowInteractor* i = d->interactor;
      if (e->type() == QEvent::MouseButtonPress && QGuiApplication::focusWindow() != d->surface) {
        // A click in the view gives it the keyboard (as xcb does for real clicks). While it
        // has it no widget has focus; the window's shortcuts still work (Qt's shortcut map
        // looks through an embedded window to its top-level).
        d->surface->requestActivate();
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
      d->setMouseInfo(we->position(), we->modifiers(), 0);
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
      d->interactor->EnterEvent();
      break;
    case QEvent::Leave:
      d->interactor->LeaveEvent();
      break;
    default:
      break;
  }
}

}  // namespace ricochet::render
