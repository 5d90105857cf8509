#pragma once
// What the mouse does on the plots, turned into requests for PlotPanel:
//
// * wheel over a time chart: zoom the time axis about the pointer (all time charts together);
// * drag with the left button across a time chart: zoom to the selected time range (the band is
//   shown while dragging); with Shift or the middle button: pan;
// * double-click (or Escape): back to the whole run;
// * hover: the read-out of the chart under the pointer, and a cursor line;
// * click (no drag): pick what lies under the pointer (an impact line);
// * right button: the chart's menu.
//
// It only reads the canvas's figure and layout to map pixels to values.

#include <QObject>
#include <QPoint>
#include <QPointF>

#include <optional>

namespace ricochet::app {

class PlotCanvas;

class PlotInteraction : public QObject {
  Q_OBJECT
 public:
  /// Watches `canvas`'s input (an event filter).
  explicit PlotInteraction(PlotCanvas* canvas);

  /// Wheel notches (120 units each) zoom by this factor each.
  static constexpr double kWheelZoom = 0.8;
  /// A press that moves less than this (px) before its release is a click.
  static constexpr int kDragThreshold = 4;

 signals:
  /// Show the time range [t0, t1] in every time chart.
  void zoomRequested(double t0, double t1);
  void resetRequested();
  /// The pointer is at page point `at` over chart `chart` (-1: it left the charts).
  void hovered(int chart, QPointF at);
  void clicked(int chart, QPointF at);
  void menuRequested(int chart, QPoint global);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // The time at page x in chart `c` (a time chart), or none.
  std::optional<double> timeAt(int c, double x) const;

  PlotCanvas* canvas_;
  enum class Drag { None, Select, Pan } drag_ = Drag::None;
  int dragChart_ = -1;
  QPointF pressAt_;
  double pressT0_ = 0.0, pressT1_ = 1.0;  // the time range when the drag began
  bool moved_ = false;
};

}  // namespace ricochet::app
