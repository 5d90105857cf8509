#pragma once
// The paper presets (resources/presets/, one scenario file per example and experiment of the five
// papers) embedded in the application through resources/presets.qrc, with their descriptions read
// from the embedded index (resources/presets/README.md: one table row per file, "| `FILE` | system
// | what it reproduces | expected (spec) / here |").

#include <QMenu>
#include <QString>

#include <functional>
#include <vector>

namespace ricochet::app {

struct Preset {
  QString file;         ///< "004-particle-floor-1000-impacts.json"
  QString resource;     ///< ":/presets/004-particle-floor-1000-impacts.json"
  QString system;       ///< "particle-floor"
  QString description;  ///< the index's "what it reproduces"
  QString expected;     ///< the index's "expected (spec) / here"
  /// The paper number in the file name ("004"), empty when the name has no such prefix.
  QString paper() const;
};

/// Resource path of the embedded index.
inline constexpr const char* kPresetIndexResource = ":/presets/README.md";

/// The rows of a presets index (markdown table rows that start with "| `"), in order. Escaped
/// pipes ("\|") inside cells are unescaped.
std::vector<Preset> parsePresetIndex(const QString& markdown);
/// parsePresetIndex() of the embedded index.
std::vector<Preset> embeddedPresets();

/// "Presets" menu: one submenu per paper (in the index's order), one action per preset labelled
/// by its file name (without the paper prefix), its description and expected results as tooltip
/// and status tip. Triggering an action calls `open`.
QMenu* createPresetsMenu(QWidget* parent, std::function<void(const Preset&)> open);

}  // namespace ricochet::app
