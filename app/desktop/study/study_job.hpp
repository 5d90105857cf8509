#pragma once
// Runs a StudyRequest in the background: one worker thread (at the lowest CPU priority, like the
// live simulation's) plans and checks the study and drives core/study's runner, whose pool
// threads inherit that priority. The GUI thread never plans, checks or integrates.
//
// The worker shares nothing mutable with the window: it posts what it has (the plan, batches of
// result rows as CSV lines, progress, the end) to the GUI thread, tagged with the job's
// generation so that nothing of a previous job ever lands in a new one. Rows of a custom study
// stream in about five times a second, so the table and the plot fill while it runs; a built-in
// study hands its table over at the end (as the command line prints it). Cancel stops the runs
// within 4096 steps; the rows so far stay on screen, but a cancelled study is never exported
// (the command line writes no file either).

#include "app/desktop/study/study_results.hpp"

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

namespace ricochet::app {

class StudyJob : public QObject {
  Q_OBJECT
 public:
  explicit StudyJob(QObject* parent = nullptr);
  ~StudyJob() override;  ///< cancels a running study and waits for its thread

  /// Starts `request`. Empty, or why it cannot start (one is running already).
  QString start(const StudyRequest& request);
  /// Asks the running study to stop; finished() follows with results().cancelled.
  void cancel();
  bool isRunning() const { return running_; }

  /// What has come back so far (rows, plan, report, outcome). Valid until the next start().
  const StudyResults& results() const { return *results_; }

 signals:
  void started();
  /// `done` of `total` runs (total 0: not known, e.g. while the runs are checked).
  void progressed(qint64 done, qint64 total, double runsPerSecond, double etaSeconds);
  /// Rows from `firstRow` on were appended to results().table (the header may be new too).
  void rowsArrived(qint64 firstRow);
  /// The study ended: completely, cancelled, or refused (results().error).
  void finished();

 private:
  struct Shared;  // the cancel flag, shared with the worker thread
  void run(StudyRequest request, std::uint64_t generation, std::shared_ptr<Shared> shared);
  /// Runs `apply` on the GUI thread if the job is still generation `generation`.
  void post(std::uint64_t generation, std::function<void(StudyResults&)> apply, bool end = false);

  std::unique_ptr<StudyResults> results_;
  std::shared_ptr<Shared> shared_;
  std::thread thread_;
  std::uint64_t generation_ = 0;
  bool running_ = false;
};

}  // namespace ricochet::app
