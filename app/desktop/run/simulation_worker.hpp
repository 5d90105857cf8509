#pragma once
// The integrator's thread. A SimulationWorker lives in its own QThread and owns what runs: a
// RunFeed (run_feed.hpp: a live simulation, created and validated here, or a run file played
// back). It advances it in chunks bounded in wall time, feeds every step's series
// (series_layout.hpp) to the plot decimator and the row buffers, samples the trail
// (trail_sampler.hpp), and emits Snapshots at about 60 per second through queued signals. It
// never touches a widget; the GUI never calls into it directly (WorkerHost posts calls into the
// worker's event loop and returns at once).

#include "app/desktop/run/run_data.hpp"
#include "app/desktop/run/run_feed.hpp"
#include "app/desktop/run/series_layout.hpp"
#include "app/desktop/run/trail_sampler.hpp"
#include "core/model/system.hpp"
#include "core/trace/minmax_decimator.hpp"

#include <QElapsedTimer>
#include <QObject>
#include <QThread>

#include <array>
#include <atomic>
#include <functional>
#include <memory>

class QTimer;

namespace ricochet::app {

class SimulationWorker : public QObject, private ImpactSink {
  Q_OBJECT
 public:
  /// `snapshotBusy` is shared with the GUI: set while a periodic snapshot waits to be consumed,
  /// so at most one periodic snapshot is ever queued, however slow the GUI is.
  explicit SimulationWorker(std::shared_ptr<std::atomic<bool>> snapshotBusy);
  ~SimulationWorker() override;

  static constexpr double kMaxSpeed = 0.0;  ///< speed value meaning "as fast as possible"
  /// Trail positions one snapshot carries (Snapshot::path): at most kPathHistory samples spread
  /// evenly over the steps since the previous snapshot, then the last kPathRecent steps each.
  static constexpr int kPathHistory = TrailSampler::kHistory;
  static constexpr int kPathRecent = TrailSampler::kRecent;
  static constexpr int kPathSamples = TrailSampler::kSamples;  ///< the most per snapshot

  // Control, called in the worker thread (WorkerHost posts them):
  /// Creates a simulation for `scenario`. On success it replaces the running one (new
  /// generation, started() then a snapshot) and plays if `play`; on failure the running
  /// simulation is untouched and rejected(requestId, message) is emitted.
  void start(const Scenario& scenario, std::uint64_t requestId, bool play);
  /// Replays a run file read by hdf5::readRunFile (not null) the same way, without integrating:
  /// one recorded row per step. `label` names it (RunInfo::recordingLabel). Refused (rejected())
  /// when its system is unknown or its rows do not fit its scene (RecordedRun::check).
  void startRecorded(std::shared_ptr<const hdf5::RunFile> run, const QString& label,
                     std::uint64_t requestId, bool play);
  /// A replay jumps to its last row at or before `t` (s), keeping the play/pause state; the plots
  /// are fed again from the first row (no integration). Nothing for a live run.
  void seek(double t);
  void play();
  void pause();
  /// Pauses and advances exactly one step of length h.
  void stepOnce();
  /// Restarts the current scenario from its initial conditions (keeps playing state).
  void reset();
  /// Simulated seconds per wall second (> 0), or kMaxSpeed.
  void setSpeed(double speed);
  /// Pixel width of the plots: the decimated data has at most two points per column.
  void setPlotColumns(int columns);
  /// Pause when the simulated time reaches the scenario's t_end.
  void setStopAtEnd(bool stop);
  /// Wall-time budget of one integration chunk, ms (the worker answers control calls between
  /// chunks).
  void setChunkMilliseconds(double ms);

 signals:
  void started(ricochet::app::RunInfoPtr info);
  void rejected(quint64 requestId, const QString& message);
  void snapshotReady(ricochet::app::SnapshotPtr snapshot);

 private:
  void onImpact(const ImpactRecord& impact) override;
  // Makes the started feed (at its initial state) what runs: series, decimator, first snapshot;
  // or answers rejected() with its refusal.
  void begin(FeedStart fresh, bool play);
  void clearRecords();      // decimator, rows, impacts, trail and marks back to empty
  void restart(bool play);  // the current run again from its start (reset, play after the end)
  void tick();
  void integrateChunk();
  bool stepAndRecord();  // one step + decimator feed; false on failure (run paused)
  void record();
  void trackPath();  // after each step: the tracked body's position to the trail
  void emitSnapshot(bool forced);
  void scheduleTick(int ms);
  void restartClock();

  std::shared_ptr<std::atomic<bool>> busy_;
  std::unique_ptr<RunFeed> feed_;
  Simulation* sim_ = nullptr;  // feed_->simulation()
  std::shared_ptr<const RunInfo> info_;
  std::uint64_t generation_ = 0;
  SeriesLayout layout_;
  trace::MinMaxDecimator decimator_;
  // Whole rows for the phase portraits and the impact map (plot_samples.hpp), and the copies the
  // last snapshot carried (a new copy only when they changed).
  StrideRows rows_;
  ImpactRows impactRows_;
  std::shared_ptr<const StrideRows> rowsShared_;
  std::shared_ptr<const ImpactRows> impactsShared_;
  bool rowsChanged_ = true;
  bool impactsChanged_ = true;
  std::vector<double> columnValues_;  // Simulation::sample() row
  std::vector<double> seriesValues_;  // one value per RunInfo::series
  std::vector<Pose> poses_;
  TrailSampler trail_;
  int tracked_ = -1;  // scene body whose path is sampled (-1: none)
  double lastError_ = 0.0;
  // The largest energy balance error so far and the run's dissipated-energy column (-1: none),
  // for the run's energy warning (core/io/energy_check.hpp), E0 and the energy scale it is
  // measured against.
  double maxBalanceError_ = 0.0;
  int dissipatedColumn_ = -1;
  double energyInitial_ = 0.0;
  double energyScale_ = 1.0;

  static constexpr int kImpactMarks = 32;
  std::array<ImpactMark, kImpactMarks> marks_{};
  int markCount_ = 0;
  int markNext_ = 0;
  std::int64_t marksDropped_ = 0;

  bool running_ = false;
  bool finished_ = false;
  bool seeked_ = false;  // the next snapshot follows a seek
  bool stopAtEnd_ = false;
  QString failure_;
  double speed_ = 1.0;
  int plotColumns_ = 800;
  double chunkMs_ = 4.0;

  QTimer* timer_ = nullptr;
  QElapsedTimer wall_;
  double anchorWall_ = 0.0;  // s of wall_ when the pacing clock was last anchored
  double anchorSim_ = 0.0;   // simulated time at that moment
  double lastEmit_ = -1.0;   // s of wall_
  double rateWall_ = 0.0;    // steps/s measurement window start (s of wall_)
  std::int64_t rateSteps_ = 0;
  double stepsPerSecond_ = 0.0;
  std::int64_t batch_ = 16;  // steps between clock reads, adapted to the step cost
};

/// The GUI side: owns the worker thread, forwards controls without waiting, and re-emits the
/// worker's signals in the GUI thread.
class WorkerHost : public QObject {
  Q_OBJECT
 public:
  explicit WorkerHost(QObject* parent = nullptr);
  ~WorkerHost() override;  // stops the thread (waits for the current chunk, a few ms)

  void start(const Scenario& scenario, std::uint64_t requestId, bool play);
  /// Replays a run file read by hdf5::readRunFile (not null) the same way, without integrating:
  /// one recorded row per step. `label` names it (RunInfo::recordingLabel). Refused (rejected())
  /// when its system is unknown or its rows do not fit its scene (RecordedRun::check).
  void startRecorded(std::shared_ptr<const hdf5::RunFile> run, const QString& label,
                     std::uint64_t requestId, bool play);
  /// A replay jumps to its last row at or before `t` (s), keeping the play/pause state; the plots
  /// are fed again from the first row (no integration). Nothing for a live run.
  void seek(double t);
  void play();
  void pause();
  void stepOnce();
  void reset();
  void setSpeed(double speed);
  void setPlotColumns(int columns);
  void setStopAtEnd(bool stop);
  void setChunkMilliseconds(double ms);
  /// Call once a periodic snapshot has been consumed (lets the worker emit the next one).
  void snapshotConsumed() { busy_->store(false, std::memory_order_release); }

 signals:
  void started(ricochet::app::RunInfoPtr info);
  void rejected(quint64 requestId, const QString& message);
  void snapshotReady(ricochet::app::SnapshotPtr snapshot);

 private:
  void post(std::function<void(SimulationWorker&)> call);
  std::shared_ptr<std::atomic<bool>> busy_;
  // seek(): the latest target, and whether a seek call is queued for the worker already.
  std::shared_ptr<std::atomic<double>> seekTarget_ = std::make_shared<std::atomic<double>>(0.0);
  std::shared_ptr<std::atomic<bool>> seekPending_ = std::make_shared<std::atomic<bool>>(false);
  QThread thread_;
  SimulationWorker* worker_ = nullptr;  // lives in thread_, deleted there
};

}  // namespace ricochet::app
