#include "core/io/mesh_reader.hpp"

#include "core/io/md5.hpp"
#include "core/io/mesh_formats.hpp"
#include "core/model/parameter.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <system_error>

namespace ricochet::io {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string sizeText(std::uintmax_t bytes) {
  const double mib = double(bytes) / double(1 << 20);
  if (mib >= 1024.0) return formatNumber(std::round(mib / 102.4) / 10.0) + " GiB";
  return formatNumber(std::round(mib * 10.0) / 10.0) + " MiB";
}

/// The surface's edges, each counted once per triangle of its part that has it: an edge of one
/// triangle only is on a hole's border (open), one of three or more is not manifold.
std::vector<std::string> surfaceNotes(const MeshData& m, const std::vector<int>& triangleGroup,
                                      std::size_t polygons) {
  if (polygons == 0) return {"a point cloud (no faces)"};
  // An edge as one integer: part (24 bits), lower vertex and higher vertex (20 bits each).
  static_assert(kMaxMeshVertices <= (std::size_t(1) << 20) && kMaxMeshTriangles < (1u << 24));
  std::vector<std::uint64_t> edges;
  edges.reserve(3 * m.triangles.size());
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const auto& v = m.triangles[t];
    for (int k = 0; k < 3; ++k) {
      const int a = v[std::size_t(k)], b = v[std::size_t((k + 1) % 3)];
      edges.push_back(std::uint64_t(triangleGroup[t]) << 40 | std::uint64_t(std::min(a, b)) << 20 |
                      std::uint64_t(std::max(a, b)));
    }
  }
  std::sort(edges.begin(), edges.end());
  std::size_t open = 0, nonManifold = 0;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i + 1;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    open += j - i == 1;
    nonManifold += j - i > 2;
    i = j;
  }
  std::vector<std::string> notes;
  if (open > 0) {
    notes.push_back("open (" + std::to_string(open) +
                    (open == 1 ? " edge belongs" : " edges belong") + " to one face only)");
  }
  if (nonManifold > 0) {
    notes.push_back("not manifold (" + std::to_string(nonManifold) +
                    (nonManifold == 1 ? " edge is" : " edges are") +
                    " shared by more than two faces)");
  }
  return notes;
}

/// The parsed surface as core's MeshData: triangles fanned from the polygons (those with a
/// repeated vertex dropped), and the parts whose hulls make the body.
std::shared_ptr<MeshData> finish(mesh::Surface& s) {
  auto m = std::make_shared<MeshData>();
  std::vector<int> triangleGroup;
  m->triangles.reserve(s.triangles);
  triangleGroup.reserve(s.triangles);
  const std::size_t polygons = s.polygonCount();
  for (std::size_t k = 0; k < polygons; ++k) {
    const int* v = s.indices.data() + s.offsets[k];
    const std::size_t n = s.offsets[k + 1] - s.offsets[k];
    for (std::size_t j = 1; j + 1 < n; ++j) {
      const std::array<int, 3> t = {v[0], v[j], v[j + 1]};
      if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;
      m->triangles.push_back(t);
      triangleGroup.push_back(s.polygonGroup[k]);
    }
  }
  if (s.groupNames.size() > 1) {
    // Several parts: each is the vertices its faces use.
    m->groups.resize(s.groupNames.size());
    for (std::size_t k = 0; k < polygons; ++k) {
      std::vector<int>& g = m->groups[std::size_t(s.polygonGroup[k])];
      g.insert(g.end(), s.indices.begin() + std::ptrdiff_t(s.offsets[k]),
               s.indices.begin() + std::ptrdiff_t(s.offsets[k + 1]));
    }
    for (std::vector<int>& g : m->groups) {
      std::sort(g.begin(), g.end());
      g.erase(std::unique(g.begin(), g.end()), g.end());
    }
    m->groupNames = s.groupNames;
  } else {
    // One body: the hull of every vertex (those no face uses included).
    std::vector<int> all(s.points.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = int(i);
    m->groups.push_back(std::move(all));
    m->groupNames.push_back(s.groupNames.empty() ? std::string() : s.groupNames[0]);
  }
  m->points = std::move(s.points);
  m->notes = surfaceNotes(*m, triangleGroup, polygons);
  return m;
}

void collectNotes(const BodyNode& n, std::string& out) {
  if (n.shape == BodyNode::Shape::Mesh && n.mesh && !n.mesh->notes.empty()) {
    std::string line = meshLabel(n.file) + " is ";
    for (std::size_t i = 0; i < n.mesh->notes.size(); ++i) {
      line += (i == 0 ? "" : " and ") + n.mesh->notes[i];
    }
    line += n.mesh->groups.size() > 1 ? "; the body is the union of its parts' convex hulls"
                                      : "; the body is its convex hull";
    out += (out.empty() ? "" : "; ") + line;
  }
  for (const BodyNode& p : n.parts) collectNotes(p, out);
}

}  // namespace

std::string meshLabel(const std::filesystem::path& path) {
  return "mesh '" + path.string() + "'";
}

std::string checkMeshFile(const std::filesystem::path& path) {
  const std::string label = meshLabel(path);
  const std::string ext = lower(path.extension().string());
  if (ext != ".stl" && ext != ".obj" && ext != ".ply") {
    return label + ": unknown format '" + path.extension().string() +
           "' (reads .stl, .obj and .ply)";
  }
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return label + ": no such file";
  if (!std::filesystem::is_regular_file(status)) return label + ": not a regular file";
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  if (ec) return label + ": cannot read its size (" + ec.message() + ")";
  if (bytes == 0) return label + ": the file is empty";
  if (bytes > kMaxMeshFileBytes) {
    return label + ": the file is " + sizeText(bytes) + ", above the limit of " +
           sizeText(kMaxMeshFileBytes);
  }
  return {};
}

MeshReadResult readMesh(const std::filesystem::path& path) {
  if (std::string e = checkMeshFile(path); !e.empty()) return MeshReadResult{nullptr, e};
  const std::string label = meshLabel(path);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return MeshReadResult{nullptr, label + ": cannot open it (" + std::strerror(errno) + ")"};
  // Read at most one byte past the cap: a file that grew since it was checked is still refused.
  std::string bytes;
  std::size_t got = 0;
  bytes.resize(std::size_t(std::min<std::uintmax_t>(kMaxMeshFileBytes + 1, 1 << 20)));
  for (;;) {
    got += std::fread(bytes.data() + got, 1, bytes.size() - got, f);
    if (got < bytes.size() || bytes.size() > kMaxMeshFileBytes) break;
    bytes.resize(std::size_t(std::min<std::uintmax_t>(kMaxMeshFileBytes + 1, 2 * bytes.size())));
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return MeshReadResult{nullptr, label + ": cannot read it"};
  if (got > kMaxMeshFileBytes) {
    return MeshReadResult{
        nullptr, label + ": the file is above the limit of " + sizeText(kMaxMeshFileBytes)};
  }
  bytes.resize(got);
  return parseMesh(bytes, path);
}

MeshReadResult parseMesh(std::string_view bytes, const std::filesystem::path& path) {
  const std::string label = meshLabel(path);
  const std::string ext = lower(path.extension().string());
  mesh::Surface surface;
  std::string error;
  if (ext == ".stl") {
    error = mesh::readStl(bytes, surface);
  } else if (ext == ".obj") {
    error = mesh::readObj(bytes, surface);
  } else if (ext == ".ply") {
    error = mesh::readPly(bytes, surface);
  } else {
    error = "unknown format '" + path.extension().string() + "' (reads .stl, .obj and .ply)";
  }
  if (error.empty() && surface.points.empty()) error = "the file has no vertices";
  if (error.empty() && surface.points.size() > kMaxMeshVertices) {
    error = std::to_string(surface.points.size()) + " vertices, above the limit of " +
            std::to_string(kMaxMeshVertices);
  }
  if (!error.empty()) return MeshReadResult{nullptr, label + ": " + error};
  std::shared_ptr<MeshData> mesh = finish(surface);
  mesh->path = path.string();
  mesh->bytes = bytes.size();
  mesh->md5 = md5Hex(bytes);
  return MeshReadResult{std::move(mesh), {}};
}

std::string meshNotes(const BodyNode& body) {
  std::string out;
  collectNotes(body, out);
  return out;
}

}  // namespace ricochet::io
