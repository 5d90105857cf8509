#include "app/desktop/replay/replay_bar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace ricochet::app {

ReplayBar::ReplayBar(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("replayBar"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 2, 6, 2);
  auto* title = new QLabel(tr("Replay"));
  slider_ = new QSlider(Qt::Horizontal);
  slider_->setObjectName(QStringLiteral("replaySlider"));
  slider_->setToolTip(
      tr("Scrub through the recorded run: the plots and the 3-D view jump to the "
         "recorded row at that time"));
  time_ = new QLabel;
  time_->setObjectName(QStringLiteral("replayTime"));
  time_->setMinimumWidth(
      fontMetrics().horizontalAdvance(QStringLiteral("t = 000.0000 s / 000.000 s")));
  live_ = new QToolButton;
  live_->setObjectName(QStringLiteral("runLiveButton"));
  live_->setText(tr("Run Live"));
  live_->setToolTip(tr("Integrate the recorded run's scenario live (the editor then edits it)"));
  layout->addWidget(title);
  layout->addWidget(slider_, 1);
  layout->addWidget(time_);
  layout->addWidget(live_);
  connect(slider_, &QSlider::valueChanged, this, [this](int row) {
    if (moving_ || !times_) return;
    showLabel(rowTime(row));
    emit seekRequested(rowTime(row));
  });
  connect(live_, &QToolButton::clicked, this, &ReplayBar::runLiveRequested);
  hide();
}

void ReplayBar::setRecording(std::shared_ptr<const hdf5::RunFile> run) {
  run_ = std::move(run);
  times_ = run_ ? run_->trace.column("t") : nullptr;
  moving_ = true;
  slider_->setRange(0, times_ && !times_->empty() ? int(times_->size()) - 1 : 0);
  slider_->setValue(0);
  moving_ = false;
  if (times_ && !times_->empty()) showLabel(times_->front());
  setVisible(times_ != nullptr);
}

double ReplayBar::rowTime(int row) const {
  if (!times_ || times_->empty()) return std::nan("");
  return (*times_)[std::size_t(std::clamp(row, 0, int(times_->size()) - 1))];
}

void ReplayBar::showTime(double t) {
  if (!times_ || times_->empty()) return;
  showLabel(t);
  if (slider_->isSliderDown()) return;
  const auto it = std::upper_bound(times_->begin(), times_->end(), t);
  const int row = it == times_->begin() ? 0 : int(it - times_->begin()) - 1;
  moving_ = true;
  slider_->setValue(row);
  moving_ = false;
}

void ReplayBar::showLabel(double t) {
  const double end = times_ && !times_->empty() ? times_->back() : 0.0;
  time_->setText(tr("t = %1 s / %2 s").arg(t, 0, 'f', 4).arg(end, 0, 'f', 3));
}

}  // namespace ricochet::app
