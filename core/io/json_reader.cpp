// json::parse(): nlohmann::json's SAX parser checks the grammar, the escapes and the UTF-8 of
// strings; TreeBuilder turns its events into a json::Value tree and adds what nlohmann does not
// do: where each value starts, duplicate keys, the depth limit, numbers converted exactly with
// std::from_chars (underflow refused), and messages that say what was expected where.
//
// nlohmann's SAX events carry no positions, so the builder follows the text with its own cursor:
// between two events there is only whitespace, ',' and ':', and each event's token has already
// been checked, so finding where it ends is simple. When nlohmann reports an error, the cursor
// and the builder's state (inside an array or an object, after a key, a value or a comma) say
// which token failed and what was expected there; nlohmann's lexer message says what is wrong
// inside a string or a number.

#include "core/io/json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <system_error>
#include <unordered_set>

namespace ricochet::json {
namespace {

using Nlohmann = nlohmann::json;

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isContinuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

/// A byte for messages: printable ASCII as 'c', anything else as 0xNN.
std::string describeByte(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  if (c >= 0x20 && c < 0x7F) return std::string("'") + ch + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", c);
  return buf;
}

class TreeBuilder final : public nlohmann::json_sax<Nlohmann> {
 public:
  explicit TreeBuilder(std::string_view text) : s_(text) {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = lineStart_ = 3;  // UTF-8 byte-order mark
  }

  ParseResult run() {
    const bool accepted = Nlohmann::sax_parse(s_.data(), s_.data() + s_.size(), this);
    if (accepted) {
      // nlohmann takes a NUL byte for the end of the input; the text must really end here.
      skipWhitespace();
      if (pos_ < s_.size())
        failAt(pos_, "unexpected " + describeByte(s_[pos_]) + " after the JSON value", "");
    }
    ParseResult r;
    if (!error_.empty()) {
      r.error = "line " + std::to_string(errorLine_) + ", column " + std::to_string(errorColumn_) +
                ": " + error_;
      r.line = errorLine_;
      r.column = errorColumn_;
      r.path = errorPath_;
      return r;
    }
    r.value = std::move(root_);
    return r;
  }

  bool null() override { return scalar(Value::null(), 4); }
  bool boolean(bool b) override { return scalar(Value::boolean(b), b ? 4 : 5); }
  bool number_integer(number_integer_t /*value*/) override { return number(); }
  bool number_unsigned(number_unsigned_t /*value*/) override { return number(); }
  bool number_float(number_float_t /*value*/, const string_t& /*text*/) override {
    return number();
  }
  bool string(string_t& text) override {
    const std::size_t start = tokenStart();
    return attach(Value::string(std::move(text)), start, stringEnd(start));
  }
  bool binary(binary_t& /*bytes*/) override {  // JSON text has none
    return failAt(tokenStart(), "binary data in JSON text", "");
  }

  bool start_object(std::size_t /*elements*/) override { return open(Value::object()); }
  bool start_array(std::size_t /*elements*/) override { return open(Value::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& text) override {
    const std::size_t start = tokenStart();
    Frame& f = stack_.back();
    if (!f.keys.insert(text).second)
      return failAt(start, "duplicate key \"" + text + "\"", path(Segment::None));
    f.key = std::move(text);
    pos_ = stringEnd(start);
    last_ = Event::Key;
    return true;
  }

  bool parse_error(std::size_t position, const std::string& /*token*/,
                   const Nlohmann::exception& e) override {
    // `position` counts the bytes nlohmann read, the one it stopped at included. Its message
    // reads "... - WHAT; last read: 'TEXT'": only WHAT is nlohmann's own words.
    std::string_view what = e.what();
    what = what.substr(0, what.find("; last read: "));
    if (const std::size_t dash = what.find(" - "); dash != std::string_view::npos)
      what.remove_prefix(dash + 3);
    explain(position > 0 ? position - 1 : 0, e.id == 406, what);
    return false;
  }

 private:
  /// The last event: what the text may continue with.
  enum class Event { None, Open, Key, Value };
  /// Which member or element of the innermost container a path names.
  enum class Segment { None, Next, Last };

  struct Frame {
    Value value;                           // the array or object being filled
    std::string key;                       // objects: the key of the member that comes next
    std::unordered_set<std::string> keys;  // objects: the keys so far
  };

  std::string_view s_;
  std::size_t pos_ = 0;  // end of the last token with an event
  int line_ = 1;
  std::size_t lineStart_ = 0;
  std::vector<Frame> stack_;
  std::optional<Value> root_;
  Event last_ = Event::None;
  std::size_t lastStart_ = 0;  // where the last value's token starts
  char lastKind_ = '\0';       // first byte of the last scalar token ('"', '-', a digit, a letter)
  std::string error_;
  std::string errorPath_;
  int errorLine_ = 0, errorColumn_ = 0;

  void skipWhitespace() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == '\n') {
        lineStart_ = ++pos_;
        ++line_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else {
        break;
      }
    }
  }

  /// Start of the token of the current event: past whitespace and at most one ',' or ':'.
  std::size_t tokenStart() {
    skipWhitespace();
    if (pos_ < s_.size() && (s_[pos_] == ',' || s_[pos_] == ':')) {
      ++pos_;
      skipWhitespace();
    }
    return pos_;
  }

  /// End of the (checked) string token that starts at `start`.
  std::size_t stringEnd(std::size_t start) const {
    std::size_t i = start + 1;
    while (s_[i] != '"') i += s_[i] == '\\' ? 2 : 1;
    return i + 1;
  }

  /// End of the number token that starts at `start` (the RFC grammar, as nlohmann read it).
  std::size_t numberEnd(std::size_t start) const {
    std::size_t i = start;
    const auto digits = [&] {
      while (i < s_.size() && isDigit(s_[i])) ++i;
    };
    if (i < s_.size() && s_[i] == '-') ++i;
    if (i < s_.size() && s_[i] == '0')
      ++i;
    else
      digits();
    if (i < s_.size() && s_[i] == '.') {
      ++i;
      digits();
    }
    if (i < s_.size() && (s_[i] == 'e' || s_[i] == 'E')) {
      ++i;
      if (i < s_.size() && (s_[i] == '+' || s_[i] == '-')) ++i;
      digits();
    }
    return i;
  }

  std::string path(Segment segment) const {
    std::string p;
    for (std::size_t k = 0; k < stack_.size(); ++k) {
      const Frame& f = stack_[k];
      const bool innermost = k + 1 == stack_.size();
      if (innermost && segment == Segment::None) break;
      const bool lastOne = innermost && segment == Segment::Last;
      if (f.value.isArray()) {
        const std::size_t n = f.value.asArray().size();
        p += '[';
        p += std::to_string(lastOne ? n - 1 : n);
        p += ']';
      } else {
        if (!p.empty()) p += '.';
        p += lastOne ? f.value.asObject().back().first : f.key;
      }
    }
    return p;
  }

  /// Records the first error, at byte `at` of the current line; always returns false.
  bool failAt(std::size_t at, std::string what, std::string where) {
    if (error_.empty()) {
      error_ = std::move(what);
      errorPath_ = std::move(where);
      if (!errorPath_.empty()) error_ += " (at \"" + errorPath_ + "\")";
      errorLine_ = line_;
      errorColumn_ = static_cast<int>(at - lineStart_) + 1;
    }
    return false;
  }

  /// Adds a finished value (its last token is [start, end)) to its container, or makes it the
  /// document.
  bool attach(Value v, std::size_t start, std::size_t end) {
    const bool container = v.isArray() || v.isObject();  // positioned at its opening bracket
    if (!container) v.setPosition(line_, static_cast<int>(start - lineStart_) + 1);
    lastKind_ = container ? '\0' : s_[start];
    if (stack_.empty()) {
      root_ = std::move(v);
    } else if (stack_.back().value.isArray()) {
      stack_.back().value.push(std::move(v));
    } else {
      stack_.back().value.add(std::move(stack_.back().key), std::move(v));
    }
    pos_ = end;
    lastStart_ = start;
    last_ = Event::Value;
    return true;
  }

  bool scalar(Value v, std::size_t length) {
    const std::size_t start = tokenStart();
    return attach(std::move(v), start, start + length);
  }

  bool number() {
    const std::size_t start = tokenStart();
    const std::size_t end = numberEnd(start);
    const std::string_view text = s_.substr(start, end - start);
    double x = 0.0;
    const auto res = std::from_chars(text.data(), text.data() + text.size(), x);
    if (res.ec == std::errc::result_out_of_range) return outOfRange(start, text);
    if (res.ec != std::errc() || res.ptr != text.data() + text.size()) {
      return failAt(start, "invalid number " + std::string(text.substr(0, 40)),
                    path(Segment::Next));
    }
    std::int64_t n = 0;
    const bool integral =
        text.find_first_of(".eE") == std::string_view::npos && text != "-0" &&
        std::from_chars(text.data(), text.data() + text.size(), n).ec == std::errc();
    return attach(integral ? Value::integer(n) : Value::number(x), start, end);
  }

  bool outOfRange(std::size_t start, std::string_view text) {
    return failAt(start,
                  "number " + std::string(text.substr(0, 40)) + " is out of the range of a double",
                  path(Segment::Next));
  }

  bool open(Value container) {
    const std::size_t start = tokenStart();
    if (stack_.size() >= static_cast<std::size_t>(kMaxDepth)) {
      return failAt(start, "nesting deeper than " + std::to_string(kMaxDepth) + " levels",
                    path(Segment::Next));
    }
    container.setPosition(line_, static_cast<int>(start - lineStart_) + 1);
    stack_.push_back(Frame{std::move(container), {}, {}});
    pos_ = start + 1;
    last_ = Event::Open;
    return true;
  }

  bool close() {
    const std::size_t start = tokenStart();
    Value done = std::move(stack_.back().value);
    stack_.pop_back();
    return attach(std::move(done), start, start + 1);
  }

  /// nlohmann stopped at byte `stop`: find the token that failed and say what was wrong with it.
  void explain(std::size_t stop, bool overflow, std::string_view lexer) {
    const bool inArray = !stack_.empty() && stack_.back().value.isArray();
    const bool inObject = !stack_.empty() && !inArray;
    const std::size_t tokenEnd = pos_;
    skipWhitespace();
    const std::size_t n = s_.size();
    // A number or literal glued to the one before: "01", "-01.5", "truex".
    if (last_ == Event::Value && lastKind_ != '\0' && lastKind_ != '"' && pos_ == tokenEnd &&
        pos_ < n) {
      const std::string_view prev = s_.substr(lastStart_, pos_ - lastStart_);
      if ((prev == "0" || prev == "-0") && isDigit(s_[pos_])) {
        failAt(lastStart_, "invalid number: leading zeros are not allowed", path(Segment::Last));
        return;
      }
      if (isLetter(lastKind_) && isLetter(s_[pos_])) {
        literalError(lastStart_, path(Segment::Last));
        return;
      }
    }
    const char c = pos_ < n ? s_[pos_] : '\0';
    const std::string unexpected =
        pos_ < n ? "unexpected " + describeByte(c) : "unexpected end of input";
    if (last_ == Event::Value && stack_.empty()) {
      failAt(pos_, unexpected + " after the JSON value", "");
      return;
    }
    bool afterComma = false;
    if (last_ == Event::Value) {  // inside a container, after a member or element
      const char close = inArray ? ']' : '}';
      if (c != ',' || pos_ >= n) {
        failAt(pos_,
               unexpected + (inArray ? " in array" : " in object") + ", expected ',' or '" + close +
                   "'",
               path(Segment::None));
        return;
      }
      ++pos_;
      skipWhitespace();
      afterComma = true;
    } else if (last_ == Event::Key) {
      if (c != ':' || pos_ >= n) {
        failAt(pos_, "expected ':' after key \"" + stack_.back().key + "\"", path(Segment::None));
        return;
      }
      ++pos_;
      skipWhitespace();
    }
    const bool atEnd = pos_ >= n;
    const char t = atEnd ? '\0' : s_[pos_];
    if (inObject && last_ != Event::Key) {  // a key comes next
      if (atEnd) {
        failAt(pos_, "unexpected end of input in object, expected a key", path(Segment::None));
      } else if (t == '}' && afterComma) {
        failAt(pos_, "trailing comma in object", path(Segment::None));
      } else if (t != '"') {
        failAt(pos_, "unexpected " + describeByte(t) + " in object, expected a quoted key",
               path(Segment::None));
      } else {
        stringError(pos_, stop, lexer, path(Segment::None));
      }
      return;
    }
    // A value comes next.
    if (inArray && t == ']' && afterComma && !atEnd) {
      failAt(pos_, "trailing comma in array", path(Segment::None));
      return;
    }
    const std::string where = path(Segment::Next);
    if (atEnd) {
      failAt(pos_, "unexpected end of input, expected a value", where);
    } else if (t == '"') {
      stringError(pos_, stop, lexer, where);
    } else if (t == '-' || isDigit(t)) {
      numberError(pos_, stop, overflow, lexer, where);
    } else if (t == 't' || t == 'f' || t == 'n' || t == 'N' || t == 'I') {
      literalError(pos_, where);
    } else {
      failAt(pos_, "unexpected " + describeByte(t) + ", expected a value", where);
    }
  }

  void literalError(std::size_t start, const std::string& where) {
    std::size_t end = start;
    while (end < s_.size() && isLetter(s_[end])) ++end;
    const std::string word(s_.substr(start, end - start));
    if (word == "NaN" || word == "Infinity" || word == "nan" || word == "inf") {
      failAt(start, "'" + word + "' is not valid JSON: numbers must be finite", where);
    } else {
      failAt(start, "invalid token '" + word.substr(0, 20) + "'", where);
    }
  }

  void numberError(std::size_t start, std::size_t stop, bool overflow, std::string_view lexer,
                   const std::string& where) {
    if (overflow) {
      outOfRange(start, s_.substr(start, numberEnd(start) - start));
    } else if (lexer.find("after '-'") != std::string_view::npos) {
      if (stop < s_.size() && s_[stop] == 'I') {
        failAt(start, "'-Infinity' is not valid JSON: numbers must be finite", where);
      } else {
        failAt(stop, "invalid number: expected a digit after '-'", where);
      }
    } else if (lexer.find("after '.'") != std::string_view::npos) {
      failAt(stop, "invalid number: expected a digit after '.'", where);
    } else if (lexer.find("exponent") != std::string_view::npos) {
      failAt(stop, "invalid number: expected a digit in the exponent", where);
    } else {
      failAt(start, "invalid number " + std::string(s_.substr(start, 40)), where);
    }
  }

  /// The string token at `start` failed at byte `stop` (the end of the text when it ran out).
  void stringError(std::size_t start, std::size_t stop, std::string_view lexer,
                   const std::string& where) {
    const auto has = [&](const char* what) { return lexer.find(what) != std::string_view::npos; };
    const bool atEnd = stop >= s_.size();
    const std::size_t sequence = utf8SequenceStart(stop);
    if (has("UTF-8") && sequence < s_.size()) {
      failAt(sequence, "invalid UTF-8 byte " + describeByte(s_[sequence]) + " in string", where);
    } else if (has("control character") && !atEnd) {
      failAt(stop, "control character " + describeByte(s_[stop]) + " in string (use an escape)",
             where);
    } else if (has("missing closing quote") || (has("after backslash") && atEnd)) {
      failAt(start, "unterminated string", where);
    } else if (has("after backslash")) {
      failAt(stop - 1, std::string("invalid escape '\\") + s_[stop] + "'", where);
    } else if (has("4 hex digits")) {
      const std::size_t digits = s_.rfind("\\u", stop - 2) + 2;
      if (digits + 4 > s_.size()) {
        failAt(digits, "truncated \\u escape", where);
      } else {
        failAt(stop, "invalid hex digit " + describeByte(s_[stop]) + " in \\u escape", where);
      }
    } else if (has("must follow U+D800")) {
      failAt(s_.rfind("\\u", stop), "lone low surrogate in \\u escape", where);
    } else if (has("must be followed by U+DC00")) {
      // `stop` is just after the high surrogate's escape, or the last digit of the escape after it.
      std::size_t high = s_.rfind("\\u", stop);
      if (high + 5 == stop) high = s_.rfind("\\u", high - 1);
      failAt(high, "high surrogate in \\u escape without a low surrogate", where);
    } else {
      failAt(std::min(stop, s_.size()), "invalid string: " + std::string(lexer.substr(0, 80)),
             where);
    }
  }

  /// First byte of the UTF-8 sequence that byte `stop` breaks. The bytes before it were
  /// accepted, so they end in complete sequences or in the valid head of that sequence.
  std::size_t utf8SequenceStart(std::size_t stop) const {
    std::size_t k = stop;
    std::size_t continuations = 0;
    while (k > 0 && continuations < 3 && isContinuationByte(s_[k - 1])) {
      --k;
      ++continuations;
    }
    if (k == 0) return stop;
    const auto lead = static_cast<unsigned char>(s_[k - 1]);
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 1;
    return length > continuations + 1 ? k - 1 : stop;
  }
};

}  // namespace

ParseResult parse(std::string_view text) {
  return TreeBuilder(text).run();
}

}  // namespace ricochet::json
