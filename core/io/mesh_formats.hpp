#pragma once
// Inside core/io's mesh reader (mesh_reader.hpp is the interface): what the STL, OBJ and PLY
// parsers produce, and the text scanning and number parsing they share. Each parser returns an
// empty string or one line naming the problem without the file (mesh_reader.cpp prefixes it).

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ricochet::io::mesh {

/// A parsed surface: vertices and polygons (vertex indices checked against `points`), and the
/// group of each polygon (OBJ objects and groups; STL and PLY have one group).
struct Surface {
  std::vector<Eigen::Vector3d> points;
  std::vector<int> indices;             ///< the polygons' vertices, one polygon after another
  std::vector<std::size_t> offsets{0};  ///< polygon k is indices[offsets[k], offsets[k + 1])
  std::vector<int> polygonGroup;        ///< group of each polygon, into groupNames
  std::vector<std::string> groupNames;  ///< "" when unnamed
  std::size_t triangles = 0;            ///< triangles the polygons fan into (kMaxMeshTriangles)

  std::size_t polygonCount() const { return offsets.size() - 1; }
  /// Closes the polygon whose vertices were appended to `indices`; false (and the error set)
  /// when the triangle cap is passed.
  bool endPolygon(int group, std::string& error);
};

std::string readStl(std::string_view bytes, Surface& out);
std::string readObj(std::string_view bytes, Surface& out);
std::string readPly(std::string_view bytes, Surface& out);

/// The file's lines, without their '\n' and a '\r' before it, numbered from 1.
class Lines {
 public:
  explicit Lines(std::string_view bytes, std::size_t at = 0) : bytes_(bytes), at_(at) {}
  bool next(std::string_view& line);
  std::size_t number() const { return number_; }  ///< of the line last returned
  std::size_t offset() const { return at_; }      ///< where the next line starts

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
  std::size_t number_ = 0;
};

/// The blank-separated words of a line (space, tab, '\v', '\f', '\r').
class Words {
 public:
  explicit Words(std::string_view line) : rest_(line) {}
  bool next(std::string_view& word);
  /// What is left, without leading and trailing blanks.
  std::string_view rest() const;

 private:
  std::string_view rest_;
};

/// `word` as a double, to the last digit (a leading '+' allowed; "nan" and "inf" read as such,
/// for the caller to refuse by name). False with `error` set when it is no number or out of the
/// range of a double.
bool parseDouble(std::string_view word, double& out, std::string& error);
/// `word` as an integer in [lo, hi]. False with `error` set otherwise.
bool parseInteger(std::string_view word, std::int64_t lo, std::int64_t hi, std::int64_t& out,
                  std::string& error);
/// `word` quoted for a message: at most 40 characters, control characters and bytes outside
/// ASCII shown as '?', so a message stays one printable line.
std::string quote(std::string_view word);
/// "line N: " for messages.
std::string lineAt(std::size_t number);
/// "1 triangle", "2 triangles": `n` and the noun, plural (`plural`, or noun + "s") when n != 1.
std::string count(std::uint64_t n, const char* noun, const char* plural = nullptr);

}  // namespace ricochet::io::mesh
