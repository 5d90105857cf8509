#include "render/video/frame_pattern.hpp"

#include <string_view>

namespace ricochet::render::detail {

std::optional<PngPattern> parsePngPattern(const std::string& name) {
  PngPattern p;
  bool seen = false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    std::string& out = seen ? p.suffix : p.prefix;
    if (name[i] != '%') {
      out += name[i];
      continue;
    }
    const std::string_view rest = std::string_view(name).substr(i + 1);
    if (rest.starts_with('%')) {  // "%%": a literal '%'
      out += '%';
      i += 1;
    } else if (!seen && rest.starts_with('d')) {
      seen = true;
      i += 1;
    } else if (!seen && rest.size() >= 3 && rest[0] == '0' && rest[1] >= '1' && rest[1] <= '9' && rest[2] == 'd') {
      seen = true;
      p.width = rest[1] - '0';
      i += 3;
    } else {
      return std::nullopt;  // a second conversion, or one we do not take (%5d pads with blanks)
    }
  }
  if (!seen) return std::nullopt;
  return p;
}

std::string frameFileName(const PngPattern& p, std::int64_t k) {
  std::string digits = std::to_string(k);
  if (static_cast<int>(digits.size()) < p.width) digits.insert(0, p.width - digits.size(), '0');
  return p.prefix + digits + p.suffix;
}

}  // namespace ricochet::render::detail
