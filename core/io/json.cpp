#include "core/io/json.hpp"

#include "core/model/parameter.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <system_error>

namespace ricochet::json {

const char* typeName(Type type) {
  switch (type) {
    case Type::Null: return "null";
    case Type::Bool: return "boolean";
    case Type::Number: return "number";
    case Type::String: return "string";
    case Type::Array: return "array";
    case Type::Object: return "object";
  }
  return "unknown";
}

const char* typeNameWithArticle(Type type) {
  switch (type) {
    case Type::Null: return "null";
    case Type::Bool: return "a boolean";
    case Type::Number: return "a number";
    case Type::String: return "a string";
    case Type::Array: return "an array";
    case Type::Object: return "an object";
  }
  return "unknown";
}

Value Value::boolean(bool b) {
  Value v;
  v.type_ = Type::Bool;
  v.bool_ = b;
  return v;
}

Value Value::number(double x) {
  Value v;
  v.type_ = Type::Number;
  v.number_ = x;
  return v;
}

Value Value::string(std::string s) {
  Value v;
  v.type_ = Type::String;
  v.string_ = std::move(s);
  return v;
}

Value Value::array(Array items) {
  Value v;
  v.type_ = Type::Array;
  v.array_ = std::move(items);
  return v;
}

Value Value::object(Object members) {
  Value v;
  v.type_ = Type::Object;
  v.object_ = std::move(members);
  return v;
}

const Value* Value::find(std::string_view key) const {
  if (type_ != Type::Object) return nullptr;
  for (const Member& m : object_) {
    if (m.first == key) return &m.second;
  }
  return nullptr;
}

Value& Value::add(std::string key, Value value) {
  object_.emplace_back(std::move(key), std::move(value));
  return object_.back().second;
}

Value& Value::push(Value value) {
  array_.push_back(std::move(value));
  return array_.back();
}

namespace {

/// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is invalid (RFC 3629:
/// no overlong forms, no UTF-16 surrogates, nothing above U+10FFFF).
std::size_t utf8SequenceLength(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates U+D800..U+DFFF
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;  // continuation byte, C0/C1 (overlong) or F5..FF
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return n;
}

void appendUtf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

/// A byte for messages: printable ASCII as 'c', anything else as 0xNN.
std::string describeByte(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  if (c >= 0x20 && c < 0x7F) return std::string("'") + ch + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", c);
  return buf;
}

/// Recursive descent; recursion depth is bounded by kMaxDepth, so hostile nesting cannot
/// overflow the stack. Newlines only occur in whitespace (raw control characters are rejected
/// inside strings), so line/column are tracked in skipWhitespace().
class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  ParseResult run() {
    ParseResult r;
    if (s_.size() >= 3 && s_.substr(0, 3) == "\xEF\xBB\xBF") {  // UTF-8 byte-order mark
      pos_ = lineStart_ = 3;
    }
    skipWhitespace();
    Value v;
    if (parseValue(v, 0)) {
      skipWhitespace();
      if (pos_ != s_.size()) fail("unexpected " + describeByte(s_[pos_]) + " after the JSON value");
    }
    if (!error_.empty()) {
      r.error = "line " + std::to_string(errorLine_) + ", column " + std::to_string(errorColumn_) +
                ": " + error_;
      r.line = errorLine_;
      r.column = errorColumn_;
      r.path = errorPath_;
      return r;
    }
    r.value = std::move(v);
    return r;
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::size_t lineStart_ = 0;
  std::string error_;
  std::string errorPath_;
  int errorLine_ = 0, errorColumn_ = 0;
  std::vector<std::string> path_;  // keys and [indices] down to the value being parsed

  std::string pathText() const {
    std::string p;
    for (const std::string& seg : path_) {
      if (!p.empty() && seg.front() != '[') p += '.';
      p += seg;
    }
    return p;
  }

  int column() const { return static_cast<int>(pos_ - lineStart_) + 1; }

  /// Records the first error at the current position; always returns false.
  bool fail(std::string what) { return failAt(pos_, std::move(what)); }
  bool failAt(std::size_t at, std::string what) {
    if (error_.empty()) {
      error_ = std::move(what);
      errorPath_ = pathText();
      if (!errorPath_.empty()) error_ += " (at \"" + errorPath_ + "\")";
      errorLine_ = line_;
      errorColumn_ = static_cast<int>(at - lineStart_) + 1;
    }
    return false;
  }

  void skipWhitespace() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == '\n') {
        ++pos_;
        ++line_;
        lineStart_ = pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else {
        break;
      }
    }
  }

  bool parseValue(Value& out, int depth) {
    if (pos_ >= s_.size()) return fail("unexpected end of input, expected a value");
    const int line = line_, col = column();
    bool ok = false;
    const char c = s_[pos_];
    if (c == '{') {
      ok = parseObject(out, depth + 1);
    } else if (c == '[') {
      ok = parseArray(out, depth + 1);
    } else if (c == '"') {
      std::string str;
      ok = parseString(str);
      if (ok) out = Value::string(std::move(str));
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      ok = parseNumber(out);
    } else if (c == 't' || c == 'f' || c == 'n' || c == 'N' || c == 'I') {
      ok = parseLiteral(out);
    } else {
      return fail("unexpected " + describeByte(c) + ", expected a value");
    }
    if (ok) out.setPosition(line, col);
    return ok;
  }

  bool parseLiteral(Value& out) {
    std::size_t end = pos_;
    while (end < s_.size() && ((s_[end] >= 'a' && s_[end] <= 'z') || (s_[end] >= 'A' && s_[end] <= 'Z'))) {
      ++end;
    }
    const std::string_view word = s_.substr(pos_, end - pos_);
    if (word == "true") {
      out = Value::boolean(true);
    } else if (word == "false") {
      out = Value::boolean(false);
    } else if (word == "null") {
      out = Value::null();
    } else if (word == "NaN" || word == "Infinity" || word == "nan" || word == "inf") {
      return fail(std::string("'") + std::string(word) + "' is not valid JSON: numbers must be finite");
    } else {
      return fail(std::string("invalid token '") + std::string(word.substr(0, 20)) + "'");
    }
    pos_ = end;
    return true;
  }

  bool parseNumber(Value& out) {
    // RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    const std::size_t start = pos_;
    std::size_t i = pos_;
    const auto digit = [&](std::size_t k) { return k < s_.size() && s_[k] >= '0' && s_[k] <= '9'; };
    if (s_[i] == '-') ++i;
    if (i < s_.size() && s_[i] == 'I') {
      return failAt(start, "'-Infinity' is not valid JSON: numbers must be finite");
    }
    if (!digit(i)) return failAt(i, "invalid number: expected a digit after '-'");
    if (s_[i] == '0') {
      ++i;
      if (digit(i)) return failAt(start, "invalid number: leading zeros are not allowed");
    } else {
      while (digit(i)) ++i;
    }
    if (i < s_.size() && s_[i] == '.') {
      ++i;
      if (!digit(i)) return failAt(i, "invalid number: expected a digit after '.'");
      while (digit(i)) ++i;
    }
    if (i < s_.size() && (s_[i] == 'e' || s_[i] == 'E')) {
      ++i;
      if (i < s_.size() && (s_[i] == '+' || s_[i] == '-')) ++i;
      if (!digit(i)) return failAt(i, "invalid number: expected a digit in the exponent");
      while (digit(i)) ++i;
    }
    const std::string_view text = s_.substr(start, i - start);
    double x = 0.0;
    const auto res = std::from_chars(text.data(), text.data() + text.size(), x);
    if (res.ec == std::errc::result_out_of_range) {
      return failAt(start, std::string("number ") + std::string(text.substr(0, 40)) +
                               " is out of the range of a double");
    }
    if (res.ec != std::errc() || res.ptr != text.data() + text.size() || !std::isfinite(x)) {
      return failAt(start, std::string("invalid number ") + std::string(text.substr(0, 40)));
    }
    pos_ = i;
    out = Value::number(x);
    return true;
  }

  bool parseHex4(std::uint32_t& cp) {
    if (pos_ + 4 > s_.size()) return fail("truncated \\u escape");
    cp = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[pos_ + k];
      cp <<= 4;
      if (h >= '0' && h <= '9') cp |= static_cast<std::uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') cp |= static_cast<std::uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') cp |= static_cast<std::uint32_t>(h - 'A' + 10);
      else return failAt(pos_ + k, "invalid hex digit " + describeByte(h) + " in \\u escape");
    }
    pos_ += 4;
    return true;
  }

  bool parseString(std::string& out) {
    const std::size_t start = pos_;
    ++pos_;  // opening quote
    while (true) {
      if (pos_ >= s_.size()) return failAt(start, "unterminated string");
      const char c = s_[pos_];
      const auto uc = static_cast<unsigned char>(c);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (uc < 0x20) {
        return fail("control character " + describeByte(c) + " in string (use an escape)");
      }
      if (c == '\\') {
        const std::size_t escStart = pos_;
        ++pos_;
        if (pos_ >= s_.size()) return failAt(start, "unterminated string");
        const char e = s_[pos_++];
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            std::uint32_t cp;
            if (!parseHex4(cp)) return false;
            if (cp >= 0xDC00 && cp <= 0xDFFF) {
              return failAt(escStart, "lone low surrogate in \\u escape");
            }
            if (cp >= 0xD800 && cp <= 0xDBFF) {  // needs a following low surrogate
              if (pos_ + 2 > s_.size() || s_[pos_] != '\\' || s_[pos_ + 1] != 'u') {
                return failAt(escStart, "high surrogate in \\u escape without a low surrogate");
              }
              pos_ += 2;
              std::uint32_t lo;
              if (!parseHex4(lo)) return false;
              if (lo < 0xDC00 || lo > 0xDFFF) {
                return failAt(escStart, "high surrogate in \\u escape without a low surrogate");
              }
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            appendUtf8(out, cp);
            break;
          }
          default:
            return failAt(escStart, std::string("invalid escape '\\") + std::string(1, e) + "'");
        }
        continue;
      }
      const std::size_t n = utf8SequenceLength(s_, pos_);
      if (n == 0) return fail("invalid UTF-8 byte " + describeByte(c) + " in string");
      out.append(s_.substr(pos_, n));
      pos_ += n;
    }
  }

  bool parseArray(Value& out, int depth) {
    if (depth > kMaxDepth) {
      return fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    ++pos_;  // '['
    out = Value::array();
    skipWhitespace();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      skipWhitespace();
      Value item;
      path_.push_back(std::string("[") + std::to_string(out.asArray().size()) + "]");
      if (!parseValue(item, depth)) return false;
      path_.pop_back();
      out.push(std::move(item));
      skipWhitespace();
      if (pos_ >= s_.size()) return fail("unexpected end of input in array, expected ',' or ']'");
      if (s_[pos_] == ',') {
        ++pos_;
        skipWhitespace();
        if (pos_ < s_.size() && s_[pos_] == ']') return fail("trailing comma in array");
        continue;
      }
      if (s_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return fail("unexpected " + describeByte(s_[pos_]) + " in array, expected ',' or ']'");
    }
  }

  bool parseObject(Value& out, int depth) {
    if (depth > kMaxDepth) {
      return fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    ++pos_;  // '{'
    out = Value::object();
    skipWhitespace();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skipWhitespace();
      if (pos_ >= s_.size()) return fail("unexpected end of input in object, expected a key");
      if (s_[pos_] != '"') {
        return fail("unexpected " + describeByte(s_[pos_]) + " in object, expected a quoted key");
      }
      const std::size_t keyPos = pos_;
      std::string key;
      if (!parseString(key)) return false;
      if (out.find(key)) return failAt(keyPos, "duplicate key \"" + key + "\"");
      skipWhitespace();
      if (pos_ >= s_.size() || s_[pos_] != ':') {
        return fail("expected ':' after key \"" + key + "\"");
      }
      ++pos_;
      skipWhitespace();
      Value item;
      path_.push_back(key);
      if (!parseValue(item, depth)) return false;
      path_.pop_back();
      out.add(std::move(key), std::move(item));
      skipWhitespace();
      if (pos_ >= s_.size()) return fail("unexpected end of input in object, expected ',' or '}'");
      if (s_[pos_] == ',') {
        ++pos_;
        skipWhitespace();
        if (pos_ < s_.size() && s_[pos_] == '}') return fail("trailing comma in object");
        continue;
      }
      if (s_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return fail("unexpected " + describeByte(s_[pos_]) + " in object, expected ',' or '}'");
    }
  }
};

void writeValue(std::string& out, const Value& v, int indent, int level) {
  const auto newline = [&](int lvl) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * lvl), ' ');
  };
  switch (v.type()) {
    case Type::Null: out += "null"; return;
    case Type::Bool: out += v.asBool() ? "true" : "false"; return;
    case Type::Number:
      out += std::isfinite(v.asNumber()) ? formatNumber(v.asNumber()) : std::string("null");
      return;
    case Type::String: out += quote(v.asString()); return;
    case Type::Array: {
      const Array& a = v.asArray();
      if (a.empty()) {
        out += "[]";
        return;
      }
      // Arrays of scalars stay on one line (short lists of names or numbers read better so).
      bool scalars = true;
      for (const Value& x : a) scalars = scalars && !x.isArray() && !x.isObject();
      out += '[';
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (i) out += (scalars && indent >= 0) ? ", " : ",";
        if (!scalars) newline(level + 1);
        writeValue(out, a[i], indent, level + 1);
      }
      if (!scalars) newline(level);
      out += ']';
      return;
    }
    case Type::Object: {
      const Object& o = v.asObject();
      if (o.empty()) {
        out += "{}";
        return;
      }
      out += '{';
      for (std::size_t i = 0; i < o.size(); ++i) {
        if (i) out += ',';
        newline(level + 1);
        out += quote(o[i].first);
        out += indent < 0 ? ":" : ": ";
        writeValue(out, o[i].second, indent, level + 1);
      }
      newline(level);
      out += '}';
      return;
    }
  }
}

}  // namespace

ParseResult parse(std::string_view text) { return Parser(text).run(); }

std::string readTextFile(const std::filesystem::path& path, std::string& out, std::size_t maxBytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return path.string() + ": is a directory";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code exists;
    return path.string() + (std::filesystem::exists(path, exists) ? ": cannot open the file for reading"
                                                                 : ": no such file");
  }
  out.clear();
  char buf[1 << 14];
  while (in) {
    in.read(buf, sizeof buf);
    out.append(buf, static_cast<std::size_t>(in.gcount()));
    if (out.size() > maxBytes) {
      out.clear();
      return path.string() + ": file is larger than " + std::to_string(maxBytes) + " bytes";
    }
  }
  if (in.bad()) return path.string() + ": read error";
  return {};
}

ParseResult parseFile(const std::filesystem::path& path, std::size_t maxBytes) {
  std::string text;
  std::string error = readTextFile(path, text, maxBytes);
  if (!error.empty()) {
    ParseResult r;
    r.error = std::move(error);
    return r;
  }
  ParseResult r = parse(text);
  if (!r.ok()) r.error = path.string() + ": " + r.error;
  return r;
}

std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    const auto uc = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; ++i; continue;
      case '\\': out += "\\\\"; ++i; continue;
      case '\b': out += "\\b"; ++i; continue;
      case '\f': out += "\\f"; ++i; continue;
      case '\n': out += "\\n"; ++i; continue;
      case '\r': out += "\\r"; ++i; continue;
      case '\t': out += "\\t"; ++i; continue;
      default: break;
    }
    if (uc < 0x20 || uc == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04X", uc);
      out += buf;
      ++i;
      continue;
    }
    const std::size_t n = utf8SequenceLength(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  out += '"';
  return out;
}

std::string write(const Value& value, int indent) {
  std::string out;
  writeValue(out, value, indent, 0);
  if (indent >= 0) out += '\n';
  return out;
}

}  // namespace ricochet::json
