// STL, ASCII and binary. A binary file is 80 bytes of header, a 32-bit little-endian triangle
// count n, then n records of 50 bytes (normal and three vertices as float32, a 16-bit attribute):
// exactly 84 + 50 n bytes, checked before anything is read. A file of that size is binary even
// when its header starts with "solid" (many binary writers put it there); otherwise a file that
// starts with "solid" and looks like text is ASCII:
//
//   solid NAME / facet normal nx ny nz / outer loop / vertex x y z (3 times) / endloop /
//   endfacet / ... / endsolid NAME      (keywords in any case; several solids may follow)
//
// STL repeats each vertex in every triangle that uses it: equal points are merged (exactly equal
// coordinates, first appearance order), so the surface's edges can be checked and the body
// summary counts distinct vertices. Triangles that merging makes degenerate are kept as polygons
// (the finishing step drops them from the drawn triangles).

#include "core/io/mesh_formats.hpp"
#include "core/io/mesh_reader.hpp"
#include "core/model/parameter.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace ricochet::io::mesh {

namespace {

/// Exactly equal points share one index (0 and -0 are equal, as the comparison says).
class PointMerger {
 public:
  explicit PointMerger(Surface& out) : out_(out) {}

  /// The index of p, adding it when new; -1 past kMaxMeshVertices.
  int index(const Eigen::Vector3d& p) {
    Key k;
    for (int i = 0; i < 3; ++i) k[std::size_t(i)] = std::bit_cast<std::uint64_t>(p[i] + 0.0);
    const auto [it, added] = map_.try_emplace(k, int(out_.points.size()));
    if (added) {
      if (out_.points.size() >= kMaxMeshVertices) return -1;
      out_.points.push_back(p);
    }
    return it->second;
  }

 private:
  using Key = std::array<std::uint64_t, 3>;
  struct Hash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = 0x9e3779b97f4a7c15ull;
      for (std::uint64_t x : k) h = (h ^ x) * 0x100000001b3ull + (h >> 29);
      return std::size_t(h);
    }
  };
  Surface& out_;
  std::unordered_map<Key, int, Hash> map_;
};

std::string tooManyVertices() {
  return "more than " + std::to_string(kMaxMeshVertices) + " distinct vertices, above the limit";
}

std::string nonFinite(std::size_t triangle, int corner, const Eigen::Vector3d& p) {
  return "triangle " + std::to_string(triangle) + ", vertex " + std::to_string(corner) +
         " has a non-finite coordinate (" + formatNumber(p.x()) + ", " + formatNumber(p.y()) +
         ", " + formatNumber(p.z()) + ")";
}

std::uint32_t littleEndian32(const unsigned char* b) {
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 |
         std::uint32_t(b[3]) << 24;
}

std::string readBinary(std::string_view bytes, std::uint32_t count, Surface& out) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  PointMerger merge(out);
  std::string error;
  for (std::size_t t = 0; t < count; ++t) {
    const unsigned char* record = data + 84 + 50 * t;
    for (int corner = 0; corner < 3; ++corner) {
      Eigen::Vector3d p;
      for (int i = 0; i < 3; ++i) {
        p[i] = double(std::bit_cast<float>(littleEndian32(record + 12 * (corner + 1) + 4 * i)));
      }
      if (!p.allFinite()) return nonFinite(t + 1, corner + 1, p);
      const int k = merge.index(p);
      if (k < 0) return tooManyVertices();
      out.indices.push_back(k);
    }
    if (!out.endPolygon(0, error)) return error;
  }
  return {};
}

std::string lower(std::string_view s) {
  std::string l(s);
  for (char& c : l) {
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  }
  return l;
}

std::string readAscii(std::string_view bytes, Surface& out) {
  enum class Expect { Solid, FacetOrEnd, Loop, Vertex, EndLoop, EndFacet };
  static const char* const kExpected[] = {
      "'solid'", "'facet' or 'endsolid'", "'outer loop'", "'vertex'", "'endloop'", "'endfacet'"};
  Expect state = Expect::Solid;
  int corner = 0;
  bool anySolid = false;
  PointMerger merge(out);
  Lines lines(bytes);
  std::string_view line, word;
  std::string error;
  while (lines.next(line)) {
    Words words(line);
    if (!words.next(word)) continue;
    const std::string at = lineAt(lines.number());
    const std::string key = lower(word);
    switch (state) {
      case Expect::Solid:
        if (key != "solid") return at + "expected 'solid', found " + quote(word);
        anySolid = true;
        state = Expect::FacetOrEnd;
        continue;
      case Expect::FacetOrEnd:
        if (key == "color") continue;  // an optional colour line after "solid"
        if (key == "endsolid") {
          state = Expect::Solid;
          continue;
        }
        if (key != "facet") return at + "expected 'facet' or 'endsolid', found " + quote(word);
        state = Expect::Loop;
        continue;
      case Expect::Loop:
        if (key != "outer") return at + "expected 'outer loop', found " + quote(word);
        state = Expect::Vertex;
        continue;
      case Expect::Vertex: {
        if (key != "vertex") {
          return at + "expected 'vertex' (" + std::to_string(corner) +
                 " of the facet's 3 read), found " + quote(word);
        }
        Eigen::Vector3d p;
        for (int i = 0; i < 3; ++i) {
          if (!words.next(word))
            return at + "a vertex needs 3 coordinates, found " + std::to_string(i);
          if (!parseDouble(word, p[i], error)) return at + error;
          if (!std::isfinite(p[i])) {
            return at + "the vertex has a non-finite coordinate " + quote(word);
          }
        }
        if (words.next(word))
          return at + "unexpected " + quote(word) + " after the vertex's 3 coordinates";
        const int k = merge.index(p);
        if (k < 0) return at + tooManyVertices();
        out.indices.push_back(k);
        if (++corner == 3) {
          corner = 0;
          if (!out.endPolygon(0, error)) return at + error;
          state = Expect::EndLoop;
        }
        continue;
      }
      case Expect::EndLoop:
        if (key != "endloop")
          return at + "expected 'endloop' after 3 vertices, found " + quote(word);
        state = Expect::EndFacet;
        continue;
      case Expect::EndFacet:
        if (key != "endfacet") return at + "expected 'endfacet', found " + quote(word);
        state = Expect::FacetOrEnd;
        continue;
    }
  }
  if (state == Expect::Solid && anySolid) return {};
  return "the file ends at line " + std::to_string(lines.number()) + " where " +
         kExpected[int(state)] + " was expected (is it truncated?)";
}

/// kwsys's rule, which VTK's reader used: text when fewer than 5% of the first 256 bytes are
/// neither printable ASCII nor '\n', '\r', '\t'.
bool looksLikeText(std::string_view bytes) {
  const std::size_t n = std::min<std::size_t>(bytes.size(), 256);
  std::size_t other = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    other += !((c >= 0x20 && c <= 0x7f) || c == '\n' || c == '\r' || c == '\t');
  }
  return double(other) < 0.05 * double(n);
}

bool startsWithSolid(std::string_view bytes) {
  std::size_t i = 0;
  while (i < bytes.size() &&
         (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r' || bytes[i] == '\n'))
    ++i;
  return lower(bytes.substr(i, 5)) == "solid" &&
         (i + 5 == bytes.size() || std::isspace(static_cast<unsigned char>(bytes[i + 5])));
}

}  // namespace

std::string readStl(std::string_view bytes, Surface& out) {
  const std::uint64_t size = bytes.size();
  std::uint32_t triangles = 0;
  if (size >= 84) {
    triangles = littleEndian32(reinterpret_cast<const unsigned char*>(bytes.data()) + 80);
    if (84 + 50 * std::uint64_t(triangles) == size) return readBinary(bytes, triangles, out);
  }
  if (startsWithSolid(bytes) && looksLikeText(bytes)) return readAscii(bytes, out);
  const std::string notAscii = startsWithSolid(bytes) ? "its first 256 bytes are not text"
                                                      : "it does not start with 'solid'";
  if (size < 84) {
    return "not an ASCII STL (" + notAscii + "), and too short for a binary STL (" +
           count(size, "byte") + ", fewer than the 84 of its header and triangle count)";
  }
  return "not an ASCII STL (" + notAscii + "), and not a binary STL: its triangle count " +
         std::to_string(triangles) + " makes 84 + 50 x " + std::to_string(triangles) + " = " +
         std::to_string(84 + 50 * std::uint64_t(triangles)) + " bytes, but the file has " +
         std::to_string(size);
}

}  // namespace ricochet::io::mesh
