// OBJ: the lines that make a body's surface; the rest (texture coordinates, normals, materials,
// smoothing groups, lines, points, curves) is skipped.
//
//   v x y z [w | r g b [a]]      a vertex (numbers only; the extra ones are ignored)
//   f a b c ...                  a polygon of 3 or more vertices: 1-based indices into the
//                                vertices of the whole file, negative ones counting back from
//                                the last vertex read ("-1"); "a/t", "a/t/n" and "a//n" forms
//   o NAME, g NAME               the current object and group; a bare "o" or "g" clears it
//   # ...                        a comment, to the end of the line
//
// Each face belongs to the part named by the object and group current where it is written:
// "object/group" when both are set, otherwise the one that is set, "" when neither; parts are
// numbered in order of their first face. A file whose faces make several parts is a union of
// their hulls (each part the vertices its faces use); one part is the hull of every vertex.

#include "core/io/mesh_formats.hpp"
#include "core/io/mesh_reader.hpp"

#include <climits>
#include <cmath>
#include <map>

namespace ricochet::io::mesh {

namespace {

/// A part name from the rest of an "o" or "g" line, printable and at most 200 characters.
std::string partName(std::string_view rest) {
  std::string name;
  for (std::size_t i = 0; i < rest.size() && i < 200; ++i) {
    const auto c = static_cast<unsigned char>(rest[i]);
    name += c < 0x20 || c == 0x7f ? '?' : char(c);
  }
  return name;
}

}  // namespace

std::string readObj(std::string_view bytes, Surface& out) {
  std::string object, group;
  std::map<std::string, int> partIndex;
  std::vector<std::size_t> polygonLine;  // for messages about forward indices, checked at the end
  Lines lines(bytes);
  std::string_view line, word;
  std::string error;
  while (lines.next(line)) {
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    Words words(line);
    if (!words.next(word)) continue;
    const std::string at = lineAt(lines.number());
    if (word == "o" || word == "g") {
      (word == "o" ? object : group) = partName(words.rest());
      continue;
    }
    if (word == "v") {
      Eigen::Vector3d p;
      for (int i = 0; i < 3; ++i) {
        if (!words.next(word)) {
          return at + "a vertex needs 3 coordinates, found " + std::to_string(i);
        }
        if (!parseDouble(word, p[i], error)) return at + error;
        if (!std::isfinite(p[i])) {
          return at + "vertex " + std::to_string(out.points.size() + 1) +
                 " has a non-finite coordinate " + quote(word);
        }
      }
      for (int extra = 0; words.next(word); ++extra) {  // w, or a colour
        double ignored = 0.0;
        if (extra == 4) return at + "unexpected " + quote(word) + " after the vertex's coordinates";
        if (!parseDouble(word, ignored, error)) return at + error;
      }
      if (out.points.size() >= kMaxMeshVertices) {
        return at + "more than " + std::to_string(kMaxMeshVertices) +
               " vertices, above the limit of " + std::to_string(kMaxMeshVertices);
      }
      out.points.push_back(p);
      continue;
    }
    if (word != "f") continue;
    std::size_t corners = 0;
    for (; words.next(word); ++corners) {
      const std::string_view index = word.substr(0, word.find('/'));
      std::int64_t i = 0;
      if (index.empty()) return at + "face vertex " + quote(word) + " has no vertex index";
      if (!parseInteger(index, -INT_MAX, INT_MAX, i, error)) return at + "face vertex " + error;
      if (i == 0) return at + "face vertex " + quote(word) + ": OBJ indices start at 1";
      if (i < 0) {
        i += std::int64_t(out.points.size());  // -1: the last vertex read
        if (i < 0) {
          return at + "face vertex " + quote(word) + " counts back before the first vertex (" +
                 std::to_string(out.points.size()) + " read so far)";
        }
      } else {
        i -= 1;
      }
      if (corners > kMaxMeshTriangles) {
        return at + "a face of more than " + std::to_string(kMaxMeshTriangles) +
               " vertices, above the triangle limit";
      }
      out.indices.push_back(int(i));
    }
    if (corners < 3) {
      return at + "a face needs at least 3 vertices, this one has " + std::to_string(corners);
    }
    const std::string key = object.empty() || group.empty() ? object + group : object + "/" + group;
    const auto [it, added] = partIndex.try_emplace(key, int(out.groupNames.size()));
    if (added) out.groupNames.push_back(key);
    if (!out.endPolygon(it->second, error)) return at + error;
    polygonLine.push_back(lines.number());
  }
  // Positive indices may name vertices written after the face: checked once all are read.
  const std::size_t n = out.points.size();
  for (std::size_t k = 0; k < out.polygonCount(); ++k) {
    for (std::size_t j = out.offsets[k]; j < out.offsets[k + 1]; ++j) {
      if (std::size_t(out.indices[j]) >= n) {
        return lineAt(polygonLine[k]) + "face vertex " + std::to_string(out.indices[j] + 1) +
               " is out of range: the file has " + std::to_string(n) + " vertices";
      }
    }
  }
  return {};
}

}  // namespace ricochet::io::mesh
