// VtkWidget: VTK rendering in a native child window of a Qt 6 widget, without VTK's (Qt 5)
// GUISupportQt. The VTK side mirrors VTK's own QVTKOpenGLNativeWidget / QVTKRenderWindowAdapter
// (the render window is told the context is current and sized by the host, and never makes a
// window of its own); the Qt side is a QWindow with its own QOpenGLContext instead of a
// QOpenGLWidget (see the header). The render window is hosted_render_window.hpp, the input
// vtk_input.hpp.

#include "render/qt/vtk_widget.hpp"

#include "render/qt/hosted_render_window.hpp"
#include "render/qt/vtk_input.hpp"

#include <QApplication>
#include <QEvent>
#include <QExposeEvent>
#include <QGuiApplication>
#include <QLabel>
#include <QMetaMethod>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QTimer>
#include <QVBoxLayout>
#include <QWindow>

#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>

#include <functional>

namespace ricochet::render {
namespace {

using detail::CameraStyle;
using detail::HostedRenderWindow;
using detail::InputForwarder;
using detail::QtTimerInteractor;

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
  QSize pixelSize;            ///< device pixels VTK was last sized to
  double dpr = 0.0;           ///< device pixel ratio VTK's DPI was last set for
  qint64 swapped = 0;
  InputForwarder input;

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
  d->input.forward(e, d->interactor, d->surface);
}

}  // namespace ricochet::render
