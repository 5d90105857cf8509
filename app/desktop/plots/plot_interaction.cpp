#include "app/desktop/plots/plot_interaction.hpp"

#include "app/desktop/plots/plot_canvas.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

namespace ricochet::app {

PlotInteraction::PlotInteraction(PlotCanvas* canvas) : QObject(canvas), canvas_(canvas) {
  canvas->installEventFilter(this);
}

std::optional<double> PlotInteraction::timeAt(int c, double x) const {
  const PlotFigure& f = canvas_->figure();
  const FigureLayout& l = canvas_->figureLayout();
  if (c < 0 || std::size_t(c) >= f.charts.size() || std::size_t(c) >= l.charts.size()) return {};
  const PlotChart& chart = f.charts[std::size_t(c)];
  if (!chart.timeAxis()) return {};
  const QRectF a = l.charts[std::size_t(c)].area;
  if (!(a.width() > 0.0)) return {};
  return chart.tMin + (x - a.left()) / a.width() * (chart.tMax - chart.tMin);
}

bool PlotInteraction::eventFilter(QObject* watched, QEvent* event) {
  if (watched != canvas_) return false;
  switch (event->type()) {
    case QEvent::Wheel: {
      auto* e = static_cast<QWheelEvent*>(event);
      const QPointF at = e->position();
      const int c = canvas_->chartAt(at);
      const std::optional<double> t = timeAt(c, at.x());
      if (!t || e->angleDelta().y() == 0) return false;
      const PlotChart& chart = canvas_->figure().charts[std::size_t(c)];
      const double f = std::pow(kWheelZoom, e->angleDelta().y() / 120.0);
      emit zoomRequested(*t - (*t - chart.tMin) * f, *t + (chart.tMax - *t) * f);
      return true;
    }
    case QEvent::MouseButtonPress: {
      auto* e = static_cast<QMouseEvent*>(event);
      const QPointF at = e->position();
      const int c = canvas_->chartAt(at);
      if (e->button() == Qt::RightButton) {
        if (c >= 0) emit menuRequested(c, e->globalPosition().toPoint());
        return true;
      }
      if (e->button() != Qt::LeftButton && e->button() != Qt::MiddleButton) return false;
      dragChart_ = c;
      pressAt_ = at;
      moved_ = false;
      drag_ = Drag::None;
      if (timeAt(c, at.x())) {
        const PlotChart& chart = canvas_->figure().charts[std::size_t(c)];
        pressT0_ = chart.tMin;
        pressT1_ = chart.tMax;
        const bool pan = e->button() == Qt::MiddleButton || (e->modifiers() & Qt::ShiftModifier);
        drag_ = pan ? Drag::Pan : Drag::Select;
      }
      return true;
    }
    case QEvent::MouseMove: {
      auto* e = static_cast<QMouseEvent*>(event);
      const QPointF at = e->position();
      if (e->buttons() == Qt::NoButton) {
        const int c = canvas_->chartAt(at);
        const std::optional<double> t = timeAt(c, at.x());
        canvas_->setCursorX(t ? std::optional<double>(at.x()) : std::nullopt);
        emit hovered(c, at);
        return false;
      }
      if (std::fabs(at.x() - pressAt_.x()) >= kDragThreshold) moved_ = true;
      if (!moved_ || drag_ == Drag::None) return true;
      if (drag_ == Drag::Select) {
        canvas_->setRubberBand(std::pair{pressAt_.x(), at.x()});
      } else {
        const QRectF a = canvas_->figureLayout().charts[std::size_t(dragChart_)].area;
        const double dt = -(at.x() - pressAt_.x()) / a.width() * (pressT1_ - pressT0_);
        emit zoomRequested(pressT0_ + dt, pressT1_ + dt);
      }
      return true;
    }
    case QEvent::MouseButtonRelease: {
      auto* e = static_cast<QMouseEvent*>(event);
      const QPointF at = e->position();
      const Drag drag = drag_;
      drag_ = Drag::None;
      canvas_->setRubberBand(std::nullopt);
      if (!moved_) {
        if (e->button() == Qt::LeftButton) emit clicked(canvas_->chartAt(at), at);
        return true;
      }
      if (drag == Drag::Select) {
        const std::optional<double> a = timeAt(dragChart_, pressAt_.x());
        const std::optional<double> b = timeAt(dragChart_, at.x());
        if (a && b && *a != *b) emit zoomRequested(std::min(*a, *b), std::max(*a, *b));
      }
      return true;
    }
    case QEvent::MouseButtonDblClick:
      emit resetRequested();
      return true;
    case QEvent::Leave:
      canvas_->setCursorX(std::nullopt);
      emit hovered(-1, QPointF());
      return false;
    case QEvent::KeyPress:
      if (static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        emit resetRequested();
        return true;
      }
      return false;
    default:
      return false;
  }
}

}  // namespace ricochet::app
