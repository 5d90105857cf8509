#pragma once
// `--body FILE` (run, scenario): the rigid-body's body from a mesh file (core/io/mesh_reader.hpp).

#include "app/cli/cli_args.hpp"
#include "core/model/system.hpp"

#include <string>

namespace ricochet::cli {

/// Applies `--body FILE` to `scenario`: its body becomes the mesh in FILE (STL, OBJ, PLY), its
/// world stays. Empty on success (or without the option), else the bad-input message.
std::string applyBodyOption(const ParsedArgs& args, Scenario& scenario);

/// What the mesh reader noticed in the scenario's body (an open or non-manifold surface, a point
/// cloud), as one line on stderr ("ricochet-cli: note: mesh 'cup.stl' is open ..."); nothing
/// when there is nothing to say.
void printMeshNotes(const Scenario& scenario);

}  // namespace ricochet::cli
