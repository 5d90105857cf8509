#pragma once
// What the simulation worker tells the GUI: a RunInfo when a run (re)starts, then Snapshots at a
// bounded rate. Both are immutable once emitted and travel as shared pointers through queued
// signals, so the GUI reads them without locks and without copying.

#include "app/desktop/run/plot_samples.hpp"
#include "core/model/scene.hpp"
#include "core/model/system.hpp"
#include "core/trace/minmax_decimator.hpp"
#include "io/hdf5/run_file.hpp"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ricochet::app {

/// One plotted quantity. Values are fed to the worker's decimator every step, and are the
/// columns of the phase and impact rows.
struct SeriesInfo {
  /// Energy, Error and Momentum: shown by the default panels; Column: any other trace column
  /// (q., v., p., con.), offered for the panels the user sets up.
  enum class Group { Energy, Error, AbsError, Momentum, Column };
  std::string name;  ///< "total", "kinetic", "potential", a column name ("e.discrete", "mom.px")
  Group group = Group::Energy;
};

/// Sent once per run (a successful start or reset).
struct RunInfo {
  std::uint64_t generation = 0;  ///< increases with every run; snapshots carry it
  std::uint64_t requestId = 0;   ///< the GUI request that started the run (0: reset)
  Scenario scenario;             ///< exactly what runs
  SceneSpec scene;               ///< system->scene(parameters)
  std::vector<SeriesInfo> series;
  std::vector<std::string> constraints;  ///< the system's constraint names (ImpactRow::constraint)
  double energyInitial = 0.0;    ///< E0, J: the reference of the relative energy error
  /// True when E0 != 0: the error is (E - E0)/|E0|. Otherwise it is divided by K0 + |V0|
  /// (io::energyScale, as the CLI's energy_rel_error).
  bool relativeError = true;
  /// Set when the scenario has a body (rigid-body): what it weighs and how it turns
  /// (SystemDescription::bodyFigures).
  std::optional<BodyFigures> body;
  /// A replay (File > Open Run...): the run file played back without integrating
  /// (io/hdf5/recorded_run.hpp), and the name it was opened under. Null for a live run.
  std::shared_ptr<const hdf5::RunFile> recording;
  QString recordingLabel;
  /// A replay of a file without poses: `scene` has no bodies (nothing drawn rather than bodies at
  /// made-up places).
  bool recordingHasPoses = true;
  bool replay() const { return recording != nullptr; }
};

/// An impact to flash in the 3-D view.
struct ImpactMark {
  double t = 0.0;  ///< s
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  int constraint = 0;
};

/// The state of the run at one moment, plus the decimated plot data up to that moment.
struct Snapshot {
  std::uint64_t generation = 0;
  double t = 0.0;  ///< s
  std::int64_t step = 0;
  std::int64_t impacts = 0;
  EnergySplit energy;
  double energyError = 0.0;  ///< (E - E0)/io::energyScale(E0 split): dimensionless
  double minGap = 0.0;       ///< m (or rad): min_j g_j
  double stepsPerSecond = 0.0;
  bool running = false;
  bool finished = false;  ///< stopped at t_end
  QString failure;        ///< non-empty when the integrator failed (the run is then paused)
  /// Non-empty when the run's energy error passed its integrator's bound so far (the CLI's
  /// summary `warning`, core/io/energy_check.hpp); the run goes on.
  QString warning;
  std::vector<Pose> poses;
  /// A replay jumped to another time (the slider): `path` is the whole trail up to `t`, not the
  /// path since the previous snapshot, and no impact flashes.
  bool seeked = false;
  /// Where the tracked body went since the previous snapshot (world positions, m, oldest first),
  /// at most SimulationWorker::kPathSamples of them: samples spread evenly over the steps, then
  /// every one of the last kPathRecent steps. The trail follows the integrated path even when one
  /// snapshot spans thousands of steps, exactly so just behind the body.
  std::vector<Eigen::Vector3d> path;
  std::vector<ImpactMark> newImpacts;  ///< since the previous snapshot (bounded)
  std::int64_t droppedImpacts = 0;     ///< impacts not flashed because too many arrived at once
  trace::PlotData plot;                ///< one series per RunInfo::series
  /// Rows of every series at evenly spaced steps (phase portraits), and the impacts the plots
  /// draw with the row after each (impact map, impact read-out). Shared between snapshots while
  /// unchanged; never null in a snapshot.
  std::shared_ptr<const StrideRows> rows;
  std::shared_ptr<const ImpactRows> impactRows;
};

using RunInfoPtr = std::shared_ptr<const RunInfo>;
using SnapshotPtr = std::shared_ptr<const Snapshot>;

}  // namespace ricochet::app

Q_DECLARE_METATYPE(ricochet::app::RunInfoPtr)
Q_DECLARE_METATYPE(ricochet::app::SnapshotPtr)
