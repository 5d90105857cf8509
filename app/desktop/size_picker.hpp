#pragma once
// The "size" row of the export dialogs: a preset combo ("1280 x 720 (HD)", ..., "Custom") and
// the width and height in pixels, editable only under "Custom".

#include <QSize>
#include <QWidget>

#include <span>

class QComboBox;
class QSpinBox;

namespace ricochet::app {

struct SizePreset {
  const char* label;  ///< UTF-8, e.g. "1280 \u00d7 720 (HD)"
  int width, height;  ///< pixels
};

class SizePicker : public QWidget {
  Q_OBJECT
 public:
  /// The presets in this order, then "Custom"; starts on presets[initial]. Sides are limited
  /// to [minSide, maxSide] pixels.
  SizePicker(std::span<const SizePreset> presets, int initial, int minSide, int maxSide,
             QWidget* parent = nullptr);

  QSize value() const;  ///< the chosen size in pixels

  QComboBox* combo() const { return combo_; }
  QSpinBox* widthSpin() const { return width_; }
  QSpinBox* heightSpin() const { return height_; }

 signals:
  void changed();  ///< the chosen size may have changed

 private:
  void onPresetChanged();
  QComboBox* combo_ = nullptr;
  QSpinBox* width_ = nullptr;
  QSpinBox* height_ = nullptr;
};

}  // namespace ricochet::app
