#pragma once
// A spin box for one ParameterSpec: shows values in shortest round-trip form with the unit as a
// suffix, accepts scientific notation and the unit typed after the number ("2 m/s"), steps with
// arrows/wheel/keys inside the spec's range, and never clamps silently: a value that does not
// parse or is out of range is reported (with the reason from core's checkValue) instead of being
// applied.
//
// Keys typed into a focused field belong to it (the window's one-key shortcuts wait until Escape
// or a click elsewhere takes the focus away); the wheel steps a field only while it has the
// focus, so scrolling a form over its fields scrolls the form.

#include "core/model/parameter.hpp"

#include <QAbstractSpinBox>
#include <QLineEdit>
#include <QString>

namespace ricochet::app {

class NumberField : public QAbstractSpinBox {
  Q_OBJECT
 public:
  /// `kind` names the value in messages: "parameter", "initial condition", "integrator setting".
  NumberField(ParameterSpec spec, QString kind, QWidget* parent = nullptr);

  const ParameterSpec& spec() const { return spec_; }
  /// The value last shown by setValue() or committed by the user.
  double value() const { return value_; }
  /// Shows `value` without emitting committed(); clears any error mark.
  void setValue(double value);

  /// Marks the field as refused with `reason` (red background, reason in the tooltip); an empty
  /// reason clears the mark.
  void setError(const QString& reason);
  QString error() const { return error_; }
  bool hasError() const { return !error_.isEmpty(); }

  /// Parses `text` (optionally ending with the unit). On failure returns false and sets `reason`.
  bool parse(const QString& text, double* value, QString* reason) const;

  /// The text editor inside the spin box (for tests and benchmarks that type into it).
  QLineEdit* textEditor() const { return lineEdit(); }

  void stepBy(int steps) override;
  QValidator::State validate(QString& input, int& pos) const override;
  void fixup(QString& input) const override;
  QSize sizeHint() const override;

 signals:
  /// The user entered a value that parses and lies in the spec's range.
  void committed(double value);
  /// The user entered something that cannot be applied; `reason` names the value.
  void refused(const QString& reason);

 protected:
  StepEnabled stepEnabled() const override;
  void keyPressEvent(QKeyEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  QString textFor(double value) const;
  void showText(const QString& text);
  void commitText();
  void updateToolTip();

  ParameterSpec spec_;
  QString kind_;
  double value_ = 0.0;
  double step_ = 0.1;
  QString error_;
  QString baseToolTip_;
};

}  // namespace ricochet::app
