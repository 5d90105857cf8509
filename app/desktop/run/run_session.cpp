#include "app/desktop/run/run_session.hpp"

#include "app/desktop/run/frame_pacer.hpp"
#include "app/desktop/run/simulation_worker.hpp"
#include "core/model/registry.hpp"

namespace ricochet::app {

namespace {
bool equalScenarios(const Scenario& a, const Scenario& b) {
  return a.system == b.system && a.parameters == b.parameters && a.initial == b.initial &&
         a.integrator.name == b.integrator.name && a.integrator.h == b.integrator.h &&
         a.integrator.tolerance == b.integrator.tolerance && a.tEnd == b.tEnd;
}
}  // namespace

RunSession::RunSession(QObject* parent) : RunSource(parent) {
  qRegisterMetaType<RunRequest>();
  host_ = new WorkerHost(this);
  connect(host_, &WorkerHost::started, this, &RunSession::onStarted);
  connect(host_, &WorkerHost::rejected, this, &RunSession::onRejected);
  connect(host_, &WorkerHost::snapshotReady, this, &RunSession::onSnapshot);
  pacer_ = new FramePacer(this);
  connect(pacer_, &FramePacer::acknowledge, this, [this] {
    if (host_) host_->snapshotConsumed();
  });
}

RunSession::~RunSession() {
  // Stop the worker thread before anything it could still signal to goes away.
  delete host_;
  host_ = nullptr;
}

QString RunSession::defaultSystemId() {
  for (const char* id : {"ellipsoid-plane", "ellipse-floor"}) {
    if (findSystem(id)) return QString::fromLatin1(id);
  }
  return systems().empty() ? QString() : QString::fromStdString(systems().front()->info().id);
}

std::uint64_t RunSession::send(const Scenario& scenario, RunRequest request) {
  if (!host_) return 0;
  const std::uint64_t id = nextRequest_++;
  requests_[id] = std::move(request);
  // A new run keeps the play/pause state; a run the integrator's failure paused plays again.
  host_->start(scenario, id, running_ || failedWhilePlaying_);
  return id;
}

void RunSession::openSystem(const QString& id, RequestKind kind) {
  const SystemDescription* system = findSystem(id.toStdString());
  if (!system) return;
  const Scenario stored = stored_ ? stored_(*system) : defaultScenario(*system);
  RunRequest request{kind, nullptr, id};
  request.defaults = equalScenarios(stored, defaultScenario(*system));
  send(stored, request);
}

void RunSession::openScenario(const Scenario& scenario, const QString& label, const QString& path) {
  send(scenario, RunRequest{RequestKind::File, nullptr, label, path});
}

void RunSession::replayRecording(std::shared_ptr<const hdf5::RunFile> run, const QString& label) {
  if (!host_ || !run) return;
  const std::uint64_t id = nextRequest_++;
  requests_[id] = RunRequest{RequestKind::Replay, nullptr, label};
  host_->startRecorded(std::move(run), label, id, running_ || failedWhilePlaying_);
}

void RunSession::seek(double t) {
  if (host_) host_->seek(t);
}

void RunSession::togglePlay() {
  failedWhilePlaying_ = false;
  running_ = !running_;
  if (running_) {
    host_->play();
  } else {
    host_->pause();
  }
  emit playingChanged(running_);
}

void RunSession::setPlaying(bool play) {
  running_ = play;
  emit playingChanged(running_);
}

void RunSession::stepOnce() {
  running_ = false;
  emit playingChanged(false);
  host_->stepOnce();
}

void RunSession::reset() {
  host_->reset();
  if (failedWhilePlaying_) host_->play();  // as after any other restart
}

void RunSession::onStarted(RunInfoPtr info) {
  RunRequest request{RequestKind::Reset, nullptr, QString()};
  if (auto it = requests_.find(info->requestId); it != requests_.end()) {
    request = it->second;
    requests_.erase(requests_.begin(), std::next(it));  // older requests were answered too
  }
  const RunInfoPtr previous = run_;
  failedWhilePlaying_ = false;
  run_ = info;
  lastSnapshot_.reset();
  pacer_->runStarted();  // the new run's first snapshot is plotted at once
  emit accepted(info, previous, request);
  if (request.kind == RequestKind::File) {
    emit statusMessage(tr("Opened %1").arg(request.label), 5000);
    emit scenarioFileOpened(request.path);
  } else if (request.kind == RequestKind::Edit) {
    emit statusMessage(tr("Restarted with the new value"), 3000);
  } else if (request.kind == RequestKind::Reset) {
    emit statusMessage(tr("Reset to the initial conditions"), 3000);
  }
  emit runStarted();
}

void RunSession::onRejected(quint64 requestId, const QString& message) {
  RunRequest request{RequestKind::Reset, nullptr, QString()};
  if (auto it = requests_.find(requestId); it != requests_.end()) {
    request = it->second;
    requests_.erase(it);
  }
  switch (request.kind) {
    case RequestKind::Edit:
    case RequestKind::File:
      emit statusMessage(tr("Refused: %1").arg(message), 10000);
      break;
    case RequestKind::Reset:  // the running scenario again: only if its checks changed
      emit statusMessage(tr("Reset refused: %1").arg(message), 10000);
      break;
    case RequestKind::History:
      emit statusMessage(tr("Undo/redo refused: %1").arg(message), 10000);
      break;
    case RequestKind::System:
    case RequestKind::Startup:
      if (request.defaults) {  // the paper's defaults refused: nothing sensible to fall back to
        emit statusMessage(tr("Refused: %1").arg(message), 0);
      } else {
        // A remembered scenario that no longer starts (e.g. the system's checks changed): fall
        // back to the paper's defaults and say so.
        emit statusMessage(
            tr("Stored scenario refused (%1); using the paper's defaults").arg(message), 10000);
      }
      break;
    case RequestKind::Replay:  // the replay room says it (a box, as for a bad file)
      break;
  }
  emit refused(request, message);
  if ((request.kind == RequestKind::System || request.kind == RequestKind::Startup) &&
      !request.defaults) {
    if (const SystemDescription* sys = findSystem(request.label.toStdString())) {
      RunRequest retry{request.kind, nullptr, request.label};
      retry.defaults = true;
      send(defaultScenario(*sys), retry);
    }
  } else if (request.kind == RequestKind::File && !run_) {
    openSystem(defaultSystemId(), RequestKind::Startup);  // a refused --scenario: still a window
  }
}

void RunSession::onSnapshot(SnapshotPtr s) {
  if (!run_ || s->generation != run_->generation) {  // from a run that has been replaced
    pacer_->snapshotDropped();
    return;
  }
  lastSnapshot_ = s;
  if (!s->failure.isEmpty() && running_ && !s->running) failedWhilePlaying_ = true;
  emit snapshotArrived(s);  // the 3-D view, the status bar
  if (running_ != s->running) {
    running_ = s->running;
    emit playingChanged(running_);
  }
  // Which views draw it, and when the worker may send the next one.
  pacer_->snapshotArrived(s);
  emit snapshotShown();
}

}  // namespace ricochet::app
