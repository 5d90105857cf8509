#pragma once
// The bar under the 3-D view while a recorded run is replayed (File > Open Run...): a time slider
// over the file's rows, the time shown as text, and a button that runs the file's scenario live.
// Dragging the slider (or setting its value) asks the worker to seek; the snapshots move it back
// without asking. Hidden while a live run is shown.

#include "io/hdf5/run_file.hpp"

#include <QWidget>

#include <memory>

class QLabel;
class QSlider;
class QToolButton;

namespace ricochet::app {

class ReplayBar : public QWidget {
  Q_OBJECT
 public:
  explicit ReplayBar(QWidget* parent = nullptr);

  /// Shows the bar for `run` (slider over its rows at the first), or hides it (null).
  void setRecording(std::shared_ptr<const hdf5::RunFile> run);
  /// The replay is at `t` (s): the slider goes to the last row at or before it (no seek), unless
  /// the user holds it.
  void showTime(double t);

  QSlider* slider() const { return slider_; }
  QLabel* timeLabel() const { return time_; }
  QToolButton* liveButton() const { return live_; }
  /// The time of row `row` of the recording (NaN without one).
  double rowTime(int row) const;

 signals:
  /// The user moved the slider to a row at time `t` (s).
  void seekRequested(double t);
  /// The user asked to run the recording's scenario live.
  void runLiveRequested();

 private:
  void showLabel(double t);
  std::shared_ptr<const hdf5::RunFile> run_;
  const std::vector<double>* times_ = nullptr;  // the recording's t column
  QSlider* slider_ = nullptr;
  QLabel* time_ = nullptr;
  QToolButton* live_ = nullptr;
  bool moving_ = false;  // the slider is being moved by showTime()
};

}  // namespace ricochet::app
