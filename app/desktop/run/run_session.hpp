#pragma once
// The window's runs: what asks the worker for a run, and what it answered. RunSession owns the
// worker (WorkerHost) and the frame pacer, numbers every request, and routes each answer by the
// kind of request it answers (RequestKind, run_request.hpp).
//
// An accepted request makes the run current (accepted(), then runStarted()); a refused one leaves
// the shown run as it was (refused()), except that a remembered scenario that no longer starts
// falls back to the paper's defaults, and a file refused before any run opens the default system.
// What each room does with an answer (the editor marks a field, undo records a step, the 3-D view
// rebuilds its scene) the window connects; the texts for the status bar come from here
// (statusMessage()).
//
// It is the RunSource every room reads: the current run and the snapshot on screen.

#include "app/desktop/run/run_data.hpp"
#include "app/desktop/run/run_request.hpp"
#include "app/desktop/run/run_source.hpp"
#include "core/model/system.hpp"

#include <QString>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>

namespace ricochet::app {

class FramePacer;
class WorkerHost;

class RunSession : public RunSource {
  Q_OBJECT
 public:
  explicit RunSession(QObject* parent = nullptr);
  ~RunSession() override;  // stops the worker thread

  /// `ellipsoid-plane` when registered, else `ellipse-floor`, else the first registered system.
  static QString defaultSystemId();

  RunInfoPtr currentRun() const override { return run_; }
  SnapshotPtr lastSnapshot() const override { return lastSnapshot_; }
  WorkerHost* worker() const { return host_; }
  /// When the views draw (the window reports their frames to it) and when the worker may send
  /// the next snapshot.
  FramePacer* pacer() const { return pacer_; }

  /// Where a system's scenario comes from when it is opened (System, Startup): the remembered
  /// one. Unset: the paper's defaults.
  void setStoredScenario(std::function<Scenario(const SystemDescription&)> stored) {
    stored_ = std::move(stored);
  }

  /// Asks the worker to run `scenario` for `request`; returns the request's id.
  std::uint64_t send(const Scenario& scenario, RunRequest request);
  /// Opens system `id` (unknown: nothing) with its stored scenario, as `kind` (System, Startup).
  void openSystem(const QString& id, RequestKind kind);
  /// Runs an already parsed scenario as a file request: scenarioFileOpened(path) once the worker
  /// accepts it, refused() otherwise. `label` names it in messages; `path` may be empty.
  void openScenario(const Scenario& scenario, const QString& label, const QString& path);
  /// Replays a run file already read: runStarted() once the worker plays it, refused() (kind
  /// Replay) when the worker cannot (the shown run goes on). `label` names it (the file's name).
  void replayRecording(std::shared_ptr<const hdf5::RunFile> run, const QString& label);
  /// A replay jumps to its last row at or before `t` (s). Nothing for a live run.
  void seek(double t);

  /// Play or pause (Space); whether the run plays.
  void togglePlay();
  void setPlaying(bool play);
  bool playing() const { return running_; }
  /// Pauses and advances one step (S).
  void stepOnce();
  /// The running scenario again from its start (R); plays again after a failure that paused it.
  void reset();

 signals:
  /// A request was accepted: `info` is now the current run, `previous` the one it replaced (null
  /// for the first). Emitted before runStarted(), so the views are ready when rooms read the run.
  void accepted(ricochet::app::RunInfoPtr info, ricochet::app::RunInfoPtr previous,
                const ricochet::app::RunRequest& request);
  /// A request was refused with `message` (also said through statusMessage()).
  void refused(const ricochet::app::RunRequest& request, const QString& message);
  /// A snapshot of the current run arrived: the views draw it (before snapshotShown()).
  void snapshotArrived(ricochet::app::SnapshotPtr snapshot);
  /// A scenario opened as a file now runs; emitted just before runStarted(). `path` is empty for
  /// a scenario that has no file (a preset).
  void scenarioFileOpened(const QString& path);
  /// The run plays or not (the Play action's look).
  void playingChanged(bool playing);
  /// A line for the status bar, shown for `timeoutMs` (0: until the next one).
  void statusMessage(const QString& text, int timeoutMs);

 private:
  void onStarted(RunInfoPtr info);
  void onRejected(quint64 requestId, const QString& message);
  void onSnapshot(SnapshotPtr snapshot);

  WorkerHost* host_ = nullptr;
  FramePacer* pacer_ = nullptr;
  std::function<Scenario(const SystemDescription&)> stored_;
  std::map<std::uint64_t, RunRequest> requests_;
  std::uint64_t nextRequest_ = 1;
  RunInfoPtr run_;
  SnapshotPtr lastSnapshot_;
  bool running_ = false;
  // The run was playing when the integrator failed (which paused it): the next edit or reset
  // plays again, as after any other edit.
  bool failedWhilePlaying_ = false;
};

}  // namespace ricochet::app
