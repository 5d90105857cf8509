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
//   "bodies": [{"name": "cue", "body": {...}, "m": 1, "fixed": false, "position": [x, y, z],
//               "velocity": [...], "rotation": [...], "angular_momentum": [...] or
//               "angular_velocity": [...]}, ...] and "restitution": {"A|B": e, ...} (`bodies`);
//   "world": {"ground": false (`bodies` only), "box": {"size": [Lx, Ly] or [Lx, Ly, Lz], "center": [cx, cy]},
//             "walls": [{"point": [x, y, z], "normal": [nx, ny, nz]}, ...]}
//
// A mesh file is named relative to the scenario file and read when the scenario is (through the
// program's mesh reader, core/io/mesh_reader.hpp); with "md5" the file must still have that
// content. Saving writes the path relative to the new file's folder and the content's MD5.

#include "core/io/json.hpp"
#include "core/model/body_description.hpp"

#include <filesystem>
#include <optional>
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
/// The "world" object of `w` (the caller leaves it out when w.empty() and the ground is the
/// default); `ground` set: its "ground" key (`bodies` worlds only).
json::Value worldToJson(const WorldSpec& w, std::optional<bool> ground = std::nullopt);

/// Reads the "world" (with its optional "ground"), "bodies" and "restitution" objects of a
/// `bodies` scenario into `out` (each may be null: that part of `out` is kept).
bool readBodies(JsonChecker& checker, const json::Value* bodies, const json::Value* world,
                const json::Value* restitution, const std::filesystem::path& baseDirectory,
                BodyScenario& out);
/// The "bodies" list of `b`, in its order, every field written.
json::Value bodiesToJson(const BodyScenario& b, const std::filesystem::path& baseDirectory);
/// The "restitution" object of a `bodies` scenario ({"A|B": e, ...} in the list's order).
json::Value restitutionToJson(const std::vector<PairRestitution>& pairs);

/// J_to J_from^-1 for the bodies of two descriptions (the same mass rule for both, `epsilon`
/// where a part gives none): the initial angular momentum times it keeps the initial angular
/// velocity when the body changes. Unset when either body cannot be built.
std::optional<Eigen::Matrix3d> angularMomentumMap(const BodyScenario& from, const BodyScenario& to,
                                                  double epsilon);

/// A body made of one mesh file (`ricochet-cli run rigid-body --body FILE`, Import Mesh... in
/// the window): reads it and records its MD5. Empty on success, else the reader's message.
std::string meshBody(const std::filesystem::path& file, BodyNode& out);

}  // namespace ricochet::io
