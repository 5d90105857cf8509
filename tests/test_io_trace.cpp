// core/io/trace: the trace and impacts CSV format (contract columns, 17 significant digits), every
// K, the failure path (everything up to the last good state is kept), cancel (nothing left behind),
// output errors, the summary, and determinism (same scenario -> byte-identical files).
//
// A small fake Simulation, defined here, fails, spikes or reports impacts at chosen steps so that
// the driver's behaviour is checked exactly; the real systems are covered through the registry.

#include "core/io/json.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"

#include <QtTest>

#include <bit>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ricochet;

namespace {

/// Free flight with analytic values: q.y = sin(0.1 k), v.y = cos(0.1 k), mom.px = -2; energy
/// K = 1 + 1e-3 sin(k), V = 2. One impact (constraint 0) in every step k with k % impactEvery == 0.
class FakeSimulation final : public Simulation {
 public:
  double h = 0.01;
  std::int64_t failAt = -1;      ///< the step that fails (advance to it returns SolverFailed)
  std::int64_t spikeAt = -1;     ///< energy is 1.5 E0 at this step only
  std::int64_t nanAt = -1;       ///< energy becomes NaN at this step (status stays Ok)
  std::int64_t impactEvery = 10;
  EnergySplit initialEnergy{1.0, 2.0};

  std::int64_t step() const override { return k_; }
  double time() const override { return static_cast<double>(k_) * h; }
  std::int64_t impactCount() const override { return impacts_; }
  double timeStep() const override { return h; }

  AdvanceResult advance(std::int64_t maxSteps, ImpactSink* sink) override {
    AdvanceResult r;
    for (std::int64_t i = 0; i < maxSteps; ++i) {
      const std::int64_t next = k_ + 1;
      const bool impact = next % impactEvery == 0;
      if (impact && sink) {
        ImpactRecord rec;
        rec.step = next;
        rec.t = (static_cast<double>(next) - 0.5) * h;
        rec.alpha = 0.5;
        rec.constraint = 0;
        rec.energyBefore = 3.0;
        rec.energyAfter = 3.0 + 1e-17 * static_cast<double>(next);
        rec.impulse = 4.0;
        sink->onImpact(rec);
      }
      if (next == failAt) {
        r.status = RunStatus::SolverFailed;
        r.message = "fake Newton solve did not converge";
        return r;
      }
      k_ = next;
      impacts_ += impact;
      ++r.stepsTaken;
    }
    return r;
  }

  EnergySplit energy() const override {
    if (k_ == 0) return initialEnergy;
    if (k_ == nanAt) return {std::nan(""), 2.0};
    const double e0 = initialEnergy.total();
    if (k_ == spikeAt) return {1.5 * e0 - 2.0, 2.0};
    return {initialEnergy.kinetic + 1e-3 * std::sin(static_cast<double>(k_)), initialEnergy.potential};
  }
  double minGap() const override { return 1.0; }
  std::span<const std::string> columns() const override { return columns_; }
  void sample(std::span<double> out) const override {
    const double k = static_cast<double>(k_);
    out[0] = std::sin(0.1 * k);
    out[1] = std::cos(0.1 * k);
    out[2] = -2.0;
  }
  void poses(std::span<Pose>) const override {}

 private:
  std::int64_t k_ = 0;
  std::int64_t impacts_ = 0;
  std::vector<std::string> columns_{"q.y", "v.y", "mom.px"};
};

Scenario fakeScenario() {
  Scenario s;
  s.system = "fake-system";  // not registered: constraint names fall back to g<index>
  s.integrator.name = "fake";
  s.integrator.h = 0.01;
  s.tEnd = 1.0;
  return s;
}

std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

/// Lines of a CSV file (without the final empty one).
std::vector<std::string> lines(const std::filesystem::path& p) {
  std::vector<std::string> l = split(readAll(p), '\n');
  if (!l.empty() && l.back().empty()) l.pop_back();
  return l;
}

double number(const std::string& text) {
  double x = 0.0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), x);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nan("");
  return x;
}

int filesIn(const std::filesystem::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

bool sameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

}  // namespace

class TestIoTrace : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir tmp_;
  std::filesystem::path dir() const { return tmp_.path().toStdString(); }

 private slots:
  void initTestCase() { QVERIFY(tmp_.isValid()); }

  void numbersHave17SignificantDigits() {
    const auto text = [](double x) {
      std::string s;
      io::appendNumber(s, x);
      return QString::fromStdString(s);
    };
    QCOMPARE(text(0.1), QStringLiteral("0.10000000000000001"));
    QCOMPARE(text(0.4517539515), QStringLiteral("0.45175395149999997"));
    QCOMPARE(text(1.0), QStringLiteral("1"));
    QCOMPARE(text(-2.5), QStringLiteral("-2.5"));
    QCOMPARE(text(1e-7), QStringLiteral("9.9999999999999995e-08"));
    QCOMPARE(text(123456789.0), QStringLiteral("123456789"));
    QCOMPARE(text(std::nan("")), QStringLiteral("nan"));
    // 17 significant digits always read back to the same double.
    for (double x : {1.0 / 3.0, 2.0 / 3.0, 38.188021, 1e-300, 5e-324, 1.7976931348623157e308, -0.0}) {
      QVERIFY(sameBits(number(text(x).toStdString()), x));
    }
    QCOMPARE(QString::fromStdString(io::csvField("plain")), QStringLiteral("plain"));
    QCOMPARE(QString::fromStdString(io::csvField("a,b\"c")), QStringLiteral("\"a,b\"\"c\""));
  }

  void energyScaleAndStepCount() {
    QCOMPARE(io::energyScale({1.0, 2.0}), 3.0);
    QCOMPARE(io::energyScale({-1.0, -2.0}), 3.0);
    QCOMPARE(io::energyScale({5.0, -5.0}), 10.0);  // E0 == 0: K0 + |V0|
    QCOMPARE(io::energyScale({0.0, 0.0}), 1.0);    // nothing to scale by: 1 J
    QCOMPARE(io::stepCount(10.0, 0.01), std::int64_t(1000));
    QCOMPARE(io::stepCount(1.0, 0.3), std::int64_t(4));
    QCOMPARE(io::stepCount(0.5, 1.0), std::int64_t(1));
    QCOMPARE(io::stepCount(100.0, 1e-4), std::int64_t(1000000));
    QCOMPARE(io::stepCount(0.0, 0.01), std::int64_t(0));
    QCOMPARE(io::stepCount(1e20, 1e-10), std::int64_t(-1));
    QCOMPARE(io::stepCount(1.0, 0.0), std::int64_t(-1));
    QCOMPARE(io::stepCount(std::nan(""), 0.1), std::int64_t(-1));
  }

  void traceHasTheContractFormat() {
    FakeSimulation sim;
    io::RunOptions o;
    o.steps = 100;
    o.traceCsv = dir() / "trace.csv";
    o.impactsCsv = dir() / "impacts.csv";
    const io::RunSummary s = io::runSimulation(sim, fakeScenario(), o);
    QVERIFY2(s.ok(), s.message.c_str());
    const auto rows = lines(o.traceCsv);
    QCOMPARE(rows.front(), std::string("step,t,energy,kinetic,potential,energy_rel_error,impacts,q.y,v.y,mom.px"));
    QCOMPARE(rows.size(), std::size_t(1 + 1 + 100));  // header, initial state, one per step
    QCOMPARE(s.traceRows, std::int64_t(101));
    for (std::size_t r = 1; r < rows.size(); ++r) {
      const auto f = split(rows[r], ',');
      QCOMPARE(f.size(), std::size_t(10));
      const std::int64_t k = static_cast<std::int64_t>(r - 1);
      QCOMPARE(f[0], std::to_string(k));
      QVERIFY(sameBits(number(f[1]), static_cast<double>(k) * 0.01));
      const double kin = k == 0 ? 1.0 : 1.0 + 1e-3 * std::sin(static_cast<double>(k));
      QVERIFY(sameBits(number(f[3]), kin));
      QVERIFY(sameBits(number(f[4]), 2.0));
      QVERIFY(sameBits(number(f[2]), kin + 2.0));
      QVERIFY(sameBits(number(f[5]), (kin + 2.0 - 3.0) / 3.0));
      QCOMPARE(f[6], std::to_string(k / 10));
      QVERIFY(sameBits(number(f[7]), std::sin(0.1 * static_cast<double>(k))));
      QVERIFY(sameBits(number(f[8]), std::cos(0.1 * static_cast<double>(k))));
      QCOMPARE(f[9], std::string("-2"));
      QVERIFY(rows[r].find(' ') == std::string::npos);
    }
    QCOMPARE(rows[11].substr(0, 23), std::string("10,0.10000000000000001,"));

    const auto imp = lines(o.impactsCsv);
    QCOMPARE(imp.front(), std::string("step,t,alpha,constraint,energy_before,energy_after,impulse,reflected"));
    QCOMPARE(imp.size(), std::size_t(1 + 10));
    QCOMPARE(s.impactRows, std::int64_t(10));
    QCOMPARE(s.impacts, std::int64_t(10));
    const auto f = split(imp[1], ',');
    QCOMPARE(f[0], std::string("10"));
    QVERIFY(sameBits(number(f[1]), 9.5 * 0.01));
    QCOMPARE(f[2], std::string("0.5"));
    QCOMPARE(f[3], std::string("g0"));
    QVERIFY(sameBits(number(f[5]), 3.0 + 1e-16));
    QCOMPARE(f[6], std::string("4"));

    QCOMPARE(s.steps, std::int64_t(100));
    QCOMPARE(s.tEnd, 1.0);
    QCOMPARE(s.energyInitial, 3.0);
    QCOMPARE(s.energyFinal, 3.0 + 1e-3 * std::sin(100.0));
    QCOMPARE(s.statusText(), std::string("ok"));
    QCOMPARE(filesIn(dir()), 2);  // no temporary file left
  }

  void everyKRecordsEveryKthStepAndTheLast() {
    for (const auto& [steps, every, expectedRows] :
         {std::tuple{1000, 10, 101}, std::tuple{1005, 10, 102}, std::tuple{7, 100, 2}, std::tuple{3, 1, 4}}) {
      FakeSimulation sim;
      io::RunOptions o;
      o.steps = steps;
      o.every = every;
      o.traceCsv = dir() / "every.csv";
      const io::RunSummary s = io::runSimulation(sim, fakeScenario(), o);
      QVERIFY(s.ok());
      const auto rows = lines(o.traceCsv);
      QCOMPARE(int(rows.size()) - 1, expectedRows);
      for (int r = 1; r + 1 < int(rows.size()); ++r) {
        QCOMPARE(split(rows[r], ',')[0], std::to_string((r - 1) * every));
      }
      QCOMPARE(split(rows.back(), ',')[0], std::to_string(steps));  // the final state is always there
    }
  }

  void maxEnergyErrorCoversUnrecordedSteps() {
    FakeSimulation sim;
    sim.spikeAt = 5;  // not a multiple of every = 10
    io::RunOptions o;
    o.steps = 50;
    o.every = 10;
    o.traceCsv = dir() / "spike.csv";
    const io::RunSummary s = io::runSimulation(sim, fakeScenario(), o);
    QVERIFY(s.ok());
    QCOMPARE(s.maxAbsEnergyRelError, 0.5);
    for (const auto& row : lines(o.traceCsv)) QVERIFY(split(row, ',')[0] != "5");
    // Without the spike the maximum is the largest |1e-3 sin(k)| / 3 over k = 1..50.
    FakeSimulation quiet;
    io::RunOptions fifty;
    fifty.steps = 50;
    const io::RunSummary q = io::runSimulation(quiet, fakeScenario(), fifty);
    double expected = 0.0;
    for (int k = 1; k <= 50; ++k) expected = std::max(expected, std::fabs(1e-3 * std::sin(double(k))) / 3.0);
    QCOMPARE(q.maxAbsEnergyRelError, expected);
  }

  // The observer sees exactly the accepted steps and impacts the summary is made of; the impacts of
  // a failing step reach neither.
  void observerSeesAcceptedStepsAndImpactsOnly() {
    struct Recorder final : io::RunObserver {
      std::vector<std::int64_t> steps, impactSteps;
      double maxRel = 0.0;
      void onImpact(const ImpactRecord& impact) override { impactSteps.push_back(impact.step); }
      void onStep(const Simulation& sim, const EnergySplit& e) override {
        steps.push_back(sim.step());
        maxRel = std::max(maxRel, std::fabs(e.total() - 3.0) / 3.0);
      }
    };
    FakeSimulation sim;
    sim.failAt = 30;  // impacts at 10 and 20 happen; the one reported inside step 30 does not
    Recorder rec;
    io::RunOptions o;
    o.steps = 100;
    o.observer = &rec;
    const io::RunSummary s = io::runSimulation(sim, fakeScenario(), o);
    QCOMPARE(int(s.outcome), int(io::RunOutcome::IntegratorFailed));
    QCOMPARE(rec.steps.size(), std::size_t(29));
    QCOMPARE(rec.steps.front(), std::int64_t(1));
    QCOMPARE(rec.steps.back(), std::int64_t(29));
    QCOMPARE(rec.impactSteps, (std::vector<std::int64_t>{10, 20}));
    QCOMPARE(rec.maxRel, s.maxAbsEnergyRelError);
    QCOMPARE(s.firstImpactTime, 9.5 * 0.01);
    QCOMPARE(s.firstImpactAlpha, 0.5);
    QCOMPARE(s.energyFinalRelError, 1e-3 * std::sin(29.0) / 3.0);
    // No impact at all: NaN, not 0.
    FakeSimulation calm;
    calm.impactEvery = 1000;
    io::RunOptions ten;
    ten.steps = 10;
    const io::RunSummary c = io::runSimulation(calm, fakeScenario(), ten);
    QVERIFY(c.ok() && std::isnan(c.firstImpactTime) && std::isnan(c.firstImpactAlpha));
  }

  // A RecordSink gets exactly the rows and impacts the CSV files get (same doubles, same order,
  // same names), is committed where they are (also after an integrator failure, with the run's
  // status) and discarded where they are (cancel, its own error, refused options).
  void recordSinksGetTheCsvRows() {
    struct Sink final : io::RecordSink {
      std::vector<std::vector<double>> rows;
      std::vector<std::string> impacts;
      std::string failOnRow;  // returned from the row of step 20 when set
      int commits = 0, discards = 0;
      std::string status;
      std::string onRow(const Simulation& sim, const io::TraceRow& r) override {
        if (sim.step() != r.step) return "simulation not at the row's state";
        std::vector<double> v{double(r.step),       r.t,
                              r.energy.total(),     r.energy.kinetic,
                              r.energy.potential,   r.energyRelError,
                              double(r.impacts)};
        v.insert(v.end(), r.columns.begin(), r.columns.end());
        rows.push_back(std::move(v));
        return r.step == 20 ? failOnRow : std::string();
      }
      std::string onImpact(const ImpactRecord& i, std::string_view constraint) override {
        impacts.push_back(std::to_string(i.step) + ":" + std::string(constraint));
        return {};
      }
      std::string commit(const io::RunSummary& s) override {
        ++commits;
        status = s.statusText();
        return {};
      }
      void discard() override { ++discards; }
    };
    for (int every : {1, 7}) {
      FakeSimulation sim;
      sim.failAt = 45;
      Sink sink;
      io::RunOptions o;
      o.steps = 100;
      o.every = every;
      o.traceCsv = dir() / "sink.csv";
      o.impactsCsv = dir() / "sink-impacts.csv";
      o.sinks = {&sink};
      const io::RunSummary s = io::runSimulation(sim, fakeScenario(), o);
      QCOMPARE(int(s.outcome), int(io::RunOutcome::IntegratorFailed));
      QCOMPARE(sink.commits, 1);
      QCOMPARE(sink.discards, 0);
      QCOMPARE(sink.status, std::string("solver-failed"));
      const auto csv = lines(o.traceCsv);
      QCOMPARE(sink.rows.size() + 1, csv.size());
      QCOMPARE(std::int64_t(sink.rows.size()), s.traceRows);
      for (std::size_t r = 0; r < sink.rows.size(); ++r) {
        const auto fields = split(csv[r + 1], ',');
        QCOMPARE(fields.size(), sink.rows[r].size());
        for (std::size_t c = 0; c < fields.size(); ++c) {
          QVERIFY(sameBits(number(fields[c]), sink.rows[r][c]));
        }
      }
      const auto impacts = lines(o.impactsCsv);
      QCOMPARE(sink.impacts, (std::vector<std::string>{"10:g0", "20:g0", "30:g0", "40:g0"}));
      QCOMPARE(impacts.size(), sink.impacts.size() + 1);
    }
    // Cancelled: discarded, never committed. A sink's error: an output error, every file discarded.
    FakeSimulation sim;
    Sink cancelled;
    io::RunOptions o;
    o.steps = 100000;
    o.progressInterval = 1000;
    o.progress = [](std::int64_t done, std::int64_t) { return done < 2000; };
    o.sinks = {&cancelled};
    const io::RunSummary c = io::runSimulation(sim, fakeScenario(), o);
    QCOMPARE(int(c.outcome), int(io::RunOutcome::Cancelled));
    QVERIFY(cancelled.commits == 0 && cancelled.discards == 1);
    QTemporaryDir d;
    const std::filesystem::path cdir = d.path().toStdString();
    FakeSimulation again;
    Sink failing;
    failing.failOnRow = "disk full";
    io::RunOptions f;
    f.steps = 100;
    f.traceCsv = cdir / "t.csv";
    f.sinks = {&failing};
    const io::RunSummary e = io::runSimulation(again, fakeScenario(), f);
    QCOMPARE(int(e.outcome), int(io::RunOutcome::OutputError));
    QCOMPARE(e.message, std::string("disk full"));
    QCOMPARE(e.steps, std::int64_t(20));  // stopped at once
    QVERIFY(failing.commits == 0 && failing.discards == 1);
    QCOMPARE(filesIn(cdir), 0);
    Sink refused;
    io::RunOptions bad;
    bad.every = 0;
    bad.sinks = {&refused};
    const io::RunSummary b = io::runSimulation(again, fakeScenario(), bad);
    QCOMPARE(int(b.outcome), int(io::RunOutcome::InvalidOptions));
    QVERIFY(refused.rows.empty() && refused.commits == 0 && refused.discards == 1);
  }

  void integratorFailureKeepsEverythingUpToIt() {
    for (int every : {1, 10}) {
      FakeSimulation sim;
      sim.failAt = 37;
      // every = 1: impacts at steps 10, 20, 30 are kept. every = 10: the only impact is reported
      // inside the failing step 37, which did not happen, so the impacts file must stay empty.
      sim.impactEvery = every == 1 ? 10 : 37;
      io::RunOptions o;
      o.steps = 100;
      o.every = every;
      o.traceCsv = dir() / "fail.csv";
      o.impactsCsv = dir() / "fail-impacts.csv";
      const io::RunSummary s = io::runSimulation(sim, fakeScenario(), o);
      QCOMPARE(int(s.outcome), int(io::RunOutcome::IntegratorFailed));
      QCOMPARE(s.status, RunStatus::SolverFailed);
      QCOMPARE(s.statusText(), std::string("solver-failed"));
      QVERIFY2(s.message.find("integrator failed at step 37 (t = 0.36 s): fake Newton solve did not converge") !=
                   std::string::npos,
               s.message.c_str());
      QCOMPARE(s.steps, std::int64_t(36));
      QCOMPARE(s.tEnd, 0.36);
      const auto rows = lines(o.traceCsv);
      std::vector<std::string> steps;
      for (std::size_t r = 1; r < rows.size(); ++r) steps.push_back(split(rows[r], ',')[0]);
      if (every == 1) {
        QCOMPARE(steps.size(), std::size_t(37));  // rows 0..36: the last good state
        QCOMPARE(steps.back(), std::string("36"));
      } else {
        QCOMPARE(steps, (std::vector<std::string>{"0", "10", "20", "30", "36"}));
      }
      const auto imp = lines(o.impactsCsv);
      if (every == 1) {
        QCOMPARE(imp.size(), std::size_t(1 + 3));  // 10, 20, 30
      } else {
        QCOMPARE(imp.size(), std::size_t(1));  // the only impact was inside the failed step: dropped
      }
      QCOMPARE(s.impactRows, std::int64_t(imp.size() - 1));
    }
  }

  void nonFiniteEnergyStopsTheRun() {
    FakeSimulation sim;
    sim.nanAt = 12;
    io::RunOptions o;
    o.steps = 100;
    o.traceCsv = dir() / "nan.csv";
    const io::RunSummary s = io::runSimulation(sim, fakeScenario(), o);
    QCOMPARE(int(s.outcome), int(io::RunOutcome::IntegratorFailed));
    QCOMPARE(s.statusText(), std::string("non-finite"));
    QVERIFY2(s.message.find("step 12") != std::string::npos, s.message.c_str());
    const auto rows = lines(o.traceCsv);
    QCOMPARE(split(rows.back(), ',')[0], std::string("11"));  // the NaN state is not written
    QVERIFY(readAll(o.traceCsv).find("nan") == std::string::npos);
  }

  void cancelLeavesNothingBehind() {
    QTemporaryDir d;
    const std::filesystem::path cdir = d.path().toStdString();
    {
      std::ofstream keep(cdir / "old.csv");
      keep << "previous content\n";
    }
    FakeSimulation sim;
    io::RunOptions o;
    o.steps = 100000;
    o.traceCsv = cdir / "old.csv";
    o.impactsCsv = cdir / "impacts.csv";
    o.progressInterval = 1000;
    std::int64_t calls = 0;
    o.progress = [&](std::int64_t done, std::int64_t total) {
      ++calls;
      return !(done >= 3000 && total == 100000);
    };
    const io::RunSummary s = io::runSimulation(sim, fakeScenario(), o);
    QCOMPARE(int(s.outcome), int(io::RunOutcome::Cancelled));
    QCOMPARE(s.statusText(), std::string("cancelled"));
    QCOMPARE(calls, std::int64_t(3));
    QCOMPARE(s.steps, std::int64_t(3000));
    QCOMPARE(filesIn(cdir), 1);  // no impacts file, no temporary file
    QCOMPARE(readAll(cdir / "old.csv"), std::string("previous content\n"));  // untouched
  }

  void outputErrorsAreReportedBeforeRunning() {
    FakeSimulation sim;
    io::RunOptions o;
    o.steps = 10;
    o.traceCsv = dir() / "no-such-dir" / "t.csv";
    const io::RunSummary s = io::runSimulation(sim, fakeScenario(), o);
    QCOMPARE(int(s.outcome), int(io::RunOutcome::OutputError));
    QVERIFY2(s.message.find("no-such-dir") != std::string::npos, s.message.c_str());
    QCOMPARE(s.steps, std::int64_t(0));
    io::RunOptions bad;
    bad.every = 0;
    const io::RunSummary b = io::runSimulation(sim, fakeScenario(), bad);
    QCOMPARE(int(b.outcome), int(io::RunOutcome::InvalidOptions));
    QVERIFY2(b.message.find("--every 0") != std::string::npos, b.message.c_str());
  }

  void summaryJsonHasTheContractKeys() {
    FakeSimulation sim;
    const io::RunSummary s = io::runSimulation(sim, fakeScenario(), io::RunOptions{});  // t_end / h = 100
    QCOMPARE(s.steps, std::int64_t(100));
    const json::ParseResult doc = json::parse(json::write(io::summaryToJson(s), 2));
    QVERIFY(doc.ok());
    const char* keys[] = {"system", "integrator", "h", "steps", "t_end", "impacts", "reflected_impacts", "energy_initial",
                          "energy_final", "max_abs_energy_rel_error", "wall_seconds", "steps_per_second",
                          "status"};
    const json::Object& o = doc.value->asObject();
    for (std::size_t i = 0; i < std::size(keys); ++i) QCOMPARE(o.at(i).first, std::string(keys[i]));
    QCOMPARE(doc.value->find("system")->asString(), std::string("fake-system"));
    QCOMPARE(doc.value->find("integrator")->asString(), std::string("fake"));
    QCOMPARE(doc.value->find("h")->asNumber(), 0.01);
    QCOMPARE(doc.value->find("steps")->asNumber(), 100.0);
    QCOMPARE(doc.value->find("t_end")->asNumber(), 1.0);
    QCOMPARE(doc.value->find("impacts")->asNumber(), 10.0);
    QCOMPARE(doc.value->find("energy_initial")->asNumber(), 3.0);
    QCOMPARE(doc.value->find("max_abs_energy_rel_error")->asNumber(), s.maxAbsEnergyRelError);
    QVERIFY(doc.value->find("wall_seconds")->asNumber() >= 0.0);
    QCOMPARE(doc.value->find("status")->asString(), std::string("ok"));
    QVERIFY(io::summaryLine(s).find("fake-system fake h=0.01: 100 steps") == 0);
  }

  void summaryJsonWritesCountsAsIntegers() {
    // Counts are integers in the JSON, not doubles in shortest form ("steps": 1e+05).
    FakeSimulation sim;
    io::RunOptions o;
    o.steps = 100000;
    const io::RunSummary s = io::runSimulation(sim, fakeScenario(), o);
    QCOMPARE(s.steps, std::int64_t(100000));
    QCOMPARE(s.impacts, std::int64_t(10000));
    const std::string text = json::write(io::summaryToJson(s), 2);
    QVERIFY2(text.find("\n  \"steps\": 100000,\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("\n  \"impacts\": 10000,\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("\n  \"reflected_impacts\": 0,\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("\n  \"t_end\": 1000,\n") != std::string::npos, text.c_str());  // a double
    const json::ParseResult doc = json::parse(text);
    QVERIFY2(doc.ok(), doc.error.c_str());
    for (const char* key : {"steps", "impacts", "reflected_impacts"}) {
      QVERIFY2(doc.value->find(key)->isInteger(), key);
    }
    QCOMPARE(doc.value->find("steps")->asInteger(), std::int64_t(100000));
    QVERIFY(!doc.value->find("h")->isInteger());
  }

  void sameScenarioGivesByteIdenticalFiles() {
    const auto runFake = [&](const char* name) {
      FakeSimulation sim;
      io::RunOptions o;
      o.steps = 500;
      o.traceCsv = dir() / name;
      QVERIFY(io::runSimulation(sim, fakeScenario(), o).ok());
    };
    runFake("a.csv");
    runFake("b.csv");
    QCOMPARE(readAll(dir() / "a.csv"), readAll(dir() / "b.csv"));

    if (systems().empty()) QSKIP("no system registered yet: real systems not covered");
    for (const SystemDescription* system : systems()) {
      const Scenario sc = defaultScenario(*system);
      std::string traces[2], impacts[2];
      for (int run = 0; run < 2; ++run) {
        CreateResult cr = createSimulation(sc);
        QVERIFY2(cr.simulation, cr.error.c_str());
        io::RunOptions o;
        o.steps = std::min<std::int64_t>(2000, io::stepCount(sc.tEnd, sc.integrator.h));
        o.every = 3;
        o.traceCsv = dir() / "real.csv";
        o.impactsCsv = dir() / "real-impacts.csv";
        const io::RunSummary s = io::runSimulation(*cr.simulation, sc, o);
        QVERIFY2(s.ok(), (system->info().id + ": " + s.message).c_str());
        traces[run] = readAll(o.traceCsv);
        impacts[run] = readAll(o.impactsCsv);
        // Header: the contract's required columns, then the simulation's own.
        const std::string header = traces[run].substr(0, traces[run].find('\n') + 1);
        QCOMPARE(header, io::traceHeader(cr.simulation->columns()));
        QCOMPARE(s.impactRows, s.impacts);  // a fresh run reports each counted impact once
        for (const auto& row : lines(o.impactsCsv)) {
          if (row.rfind("step,", 0) == 0) continue;
          const std::string name = split(row, ',')[3];
          const auto& names = system->info().constraints;
          // Between bodies: "A|B" or "A|PLANE", A and B the bodies' names.
          const bool pair = system->info().id == "bodies" && name.find('|') != std::string::npos;
          QVERIFY2(pair || std::find(names.begin(), names.end(), name) != names.end(), row.c_str());
        }
      }
      QVERIFY2(traces[0] == traces[1], system->info().id.c_str());
      QVERIFY2(impacts[0] == impacts[1], system->info().id.c_str());
    }
  }
};

QTEST_APPLESS_MAIN(TestIoTrace)
#include "test_io_trace.moc"
