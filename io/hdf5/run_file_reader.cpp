#include "io/hdf5/run_file_reader.hpp"

#include "core/io/scenario_io.hpp"
#include "io/hdf5/h5_support.hpp"

#include <algorithm>
#include <system_error>

namespace ricochet::hdf5 {

using detail::Handle;

const std::vector<double>* RunTable::column(std::string_view name) const {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? nullptr : &columns[static_cast<std::size_t>(it - names.begin())];
}

namespace {

struct Reader {
  std::filesystem::path path;
  std::string error;

  bool failed(const std::string& what) {
    if (error.empty()) error = path.string() + ": " + what;
    return false;
  }

  bool text(hid_t object, const char* where, const char* name, std::string& into) {
    auto v = detail::readString(object, name);
    if (!v) return failed(std::string("no string attribute '") + where + name + "'");
    into = std::move(*v);
    return true;
  }

  bool table(hid_t file, const char* name, RunTable& into) {
    Handle group(H5Gopen2(file, name, H5P_DEFAULT), H5Gclose);
    if (!group.valid()) return failed(std::string("no group '/") + name + "'");
    auto names = detail::readStrings(group.get(), "columns");
    if (!names) return failed(std::string("no attribute '/") + name + "/columns'");
    into.names = std::move(*names);
    for (const std::string& column : into.names) {
      std::string where(1, '/');  // appended: GCC 12 misreports "/" + ... as an overlap
      where.append(name).append(1, '/').append(column);
      Handle dataset(H5Dopen2(group.get(), column.c_str(), H5P_DEFAULT), H5Dclose);
      if (!dataset.valid()) return failed("no dataset '" + where + "'");
      Handle space(H5Dget_space(dataset.get()), H5Sclose);
      hsize_t rows = 0;
      if (!space.valid() || H5Sget_simple_extent_ndims(space.get()) != 1 ||
          H5Sget_simple_extent_dims(space.get(), &rows, nullptr) != 1) {
        return failed("dataset '" + where + "' is not one-dimensional");
      }
      if (!into.columns.empty() && rows != into.columns.front().size()) {
        return failed("dataset '" + where + "' has " + std::to_string(rows) + " rows, '/" + name +
                      "/" + into.names.front() + "' " +
                      std::to_string(into.columns.front().size()));
      }
      std::vector<double> values(rows);
      if (rows > 0 && H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                              values.data()) < 0) {
        return failed("cannot read dataset '" + where + "': " + detail::lastError());
      }
      into.columns.push_back(std::move(values));
    }
    return true;
  }

  // A [rows, width] float64 dataset `where` (absolute), row-major into `into`.
  bool block(hid_t file, const std::string& where, hsize_t rows, hsize_t width,
             std::vector<double>& into) {
    Handle dataset(H5Dopen2(file, where.c_str(), H5P_DEFAULT), H5Dclose);
    if (!dataset.valid()) return failed("no dataset '" + where + "'");
    Handle space(H5Dget_space(dataset.get()), H5Sclose);
    hsize_t dims[2] = {0, 0};
    if (!space.valid() || H5Sget_simple_extent_ndims(space.get()) != 2 ||
        H5Sget_simple_extent_dims(space.get(), dims, nullptr) != 2 || dims[1] != width) {
      return failed("dataset '" + where + "' is not a [rows, " + std::to_string(width) + "] table");
    }
    if (dims[0] != rows) {
      return failed("dataset '" + where + "' has " + std::to_string(dims[0]) + " rows, expected " +
                    std::to_string(rows));
    }
    into.resize(rows * width);
    if (rows > 0 &&
        H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, into.data()) < 0) {
      return failed("cannot read dataset '" + where + "': " + detail::lastError());
    }
    return true;
  }

  // /poses and /impact_points, when the file has them (layout: run_file.hpp).
  bool poses(hid_t file, RunFile& run) {
    if (H5Lexists(file, "poses", H5P_DEFAULT) > 0) {
      Handle group(H5Gopen2(file, "poses", H5P_DEFAULT), H5Gclose);
      auto names = group.valid() ? detail::readStrings(group.get(), "bodies") : std::nullopt;
      if (!names) return failed("no attribute '/poses/bodies'");
      const std::size_t rows = run.trace.rows(), bodies = names->size();
      run.poses.resize(rows * bodies);
      std::vector<double> position, rotation;
      for (std::size_t b = 0; b < bodies; ++b) {
        const std::string where = "/poses/" + std::to_string(b);
        if (!block(file, where + "/position", rows, 3, position) ||
            !block(file, where + "/rotation", rows, 9, rotation)) {
          return false;
        }
        for (std::size_t r = 0; r < rows; ++r) {
          Pose& pose = run.poses[r * bodies + b];
          pose.position = Eigen::Map<const Eigen::Vector3d>(position.data() + 3 * r);
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j)
              pose.rotation(i, j) = rotation[9 * r + 3 * std::size_t(i) + std::size_t(j)];
          }
        }
      }
      run.bodies = std::move(*names);
    }
    if (H5Lexists(file, "impact_points", H5P_DEFAULT) > 0) {
      std::vector<double> points;
      if (!block(file, "/impact_points", run.impacts.rows(), 3, points)) return false;
      run.impactPoints.resize(run.impacts.rows());
      for (std::size_t i = 0; i < run.impactPoints.size(); ++i) {
        run.impactPoints[i] = Eigen::Map<const Eigen::Vector3d>(points.data() + 3 * i);
      }
    }
    return true;
  }
};

}  // namespace

RunFileResult readRunFile(const std::filesystem::path& path) {
  const detail::QuietErrors quiet;
  RunFileResult result;
  Reader r{path, {}};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    r.failed(std::filesystem::exists(path, ec) ? "not a regular file" : "no such file");
    result.error = r.error;
    return result;
  }
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    r.failed("not an HDF5 file");
    result.error = r.error;
    return result;
  }
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) {
    r.failed("cannot open: " + detail::lastError());
    result.error = r.error;
    return result;
  }
  const hid_t root = file.get();
  RunFile run;
  std::string format;
  const auto version = detail::readInt64(root, "format_version");
  if (!r.text(root, "/", "format", format)) {
    result.error = path.string() + ": not a Ricochet run (no attribute 'format')";
    return result;
  }
  if (format != kRunFormat) {
    result.error = path.string() + ": not a Ricochet run (format '" + format + "', expected '" +
                   kRunFormat + "')";
    return result;
  }
  if (!version || *version < 1 || *version > kRunFormatVersion) {
    result.error = path.string() + ": run file format_version " +
                   (version ? std::to_string(*version) : std::string("(missing)")) +
                   " is not supported (this Ricochet reads version " +
                   std::to_string(kRunFormatVersion) + ")";
    return result;
  }
  bool ok = r.text(root, "/", "scenario", run.scenarioJson) &&
            r.text(root, "/", "ricochet_version", run.ricochetVersion) &&
            r.text(root, "/", "system", run.system) &&
            r.text(root, "/", "integrator", run.integrator) &&
            r.text(root, "/", "status", run.status) && r.text(root, "/", "message", run.message);
  const auto h = detail::readDouble(root, "h");
  const auto every = detail::readInt64(root, "every");
  const auto steps = detail::readInt64(root, "steps");
  const auto tEnd = detail::readDouble(root, "t_end");
  if (ok && !(h && every && steps && tEnd))
    ok = r.failed("no attribute 'h', 'every', 'steps' or 't_end' on '/'");
  if (ok) {
    run.h = *h;
    run.every = *every;
    run.steps = *steps;
    run.tEnd = *tEnd;
    io::ScenarioResult scenario =
        io::parseScenario(run.scenarioJson, path.string() + ": attribute 'scenario'");
    if (!scenario.ok()) {
      result.error = scenario.error;
      return result;
    }
    run.scenario = std::move(*scenario.scenario);
  }
  ok = ok && r.table(root, "trace", run.trace) && r.table(root, "impacts", run.impacts) &&
       r.poses(root, run);
  if (ok) {
    Handle constraint(H5Dopen2(root, "impacts/constraint", H5P_DEFAULT), H5Dclose);
    auto names = constraint.valid() ? detail::readStrings(constraint.get(), "names") : std::nullopt;
    if (!names) {
      ok = r.failed("no attribute '/impacts/constraint/names'");
    } else {
      run.constraintNames = std::move(*names);
    }
  }
  if (!ok) {
    result.error = r.error;
    return result;
  }
  result.run = std::move(run);
  return result;
}

}  // namespace ricochet::hdf5
