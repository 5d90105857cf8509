#pragma once
// Reads a whole run file (layout: run_file.hpp) back into columns, impacts, poses and the
// scenario: for replaying a run without integrating it, and for checking a file against its CSVs.

#include "io/hdf5/run_file.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace ricochet::hdf5 {

struct RunFileResult {
  std::optional<RunFile> run;
  std::string error;  ///< one line naming the file and what is wrong with it
  bool ok() const { return run.has_value(); }
};

/// Reads `path`. Refused, with the reason: a missing or unreadable file, not HDF5, not a Ricochet
/// run (attribute `format`), a newer format_version, a scenario that does not load (the scenario
/// file's message, prefixed with the file and attribute), a missing dataset or attribute, columns
/// of different lengths.
RunFileResult readRunFile(const std::filesystem::path& path);

}  // namespace ricochet::hdf5
