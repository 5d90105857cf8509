#pragma once
// Checks of a parsed JSON document against what a file format expects (scenario files, study
// files, bodies): types, finite numbers, integers, allowed keys. The first problem is kept as one
// line that names the source, the position of the offending value and its key, e.g.
//   "study.json: line 4, column 12: \"vary[0].samples\" must be an integer in [1, 10000000]".

#include "core/io/json.hpp"
#include "core/model/parameter.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>

namespace ricochet::io {

class JsonChecker {
 public:
  /// `source`: the file name (or "" for data that has none).
  explicit JsonChecker(std::string_view source) : source_(source) {}

  /// Records `what` at `at` (the first problem only); returns false for `return c.fail(...)`.
  bool fail(const json::Value& at, const std::string& what) {
    if (error_.empty()) {
      error_ = source_.empty() ? std::string() : std::string(source_) + ": ";
      if (at.line() > 0) {
        error_ += "line " + std::to_string(at.line()) + ", column " + std::to_string(at.column()) +
                  ": ";
      }
      error_ += what;
    }
    return false;
  }
  const std::string& error() const { return error_; }

  /// The value must be of `type`; names the key and the type found otherwise.
  bool expect(const json::Value& v, json::Type type, const std::string& key) {
    if (v.type() == type) return true;
    return fail(v, "\"" + key + "\" must be " + json::typeNameWithArticle(type) + ", not " +
                       json::typeNameWithArticle(v.type()));
  }

  /// A finite number with |value| <= maxMagnitude (the JSON reader already refuses overflow).
  bool expectNumber(const json::Value& v, const std::string& key,
                    double maxMagnitude = kUnbounded) {
    if (!expect(v, json::Type::Number, key)) return false;
    const double x = v.asNumber();
    if (!std::isfinite(x)) {
      return fail(v, "\"" + key + "\" = " + formatNumber(x) + " is not a finite number");
    }
    if (std::fabs(x) > maxMagnitude) {
      return fail(v, "\"" + key + "\" = " + formatNumber(x) + " is too large: |value| must be <= " +
                         formatNumber(maxMagnitude));
    }
    return true;
  }

  /// An integer in [min, max].
  bool expectInteger(const json::Value& v, const std::string& key, double min, double max) {
    if (!expectNumber(v, key)) return false;
    const double x = v.asNumber();
    if (x != std::floor(x) || x < min || x > max) {
      return fail(v, "\"" + key + "\" = " + formatNumber(x) + " must be an integer in [" +
                         formatNumber(min) + ", " + formatNumber(max) + "]");
    }
    return true;
  }

  /// Keys of `object` must all be in `allowed`; `where` prefixes the key in the message.
  template <std::size_t N>
  bool onlyKeys(const json::Value& object, const char* const (&allowed)[N],
                const std::string& where) {
    for (const json::Member& m : object.asObject()) {
      bool known = false;
      for (const char* a : allowed) known = known || m.first == a;
      if (known) continue;
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      const std::string key = where.empty() ? m.first : where + "." + m.first;
      return fail(m.second, "unknown key \"" + key + "\" (expected " + list + ")");
    }
    return true;
  }

 private:
  std::string_view source_;
  std::string error_;
};

}  // namespace ricochet::io
