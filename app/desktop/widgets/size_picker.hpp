#pragma once
// The "size" row of the export dialogs: a preset combo ("1280 x 720 (HD)", ..., "Custom") and
// the width and height in pixels, editable only under "Custom".

#include <QSize>
#include <QString>
#include <QWidget>

#include <span>

class QComboBox;
class QSpinBox;

namespace ricochet::app {

struct SizePreset {
  const char* label;  ///< UTF-8, e.g. "1280 \u00d7 720 (HD)"
  int width, height;  ///< pixels
};

/// Figure exports (plots, study figures): sides in [kMinFigureSide, kMaxFigureSide] pixels, and
/// the presets their dialogs offer (the first is the default).
inline constexpr int kMinFigureSide = 64;
inline constexpr int kMaxFigureSide = 8192;
inline constexpr SizePreset kFigureSizes[] = {{"1600 \u00d7 1000", 1600, 1000},
                                              {"1200 \u00d7 900", 1200, 900},
                                              {"2400 \u00d7 1500", 2400, 1500},
                                              {"3200 \u00d7 2000 (print)", 3200, 2000},
                                              {"800 \u00d7 500", 800, 500},
                                              {"1000 \u00d7 1000 (square)", 1000, 1000},
                                              {"1000 \u00d7 1400 (portrait)", 1000, 1400}};

/// Empty when `size` is a valid figure size, else "WHAT size W x H is invalid: ...".
QString figureSizeError(QSize size, const QString& what);

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
