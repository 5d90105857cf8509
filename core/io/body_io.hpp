#pragma once
// The "body" and "world" objects of a scenario file (core/model/body_description.hpp), read
// strictly and written in a fixed order:
//
//   "body": {"shape": "ellipsoid", "axes": [a, b, c]}
//   "body": {"shape": "box", "size": [x, y, z], "epsilon": e}
//   "body": {"shape": "polyhedron", "vertices": [[x, y, z], ...], "epsilon": e}
//   "body": {"shape": "mesh", "file": "die.stl", "md5": "...", "epsilon": e}
//   "body": {"shape": "union", "parts": [{"shape": ..., "position": [x, y, z],
//                                         "rotation": [rx, ry, rz]}, ...]}
//   plus "density" (kg/m^3) in the outermost body object;
//   "world": {"box": {"size": [Lx, Ly] or [Lx, Ly, Lz], "center": [cx, cy]},
//             "walls": [{"point": [x, y, z], "normal": [nx, ny, nz]}, ...]}
//
// A mesh file is named relative to the scenario file and read when the scenario is (through the
// program's mesh reader, core/io/mesh_reader.hpp); with "md5" the file must still have that
// content. Saving writes the path relative to the new file's folder and the content's MD5.

#include "core/io/json.hpp"
#include "core/model/body_description.hpp"

#include <filesystem>
#include <string>

namespace ricochet::io {

class JsonChecker;

/// Reads a "body" object (`body`, may be null: `out.body` is kept) and a "world" object (`world`,
/// may be null) into `out`. Mesh files are resolved against `baseDirectory` (empty: the working
/// directory), read, and checked against their "md5". False with the problem recorded in
/// `checker` (its position and key, e.g. "\"body.parts[1].axes[2]\" = -1 must be > 0 m").
bool readBody(JsonChecker& checker, const json::Value* body, const json::Value* world,
              const std::filesystem::path& baseDirectory, BodyScenario& out);

/// The "body" object of `b`; mesh paths relative to `baseDirectory` when they can be.
json::Value bodyToJson(const BodyScenario& b, const std::filesystem::path& baseDirectory);
/// The "world" object of `w` (the caller leaves it out when w.empty()).
json::Value worldToJson(const WorldSpec& w);

/// A body made of one mesh file (`ricochet-cli run rigid-body --body FILE`, Import Mesh... in
/// the window): reads it and records its MD5. Empty on success, else the reader's message.
std::string meshBody(const std::filesystem::path& file, BodyNode& out);

}  // namespace ricochet::io
