#pragma once
// A recorded run played back as a Simulation: the window replays an HDF5 run file (File > Open
// Run...) through the very worker, decimator, plots and status bar that show a live run, and
// nothing integrates.
//
// One "step" of a RecordedRun is one trace row of the file (`every` steps of the original run,
// or fewer for the final row). After each advance the run is at that row: step(), time(),
// impactCount(), energy() and sample() are the row's recorded values bit for bit, poses() the
// recorded poses (NaN poses when the file has none: SceneView keeps its bodies where they are,
// and the window says so). The impacts recorded between the previous row and this one go to the
// ImpactSink with their recorded values and contact points. The last row ends the run: advance()
// then takes no step.
//
// Plain C++ over a RunFile (no Qt, no HDF5 calls): the file is read once, shared and immutable.

#include "core/model/system.hpp"
#include "io/hdf5/run_file.hpp"

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace ricochet::hdf5 {

class RecordedRun final : public Simulation {
 public:
  /// Plays `run` (not null) from its first row.
  explicit RecordedRun(std::shared_ptr<const RunFile> run);

  /// Empty when `run` can be replayed, else one line naming what does not fit: no trace rows,
  /// a trace without the required columns, or recorded poses for another number of bodies than
  /// the scenario's scene (`sceneBodies`).
  static std::string check(const RunFile& run, std::size_t sceneBodies);

  std::int64_t step() const override;
  double time() const override;
  std::int64_t impactCount() const override;
  /// The spacing of the recorded rows, h * every (s).
  double timeStep() const override;
  AdvanceResult advance(std::int64_t maxSteps, ImpactSink* sink) override;
  EnergySplit energy() const override;
  /// Not recorded: NaN.
  double minGap() const override;
  std::span<const std::string> columns() const override;
  void sample(std::span<double> out) const override;
  void poses(std::span<Pose> out) const override;

  /// The row's recorded energy_rel_error (the CLI's (E - E0)/scale, bit for bit).
  double energyRelError() const;

  const RunFile& file() const { return *run_; }
  const std::shared_ptr<const RunFile>& shared() const { return run_; }
  std::size_t rows() const { return rows_; }
  /// The row the run is at (0: the initial state).
  std::size_t row() const { return row_; }
  bool atEnd() const { return row_ + 1 >= rows_; }
  /// Back to the first row (no impact is reported).
  void rewind();
  /// The last row at or before `t` (s); 0 when `t` is before the first.
  std::size_t rowAt(double t) const;

 private:
  std::shared_ptr<const RunFile> run_;
  std::vector<std::string> columns_;  // the trace's system columns (after the required ones)
  std::vector<const std::vector<double>*> columnData_;
  const std::vector<double>*step_ = nullptr, *t_ = nullptr, *kinetic_ = nullptr,
        *potential_ = nullptr, *impacts_ = nullptr, *error_ = nullptr;
  std::size_t rows_ = 0;
  std::size_t row_ = 0;
  std::size_t nextImpact_ = 0;  // the first impact not yet reported
};

}  // namespace ricochet::hdf5
