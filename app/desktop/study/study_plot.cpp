#include "app/desktop/study/study_plot.hpp"

#include "app/desktop/study/study_painter.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace ricochet::app {

namespace {
constexpr double kHitRadius = 8.0;  ///< px around a point that a click or the mouse still finds it
}

StudyPlot::StudyPlot(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("studyPlot"));
  setMouseTracking(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setCursor(Qt::CrossCursor);
}

void StudyPlot::setFigure(StudyFigure figure) {
  figure_ = std::move(figure);
  update();
}

void StudyPlot::setHighlightedRow(std::optional<std::size_t> row) {
  if (row == highlight_) return;
  highlight_ = row;
  update();
}

QPointF StudyPlot::pointPosition(std::size_t series, std::size_t index) const {
  const FigureGeometry g(figure_, QSizeF(size()), 1.0);
  const FigurePoint& p = figure_.series.at(series).points.at(index);
  return g.map(p.x, p.y);
}

QPointF StudyPlot::cellPosition(std::size_t index) const {
  const FigureGeometry g(figure_, QSizeF(size()), 1.0);
  const FigureCell& c = figure_.cells.at(index);
  return (g.map(c.x0, c.y0) + g.map(c.x1, c.y1)) / 2.0;
}

void StudyPlot::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  paintFigure(painter, figure_, FigureGeometry(figure_, QSizeF(size()), 1.0), highlight_);
}

void StudyPlot::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  const auto hit = hitFigure(figure_, FigureGeometry(figure_, QSizeF(size()), 1.0), event->position(), kHitRadius);
  if (!hit) return;
  setHighlightedRow(hit->row);
  emit pointClicked(hit->row, hit->tag);
}

void StudyPlot::mouseMoveEvent(QMouseEvent* event) {
  const auto hit = hitFigure(figure_, FigureGeometry(figure_, QSizeF(size()), 1.0), event->position(), kHitRadius);
  if (hit && describe_) {
    QToolTip::showText(event->globalPosition().toPoint(), describe_(hit->row, hit->tag), this);
  } else {
    QToolTip::hideText();
  }
}

}  // namespace ricochet::app
