#include "app/desktop/run/frame_pacer.hpp"

#include <QElapsedTimer>

#include <memory>

namespace ricochet::app {

FramePacer::FramePacer(QObject* parent, Clock clock) : QObject(parent), clock_(std::move(clock)) {
  if (!clock_) {
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    clock_ = [timer] { return timer->elapsed(); };
  }
  ackFallback_.setSingleShot(true);
  ackFallback_.setInterval(kAckFallbackMs);
  // No 3-D frame came: acknowledge, and draw the plots that waited for it.
  connect(&ackFallback_, &QTimer::timeout, this, [this] {
    acknowledgeNow();
    showWaitingPlots();
  });
  plotTurnFallback_.setSingleShot(true);
  plotTurnFallback_.setInterval(kPlotTurnFallbackMs);
  connect(&plotTurnFallback_, &QTimer::timeout, this, &FramePacer::sceneTurn);
}

void FramePacer::runStarted() {
  plotsShownAt_.reset();
  plotPending_.reset();
}

void FramePacer::snapshotArrived(const SnapshotPtr& s) {
  const bool sceneFrame = sceneFrameComes_ && sceneFrameComes_();
  if (!s->running || !plotsShownAt_) {
    plotPending_.reset();
    showPlots(s);
    plotsShownAt_ = clock_();
  } else if (clock_() - *plotsShownAt_ + kPlotSlackMs >= kPlotPeriodMs) {
    if (sceneFrame) {
      plotPending_ = s;  // after this snapshot's 3-D frame
    } else {
      showPlots(s);
    }
    plotsShownAt_ = clock_();
  }
  if (plotFrameDue_) {
    sceneFrameHeld_ = true;  // requested once the plots' frame is drawn
  } else {
    emit drawScene();
  }
  if (sceneFrame) {
    ackPending_ = true;
    ackFallback_.start();
  } else {
    emit acknowledge();
  }
}

void FramePacer::snapshotDropped() { emit acknowledge(); }

void FramePacer::sceneFrameStarted() { acknowledgeNow(); }

void FramePacer::sceneFrameSwapped() { showWaitingPlots(); }

void FramePacer::plotFrameSwapped() { sceneTurn(); }

void FramePacer::showPlots(const SnapshotPtr& s) {
  emit drawPlots(s);
  if (plotFrameComes_ && plotFrameComes_()) {
    plotFrameDue_ = true;
    plotTurnFallback_.start();
  }
}

void FramePacer::showWaitingPlots() {
  const SnapshotPtr s = std::move(plotPending_);
  plotPending_.reset();
  if (s) showPlots(s);
}

void FramePacer::acknowledgeNow() {
  if (!ackPending_) return;
  ackPending_ = false;
  ackFallback_.stop();
  emit acknowledge();
}

void FramePacer::sceneTurn() {
  plotFrameDue_ = false;
  plotTurnFallback_.stop();
  if (sceneFrameHeld_) {
    sceneFrameHeld_ = false;
    emit drawScene();
  }
}

}  // namespace ricochet::app
