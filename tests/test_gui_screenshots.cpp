// Screenshots of the main window for every registered system: saved as PNG
// into the build tree (<build>/screenshots/<id>.png, and the 3-D view and plots alone), with the
// 3-D view checked to be non-blank (grey-level variance) and the plots checked to hold data.
//
// Run by hand: xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/test_gui_screenshots

#include "test_gui_support.hpp"

#include "app/desktop/plots/plot_canvas.hpp"

#include <QDir>

#include <algorithm>

using namespace guitest;
using ricochet::app::PlotPanel;

class TestGuiScreenshots : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (ricochet::systems().empty()) QSKIP("no system registered yet");
    QVERIFY(QDir().mkpath(outDir()));
  }

  void screenshotOfEverySystem_data() {
    QTest::addColumn<QString>("id");
    for (const auto* s : ricochet::systems()) {
      QTest::newRow(s->info().id.c_str()) << QString::fromStdString(s->info().id);
    }
  }

  void screenshotOfEverySystem() {
    QFETCH(QString, id);
    ricochet::app::MainWindowOptions o;
    o.systemId = id;
    o.restoreSettings = false;
    MainWindow w(o);
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // Run 1.5 s of simulated time at 1x so the body has moved, trails and plots have content.
    QVERIFY(waitForTimeBeyond(w, 1.5, 20000));
    w.playAction()->trigger();  // pause, so the three grabs show the same state
    QVERIFY(waitFor([&] { return !w.lastSnapshot()->running; }));
    QTest::qWait(100);

    const QImage window = w.grab().toImage();
    const QImage scene = w.sceneWidget()->grabFramebuffer();
    const QImage plots = w.plots()->view()->grabFrame();
    QVERIFY(window.save(outDir() + "/" + id + ".png"));
    QVERIFY(scene.save(outDir() + "/" + id + "-scene.png"));
    QVERIFY(plots.save(outDir() + "/" + id + "-plots.png"));

    // The 3-D view is not blank: a uniform (or gradient-only) image has a grey-level variance
    // well below 20 (the background gradient spans ~15 grey levels: variance ~20); bodies,
    // floor grid and shading give several hundred.
    const double sceneVar = greyVariance(scene);
    qInfo("%s: 3-D view %dx%d grey variance %.1f, plots variance %.1f", qPrintable(id),
          scene.width(), scene.height(), sceneVar, greyVariance(plots));
    QVERIFY2(sceneVar > 50.0, qPrintable(QStringLiteral("variance %1").arg(sceneVar)));
    QVERIFY(greyVariance(plots) > 50.0);
    // The plots hold data: energies over [0, t] with one point per sample at this run length.
    const auto times = w.plots()->plottedTimes(PlotPanel::Energy);
    QVERIFY(times.size() >= 10);
    QCOMPARE(times.front(), 0.0);
    QVERIFY(times.back() >= 1.5);
    for (const QString& name : w.plots()->seriesNames(PlotPanel::Energy)) {
      const auto v = w.plots()->plottedValues(PlotPanel::Energy, name);
      QCOMPARE(v.size(), times.size());
      for (double x : v) QVERIFY(std::isfinite(x));
    }
  }

  // A long run at max speed: the plots stay decimated (at most two points per plot column) and
  // impacts are still marked; the screenshot shows what a user sees after minutes of running.
  void longRunPlots() {
    ricochet::app::MainWindowOptions o;
    o.restoreSettings = false;
    o.systemId = QStringLiteral("particle-floor");
    if (!ricochet::findSystem(o.systemId.toStdString())) o.systemId.clear();
    MainWindow w(o);
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.stopAtEndAction()->setChecked(false);  // minutes of running: far past t_end
    w.speedCombo()->setCurrentIndex(w.speedCombo()->findText(QStringLiteral("max")));
    QVERIFY(waitFor([&] { return w.lastSnapshot() && w.lastSnapshot()->step >= 1'000'000; },
                    60000));
    w.playAction()->trigger();
    QVERIFY(waitFor([&] { return !w.lastSnapshot()->running; }));
    QTest::qWait(100);
    QVERIFY(w.grab().toImage().save(outDir() + "/long-run.png"));
    const auto snap = w.lastSnapshot();
    const auto times = w.plots()->plottedTimes(PlotPanel::Energy);
    qInfo("%lld steps, %lld impacts -> %zu plotted points per series, %d impact marks",
          (long long)snap->step, (long long)snap->impacts, times.size(),
          w.plots()->markerCount(PlotPanel::Energy));
    QVERIFY(times.size() <= 2u * std::size_t(w.plots()->plotColumns()));
    QVERIFY(times.size() >= std::size_t(w.plots()->plotColumns()));  // the whole width is used
    QVERIFY(std::is_sorted(times.begin(), times.end()));
    QCOMPARE(times.back(), snap->t);
    if (snap->impacts > 0) QVERIFY(w.plots()->markerCount(PlotPanel::Energy) > 0);
  }

 private:
  static QString outDir() { return QStringLiteral(RICOCHET_BINARY_DIR "/screenshots"); }
};

int main(int argc, char** argv) {
  return guitest::runSuite<TestGuiScreenshots>(argc, argv, "test_gui_screenshots");
}
#include "test_gui_screenshots.moc"
