// VtkWidget (render/qt/vtk_widget.hpp) in a real QApplication window: it gets a context, renders a
// VTK scene into its native window, turns mouse drags on that window into camera moves, hosts a
// VTK chart with its own interactor style, routes VTK's own Render() calls to coalesced update
// requests, survives docking/undocking, shows up in QWidget::grab() of its window, and without
// OpenGL (QT_QPA_PLATFORM=offscreen) shows a message instead of crashing.
// Needs an X display: run under xvfb-run (./test.sh does).

#include "render/qt/vtk_widget.hpp"
#include "render/scene/scene_view.hpp"

#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QProcess>
#include <QSignalSpy>
#include <QScreen>
#include <QSurfaceFormat>
#include <QVBoxLayout>
#include <QWindow>

#include <vtkActor.h>
#include <vtkAxis.h>
#include <vtkCamera.h>
#include <vtkChartXY.h>
#include <vtkCommand.h>
#include <vtkContextScene.h>
#include <vtkContextView.h>
#include <vtkFloatArray.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkPlot.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindowInteractor.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkSphereSource.h>
#include <vtkTable.h>

#include <cmath>
#include <cstdlib>

using ricochet::render::VtkWidget;

namespace {

// Mean absolute deviation of the luminance from its mean, in 0..255 units. A frame showing a
// lit sphere on a background differs by tens of grey levels between object and background over a
// large share of the pixels; a uniform (blank) frame gives exactly 0.
double luminanceSpread(const QImage& image) {
  const QImage img = image.convertToFormat(QImage::Format_RGB32);
  double sum = 0.0;
  const int n = img.width() * img.height();
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) sum += qGray(img.pixel(x, y));
  const double mean = sum / n;
  double dev = 0.0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) dev += std::fabs(qGray(img.pixel(x, y)) - mean);
  return dev / n;
}

// Pumps the event loop until `widget` has swapped at least `frames` new frames.
bool waitForFrames(VtkWidget& widget, QSignalSpy& swapped, int frames, int timeoutMs = 5000) {
  const int target = swapped.count() + frames;
  widget.requestRender();
  QElapsedTimer t;
  t.start();
  while (swapped.count() < target && t.elapsed() < timeoutMs) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QTest::qWait(5);
  }
  return swapped.count() >= target;
}

// An orange sphere on a light background in `widget` (the renderer is returned for camera checks).
vtkSmartPointer<vtkRenderer> addSphereScene(VtkWidget& widget) {
  auto renderer = vtkSmartPointer<vtkRenderer>::New();
  renderer->SetBackground(0.9, 0.92, 0.95);
  vtkNew<vtkSphereSource> sphere;
  sphere->SetThetaResolution(48);
  sphere->SetPhiResolution(32);
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(sphere->GetOutputPort());
  vtkNew<vtkActor> actor;
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(0.85, 0.45, 0.2);
  renderer->AddActor(actor);
  widget.renderWindow()->AddRenderer(renderer);
  renderer->ResetCamera();
  return renderer;
}

bool isOrange(const QColor& c) { return c.red() > c.blue() + 40; }

// Counts the events it observes (VTK 9.1's AddObserver takes no lambdas).
class CountingCommand : public vtkCommand {
 public:
  static CountingCommand* New() { return new CountingCommand; }
  int* count = nullptr;
  void Execute(vtkObject*, unsigned long, void*) override { ++*count; }
};

// A drag on the view's native window, through Qt's window-system path (as a real mouse is
// delivered): press, ten moves with the button held, release.
void sendDrag(QWindow* w, QPoint from, QPoint to, Qt::MouseButton button) {
  QTest::mousePress(w, button, Qt::NoModifier, from);
  for (int i = 1; i <= 10; ++i) {
    const QPointF p = QPointF(from) + (QPointF(to) - QPointF(from)) * (i / 10.0);
    QTest::mouseMove(w, p.toPoint());
  }
  QTest::mouseRelease(w, button, Qt::NoModifier, to);
}

// A wheel notch (120 eighths of a degree) on the view's native window.
void sendWheel(QWindow* w, QPoint at, int delta) {
  QWheelEvent wheel(QPointF(at), w->mapToGlobal(QPointF(at)), QPoint(0, 0), QPoint(0, delta),
                    Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &wheel);
}

}  // namespace

class TestRenderWidget : public QObject {
  Q_OBJECT
 private slots:
  void rendersASceneIntoTheWindow() {
    VtkWidget widget;
    QSignalSpy initialized(&widget, &VtkWidget::initialized);
    QSignalSpy failed(&widget, &VtkWidget::contextFailed);
    QSignalSpy swapped(&widget, &VtkWidget::frameSwapped);
    vtkNew<vtkRenderer> renderer;
    renderer->SetBackground(0.9, 0.92, 0.95);
    vtkNew<vtkSphereSource> sphere;
    sphere->SetThetaResolution(48);
    sphere->SetPhiResolution(32);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(sphere->GetOutputPort());
    vtkNew<vtkActor> actor;
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(0.85, 0.45, 0.2);
    renderer->AddActor(actor);
    widget.renderWindow()->AddRenderer(renderer);
    renderer->ResetCamera();
    widget.resize(400, 300);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    QVERIFY(waitForFrames(widget, swapped, 1));
    QCOMPARE(initialized.count(), 1);
    QCOMPARE(failed.count(), 0);
    QVERIFY2(widget.hasContext(), qPrintable(widget.contextError()));

    const QImage frame = widget.grabFrame();
    QVERIFY(!frame.isNull());
    frame.save(QStringLiteral(RICOCHET_BINARY_DIR "/render_widget_sphere.png"));
    // Background (0.9,0.92,0.95) ~ grey 233 vs. orange sphere ~ grey 130: well above 5 levels.
    const double spread = luminanceSpread(frame);
    QVERIFY2(spread > 5.0, qPrintable(QString("luminance spread %1").arg(spread)));
    // Centre pixel is the sphere (orange: red > blue), the corner is the background.
    const QColor centre = frame.pixelColor(frame.width() / 2, frame.height() / 2);
    const QColor corner = frame.pixelColor(2, 2);
    QVERIFY2(centre.red() > centre.blue() + 40, qPrintable(centre.name()));
    QVERIFY2(std::abs(corner.red() - 230) < 6 && std::abs(corner.blue() - 242) < 6,
             qPrintable(corner.name()));
    QCOMPARE(corner.alpha(), 255);
    QCOMPARE(frame.size(), widget.size() * widget.devicePixelRatioF());
    // And the frame really is on screen: the X window's own pixels (read back from the server)
    // show the sphere in the middle and the background in the corner.
    QWindow* surface = widget.renderSurface();
    QVERIFY(surface);
    const QImage shown = surface->screen()->grabWindow(surface->winId()).toImage();
    QVERIFY(!shown.isNull());
    QVERIFY2(isOrange(shown.pixelColor(shown.width() / 2, shown.height() / 2)),
             qPrintable(shown.pixelColor(shown.width() / 2, shown.height() / 2).name()));
    const QColor shownCorner = shown.pixelColor(2, 2);
    QVERIFY2(std::abs(shownCorner.red() - 230) < 6 && std::abs(shownCorner.blue() - 242) < 6,
             qPrintable(shownCorner.name()));
  }

  void grabOfTheHostWindowShowsTheView() {
    // QWidget::grab() of a window holding the view (screenshots, the GUI tests) must show the
    // 3-D frame, although on screen it lives in a native child window Qt does not paint.
    QWidget host;
    auto* layout = new QVBoxLayout(&host);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(QStringLiteral("above the view"));
    label->setFixedHeight(40);
    layout->addWidget(label);
    auto* widget = new VtkWidget;
    layout->addWidget(widget);
    QSignalSpy swapped(widget, &VtkWidget::frameSwapped);
    addSphereScene(*widget);
    host.resize(400, 340);
    host.show();
    QVERIFY(QTest::qWaitForWindowExposed(&host));
    QVERIFY(waitForFrames(*widget, swapped, 1));
    const QImage shot = host.grab().toImage();
    shot.save(QStringLiteral(RICOCHET_BINARY_DIR "/render_widget_hostgrab.png"));
    const QPoint centre = widget->geometry().center();
    QVERIFY2(isOrange(shot.pixelColor(centre)), qPrintable(shot.pixelColor(centre).name()));
    const QColor corner = shot.pixelColor(widget->geometry().topLeft() + QPoint(3, 3));
    QVERIFY2(std::abs(corner.red() - 230) < 6 && std::abs(corner.blue() - 242) < 6,
             qPrintable(corner.name()));
  }

  void survivesDockingAndFloating() {
    // The app's plots live in a dock: floating it moves the native window into a new top-level
    // and docking it back returns it; the view keeps its context and keeps drawing at the new
    // size each time.
    QMainWindow main;
    main.setCentralWidget(new QLabel(QStringLiteral("central")));
    auto* dock = new QDockWidget(QStringLiteral("view"), &main);
    auto* widget = new VtkWidget;
    dock->setWidget(widget);
    main.addDockWidget(Qt::RightDockWidgetArea, dock);
    QSignalSpy initialized(widget, &VtkWidget::initialized);
    QSignalSpy swapped(widget, &VtkWidget::frameSwapped);
    addSphereScene(*widget);
    main.resize(800, 500);
    main.show();
    QVERIFY(QTest::qWaitForWindowExposed(&main));
    QVERIFY(waitForFrames(*widget, swapped, 1));
    auto check = [&](const char* where) {
      const QImage frame = widget->grabFrame();
      QVERIFY2(!frame.isNull(), where);
      QCOMPARE(frame.size(), widget->size() * widget->devicePixelRatioF());
      const QColor c = frame.pixelColor(frame.width() / 2, frame.height() / 2);
      QVERIFY2(isOrange(c), qPrintable(QString("%1: %2").arg(where, c.name())));
    };
    check("docked");
    dock->setFloating(true);
    dock->resize(300, 260);
    QVERIFY(QTest::qWaitForWindowExposed(dock));
    QVERIFY(waitForFrames(*widget, swapped, 1));
    QVERIFY(widget->hasContext());
    QTRY_COMPARE(widget->renderSurface()->size(), widget->size());
    check("floating");
    dock->setFloating(false);
    QTRY_VERIFY(widget->renderSurface()->isExposed());
    QVERIFY(waitForFrames(*widget, swapped, 1));
    check("docked again");
    QCOMPARE(initialized.count(), 1);
  }

  void windowShortcutsWorkWhileTheViewHasFocus() {
    // Keys typed into the view arrive at its native window; the main window's shortcuts (Space:
    // play/pause in the app) must still fire, and the other keys reach VTK.
    QMainWindow main;
    auto* widget = new VtkWidget;
    main.setCentralWidget(widget);
    QAction space(QStringLiteral("toggle"), &main);
    space.setShortcut(Qt::Key_Space);
    main.addAction(&space);
    QSignalSpy triggered(&space, &QAction::triggered);
    QSignalSpy reset(widget, &VtkWidget::resetViewRequested);
    QSignalSpy swapped(widget, &VtkWidget::frameSwapped);
    addSphereScene(*widget);
    main.resize(400, 300);
    main.show();
    main.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&main));
    QVERIFY(waitForFrames(*widget, swapped, 1));
    QTest::mouseClick(widget->renderSurface(), Qt::LeftButton, Qt::NoModifier, QPoint(50, 50));
    QTRY_COMPARE(QGuiApplication::focusWindow(), widget->renderSurface());
    QCOMPARE(QApplication::activeWindow(), &main);
    QTest::keyClick(widget->renderSurface(), Qt::Key_Space);
    QCOMPARE(triggered.count(), 1);
    QTest::keyClick(widget->renderSurface(), Qt::Key_R);
    QCOMPARE(reset.count(), 1);
  }

  void deviceInfoFollowsThePixelRatio() {
    const QString out = runChild({{"QT_SCALE_FACTOR", "2"}, {"RICOCHET_TEST_DPR_CHILD", "1"}});
    QVERIFY2(out.contains("DPR-OK"), qPrintable(out));
  }

  void mouseDragMovesTheCamera() {
    VtkWidget widget;
    QSignalSpy swapped(&widget, &VtkWidget::frameSwapped);
    vtkNew<vtkRenderer> renderer;
    vtkNew<vtkSphereSource> sphere;
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(sphere->GetOutputPort());
    vtkNew<vtkActor> actor;
    actor->SetMapper(mapper);
    renderer->AddActor(actor);
    widget.renderWindow()->AddRenderer(renderer);
    renderer->ResetCamera();
    widget.resize(400, 300);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    QVERIFY(waitForFrames(widget, swapped, 1));
    QVERIFY(widget.hasContext());

    vtkCamera* cam = renderer->GetActiveCamera();
    double before[3];
    cam->GetPosition(before);
    const QImage frameBefore = widget.grabFrame();

    // Left drag = rotate (trackball camera): the camera position moves on a sphere around the
    // focal point, so its distance to the focal point stays the same.
    const int framesBefore = swapped.count();
    sendDrag(widget.renderSurface(), QPoint(200, 150), QPoint(300, 120), Qt::LeftButton);
    double after[3];
    cam->GetPosition(after);
    const double moved = std::hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]);
    QVERIFY2(moved > 0.1, qPrintable(QString("camera moved %1").arg(moved)));
    // VTK asked for renders during the drag; they must have become Qt paints (no render outside
    // paintGL), which arrive asynchronously.
    QVERIFY(waitForFrames(widget, swapped, 1));
    QVERIFY(swapped.count() > framesBefore);

    // Wheel forward zooms in: the camera gets closer to the focal point.
    const double dist0 = cam->GetDistance();
    sendWheel(widget.renderSurface(), QPoint(200, 150), 120);
    QVERIFY2(cam->GetDistance() < dist0 * 0.95,
             qPrintable(QString("%1 -> %2").arg(dist0).arg(cam->GetDistance())));

    // Right drag = zoom, middle drag = pan (focal point moves).
    double focal0[3];
    cam->GetFocalPoint(focal0);
    sendDrag(widget.renderSurface(), QPoint(200, 150), QPoint(240, 190), Qt::MiddleButton);
    double focal1[3];
    cam->GetFocalPoint(focal1);
    QVERIFY(std::hypot(focal1[0] - focal0[0], focal1[1] - focal0[1], focal1[2] - focal0[2]) > 1e-3);

    QVERIFY(waitForFrames(widget, swapped, 1));
    const QImage frameAfter = widget.grabFrame();
    QVERIFY(frameAfter != frameBefore);
  }

  void survivesReparentingIntoAnotherWindow() {
    // A dock widget floated out of the main window moves its VtkWidget to a new top-level: Qt
    // destroys the GL context and makes a new one; VTK must let go of the old and draw again.
    QWidget first, second;
    first.resize(320, 240);
    second.resize(320, 240);
    auto* widget = new VtkWidget(&first);
    widget->resize(300, 220);
    QSignalSpy initialized(widget, &VtkWidget::initialized);
    QSignalSpy swapped(widget, &VtkWidget::frameSwapped);
    vtkNew<vtkRenderer> renderer;
    renderer->SetBackground(0.9, 0.92, 0.95);
    vtkNew<vtkSphereSource> sphere;
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(sphere->GetOutputPort());
    vtkNew<vtkActor> actor;
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(0.85, 0.45, 0.2);
    renderer->AddActor(actor);
    widget->renderWindow()->AddRenderer(renderer);
    renderer->ResetCamera();
    first.show();
    QVERIFY(QTest::qWaitForWindowExposed(&first));
    QVERIFY(waitForFrames(*widget, swapped, 1));
    QVERIFY(widget->hasContext());
    widget->setParent(&second);
    widget->show();
    second.show();
    QVERIFY(QTest::qWaitForWindowExposed(&second));
    QVERIFY(waitForFrames(*widget, swapped, 1));
    QVERIFY(widget->hasContext());
    QCOMPARE(initialized.count(), 1);  // announced once, however many contexts it had
    const QImage frame = widget->grabFrame();
    const QColor centre = frame.pixelColor(frame.width() / 2, frame.height() / 2);
    QVERIFY2(centre.red() > centre.blue() + 40, qPrintable(centre.name()));
    QVERIFY(luminanceSpread(frame) > 5.0);
  }

  void keyRAsksForTheScenesResetView() {
    VtkWidget widget;
    QSignalSpy reset(&widget, &VtkWidget::resetViewRequested);
    widget.resize(200, 200);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    QTRY_VERIFY(widget.hasContext());
    QTest::keyClick(widget.renderSurface(), Qt::Key_R);
    QCOMPARE(reset.count(), 1);
    QTest::keyClick(widget.renderSurface(), Qt::Key_Q);  // VTK's "quit": swallowed, nothing happens
    QVERIFY(widget.isVisible());
  }

  void vtkRenderCallsBecomeQtUpdates() {
    VtkWidget widget;
    QSignalSpy swapped(&widget, &VtkWidget::frameSwapped);
    vtkNew<vtkRenderer> renderer;
    widget.renderWindow()->AddRenderer(renderer);
    widget.resize(200, 200);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    QVERIFY(waitForFrames(widget, swapped, 1));
    int rendersTotal = 0;
    vtkNew<CountingCommand> counter;
    counter->count = &rendersTotal;
    renderer->AddObserver(vtkCommand::StartEvent, counter);
    const int before = swapped.count();
    for (int i = 0; i < 50; ++i) widget.renderWindow()->Render();  // as VTK code would
    QCOMPARE(rendersTotal, 0);  // nothing rendered synchronously
    QVERIFY(waitForFrames(widget, swapped, 0));
    QTRY_VERIFY(swapped.count() > before);
    QVERIFY(rendersTotal >= 1);
    QVERIFY(rendersTotal <= 3);  // coalesced: 50 requests, a frame or two
  }

  void hostsAChartWithItsOwnInteractorStyle() {
    VtkWidget widget;
    QSignalSpy swapped(&widget, &VtkWidget::frameSwapped);
    vtkNew<vtkContextView> view;
    view->SetRenderWindow(widget.renderWindow());
    view->SetInteractor(widget.interactor());
    view->GetRenderer()->SetBackground(1.0, 1.0, 1.0);
    vtkNew<vtkChartXY> chart;
    view->GetScene()->AddItem(chart);
    vtkNew<vtkTable> table;
    vtkNew<vtkFloatArray> x;
    x->SetName("t");
    vtkNew<vtkFloatArray> y;
    y->SetName("E");
    table->AddColumn(x);
    table->AddColumn(y);
    table->SetNumberOfRows(100);
    for (int i = 0; i < 100; ++i) {
      table->SetValue(i, 0, i * 0.1);
      table->SetValue(i, 1, std::sin(i * 0.1));
    }
    vtkPlot* line = chart->AddPlot(vtkChart::LINE);
    line->SetInputData(table, 0, 1);
    line->SetColor(200, 40, 40, 255);
    widget.resize(400, 300);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    QVERIFY(waitForFrames(widget, swapped, 1));
    QVERIFY(widget.hasContext());
    const QImage frame = widget.grabFrame();
    frame.save(QStringLiteral(RICOCHET_BINARY_DIR "/render_widget_chart.png"));
    QVERIFY(luminanceSpread(frame) > 1.0);  // axes, labels and a red curve on white
    // The chart's interactor style (installed by the view) receives the wheel: it zooms the axes.
    vtkAxis* axis = chart->GetAxis(vtkAxis::BOTTOM);
    const double range0 = axis->GetMaximum() - axis->GetMinimum();
    sendWheel(widget.renderSurface(), QPoint(200, 150), 120);
    const double range1 = axis->GetMaximum() - axis->GetMinimum();
    QVERIFY2(range1 < range0 * 0.99, qPrintable(QString("%1 -> %2").arg(range0).arg(range1)));
    QVERIFY(waitForFrames(widget, swapped, 1));
  }

  void sceneViewDrawsInTheWidget() {
    // The desktop app's arrangement: a SceneView in the widget's render window. Opaque bodies,
    // the translucent fading floor and an impact mark must all reach the Qt framebuffer.
    VtkWidget widget;
    QSignalSpy swapped(&widget, &VtkWidget::frameSwapped);
    vtkNew<vtkRenderer> renderer;
    widget.renderWindow()->AddRenderer(renderer);
    ricochet::render::SceneView view(renderer);
    ricochet::SceneSpec scene;
    ricochet::BodyPart part;
    part.shape = ricochet::SphereShape{0.3};
    part.color = {0.85f, 0.15f, 0.12f};
    scene.bodies.push_back(ricochet::BodySpec{"ball", {part}});
    scene.obstacles.push_back(ricochet::PlaneObstacle{});
    view.setScene(scene);
    std::vector<ricochet::Pose> poses(1);
    poses[0].position = Eigen::Vector3d(0.0, 0.0, 0.8);
    view.setPoses(poses, 1.0);
    widget.resize(480, 360);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    QVERIFY(waitForFrames(widget, swapped, 1));
    QVERIFY(widget.hasContext());
    const QImage plain = widget.grabFrame().convertToFormat(QImage::Format_RGB32);
    int red = 0, floorish = 0;
    for (int y = 0; y < plain.height(); ++y) {
      for (int x = 0; x < plain.width(); ++x) {
        const QRgb c = plain.pixel(x, y);
        if (qRed(c) > qGreen(c) + 50 && qRed(c) > qBlue(c) + 50) ++red;
        // The floor tint is warm grey (R >= B); the background gradient is blue-grey (R < B).
        if (y > plain.height() / 2 && qRed(c) >= qBlue(c) && qRed(c) < 235) ++floorish;
      }
    }
    QVERIFY2(red > 1000, qPrintable(QString("ball pixels: %1").arg(red)));
    QVERIFY2(floorish > 5000, qPrintable(QString("floor pixels: %1").arg(floorish)));
    view.addImpact(Eigen::Vector3d(0.0, 0.0, 0.3), 1.0);
    view.setPoses(poses, 1.02);
    widget.requestRender();
    QVERIFY(waitForFrames(widget, swapped, 1));
    const QImage marked = widget.grabFrame().convertToFormat(QImage::Format_RGB32);
    marked.save(QStringLiteral(RICOCHET_BINARY_DIR "/render_widget_scene.png"));
    int changed = 0;
    for (int y = 0; y < plain.height(); ++y) {
      for (int x = 0; x < plain.width(); ++x) {
        const QRgb a = plain.pixel(x, y), b = marked.pixel(x, y);
        if (std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) + std::abs(qBlue(a) - qBlue(b)) > 30) ++changed;
      }
    }
    QVERIFY2(changed > 100, qPrintable(QString("impact mark changed %1 pixels").arg(changed)));
  }

  void withoutOpenGLItShowsAMessage() {
    // Child process: the same binary in "no GL" mode under QT_QPA_PLATFORM=offscreen.
    const QString out = runChild({{"QT_QPA_PLATFORM", "offscreen"}, {"RICOCHET_TEST_NO_GL_CHILD", "1"}});
    QVERIFY2(out.contains("NO-GL-OK"), qPrintable(out));
  }

  void tooOldOpenGLShowsTheMessageInTheWidget() {
    const QString out = runChild({{"MESA_GL_VERSION_OVERRIDE", "2.1"},
                                  {"MESA_GLSL_VERSION_OVERRIDE", "120"},
                                  {"RICOCHET_TEST_OLD_GL_CHILD", "1"}});
    QVERIFY2(out.contains("OLD-GL-OK"), qPrintable(out));
  }

 private:
  // Runs this test binary again with `vars` set; returns its output (fails on crash / exit != 0).
  static QString runChild(const QList<QPair<QString, QString>>& vars) {
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto& v : vars) env.insert(v.first, v.second);
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(), {});
    if (!child.waitForFinished(60000)) return QStringLiteral("child timed out");
    const QString out = QString::fromLocal8Bit(child.readAll());
    if (child.exitStatus() != QProcess::NormalExit) return QStringLiteral("child crashed: ") + out;
    return out;
  }
};

// The child side of withoutOpenGLItShowsAMessage, on a platform with no OpenGL at all.
// Qt 6.4 itself crashes composing a window that holds any QOpenGLWidget there (qtbase's
// QOpenGLWidgetPrivate::rhiConfig() forces GL composition, whose QRhi is null), so the contract
// is: openGLAvailable() says no with a reason, the app shows createUnavailableNotice() instead,
// and a VtkWidget created anyway reports the failure and never renders.
static int runNoGlChild(int argc, char** argv) {
  QApplication app(argc, argv);
  QString reason;
  if (VtkWidget::openGLAvailable(&reason) || !reason.contains("OpenGL")) {
    std::printf("FAIL: openGLAvailable() is true or gives no reason ('%s')\n", qPrintable(reason));
    return 1;
  }
  QWidget window;
  QWidget* notice = VtkWidget::createUnavailableNotice(reason, &window);
  notice->setGeometry(0, 0, 320, 240);
  window.resize(320, 240);
  window.show();
  QTest::qWait(100);
  const QImage shot = window.grab().toImage();
  shot.save(QStringLiteral(RICOCHET_BINARY_DIR "/render_widget_nogl.png"));
  if (luminanceSpread(shot) <= 0.5) {
    std::puts("FAIL: the notice painted nothing");
    return 1;
  }
  VtkWidget widget;  // never shown: see above
  QSignalSpy failed(&widget, &VtkWidget::contextFailed);
  vtkNew<vtkRenderer> renderer;
  widget.renderWindow()->AddRenderer(renderer);
  widget.renderWindow()->Render();  // VTK asking for a frame: must not touch GL
  widget.requestRender();
  QTest::qWait(50);
  if (widget.hasContext() || failed.count() != 1 || widget.contextError() != reason ||
      !widget.findChild<QLabel*>()) {
    std::printf("FAIL: hasContext %d, contextFailed x%d, error '%s'\n", int(widget.hasContext()),
                int(failed.count()), qPrintable(widget.contextError()));
    return 1;
  }
  std::printf("NO-GL-OK: %s\n", qPrintable(reason));
  return 0;
}

// The child side of tooOldOpenGLShowsTheMessageInTheWidget: a real X display whose OpenGL is
// capped below 3.2 (Mesa's MESA_GL_VERSION_OVERRIDE). Qt composes the window fine, VtkWidget
// gets a context it cannot use: it must show the message in place of the view.
static int runOldGlChild(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  QString reason;
  const bool available = VtkWidget::openGLAvailable(&reason);
  VtkWidget widget;
  QSignalSpy failed(&widget, &VtkWidget::contextFailed);
  vtkNew<vtkRenderer> renderer;
  widget.renderWindow()->AddRenderer(renderer);
  widget.resize(320, 240);
  widget.show();
  QTest::qWait(300);
  widget.renderWindow()->Render();
  QTest::qWait(100);
  auto* label = widget.findChild<QLabel*>();
  if (available || widget.hasContext() || failed.count() != 1 || !label || !label->isVisible() ||
      !widget.contextError().contains("3.2")) {
    std::printf("FAIL: available %d hasContext %d contextFailed x%d label %d error '%s'\n",
                int(available), int(widget.hasContext()), int(failed.count()), label != nullptr,
                qPrintable(widget.contextError()));
    return 1;
  }
  const QImage shot = label->grab().toImage();
  shot.save(QStringLiteral(RICOCHET_BINARY_DIR "/render_widget_oldgl.png"));
  if (luminanceSpread(shot) <= 0.5) {
    std::puts("FAIL: the message painted nothing");
    return 1;
  }
  std::printf("OLD-GL-OK: %s\n", qPrintable(widget.contextError()));
  return 0;
}

// The child side of deviceInfoFollowsThePixelRatio: QT_SCALE_FACTOR=2 gives the view a device
// pixel ratio of 2. VTK must render at twice the logical size and get mouse positions in device
// pixels, measured from the bottom edge (VTK's y runs up).
static int runDprChild(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  VtkWidget widget;
  QSignalSpy swapped(&widget, &VtkWidget::frameSwapped);
  addSphereScene(widget);
  widget.resize(200, 150);
  widget.show();
  if (!QTest::qWaitForWindowExposed(&widget) || !waitForFrames(widget, swapped, 1)) {
    std::puts("FAIL: no frame");
    return 1;
  }
  const double dpr = widget.renderSurface()->devicePixelRatio();
  const QImage frame = widget.grabFrame();
  QTest::mouseMove(widget.renderSurface(), QPoint(50, 20));
  int pos[2];
  widget.interactor()->GetEventPosition(pos);
  const int* size = widget.renderWindow()->GetSize();
  if (dpr != 2.0 || frame.size() != QSize(400, 300) || size[0] != 400 || size[1] != 300 ||
      pos[0] != 100 || pos[1] != 300 - 40 - 1 || !isOrange(frame.pixelColor(200, 150))) {
    std::printf("FAIL: dpr %g frame %dx%d window %dx%d event (%d, %d)\n", dpr, frame.width(),
                frame.height(), size[0], size[1], pos[0], pos[1]);
    return 1;
  }
  std::printf("DPR-OK: frame %dx%d, event (%d, %d)\n", frame.width(), frame.height(), pos[0], pos[1]);
  return 0;
}

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsSet("RICOCHET_TEST_DPR_CHILD")) return runDprChild(argc, argv);
  if (qEnvironmentVariableIsSet("RICOCHET_TEST_NO_GL_CHILD")) return runNoGlChild(argc, argv);
  if (qEnvironmentVariableIsSet("RICOCHET_TEST_OLD_GL_CHILD")) return runOldGlChild(argc, argv);
  QSurfaceFormat::setDefaultFormat(VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  TestRenderWidget tc;
  return QTest::qExec(&tc, argc, argv);
}

#include "test_render_widget.moc"
