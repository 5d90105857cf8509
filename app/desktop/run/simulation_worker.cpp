#include "app/desktop/run/simulation_worker.hpp"

#include "core/io/trace.hpp"
#include "core/model/registry.hpp"
#include "core/se3/rigid_body_system.hpp"

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

// Series fed from computed quantities rather than from a Simulation column.
enum Computed { kTotal = -1, kKinetic = -2, kPotential = -3, kError = -4, kAbsError = -5 };

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The running body's mass properties (a scenario with a body: rigid-body).
std::optional<BodyFigures> bodyFiguresOf(const Scenario& scenario) {
  if (!scenario.body) return std::nullopt;
  const se3::BuiltBody b = se3::buildScenarioBody(scenario);
  if (!b.ok()) return std::nullopt;
  return BodyFigures{b.mass, b.volume, b.centreOfMass, b.principalMoments, b.inputVertices,
                     b.hullVertices};
}
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
  CreateResult created = createSimulation(scenario);
  if (!created.simulation) {
    emit rejected(requestId, QString::fromStdString(created.error));
    return;  // the running simulation (if any) is untouched
  }
  auto info = std::make_shared<RunInfo>();
  info->requestId = requestId;
  info->scenario = scenario;
  info->scene = findSystem(scenario.system)->scene(scenario);
  begin(std::move(created.simulation), std::move(info), play);
}

void SimulationWorker::startRecorded(std::shared_ptr<const hdf5::RunFile> run, const QString& label,
                                     std::uint64_t requestId, bool play) {
  const SystemDescription* system = run ? findSystem(run->scenario.system) : nullptr;
  if (!system) {
    emit rejected(requestId,
                  QStringLiteral("%1: unknown system '%2'")
                      .arg(label, run ? QString::fromStdString(run->system) : QString()));
    return;
  }
  auto info = std::make_shared<RunInfo>();
  info->requestId = requestId;
  info->scenario = run->scenario;
  info->scene = system->scene(run->scenario);
  if (const std::string e = hdf5::RecordedRun::check(*run, info->scene.bodies.size()); !e.empty()) {
    emit rejected(requestId, QStringLiteral("%1: %2").arg(label, QString::fromStdString(e)));
    return;
  }
  info->recording = run;
  info->recordingLabel = label;
  info->recordingHasPoses = run->hasPoses();
  if (!run->hasPoses()) info->scene.bodies.clear();  // nothing rather than bodies at made-up places
  begin(std::make_unique<hdf5::RecordedRun>(std::move(run)), std::move(info), play);
}

void SimulationWorker::begin(std::unique_ptr<Simulation> sim, std::shared_ptr<RunInfo> info,
                             bool play) {
  const EnergySplit e0 = sim->energy();
  if (!std::isfinite(e0.total())) {
    emit rejected(info->requestId, QStringLiteral("initial energy is not finite (E0 = %1)")
                                       .arg(QString::fromStdString(formatNumber(e0.total()))));
    return;
  }
  const SystemDescription* system = findSystem(info->scenario.system);
  info->generation = ++generation_;
  info->energyInitial = e0.total();
  info->relativeError = e0.total() != 0.0;
  info->body = bodyFiguresOf(info->scenario);

  // Plotted series: the energy split, extra energies (e.*), the energy error (signed and its
  // magnitude, for the log view), the momentum-like quantities (mom.*), then every other trace
  // column, so that any of them can be plotted from the start of the run.
  const auto columns = sim->columns();
  seriesColumn_.clear();
  auto add = [&](std::string name, SeriesInfo::Group group, int source) {
    info->series.push_back(SeriesInfo{std::move(name), group});
    seriesColumn_.push_back(source);
  };
  add("total", SeriesInfo::Group::Energy, kTotal);
  add("kinetic", SeriesInfo::Group::Energy, kKinetic);
  add("potential", SeriesInfo::Group::Energy, kPotential);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (startsWith(columns[c], "e.")) add(columns[c], SeriesInfo::Group::Energy, int(c));
  }
  add("energy error", SeriesInfo::Group::Error, kError);
  add("|energy error|", SeriesInfo::Group::AbsError, kAbsError);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (startsWith(columns[c], "mom.")) add(columns[c], SeriesInfo::Group::Momentum, int(c));
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (!startsWith(columns[c], "e.") && !startsWith(columns[c], "mom.")) {
      add(columns[c], SeriesInfo::Group::Column, int(c));
    }
  }
  info->constraints = system->info().constraints;

  sim_ = std::move(sim);
  recorded_ = info->recording ? static_cast<hdf5::RecordedRun*>(sim_.get()) : nullptr;
  info_ = info;
  energyInitial_ = e0.total();
  errorScale_ = 1.0 / io::energyScale(e0);  // the CLI's energy_rel_error, same denominator
  decimator_ = trace::MinMaxDecimator(int(info->series.size()), kDecimatorBuckets);
  rows_ = StrideRows(int(info->series.size()), kPhaseRows);
  impactRows_ = ImpactRows(int(info->series.size()));
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
  path_.clear();
  path_.reserve(kPathHistory);
  pathStep_.clear();
  pathStep_.reserve(kPathHistory);
  recentCount_ = recentNext_ = 0;
  pathStride_ = pathCountdown_ = 1;
  markCount_ = markNext_ = 0;
  marksDropped_ = 0;
}

void SimulationWorker::restart(bool play) {
  if (info_->recording) {
    startRecorded(info_->recording, info_->recordingLabel, 0, play);
  } else {
    start(info_->scenario, 0, play);
  }
}

void SimulationWorker::seek(double t) {
  if (!recorded_) return;
  const std::size_t target = recorded_->rowAt(t);
  const bool playing = running_;
  recorded_->rewind();
  clearRecords();
  finished_ = false;
  record();
  trackPath();
  while (recorded_->row() < target && stepAndRecord()) {
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
  // A replay shows the recorded error (the CLI's division), a live run its own.
  lastError_ =
      recorded_ ? recorded_->energyRelError() : (e.total() - energyInitial_) * errorScale_;
  for (std::size_t i = 0; i < seriesColumn_.size(); ++i) {
    const int c = seriesColumn_[i];
    double v;
    switch (c) {
      case kTotal: v = e.total(); break;
      case kKinetic: v = e.kinetic; break;
      case kPotential: v = e.potential; break;
      case kError: v = lastError_; break;
      case kAbsError: v = std::fabs(lastError_); break;
      default: v = columnValues_[std::size_t(c)]; break;
    }
    seriesValues_[i] = v;
  }
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
  const Eigen::Vector3d& p = poses_[std::size_t(tracked_)].position;
  recent_[std::size_t(recentNext_)] = p;
  recentNext_ = (recentNext_ + 1) % kPathRecent;
  recentCount_ = std::min(recentCount_ + 1, kPathRecent);
  if (--pathCountdown_ > 0) return;
  pathCountdown_ = pathStride_;
  if (int(path_.size()) == kPathHistory) {
    // Full: keep the samples at even multiples of the stride (the newest included) and sample
    // half as often. This step lies one old stride past the newest kept sample, so the next
    // sample on the new grid is one old stride away; this one is not taken.
    for (std::size_t i = 0; i < std::size_t(kPathHistory / 2); ++i) {
      path_[i] = path_[2 * i + 1];
      pathStep_[i] = pathStep_[2 * i + 1];
    }
    path_.resize(kPathHistory / 2);
    pathStep_.resize(kPathHistory / 2);
    pathStride_ *= 2;
    return;
  }
  path_.push_back(p);
  pathStep_.push_back(sim_->step());
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
  sim_->poses(poses_);
  s->poses = poses_;
  s->seeked = seeked_;
  seeked_ = false;
  // The history up to where the recent ring starts, then the ring (oldest first).
  const std::int64_t recentFirst = sim_->step() - recentCount_ + 1;
  s->path.reserve(path_.size() + std::size_t(recentCount_));
  for (std::size_t i = 0; i < path_.size() && pathStep_[i] < recentFirst; ++i) s->path.push_back(path_[i]);
  for (int k = 0; k < recentCount_; ++k) {
    s->path.push_back(recent_[std::size_t((recentNext_ - recentCount_ + k + kPathRecent) % kPathRecent)]);
  }
  // Sample more densely again when the snapshots come more often than the stride needs (e.g.
  // after a switch from max speed to 1x): aim at a quarter to a whole buffer per snapshot.
  if (pathStride_ > 1 && int(path_.size()) < kPathHistory / 4) {
    pathStride_ /= 2;
    pathCountdown_ = std::min(pathCountdown_, pathStride_);
  }
  path_.clear();
  pathStep_.clear();
  recentCount_ = 0;
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
