#pragma once
// The wheel for the focused field only. A combo box or spin box in a scrolled form otherwise takes
// every wheel turn that passes over it, so scrolling the form changes the value under the pointer
// (and, in the scenario dock, restarts the run). A guarded widget is focused by a click or Tab,
// never by the wheel, and passes the wheel on to the form around it until it has the focus.
// (NumberField does the same by itself.)

class QWheelEvent;
class QWidget;

namespace ricochet::app {

/// Guards `widget` (not null) as above, for its lifetime.
void takeWheelOnlyWithFocus(QWidget* widget);

/// Hands `event`, received by `from`, to the scroll area around `from` (which scrolls), and
/// accepts it; ignores it when `from` is in no scroll area.
void passWheelOn(QWidget* from, QWheelEvent* event);

}  // namespace ricochet::app
