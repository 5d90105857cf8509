#pragma once
// Strict JSON (RFC 8259) for scenario files, `describe --json` and run summaries, read through
// nlohmann::json's SAX parser into a plain tree that remembers where each value starts.
//
// Reader rules (everything else is an error with line and column):
//  * one value per document, optional UTF-8 byte-order mark, whitespace = space, tab, CR, LF;
//  * strings: valid UTF-8 only (no overlong forms, no surrogates, <= U+10FFFF), no raw control
//    characters, escapes \" \\ \/ \b \f \n \r \t \uXXXX (surrogate pairs combined, lone halves
//    rejected);
//  * numbers: the RFC grammar (no leading zeros, no '+', no '.5' or '5.', no NaN/Infinity
//    tokens), converted with std::from_chars; values that overflow to +-inf or underflow to 0
//    are rejected. An integer literal that fits in 64 bits also keeps its exact value;
//  * objects: duplicate keys rejected; member order is kept;
//  * nesting depth limited (kMaxDepth), so hostile input such as 100000 '[' fails cleanly.
// nlohmann checks the grammar, escapes and UTF-8; json_reader.cpp adds positions, duplicate
// keys, the depth limit, exact doubles and the messages.
//
// Writer: integers as integers, other numbers in shortest round-trip form (formatNumber),
// strings escaped by nlohmann (control characters as \u00xx, valid UTF-8 passed through).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ricochet::json {

inline constexpr int kMaxDepth = 64;                          ///< arrays/objects nested deeper fail
inline constexpr std::size_t kMaxFileBytes = std::size_t(1) << 20;  ///< readFile() limit (1 MiB)

enum class Type { Null, Bool, Number, String, Array, Object };

/// "null", "boolean", "number", "string", "array", "object" (for messages).
const char* typeName(Type type);
/// The same with an article: "null", "a boolean", "a number", "a string", "an array", "an object".
const char* typeNameWithArticle(Type type);

class Value;
using Array = std::vector<Value>;
using Member = std::pair<std::string, Value>;
using Object = std::vector<Member>;

/// One JSON value. A plain tree; objects keep their members in document order.
class Value {
 public:
  Value() = default;  // null
  static Value null() { return Value(); }
  static Value boolean(bool b);
  static Value number(double x);
  /// A number written as an integer (counts: steps, impacts, rows).
  static Value integer(std::int64_t n);
  static Value string(std::string s);
  static Value array(Array items = {});
  static Value object(Object members = {});

  Type type() const { return type_; }
  bool isNull() const { return type_ == Type::Null; }
  bool isBool() const { return type_ == Type::Bool; }
  bool isNumber() const { return type_ == Type::Number; }
  /// A number built by integer(), or parsed from an integer literal within 64 bits ("-0" is
  /// not one: it keeps its sign as a double).
  bool isInteger() const { return type_ == Type::Number && isInteger_; }
  bool isString() const { return type_ == Type::String; }
  bool isArray() const { return type_ == Type::Array; }
  bool isObject() const { return type_ == Type::Object; }

  bool asBool() const { return bool_; }
  /// Every number, integers included (the nearest double).
  double asNumber() const { return number_; }
  /// The exact value of an integer (isInteger()); 0 otherwise.
  std::int64_t asInteger() const { return integer_; }
  const std::string& asString() const { return string_; }
  const Array& asArray() const { return array_; }
  const Object& asObject() const { return object_; }
  Array& asArray() { return array_; }
  Object& asObject() { return object_; }

  /// Member `key` of an object, or nullptr (also when this is not an object).
  const Value* find(std::string_view key) const;
  /// Appends a member to an object (no duplicate check: the writer's caller owns the keys).
  Value& add(std::string key, Value value);
  /// Appends an element to an array.
  Value& push(Value value);

  /// Where the value starts in the parsed text (1-based); 0 for values built in code.
  int line() const { return line_; }
  int column() const { return column_; }
  void setPosition(int line, int column) { line_ = line; column_ = column; }

 private:
  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0.0;
  std::int64_t integer_ = 0;
  bool isInteger_ = false;
  std::string string_;
  Array array_;
  Object object_;
  int line_ = 0;
  int column_ = 0;
};

/// Outcome of parsing: `value` on success, otherwise `error` = "line L, column C: what", followed
/// by ` (at "parameters.m")` when the error lies inside a member or element.
struct ParseResult {
  std::optional<Value> value;
  std::string error;
  int line = 0;    ///< of the error, 1-based (0 when none)
  int column = 0;  ///< of the error, 1-based, counted in bytes
  std::string path;  ///< where the error is, e.g. "parameters.m" or "a[2]"; empty at top level
  bool ok() const { return value.has_value(); }
};

/// Parses one JSON document (the whole text).
ParseResult parse(std::string_view text);

/// Reads a file of at most `maxBytes` bytes into `out`. Empty on success, otherwise a one-line
/// message naming the path ("cannot open ...", "... is larger than 1048576 bytes").
std::string readTextFile(const std::filesystem::path& path, std::string& out,
                         std::size_t maxBytes = kMaxFileBytes);

/// readTextFile() then parse(); errors start with the path: "FILE: line L, column C: what".
ParseResult parseFile(const std::filesystem::path& path, std::size_t maxBytes = kMaxFileBytes);

/// `s` as a JSON string literal, with quotes. Invalid UTF-8 is replaced by U+FFFD so the output
/// is always valid JSON.
std::string quote(std::string_view s);

/// Serialises `value`. indent < 0: compact, one line; otherwise pretty-printed with `indent`
/// spaces per level and a trailing newline; arrays of scalars stay on one line. Integers are
/// written as integers ("steps": 100000), other numbers in shortest round-trip form (1e+08),
/// non-finite ones (which JSON cannot represent) as null.
std::string write(const Value& value, int indent = 2);

}  // namespace ricochet::json
