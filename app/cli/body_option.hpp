#pragma once
// `--body FILE` (run, scenario): the rigid-body's body from a mesh file, and the mesh
// reader ricochet-cli installs when it is built with VTK (mesh/).

#include "app/cli/cli_args.hpp"
#include "core/model/system.hpp"

#include <string>

namespace ricochet::cli {

/// Installs VTK's mesh readers (a no-op in a build without VTK, where mesh bodies are refused).
void installMeshReader();

/// Applies `--body FILE` to `scenario`: its body becomes the mesh in FILE (STL, OBJ, PLY), its
/// world stays. Empty on success (or without the option), else the bad-input message.
std::string applyBodyOption(const ParsedArgs& args, Scenario& scenario);

}  // namespace ricochet::cli
