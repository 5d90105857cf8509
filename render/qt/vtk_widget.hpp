#pragma once
// A Qt 6 widget hosting a VTK render window without VTK's Qt module (Debian builds that for
// Qt 5; see vtk_widget.cpp for how the two are joined). The same widget hosts the
// 3-D scene (a vtkRenderer added to renderWindow()) and VTK charts (a vtkContextView given
// renderWindow() and interactor()).
//
// VTK draws into a native child window (a QWindow with its own OpenGL context, embedded with
// QWidget::createWindowContainer) that swaps its own buffers. A QOpenGLWidget would instead make
// Qt compose the whole top-level window through OpenGL on every frame: under Mesa's software
// renderer that alone cost 18-20 ms per frame at 1280x800 (bench/gui/README.md), against ~0.5 ms
// for a native window. Consequence: QWidget::grab() of a window sees the frame only through
// this widget's paint event, which reads the frame back (see grabFrame()).

#include <QImage>
#include <QString>
#include <QSurfaceFormat>
#include <QWidget>

class QWindow;
class vtkGenericOpenGLRenderWindow;
class vtkRenderWindowInteractor;

namespace ricochet::render {

class VtkWidget : public QWidget {
  Q_OBJECT
 public:
  explicit VtkWidget(QWidget* parent = nullptr);
  ~VtkWidget() override;

  /// The OpenGL format VTK needs (3.2 core, depth 24, no multisampling of its own: VTK
  /// multisamples its own framebuffer; swap interval 0, so two views never wait for vertical
  /// blank one after the other on the GUI thread). Applications should make it the default
  /// before constructing QApplication: QSurfaceFormat::setDefaultFormat(VtkWidget::defaultFormat()).
  static QSurfaceFormat defaultFormat();

  /// Whether this process can host VTK at all: probes (once) the platform (it must show native
  /// windows: not QT_QPA_PLATFORM=offscreen or minimal) and an OpenGL >= 3.2 context of
  /// defaultFormat(); `reason` gets a one-line explanation when not. Needs a QApplication.
  /// A VtkWidget created where this is false shows the reason instead of a view (and emits
  /// contextFailed); createUnavailableNotice(reason) gives the same message as a plain widget.
  static bool openGLAvailable(QString* reason = nullptr);
  /// The message the widget itself shows when its context fails, as a stand-alone widget.
  static QWidget* createUnavailableNotice(const QString& reason, QWidget* parent = nullptr);

  /// The VTK render window drawing into this widget. Valid from construction; renders only once
  /// the widget has an OpenGL context.
  vtkGenericOpenGLRenderWindow* renderWindow() const;
  /// Interactor fed from Qt mouse/wheel/key events (trackball camera style by default).
  vtkRenderWindowInteractor* interactor() const;

  /// False until the first frame initialised OpenGL, and when no usable OpenGL context could be
  /// created (e.g. QT_QPA_PLATFORM=offscreen); the widget then shows contextError() instead.
  bool hasContext() const;
  QString contextError() const;

  /// Schedules a VTK render; cheap and coalesced, call it at any rate. At most one frame is
  /// rendered per display update, and never while the previous one is being drawn.
  void requestRender();

  /// Renders a frame now (and shows it) and returns it as read back from VTK's framebuffer:
  /// width() x height() times the device pixel ratio, opaque. Null without a context.
  QImage grabFrame();
  /// Same as grabFrame() (the name QOpenGLWidget uses, kept for callers written against it).
  QImage grabFramebuffer() { return grabFrame(); }

  /// The native window VTK draws into (it receives the mouse and keyboard events); null when
  /// OpenGL is unavailable.
  QWindow* renderSurface() const;
  /// Frames swapped onto the screen so far.
  qint64 framesSwapped() const;

 signals:
  /// Emitted once after the first successful OpenGL initialisation.
  void initialized();
  /// Emitted when the OpenGL context could not be created or is unusable.
  void contextFailed(const QString& message);
  /// The user pressed 'r' in the view: connect it to SceneView::resetCamera() (the scene knows
  /// its default view). Unconnected, VTK's generic ResetCamera runs instead.
  void resetViewRequested();
  /// A frame is about to be rendered from the VTK objects' current state: what they hold now is
  /// what this frame shows (a producer may prepare the next state from here on).
  void frameStarted();
  /// A rendered frame has been handed to the display (after the buffer swap).
  void frameSwapped();

 protected:
  /// Paints the current frame only when the widget is rendered into another device
  /// (QWidget::grab() of a parent, a print): on screen the native window shows it.
  void paintEvent(QPaintEvent* event) override;

 private:
  friend class RenderSurface;
  bool renderNow(QImage* grab);
  void handleUpdateRequest();
  bool initializeContext();
  void handleSurfaceEvent(class QEvent* e);
  void failContext(const QString& message);

  struct Impl;
  Impl* d;
};

}  // namespace ricochet::render
