#include "app/desktop/widgets/wheel_guard.hpp"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QEvent>
#include <QObject>
#include <QWheelEvent>
#include <QWidget>

namespace ricochet::app {

namespace {

class WheelGuard : public QObject {
 public:
  using QObject::QObject;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    auto* widget = static_cast<QWidget*>(watched);
    if (event->type() == QEvent::Wheel && !widget->hasFocus()) {
      passWheelOn(widget, static_cast<QWheelEvent*>(event));
      return true;
    }
    return QObject::eventFilter(watched, event);
  }
};

}  // namespace

void passWheelOn(QWidget* from, QWheelEvent* event) {
  // To the scroll area the widget sits in, at the same place on screen. (Sent, not left to
  // QApplication's propagation of an ignored event, which stops short of the area for events the
  // window system did not send itself, and which a widget-locked scroll sequence bypasses.)
  for (QWidget* w = from->parentWidget(); w; w = w->parentWidget()) {
    auto* area = qobject_cast<QAbstractScrollArea*>(w);
    if (!area || !area->viewport()->isAncestorOf(from)) continue;
    QWidget* viewport = area->viewport();
    const QPointF at = viewport->mapFromGlobal(event->globalPosition());
    QWheelEvent passed(at, event->globalPosition(), event->pixelDelta(), event->angleDelta(),
                       event->buttons(), event->modifiers(), event->phase(), event->inverted(),
                       event->source());
    QApplication::sendEvent(viewport, &passed);
    event->accept();
    return;
  }
  event->ignore();
}

void takeWheelOnlyWithFocus(QWidget* widget) {
  widget->setFocusPolicy(Qt::StrongFocus);
  widget->installEventFilter(new WheelGuard(widget));
}

}  // namespace ricochet::app
