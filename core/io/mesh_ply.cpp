// PLY: a header, then the elements' data in the order the header declares them.
//
//   ply
//   format ascii 1.0 | binary_little_endian 1.0 | binary_big_endian 1.0
//   comment ... / obj_info ...
//   element vertex N             properties x, y, z of any numeric type (others are skipped)
//   property float x ...
//   element face M               a list property vertex_indices (or vertex_index) of any
//   property list uchar int vertex_indices   integer count and index types
//   end_header
//
// Elements and properties may come in any order; other elements (edges, materials, ...) and
// other properties, lists included, are skipped by their size. Types: char/int8, uchar/uint8,
// short/int16, ushort/uint16, int/int32, uint/uint32, float/float32, double/float64. In ASCII
// each element is one line. Every declared count is checked against what the rest of the file
// can hold before anything is allocated, and the data must end where the counts say.

#include "core/io/mesh_formats.hpp"
#include "core/io/mesh_reader.hpp"
#include "core/model/parameter.hpp"

#include <bit>
#include <cmath>
#include <limits>

namespace ricochet::io::mesh {

namespace {

enum class Type { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

struct TypeName {
  const char* name;
  const char* alias;
  Type type;
  int size;
};
constexpr TypeName kTypes[] = {
    {"char", "int8", Type::Int8, 1},        {"uchar", "uint8", Type::UInt8, 1},
    {"short", "int16", Type::Int16, 2},     {"ushort", "uint16", Type::UInt16, 2},
    {"int", "int32", Type::Int32, 4},       {"uint", "uint32", Type::UInt32, 4},
    {"float", "float32", Type::Float32, 4}, {"double", "float64", Type::Float64, 8}};

bool typeOf(std::string_view word, Type& out) {
  for (const TypeName& t : kTypes) {
    if (word == t.name || word == t.alias) {
      out = t.type;
      return true;
    }
  }
  return false;
}
int sizeOf(Type t) {
  return kTypes[int(t)].size;
}
const char* nameOf(Type t) {
  return kTypes[int(t)].name;
}
bool isInteger(Type t) {
  return t != Type::Float32 && t != Type::Float64;
}

/// The range of an integer type (for list counts and indices in ASCII).
std::int64_t lowest(Type t) {
  switch (t) {
    case Type::Int8:
      return -128;
    case Type::Int16:
      return -32768;
    case Type::Int32:
      return std::numeric_limits<std::int32_t>::min();
    default:
      return 0;
  }
}
std::int64_t highest(Type t) {
  switch (t) {
    case Type::Int8:
      return 127;
    case Type::UInt8:
      return 255;
    case Type::Int16:
      return 32767;
    case Type::UInt16:
      return 65535;
    case Type::Int32:
      return std::numeric_limits<std::int32_t>::max();
    default:
      return std::numeric_limits<std::uint32_t>::max();
  }
}

struct Property {
  std::string name;
  bool list = false;
  Type type = Type::Float32;  ///< a scalar's type, or a list's entries
  Type count = Type::UInt8;   ///< a list's count
};

struct Element {
  std::string name;
  std::uint64_t count = 0;
  std::vector<Property> properties;

  int find(std::string_view property) const {
    for (std::size_t i = 0; i < properties.size(); ++i) {
      if (properties[i].name == property) return int(i);
    }
    return -1;
  }
};

enum class Format { Ascii, Little, Big };

/// Binary data: values of any PLY type, in either byte order, never past the end.
class Binary {
 public:
  Binary(std::string_view data, bool big) : data_(data), big_(big) {}

  std::size_t left() const { return data_.size() - at_; }
  std::size_t offset() const { return at_; }

  /// False at the end of the data.
  bool number(Type t, double& out) {
    std::uint64_t bits = 0;
    if (!raw(sizeOf(t), bits)) return false;
    switch (t) {
      case Type::Int8:
        out = double(std::int8_t(bits));
        break;
      case Type::UInt8:
        out = double(std::uint8_t(bits));
        break;
      case Type::Int16:
        out = double(std::int16_t(bits));
        break;
      case Type::UInt16:
        out = double(std::uint16_t(bits));
        break;
      case Type::Int32:
        out = double(std::int32_t(bits));
        break;
      case Type::UInt32:
        out = double(std::uint32_t(bits));
        break;
      case Type::Float32:
        out = double(std::bit_cast<float>(std::uint32_t(bits)));
        break;
      case Type::Float64:
        out = std::bit_cast<double>(bits);
        break;
    }
    return true;
  }
  /// An integer type's value (exact in a double).
  bool integer(Type t, std::int64_t& out) {
    double x = 0.0;
    if (!number(t, x)) return false;
    out = std::int64_t(x);
    return true;
  }
  bool skip(std::uint64_t bytes) {
    if (bytes > left()) return false;
    at_ += std::size_t(bytes);
    return true;
  }

 private:
  bool raw(int size, std::uint64_t& bits) {
    if (std::size_t(size) > left()) return false;
    const auto* b = reinterpret_cast<const unsigned char*>(data_.data() + at_);
    for (int i = 0; i < size; ++i) {
      const int shift = 8 * (big_ ? size - 1 - i : i);
      bits |= std::uint64_t(b[i]) << shift;
    }
    at_ += std::size_t(size);
    return true;
  }

  std::string_view data_;
  std::size_t at_ = 0;
  bool big_ = false;
};

struct Header {
  Format format = Format::Ascii;
  std::vector<Element> elements;
  std::size_t dataOffset = 0;  ///< where the data starts
  std::size_t lines = 0;       ///< header lines (ASCII data starts at line lines + 1)
};

std::string readHeader(std::string_view bytes, Header& h) {
  Lines lines(bytes);
  std::string_view line, word;
  std::string error;
  if (!lines.next(line) || Words(line).rest() != "ply") {
    return "not a PLY file: its first line is not 'ply'";
  }
  bool format = false;
  while (lines.next(line)) {
    const std::string at = lineAt(lines.number());
    Words words(line);
    if (!words.next(word)) continue;
    if (word == "end_header") {
      if (!format) return at + "the header has no 'format' line";
      h.dataOffset = lines.offset() > bytes.size() ? bytes.size() : lines.offset();
      h.lines = lines.number();
      return {};
    }
    if (word == "comment" || word == "obj_info") continue;
    if (word == "format") {
      std::string_view kind, version;
      if (!words.next(kind) || !words.next(version) || words.next(word)) {
        return at + "expected 'format ascii|binary_little_endian|binary_big_endian 1.0'";
      }
      if (kind == "ascii") {
        h.format = Format::Ascii;
      } else if (kind == "binary_little_endian") {
        h.format = Format::Little;
      } else if (kind == "binary_big_endian") {
        h.format = Format::Big;
      } else {
        return at + "unknown format " + quote(kind) +
               " (ascii, binary_little_endian or binary_big_endian)";
      }
      if (version != "1.0") return at + "PLY version " + quote(version) + " (reads 1.0)";
      format = true;
      continue;
    }
    if (word == "element") {
      Element e;
      std::string_view name, count;
      if (!words.next(name) || !words.next(count) || words.next(word)) {
        return at + "expected 'element NAME COUNT'";
      }
      std::int64_t n = 0;
      if (!parseInteger(count, 0, std::numeric_limits<std::int64_t>::max(), n, error)) {
        return at + "element " + quote(name) + " count " + error;
      }
      for (const Element& other : h.elements) {
        if (other.name == name) return at + "element " + quote(name) + " is declared twice";
      }
      e.name = std::string(name);
      e.count = std::uint64_t(n);
      h.elements.push_back(std::move(e));
      continue;
    }
    if (word == "property") {
      if (h.elements.empty()) return at + "a property before any element";
      Element& e = h.elements.back();
      Property p;
      std::string_view type, name;
      if (!words.next(type)) return at + "expected 'property TYPE NAME'";
      if (type == "list") {
        std::string_view count;
        if (!words.next(count) || !words.next(type) || !words.next(name) || words.next(word)) {
          return at + "expected 'property list COUNT_TYPE INDEX_TYPE NAME'";
        }
        p.list = true;
        if (!typeOf(count, p.count)) return at + "unknown type " + quote(count);
        if (!isInteger(p.count)) {
          return at + "a list's count type must be an integer type, not " + quote(count);
        }
      } else if (!words.next(name) || words.next(word)) {
        return at + "expected 'property TYPE NAME'";
      }
      if (!typeOf(type, p.type)) return at + "unknown type " + quote(type);
      if (e.find(name) >= 0) {
        return at + "property " + quote(name) + " of element " + quote(e.name) +
               " is declared twice";
      }
      p.name = std::string(name);
      e.properties.push_back(std::move(p));
      continue;
    }
    return at + "unexpected " + quote(word) + " in the header";
  }
  return "the header has no 'end_header' line (is the file truncated?)";
}

/// Checks that the data can hold what the header declares, before anything is allocated: in
/// binary each element takes at least its scalars' and list counts' bytes; in ASCII each value
/// at least a character and a separator.
std::string checkCounts(const Header& h, std::size_t dataBytes) {
  std::uint64_t needed = 0;  // bytes, at least
  for (const Element& e : h.elements) {
    if (e.count == 0) continue;
    if (e.properties.empty()) {
      return "element " + quote(e.name) + " declares " + count(e.count, "item") +
             " but no properties";
    }
    std::uint64_t each = 0;
    for (const Property& p : e.properties) {
      each += h.format == Format::Ascii ? 2 : std::uint64_t(sizeOf(p.list ? p.count : p.type));
    }
    const std::uint64_t room = dataBytes + 1 - std::min<std::uint64_t>(needed, dataBytes + 1);
    if (e.count > room / each) {
      return "the header declares " + std::to_string(e.count) + " " + quote(e.name) +
             (h.format == Format::Ascii ? " lines of " + count(e.properties.size(), "value")
                                        : " items of at least " + count(each, "byte")) +
             ", more than the " + count(dataBytes, "byte") +
             " after the header can hold (is the file truncated?)";
    }
    needed += e.count * each;
  }
  return {};
}

/// One element's values, from ASCII lines or binary data.
class Values {
 public:
  Values(const Header& h, std::string_view data)
      : ascii_(h.format == Format::Ascii),
        lines_(data),
        binary_(data, h.format == Format::Big),
        firstLine_(h.lines) {}

  /// Starts the next item of `e`; false with `error` set at the end of the data.
  bool begin(const Element& e, std::uint64_t item, std::string& error) {
    if (!ascii_) return true;
    std::string_view line;
    while (lines_.next(line)) {
      words_ = Words(line);
      if (Words(line).rest().empty()) continue;
      return true;
    }
    error = "the file ends before " + quote(e.name) + " " + std::to_string(item + 1) + " of " +
            std::to_string(e.count) + " (is it truncated?)";
    return false;
  }
  /// Ends the item: in ASCII its line must hold nothing more.
  bool end(const Element& e, std::uint64_t item, std::string& error) {
    std::string_view word;
    if (ascii_ && words_.next(word)) {
      error = where() + "unexpected " + quote(word) + " after the last property of " +
              quote(e.name) + " " + std::to_string(item + 1);
      return false;
    }
    return true;
  }
  bool number(Type t, double& out, const char* what, std::string& error) {
    if (!ascii_) {
      if (binary_.number(t, out)) return true;
      error = std::string("the file ends inside ") + what + " (is it truncated?)";
      return false;
    }
    std::string_view word;
    if (!words_.next(word)) {
      error = where() + "the line ends before " + what;
      return false;
    }
    if (!parseDouble(word, out, error)) {
      error = where() + what + ": " + error;
      return false;
    }
    return true;
  }
  bool integer(Type t, std::int64_t& out, const char* what, std::string& error) {
    if (!ascii_) {
      if (binary_.integer(t, out)) return true;
      error = std::string("the file ends inside ") + what + " (is it truncated?)";
      return false;
    }
    std::string_view word;
    if (!words_.next(word)) {
      error = where() + "the line ends before " + what;
      return false;
    }
    if (!parseInteger(word, lowest(t), highest(t), out, error)) {
      error = where() + what + " " + error + " for type " + nameOf(t);
      return false;
    }
    return true;
  }
  /// Skips `n` values of type t (a skipped property, or a skipped list's entries).
  bool skip(Type t, std::uint64_t n, const char* what, std::string& error) {
    if (!ascii_) {
      if (binary_.skip(n * std::uint64_t(sizeOf(t)))) return true;
      error = std::string("the file ends inside ") + what + " (is it truncated?)";
      return false;
    }
    for (std::uint64_t i = 0; i < n; ++i) {
      double ignored = 0.0;
      if (!number(t, ignored, what, error)) return false;
    }
    return true;
  }
  /// Bytes (binary) that a list of n entries of type t still has room for.
  bool room(Type t, std::uint64_t n) const {
    return ascii_ || n <= binary_.left() / std::uint64_t(sizeOf(t));
  }
  std::string where() const {
    return ascii_ ? lineAt(firstLine_ + lines_.number()) : std::string();
  }
  /// What is left after the last element: nothing but blank lines (ASCII) or nothing (binary).
  std::string trailing() {
    if (!ascii_) {
      if (binary_.left() == 0) return {};
      return std::to_string(binary_.left()) +
             " bytes follow the last element (do the header's counts match the data?)";
    }
    std::string_view line;
    while (lines_.next(line)) {
      if (!Words(line).rest().empty()) {
        return where() + "data after the last element (do the header's counts match the data?)";
      }
    }
    return {};
  }

 private:
  bool ascii_;
  Lines lines_;
  Words words_{std::string_view()};
  Binary binary_;
  std::size_t firstLine_;
};

}  // namespace

std::string readPly(std::string_view bytes, Surface& out) {
  Header h;
  if (std::string e = readHeader(bytes, h); !e.empty()) return e;
  const Element* vertices = nullptr;
  const Element* faces = nullptr;
  int xyz[3] = {-1, -1, -1};
  int faceList = -1;
  for (const Element& e : h.elements) {
    if (e.name == "vertex") vertices = &e;
    if (e.name == "face") faces = &e;
  }
  if (!vertices) return "the header declares no 'vertex' element";
  for (int k = 0; k < 3; ++k) {
    const char* axis[3] = {"x", "y", "z"};
    xyz[k] = vertices->find(axis[k]);
    if (xyz[k] < 0) return "the 'vertex' element has no '" + std::string(axis[k]) + "' property";
    if (vertices->properties[std::size_t(xyz[k])].list) {
      return "the 'vertex' element's '" + std::string(axis[k]) + "' is a list, not a number";
    }
  }
  if (vertices->count > kMaxMeshVertices) {
    return "its header declares " + std::to_string(vertices->count) +
           " vertices, above the limit of " + std::to_string(kMaxMeshVertices);
  }
  if (faces) {
    faceList = faces->find("vertex_indices");
    if (faceList < 0) faceList = faces->find("vertex_index");
    if (faceList < 0 || !faces->properties[std::size_t(faceList)].list) {
      if (faces->count > 0) return "the 'face' element has no list property 'vertex_indices'";
      faceList = -1;
    } else if (!isInteger(faces->properties[std::size_t(faceList)].type)) {
      return std::string("the faces' vertex indices have type '") +
             nameOf(faces->properties[std::size_t(faceList)].type) + "', not an integer type";
    }
  }
  const std::string_view data = bytes.substr(h.dataOffset);
  if (std::string e = checkCounts(h, data.size()); !e.empty()) return e;

  out.points.reserve(std::size_t(vertices->count));
  out.groupNames.push_back("");
  const std::int64_t vertexCount = std::int64_t(vertices->count);
  Values values(h, data);
  std::string error;
  for (const Element& e : h.elements) {
    for (std::uint64_t item = 0; item < e.count; ++item) {
      if (!values.begin(e, item, error)) return error;
      Eigen::Vector3d p = Eigen::Vector3d::Zero();
      for (std::size_t k = 0; k < e.properties.size(); ++k) {
        const Property& prop = e.properties[k];
        if (&e == faces && int(k) == faceList) {
          std::int64_t n = 0;
          const std::string face = "face " + std::to_string(item + 1);
          if (!values.integer(prop.count, n, "a face's vertex count", error)) return error;
          if (n < 3) {
            return values.where() + face + " has " + std::to_string(n) +
                   (n == 1 ? " vertex" : " vertices") + "; a face needs at least 3";
          }
          if (std::uint64_t(n) >
                  kMaxMeshTriangles + 2 - std::min(out.triangles, kMaxMeshTriangles) ||
              !values.room(prop.type, std::uint64_t(n))) {
            return values.where() + face + " declares " + std::to_string(n) +
                   " vertices, more than the file holds or the triangle limit allows";
          }
          for (std::int64_t j = 0; j < n; ++j) {
            std::int64_t i = 0;
            if (!values.integer(prop.type, i, "a face's vertex index", error)) return error;
            if (i < 0 || i >= vertexCount) {
              const std::string range =
                  vertexCount == 0 ? std::string("no vertices")
                                   : count(std::uint64_t(vertexCount), "vertex", "vertices") +
                                         " (indices 0 to " + std::to_string(vertexCount - 1) + ")";
              return values.where() + face + ": vertex index " + std::to_string(i) +
                     " is out of range: the file has " + range;
            }
            out.indices.push_back(int(i));
          }
          if (!out.endPolygon(0, error)) return error;
        } else if (prop.list) {
          std::int64_t n = 0;
          if (!values.integer(prop.count, n, "a list's count", error)) return error;
          if (n < 0 || !values.room(prop.type, std::uint64_t(n))) {
            return values.where() + "list " + quote(prop.name) + " of " + quote(e.name) + " " +
                   std::to_string(item + 1) + " declares " + std::to_string(n) +
                   " entries, more than the file holds";
          }
          if (!values.skip(prop.type, std::uint64_t(n), "a list", error)) return error;
        } else if (&e == vertices && (int(k) == xyz[0] || int(k) == xyz[1] || int(k) == xyz[2])) {
          const int axis = int(k) == xyz[0] ? 0 : int(k) == xyz[1] ? 1 : 2;
          if (!values.number(prop.type, p[axis], "a vertex coordinate", error)) return error;
        } else if (!values.skip(prop.type, 1, "a property", error)) {
          return error;
        }
      }
      if (!values.end(e, item, error)) return error;
      if (&e == vertices) {
        if (!p.allFinite()) {
          return values.where() + "vertex " + std::to_string(item + 1) +
                 " has a non-finite coordinate (" + formatNumber(p.x()) + ", " +
                 formatNumber(p.y()) + ", " + formatNumber(p.z()) + ")";
        }
        out.points.push_back(p);
      }
    }
  }
  if (out.polygonCount() == 0) out.groupNames.clear();
  return values.trailing();
}

}  // namespace ricochet::io::mesh
