#pragma once
// HDF5 run files: one file per run, holding what the trace and impacts CSVs hold (the same rows,
// the same doubles bit for bit) and the scenario that reproduces it.
//
//   /                      attributes: format = "ricochet-run", format_version = 1,
//                          scenario (the canonical scenario JSON, core/io/scenario_io.hpp),
//                          ricochet_version, system, integrator, h (s), every (record every K-th
//                          step); written at the end: steps, t_end (s, reached), status ("ok" or
//                          the failure, as the run summary), message (empty when ok)
//   /trace/<column>        float64[rows], one dataset per trace CSV column, named as in its header
//                          (step, t, energy, ..., q.x, ...); the group's attribute `columns` lists
//                          them in CSV order
//   /impacts/<column>      float64[impacts], one per impacts CSV column, except
//   /impacts/constraint    int32[impacts]: the index of the gap in its attribute `names` (the CSV
//                          prints the name)
//   /poses                 attribute `bodies`: the scene's body names, in scene order
//   /poses/<b>/position    float64[rows,3]: world position of scene body b (0, 1, ...) at each
//                          trace row, m (Simulation::poses, bit for bit); the group's attribute
//                          `name` is the body's name
//   /poses/<b>/rotation    float64[rows,9]: its rotation matrix, row-major (R11 R12 R13 R21 ...)
//   /impact_points         float64[impacts,3]: where each impact happened (world, m), NaN when
//                          the system reports no contact point; aligned with /impacts
//
// /poses and /impact_points were added after the first files of format_version 1 were written:
// a file without them still reads (no poses, no impact points), so it replays its plots only.
//
// Datasets are chunked (kChunkRows rows), extendable (unlimited maximum size) and compressed
// (shuffle + deflate), so a run streams its rows to disk without holding the trace. Object
// modification times are not stored: the same run gives the same bytes.

#include "core/model/system.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ricochet::hdf5 {

inline constexpr const char* kRunFormat = "ricochet-run";
inline constexpr std::int64_t kRunFormatVersion = 1;
/// Rows per chunk of every dataset (32 KiB of float64).
inline constexpr std::size_t kChunkRows = 4096;

/// Columns of equal length, in file (CSV) order.
struct RunTable {
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;  ///< aligned with names

  std::size_t rows() const { return columns.empty() ? 0 : columns.front().size(); }
  /// The column `name`, or nullptr.
  const std::vector<double>* column(std::string_view name) const;
};

/// A run read back from its file.
struct RunFile {
  std::string scenarioJson;  ///< the root attribute `scenario`, as stored
  Scenario scenario;         ///< parsed and checked like a scenario file
  std::string ricochetVersion;
  std::string system;
  std::string integrator;
  double h = 0.0;  ///< s
  std::int64_t every = 1;
  std::int64_t steps = 0;  ///< steps taken
  double tEnd = 0.0;       ///< simulated time reached, s
  std::string status;      ///< "ok" or the failure's status name
  std::string message;     ///< empty when ok
  RunTable trace;
  /// The impacts CSV's columns; `constraint` holds the gap's index into constraintNames.
  RunTable impacts;
  std::vector<std::string> constraintNames;
  /// The scene body names of /poses; empty when the file has no poses.
  std::vector<std::string> bodies;
  /// Poses of every body at every trace row, row-major: poses[row * bodies.size() + body]. Empty
  /// when the file has no poses.
  std::vector<Pose> poses;
  /// /impact_points, aligned with the impacts' rows; empty when the file has none.
  std::vector<Eigen::Vector3d> impactPoints;

  bool hasPoses() const { return !bodies.empty() && !poses.empty(); }
};

}  // namespace ricochet::hdf5
