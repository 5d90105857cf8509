#include "app/desktop/study/study_job.hpp"

#include "core/study/runner.hpp"

#include <QMetaObject>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace ricochet::app {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

/// The calling thread (and the threads it creates, which inherit it on Linux) at the lowest CPU
/// priority: a study takes every idle cycle, but drawing and input come first.
void lowerPriority() {
#ifdef __linux__
  const id_t self = static_cast<id_t>(gettid());
  setpriority(PRIO_PROCESS, self, 19);
#endif
}

std::int64_t failedRows(const std::vector<study::RunResult>& runs) {
  std::int64_t n = 0;
  for (const study::RunResult& r : runs) n += r.ok() ? 0 : 1;
  return n;
}

}  // namespace

struct StudyJob::Shared {
  std::atomic<bool> cancel{false};
};

StudyJob::StudyJob(QObject* parent) : QObject(parent), results_(std::make_unique<StudyResults>()) {}

StudyJob::~StudyJob() {
  if (shared_) shared_->cancel.store(true);
  if (thread_.joinable()) thread_.join();
}

QString StudyJob::start(const StudyRequest& request) {
  if (running_) return tr("a study is running: cancel it or wait for it to end");
  if (thread_.joinable()) thread_.join();  // the previous study has posted its end: it is done
  ++generation_;
  results_ = std::make_unique<StudyResults>();
  results_->preset = request.preset;
  results_->base = request.base();
  shared_ = std::make_shared<Shared>();
  running_ = true;
  thread_ = std::thread([this, request, generation = generation_, shared = shared_] {
    run(request, generation, shared);
  });
  emit started();
  return {};
}

void StudyJob::cancel() {
  if (running_ && shared_) shared_->cancel.store(true);
}

void StudyJob::post(std::uint64_t generation, std::function<void(StudyResults&)> apply, bool end) {
  QMetaObject::invokeMethod(
      this,
      [this, generation, apply = std::move(apply), end] {
        if (generation != generation_) return;
        apply(*results_);
        if (end) {
          running_ = false;
          emit finished();
        }
      },
      Qt::QueuedConnection);
}

void StudyJob::run(StudyRequest request, std::uint64_t g, std::shared_ptr<Shared> shared) {
  lowerPriority();
  const std::atomic<bool>* cancel = &shared->cancel;
  const int jobs = request.jobs;
  const auto fail = [&](const std::string& error) {
    post(g, [error](StudyResults& r) { r.error = qs(error); }, true);
  };
  const auto cancelled = [&] {
    post(g, [](StudyResults& r) { r.cancelled = true; }, true);
  };
  const auto progress = [this, g](const study::Progress& p) {
    post(g, [this, p](StudyResults&) { emit progressed(p.done, p.total, p.runsPerSecond, p.etaSeconds); });
  };
  // A built-in study's whole table, at its end.
  const auto finish = [&](std::string csv, std::string report, std::function<void(StudyResults&)> more) {
    post(
        g,
        [this, csv = std::move(csv), report = std::move(report), more = std::move(more)](StudyResults& r) {
          r.table.append(csv);
          r.report = report;
          r.expectedRows = std::int64_t(r.table.rowCount());
          r.complete = true;
          more(r);
          emit rowsArrived(0);
        },
        true);
  };

  switch (request.preset) {
    case StudyPreset::Custom: {
      study::PlanResult planned = study::planStudy(request.custom);
      if (!planned.ok()) return fail(planned.error);
      auto plan = std::make_shared<const study::StudyPlan>(std::move(*planned.plan));
      if (plan->runs > kMaxWindowRuns) {
        return fail(std::to_string(plan->runs) + " runs: the window runs at most " + std::to_string(kMaxWindowRuns) +
                    "; save the study and run it with ricochet-cli study (every core, or a cluster)");
      }
      if (std::string e = study::checkRuns(*plan, jobs, cancel); !e.empty()) return fail(e);
      if (cancel->load()) return cancelled();
      post(g, [plan](StudyResults& r) {
        r.plan = *plan;
        r.runs = plan->runs;
        r.expectedRows = plan->runs;
        r.table.append(study::resultsHeader(*plan));
      });
      std::string batch;
      study::RunnerOptions options;
      options.jobs = jobs;
      options.cancel = cancel;
      options.progressInterval = 0.2;
      options.onRow = [&](const study::RunResult& row) { study::appendResultRow(batch, *plan, row); };
      options.onProgress = [&](const study::Progress& p) {
        post(g, [this, rows = std::move(batch), p](StudyResults& r) {
          const auto first = qint64(r.table.rowCount());
          r.table.append(rows);
          emit rowsArrived(first);
          emit progressed(p.done, p.total, p.runsPerSecond, p.etaSeconds);
        });
        batch.clear();
      };
      const study::RunnerOutcome outcome = study::runStudy(*plan, options);
      post(
          g,
          [this, rows = std::move(batch), outcome](StudyResults& r) {
            const auto first = qint64(r.table.rowCount());
            r.table.append(rows);
            r.failed = outcome.failed;
            r.cancelled = outcome.cancelled;
            r.complete = !outcome.cancelled && std::int64_t(r.table.rowCount()) == r.expectedRows;
            emit rowsArrived(first);
          },
          true);
      return;
    }
    case StudyPreset::Convergence: {
      const study::ConvergenceResult c = study::runConvergence(request.convergence, jobs, cancel, progress);
      if (!c.error.empty()) return fail(c.error);
      if (c.cancelled) return cancelled();
      study::StudyPlan plan;  // the runs' plan again (row i is run i), for loading a level
      study::convergencePlan(request.convergence, plan);
      std::int64_t failed = c.reference.ok() ? 0 : 1;
      for (const study::ConvergenceLevel& l : c.levels) failed += l.run.ok() ? 0 : 1;
      return finish(study::convergenceCsv(c), study::convergenceReport(c),
                    [plan = std::move(plan), c, failed](StudyResults& r) {
                      r.runs = plan.runs;
                      r.plan = plan;
                      r.fittedOrder = c.fittedOrder;
                      r.correctedOrder = c.correctedOrder;
                      r.exactFlight = c.exactFlight;
                      r.failed = failed;
                    });
    }
    case StudyPreset::Sensitivity: {
      post(g, [this](StudyResults&) { emit progressed(0, 0, 0.0, 0.0); });
      const study::SensitivityResult s = study::runSensitivity(request.sensitivity, jobs, cancel);
      if (!s.error.empty()) return fail(s.error);
      if (s.cancelled) return cancelled();
      std::vector<study::Perturbation> perturbations;
      std::int64_t failed = s.reference.ok() ? 0 : 1;
      for (const study::SensitivitySeries& series : s.series) {
        perturbations.push_back(series.perturbation);
        failed += series.run.ok() ? 0 : 1;
      }
      return finish(study::sensitivityCsv(s), study::sensitivityReport(s),
                    [perturbations = std::move(perturbations), failed](StudyResults& r) {
                      r.runs = std::int64_t(perturbations.size()) + 1;
                      r.perturbations = perturbations;
                      r.failed = failed;
                    });
    }
    case StudyPreset::Compare: {
      study::CompareResult c = study::runCompare(request.compare, jobs, cancel, progress);
      if (!c.error.empty()) return fail(c.error);
      if (c.cancelled) return cancelled();
      const std::int64_t failed = failedRows(c.runs);
      return finish(study::compareCsv(c), study::compareReport(c),
                    [plan = c.plan, failed](StudyResults& r) {
                      r.runs = plan.runs;
                      r.plan = plan;
                      r.failed = failed;
                    });
    }
  }
}

}  // namespace ricochet::app
