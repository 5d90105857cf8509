// Replay and overlay of HDF5 runs in the window (File > Open Run..., File > Overlay Run...), driven
// through the real menu, dialog, slider and views: two runs of ellipse-floor written by
// `ricochet-cli run --h5` (the variational integrator at h = 0.01 and rk4-event at h = 0.005).
// The first replays: every snapshot's time, step, impacts, energy and poses are the file's row,
// the status bar shows them, the energy plot draws only the file's values (its extremes
// included), the body is drawn at the file's pose, nothing integrates; the slider seeks to a row;
// the second overlays it as a ghost at its own recorded pose and as dashed curves spanning its
// trace; bad files and another system's run are refused with one message while the run goes on.
//
// Run by hand: xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/test_gui_replay

#include "test_gui_export_support.hpp"

#include "app/desktop/plots/overlay_curves.hpp"
#include "app/desktop/plots/plot_canvas.hpp"
#include "app/desktop/replay/replay_actions.hpp"
#include "app/desktop/replay/replay_bar.hpp"
#include "app/desktop/widgets/status_message.hpp"
#include "io/hdf5/h5_support.hpp"
#include "io/hdf5/run_file_reader.hpp"
#include "render/scene/scene_view.hpp"

#include <hdf5.h>

#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QSlider>
#include <QTemporaryDir>
#include <QToolButton>

#include <algorithm>
#include <bit>
#include <set>

using namespace exporttest;
using namespace guitest;
using ricochet::Pose;
using ricochet::app::PlotChart;
using ricochet::app::PlotPanel;
using ricochet::app::PlotSeries;
using ricochet::app::ReplayActions;
using ricochet::hdf5::RunFile;

namespace {

std::uint64_t bits(double x) {
  return std::bit_cast<std::uint64_t>(x);
}

bool samePose(const Pose& a, const Pose& b) {
  for (int i = 0; i < 3; ++i) {
    if (bits(a.position[i]) != bits(b.position[i])) return false;
    for (int j = 0; j < 3; ++j) {
      if (bits(a.rotation(i, j)) != bits(b.rotation(i, j))) return false;
    }
  }
  return true;
}

// The drawn pose (read back from a VTK matrix, through the part's offset) is the pose up to the
// round-off of that product.
bool nearPose(const Pose& a, const Pose& b) {
  return (a.position - b.position).norm() < 1e-12 && (a.rotation - b.rotation).norm() < 1e-12;
}

// ricochet-cli with `args`: empty on success, else what went wrong.
QString cliError(const QStringList& args) {
  const Result r = cli(args);
  return r.exitCode == 0 ? QString() : QStringLiteral("ricochet-cli %1: %2").arg(args.join(' '), r.err);
}

RunFile readRun(const QString& path) {
  auto r = ricochet::hdf5::readRunFile(path.toStdString());
  return r.ok() ? std::move(*r.run) : RunFile{};
}

// The row of `run` at time `t` exactly (-1 when no row has that time).
long rowOf(const RunFile& run, double t) {
  const std::vector<double>& ts = *run.trace.column("t");
  for (std::size_t r = 0; r < ts.size(); ++r) {
    if (bits(ts[r]) == bits(t)) return long(r);
  }
  return -1;
}

// The last row of `run` at or before `t`.
std::size_t rowAtOrBefore(const RunFile& run, double t) {
  const std::vector<double>& ts = *run.trace.column("t");
  const auto it = std::upper_bound(ts.begin(), ts.end(), t);
  return it == ts.begin() ? 0 : std::size_t(it - ts.begin()) - 1;
}

const PlotSeries* seriesNamed(const PlotChart& chart, const QString& name) {
  for (const PlotSeries& s : chart.series) {
    if (!s.segments && s.name == name) return &s;
  }
  return nullptr;
}

// The snapshot on screen equals row `row` of `run` bit for bit: time, step, impacts, energy,
// poses; the status bar shows its step and impacts.
QString snapshotMatches(const MainWindow& w, const RunFile& run, std::size_t row) {
  const auto s = w.lastSnapshot();
  const auto col = [&](const char* name) { return (*run.trace.column(name))[row]; };
  if (bits(s->t) != bits(col("t"))) return QStringLiteral("t %1 != %2").arg(s->t).arg(col("t"));
  if (double(s->step) != col("step")) return QStringLiteral("step %1").arg(s->step);
  if (double(s->impacts) != col("impacts")) return QStringLiteral("impacts %1").arg(s->impacts);
  if (bits(s->energy.total()) != bits(col("energy"))) return QStringLiteral("energy");
  if (bits(s->energy.kinetic) != bits(col("kinetic"))) return QStringLiteral("kinetic");
  if (s->poses.size() != 1 || !samePose(s->poses[0], run.poses[row])) return QStringLiteral("pose");
  if (shownCount(w, "impacts") != (long long)col("impacts"))
    return QStringLiteral("status impacts");
  if (shownCount(w, "steps") != (long long)col("step")) return QStringLiteral("status steps");
  if (std::abs(shownTime(w) - s->t) > 1e-3) return QStringLiteral("status time");
  return {};
}

// The energy plot of a replay draws only the file's values up to the shown row, its extremes
// among them, ending at the shown row; the error plot only the file's energy_rel_error values.
QString energyPlotMatches(const MainWindow& w, const RunFile& run, std::size_t row) {
  const std::vector<double>& e = *run.trace.column("energy");
  const std::vector<double>& t = *run.trace.column("t");
  const std::vector<double> y =
      w.plots()->plottedValues(PlotPanel::Energy, QStringLiteral("total"));
  const std::vector<double> ts = w.plots()->plottedTimes(PlotPanel::Energy);
  if (y.empty() || ts.size() != y.size()) return QStringLiteral("no energy curve");
  std::set<std::uint64_t> values, times;
  for (std::size_t r = 0; r <= row; ++r) {
    values.insert(bits(e[r]));
    times.insert(bits(t[r]));
  }
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!values.count(bits(y[i])))
      return QStringLiteral("plotted energy %1 is no row's").arg(y[i], 0, 'g', 17);
    if (!times.count(bits(ts[i])))
      return QStringLiteral("plotted time %1 is no row's").arg(ts[i], 0, 'g', 17);
  }
  const auto [lo, hi] = std::minmax_element(e.begin(), e.begin() + long(row) + 1);
  if (bits(*std::min_element(y.begin(), y.end())) != bits(*lo) ||
      bits(*std::max_element(y.begin(), y.end())) != bits(*hi)) {
    return QStringLiteral("the curve's extremes are not the file's");
  }
  if (bits(ts.back()) != bits(t[row]) || bits(ts.front()) != bits(t[0]))
    return QStringLiteral("ends");
  // The energy error is the file's energy_rel_error column, bit for bit.
  std::set<std::uint64_t> errors;
  const std::vector<double>& rel = *run.trace.column("energy_rel_error");
  for (std::size_t r = 0; r <= row; ++r) errors.insert(bits(rel[r]));
  const std::vector<double> err =
      w.plots()->plottedValues(PlotPanel::Error, QStringLiteral("energy error"));
  if (err.empty()) return QStringLiteral("no error curve");
  for (double v : err) {
    if (!errors.count(bits(v))) {
      return QStringLiteral("plotted error %1 is no row's").arg(v, 0, 'g', 17);
    }
  }
  return {};
}

}  // namespace

class TestGuiReplay : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString a_, b_, other_;
  RunFile runA_, runB_;

 private slots:
  void initTestCase() {
    a_ = dir_.filePath(QStringLiteral("variational.h5"));
    b_ = dir_.filePath(QStringLiteral("rk4.h5"));
    other_ = dir_.filePath(QStringLiteral("particle.h5"));
    const QString t = QStringLiteral("--t-end"), h5 = QStringLiteral("--h5");
    QString e = cliError(
        {QStringLiteral("run"), QStringLiteral("ellipse-floor"), t, QStringLiteral("4"), h5, a_});
    QVERIFY2(e.isEmpty(), qPrintable(e));
    e = cliError({QStringLiteral("run"), QStringLiteral("ellipse-floor"), t, QStringLiteral("4"),
                  QStringLiteral("--integrator"), QStringLiteral("rk4-event"),
                  QStringLiteral("--h"), QStringLiteral("0.005"), QStringLiteral("--every"),
                  QStringLiteral("2"), h5, b_});
    QVERIFY2(e.isEmpty(), qPrintable(e));
    e = cliError({QStringLiteral("run"), QStringLiteral("particle-floor"), t, QStringLiteral("1"),
                  h5, other_});
    QVERIFY2(e.isEmpty(), qPrintable(e));
    runA_ = readRun(a_);
    runB_ = readRun(b_);
    QVERIFY(runA_.hasPoses() && runB_.hasPoses());
    QCOMPARE(runA_.trace.rows(), std::size_t(401));
    QCOMPARE(runB_.trace.rows(), std::size_t(401));
  }

  void openPlayScrubOverlay() {
    auto w = openWindow(freshOptions(QStringLiteral("ellipse-floor"), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    ReplayActions* replay = w->replay();

    // File > Open Run...: the real dialog, filtered to run files.
    QVERIFY(replay->openRunAction()->isEnabled());
    replay->openRunAction()->trigger();
    QFileDialog* dialog = nullptr;
    QVERIFY(waitFor([&] {
      dialog = w->findChild<QFileDialog*>(QStringLiteral("openRunDialog"));
      return dialog && dialog->isVisible();
    }));
    QVERIFY(dialog->nameFilters().contains(QStringLiteral("Ricochet runs (*.h5)")));
    dialog->selectFile(a_);
    static_cast<QDialog*>(dialog)->accept();  // OK, as the user's click
    QVERIFY(
        waitFor([&] { return w->currentRun() && w->currentRun()->replay() && w->lastSnapshot(); }));
    const auto run = w->currentRun();
    QCOMPARE(run->recordingLabel, QStringLiteral("variational.h5"));
    QVERIFY2(w->windowTitle().startsWith(QStringLiteral("Replay of variational.h5")),
             qPrintable(w->windowTitle()));
    QVERIFY(!w->editor()->isEnabled());  // read-only while replaying
    QVERIFY(replay->bar()->isVisible());
    QCOMPARE(replay->bar()->slider()->maximum(), 400);
    QString why = snapshotMatches(*w, runA_, 0);
    QVERIFY2(why.isEmpty(), qPrintable(why));

    // Play at 1x: every snapshot on screen is a row of the file, bit for bit.
    int checked = 0;
    QString failure;
    auto conn = connect(w.get(), &MainWindow::snapshotShown, this, [&] {
      const long row = rowOf(runA_, w->lastSnapshot()->t);
      const QString e = row < 0 ? QStringLiteral("t = %1 is no row's").arg(w->lastSnapshot()->t)
                                : snapshotMatches(*w, runA_, std::size_t(row));
      if (!e.isEmpty() && failure.isEmpty()) failure = e;
      ++checked;
    });
    w->playAction()->trigger();
    QVERIFY(waitForTimeBeyond(*w, 1.2, 15000));
    w->playAction()->trigger();  // pause
    QVERIFY(waitFor([&] { return !w->lastSnapshot()->running; }));
    disconnect(conn);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY(checked > 10);
    long row = rowOf(runA_, w->lastSnapshot()->t);
    QVERIFY(row > 100);
    why = energyPlotMatches(*w, runA_, std::size_t(row));
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const auto drawn = w->sceneView()->bodyPose(0);
    QVERIFY(drawn && nearPose(*drawn, runA_.poses[std::size_t(row)]));
    QCOMPARE(replay->bar()->slider()->value(), int(row));

    // Scrub: the slider seeks to row 250 (t = 2.5 s), paused, with the plots up to it.
    replay->bar()->slider()->setValue(250);
    QVERIFY(waitFor([&] { return rowOf(runA_, w->lastSnapshot()->t) == 250; }));
    why = snapshotMatches(*w, runA_, 250);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY(!w->lastSnapshot()->running);
    why = energyPlotMatches(*w, runA_, 250);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY(nearPose(*w->sceneView()->bodyPose(0), runA_.poses[250]));
    QVERIFY(replay->bar()->timeLabel()->text().startsWith(QStringLiteral("t = 2.5000 s")));
    // Back to an earlier row as well.
    replay->bar()->slider()->setValue(40);
    QVERIFY(waitFor([&] { return rowOf(runA_, w->lastSnapshot()->t) == 40; }));
    why = energyPlotMatches(*w, runA_, 40);
    QVERIFY2(why.isEmpty(), qPrintable(why));

    // Overlay the rk4 run: the ghost at its pose at (or before) the shown time.
    QSignalSpy overlaid(replay, &ReplayActions::overlayChanged);
    replay->overlayRun(b_);
    QVERIFY(overlaid.wait(10000));
    QVERIFY(replay->overlay());
    QVERIFY(replay->removeOverlayAction()->isEnabled());
    QVERIFY(w->sceneView()->hasGhost());
    std::size_t ghostRow = rowAtOrBefore(runB_, w->lastSnapshot()->t);
    QCOMPARE(replay->ghostRow(), std::optional<std::size_t>(ghostRow));
    QVERIFY(nearPose(*w->sceneView()->ghostPose(0), runB_.poses[ghostRow]));
    // To the end: the ghost follows, the dashed curve spans the whole second trace.
    replay->bar()->slider()->setValue(400);
    QVERIFY(waitFor([&] { return rowOf(runA_, w->lastSnapshot()->t) == 400; }));
    ghostRow = rowAtOrBefore(runB_, w->lastSnapshot()->t);
    QCOMPARE(ghostRow, std::size_t(400));
    QVERIFY(nearPose(*w->sceneView()->ghostPose(0), runB_.poses[400]));
    QVERIFY(!nearPose(runA_.poses[400], runB_.poses[400]));  // two integrators: two places
    const PlotChart energy = w->plots()->chartData(PlotPanel::Energy);
    const PlotSeries* dashed = seriesNamed(energy, QStringLiteral("total (overlay)"));
    QVERIFY(dashed);
    QVERIFY(dashed->pen.dashed);
    // One legend entry says what the dashed curves are (each in its quantity's colour), so the
    // legends keep to their rows: every plot area keeps most of its band.
    QCOMPARE(dashed->legendName, QStringLiteral("dashed: overlay (rk4-event, h = 0.005)"));
    for (const PlotSeries& s : energy.series) {
      if (&s != dashed && s.name.endsWith(QStringLiteral(" (overlay)"))) QVERIFY(!s.inLegend);
    }
    QTest::qWait(100);
    for (const auto& c : w->plots()->view()->figureLayout().charts) {
      QVERIFY2(c.area.top() - c.band.top() <= 0.25 * c.band.height(),
               qPrintable(QString::number(c.area.top())));
    }
    const std::vector<double>& eB = *runB_.trace.column("energy");
    const std::vector<double>& tB = *runB_.trace.column("t");
    QCOMPARE(bits(dashed->t.front()), bits(tB.front()));
    QCOMPARE(bits(dashed->t.back()), bits(tB.back()));
    QCOMPARE(bits(*std::min_element(dashed->y.begin(), dashed->y.end())),
             bits(*std::min_element(eB.begin(), eB.end())));
    QCOMPARE(bits(*std::max_element(dashed->y.begin(), dashed->y.end())),
             bits(*std::max_element(eB.begin(), eB.end())));
    const std::set<std::uint64_t> rowsB = [&] {
      std::set<std::uint64_t> s;
      for (double v : eB) s.insert(bits(v));
      return s;
    }();
    for (double v : dashed->y) QVERIFY(rowsB.count(bits(v)));
    // The error panel has its dashed curve too (from the file's energy_rel_error).
    QVERIFY(seriesNamed(w->plots()->chartData(PlotPanel::Error),
                        QStringLiteral("energy error (overlay)")));

    // What it looks like (<build>/screenshots/replay-overlay*.png), and the ghost is drawn: the
    // 3-D view differs from the same frame without it.
    const QString out = QStringLiteral(RICOCHET_BINARY_DIR "/screenshots");
    QDir().mkpath(out);
    QTest::qWait(200);
    const QImage withGhost = w->sceneWidget()->grabFramebuffer();
    QVERIFY(w->grab().toImage().save(out + QStringLiteral("/replay-overlay.png")));
    QVERIFY(withGhost.save(out + QStringLiteral("/replay-overlay-scene.png")));
    QVERIFY(w->plots()->view()->grabFrame().save(out + QStringLiteral("/replay-overlay-plots.png")));

    // Remove Overlay: no ghost, no dashed curve.
    replay->removeOverlayAction()->trigger();
    QTest::qWait(200);
    const QImage without = w->sceneWidget()->grabFramebuffer();
    QCOMPARE(without.size(), withGhost.size());
    int changed = 0;
    for (int y = 0; y < without.height(); ++y) {
      for (int x = 0; x < without.width(); ++x) changed += without.pixel(x, y) != withGhost.pixel(x, y);
    }
    QVERIFY2(changed > 500, qPrintable(QString::number(changed)));
    QVERIFY(!w->sceneView()->hasGhost());
    QVERIFY(
        !seriesNamed(w->plots()->chartData(PlotPanel::Energy), QStringLiteral("total (overlay)")));
    QVERIFY(!replay->removeOverlayAction()->isEnabled());

    // Run Live: the file's scenario integrates, the editor edits again, the bar goes.
    replay->bar()->liveButton()->click();
    QVERIFY(waitFor([&] { return w->currentRun() && !w->currentRun()->replay(); }));
    QVERIFY(w->editor()->isEnabled());
    QVERIFY(!replay->bar()->isVisible());
  }

  // An overlay over a live run, and the refusals: another system, not HDF5, truncated. Each gets
  // one box and the status bar, and the live run goes on.
  void overlayOnALiveRunAndRefusals() {
    auto w = openWindow(freshOptions(QStringLiteral("ellipse-floor"), true));
    QVERIFY(waitForTimeBeyond(*w, 0.2));
    ReplayActions* replay = w->replay();
    QSignalSpy overlaid(replay, &ReplayActions::overlayChanged);
    replay->overlayRun(b_);
    QVERIFY(overlaid.wait(10000));
    QVERIFY(waitForTimeBeyond(*w, w->lastSnapshot()->t + 0.2));
    const std::size_t ghostRow = rowAtOrBefore(runB_, w->lastSnapshot()->t);
    QCOMPARE(replay->ghostRow(), std::optional<std::size_t>(ghostRow));
    QVERIFY(nearPose(*w->sceneView()->ghostPose(0), runB_.poses[ghostRow]));
    const PlotSeries* dashed =
        seriesNamed(w->plots()->chartData(PlotPanel::Energy), QStringLiteral("total (overlay)"));
    QVERIFY(dashed && !dashed->t.empty());
    QVERIFY(dashed->t.back() <= w->lastSnapshot()->t);  // up to the live run's time

    const QString bad = dir_.filePath(QStringLiteral("notes.h5"));
    QVERIFY(writeFile(bad, "not a run\n"));
    const QString truncated = dir_.filePath(QStringLiteral("half.h5"));
    const QByteArray whole = readAll(a_);
    QVERIFY(writeFile(truncated, whole.left(whole.size() / 2)));
    // Poses of two bodies for the one-body ellipse: read, then refused by the worker.
    const QString twoBodies = dir_.filePath(QStringLiteral("two-bodies.h5"));
    QVERIFY(QFile::copy(a_, twoBodies));
    {
      const hid_t f = H5Fopen(twoBodies.toLocal8Bit().constData(), H5F_ACC_RDWR, H5P_DEFAULT);
      QVERIFY(f >= 0);
      QVERIFY(H5Ocopy(f, "poses/0", f, "poses/1", H5P_DEFAULT, H5P_DEFAULT) >= 0);
      const hid_t poses = H5Gopen2(f, "poses", H5P_DEFAULT);
      QVERIFY(ricochet::hdf5::detail::writeStrings(poses, "bodies", {"ellipse", "copy"}));
      H5Gclose(poses);
      H5Fclose(f);
    }
    struct Case {
      QString path;
      bool overlay;
      QString expected;
    };
    const std::vector<Case> cases = {
        {other_, true,
         QStringLiteral(
             "particle.h5 is a run of 'particle-floor', the window shows 'ellipse-floor'")},
        {bad, false, bad + QStringLiteral(": not an HDF5 file")},
        {truncated, false, truncated + QStringLiteral(": ")},
        {twoBodies, false,
         QStringLiteral("two-bodies.h5: poses of 2 bodies recorded, the scene of 'ellipse-floor' "
                        "has 1")},
    };
    for (const Case& c : cases) {
      const auto generation = w->currentRun()->generation;
      QSignalSpy refused(replay, &ReplayActions::refused);
      if (c.overlay) {
        replay->overlayRun(c.path);
      } else {
        replay->openRun(c.path);
      }
      QVERIFY(refused.wait(10000));
      int boxes = 0;
      const QString text = waitForBoxText(*w, &boxes);
      QCOMPARE(boxes, 1);
      QVERIFY2(text.contains(c.expected), qPrintable(text));
      QVERIFY2(w->statusMessage()->text().contains(c.expected),
               qPrintable(w->statusMessage()->text()));
      closeBoxes(*w);
      QCOMPARE(w->currentRun()->generation, generation);  // the run goes on
      QVERIFY(!w->currentRun()->replay());
      QVERIFY(waitForTimeBeyond(*w, w->lastSnapshot()->t + 0.1));
    }
    QCOMPARE(replay->overlay()->system, std::string("ellipse-floor"));  // the overlay stays
  }

  // A file written before poses were recorded: its plots replay, the 3-D view shows no bodies
  // and the status bar says why.
  void poselessFileReplaysItsPlots() {
    const QString old = dir_.filePath(QStringLiteral("old.h5"));
    QVERIFY(QFile::copy(a_, old));
    const hid_t f = H5Fopen(old.toLocal8Bit().constData(), H5F_ACC_RDWR, H5P_DEFAULT);
    QVERIFY(f >= 0);
    H5Ldelete(f, "poses", H5P_DEFAULT);
    H5Ldelete(f, "impact_points", H5P_DEFAULT);
    H5Fclose(f);
    auto w = openWindow(freshOptions(QStringLiteral("ellipse-floor"), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    w->replay()->openRun(old);
    QVERIFY(waitFor([&] { return w->currentRun()->replay() && w->lastSnapshot(); }));
    QVERIFY(!w->currentRun()->recordingHasPoses);
    QVERIFY(w->currentRun()->scene.bodies.empty());
    QVERIFY(!w->sceneView()->bodyPose(0));
    QVERIFY2(w->statusMessage()->text().contains(QStringLiteral("no recorded poses")),
             qPrintable(w->statusMessage()->text()));
    w->replay()->bar()->slider()->setValue(300);
    QVERIFY(waitFor([&] { return rowOf(runA_, w->lastSnapshot()->t) == 300; }));
    const QString why = energyPlotMatches(*w, runA_, 300);
    QVERIFY2(why.isEmpty(), qPrintable(why));
  }
};

int main(int argc, char** argv) {
  return guitest::runSuite<TestGuiReplay>(argc, argv, "test_gui_replay");
}

#include "test_gui_replay.moc"
