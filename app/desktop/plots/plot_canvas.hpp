#pragma once
// The widget the live plots are painted in: it lays out the PlotFigure PlotPanel hands it at its
// own size (plot_layout) and paints it with the exports' painter (plot_painter), then the screen's
// overlays: the hover cursor line across the time charts and the zoom selection.
//
// It paints through Qt's raster backing store (no OpenGL): a repaint costs the same after a short
// or a long run (the data are decimated to the plot width), and FramePacer hears about each frame
// through frameStarted()/frameSwapped() as it does from the 3-D view.

#include "app/desktop/plots/plot_layout.hpp"

#include <QImage>
#include <QWidget>

#include <optional>
#include <utility>

namespace ricochet::app {

class PlotCanvas : public QWidget {
  Q_OBJECT
 public:
  explicit PlotCanvas(QWidget* parent = nullptr);

  /// Shows `figure` (laid out at the widget's size) from the next frame on.
  void setFigure(PlotFigure figure);
  const PlotFigure& figure() const { return figure_; }
  const FigureLayout& figureLayout() const { return layout_; }

  /// The hover cursor, a vertical line at page x across the time charts (none: hidden).
  void setCursorX(std::optional<double> x);
  /// The zoom selection between two page x (none: hidden).
  void setRubberBand(std::optional<std::pair<double, double>> xs);
  /// Smooth (antialiased) curves; off by default (the cheaper frame under software rendering).
  void setAntialiasing(bool on);
  bool antialiasing() const { return antialias_; }

  /// Asks for a frame (coalesced: at most one per event-loop pass).
  void requestRender() { update(); }
  /// Always true: the canvas needs no OpenGL (FramePacer asks every view).
  bool hasContext() const { return true; }
  /// The last frame as an image.
  QImage grabFrame() { return grab().toImage(); }

  /// The chart whose band holds page point `p`, or -1.
  int chartAt(QPointF p) const;

 signals:
  void frameStarted();
  void frameSwapped();
  /// The layout changed (a new figure or size).
  void laidOut();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void relayout();
  PlotFigure figure_;
  FigureLayout layout_;
  std::optional<double> cursorX_;
  std::optional<std::pair<double, double>> band_;
  bool antialias_ = false;
};

}  // namespace ricochet::app
