#pragma once
// A Qt 6 widget hosting a VTK render window without VTK's Qt module (Debian builds that for
// Qt 5). Recipe and pitfalls: ../shared/notes/qt6-vtk-on-debian.md. The same widget hosts the
// 3-D scene (a vtkRenderer added to renderWindow()) and VTK charts (a vtkContextView given
// renderWindow() and interactor()).

#include <QOpenGLWidget>
#include <QString>
#include <QSurfaceFormat>

class vtkGenericOpenGLRenderWindow;
class vtkRenderWindowInteractor;

namespace ricochet::render {

class VtkWidget : public QOpenGLWidget {
  Q_OBJECT
 public:
  explicit VtkWidget(QWidget* parent = nullptr);
  ~VtkWidget() override;

  /// The OpenGL format VTK needs (3.2 core, depth 24). Each VtkWidget asks for it; applications
  /// should also make it the default before constructing QApplication, so the window's
  /// compositing context matches: QSurfaceFormat::setDefaultFormat(VtkWidget::defaultFormat()).
  static QSurfaceFormat defaultFormat();

  /// Whether this process can host VTK at all: probes (once) for an OpenGL >= 3.2 context of
  /// defaultFormat(); `reason` gets a one-line explanation when not. Needs a QApplication.
  /// Check it BEFORE putting a VtkWidget in a window: Qt 6.4 crashes composing any window that
  /// holds a QOpenGLWidget on a platform without OpenGL (QT_QPA_PLATFORM=offscreen), before any
  /// widget code can react. Use createUnavailableNotice(reason) in its place then.
  static bool openGLAvailable(QString* reason = nullptr);
  /// The message the widget itself shows when its context fails, as a stand-alone widget.
  static QWidget* createUnavailableNotice(const QString& reason, QWidget* parent = nullptr);

  /// The VTK render window drawing into this widget. Valid from construction; renders only once
  /// the widget has an OpenGL context.
  vtkGenericOpenGLRenderWindow* renderWindow() const;
  /// Interactor fed from Qt mouse/wheel/key events (trackball camera style by default).
  vtkRenderWindowInteractor* interactor() const;

  /// False when no usable OpenGL context could be created (e.g. QT_QPA_PLATFORM=offscreen); the
  /// widget then paints contextError() instead of crashing.
  bool hasContext() const;
  QString contextError() const;

  /// Schedules a VTK render on the next paint; cheap and coalesced, call it at any rate.
  void requestRender();

 signals:
  /// Emitted once after the first successful initializeGL.
  void initialized();
  /// Emitted when the OpenGL context could not be created or is unusable.
  void contextFailed(const QString& message);
  /// The user pressed 'r' in the view: connect it to SceneView::resetCamera() (the scene knows
  /// its default view). Unconnected, VTK's generic ResetCamera runs instead.
  void resetViewRequested();

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  bool event(class QEvent* e) override;

 private:
  void failContext(const QString& message);

  struct Impl;
  Impl* d;
};

}  // namespace ricochet::render
