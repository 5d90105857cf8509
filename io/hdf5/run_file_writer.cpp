#include "io/hdf5/run_file_writer.hpp"

#include "core/io/atomic_file.hpp"
#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"
#include "io/hdf5/h5_support.hpp"
#include "io/hdf5/run_file.hpp"

#include <string_view>
#include <vector>

namespace ricochet::hdf5 {

using detail::Handle;

namespace {

constexpr unsigned kDeflateLevel =
    4;  // zlib level: most of the gain of 9 at a fraction of the time

// One group of equal-length columns (the trace or the impacts), buffered one chunk at a time.
struct Table {
  struct Column {
    Handle dataset;
    bool index = false;  // stored as int32 (the impacts' constraint), else float64
    std::vector<double> pending;
  };
  Handle group;
  std::vector<Column> columns;
  std::vector<std::int32_t> scratch;  // an index column's pending values, converted
  hsize_t written = 0;
};

// A two-dimensional dataset [rows, width] (a pose block, the impact points), buffered like a
// Table's columns and flushed with them.
struct Block {
  Handle dataset;
  hsize_t width = 0;
  std::vector<double> pending;  // row-major, whole rows
  hsize_t written = 0;
};

Handle creationList(hid_t cls) {
  return Handle(H5Pcreate(cls), H5Pclose);
}

// Chunked, compressed and untimed, as every dataset of the file.
Handle datasetCreationList(hsize_t rank, const hsize_t* chunk) {
  Handle dcpl = creationList(H5P_DATASET_CREATE);
  if (!dcpl.valid() || H5Pset_chunk(dcpl.get(), int(rank), chunk) < 0 ||
      H5Pset_shuffle(dcpl.get()) < 0 || H5Pset_deflate(dcpl.get(), kDeflateLevel) < 0 ||
      H5Pset_obj_track_times(dcpl.get(), false) < 0) {
    return Handle();
  }
  return dcpl;
}

Handle groupCreationList() {
  Handle gcpl = creationList(H5P_GROUP_CREATE);
  if (!gcpl.valid() || H5Pset_obj_track_times(gcpl.get(), false) < 0 ||
      H5Pset_link_creation_order(gcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0) {
    return Handle();
  }
  return gcpl;
}

}  // namespace

struct RunFileWriter::Impl {
  std::filesystem::path path;
  io::AtomicFile reservation;  // the temporary file's name, its sync and rename
  Handle file;
  Table trace, impacts;
  bool bodyColumns = false;  // impacts gain body_a and body_b (a world of several bodies)
  std::size_t systemColumns = 0;
  std::vector<Block> poses;   // per scene body: position [rows,3], rotation [rows,9]
  Block impactPoints;         // [impacts,3]
  std::vector<Pose> scratch;  // Simulation::poses() of the row being written

  std::string fail(const std::string& what) const {
    const std::string detail = detail::lastError();
    return path.string() + ": " + what +
           (detail.empty() ? std::string() : std::string(": ") + detail);
  }

  std::string createTable(Table& table, const char* name, const std::vector<std::string>& names,
                          const std::string& indexColumn) {
    Handle gcpl = groupCreationList();
    if (!gcpl.valid()) return fail("cannot set up the group '" + std::string(name) + "'");
    table.group =
        Handle(H5Gcreate2(file.get(), name, H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose);
    if (!table.group.valid() || !detail::writeStrings(table.group.get(), "columns", names)) {
      return fail("cannot create the group '" + std::string(name) + "'");
    }
    const hsize_t chunk = kChunkRows;
    Handle dcpl = datasetCreationList(1, &chunk);
    if (!dcpl.valid()) return fail("cannot set up chunked, compressed datasets");
    const hsize_t empty = 0, unlimited = H5S_UNLIMITED;
    Handle space(H5Screate_simple(1, &empty, &unlimited), H5Sclose);
    for (const std::string& column : names) {
      if (column.empty() || column == "." || column.find('/') != std::string::npos) {
        return path.string() + ": column '" + column + "' cannot name an HDF5 dataset";
      }
      Table::Column c;
      c.index = column == indexColumn;
      c.dataset = Handle(
          H5Dcreate2(table.group.get(), column.c_str(), c.index ? H5T_STD_I32LE : H5T_IEEE_F64LE,
                     space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
          H5Dclose);
      if (!c.dataset.valid())
        return fail("cannot create the dataset '" + std::string(name) + "/" + column + "'");
      c.pending.reserve(kChunkRows);
      table.columns.push_back(std::move(c));
    }
    return {};
  }

  // Appends the pending rows of `table` to its datasets (one hyperslab per column).
  std::string flush(Table& table) {
    if (table.columns.empty() || table.columns.front().pending.empty()) return {};
    const hsize_t count = table.columns.front().pending.size();
    const hsize_t size = table.written + count;
    Handle memory(H5Screate_simple(1, &count, nullptr), H5Sclose);
    for (Table::Column& c : table.columns) {
      if (H5Dset_extent(c.dataset.get(), &size) < 0) return fail("cannot extend a dataset");
      Handle space(H5Dget_space(c.dataset.get()), H5Sclose);
      if (!space.valid() || H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &table.written,
                                                nullptr, &count, nullptr) < 0) {
        return fail("cannot select rows");
      }
      herr_t status;
      if (c.index) {
        table.scratch.assign(c.pending.begin(), c.pending.end());
        status = H5Dwrite(c.dataset.get(), H5T_NATIVE_INT32, memory.get(), space.get(), H5P_DEFAULT,
                          table.scratch.data());
      } else {
        status = H5Dwrite(c.dataset.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(),
                          H5P_DEFAULT, c.pending.data());
      }
      if (status < 0) return fail("write failed");
      c.pending.clear();
    }
    table.written = size;
    return {};
  }

  // An empty, extendable [0, width] dataset `name` in `where`.
  std::string createBlock(Block& block, hid_t where, const char* name, hsize_t width,
                          const std::string& label) {
    const hsize_t chunk[2] = {kChunkRows, width};
    Handle dcpl = datasetCreationList(2, chunk);
    const hsize_t empty[2] = {0, width}, unlimited[2] = {H5S_UNLIMITED, width};
    Handle space(H5Screate_simple(2, empty, unlimited), H5Sclose);
    if (dcpl.valid() && space.valid()) {
      block.dataset = Handle(H5Dcreate2(where, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                        dcpl.get(), H5P_DEFAULT),
                             H5Dclose);
    }
    if (!block.dataset.valid()) return fail("cannot create the dataset '" + label + "'");
    block.width = width;
    block.pending.reserve(kChunkRows * width);
    return {};
  }

  // The poses of every scene body: /poses/<index>/position and /rotation, the body's name as the
  // group's attribute `name`; and /impact_points.
  std::string createPoses(const SceneSpec& scene) {
    Handle gcpl = groupCreationList();
    Handle group;
    if (gcpl.valid()) {
      group =
          Handle(H5Gcreate2(file.get(), "poses", H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose);
    }
    std::vector<std::string> names;
    for (const BodySpec& body : scene.bodies) names.push_back(body.name);
    if (!group.valid() || !detail::writeStrings(group.get(), "bodies", names)) {
      return fail("cannot create the group '/poses'");
    }
    poses.resize(2 * scene.bodies.size());
    for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
      const std::string index = std::to_string(b), label = "/poses/" + index;
      Handle body(H5Gcreate2(group.get(), index.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT),
                  H5Gclose);
      if (!body.valid() || !detail::writeString(body.get(), "name", scene.bodies[b].name)) {
        return fail("cannot create the group '" + label + "'");
      }
      if (std::string e = createBlock(poses[2 * b], body.get(), "position", 3, label + "/position");
          !e.empty()) {
        return e;
      }
      if (std::string e =
              createBlock(poses[2 * b + 1], body.get(), "rotation", 9, label + "/rotation");
          !e.empty()) {
        return e;
      }
    }
    scratch.assign(scene.bodies.size(), Pose{});
    return createBlock(impactPoints, file.get(), "impact_points", 3, "/impact_points");
  }

  std::string flush(Block& block) {
    if (block.pending.empty()) return {};
    const hsize_t count[2] = {block.pending.size() / block.width, block.width};
    const hsize_t size[2] = {block.written + count[0], block.width};
    const hsize_t start[2] = {block.written, 0};
    Handle memory(H5Screate_simple(2, count, nullptr), H5Sclose);
    if (H5Dset_extent(block.dataset.get(), size) < 0) return fail("cannot extend a dataset");
    Handle space(H5Dget_space(block.dataset.get()), H5Sclose);
    if (!space.valid() ||
        H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0) {
      return fail("cannot select rows");
    }
    if (H5Dwrite(block.dataset.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT,
                 block.pending.data()) < 0) {
      return fail("write failed");
    }
    block.pending.clear();
    block.written = size[0];
    return {};
  }

  std::string flushTrace() {
    std::string error = flush(trace);
    for (Block& b : poses) {
      if (error.empty()) error = flush(b);
    }
    return error;
  }

  std::string flushImpacts() {
    std::string error = flush(impacts);
    if (error.empty()) error = flush(impactPoints);
    return error;
  }

  // Closes every object and the file. `keep` false: the file is thrown away, so it is first
  // detached from the disk (h5_support.hpp), and its close can fail neither on a full disk nor
  // after an earlier write error.
  void close(bool keep) {
    if (!keep && file.valid()) detail::detachFromDisk(file.get());
    poses.clear();
    impactPoints = Block();
    for (Table* t : {&trace, &impacts}) {
      t->columns.clear();
      t->group.close();
      t->written = 0;
    }
    file.close();
  }
};

RunFileWriter::RunFileWriter() : d(std::make_unique<Impl>()) {}

RunFileWriter::~RunFileWriter() {
  discard();
}

bool RunFileWriter::isOpen() const {
  return d->file.valid();
}

std::string RunFileWriter::open(const std::filesystem::path& path, const Scenario& scenario,
                                std::span<const std::string> columns, std::int64_t every) {
  discard();
  const detail::QuietErrors quiet;
  d->path = path;
  const SystemDescription* system = findSystem(scenario.system);
  if (!system) return path.string() + ": unknown system '" + scenario.system + "'";
  if (every < 1) return path.string() + ": every = " + std::to_string(every) + " must be >= 1";
  if (std::string e = d->reservation.open(path, io::AtomicFile::Writer::ByName); !e.empty())
    return e;

  // Object times off (the same run gives the same bytes); links kept in creation order (CSV
  // order for HDF5 tools); the 1.8 file format, which every HDF5 reader of the last decade reads.
  Handle fcpl = creationList(H5P_FILE_CREATE);
  Handle fapl = creationList(H5P_FILE_ACCESS);
  std::string error;
  if (!fcpl.valid() || !fapl.valid() || H5Pset_obj_track_times(fcpl.get(), false) < 0 ||
      H5Pset_link_creation_order(fcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0 ||
      H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V18) < 0) {
    error = d->fail("cannot set up the file properties");
  }
  if (error.empty()) {
    d->file = Handle(
        H5Fcreate(d->reservation.temporaryPath().c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()),
        H5Fclose);
    if (!d->file.valid()) error = d->fail("cannot create the HDF5 file");
  }
  if (error.empty()) {
    const hid_t root = d->file.get();
    const bool ok = detail::writeString(root, "format", kRunFormat) &&
                    detail::writeInt64(root, "format_version", kRunFormatVersion) &&
                    detail::writeString(root, "scenario", io::scenarioToText(scenario)) &&
                    detail::writeString(root, "ricochet_version", RICOCHET_VERSION) &&
                    detail::writeString(root, "system", scenario.system) &&
                    detail::writeString(root, "integrator", scenario.integrator.name) &&
                    detail::writeDouble(root, "h", scenario.integrator.h) &&
                    detail::writeInt64(root, "every", every);
    if (!ok) error = d->fail("cannot write the run's attributes");
  }
  if (error.empty()) {
    std::vector<std::string> traceNames(std::begin(io::kTraceRequiredColumns),
                                        std::end(io::kTraceRequiredColumns));
    traceNames.insert(traceNames.end(), columns.begin(), columns.end());
    std::vector<std::string> impactNames(std::begin(io::kImpactColumns), std::end(io::kImpactColumns));
    // A world of several bodies: the two bodies of each impact (indices; -1 for a plane).
    d->bodyColumns = scenario.body && !scenario.body->bodies.empty();
    if (d->bodyColumns) impactNames.insert(impactNames.end(), {"body_a", "body_b"});
    error = d->createTable(d->trace, "trace", traceNames, std::string());
    if (error.empty()) error = d->createTable(d->impacts, "impacts", impactNames, "constraint");
    if (error.empty()) error = d->createPoses(system->scene(scenario));
  }
  if (error.empty()) {
    static_assert(std::string_view(io::kImpactColumns[3]) == "constraint");
    const hid_t constraint = d->impacts.columns[3].dataset.get();
    if (!detail::writeStrings(constraint, "names", system->info().constraints)) {
      error = d->fail("cannot write the constraint names");
    }
    if (error.empty() && d->bodyColumns) {
      std::vector<std::string> bodies;
      for (const BodyEntry& b : scenario.body->bodies) {
        bodies.push_back(b.name.empty() ? std::string("b").append(std::to_string(bodies.size())) : b.name);
      }
      const std::size_t first = std::size(io::kImpactColumns);
      for (std::size_t k = first; k < first + 2; ++k) {
        if (!detail::writeStrings(d->impacts.columns[k].dataset.get(), "names", bodies)) {
          error = d->fail("cannot write the body names");
        }
      }
    }
  }
  if (!error.empty()) {
    discard();
    return error;
  }
  d->systemColumns = columns.size();
  return {};
}

std::string RunFileWriter::onRow(const Simulation& simulation, const io::TraceRow& row) {
  if (!isOpen()) return d->path.string() + ": row for a file that is not open";
  if (row.columns.size() != d->systemColumns) {
    return d->path.string() + ": a row has " + std::to_string(row.columns.size()) +
           " columns, expected " + std::to_string(d->systemColumns);
  }
  auto& c = d->trace.columns;
  c[0].pending.push_back(static_cast<double>(row.step));
  c[1].pending.push_back(row.t);
  c[2].pending.push_back(row.energy.total());
  c[3].pending.push_back(row.energy.kinetic);
  c[4].pending.push_back(row.energy.potential);
  c[5].pending.push_back(row.energyRelError);
  c[6].pending.push_back(static_cast<double>(row.impacts));
  for (std::size_t k = 0; k < row.columns.size(); ++k) c[7 + k].pending.push_back(row.columns[k]);
  simulation.poses(d->scratch);
  for (std::size_t b = 0; b < d->scratch.size(); ++b) {
    const Pose& pose = d->scratch[b];
    std::vector<double>& position = d->poses[2 * b].pending;
    std::vector<double>& rotation = d->poses[2 * b + 1].pending;
    position.insert(position.end(), pose.position.data(), pose.position.data() + 3);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) rotation.push_back(pose.rotation(i, j));  // row-major
    }
  }
  if (c[0].pending.size() < kChunkRows) return {};
  const detail::QuietErrors quiet;
  return d->flushTrace();
}

std::string RunFileWriter::onImpact(const ImpactRecord& impact, std::string_view) {
  if (!isOpen()) return d->path.string() + ": impact for a file that is not open";
  auto& c = d->impacts.columns;  // the order of io::kImpactColumns
  c[0].pending.push_back(static_cast<double>(impact.step));
  c[1].pending.push_back(impact.t);
  c[2].pending.push_back(impact.alpha);
  c[3].pending.push_back(static_cast<double>(impact.constraint));
  c[4].pending.push_back(impact.energyBefore);
  c[5].pending.push_back(impact.energyAfter);
  c[6].pending.push_back(impact.impulse);
  c[7].pending.push_back(impact.reflected ? 1.0 : 0.0);
  if (d->bodyColumns) {
    c[8].pending.push_back(static_cast<double>(impact.bodyA));
    c[9].pending.push_back(static_cast<double>(impact.bodyB));
  }
  const Eigen::Vector3d& point = impact.contactPoint;
  d->impactPoints.pending.insert(d->impactPoints.pending.end(), point.data(), point.data() + 3);
  if (c[0].pending.size() < kChunkRows) return {};
  const detail::QuietErrors quiet;
  return d->flushImpacts();
}

std::string RunFileWriter::commit(const io::RunSummary& summary) {
  if (!isOpen()) return d->path.string() + ": commit of a file that is not open";
  const detail::QuietErrors quiet;
  std::string error = d->flushTrace();
  if (error.empty()) error = d->flushImpacts();
  if (error.empty()) {
    const hid_t root = d->file.get();
    const bool ok = detail::writeInt64(root, "steps", summary.steps) &&
                    detail::writeDouble(root, "t_end", summary.tEnd) &&
                    detail::writeString(root, "status", summary.statusText()) &&
                    detail::writeString(root, "message", summary.message) &&
                    detail::writeDouble(root, "energy_dissipated", summary.energyDissipated) &&
                    detail::writeDouble(root, "settled_t", summary.settledTime);
    if (!ok) error = d->fail("cannot write the run's end");
  }
  if (error.empty()) {
    for (Table* t : {&d->trace, &d->impacts}) {
      t->columns.clear();
      t->group.close();
    }
    d->poses.clear();
    d->impactPoints = Block();
    // Everything to disk while the file can still be thrown away cleanly: a close whose own flush
    // fails leaves HDF5 with a half-closed file (see close()).
    if (H5Fflush(d->file.get(), H5F_SCOPE_GLOBAL) < 0) {
      error = d->fail("cannot finish the HDF5 file");
    } else if (!d->file.close()) {
      error = d->fail("cannot finish the HDF5 file");
    }
  }
  if (error.empty()) error = d->reservation.commit();
  if (!error.empty()) discard();
  return error;
}

void RunFileWriter::discard() {
  const detail::QuietErrors quiet;
  d->close(false);
  d->reservation.discard();
  d->systemColumns = 0;
}

}  // namespace ricochet::hdf5
