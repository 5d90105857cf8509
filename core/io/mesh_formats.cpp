#include "core/io/mesh_formats.hpp"

#include "core/io/mesh_reader.hpp"

#include <charconv>

namespace ricochet::io::mesh {

namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

bool Surface::endPolygon(int group, std::string& error) {
  const std::size_t n = indices.size() - offsets.back();
  triangles += n >= 3 ? n - 2 : 0;
  if (triangles > kMaxMeshTriangles) {
    error = "its faces make more than " + std::to_string(kMaxMeshTriangles) +
            " triangles, above the limit";
    return false;
  }
  offsets.push_back(indices.size());
  polygonGroup.push_back(group);
  return true;
}

bool Lines::next(std::string_view& line) {
  if (at_ >= bytes_.size()) return false;
  std::size_t end = bytes_.find('\n', at_);
  if (end == std::string_view::npos) end = bytes_.size();
  line = bytes_.substr(at_, end - at_);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  at_ = end + 1;
  ++number_;
  return true;
}

bool Words::next(std::string_view& word) {
  std::size_t i = 0;
  while (i < rest_.size() && isBlank(rest_[i])) ++i;
  if (i == rest_.size()) {
    rest_ = {};
    return false;
  }
  std::size_t j = i;
  while (j < rest_.size() && !isBlank(rest_[j])) ++j;
  word = rest_.substr(i, j - i);
  rest_.remove_prefix(j);
  return true;
}

std::string_view Words::rest() const {
  std::string_view r = rest_;
  while (!r.empty() && isBlank(r.front())) r.remove_prefix(1);
  while (!r.empty() && isBlank(r.back())) r.remove_suffix(1);
  return r;
}

bool parseDouble(std::string_view word, double& out, std::string& error) {
  std::string_view digits = word;
  // from_chars takes no '+'; a file may write one before a number (not before another sign).
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-' && digits[1] != '+') {
    digits.remove_prefix(1);
  }
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, out, std::chars_format::general);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    error = quote(word) + " is out of the range of a double";
    return false;
  }
  if (ec != std::errc() || ptr != end) {
    error = quote(word) + " is not a number";
    return false;
  }
  return true;
}

bool parseInteger(std::string_view word, std::int64_t lo, std::int64_t hi, std::int64_t& out,
                  std::string& error) {
  std::string_view digits = word;
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-' && digits[1] != '+') {
    digits.remove_prefix(1);
  }
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, out);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    error =
        quote(word) + " is out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ")";
    return false;
  }
  if (ec != std::errc() || ptr != end) {
    error = quote(word) + " is not an integer";
    return false;
  }
  if (out < lo || out > hi) {
    error =
        quote(word) + " is out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ")";
    return false;
  }
  return true;
}

std::string quote(std::string_view word) {
  constexpr std::size_t kMax = 40;
  std::string q = "'";
  for (std::size_t i = 0; i < word.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(word[i]);
    q += c >= 0x20 && c < 0x7f ? char(c) : '?';
  }
  if (word.size() > kMax) q += "...";
  return q + "'";
}

std::string lineAt(std::size_t number) {
  return "line " + std::to_string(number) + ": ";
}

std::string count(std::uint64_t n, const char* noun, const char* plural) {
  if (n == 1) return "1 " + std::string(noun);
  return std::to_string(n) + " " + (plural ? std::string(plural) : noun + std::string("s"));
}

}  // namespace ricochet::io::mesh
