#pragma once
// A Qt 6 widget hosting a VTK render window without VTK's Qt module (Debian builds that for
// Qt 5). Recipe and pitfalls: ../shared/notes/qt6-vtk-on-debian.md. The same widget hosts the
// 3-D scene (a vtkRenderer added to renderWindow()) and VTK charts (a vtkContextView given
// renderWindow() and interactor()).

#include <QOpenGLWidget>
#include <QString>

class vtkGenericOpenGLRenderWindow;
class vtkRenderWindowInteractor;

namespace ricochet::render {

class VtkWidget : public QOpenGLWidget {
  Q_OBJECT
 public:
  explicit VtkWidget(QWidget* parent = nullptr);
  ~VtkWidget() override;

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

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  bool event(class QEvent* e) override;

 private:
  struct Impl;
  Impl* d;
};

}  // namespace ricochet::render
