#include "app/desktop/plots/plot_canvas.hpp"

#include "app/desktop/plots/plot_painter.hpp"

#include <QPainter>
#include <QResizeEvent>

namespace ricochet::app {

namespace ps = plotstyle;

PlotCanvas::PlotCanvas(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent);  // the figure paints every pixel
  setMouseTracking(true);                 // hover read-out
  setFocusPolicy(Qt::ClickFocus);
}

void PlotCanvas::setFigure(PlotFigure figure) {
  figure_ = std::move(figure);
  relayout();
}

void PlotCanvas::relayout() {
  layout_ = layOutFigure(figure_, QSizeF(size()), 1.0);
  update();
  emit laidOut();
}

void PlotCanvas::setCursorX(std::optional<double> x) {
  if (cursorX_ == x) return;
  cursorX_ = x;
  update();
}

void PlotCanvas::setRubberBand(std::optional<std::pair<double, double>> xs) {
  band_ = xs;
  update();
}

void PlotCanvas::setAntialiasing(bool on) {
  antialias_ = on;
  update();
}

int PlotCanvas::chartAt(QPointF p) const {
  for (std::size_t i = 0; i < layout_.charts.size(); ++i) {
    if (layout_.charts[i].band.contains(p)) return int(i);
  }
  return -1;
}

void PlotCanvas::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  relayout();
}

void PlotCanvas::paintEvent(QPaintEvent*) {
  emit frameStarted();
  QPainter p(this);
  paintFigure(p, figure_, layout_, antialias_);
  for (std::size_t i = 0; i < layout_.charts.size() && i < figure_.charts.size(); ++i) {
    if (!figure_.charts[i].timeAxis()) continue;
    const QRectF a = layout_.charts[i].area;
    if (band_) {
      const double x0 = std::clamp(std::min(band_->first, band_->second), a.left(), a.right());
      const double x1 = std::clamp(std::max(band_->first, band_->second), a.left(), a.right());
      const PlotRgba c = ps::kRubberBand;
      p.fillRect(QRectF(x0, a.top(), x1 - x0, a.height()), QColor(c.r, c.g, c.b, c.a));
    }
    if (cursorX_ && *cursorX_ >= a.left() && *cursorX_ <= a.right()) {
      const PlotRgba c = ps::kCursor;
      p.setPen(QPen(QColor(c.r, c.g, c.b, c.a), 1.0, Qt::DashLine));
      p.drawLine(QPointF(*cursorX_, a.top()), QPointF(*cursorX_, a.bottom()));
    }
  }
  p.end();
  emit frameSwapped();
}

}  // namespace ricochet::app
