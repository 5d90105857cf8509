#include "core/io/mesh_reader.hpp"

#include "core/model/parameter.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <system_error>

namespace ricochet::io {

namespace {

std::atomic<MeshReaderFunction> gReader{nullptr};

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string sizeText(std::uintmax_t bytes) {
  const double mib = double(bytes) / double(1 << 20);
  if (mib >= 1024.0) return formatNumber(std::round(mib / 102.4) / 10.0) + " GiB";
  return formatNumber(std::round(mib * 10.0) / 10.0) + " MiB";
}

}  // namespace

void installMeshReader(MeshReaderFunction reader) { gReader.store(reader); }

bool hasMeshReader() { return gReader.load() != nullptr; }

std::string meshLabel(const std::filesystem::path& path) { return "mesh '" + path.string() + "'"; }

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
  MeshReadResult r;
  const MeshReaderFunction reader = gReader.load();
  if (!reader) {
    r.error = meshLabel(path) +
              ": this build reads no mesh files (it was built without VTK); bodies made of "
              "ellipsoids, boxes and polyhedra still work";
    return r;
  }
  r = reader(path);
  if (!r.ok()) {
    if (r.error.empty()) r.error = meshLabel(path) + ": could not be read";
    return r;
  }
  const MeshData& m = *r.mesh;
  std::string error;
  if (m.points.empty()) {
    error = meshLabel(path) + ": the file has no vertices";
  } else if (m.points.size() > kMaxMeshVertices) {
    error = meshLabel(path) + ": " + std::to_string(m.points.size()) + " vertices, above the limit of " +
            std::to_string(kMaxMeshVertices);
  } else {
    for (std::size_t i = 0; i < m.points.size(); ++i) {
      if (!m.points[i].allFinite()) {
        error = meshLabel(path) + ": vertex " + std::to_string(i + 1) + " has a non-finite coordinate (" +
                formatNumber(m.points[i].x()) + ", " + formatNumber(m.points[i].y()) + ", " +
                formatNumber(m.points[i].z()) + ")";
        break;
      }
    }
  }
  if (!error.empty()) return MeshReadResult{nullptr, error};
  return r;
}

}  // namespace ricochet::io
