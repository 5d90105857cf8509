#include "app/desktop/run/run_feed.hpp"

#include "core/io/trace.hpp"
#include "core/model/registry.hpp"
#include "io/hdf5/recorded_run.hpp"

namespace ricochet::app {

namespace {

class LiveFeed final : public RunFeed {
 public:
  LiveFeed(std::unique_ptr<Simulation> sim, Scenario scenario)
      : scenario_(std::move(scenario)),
        sim_(std::move(sim)),
        energyInitial_(sim_->energy().total()),
        errorScale_(1.0 / io::energyScale(sim_->energy())) {}

  Simulation& simulation() override { return *sim_; }
  double energyError(const EnergySplit& e) const override {
    return (e.total() - energyInitial_) * errorScale_;  // the CLI's energy_rel_error
  }
  std::optional<std::int64_t> rewindFor(double) override { return std::nullopt; }
  FeedStart again(std::uint64_t requestId) const override {
    return startLive(scenario_, requestId);
  }

 private:
  Scenario scenario_;
  std::unique_ptr<Simulation> sim_;
  double energyInitial_;
  double errorScale_;  // 1/|E0| (1/(K0 + |V0|) when E0 == 0)
};

class ReplayFeed final : public RunFeed {
 public:
  ReplayFeed(std::shared_ptr<const hdf5::RunFile> run, QString label)
      : run_(std::move(run)), label_(std::move(label)) {}

  Simulation& simulation() override { return run_; }
  double energyError(const EnergySplit&) const override {
    return run_.energyRelError();  // what the file recorded, bit for bit
  }
  std::optional<std::int64_t> rewindFor(double t) override {
    const std::size_t target = run_.rowAt(t);
    run_.rewind();
    return std::int64_t(target);  // one step per row
  }
  FeedStart again(std::uint64_t requestId) const override {
    return startReplay(run_.shared(), label_, requestId);
  }

 private:
  hdf5::RecordedRun run_;
  QString label_;
};

}  // namespace

FeedStart startLive(const Scenario& scenario, std::uint64_t requestId) {
  FeedStart out;
  out.requestId = requestId;
  CreateResult created = createSimulation(scenario);
  if (!created.simulation) {
    out.error = QString::fromStdString(created.error);
    return out;
  }
  out.feed = std::make_unique<LiveFeed>(std::move(created.simulation), scenario);
  out.info = std::make_shared<RunInfo>();
  out.info->requestId = requestId;
  out.info->scenario = scenario;
  out.info->scene = findSystem(scenario.system)->scene(scenario);
  return out;
}

FeedStart startReplay(std::shared_ptr<const hdf5::RunFile> run, const QString& label,
                      std::uint64_t requestId) {
  FeedStart out;
  out.requestId = requestId;
  const SystemDescription* system = run ? findSystem(run->scenario.system) : nullptr;
  if (!system) {
    out.error = QStringLiteral("%1: unknown system '%2'")
                    .arg(label, run ? QString::fromStdString(run->system) : QString());
    return out;
  }
  auto info = std::make_shared<RunInfo>();
  info->requestId = requestId;
  info->scenario = run->scenario;
  info->scene = system->scene(run->scenario);
  if (const std::string e = hdf5::RecordedRun::check(*run, info->scene.bodies.size()); !e.empty()) {
    out.error = QStringLiteral("%1: %2").arg(label, QString::fromStdString(e));
    return out;
  }
  info->recording = run;
  info->recordingLabel = label;
  info->recordingHasPoses = run->hasPoses();
  if (!run->hasPoses()) info->scene.bodies.clear();  // nothing rather than bodies at made-up places
  out.feed = std::make_unique<ReplayFeed>(std::move(run), label);
  out.info = std::move(info);
  return out;
}

}  // namespace ricochet::app
