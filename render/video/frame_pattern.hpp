#pragma once
// PNG frame-name patterns such as "f_%05d.png" (internal to render/video/): the option checks
// accept them, and the PNG encoder names its frames with them.

#include <cstdint>
#include <optional>
#include <string>

namespace ricochet::render::detail {

/// A PNG pattern's file name split around its one %d / %0Nd conversion.
struct PngPattern {
  std::string prefix, suffix;  // with "%%" already turned into '%'
  int width = 0;               // 0: no padding
};

/// The pattern in file name `name`: exactly one %d or %0Nd (N = 1..9), "%%" for a literal '%';
/// nullopt otherwise (no conversion, two, or one such as %5d that pads with blanks).
std::optional<PngPattern> parsePngPattern(const std::string& name);
/// The file name of frame `k` (f_%05d.png, 7 -> f_00007.png).
std::string frameFileName(const PngPattern& p, std::int64_t k);

}  // namespace ricochet::render::detail
