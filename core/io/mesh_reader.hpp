#pragma once
// Mesh files for rigid bodies: STL (ASCII and binary), OBJ and PLY (ASCII, binary little- and
// big-endian) read into core's MeshData, with the caps, the checks and the MD5 that scenario
// files record. Plain C++ (no VTK), so every program that links core reads meshes: the window,
// ricochet-cli with or without the GUI, and the Python module.
//
// Coordinates are parsed into doubles with every digit the file gives (std::from_chars; binary
// float32 values are exact in a double). Every count and index is bounded before it is used: a
// count that the file's size cannot hold is refused before anything is allocated, and a face
// index outside the vertices is refused. A refusal is one line naming the file and the problem
// (and the line, vertex or face where it was found); a malformed file never crashes the reader.
// The formats, what each accepts and how an OBJ's objects and groups become parts are described
// in docs/mesh-files.md.

#include "core/model/body_description.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace ricochet::io {

/// Largest mesh file read (64 MiB): about 1.3 million triangles of binary STL.
inline constexpr std::uintmax_t kMaxMeshFileBytes = std::uintmax_t(64) << 20;
/// Most vertices a mesh (or a polyhedron) may have: 10^6. The hull of 10^6 points takes about a
/// second; support points then cost a few vertex visits whatever the count.
inline constexpr std::size_t kMaxMeshVertices = 1'000'000;
/// Most triangles a mesh's faces may fan into: 4 10^6 (a closed surface of 10^6 vertices has
/// about 2 10^6); it bounds the memory of the faces (48 MB) whatever a file's counts claim.
inline constexpr std::size_t kMaxMeshTriangles = 4'000'000;

struct MeshReadResult {
  std::shared_ptr<const MeshData> mesh;
  std::string error;  ///< one line naming the file and the problem; empty on success
  bool ok() const { return mesh != nullptr; }
};

/// What is checked before a file is opened: it exists, is a regular file, is not empty and
/// within kMaxMeshFileBytes, and has a known extension (.stl, .obj, .ply, any case). Empty when
/// it may be read; otherwise one line naming the file.
std::string checkMeshFile(const std::filesystem::path& path);

/// Reads a mesh file: checkMeshFile(), then its bytes through parseMesh(). Errors name the file.
MeshReadResult readMesh(const std::filesystem::path& path);

/// Parses the bytes of a mesh file in the format its extension names (`path` also names the
/// file in messages and in MeshData::path; it is not opened). At least one vertex, at most
/// kMaxMeshVertices, finite coordinates; `notes` say when the surface is open or not manifold.
MeshReadResult parseMesh(std::string_view bytes, const std::filesystem::path& path);

/// "mesh 'FILE'" for messages.
std::string meshLabel(const std::filesystem::path& path);

/// The notes of every mesh in `body` (unions walked), as one line ("mesh 'cup.stl' is open: 12
/// edges belong to one face only; the body is its convex hull"); empty when there are none.
std::string meshNotes(const BodyNode& body);

}  // namespace ricochet::io
