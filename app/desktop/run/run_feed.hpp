#pragma once
// What the worker plays. A RunFeed is a Simulation the worker advances step by step, plus what
// differs between its two kinds:
//
// * a live run (startLive): the system's simulation of a scenario, integrated; its energy error
//   is (E - E0)/io::energyScale(E0 split), the CLI's energy_rel_error;
// * a replay (startReplay): a run file read by hdf5::readRunFile, played back one recorded row per
//   step without integrating (hdf5::RecordedRun); its energy error is the recorded column, and it
//   can jump in time (seek).
//
// The worker holds either through this interface: it never asks which kind it has.

#include "app/desktop/run/run_data.hpp"
#include "core/model/system.hpp"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

namespace ricochet::app {

class RunFeed;

/// A feed ready to play and the RunInfo describing it (scenario, scene, requestId, recording;
/// the worker fills in the rest), or the one-line reason it was refused.
struct FeedStart {
  std::uint64_t requestId = 0;  ///< the GUI request it answers (0: a reset)
  std::unique_ptr<RunFeed> feed;
  std::shared_ptr<RunInfo> info;
  QString error;
};

class RunFeed {
 public:
  virtual ~RunFeed() = default;

  /// The run the worker advances (at its initial state when the feed is new).
  virtual Simulation& simulation() = 0;
  /// The energy error of the current state (dimensionless), `energy` being its energy now.
  virtual double energyError(const EnergySplit& energy) const = 0;
  /// A replay goes back to its first row and returns how many steps reach its last row at or
  /// before `t` (s). A live run cannot jump: nullopt, nothing changes.
  virtual std::optional<std::int64_t> rewindFor(double t) = 0;
  /// The same run again from its start (reset, or play after the end), as `requestId`.
  virtual FeedStart again(std::uint64_t requestId) const = 0;
};

/// A live run of `scenario`: createSimulation(), refused with its message.
FeedStart startLive(const Scenario& scenario, std::uint64_t requestId);

/// A replay of `run` (not null), named `label` (RunInfo::recordingLabel). Refused when its system
/// is unknown or its rows do not fit its scene (hdf5::RecordedRun::check); a file without poses
/// plays with no bodies in the scene (nothing rather than bodies at made-up places).
FeedStart startReplay(std::shared_ptr<const hdf5::RunFile> run, const QString& label,
                      std::uint64_t requestId);

}  // namespace ricochet::app
