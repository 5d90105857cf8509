#pragma once
// Writes a run file (layout: run_file.hpp) from core/io's run driver: a RecordSink that gets the
// very rows and impacts the CSV files get, so `--csv`, `--impacts-csv` and `--h5` hold the same
// numbers. The file is built under a temporary name next to the target (core/io/atomic_file.hpp)
// and renamed over it by commit(); a cancelled or failed run leaves no file, and an existing file
// of that name untouched. Rows are buffered one chunk per column at most.
//
//   hdf5::RunFileWriter h5;
//   if (std::string e = h5.open("run.h5", scenario, simulation.columns(), every); !e.empty()) ...
//   options.sinks.push_back(&h5);
//   io::runSimulation(simulation, scenario, options);  // commits or discards it

#include "core/io/trace.hpp"

#include <filesystem>
#include <memory>
#include <span>
#include <string>

namespace ricochet::hdf5 {

class RunFileWriter final : public io::RecordSink {
 public:
  RunFileWriter();
  ~RunFileWriter() override;  ///< discards a file that was not committed
  RunFileWriter(const RunFileWriter&) = delete;
  RunFileWriter& operator=(const RunFileWriter&) = delete;

  /// Starts the file for a run of `scenario` (a registered system) whose simulation has these
  /// system columns (Simulation::columns()), recording every `every`-th step: the temporary file,
  /// the root attributes, the empty datasets. Empty on success, otherwise one line naming `path`
  /// (missing folder, a folder of that name, not writable).
  std::string open(const std::filesystem::path& path, const Scenario& scenario,
                   std::span<const std::string> columns, std::int64_t every);
  bool isOpen() const;

  std::string onRow(const Simulation& simulation, const io::TraceRow& row) override;
  std::string onImpact(const ImpactRecord& impact, std::string_view constraint) override;
  /// Writes the last rows and the attributes steps, t_end, status, message, energy_dissipated
  /// and settled_t (NaN when not settled), closes the file and renames it over the target.
  std::string commit(const io::RunSummary& summary) override;
  void discard() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace ricochet::hdf5
