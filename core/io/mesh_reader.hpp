#pragma once
// Mesh files for rigid bodies: the caps, the checks, and the hook through which a program that
// can read meshes (mesh/: VTK's STL, OBJ and PLY readers) hands core the vertices as data. Core
// itself reads no mesh format; without an installed reader, a mesh body is refused with a message
// that says so, while primitives keep working.

#include "core/model/body_description.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace ricochet::io {

/// Largest mesh file read (64 MiB): about 1.3 million triangles of binary STL.
inline constexpr std::uintmax_t kMaxMeshFileBytes = std::uintmax_t(64) << 20;
/// Most vertices a mesh (or a polyhedron) may have: 10^6. The hull of 10^6 points takes about a
/// second; support points then cost a few vertex visits whatever the count.
inline constexpr std::size_t kMaxMeshVertices = 1'000'000;

struct MeshReadResult {
  std::shared_ptr<const MeshData> mesh;
  std::string error;  ///< one line naming the file and the problem; empty on success
  bool ok() const { return mesh != nullptr; }
};

/// A function that reads one mesh file; it starts with checkMeshFile().
using MeshReaderFunction = MeshReadResult (*)(const std::filesystem::path& path);

/// Installs the program's mesh reader (thread-safe; call once at start-up). Null uninstalls it.
void installMeshReader(MeshReaderFunction reader);
/// True when a reader is installed.
bool hasMeshReader();

/// What every reader checks before reading: the file exists, is a regular file, is not empty
/// and within kMaxMeshFileBytes, and has a known extension (.stl, .obj, .ply, any case). Empty
/// when it may be read; otherwise one line naming the file.
std::string checkMeshFile(const std::filesystem::path& path);

/// Reads a mesh file through the installed reader, then checks what it read: at least one
/// vertex, at most kMaxMeshVertices, finite coordinates. Errors name the file.
MeshReadResult readMesh(const std::filesystem::path& path);

/// "mesh 'FILE'" for messages.
std::string meshLabel(const std::filesystem::path& path);

}  // namespace ricochet::io
