#include "app/desktop/run/simulation_worker.hpp"

#include "core/io/energy_check.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"

#include <QMetaObject>
#include <QTimer>

#include <algorithm>
#include <cmath>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace ricochet::app {

namespace {
constexpr double kFrameSeconds = 1.0 / 60.0;  // snapshot period: about 60 per second, the display rate
constexpr double kRateWindow = 0.5;           // s of wall time per steps/s measurement
constexpr double kMaxLag = 0.25;              // s: a paced run further behind drops the backlog
constexpr int kDecimatorBuckets = 2048;
constexpr int kPhaseRows = 4096;  // rows kept for the phase portraits (StrideRows)
}  // namespace

SimulationWorker::SimulationWorker(std::shared_ptr<std::atomic<bool>> snapshotBusy)
    : busy_(std::move(snapshotBusy)) {
  timer_ = new QTimer(this);  // a child: moves to the worker thread with this object
  timer_->setSingleShot(true);
  timer_->setTimerType(Qt::PreciseTimer);
  connect(timer_, &QTimer::timeout, this, &SimulationWorker::tick);
  wall_.start();
}

SimulationWorker::~SimulationWorker() = default;

void SimulationWorker::start(const Scenario& scenario, std::uint64_t requestId, bool play) {
  begin(startLive(scenario, requestId), play);  // a refusal leaves the running run untouched
}

void SimulationWorker::startRecorded(std::shared_ptr<const hdf5::RunFile> run, const QString& label,
                                     std::uint64_t requestId, bool play) {
  begin(startReplay(std::move(run), label, requestId), play);
}

void SimulationWorker::begin(FeedStart fresh, bool play) {
  if (!fresh.feed) {
    emit rejected(fresh.requestId, fresh.error);
    return;  // the running simulation (if any) is untouched
  }
  std::shared_ptr<RunInfo> info = std::move(fresh.info);
  Simulation& sim = fresh.feed->simulation();
  const EnergySplit e0 = sim.energy();
  if (!std::isfinite(e0.total())) {
    emit rejected(info->requestId, QStringLiteral("initial energy is not finite (E0 = %1)")
                                       .arg(QString::fromStdString(formatNumber(e0.total()))));
    return;
  }
  const SystemDescription* system = findSystem(info->scenario.system);
  info->generation = ++generation_;
  info->energyInitial = e0.total();
  info->relativeError = e0.total() != 0.0;
  info->body = system->bodyFigures(info->scenario);
  const auto columns = sim.columns();
  layout_ = SeriesLayout(columns);
  info->series = layout_.series();
  info->constraints = system->info().constraints;

  feed_ = std::move(fresh.feed);
  sim_ = &sim;
  info_ = info;
  // The energy balance behind the run's warning (core/io/energy_check.hpp): against E0 and the
  // CLI's energy scale, with the dissipated energy when the run records it.
  energyInitial_ = e0.total();
  energyScale_ = io::energyScale(e0);
  const auto dissipated = std::find(columns.begin(), columns.end(), io::kDissipatedEnergyColumn);
  dissipatedColumn_ = dissipated == columns.end() ? -1 : int(dissipated - columns.begin());
  decimator_ = trace::MinMaxDecimator(int(info->series.size()), kDecimatorBuckets);
  rows_ = StrideRows(int(info->series.size()), kPhaseRows);
  impactRows_ = ImpactRows(int(info->series.size()), kDecimatorBuckets);
  columnValues_.assign(columns.size(), 0.0);
  seriesValues_.assign(info->series.size(), 0.0);
  poses_.assign(info->scene.bodies.size(), Pose{});
  const int bodies = int(info->scene.bodies.size());
  tracked_ = bodies == 0 ? -1 : std::clamp(info->scene.trackedBody, 0, bodies - 1);
  clearRecords();
  finished_ = false;
  failure_.clear();
  stepsPerSecond_ = 0.0;
  record();

  emit started(info);
  running_ = play;
  restartClock();
  emitSnapshot(true);
  if (running_) scheduleTick(0);
}

void SimulationWorker::clearRecords() {
  decimator_.clear();
  rows_.clear();
  impactRows_.clear();
  rowsChanged_ = impactsChanged_ = true;
  trail_.clear();
  markCount_ = markNext_ = 0;
  marksDropped_ = 0;
  maxBalanceError_ = 0.0;
}

void SimulationWorker::restart(bool play) { begin(feed_->again(0), play); }

void SimulationWorker::seek(double t) {
  if (!feed_) return;
  const std::optional<std::int64_t> steps = feed_->rewindFor(t);
  if (!steps) return;  // a live run
  const bool playing = running_;
  clearRecords();
  finished_ = false;
  record();
  trackPath();
  for (std::int64_t i = 0; i < *steps && stepAndRecord(); ++i) {
  }
  running_ = playing;
  markCount_ = 0;  // no flashes of every impact passed over
  marksDropped_ = 0;
  seeked_ = true;
  restartClock();
  emitSnapshot(true);
  if (running_) scheduleTick(0);
}

void SimulationWorker::play() {
  if (!sim_) return;
  if (!failure_.isEmpty()) {  // a failed run stays paused on its last good state
    emitSnapshot(true);
    return;
  }
  if (finished_) {  // play after stopping at t_end (or a replay's last row) starts over
    restart(true);
    return;
  }
  running_ = true;
  restartClock();
  emitSnapshot(true);
  scheduleTick(0);
}

void SimulationWorker::pause() {
  if (!sim_) return;
  running_ = false;
  timer_->stop();
  stepsPerSecond_ = 0.0;
  emitSnapshot(true);
}

void SimulationWorker::stepOnce() {
  if (!sim_) return;
  running_ = false;
  timer_->stop();
  stepsPerSecond_ = 0.0;
  if (failure_.isEmpty()) {
    finished_ = false;
    stepAndRecord();
  }
  emitSnapshot(true);
}

void SimulationWorker::reset() {
  if (!info_) return;
  restart(running_);
}

void SimulationWorker::setSpeed(double speed) {
  speed_ = (std::isfinite(speed) && speed > 0.0) ? speed : kMaxSpeed;
  restartClock();
}

void SimulationWorker::setPlotColumns(int columns) {
  columns = std::clamp(columns, 16, 8192);
  if (columns == plotColumns_) return;
  plotColumns_ = columns;
  if (sim_ && !running_) emitSnapshot(true);  // a paused run redraws at the new width
}

void SimulationWorker::setStopAtEnd(bool stop) { stopAtEnd_ = stop; }

void SimulationWorker::setChunkMilliseconds(double ms) {
  chunkMs_ = std::clamp(std::isfinite(ms) ? ms : 4.0, 0.5, 50.0);
}

void SimulationWorker::onImpact(const ImpactRecord& impact) {
  decimator_.markEvent(impact.t);
  impactRows_.add(ImpactRow{decimator_.eventCount(), impact.step, impact.t, impact.alpha,
                            impact.constraint, impact.energyBefore, impact.energyAfter,
                            impact.impulse, impact.reflected});
  impactsChanged_ = true;
  if (!impact.contactPoint.allFinite()) return;  // nothing to flash
  marks_[std::size_t(markNext_)] = ImpactMark{impact.t, impact.contactPoint, impact.constraint};
  markNext_ = (markNext_ + 1) % kImpactMarks;
  if (markCount_ < kImpactMarks) {
    ++markCount_;
  } else {
    ++marksDropped_;  // the ring keeps the latest ones
  }
}

void SimulationWorker::restartClock() {
  const double now = wall_.nsecsElapsed() * 1e-9;
  anchorWall_ = now;
  anchorSim_ = sim_ ? sim_->time() : 0.0;
  rateWall_ = now;
  rateSteps_ = sim_ ? sim_->step() : 0;
}

void SimulationWorker::scheduleTick(int ms) { timer_->start(std::max(ms, 0)); }

void SimulationWorker::record() {
  const EnergySplit e = sim_->energy();
  sim_->sample(columnValues_);
  lastError_ = feed_->energyError(e);  // a replay shows the recorded error, a live run its own
  const double dissipated =
      dissipatedColumn_ >= 0 ? columnValues_[std::size_t(dissipatedColumn_)] : 0.0;
  const double balance =
      std::fabs(io::energyBalanceError(e.total(), dissipated, energyInitial_, energyScale_));
  if (!std::isnan(maxBalanceError_) && !(balance <= maxBalanceError_)) maxBalanceError_ = balance;
  layout_.values(e, lastError_, columnValues_, seriesValues_);
  decimator_.append(sim_->time(), seriesValues_);
  const std::int64_t step = sim_->step();
  if (rows_.wants(step)) {
    rows_.add(step, seriesValues_);
    rowsChanged_ = true;
  }
  if (impactRows_.pending()) impactRows_.fill(step, seriesValues_);
  if (decimator_.bucketWidth() > impactRows_.bucketWidth()) {
    impactRows_.setBucketWidth(decimator_.bucketWidth());
    impactsChanged_ = true;
  }
}

bool SimulationWorker::stepAndRecord() {
  const AdvanceResult r = sim_->advance(1, this);
  if (!r.ok()) {
    failure_ = QString::fromStdString(failureText(*sim_, r));
    running_ = false;
    return false;
  }
  if (r.stepsTaken == 0) {  // a replay's last row: the run is over
    finished_ = true;
    running_ = false;
    return false;
  }
  record();
  trackPath();
  return true;
}

void SimulationWorker::trackPath() {
  if (tracked_ < 0) return;
  sim_->poses(poses_);
  trail_.add(sim_->step(), poses_[std::size_t(tracked_)].position);
}

void SimulationWorker::integrateChunk() {
  // Integrates until the pacing target (or t_end) is reached or the chunk's wall budget is spent,
  // reading the clock every `batch_` steps (adapted so a batch costs about 50 us).
  const double start = wall_.nsecsElapsed() * 1e-9;
  const double deadline = start + chunkMs_ * 1e-3;
  const double h = sim_->timeStep();
  double target = std::numeric_limits<double>::infinity();
  if (speed_ != kMaxSpeed) target = anchorSim_ + speed_ * (start - anchorWall_);
  const double tEnd = info_->scenario.tEnd;
  if (stopAtEnd_) target = std::min(target, tEnd);

  double now = start;
  std::int64_t done = 0;
  while (true) {
    std::int64_t n = batch_;
    if (std::isfinite(target)) {
      // Steps still needed to reach the target (a half step of slack against round-off).
      const double remaining = (target - sim_->time()) / h;
      if (remaining < 0.5) break;
      n = std::min<std::int64_t>(n, std::int64_t(std::ceil(remaining - 0.5)));
    }
    for (std::int64_t i = 0; i < n; ++i) {
      if (!stepAndRecord()) return;
    }
    done += n;
    now = wall_.nsecsElapsed() * 1e-9;
    if (now >= deadline) break;
  }
  if (done > 0 && now > start) {
    const double perStep = (now - start) / double(done);
    batch_ = std::clamp<std::int64_t>(std::int64_t(50e-6 / perStep), 1, 4096);
  }
  if (stopAtEnd_ && sim_->time() >= tEnd - 0.5 * h) {
    finished_ = true;
    running_ = false;
    return;
  }
  if (speed_ != kMaxSpeed && std::isfinite(target) &&
      (target - sim_->time()) > kMaxLag * speed_) {
    // Far behind the requested pace (the system is too slow for this speed): drop the backlog
    // instead of trying to catch up, so the GUI keeps getting fresh frames.
    anchorWall_ = now;
    anchorSim_ = sim_->time();
  }
}

void SimulationWorker::tick() {
  if (!running_ || !sim_) return;
  integrateChunk();
  const double now = wall_.nsecsElapsed() * 1e-9;
  if (now - rateWall_ >= kRateWindow) {
    stepsPerSecond_ = double(sim_->step() - rateSteps_) / (now - rateWall_);
    rateWall_ = now;
    rateSteps_ = sim_->step();
  }
  if (!running_) {  // failed or reached t_end during the chunk
    stepsPerSecond_ = 0.0;
    emitSnapshot(true);
    return;
  }
  if (now - lastEmit_ >= kFrameSeconds) emitSnapshot(false);
  if (speed_ == kMaxSpeed) {
    scheduleTick(0);  // back through the event loop: control calls are served between chunks
  } else {
    // Paced: the target is reached; sleep until the next frame is due.
    const double untilFrame = lastEmit_ + kFrameSeconds - wall_.nsecsElapsed() * 1e-9;
    scheduleTick(int(std::clamp(untilFrame * 1e3, 1.0, 1e3 * kFrameSeconds)));
  }
}

void SimulationWorker::emitSnapshot(bool forced) {
  if (!sim_) return;
  if (!forced && busy_->load(std::memory_order_acquire)) return;  // GUI still drawing the last
  busy_->store(true, std::memory_order_release);
  // Periodic snapshots keep to a 1/60 s grid: the tick that finds one due comes up to ~1 ms late
  // (whole-millisecond timers), and timing the next from that moment lost ~4% of the frames
  // (57.6 per second at 1x). One that is more than a frame late (the GUI was still drawing the
  // last) starts the grid afresh instead of catching up.
  const double now = wall_.nsecsElapsed() * 1e-9;
  lastEmit_ = !forced && now - lastEmit_ < 2.0 * kFrameSeconds ? lastEmit_ + kFrameSeconds : now;

  auto s = std::make_shared<Snapshot>();
  s->generation = generation_;
  s->t = sim_->time();
  s->step = sim_->step();
  s->impacts = sim_->impactCount();
  s->energy = sim_->energy();
  s->energyError = lastError_;
  s->minGap = sim_->minGap();
  s->stepsPerSecond = running_ ? stepsPerSecond_ : 0.0;
  s->running = running_;
  s->finished = finished_;
  s->failure = failure_;
  s->warning = QString::fromStdString(io::energyWarning(info_->scenario.system,
                                                        info_->scenario.integrator.name,
                                                        maxBalanceError_, dissipatedColumn_ >= 0));
  sim_->poses(poses_);
  s->poses = poses_;
  s->seeked = seeked_;
  seeked_ = false;
  trail_.take(sim_->step(), s->path);
  s->newImpacts.reserve(std::size_t(markCount_));
  for (int i = 0; i < markCount_; ++i) {
    const int idx = (markNext_ - markCount_ + i + kImpactMarks) % kImpactMarks;
    s->newImpacts.push_back(marks_[std::size_t(idx)]);
  }
  s->droppedImpacts = marksDropped_;
  markCount_ = 0;
  marksDropped_ = 0;
  decimator_.render(plotColumns_, s->plot);
  if (rowsChanged_ || !rowsShared_) rowsShared_ = std::make_shared<const StrideRows>(rows_);
  if (impactsChanged_ || !impactsShared_) impactsShared_ = std::make_shared<const ImpactRows>(impactRows_);
  rowsChanged_ = impactsChanged_ = false;
  s->rows = rowsShared_;
  s->impactRows = impactsShared_;
  emit snapshotReady(std::move(s));
}

// ---------------------------------------------------------------------------------------------

WorkerHost::WorkerHost(QObject* parent)
    : QObject(parent), busy_(std::make_shared<std::atomic<bool>>(false)) {
  qRegisterMetaType<RunInfoPtr>();
  qRegisterMetaType<SnapshotPtr>();
  worker_ = new SimulationWorker(busy_);
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &SimulationWorker::started, this, &WorkerHost::started);
  connect(worker_, &SimulationWorker::rejected, this, &WorkerHost::rejected);
  connect(worker_, &SimulationWorker::snapshotReady, this, &WorkerHost::snapshotReady);
  thread_.setObjectName(QStringLiteral("ricochet-integrator"));
  thread_.start();
#ifdef __linux__
  // At "max" speed the worker never sleeps. Qt's thread priorities are no-ops for Linux's normal
  // scheduler, so the worker thread gets the lowest nice value instead: it still has a whole core
  // whenever one is idle, but the GUI thread and Mesa's rasteriser threads (software OpenGL on a
  // 2-core machine) win the CPU whenever they need it. Measured under load: worst GUI-timer
  // lateness ~80 ms at nice +19 versus 110-230 ms at +5 (tests/test_gui_mainwindow).
  QMetaObject::invokeMethod(
      worker_,
      [] {
        const id_t self = static_cast<id_t>(gettid());
        setpriority(PRIO_PROCESS, self, getpriority(PRIO_PROCESS, self) + 19);
      },
      Qt::QueuedConnection);
#endif
}

WorkerHost::~WorkerHost() {
  thread_.quit();
  thread_.wait();
}

void WorkerHost::post(std::function<void(SimulationWorker&)> call) {
  SimulationWorker* w = worker_;
  QMetaObject::invokeMethod(w, [w, call = std::move(call)] { call(*w); }, Qt::QueuedConnection);
}

void WorkerHost::start(const Scenario& scenario, std::uint64_t requestId, bool play) {
  post([scenario, requestId, play](SimulationWorker& w) { w.start(scenario, requestId, play); });
}
void WorkerHost::startRecorded(std::shared_ptr<const hdf5::RunFile> run, const QString& label,
                               std::uint64_t requestId, bool play) {
  post([run = std::move(run), label, requestId, play](SimulationWorker& w) {
    w.startRecorded(run, label, requestId, play);
  });
}
void WorkerHost::seek(double t) {
  // A dragged slider asks many times while one seek runs: only the latest target is sought.
  seekTarget_->store(t, std::memory_order_relaxed);
  if (seekPending_->exchange(true)) return;
  post([target = seekTarget_, pending = seekPending_](SimulationWorker& w) {
    pending->exchange(false);  // acquires the target stored before the last seek()
    w.seek(target->load(std::memory_order_relaxed));
  });
}
void WorkerHost::play() { post([](SimulationWorker& w) { w.play(); }); }
void WorkerHost::pause() { post([](SimulationWorker& w) { w.pause(); }); }
void WorkerHost::stepOnce() { post([](SimulationWorker& w) { w.stepOnce(); }); }
void WorkerHost::reset() { post([](SimulationWorker& w) { w.reset(); }); }
void WorkerHost::setSpeed(double speed) { post([speed](SimulationWorker& w) { w.setSpeed(speed); }); }
void WorkerHost::setPlotColumns(int columns) {
  post([columns](SimulationWorker& w) { w.setPlotColumns(columns); });
}
void WorkerHost::setStopAtEnd(bool stop) {
  post([stop](SimulationWorker& w) { w.setStopAtEnd(stop); });
}
void WorkerHost::setChunkMilliseconds(double ms) {
  post([ms](SimulationWorker& w) { w.setChunkMilliseconds(ms); });
}

}  // namespace ricochet::app
