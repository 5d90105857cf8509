#pragma once
// Mesh files through VTK's readers (vtkSTLReader, vtkOBJReader, vtkPLYReader) into core's
// MeshData: the vertices (VTK stores them as 32-bit floats, so coordinates keep about 7
// significant digits), the faces as triangles, the groups whose hulls make a union, and the
// MD5 of the file's bytes.
//
// OBJ: VTK 9.1's reader records "g" groups only (its GroupIds cell data); the "o" objects and
// the "g" names come from one pass over the file's o/g/f lines, matched face for face with the
// polygons VTK read. A face of object o and group g belongs to group "o/g".

#include "core/io/mesh_reader.hpp"

#include <filesystem>

namespace ricochet::mesh {

/// Reads one mesh file (io::checkMeshFile() first: its caps). Errors name the file and say what
/// the reader found wrong.
io::MeshReadResult readMeshFile(const std::filesystem::path& path);

/// Installs readMeshFile() as the program's mesh reader (io::installMeshReader()).
void installVtkMeshReader();

}  // namespace ricochet::mesh
