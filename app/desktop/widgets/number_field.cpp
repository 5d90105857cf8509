#include "app/desktop/widgets/number_field.hpp"

#include "app/desktop/widgets/wheel_guard.hpp"

#include <QKeyEvent>
#include <QLineEdit>
#include <QPalette>
#include <QWheelEvent>

#include <charconv>
#include <cmath>
#include <string>

namespace ricochet::app {

namespace {
// Arrow step: a tenth of the default's decade (0.1 for 1..9.99), or a fiftieth of a finite
// range's width, whichever is smaller; 0.1 for a zero default without a finite range.
double stepFor(const ParameterSpec& spec) {
  double step = 0.1;
  const double d = std::fabs(spec.defaultValue);
  if (d > 0.0 && std::isfinite(d)) step = std::pow(10.0, std::floor(std::log10(d)) - 1.0);
  if (std::isfinite(spec.min) && std::isfinite(spec.max) && spec.max > spec.min) {
    const double w = std::pow(10.0, std::floor(std::log10((spec.max - spec.min) / 50.0)));
    step = std::min(step, w);
  }
  return step;
}

}  // namespace

NumberField::NumberField(ParameterSpec spec, QString kind, QWidget* parent)
    : QAbstractSpinBox(parent), spec_(std::move(spec)), kind_(std::move(kind)) {
  step_ = stepFor(spec_);
  setAccelerated(true);
  setKeyboardTracking(false);
  setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
  // Keys and clicks focus it, the wheel does not: scrolling the dock over a field scrolls the
  // dock (wheelEvent) instead of changing the value under the pointer.
  setFocusPolicy(Qt::StrongFocus);
  setObjectName(QString::fromStdString(spec_.name));
  QString tip = QString::fromStdString(spec_.help);
  tip += QStringLiteral("\nRange: %1%2").arg(
      QString::fromStdString(rangeText(spec_)),
      spec_.unit.empty() ? QString() : QStringLiteral(" ") + QString::fromStdString(spec_.unit));
  tip += QStringLiteral("\nDefault: %1").arg(textFor(spec_.defaultValue));
  tip += QStringLiteral("\nType a number (scientific notation accepted, e.g. 2.5e-3); arrows step "
                        "by %1.")
             .arg(QString::fromStdString(formatNumber(step_)));
  baseToolTip_ = tip;
  updateToolTip();
  connect(this, &QAbstractSpinBox::editingFinished, this, &NumberField::commitText);
  setValue(spec_.defaultValue);
}

void NumberField::keyPressEvent(QKeyEvent* event) {
  // Escape drops what was typed and hands the keyboard back to the window (Space, R, S ...).
  // Every other key belongs to the field while it has the focus: its line edit claims the
  // printable keys before the window's shortcuts, so "2 m/s" is typed, not played.
  if (event->key() == Qt::Key_Escape && event->modifiers() == Qt::NoModifier) {
    if (error_.isEmpty()) showText(textFor(value_));
    clearFocus();
    event->accept();
    return;
  }
  QAbstractSpinBox::keyPressEvent(event);
}

void NumberField::wheelEvent(QWheelEvent* event) {
  if (!hasFocus()) {
    passWheelOn(this, event);  // the form around the field scrolls
    return;
  }
  QAbstractSpinBox::wheelEvent(event);
}

QString NumberField::textFor(double value) const {
  QString s = QString::fromStdString(formatNumber(value));
  if (!spec_.unit.empty()) s += QStringLiteral(" ") + QString::fromStdString(spec_.unit);
  return s;
}

void NumberField::showText(const QString& text) {
  lineEdit()->setText(text);
  lineEdit()->setCursorPosition(0);  // long values show their sign and leading digits
}

void NumberField::setValue(double value) {
  value_ = value;
  showText(textFor(value));
  setError(QString());
}

void NumberField::setError(const QString& reason) {
  error_ = reason;
  QPalette pal = palette();
  if (reason.isEmpty()) {
    pal = QPalette();  // back to the application palette
  } else {
    pal.setColor(QPalette::Base, QColor(0xfd, 0xe2, 0xe0));
    pal.setColor(QPalette::Text, QColor(0x8e, 0x1b, 0x10));
  }
  lineEdit()->setPalette(pal);
  setProperty("invalid", !reason.isEmpty());
  updateToolTip();
}

void NumberField::updateToolTip() {
  setToolTip(error_.isEmpty() ? baseToolTip_ : error_ + QStringLiteral("\n\n") + baseToolTip_);
}

bool NumberField::parse(const QString& text, double* value, QString* reason) const {
  QString t = text.trimmed();
  const QString unit = QString::fromStdString(spec_.unit);
  if (!unit.isEmpty() && t.endsWith(unit)) t.chop(unit.size());
  t = t.trimmed();
  if (t.startsWith('+')) t.remove(0, 1);
  const std::string s = t.toStdString();
  double v = 0.0;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || res.ec == std::errc::invalid_argument || res.ptr != s.data() + s.size()) {
    if (reason) {
      *reason = QStringLiteral("%1 '%2': \"%3\" is not a number")
                    .arg(kind_, QString::fromStdString(spec_.name), text.trimmed());
    }
    return false;
  }
  if (res.ec == std::errc::result_out_of_range) {
    // from_chars leaves v untouched on overflow/underflow: say which.
    if (reason) {
      *reason = QStringLiteral("%1 '%2' = %3 is out of the range of double")
                    .arg(kind_, QString::fromStdString(spec_.name), t);
    }
    return false;
  }
  const std::string msg = checkValue(spec_, v, kind_.toStdString());
  if (!msg.empty()) {
    if (reason) *reason = QString::fromStdString(msg);
    if (value) *value = v;
    return false;
  }
  if (value) *value = v;
  return true;
}

QValidator::State NumberField::validate(QString& /*input*/, int& /*pos*/) const {
  // Anything may be typed: a letter dropped silently would leave the user guessing, so
  // commitText() says what is wrong with the text instead ("\"1x\" is not a number").
  return QValidator::Acceptable;
}

void NumberField::fixup(QString& /*input*/) const {}

void NumberField::commitText() {
  const QString text = lineEdit()->text();
  if (text == textFor(value_) && error_.isEmpty()) return;  // unchanged
  double v = 0.0;
  QString reason;
  if (!parse(text, &v, &reason)) {
    setError(reason);
    emit refused(reason);
    return;
  }
  if (v == value_ && error_.isEmpty()) {
    showText(textFor(v));  // normalise the display ("1.0" -> "1 kg")
    return;
  }
  value_ = v;
  showText(textFor(v));
  setError(QString());
  emit committed(v);
}

void NumberField::stepBy(int steps) {
  double base = value_;
  double typed = 0.0;
  if (parse(lineEdit()->text(), &typed, nullptr)) base = typed;
  double v = std::round((base + steps * step_) / step_) * step_;
  v = std::stod(QString::number(v, 'g', 12).toStdString());  // 0.30000000000000004 -> 0.3
  if (!checkValue(spec_, v, kind_.toStdString()).empty()) {
    // Stepping past a bound stops at the bound when it is inclusive, otherwise stays put.
    if (steps > 0 && std::isfinite(spec_.max) && !spec_.maxExclusive) v = spec_.max;
    else if (steps < 0 && std::isfinite(spec_.min) && !spec_.minExclusive) v = spec_.min;
    else return;
  }
  if (v == value_ && error_.isEmpty()) return;
  value_ = v;
  lineEdit()->setText(textFor(v));
  setError(QString());
  emit committed(v);
}

QAbstractSpinBox::StepEnabled NumberField::stepEnabled() const {
  StepEnabled e = StepNone;
  if (!(std::isfinite(spec_.max) && value_ >= spec_.max)) e |= StepUpEnabled;
  if (!(std::isfinite(spec_.min) && value_ <= spec_.min)) e |= StepDownEnabled;
  return e;
}

QSize NumberField::sizeHint() const {
  QSize s = QAbstractSpinBox::sizeHint();
  const int w = fontMetrics().horizontalAdvance(QStringLiteral("-0.000000000000000 ")) +
                fontMetrics().horizontalAdvance(QString::fromStdString(spec_.unit));
  s.setWidth(std::max(s.width(), w / 2 + 40));
  return s;
}

}  // namespace ricochet::app
