// core/study: reproducible draws, study files and their expansion (grid, zip, ranges, random
// axes), the check of every run, the runner (rows in run order for any number of threads, any
// reorder window and any shard split; cancel; progress), failed runs as rows, the merge of
// shards, and that a study run measures exactly what `ricochet-cli run` measures.

#include "core/io/scenario_io.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"
#include "core/study/draws.hpp"
#include "core/study/merge.hpp"
#include "core/study/runner.hpp"
#include "core/study/study_file.hpp"

#include <QtTest>

#include <bit>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

#include <sys/stat.h>  // mkfifo

using namespace ricochet;
using namespace ricochet::study;

namespace {

StudyPlan plan(const std::string& text) {
  StudyResult s = parseStudy(text, "t.json", ".");
  if (!s.ok()) qFatal("%s", s.error.c_str());
  PlanResult p = planStudy(std::move(*s.study));
  if (!p.ok()) qFatal("%s", p.error.c_str());
  return std::move(*p.plan);
}

/// The error of a study text (parse, plan and run check), empty when it is fine.
std::string studyError(const std::string& text) {
  StudyResult s = parseStudy(text, "t.json", ".");
  if (!s.ok()) return s.error;
  PlanResult p = planStudy(std::move(*s.study));
  if (!p.ok()) return p.error;
  return checkRuns(*p.plan, 2);
}

/// The results CSV of (a shard of) a study, as `ricochet-cli study` writes it.
std::string resultsOf(const StudyPlan& p, int jobs, int shard = 0, int shards = 1, std::int64_t window = 0) {
  std::string out = resultsHeader(p);
  RunnerOptions o;
  o.jobs = jobs;
  o.shardIndex = shard;
  o.shardCount = shards;
  o.window = window;
  o.onRow = [&](const RunResult& r) { appendResultRow(out, p, r); };
  const RunnerOutcome outcome = runStudy(p, o);
  if (outcome.cancelled) qFatal("cancelled");
  return out;
}

std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const char* kCubeStudy = R"({"format": "ricochet-study", "version": 1,
  "scenario": {"system": "cube-plane", "t_end": 3},
  "vary": [{"name": "h", "values": [0.02, 0.01]},
           {"name": "z0", "linspace": [5, 15, 3]},
           {"name": "ry0", "normal": [0, 1e-8], "samples": 3}],
  "seed": 7})";

}  // namespace

class TestStudyCore : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir tmp_;
  std::filesystem::path dir() const { return tmp_.path().toStdString(); }
  /// DIR/STEMk.csv (appended piecewise: GCC 12 misreports "a" + std::to_string(k) as an overlap).
  std::filesystem::path numbered(const char* stem, int k) const {
    std::string name = stem;
    name += std::to_string(k);
    name += ".csv";
    return dir() / name;
  }

 private slots:
  void initTestCase() { QVERIFY(tmp_.isValid()); }

  // The engine's sequence is the standard's; the mapping is ours and pinned here, so a draw is
  // the same number on every platform (libstdc++, libc++ and MSVC distributions all differ).
  void drawsAreReproducibleAndDistributedAsDocumented() {
    std::mt19937_64 engine;
    engine.discard(9999);
    QCOMPARE(engine(), std::uint64_t(9981545732273789042ull));  // fixed by the C++ standard
    Draws d(1, 0);
    QCOMPARE(d.normal(), 1.312851528985562);
    QCOMPARE(d.normal(), 1.2506039211781217);
    QCOMPARE(d.normal(), 1.2285219999610564);
    Draws u(42, 3);
    QCOMPARE(u.uniform01(), 0.16301948556743151);
    // The mapping itself: the top 53 bits of one raw word.
    std::mt19937_64 raw(42 + 0x9E3779B97F4A7C15ull * 3);
    Draws again(42, 3);
    for (int i = 0; i < 100; ++i) QCOMPARE(again.uniform01(), static_cast<double>(raw() >> 11) * 0x1p-53);
    // Moments of 1e5 draws: the normal has mean 0 and sd 1 (standard errors 0.003 and 0.002).
    Draws n(1, 0);
    double s = 0, s2 = 0, lo = 1, hi = 0;
    for (int i = 0; i < 100000; ++i) {
      const double z = n.normal();
      s += z;
      s2 += z * z;
    }
    QVERIFY(std::fabs(s / 1e5) < 0.015);
    QVERIFY(std::fabs(std::sqrt(s2 / 1e5) - 1.0) < 0.01);
    Draws w(3, 1);
    for (int i = 0; i < 10000; ++i) {
      const double x = w.uniform(2.0, 5.0);
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      QVERIFY(x >= 2.0 && x <= 5.0);
    }
    QVERIFY(lo < 2.001 && hi > 4.999);
    // Streams are independent of each other: another axis index, another sequence.
    QVERIFY(Draws(1, 0).normal() != Draws(1, 1).normal());
  }

  void gridNestsTheAxesLastFastestAndZipPairsThem() {
    const StudyPlan p = plan(kCubeStudy);
    QCOMPARE(p.runs, std::int64_t(18));
    QCOMPARE(p.axes.size(), std::size_t(3));
    QCOMPARE(p.axes[1].numbers, (std::vector<double>{5, 10, 15}));
    std::vector<std::size_t> idx(3);
    axisIndices(p, 0, idx);
    QCOMPARE(idx, (std::vector<std::size_t>{0, 0, 0}));
    axisIndices(p, 1, idx);
    QCOMPARE(idx, (std::vector<std::size_t>{0, 0, 1}));
    axisIndices(p, 4, idx);
    QCOMPARE(idx, (std::vector<std::size_t>{0, 1, 1}));
    axisIndices(p, 17, idx);
    QCOMPARE(idx, (std::vector<std::size_t>{1, 2, 2}));
    Scenario sc;
    QVERIFY(runScenario(p, 13, sc).empty());  // (1, 1, 1)
    const SystemInfo& info = findSystem("cube-plane")->info();
    QCOMPARE(sc.integrator.h, 0.01);
    QCOMPARE(sc.initial[*indexOf(info.initial, "z0")], 10.0);
    QCOMPARE(sc.initial[*indexOf(info.initial, "ry0")], p.axes[2].numbers[1]);
    QCOMPARE(sc.tEnd, 3.0);
    QCOMPARE(QString::fromStdString(describeRun(p, 13)),
             QString("h = 0.01, z0 = 10, ry0 = ") + QString::fromStdString(formatNumber(p.axes[2].numbers[1])));
    // The normal axis is mean + sd * the seed's stream for axis 2.
    Draws d(7, 2);
    for (double x : p.axes[2].numbers) QCOMPARE(x, 0.0 + 1e-8 * d.normal());

    const StudyPlan z = plan(R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "particle-floor"},
      "vary": [{"name": "y0", "values": [1, 2, 3]}, {"name": "integrator", "values": ["variational", "rk4-event", "variational"]}],
      "combine": "zip", "steps": 10})");
    QCOMPARE(z.runs, std::int64_t(3));
    QVERIFY(runScenario(z, 1, sc).empty());
    QCOMPARE(sc.initial[1], 2.0);
    QCOMPARE(sc.integrator.name, std::string("rk4-event"));
    QCOMPARE(runSteps(z, sc), std::int64_t(10));
    // rk4-event has no e.discrete column: the union keeps variational's order.
    QVERIFY(finalColumnIndex(z, "e.discrete") > finalColumnIndex(z, "mom.px"));
    QVERIFY(finalColumnIndex(z, "e.discrete") < finalColumnIndex(z, "con.gap"));
  }

  void rangesAreExactAtTheirEnds() {
    const StudyPlan p = plan(R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "particle-floor"},
      "vary": [{"name": "x0", "linspace": [0, 1, 11]}, {"name": "h", "logspace": [0.02, 0.00125, 5]},
               {"name": "y0", "perturb": [0.5], "samples": 4}, {"name": "vx0", "uniform": [-1, 1], "samples": 2}],
      "seed": 3})");
    QCOMPARE(p.axes[0].numbers[3], 0.3);  // not 0.30000000000000004
    QCOMPARE(p.axes[0].numbers.back(), 1.0);
    QCOMPARE(p.axes[1].numbers, (std::vector<double>{0.02, 0.01, 0.005, 0.0025, 0.00125}));
    Draws d(3, 2);
    for (double y : p.axes[2].numbers) QCOMPARE(y, 1.0 + 0.5 * d.normal());  // base y0 = 1
    Draws u(3, 3);
    for (double v : p.axes[3].numbers) QCOMPARE(v, u.uniform(-1.0, 1.0));
    QCOMPARE(p.runs, std::int64_t(11 * 5 * 4 * 2));
  }

  // The messages name the key (with its line and column) or the run; the full hostile list is
  // driven through the CLI in test_study_cli.
  void badStudiesNameTheKeyOrTheRun() {
    const std::string head = R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "cube-plane"}, )";
    const auto expect = [&](const std::string& tail, const char* needle) {
      const std::string e = studyError(head + tail);
      QVERIFY2(e.find(needle) != std::string::npos, (e + " [wanted: " + needle + "]").c_str());
      QVERIFY2(e.rfind("t.json: ", 0) == 0, e.c_str());
    };
    expect(R"("vary": [{"name": "mass", "values": [1]}]})", "\"vary[0]\": \"name\" = \"mass\" is not an axis");
    expect(R"("vary": [{"name": "h", "values": []}]})", "\"vary[0].values\" is empty");
    expect(R"("vary": [{"name": "h", "linspace": [0.1, 0.2, 0]}]})", "empty range");
    expect(R"("vary": [{"name": "z0", "linspace": [5, 15, 100000]}, {"name": "h", "linspace": [0.001, 0.01, 10000]}]})",
           "expands to 1e+09 runs: a study has at most 10000000 runs");
    expect(R"("vary": [{"name": "z0", "values": [5, "NaN"]}]})", "\"vary[0].values[1]\" must be a number, not a string");
    expect(R"("vary": [{"name": "m", "values": [1, -1]}]})", "\"vary[0].values\": value 2 of 2: parameter 'm' = -1 is out of range");
    expect(R"("vary": [{"name": "z0", "values": [10, -5, 20]}]})",
           "run 1 of 3 (\"vary\": z0 = -5): initial condition outside the admissible set");
    expect(R"("vary": {"name": "h"}})", "\"vary\" must be an array, not an object");
    expect(R"("vary": [{"name": "h", "values": [0.1], "seed": 1}]})", "unknown key \"vary[0].seed\"");
    expect(R"("steps": 10, "vary": [{"name": "t_end", "values": [1]}]})", "give one of them");
    // A rejected study of 1e9 runs costs nothing: it is refused before any value is drawn.
    const auto start = std::chrono::steady_clock::now();
    QVERIFY(!studyError(head + R"("vary": [{"name": "z0", "normal": [10, 1], "samples": 1000000000}]})").empty());
    QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  }

  void studyFileRoundTrips() {
    const StudyPlan p = plan(kCubeStudy);
    const std::string text = json::write(studyToJson(p.study), 2);
    const StudyPlan q = plan(text);
    QVERIFY(io::sameScenario(p.study.base, q.study.base));
    QCOMPARE(q.runs, p.runs);
    for (std::size_t a = 0; a < p.axes.size(); ++a) QCOMPARE(q.axes[a].numbers, p.axes[a].numbers);
    QCOMPARE(json::write(studyToJson(q.study), 2), text);
  }

  // The refactor's point: a study row carries the same numbers as the run driver's summary.
  void aRunMeasuresWhatTheCliMeasures() {
    const StudyPlan p = plan(R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "star-floor"},
      "vary": [{"name": "omega0", "values": [5, 3]}], "t_end": 6})");
    for (std::int64_t run = 0; run < p.runs; ++run) {
      const RunResult r = executeRun(p, run);
      Scenario sc;
      QVERIFY(runScenario(p, run, sc).empty());
      CreateResult created = createSimulation(sc);
      QVERIFY(created.simulation);
      const io::RunSummary s = io::runSimulation(*created.simulation, sc, {});
      QCOMPARE(r.status, s.statusText());
      QCOMPARE(r.impacts, s.impacts);
      QCOMPARE(r.reflectedImpacts, s.reflectedImpacts);
      QCOMPARE(r.steps, s.steps);
      QCOMPARE(std::bit_cast<std::uint64_t>(r.maxAbsEnergyRelError), std::bit_cast<std::uint64_t>(s.maxAbsEnergyRelError));
      QCOMPARE(std::bit_cast<std::uint64_t>(r.final[0]), std::bit_cast<std::uint64_t>(s.energyFinal));
      QCOMPARE(r.firstImpactTime, s.firstImpactTime);
      QVERIFY(r.impacts > 0 && r.firstImpactTime > 0.5 && r.firstImpactTime < 1.0);
      std::vector<double> last(created.simulation->columns().size());
      created.simulation->sample(last);
      for (std::size_t c = 0; c < last.size(); ++c) {
        const int k = finalColumnIndex(p, std::string(created.simulation->columns()[c]));
        QCOMPARE(r.final[static_cast<std::size_t>(k)], last[c]);
      }
    }
  }

  void rowsAreTheSameForAnyJobsWindowAndShards() {
    const StudyPlan p = plan(kCubeStudy);
    const std::string one = resultsOf(p, 1);
    QCOMPARE(std::count(one.begin(), one.end(), '\n'), std::ptrdiff_t(19));
    QCOMPARE(resultsOf(p, 2), one);
    QCOMPARE(resultsOf(p, 3, 0, 1, 1), one);  // a window of one run: workers wait their turn
    std::vector<std::filesystem::path> shards;
    for (int k = 0; k < 4; ++k) {
      shards.push_back(numbered("shard", k));
      QVERIFY(io::writeFileAtomically(shards.back(), shardLine(p, k, 4) + resultsOf(p, 2, k, 4))
                  .empty());
    }
    QVERIFY(mergeShards({shards[2], shards[0], shards[3], shards[1]}, dir() / "merged.csv", &p)
                .empty());
    QCOMPARE(readAll(dir() / "merged.csv"), one);
    // Shards interleave: shard 1 of 4 holds runs 1, 5, 9, 13, 17.
    QCOMPARE(shardSize(18, 1, 4), std::int64_t(5));
    const std::string s1 = readAll(shards[1]);
    QVERIFY(s1.find("\n5,ok,") != std::string::npos && s1.find("\n17,ok,") != std::string::npos);
  }

  void mergeRefusesIncompleteOrMixedShards() {
    const StudyPlan p = plan(kCubeStudy);
    std::vector<std::filesystem::path> shards;
    for (int k = 0; k < 3; ++k) {
      shards.push_back(numbered("m", k));
      QVERIFY(io::writeFileAtomically(shards.back(), shardLine(p, k, 3) + resultsOf(p, 1, k, 3))
                  .empty());
    }
    const auto out = dir() / "never.csv";
    const auto contains = [](const std::string& e, const char* needle) {
      return e.find(needle) != std::string::npos;
    };
    std::string e = mergeShards({shards[0], shards[2]}, out);
    QVERIFY2(contains(e, "run 1 is in none of the shards (the next is run 2 in ") &&
                 contains(e, "(shard 2/3 is missing)"),
             e.c_str());
    e = mergeShards({shards[0], shards[1], shards[2], shards[1]}, out);
    QVERIFY2(contains(e, ": shard 2/3 is given twice (also "), e.c_str());
    // A shard that lost its last rows at a line end is found from the shard line alone (the study
    // has 18 runs; no --study needed).
    const auto cut = dir() / "cut.csv";
    std::string text = readAll(shards[2]);
    text.erase(text.rfind('\n', text.size() - 2) + 1);
    QVERIFY(io::writeFileAtomically(cut, text).empty());
    e = mergeShards({shards[0], shards[1], cut}, out);
    QVERIFY2(
        contains(
            e, "the shards hold runs 0 to 16 but the study has 18 runs: run 17 is in none of them"),
        e.c_str());
    // Shards of another study: its fingerprint differs, whatever the header says.
    const auto other = dir() / "other.csv";
    const StudyPlan q = plan(R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "particle-floor"}, "steps": 3})");
    QVERIFY(io::writeFileAtomically(other, shardLine(q, 1, 3) + resultsOf(q, 1, 1, 3)).empty());
    e = mergeShards({shards[0], other}, out);
    QVERIFY2(contains(e, "other.csv: a shard of another study than ") &&
                 contains(e, studyFingerprint(q).c_str()),
             e.c_str());
    e = mergeShards({other}, out, &p);
    const std::string another = "other.csv: a shard of another study (study " +
                                studyFingerprint(q) + "; the study given has " +
                                studyFingerprint(p) + ")";
    QVERIFY2(contains(e, another.c_str()), e.c_str());
    // A split into another number of shards.
    const auto half = dir() / "half.csv";
    QVERIFY(io::writeFileAtomically(half, shardLine(p, 1, 2) + resultsOf(p, 1, 1, 2)).empty());
    e = mergeShards({shards[0], half}, out);
    QVERIFY2(
        contains(e, "half.csv: shard 2/2 of a split into 2, ") && contains(e, " of one into 3"),
        e.c_str());
    // A whole study's file is no shard.
    const auto whole = dir() / "whole.csv";
    QVERIFY(io::writeFileAtomically(whole, resultsOf(p, 1)).empty());
    e = mergeShards({whole}, out);
    QVERIFY2(
        contains(
            e, "whole.csv: not a shard of a study: its first line is not '# ricochet-study shard"),
        e.c_str());
    QVERIFY(!std::filesystem::exists(out));
  }

  // The fingerprint is that of the study, not of its file: the same study written another way
  // (key order, spacing, its scenario inline or not) has the same one; another study has another.
  void theFingerprintIsTheStudys() {
    const StudyPlan p = plan(kCubeStudy);
    const std::string f = studyFingerprint(p);
    QCOMPARE(f.size(), std::size_t(16));
    const StudyPlan again = plan(json::write(studyToJson(p.study), 2));
    QCOMPARE(studyFingerprint(again), f);
    Study changed = p.study;
    changed.seed += 1;
    QVERIFY(studyFingerprint(*planStudy(changed).plan) != f);
    QCOMPARE(shardLine(p, 1, 3), "# ricochet-study shard 2/3 of 18 runs, study " + f + "\n");
  }

  // Every row of every shard is checked: its field count, each field's kind, the line length; a
  // shard must be a regular file. Each refusal names the file, the line and the column, and no
  // merged file appears.
  void mergeChecksEveryRow_data() {
    QTest::addColumn<QString>("edit");     // what is done to shard 2 of 3
    QTest::addColumn<QString>("message");  // in the refusal
    QTest::newRow("truncated row") << "cut"
                                   << "m1.csv: line 4 has ";
    QTest::newRow("no final newline")
        << "nonl"
        << "m1.csv: line 8 does not end with a line break: the file was cut short";
    QTest::newRow("letters for a number")
        << "letters"
        << "m1.csv: line 3, column 'impacts': 'many' is not a whole number >= 0";
    QTest::newRow("bad axis value") << "axis"
                                    << "m1.csv: line 3, column 'z0': 'x' is not a number";
    QTest::newRow("bad final column")
        << "final"
        << "m1.csv: line 3, column 'final.energy': '1.2.3' is not a number";
    QTest::newRow("bad status") << "status"
                                << "m1.csv: line 3, column 'status': 'OK!' is not a status word";
    QTest::newRow("quote out of place") << "quote"
                                        << "m1.csv: line 3: a quote is out of place";
    QTest::newRow("run of another shard") << "foreign"
                                          << "m1.csv: line 3: run 2 is not one of shard 2/3's runs";
    QTest::newRow("a line of 5 MB") << "long"
                                    << "m1.csv: line 3 is longer than 4194304 bytes";
  }

  void mergeChecksEveryRow() {
    QFETCH(QString, edit);
    QFETCH(QString, message);
    const StudyPlan p = plan(kCubeStudy);
    std::vector<std::filesystem::path> shards;
    std::vector<std::string> text;
    for (int k = 0; k < 3; ++k) {
      shards.push_back(numbered("m", k));
      text.push_back(shardLine(p, k, 3) + resultsOf(p, 1, k, 3));
    }
    // Shard 2 of 3 (runs 1, 4, 7, ...): its lines are the shard line, the header, then rows.
    std::vector<std::string> lines;
    for (std::size_t at = 0, next; (next = text[1].find('\n', at)) != std::string::npos;
         at = next + 1) {
      lines.push_back(text[1].substr(at, next - at));
    }
    QCOMPARE(lines.size(), std::size_t(8));
    const auto replaceField = [&](std::string& line, std::size_t index, const std::string& with) {
      std::size_t start = 0;
      for (std::size_t i = 0; i < index; ++i) start = line.find(',', start) + 1;
      line.replace(start, line.find(',', start) - start, with);
    };
    bool finalNewline = true;
    if (edit == "cut") lines[3] = lines[3].substr(0, lines[3].size() / 2);
    if (edit == "nonl") finalNewline = false;
    if (edit == "letters") replaceField(lines[2], 5, "many");
    if (edit == "axis") replaceField(lines[2], 3, "x");
    if (edit == "final") replaceField(lines[2], 12, "1.2.3");
    if (edit == "status") replaceField(lines[2], 1, "OK!");
    if (edit == "quote") replaceField(lines[2], 2, "0.\"01");
    if (edit == "foreign") replaceField(lines[2], 0, "2");
    if (edit == "long") lines[2] += std::string(std::size_t(5) << 20, '7');
    text[1].clear();
    for (std::size_t i = 0; i < lines.size(); ++i)
      text[1] += lines[i] + (i + 1 < lines.size() || finalNewline ? "\n" : "");
    for (int k = 0; k < 3; ++k)
      QVERIFY(io::writeFileAtomically(shards[std::size_t(k)], text[std::size_t(k)]).empty());
    const auto out = dir() / "never.csv";
    const std::string e = mergeShards(shards, out, &p);
    QVERIFY2(e.find(message.toStdString()) != std::string::npos, e.c_str());
    if (edit == "cut") QVERIFY2(e.ends_with("(a row cut short?)"), e.c_str());
    QVERIFY(!std::filesystem::exists(out));
  }

  // A shard is a regular file: /dev/zero (no line ends, ever) and a FIFO (no writer) are refused
  // at once instead of read until memory runs out or forever.
  void mergeReadsRegularFilesOnly() {
    const StudyPlan p = plan(kCubeStudy);
    const auto shard = dir() / "s0.csv";
    QVERIFY(io::writeFileAtomically(shard, shardLine(p, 0, 2) + resultsOf(p, 1, 0, 2)).empty());
    const auto out = dir() / "never.csv";
    std::string e = mergeShards({shard, "/dev/zero"}, out);
    QCOMPARE(
        e, std::string(
               "/dev/zero: is a character device, not a results file (shards are regular files)"));
    const auto fifo = dir() / "fifo.csv";
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    e = mergeShards({shard, fifo}, out);
    QCOMPARE(e, fifo.string() + ": is a FIFO, not a results file (shards are regular files)");
    e = mergeShards({shard, dir()}, out);
    QVERIFY2(e.find("is a directory, not a results file") != std::string::npos, e.c_str());
    QVERIFY(!std::filesystem::exists(out));
  }

  // A run that fails is a row with its status and message; the study goes on.
  void failedRunsAreRows() {
    // A particle at rest on the floor cannot be held by elastic impacts: zeno in its first step.
    const StudyPlan p = plan(R"({"format": "ricochet-study", "version": 1,
      "scenario": {"system": "particle-floor", "initial": {"vx0": 0}}, "vary": [{"name": "y0", "values": [1, 0, 2]}], "t_end": 2})");
    std::vector<RunResult> rows;
    RunnerOptions o;
    o.jobs = 2;
    o.onRow = [&](const RunResult& r) { rows.push_back(r); };
    const RunnerOutcome outcome = runStudy(p, o);
    QCOMPARE(rows.size(), std::size_t(3));
    QCOMPARE(outcome.failed, std::int64_t(1));
    QCOMPARE(outcome.statuses.at("zeno"), std::int64_t(1));
    QCOMPARE(rows[0].status, std::string("ok"));
    QCOMPARE(rows[1].status, std::string("zeno"));
    QVERIFY(rows[1].message.find("integrator failed at step 1") != std::string::npos);
    QCOMPARE(rows[2].status, std::string("ok"));
    QVERIFY(rows[2].impacts > 0);
    std::string line;
    appendResultRow(line, p, rows[1]);
    QVERIFY(line.rfind("1,zeno,0,0,0,nan,", 0) == 0);
    // The message is the last column, quoted because it holds commas.
    QVERIFY(line.find(",\"integrator failed at step 1 (t = 0 s): too many impacts") != std::string::npos);
    QVERIFY(line.size() > 2 && line.substr(line.size() - 2) == "\"\n");
  }

  void cancelStopsPromptlyAndProgressCounts() {
    const StudyPlan p = plan(R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "cube-plane"},
      "vary": [{"name": "z0", "linspace": [5, 15, 40]}], "steps": 200000})");
    std::atomic<bool> cancel{false};
    std::vector<std::int64_t> runs;
    RunnerOptions o;
    o.jobs = 2;
    o.cancel = &cancel;
    o.onRow = [&](const RunResult& r) {
      runs.push_back(r.run);
      if (runs.size() == 2) cancel.store(true);
    };
    const auto start = std::chrono::steady_clock::now();
    const RunnerOutcome outcome = runStudy(p, o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QVERIFY(outcome.cancelled);
    QCOMPARE(runs, (std::vector<std::int64_t>{0, 1}));
    QVERIFY2(seconds < 0.5 * 40 * 200000 / 2e6, qPrintable(QString::number(seconds)));  // far less than the study

    std::vector<Progress> seen;
    RunnerOptions q;
    q.jobs = 2;
    q.progressInterval = 0.01;
    q.onProgress = [&](const Progress& pr) { seen.push_back(pr); };
    const StudyPlan small = plan(kCubeStudy);
    const RunnerOutcome done = runStudy(small, q);
    QCOMPARE(done.rows, std::int64_t(18));
    QVERIFY(!seen.empty());
    QCOMPARE(seen.back().done, std::int64_t(18));
    QCOMPARE(seen.back().total, std::int64_t(18));
    QVERIFY(seen.back().runsPerSecond > 0.0);
    for (std::size_t i = 1; i < seen.size(); ++i) QVERIFY(seen[i].done >= seen[i - 1].done);
  }
};

QTEST_APPLESS_MAIN(TestStudyCore)
#include "test_study_core.moc"
