// ricochet-cli study / study merge / convergence / sensitivity / compare, driven as separate
// processes: byte-identical results for any --jobs and any --shard split once merged, hostile
// study files (exit 2, one line naming the key or the run, no file written), Ctrl-C and SIGTERM
// (no file written), and the numbers of the built-in studies: second order through impacts
// (star-floor with alpha-corrected errors, the four SE(3) cases), the particle's bounded
// error/(h^2 |2 alpha - 1|), the pendulum's first-order rectangle and second-order midpoint
// schemes, the twelve distances of the cube sensitivity experiment, and the comparison table.

#include "cli_process.hpp"

#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <signal.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>

namespace {

const QString kCli = QStringLiteral(RICOCHET_BINARY_DIR "/bin/ricochet-cli");

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeText(const QString& path, const QString& text) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(text.toUtf8());
}

/// A CSV as rows of name -> text (header first line; no quoted commas in the columns read).
std::vector<std::map<QString, QString>> readCsv(const QString& path) {
  const QStringList lines = QString::fromUtf8(readAll(path)).split('\n', Qt::SkipEmptyParts);
  std::vector<std::map<QString, QString>> rows;
  if (lines.isEmpty()) return rows;
  const QStringList head = lines.front().split(',');
  for (int i = 1; i < lines.size(); ++i) {
    const QStringList cells = lines[i].split(',');
    std::map<QString, QString> row;
    for (int c = 0; c < head.size() && c < cells.size(); ++c) row[head[c]] = cells[c];
    rows.push_back(row);
  }
  return rows;
}

/// The number after `label` in `text` (e.g. the fitted order of a report).
double numberAfter(const QString& text, const QString& label) {
  const int at = text.indexOf(label);
  if (at < 0) return std::nan("");
  QString rest = text.mid(at + label.size()).trimmed();
  int end = 0;
  while (end < rest.size() && (rest[end].isDigit() || rest[end] == '.' || rest[end] == '-' || rest[end] == 'e')) ++end;
  while (end > 0 && rest[end - 1] == '.') --end;  // the full stop ending a sentence
  bool ok = false;
  const double x = rest.left(end).toDouble(&ok);
  return ok ? x : std::nan("");
}

const char* kStudy = R"({"format": "ricochet-study", "version": 1,
  "scenario": {"system": "cube-plane"},
  "vary": [{"name": "h", "values": [0.02, 0.01]},
           {"name": "z0", "linspace": [5, 15, 3]},
           {"name": "ry0", "normal": [0, 1e-8], "samples": 4}],
  "combine": "grid", "seed": 1, "t_end": 5})";

}  // namespace

class TestStudyCli : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir tmp_;
  QString file(const QString& name) const { return tmp_.filePath(name); }

  /// Exit code 2, nothing on stdout, exactly one line on stderr that contains `needle`.
  void expectBadInput(const QStringList& args, const QString& needle) {
    const Result r = cli(args);
    const QString what = args.join(' ') + " -> " + r.err;
    QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: ").arg(r.exitCode) + what));
    QVERIFY2(r.out.isEmpty(), qPrintable(what));
    QVERIFY2(r.err.endsWith('\n') && r.err.count('\n') == 1, qPrintable(what));
    QVERIFY2(r.err.contains(needle), qPrintable(what + " [wanted: " + needle + "]"));
  }

  /// The files in the temporary directory whose name contains `part` (temporaries included).
  QStringList filesLike(const QString& part) const {
    QStringList names;
    for (const QString& n : QDir(tmp_.path()).entryList(QDir::Files | QDir::Hidden)) {
      if (n.contains(part)) names << n;
    }
    return names;
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    QVERIFY2(QFileInfo::exists(kCli), "build the ricochet-cli target first");
    writeText(file("study.json"), kStudy);
  }

  void helpListsTheStudyCommands() {
    const Result help = cli({"--help"});
    QCOMPARE(help.exitCode, 0);
    for (const char* word : {"study STUDY.json", "study merge", "--shard K/N", "convergence", "sensitivity", "compare"}) {
      QVERIFY2(help.out.contains(word), word);
    }
  }

  // Acceptance: --jobs 1, --jobs 2 and three shards merged give the same bytes; timings only in
  // the summary JSON.
  void resultsAreByteIdenticalForAnyJobsAndShards() {
    const Result one = cli({"study", file("study.json"), "--out", file("r1.csv"), "--jobs", "1", "--summary-json",
                            file("r1.json")});
    QVERIFY2(one.exitCode == 0, qPrintable(one.err));
    QVERIFY(one.out.startsWith("study: 24 runs, 0 failed"));
    QVERIFY2(one.err.contains("study: 24/24 runs") && one.err.contains("runs/s") && one.err.contains("ETA"),
             qPrintable(one.err));
    const QByteArray bytes = readAll(file("r1.csv"));
    const QList<QByteArray> lines = bytes.split('\n');
    QCOMPARE(lines.size(), 26);  // header, 24 rows, the empty piece after the last newline
    QVERIFY(lines[0].startsWith("run,status,h,z0,ry0,impacts,reflected_impacts,first_impact_t,"
                                "max_abs_energy_rel_error,energy_final_rel_error,steps,t_end,final.energy,"
                                "final.kinetic,final.potential,final.q.x,"));
    QVERIFY(lines[0].endsWith(",final.con.gap,message"));
    QVERIFY(!lines[0].contains("second"));  // no timing column
    QVERIFY(lines[1].startsWith("0,ok,0.02,5,"));
    QVERIFY(lines[24].startsWith("23,ok,0.01,15,"));
    const QJsonObject summary = QJsonDocument::fromJson(readAll(file("r1.json"))).object();
    QCOMPARE(summary["runs"].toInt(), 24);
    QCOMPARE(summary["jobs"].toInt(), 1);
    QVERIFY(summary["wall_seconds"].toDouble() > 0.0 && summary["runs_per_second"].toDouble() > 0.0);
    QCOMPARE(summary["statuses"].toObject()["ok"].toInt(), 24);

    QCOMPARE(cli({"study", file("study.json"), "--out", file("r2.csv"), "--jobs", "2", "--quiet"}).exitCode, 0);
    QCOMPARE(readAll(file("r2.csv")), bytes);
    QStringList merge = {"study", "merge", "--out", file("merged.csv"), "--study", file("study.json")};
    for (int k = 3; k >= 1; --k) {
      const QString shard = file(QStringLiteral("shard%1.csv").arg(k));
      const Result r = cli({"study", file("study.json"), "--out", shard, "--shard", QStringLiteral("%1/3").arg(k), "--quiet"});
      QVERIFY2(r.exitCode == 0, qPrintable(r.err));
      QVERIFY(r.out.contains(QStringLiteral("8 runs of 24 (shard %1/3)").arg(k)));
      merge << shard;
    }
    const Result merged = cli(merge);
    QVERIFY2(merged.exitCode == 0, qPrintable(merged.err));
    QCOMPARE(readAll(file("merged.csv")), bytes);
    // A missing shard is refused, naming the run it lacks.
    expectBadInput({"study", "merge", "--out", file("bad.csv"), file("shard1.csv"), file("shard3.csv")},
                   "run 1 is in none of the shards");
    expectBadInput({"study", "merge", "--out", file("bad.csv"), "--study", file("study.json"), file("shard1.csv"),
                    file("shard2.csv")},
                   "run 2 is in none of the shards");
    QVERIFY(!QFileInfo::exists(file("bad.csv")));
  }

  // `study merge` checks what it merges (it used to accept a truncated row and exit 0, and to read
  // /dev/zero until memory ran out): each shard file says whose shard it is; rows are checked
  // field by field; only regular files are read.
  void mergeChecksWhatItMerges() {
    for (int k = 1; k <= 2; ++k) {
      const Result r =
          cli({"study", file("study.json"), "--out", file(QStringLiteral("half%1.csv").arg(k)),
               "--shard", QStringLiteral("%1/2").arg(k), "--quiet"});
      QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }
    const QByteArray half2 = readAll(file("half2.csv"));
    QVERIFY2(half2.startsWith("# ricochet-study shard 2/2 of 24 runs, study "),
             half2.left(80).constData());
    QCOMPARE(
        cli({"study", "merge", "--out", file("whole.csv"), file("half1.csv"), file("half2.csv")})
            .exitCode,
        0);
    QCOMPARE(cli({"study", file("study.json"), "--out", file("direct.csv"), "--quiet"}).exitCode,
             0);
    QCOMPARE(readAll(file("whole.csv")), readAll(file("direct.csv")));  // no shard line in it

    // The last row of shard 2 cut in the middle, as an interrupted copy leaves it.
    writeText(file("cut.csv"), QString::fromUtf8(half2.left(half2.size() - 40)));
    expectBadInput({"study", "merge", "--out", file("bad.csv"), file("half1.csv"), file("cut.csv")},
                   "cut.csv: line 14 does not end with a line break: the file was cut short");
    QByteArray cutRow = half2.left(half2.size() - 1);
    cutRow = cutRow.left(cutRow.lastIndexOf(',', cutRow.lastIndexOf(',') - 1)) +
             "\n";  // two fields fewer
    writeText(file("short.csv"), QString::fromUtf8(cutRow));
    expectBadInput(
        {"study", "merge", "--out", file("bad.csv"), file("half1.csv"), file("short.csv")},
        "short.csv: line 14 has ");
    expectBadInput(
        {"study", "merge", "--out", file("bad.csv"), file("half1.csv"), "/dev/zero"},
        "/dev/zero: is a character device, not a results file (shards are regular files)");
    // A shard of another study with the same columns.
    writeText(file("other.json"), QString(kStudy).replace("\"seed\": 1", "\"seed\": 2"));
    QCOMPARE(
        cli({"study", file("other.json"), "--out", file("other2.csv"), "--shard", "2/2", "--quiet"})
            .exitCode,
        0);
    expectBadInput(
        {"study", "merge", "--out", file("bad.csv"), file("half1.csv"), file("other2.csv")},
        "other2.csv: a shard of another study than ");
    expectBadInput({"study", "merge", "--out", file("bad.csv"), "--study", file("other.json"),
                    file("half1.csv"), file("half2.csv")},
                   "half1.csv: a shard of another study (study ");
    QVERIFY(!QFileInfo::exists(file("bad.csv")));
  }

  void hostileStudyFilesExitTwoNamingTheKey_data() {
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("needle");
    const QString s = R"("format": "ricochet-study", "version": 1, "scenario": {"system": "cube-plane"})";
    const auto row = [&](const char* name, const QString& rest, const QString& needle) {
      QTest::newRow(name) << ("{" + s + (rest.isEmpty() ? "" : ", " + rest) + "}") << needle;
    };
    row("unknown axis", R"("vary": [{"name": "mass", "values": [1]}])", R"("vary[0]": "name" = "mass" is not an axis)");
    row("empty values", R"("vary": [{"name": "h", "values": []}])", R"("vary[0].values" is empty)");
    row("empty linspace", R"("vary": [{"name": "z0", "linspace": [5, 15, 0]}])", R"("vary[0].linspace": count 0 is an empty range)");
    row("empty uniform", R"("vary": [{"name": "z0", "uniform": [15, 5], "samples": 3}])", "is an empty range: low must be <= high");
    row("zero samples", R"("vary": [{"name": "z0", "normal": [10, 1], "samples": 0}])", R"("vary[0].samples" = 0 is an empty range)");
    row("1e9 runs", R"("vary": [{"name": "z0", "linspace": [5, 15, 1000]}, {"name": "ry0", "normal": [0, 1e-8], "samples": 1000000}])",
        "expands to 1e+09 runs: a study has at most 10000000 runs (1e7)");
    row("1e9 samples", R"("vary": [{"name": "z0", "normal": [10, 1], "samples": 1000000000}])",
        "gives 1000000000 values: a study has at most 10000000 runs");
    row("NaN token", R"("vary": [{"name": "z0", "values": [NaN]}])", "line 1, column");
    row("NaN string", R"("vary": [{"name": "z0", "values": [5, "NaN"]}])", R"("vary[0].values[1]" must be a number, not a string)");
    row("huge value", R"("vary": [{"name": "z0", "values": [1e300]}])", R"("vary[0].values" = 1e+300 is too large)");
    row("out of range", R"("vary": [{"name": "m", "values": [1, -1]}])", R"("vary[0].values": value 2 of 2: parameter 'm' = -1 is out of range)");
    row("bad h", R"("vary": [{"name": "h", "values": [0.01, 0]}])", R"("vary[0].values": value 2 of 2:)");
    row("inadmissible run", R"("vary": [{"name": "h", "values": [0.01, 0.02]}, {"name": "z0", "values": [10, -5]}])",
        R"(run 1 of 4 ("vary": h = 0.01, z0 = -5): initial condition outside the admissible set)");
    row("unknown integrator", R"("vary": [{"name": "integrator", "values": ["variational", "euler"]}])",
        R"("vary[0].values": value 2 of 2:)");
    row("integrator numbers", R"("vary": [{"name": "integrator", "values": [1]}])", R"("vary[0].values[0]" must be a string, not a number)");
    row("names for a number", R"("vary": [{"name": "z0", "values": ["a"]}])", R"("vary[0].values[0]" must be a number, not a string)");
    row("vary not an array", R"("vary": {"name": "h"})", R"("vary" must be an array, not an object)");
    row("axis not an object", R"("vary": [3])", R"("vary[0]" must be an object, not a number)");
    row("two kinds", R"("vary": [{"name": "z0", "values": [1], "linspace": [1, 2, 2]}])", "gives both \"values\" and \"linspace\"");
    row("no kind", R"("vary": [{"name": "z0"}])", R"("vary[0]" ("z0") needs one of values)");
    row("samples missing", R"("vary": [{"name": "z0", "normal": [10, 1]}])", R"("vary[0]" (normal) needs "samples")");
    row("linspace shape", R"("vary": [{"name": "z0", "linspace": [5, 15]}])", R"("vary[0].linspace" must be [from, to, count])");
    row("count not integer", R"("vary": [{"name": "z0", "linspace": [5, 15, 2.5]}])", "must be an integer");
    row("duplicate axis", R"("vary": [{"name": "z0", "values": [5]}, {"name": "initial.z0", "values": [6]}])",
        R"("vary[1]" ("initial.z0") is already varied by "vary[0]")");
    row("zip lengths", R"("combine": "zip", "vary": [{"name": "z0", "values": [5, 6]}, {"name": "h", "values": [0.01]}])",
        "needs axes of equal length");
    row("bad combine", R"("combine": "cross")", R"("combine" = "cross" must be "grid" or "zip")");
    row("seed string", R"("seed": "1")", R"("seed" must be a number, not a string)");
    row("seed negative", R"("seed": -1)", R"("seed" = -1 must be an integer)");
    row("steps zero", R"("steps": 0)", R"("steps" = 0 must be an integer in [1,)");
    row("steps and t_end", R"("steps": 10, "t_end": 3)", R"(give "steps" or "t_end", not both)");
    row("bad t_end", R"("t_end": -3)", R"("t_end": )");
    row("unknown key", R"("runs": 3)", R"(unknown key "runs")");
    row("control: a valid study", R"("vary": [], "seed": 1, "steps": 1, "combine": "grid")", "");
    QTest::newRow("scenario parameter")
        << R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "cube-plane", "parameters": {"m": -1}}})"
        << R"("parameters.m" = -1 is out of range)";
    QTest::newRow("scenario system") << R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "cube"}})"
                                     << R"("system" = "cube" is not a known system id)";
    QTest::newRow("scenario file") << R"({"format": "ricochet-study", "version": 1, "scenario": "missing.json"})"
                                   << "\"scenario\": ";
    QTest::newRow("scenario type") << R"({"format": "ricochet-study", "version": 1, "scenario": 3})"
                                   << R"("scenario" must be an object or a file path, not a number)";
    QTest::newRow("no scenario") << R"({"format": "ricochet-study", "version": 1})" << R"(missing key "scenario")";
    QTest::newRow("wrong format") << R"({"format": "ricochet-scenario", "version": 1, "scenario": {"system": "cube-plane"}})"
                                  << R"("format" = "ricochet-scenario" is not "ricochet-study")";
    QTest::newRow("not an object") << "[1, 2]" << "a study must be a JSON object, not an array";
    QTest::newRow("truncated") << R"({"format": "ricochet-study", "version": 1, "scenario": {"system": )" << "line 1, column";
  }

  void hostileStudyFilesExitTwoNamingTheKey() {
    QFETCH(QString, body);
    QFETCH(QString, needle);
    writeText(file("hostile.json"), body);
    if (needle.isEmpty()) {  // the control row: a valid study runs
      const Result r = cli({"study", file("hostile.json"), "--out", file("hostile.csv"), "--quiet"});
      QVERIFY2(r.exitCode == 0, qPrintable(r.err));
      QFile::remove(file("hostile.csv"));
      return;
    }
    expectBadInput({"study", file("hostile.json"), "--out", file("hostile.csv")}, needle);
    QVERIFY(filesLike("hostile.csv").isEmpty());  // not even a temporary file
  }

  void badOptionsExitTwo() {
    expectBadInput({"study", file("study.json")}, "'study' needs --out RESULTS.csv");
    expectBadInput({"study", file("study.json"), "--out", file("x.csv"), "--jobs", "0"}, "--jobs '0' is invalid");
    expectBadInput({"study", file("study.json"), "--out", file("x.csv"), "--shard", "4/3"}, "--shard '4/3' is invalid");
    expectBadInput({"study", file("study.json"), "--out", file("x.csv"), "--shard", "0/3"}, "--shard '0/3' is invalid");
    expectBadInput({"study", file("study.json"), "--out", file("x.csv"), "--shard", "half"}, "--shard 'half' is invalid");
    expectBadInput({"study", file("nope.json"), "--out", file("x.csv")}, "nope.json");
    expectBadInput({"study", file("study.json"), "--out", file("x.csv"), "--summary-json", file("x.csv")}, "name the same file");
    expectBadInput({"study", file("study.json"), "--out", tmp_.path() + "/no/such/dir/x.csv"}, "x.csv");
    expectBadInput({"study", "merge", file("r1.csv")}, "needs --out");
    expectBadInput({"convergence", "star-floor"}, "needs --at T");
    expectBadInput({"convergence", "star-floor", "--at", "1.55", "--h0", "0.1"}, "--at 1.55 is not a whole number of steps of h0 = 0.1");
    expectBadInput({"convergence", "star-floor", "--at", "1.6", "--levels", "1"}, "--levels 1 is invalid");
    expectBadInput({"sensitivity", "particle-floor"}, "'particle-floor' has no default perturbation: give --perturb NAME=DELTA");
    expectBadInput({"sensitivity", "cube-plane", "--perturb", "mass=1"}, "--perturb mass+1: unknown parameter 'mass'");
    expectBadInput({"sensitivity", "cube-plane", "--perturb", "z0=-20"}, "initial condition outside the admissible set");
    expectBadInput({"compare", "star-floor", "--h", "0.01,,0.02"}, "--h '0.01,,0.02'");
    expectBadInput({"compare", "star-floor", "--integrators", "variational,euler"}, "euler");
    QVERIFY(filesLike("x.csv").isEmpty());
  }

  // Ctrl-C (130) and a scheduler's SIGTERM (143) stop the study and leave no file behind.
  void interruptLeavesNoFile() {
    writeText(file("long.json"), R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "cube-plane"},
      "vary": [{"name": "z0", "linspace": [5, 15, 400]}], "steps": 100000})");
    for (int signal : {SIGINT, SIGTERM}) {
      QProcess p;
      p.setProgram(kCli);
      p.setArguments({"study", file("long.json"), "--out", file("long.csv"), "--summary-json", file("long-summary.json")});
      p.start();
      QVERIFY(p.waitForStarted());
      QElapsedTimer clock;
      clock.start();
      QByteArray err;
      while (!err.contains("runs/s") && clock.elapsed() < 30000) {  // the first progress line: runs are going
        p.waitForReadyRead(100);
        err += p.readAllStandardError();
      }
      QVERIFY2(err.contains("runs/s"), err.constData());
      QVERIFY(::kill(static_cast<pid_t>(p.processId()), signal) == 0);
      QVERIFY(p.waitForFinished(30000));
      QCOMPARE(p.exitCode(), signal == SIGINT ? 130 : 143);
      err += p.readAllStandardError();
      QVERIFY2(err.contains("interrupted") && err.contains("no file written"), err.constData());
      QVERIFY2(filesLike("long.csv").isEmpty() && filesLike("long-summary").isEmpty(),
               qPrintable(filesLike("long").join(' ')));
    }
  }

  // Second order through impacts. star-floor integrates its flight exactly (uniform gravity, free
  // rotation): its error is C h^2 |2 alpha - 1|, so the order is that of error/|2 alpha - 1|.
  void convergenceIsSecondOrderThroughImpacts() {
    const Result star = cli({"convergence", "star-floor", "--at", "1.6", "--h0", "0.05", "--levels", "7", "--quiet",
                             "--out", file("star.csv")});
    QVERIFY2(star.exitCode == 0, qPrintable(star.err));
    QVERIFY2(star.out.contains("integrated exactly") && star.out.contains("bounded instead"), qPrintable(star.out));
    const double corrected = numberAfter(star.out, "the slope of error/|2 alpha - 1| is");
    qInfo("star-floor: alpha-corrected order %.3f, raw %.3f", corrected,
          numberAfter(star.out, "against log h):"));
    QVERIFY2(std::fabs(corrected - 2.0) <= 0.2, qPrintable(star.out));
    const auto rows = readCsv(file("star.csv"));
    QCOMPARE(rows.size(), std::size_t(8));
    QCOMPARE(rows.back().at("level"), QString("reference"));
    QCOMPARE(rows.back().at("h"), QString("9.7656250000000005e-05"));  // 0.05 / 2^(6 + 3)
    for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
      QCOMPARE(rows[k].at("impacts"), QString("1"));
      const double c = rows[k].at("error_over_h2_impact_factor").toDouble();
      QVERIFY2(c > 1.5 && c < 1.6, qPrintable(rows[k].at("error_over_h2_impact_factor")));
    }
    // The SE(3) cases: their flight is not exact, the raw slope is the order.
    for (const char* id : {"ellipsoid-plane", "ellipsoid-tilted", "ellipsoids-union", "cube-plane"}) {
      const Result r = cli({"convergence", id, "--at", "3.2", "--h0", "0.05", "--levels", "5", "--quiet"});
      QVERIFY2(r.exitCode == 0, qPrintable(r.err));
      const double order = numberAfter(r.out, "against log h):");
      qInfo("%s: fitted order %.3f", id, order);
      QVERIFY2(std::fabs(order - 2.0) <= 0.2, qPrintable(r.out));
      QVERIFY(!r.out.contains("integrated exactly"));
    }
  }

  // particle-floor: exact flight, so error/(h^2 |2 alpha - 1|) is bounded (and the output says so).
  void particleErrorOverH2AlphaIsBounded() {
    const Result r = cli({"convergence", "particle-floor", "--at", "0.6", "--h0", "0.05", "--levels", "7", "--quiet",
                          "--out", file("particle.csv")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("the order is checked as error/(h^2 |2 alpha - 1|) bounded instead"), qPrintable(r.out));
    double lo = 1e300, hi = 0.0;
    const auto rows = readCsv(file("particle.csv"));
    std::vector<double> alphas;
    for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
      const double c = rows[k].at("error_over_h2_impact_factor").toDouble();
      lo = std::min(lo, c);
      hi = std::max(hi, c);
      alphas.push_back(rows[k].at("first_impact_alpha").toDouble());
    }
    qInfo("particle-floor: error/(h^2 |2 alpha - 1|) in [%.4f, %.4f] over 7 levels", lo, hi);
    QVERIFY(lo > 0.35 && hi / lo < 1.1);
    // ... while alpha, and with it the raw error ratio, jumps around.
    QVERIFY(*std::max_element(alphas.begin(), alphas.end()) - *std::min_element(alphas.begin(), alphas.end()) > 0.4);
  }

  // The nonholonomic pendulum: the rectangle scheme is first order, the midpoint one second.
  void pendulumRectangleFirstOrderMidpointSecond() {
    const Result rect = cli({"convergence", "pendulum-cylinder", "--at", "1.5", "--h0", "0.0125", "--quiet"});
    const Result mid = cli({"convergence", "pendulum-cylinder", "--at", "1.5", "--h0", "0.0125", "--integrator",
                            "variational-midpoint", "--quiet"});
    QVERIFY2(rect.exitCode == 0 && mid.exitCode == 0, qPrintable(rect.err + mid.err));
    const double p1 = numberAfter(rect.out, "against log h):"), p2 = numberAfter(mid.out, "against log h):");
    qInfo("pendulum-cylinder: rectangle %.3f, midpoint %.3f", p1, p2);
    QVERIFY2(p1 >= 0.9 && p1 <= 1.25, qPrintable(rect.out));
    QVERIFY2(std::fabs(p2 - 2.0) <= 0.2, qPrintable(mid.out));
  }

  // 003's cube experiment from the case IV preset: the position run's twelve distances to the
  // two digits they are published with.
  void sensitivityReproducesTheTwelveNumbers() {
    const Result r = cli({"sensitivity", QStringLiteral(RICOCHET_SOURCE_DIR "/resources/presets/003-cube-plane-case-IV.json"),
                          "--out", file("sens.csv")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto rows = readCsv(file("sens.csv"));
    QCOMPARE(rows.size(), std::size_t(13));
    const char* printed[12] = {"8.0e-09", "4.2e-08", "1.4e-06", "1.4e-06", "2.0e-05", "5.9e-05",
                               "7.4e-04", "7.5e-04", "1.9e-02", "2.9e-02", "2.6e-01", "7.3e+00"};
    QString got;
    for (int c = 1; c <= 12; ++c) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.1e", rows[std::size_t(c)].at("z0+1e-08.distance").toDouble());
      got += QString(buf) + " ";
      QCOMPARE(QString(buf), QString(printed[c - 1]));
    }
    qInfo("position run after collisions 1..12: %s", qPrintable(got));
    // Both runs start at their perturbation and reach 1e-2 by the 9th-11th collision.
    QVERIFY(std::fabs(rows[0].at("z0+1e-08.distance").toDouble() - 1e-8) <= 1e-14);  // 10 + 1e-8 rounded
    const QString att = "ry0+3.141592653589793e-08.distance";
    QVERIFY(std::fabs(rows[0].at(att).toDouble() - 3.14159e-8) < 1e-12);
    int firstLarge = 0;
    for (int c = 1; c <= 12 && !firstLarge; ++c) firstLarge = rows[std::size_t(c)].at(att).toDouble() >= 1e-2 ? c : 0;
    QVERIFY(firstLarge >= 9 && firstLarge <= 11);
    // Impact times: 3e-5 s apart at the 7th collision, 1.6e-3 s at the 9th (the reference values).
    const auto dt = [&](int c) {
      return std::fabs(rows[std::size_t(c)].at("z0+1e-08.t_impact").toDouble() - rows[std::size_t(c)].at("t_reference").toDouble());
    };
    QVERIFY(dt(7) >= 2.5e-5 && dt(7) <= 3.5e-5);
    QVERIFY(dt(9) >= 1.5e-3 && dt(9) <= 1.7e-3);
    QVERIFY(r.out.contains("8.0e-09") && r.out.contains("7.3e+00"));
  }

  void compareShowsEveryIntegratorSideBySide() {
    const Result r = cli({"compare", "star-floor", "--h", "0.01,0.005", "--t-end", "5", "--out", file("cmp.csv"), "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto rows = readCsv(file("cmp.csv"));
    QCOMPARE(rows.size(), std::size_t(4));
    const QStringList order = {"variational/0.01", "variational/0.0050000000000000001", "rk4-event/0.01",
                               "rk4-event/0.0050000000000000001"};
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& row = rows[i];
      QCOMPARE(row.at("integrator") + "/" + row.at("h"), order[int(i)]);
      QCOMPARE(row.at("status"), QString("ok"));
      QCOMPARE(row.at("mom.px.max_drift").toDouble(), 0.0);  // p_x exact for both
      QVERIFY(std::fabs(row.at("impact_t.1").toDouble() - 0.755999) < 1e-6);
      QVERIFY(row.at("us_per_step").toDouble() > 0.0);
      const double dE = row.at("max_abs_energy_rel_error").toDouble();
      if (row.at("integrator") == "rk4-event") QVERIFY(dE < 1e-13);  // exact flight and reflection
      else QVERIFY(dE > 1e-7 && dE < 1e-3);                          // the O(h^2) impact kicks
    }
    QVERIFY(r.out.contains("rk4-event") && r.out.contains("dmom.px"));
  }
};

QTEST_APPLESS_MAIN(TestStudyCli)
#include "test_study_cli.moc"
