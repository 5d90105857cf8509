// FramePacer, the desktop window's frame pacing, alone: with a fake clock and frames reported by
// hand, the order of its decisions ("scene": a 3-D frame is requested, "plots N": the plots show
// snapshot N, "ack": the worker may send the next snapshot) for sequences of snapshots; the
// fallbacks when an acknowledgement or a plot frame never comes; paused and stepped states.
//
// Needs no display (the pacer holds no widget): QCoreApplication only.

#include "app/desktop/run/frame_pacer.hpp"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include <utility>

using ricochet::app::FramePacer;
using ricochet::app::Snapshot;
using ricochet::app::SnapshotPtr;

namespace {

SnapshotPtr snapshot(std::int64_t step, bool running = true) {
  auto s = std::make_shared<Snapshot>();
  s->step = step;
  s->running = running;
  return s;
}

// A pacer with a clock the test moves, views whose frames come (or not) as the test says, and a
// log of its decisions.
struct Rig {
  qint64 now = 0;
  bool sceneComes = true;
  bool plotsComes = true;
  QStringList log;
  FramePacer pacer{nullptr, [this] { return now; }};

  Rig() {
    pacer.setSceneFrameComes([this] { return sceneComes; });
    pacer.setPlotFrameComes([this] { return plotsComes; });
    QObject::connect(&pacer, &FramePacer::drawScene, [this] { log << QStringLiteral("scene"); });
    QObject::connect(&pacer, &FramePacer::drawPlots, [this](const SnapshotPtr& s) {
      log << QStringLiteral("plots %1").arg(s->step);
    });
    QObject::connect(&pacer, &FramePacer::acknowledge, [this] { log << QStringLiteral("ack"); });
    pacer.runStarted();
  }
  // The decisions since the last call.
  QStringList take() { return std::exchange(log, {}); }
};

const QStringList kNothing;
const QStringList kScene{QStringLiteral("scene")};
const QStringList kAck{QStringLiteral("ack")};

}  // namespace

class TestFramePacer : public QObject {
  Q_OBJECT
 private slots:
  // Running at 1x (a snapshot every ~16.7 ms): the first snapshot of a run is plotted at once and
  // its 3-D frame waits for that plot frame; then every snapshot gets a 3-D frame, acknowledged
  // when it starts, and every third one (>= 46 ms after the last plot) is plotted after its 3-D
  // frame has been swapped, the next 3-D frame waiting for that plot frame.
  void runningSnapshotsTakeTurns() {
    Rig r;
    r.pacer.snapshotArrived(snapshot(1));
    QCOMPARE(r.take(), QStringList{QStringLiteral("plots 1")});
    QVERIFY(r.pacer.sceneFrameHeld() && r.pacer.acknowledgementPending());
    r.pacer.plotFrameSwapped();
    QCOMPARE(r.take(), kScene);
    r.pacer.sceneFrameStarted();
    QCOMPARE(r.take(), kAck);
    r.pacer.sceneFrameSwapped();
    QCOMPARE(r.take(), kNothing);

    r.now = 17;  // 17 + 4 < 50: no plots
    r.pacer.snapshotArrived(snapshot(2));
    QCOMPARE(r.take(), kScene);
    r.pacer.sceneFrameStarted();
    r.pacer.sceneFrameSwapped();
    QCOMPARE(r.take(), kAck);

    r.now = 45;  // 45 + 4 < 50: still not
    r.pacer.snapshotArrived(snapshot(3));
    r.pacer.sceneFrameStarted();
    r.pacer.sceneFrameSwapped();
    QCOMPARE(r.take(), (QStringList{"scene", "ack"}));

    r.now = 46;  // 46 + 4 >= 50: plotted, after its 3-D frame
    r.pacer.snapshotArrived(snapshot(4));
    QCOMPARE(r.take(), kScene);
    QCOMPARE(r.pacer.plotsWaiting()->step, 4);
    r.pacer.sceneFrameStarted();
    QCOMPARE(r.take(), kAck);
    r.pacer.sceneFrameSwapped();
    QCOMPARE(r.take(), QStringList{QStringLiteral("plots 4")});
    QVERIFY(r.pacer.plotFrameDue());

    // The next snapshot comes before the plot frame: its 3-D frame waits for it.
    r.now = 63;
    r.pacer.snapshotArrived(snapshot(5));
    QCOMPARE(r.take(), kNothing);
    QVERIFY(r.pacer.sceneFrameHeld());
    r.pacer.plotFrameSwapped();
    QCOMPARE(r.take(), kScene);
    r.pacer.sceneFrameStarted();
    QCOMPARE(r.take(), kAck);

    // The period counts from the last plot (46 ms): at 92 ms it is due again.
    r.now = 91;
    r.pacer.snapshotArrived(snapshot(6));
    r.pacer.sceneFrameStarted();
    r.pacer.sceneFrameSwapped();
    QCOMPARE(r.take(), (QStringList{"scene", "ack"}));
    r.now = 92;
    r.pacer.snapshotArrived(snapshot(7));
    r.pacer.sceneFrameStarted();
    r.pacer.sceneFrameSwapped();
    QCOMPARE(r.take(), (QStringList{"scene", "ack", "plots 7"}));
  }

  // One acknowledgement per snapshot, however many 3-D frames start (a resize, a camera drag).
  void oneAcknowledgementPerSnapshot() {
    Rig r;
    r.plotsComes = false;
    r.pacer.snapshotArrived(snapshot(1));
    r.pacer.sceneFrameStarted();
    r.pacer.sceneFrameStarted();
    QCOMPARE(r.take(), (QStringList{"plots 1", "scene", "ack"}));
    QVERIFY(!r.pacer.acknowledgementPending());
  }

  // Paused or stepped: every state is plotted at once, whatever the period, and its 3-D frame
  // follows the plot frame.
  void pausedAndSteppedStatesArePlottedAtOnce() {
    Rig r;
    r.pacer.snapshotArrived(snapshot(10));
    r.pacer.plotFrameSwapped();
    r.pacer.sceneFrameStarted();
    r.take();
    for (std::int64_t step : {11, 12, 13}) {  // S pressed three times, 5 ms apart
      r.now += 5;
      r.pacer.snapshotArrived(snapshot(step, false));
      QCOMPARE(r.take(), QStringList{QStringLiteral("plots %1").arg(step)});
      QVERIFY(r.pacer.sceneFrameHeld());
      r.pacer.plotFrameSwapped();
      QCOMPARE(r.take(), kScene);
      r.pacer.sceneFrameStarted();
      QCOMPARE(r.take(), kAck);
    }
    // A paused state drops plots that waited for a running snapshot's 3-D frame.
    r.now += 100;
    r.pacer.snapshotArrived(snapshot(14));
    QCOMPARE(r.pacer.plotsWaiting()->step, 14);
    r.pacer.snapshotArrived(snapshot(15, false));
    QVERIFY(!r.pacer.plotsWaiting());
    r.pacer.plotFrameSwapped();
    r.pacer.sceneFrameStarted();
    r.pacer.sceneFrameSwapped();
    QCOMPARE(r.take(), (QStringList{"scene", "plots 15", "scene", "ack"}));
  }

  // Plots whose frame will not come (their dock is hidden): nothing waits for them.
  void hiddenPlotsHoldNothing() {
    Rig r;
    r.plotsComes = false;
    r.pacer.snapshotArrived(snapshot(1, false));
    QCOMPARE(r.take(), (QStringList{"plots 1", "scene"}));
    QVERIFY(!r.pacer.sceneFrameHeld());
  }

  // No 3-D frame will come (the view is hidden or has no OpenGL): the snapshot is acknowledged at
  // once, and due plots are drawn at once instead of after a 3-D frame.
  void withoutASceneFrameEverythingHappensAtOnce() {
    Rig r;
    r.sceneComes = false;
    r.plotsComes = false;
    r.pacer.snapshotArrived(snapshot(1));
    QCOMPARE(r.take(), (QStringList{"plots 1", "scene", "ack"}));
    r.now = 20;
    r.pacer.snapshotArrived(snapshot(2));
    QCOMPARE(r.take(), (QStringList{"scene", "ack"}));
    r.now = 50;
    r.pacer.snapshotArrived(snapshot(3));
    QCOMPARE(r.take(), (QStringList{"plots 3", "scene", "ack"}));
    QVERIFY(!r.pacer.acknowledgementPending());
  }

  // A 3-D frame was asked for but never starts (the window was minimised meanwhile): after
  // kAckFallbackMs the snapshot is acknowledged anyway and the plots waiting for that frame are
  // drawn, so the worker and the plots never stall.
  void acknowledgementFallsBackWhenNoFrameStarts() {
    Rig r;
    r.plotsComes = false;
    r.pacer.snapshotArrived(snapshot(1));
    r.now = 50;
    r.pacer.snapshotArrived(snapshot(2));
    QCOMPARE(r.take(), (QStringList{"plots 1", "scene", "scene"}));
    QCOMPARE(r.pacer.plotsWaiting()->step, 2);
    QSignalSpy acked(&r.pacer, &FramePacer::acknowledge);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(acked.wait(5 * FramePacer::kAckFallbackMs));
    QVERIFY2(clock.elapsed() >= FramePacer::kAckFallbackMs * 9 / 10,
             qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(r.take(), (QStringList{"ack", "plots 2"}));
    QCOMPARE(acked.count(), 1);
    // The frame that finally starts acknowledges nothing more.
    r.pacer.sceneFrameStarted();
    QCOMPARE(r.take(), kNothing);
  }

  // A plot frame was due but never comes: the 3-D frame held for it is requested after
  // kPlotTurnFallbackMs.
  void heldSceneFrameFallsBackWhenNoPlotFrameComes() {
    Rig r;
    r.pacer.snapshotArrived(snapshot(1, false));
    QCOMPARE(r.take(), QStringList{QStringLiteral("plots 1")});
    QSignalSpy scene(&r.pacer, &FramePacer::drawScene);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(scene.wait(10 * FramePacer::kPlotTurnFallbackMs));
    QVERIFY2(clock.elapsed() >= FramePacer::kPlotTurnFallbackMs * 9 / 10,
             qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!r.pacer.sceneFrameHeld() && !r.pacer.plotFrameDue());
    QCOMPARE(r.take(), kScene);
    // A late plot frame requests nothing more.
    r.pacer.plotFrameSwapped();
    QCOMPARE(r.take(), kNothing);
  }

  // A run that is replaced: its snapshots still in flight are acknowledged at once and drawn
  // nowhere, plots waiting for its 3-D frame are dropped, and the new run's first snapshot is
  // plotted at once however recently the old one was.
  void aNewRunDropsTheOldOne() {
    Rig r;
    r.plotsComes = false;
    r.pacer.snapshotArrived(snapshot(1));
    r.now = 50;
    r.pacer.snapshotArrived(snapshot(2));
    r.pacer.sceneFrameStarted();
    QCOMPARE(r.take(), (QStringList{"plots 1", "scene", "scene", "ack"}));
    r.pacer.runStarted();
    r.pacer.snapshotDropped();
    QCOMPARE(r.take(), kAck);
    r.pacer.sceneFrameSwapped();  // the old run's frame: its plots are not drawn
    QCOMPARE(r.take(), kNothing);
    r.now = 51;
    r.pacer.snapshotArrived(snapshot(0));
    QCOMPARE(r.take(), (QStringList{"plots 0", "scene"}));
  }
};

QTEST_GUILESS_MAIN(TestFramePacer)

#include "test_gui_frame_pacer.moc"
