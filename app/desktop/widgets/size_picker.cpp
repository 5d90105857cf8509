#include "app/desktop/widgets/size_picker.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace ricochet::app {

QString figureSizeError(QSize size, const QString& what) {
  if (size.width() >= kMinFigureSide && size.height() >= kMinFigureSide &&
      size.width() <= kMaxFigureSide && size.height() <= kMaxFigureSide) {
    return {};
  }
  return QObject::tr("%1 size %2 x %3 is invalid: width and height must be in [%4, %5] pixels")
      .arg(what)
      .arg(size.width())
      .arg(size.height())
      .arg(kMinFigureSide)
      .arg(kMaxFigureSide);
}

SizePicker::SizePicker(std::span<const SizePreset> presets, int initial, int minSide, int maxSide,
                       QWidget* parent)
    : QWidget(parent) {
  combo_ = new QComboBox;
  for (const SizePreset& s : presets) combo_->addItem(QString::fromUtf8(s.label), QSize(s.width, s.height));
  combo_->addItem(tr("Custom"), QSize());
  width_ = new QSpinBox;
  height_ = new QSpinBox;
  for (QSpinBox* b : {width_, height_}) {
    b->setRange(minSide, maxSide);
    b->setSuffix(tr(" px"));
    connect(b, &QSpinBox::valueChanged, this, &SizePicker::changed);
  }
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(combo_, 1);
  row->addWidget(width_);
  row->addWidget(new QLabel(QStringLiteral("\u00d7")));
  row->addWidget(height_);
  combo_->setCurrentIndex(initial);
  connect(combo_, &QComboBox::currentIndexChanged, this, &SizePicker::onPresetChanged);
  onPresetChanged();
}

QSize SizePicker::value() const { return QSize(width_->value(), height_->value()); }

void SizePicker::onPresetChanged() {
  const QSize s = combo_->currentData().toSize();
  const bool custom = !s.isValid();
  width_->setEnabled(custom);
  height_->setEnabled(custom);
  if (!custom) {
    width_->setValue(s.width());
    height_->setValue(s.height());
  }
  emit changed();
}

}  // namespace ricochet::app
