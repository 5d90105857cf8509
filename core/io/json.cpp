// json::Value, the writer and file reading; json::parse() is in json_reader.cpp.

#include "core/io/json.hpp"

#include "core/model/parameter.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
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

Value Value::integer(std::int64_t n) {
  Value v;
  v.type_ = Type::Number;
  v.number_ = static_cast<double>(n);
  v.integer_ = n;
  v.isInteger_ = true;
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
      if (v.isInteger()) {
        out += std::to_string(v.asInteger());
      } else {
        out += std::isfinite(v.asNumber()) ? formatNumber(v.asNumber()) : std::string("null");
      }
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
  // nlohmann's serializer: the usual escapes, other control characters as \u00xx, invalid
  // UTF-8 replaced by U+FFFD.
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string write(const Value& value, int indent) {
  std::string out;
  writeValue(out, value, indent, 0);
  if (indent >= 0) out += '\n';
  return out;
}

}  // namespace ricochet::json
