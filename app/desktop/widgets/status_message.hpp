#pragma once
// The status bar's message area. QStatusBar draws a message in whatever room its permanent fields
// leave, cutting it mid-word ("...(Zeno: a body r") next to the run-state field. This area takes
// that room itself, left of the fields: it shows every message the bar is given (showMessage(),
// with its timeout) elided at the end, the whole text in its tooltip, and a Details button that
// opens the whole text in a window when it does not fit.

#include <QString>
#include <QWidget>

class QLabel;
class QStatusBar;
class QToolButton;

namespace ricochet::app {

class StatusMessage : public QWidget {
  Q_OBJECT
 public:
  /// Adds itself to `bar` (first, stretching) and follows its messages.
  explicit StatusMessage(QStatusBar* bar);

  /// The whole message shown now (empty when none).
  QString text() const { return text_; }
  /// What the label shows (elided to its width).
  QString shownText() const;
  QToolButton* detailsButton() const { return details_; }
  /// Opens the whole message in a window.
  void showDetails();

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void setText(const QString& text);
  void refresh();
  QLabel* label_ = nullptr;
  QToolButton* details_ = nullptr;
  QString text_;
};

}  // namespace ricochet::app
