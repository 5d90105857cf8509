// HDF5 run files (io/hdf5, `ricochet-cli run --h5`): for every system the file read back equals the
// trace and impacts CSVs of the same run bit for bit, with the canonical scenario, the version and
// the integrator as attributes; rows stream in chunks into extendable datasets; the same run gives
// the same bytes; a failed run keeps its rows up to the failure and says so; bad paths and Ctrl-C
// leave nothing behind (exit 2 and 130); the reader refuses what is not a run, naming the file;
// every body's pose and the impact points are recorded bit for bit, a file without them still
// reads, and RecordedRun plays a file back row by row.
//
// Run by hand: build/bin/test_run_h5 (no display needed).

#include "test_run_files_support.hpp"

#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"
#include "io/hdf5/recorded_run.hpp"
#include "io/hdf5/run_file_reader.hpp"
#include "io/hdf5/run_file_writer.hpp"

#include <hdf5.h>

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <regex>

using namespace ricochet;
using namespace runfiles;

namespace {

QString str(const std::string& s) {
  return QString::fromStdString(s);
}

// Lines of the C++ sources under `dir` (relative to the repository) that match `pattern`.
QStringList includesMatching(const char* dir, const std::regex& pattern) {
  QStringList hits;
  const std::filesystem::path root = std::filesystem::path(RICOCHET_SOURCE_DIR) / dir;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".hpp" && ext != ".cpp" && ext != ".h")) continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      if (std::regex_search(line, pattern)) hits << str(entry.path().string() + ": " + line);
    }
  }
  return hits;
}

// Compares a table read from HDF5 with its CSV, column by column and bit for bit; the impacts'
// constraint column through the names.
bool sameAsCsv(const hdf5::RunTable& table, const Csv& csv,
               const std::vector<std::string>& constraintNames, QString& why) {
  if (table.names != csv.header) {
    why = QStringLiteral("columns differ");
    return false;
  }
  if (table.rows() != csv.rows.size()) {
    why = QStringLiteral("%1 rows in HDF5, %2 in the CSV").arg(table.rows()).arg(csv.rows.size());
    return false;
  }
  for (std::size_t c = 0; c < csv.header.size(); ++c) {
    for (std::size_t r = 0; r < csv.rows.size(); ++r) {
      const double h5 = table.columns[c][r];
      const std::string& text = csv.rows[r][c];
      bool same;
      if (csv.header[c] == "constraint") {
        // Between bodies the CSV says "A|B" (the gap is "body") or "A|PLANE" (the plane's gap).
        const std::size_t bar = text.find('|');
        same = h5 >= 0 && std::size_t(h5) < constraintNames.size() &&
               (constraintNames[std::size_t(h5)] == text ||
                (bar != std::string::npos && (constraintNames[std::size_t(h5)] == "body" ||
                                              constraintNames[std::size_t(h5)] == text.substr(bar + 1))));
      } else {
        same = sameBits(h5, number(text));
      }
      if (!same) {
        why = QStringLiteral("%1 row %2: CSV %3, HDF5 %4")
                  .arg(str(csv.header[c]))
                  .arg(r)
                  .arg(str(text))
                  .arg(h5, 0, 'g', 17);
        return false;
      }
    }
  }
  return true;
}

// The dataset's chunk size and maximum size (H5S_UNLIMITED when extendable), its filter count.
struct Layout {
  hsize_t chunk = 0, maxSize = 0;
  int filters = 0;
};
Layout layoutOf(const QString& file, const char* dataset) {
  Layout l;
  const hid_t f = H5Fopen(file.toLocal8Bit().constData(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, dataset, H5P_DEFAULT);
  const hid_t p = H5Dget_create_plist(d);
  const hid_t s = H5Dget_space(d);
  if (H5Pget_layout(p) == H5D_CHUNKED) H5Pget_chunk(p, 1, &l.chunk);
  hsize_t size = 0;
  H5Sget_simple_extent_dims(s, &size, &l.maxSize);
  l.filters = H5Pget_nfilters(p);
  H5Sclose(s);
  H5Pclose(p);
  H5Dclose(d);
  H5Fclose(f);
  return l;
}

// Records what the writer is given: the simulation's poses at every row and every impact.
struct PoseRecorder final : io::RecordSink {
  std::vector<std::vector<Pose>> poses;
  std::vector<ImpactRecord> impacts;
  std::size_t bodies = 0;
  std::string onRow(const Simulation& simulation, const io::TraceRow&) override {
    poses.emplace_back(bodies);
    simulation.poses(poses.back());
    return {};
  }
  std::string onImpact(const ImpactRecord& impact, std::string_view) override {
    impacts.push_back(impact);
    return {};
  }
  std::string commit(const io::RunSummary&) override { return {}; }
  void discard() override {}
};

bool samePose(const Pose& a, const Pose& b) {
  for (int i = 0; i < 3; ++i) {
    if (!sameBits(a.position[i], b.position[i])) return false;
    for (int j = 0; j < 3; ++j) {
      if (!sameBits(a.rotation(i, j), b.rotation(i, j))) return false;
    }
  }
  return true;
}

bool sameVector(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return sameBits(a.x(), b.x()) && sameBits(a.y(), b.y()) && sameBits(a.z(), b.z());
}

// Writes `scenario` for `steps` steps (every `every`) to `path` through the run driver, with a
// PoseRecorder beside the file.
io::RunSummary writeRun(const Scenario& scenario, std::int64_t steps, std::int64_t every,
                        const std::string& path, PoseRecorder& recorder, std::string& error) {
  CreateResult created = createSimulation(scenario);
  if (!created.simulation) {
    error = created.error;
    return {};
  }
  recorder.bodies = findSystem(scenario.system)->scene(scenario).bodies.size();
  hdf5::RunFileWriter h5;
  error = h5.open(path, scenario, created.simulation->columns(), every);
  if (!error.empty()) return {};
  io::RunOptions options;
  options.steps = steps;
  options.every = every;
  options.sinks = {&h5, &recorder};
  return io::runSimulation(*created.simulation, scenario, options);
}

// Deletes the links `names` of the file (a file written before poses were recorded).
void deleteLinks(const QString& file, std::initializer_list<const char*> names) {
  const hid_t f = H5Fopen(file.toLocal8Bit().constData(), H5F_ACC_RDWR, H5P_DEFAULT);
  for (const char* name : names) H5Ldelete(f, name, H5P_DEFAULT);
  H5Fclose(f);
}

}  // namespace

class TestRunH5 : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(QFileInfo::exists(cliPath()), qPrintable(cliPath())); }

  // HDF5 stays out of core (plain C++ and Eigen), and io/hdf5 has no Qt and no VTK.
  void layersKeepTheirDependencies() {
    // (Plain string literals: moc mis-parses raw strings that contain a hash-include.)
    const std::regex hdf5("^\\s*#\\s*include\\s*[<\"](H5|hdf5)");
    QCOMPARE(includesMatching("core", hdf5), QStringList());
    const std::regex gui("^\\s*#\\s*include\\s*[<\"](Q[A-Za-z]|qt|vtk)");
    QCOMPARE(includesMatching("io", gui), QStringList());
    QVERIFY(!includesMatching("io", hdf5).isEmpty());  // the check does see HDF5 where it is
    // ... nor a link: no Qt or VTK target in io's CMake files, no HDF5 one in core's.
    const auto linksIn = [](const char* file, const std::regex& target) {
      std::ifstream in(std::filesystem::path(RICOCHET_SOURCE_DIR) / file);
      int hits = 0;
      for (std::string line; std::getline(in, line);) {
        hits +=
            std::regex_search(line.substr(0, line.find('#')), target);  // comments may name them
      }
      return in.eof() ? hits : -1;
    };
    const std::regex qtOrVtk("(Qt[56]?::|VTK::|find_package\\s*\\(\\s*(Qt|VTK))",
                             std::regex::icase);
    QCOMPARE(linksIn("io/CMakeLists.txt", qtOrVtk), 0);
    QCOMPARE(linksIn("io/hdf5/CMakeLists.txt", qtOrVtk), 0);
    QCOMPARE(linksIn("core/CMakeLists.txt", std::regex("hdf5", std::regex::icase)), 0);
    QCOMPARE(linksIn("io/hdf5/CMakeLists.txt", std::regex("hdf5::hdf5")), 1);
  }

  // Without the render layer (RICOCHET_BUILD_GUI=OFF) --pvd is refused as `video` is: exit 2,
  // saying why, and nothing written.
  void pvdNeedsTheRenderLayer() {
#ifdef RICOCHET_HAS_PARAVIEW
    QSKIP("this ricochet-cli has the render layer (test_run_pvd covers --pvd)");
#else
    QTemporaryDir dir;
    const Run r = cli({QStringLiteral("run"), QStringLiteral("particle-floor"),
                       QStringLiteral("--h5"), dir.filePath(QStringLiteral("r.h5")),
                       QStringLiteral("--pvd"), dir.filePath(QStringLiteral("s"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--pvd is not available")), qPrintable(r.err));
    QCOMPARE(entries(dir.path()), QStringList());
#endif
  }

  // For every system: `--csv --impacts-csv --h5` of one run hold the same numbers, bit for bit;
  // the attributes are the canonical scenario (it loads back to the run's scenario), the version,
  // the integrator and how the run ended.
  void roundTripEqualsTheCsvForEverySystem() {
    QTemporaryDir dir;
    for (const SystemDescription* system : systems()) {
      const QString id = str(system->info().id);
      const QString base = dir.filePath(id);
      const Run r = cli({QStringLiteral("run"), id, QStringLiteral("--steps"),
                         QStringLiteral("400"), QStringLiteral("--every"), QStringLiteral("3"),
                         QStringLiteral("--csv"), base + ".csv", QStringLiteral("--impacts-csv"),
                         base + "-impacts.csv", QStringLiteral("--h5"), base + ".h5"});
      QVERIFY2(r.exitCode == 0, qPrintable(id + ": " + r.err));
      const hdf5::RunFileResult read = hdf5::readRunFile((base + ".h5").toStdString());
      QVERIFY2(read.ok(), read.error.c_str());
      const hdf5::RunFile& run = *read.run;
      QString why;
      QVERIFY2(sameAsCsv(run.trace, readCsv(base + ".csv"), run.constraintNames, why),
               qPrintable(id + ": " + why));
      const Csv impacts = readCsv(base + "-impacts.csv");
      QVERIFY2(sameAsCsv(run.impacts, impacts, run.constraintNames, why),
               qPrintable(id + ": " + why));
      QCOMPARE(run.trace.rows(), std::size_t(1 + 400 / 3 + 1));  // the initial and the final state
      QCOMPARE(run.constraintNames, system->info().constraints);

      const Scenario expected = defaultScenario(*system);
      QCOMPARE(run.scenarioJson, io::scenarioToText(expected));
      QVERIFY(io::sameScenario(run.scenario, expected));
      QCOMPARE(run.system, system->info().id);
      QCOMPARE(run.integrator, expected.integrator.name);
      QCOMPARE(run.ricochetVersion, std::string("0.1.0"));
      QVERIFY(sameBits(run.h, expected.integrator.h));
      QCOMPARE(run.every, std::int64_t(3));
      QCOMPARE(run.steps, std::int64_t(400));
      QVERIFY(sameBits(run.tEnd, run.trace.column("t")->back()));
      QCOMPARE(run.status, std::string("ok"));
      QCOMPARE(run.message, std::string());
      qInfo("%s: %zu trace rows, %zu impacts equal the CSVs", qPrintable(id), run.trace.rows(),
            run.impacts.rows());
    }
  }

  // 10001 rows: more than two chunks, written chunk by chunk into extendable, compressed datasets.
  void rowsStreamInChunks() {
    QTemporaryDir dir;
    const QString h5 = dir.filePath(QStringLiteral("long.h5")),
                  csv = dir.filePath(QStringLiteral("long.csv"));
    const Run r =
        cli({QStringLiteral("run"), QStringLiteral("particle-floor"), QStringLiteral("--steps"),
             QStringLiteral("10000"), QStringLiteral("--csv"), csv, QStringLiteral("--h5"), h5});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto read = hdf5::readRunFile(h5.toStdString());
    QVERIFY2(read.ok(), read.error.c_str());
    QCOMPARE(read.run->trace.rows(), std::size_t(10001));
    QString why;
    QVERIFY2(sameAsCsv(read.run->trace, readCsv(csv), read.run->constraintNames, why),
             qPrintable(why));
    for (const char* dataset : {"/trace/t", "/trace/q.y", "/impacts/constraint"}) {
      const Layout l = layoutOf(h5, dataset);
      QCOMPARE(l.chunk, hsize_t(hdf5::kChunkRows));
      QCOMPARE(l.maxSize, hsize_t(H5S_UNLIMITED));
      QCOMPARE(l.filters, 2);  // shuffle, deflate
    }
    // Compressed: smaller than the raw doubles (9 columns of 10001 rows).
    QVERIFY(QFileInfo(h5).size() < qint64(9 * 10001 * 8));
  }

  // No modification times: the same run written twice, a second apart, gives the same bytes.
  void sameRunGivesTheSameBytes() {
    QTemporaryDir dir;
    for (const char* name : {"a.h5", "b.h5"}) {
      const Run r = cli({QStringLiteral("run"), QStringLiteral("star-floor"),
                         QStringLiteral("--steps"), QStringLiteral("500"), QStringLiteral("--h5"),
                         dir.filePath(QString::fromLatin1(name))});
      QVERIFY2(r.exitCode == 0, qPrintable(r.err));
      QTest::qWait(1100);
    }
    const QByteArray a = readAll(dir.filePath(QStringLiteral("a.h5")));
    QVERIFY(a.size() > 1000);
    QCOMPARE(a, readAll(dir.filePath(QStringLiteral("b.h5"))));
  }

  // An integrator failure (exit 3): the file holds the rows up to the last good state, as the CSV
  // does, and its status and message say what failed.
  void failedRunKeepsItsRowsAndSaysWhy() {
    QTemporaryDir dir;
    const QString h5 = dir.filePath(QStringLiteral("f.h5")),
                  csv = dir.filePath(QStringLiteral("f.csv"));
    const Run r = cli({QStringLiteral("run"), QStringLiteral("ellipsoid-plane"),
                       QStringLiteral("--tolerance"), QStringLiteral("1e-300"),
                       QStringLiteral("--csv"), csv, QStringLiteral("--h5"), h5});
    QCOMPARE(r.exitCode, 3);
    const auto read = hdf5::readRunFile(h5.toStdString());
    QVERIFY2(read.ok(), read.error.c_str());
    QCOMPARE(read.run->status, std::string("solver-failed"));
    QVERIFY2(str(read.run->message).contains(QStringLiteral("step 1")), read.run->message.c_str());
    QVERIFY(r.err.contains(str(read.run->message)));
    QCOMPARE(read.run->steps, std::int64_t(0));
    QString why;
    QVERIFY2(sameAsCsv(read.run->trace, readCsv(csv), read.run->constraintNames, why),
             qPrintable(why));
    QCOMPARE(read.run->trace.rows(), std::size_t(1));
  }

  // Bad paths: exit 2 with one line naming the path, before any integration, and no file at all
  // (not the CSV asked for beside it, not a temporary file).
  void badPathsExitTwoAndLeaveNothing() {
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("t.csv"));
    const QString missing = dir.filePath(QStringLiteral("no/such/folder/r.h5"));
    Run r = cli({QStringLiteral("run"), QStringLiteral("particle-floor"), QStringLiteral("--csv"),
                 csv, QStringLiteral("--h5"), missing});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("ricochet-cli: ") + missing) &&
                 r.err.contains(QStringLiteral("does not exist")) &&
                 r.err.count(QLatin1Char('\n')) == 1,
             qPrintable(r.err));
    QCOMPARE(entries(dir.path()), QStringList());
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.h5")));
    r = cli({QStringLiteral("run"), QStringLiteral("particle-floor"), QStringLiteral("--h5"),
             dir.filePath(QStringLiteral("folder.h5"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("is a directory")), qPrintable(r.err));
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("folder.h5")});
    r = cli({QStringLiteral("run"), QStringLiteral("particle-floor"), QStringLiteral("--csv"), csv,
             QStringLiteral("--h5"), csv});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--csv and --h5 name the same file")),
             qPrintable(r.err));
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("folder.h5")});
  }

  // Ctrl-C during a long run (exit 130): no file, no temporary file, and the previous file of that
  // name untouched.
  void interruptLeavesThePreviousFile() {
    QTemporaryDir dir;
    const QString h5 = dir.filePath(QStringLiteral("r.h5"));
    QFile previous(h5);
    QVERIFY(previous.open(QIODevice::WriteOnly) && previous.write("previous\n") == 9);
    previous.close();
    const Run r = interrupted(
        {QStringLiteral("run"), QStringLiteral("particle-floor"), QStringLiteral("--steps"),
         QStringLiteral("2000000000"), QStringLiteral("--h5"), h5},
        [&] { return entries(dir.path()).size() == 2; });  // its temporary file
    QCOMPARE(r.exitCode, 130);
    QVERIFY2(r.err.contains(QStringLiteral("no file written")), qPrintable(r.err));
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("r.h5")});
    QCOMPARE(readAll(h5), QByteArray("previous\n"));
  }

  // For every system: /poses holds Simulation::poses() at every recorded row and /impact_points
  // the impacts' contact points, bit for bit, read back by the reader.
  void posesEqualTheSimulationsForEverySystem() {
    QTemporaryDir dir;
    for (const SystemDescription* system : systems()) {
      const std::string id = system->info().id;
      const std::string path = dir.filePath(str(id) + QStringLiteral(".h5")).toStdString();
      PoseRecorder recorder;
      std::string error;
      const io::RunSummary summary =
          writeRun(defaultScenario(*system), 600, 4, path, recorder, error);
      QVERIFY2(error.empty() && summary.ok(), (id + ": " + error + summary.message).c_str());
      const hdf5::RunFileResult read = hdf5::readRunFile(path);
      QVERIFY2(read.ok(), read.error.c_str());
      const hdf5::RunFile& run = *read.run;
      QVERIFY(run.hasPoses());
      const SceneSpec scene = system->scene(defaultScenario(*system));
      QCOMPARE(run.bodies.size(), scene.bodies.size());
      for (std::size_t b = 0; b < scene.bodies.size(); ++b)
        QCOMPARE(run.bodies[b], scene.bodies[b].name);
      QCOMPARE(recorder.poses.size(), run.trace.rows());
      QCOMPARE(run.poses.size(), run.trace.rows() * run.bodies.size());
      for (std::size_t r = 0; r < recorder.poses.size(); ++r) {
        for (std::size_t b = 0; b < run.bodies.size(); ++b) {
          QVERIFY2(samePose(run.poses[r * run.bodies.size() + b], recorder.poses[r][b]),
                   qPrintable(QStringLiteral("%1 row %2 body %3").arg(str(id)).arg(r).arg(b)));
        }
      }
      QCOMPARE(run.impactPoints.size(), recorder.impacts.size());
      for (std::size_t i = 0; i < recorder.impacts.size(); ++i) {
        QVERIFY(sameVector(run.impactPoints[i], recorder.impacts[i].contactPoint));
      }
      qInfo("%s: poses of %zu bodies at %zu rows, %zu impact points", id.c_str(), run.bodies.size(),
            run.trace.rows(), run.impactPoints.size());
    }
  }

  // A file without /poses and /impact_points (as written before they were recorded) still reads,
  // and replays its rows: RecordedRun gives every recorded value and NaN poses.
  void poselessFileStillReadsAndReplays() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("old.h5"));
    PoseRecorder recorder;
    std::string error;
    const Scenario scenario = defaultScenario(*findSystem("ellipse-floor"));
    QVERIFY(writeRun(scenario, 500, 1, file.toStdString(), recorder, error).ok());
    deleteLinks(file, {"poses", "impact_points"});
    const hdf5::RunFileResult read = hdf5::readRunFile(file.toStdString());
    QVERIFY2(read.ok(), read.error.c_str());
    QVERIFY(!read.run->hasPoses());
    QVERIFY(read.run->impactPoints.empty());
    QCOMPARE(read.run->trace.rows(), std::size_t(501));
    QCOMPARE(hdf5::RecordedRun::check(*read.run, 1), std::string());
    hdf5::RecordedRun replay(std::make_shared<const hdf5::RunFile>(*read.run));
    std::vector<Pose> pose(1);
    replay.poses(pose);
    QVERIFY(!pose[0].position.allFinite());
    // A truncated file (half of it) is refused with the file's name.
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.resize(f.size() / 2));
    f.close();
    const std::string truncated = hdf5::readRunFile(file.toStdString()).error;
    QVERIFY2(str(truncated).startsWith(file + QStringLiteral(": ")), truncated.c_str());
  }

  // RecordedRun plays the file's rows as steps: the recorded values bit for bit, the impacts of
  // the steps between two rows with their recorded values and points, poses of the row, the end.
  void recordedRunPlaysTheRows() {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("run.h5")).toStdString();
    PoseRecorder recorder;
    std::string error;
    const Scenario scenario = defaultScenario(*findSystem("ellipse-floor"));
    QVERIFY(writeRun(scenario, 1000, 7, path, recorder, error).ok());
    const hdf5::RunFileResult read = hdf5::readRunFile(path);
    QVERIFY2(read.ok(), read.error.c_str());
    auto file = std::make_shared<const hdf5::RunFile>(*read.run);
    QVERIFY(!recorder.impacts.empty());
    QCOMPARE(hdf5::RecordedRun::check(*file, 2),
             std::string("poses of 1 bodies recorded, the scene of 'ellipse-floor' has 2"));

    struct Impacts final : ImpactSink {
      std::vector<ImpactRecord> seen;
      void onImpact(const ImpactRecord& impact) override { seen.push_back(impact); }
    } sink;
    hdf5::RecordedRun replay(file);
    QCOMPARE(replay.timeStep(), 7 * scenario.integrator.h);
    QCOMPARE(std::vector<std::string>(replay.columns().begin(), replay.columns().end()),
             std::vector<std::string>(file->trace.names.begin() + 7, file->trace.names.end()));
    std::vector<double> values(replay.columns().size());
    std::vector<Pose> pose(1);
    const std::vector<double>& impactsColumn = *file->trace.column("impacts");
    for (std::size_t r = 0; r < file->trace.rows(); ++r) {
      if (r > 0) {
        const AdvanceResult a = replay.advance(1, &sink);
        QVERIFY(a.ok());
        QCOMPARE(a.stepsTaken, std::int64_t(1));
      }
      QCOMPARE(replay.row(), r);
      QVERIFY(sameBits(replay.time(), (*file->trace.column("t"))[r]));
      QCOMPARE(double(replay.step()), (*file->trace.column("step"))[r]);
      QVERIFY(sameBits(replay.energy().total(), (*file->trace.column("energy"))[r]));
      QCOMPARE(double(replay.impactCount()), impactsColumn[r]);
      QCOMPARE(double(sink.seen.size()), impactsColumn[r]);  // the impacts up to this row
      replay.sample(values);
      for (std::size_t c = 0; c < values.size(); ++c) {
        QVERIFY(sameBits(values[c], file->trace.columns[7 + c][r]));
      }
      replay.poses(pose);
      QVERIFY(samePose(pose[0], recorder.poses[r][0]));
    }
    QVERIFY(replay.atEnd());
    QCOMPARE(replay.advance(5, &sink).stepsTaken, std::int64_t(0));
    QCOMPARE(sink.seen.size(), recorder.impacts.size());
    for (std::size_t i = 0; i < sink.seen.size(); ++i) {
      const ImpactRecord &a = sink.seen[i], &b = recorder.impacts[i];
      QVERIFY(a.step == b.step && sameBits(a.t, b.t) && sameBits(a.alpha, b.alpha) &&
              a.constraint == b.constraint && sameBits(a.energyBefore, b.energyBefore) &&
              sameBits(a.energyAfter, b.energyAfter) && sameBits(a.impulse, b.impulse) &&
              a.reflected == b.reflected && sameVector(a.contactPoint, b.contactPoint));
    }
    // rowAt: the last row at or before a time.
    const std::vector<double>& t = *file->trace.column("t");
    QCOMPARE(replay.rowAt(t[10]), std::size_t(10));
    QCOMPARE(replay.rowAt(0.5 * (t[10] + t[11])), std::size_t(10));
    QCOMPARE(replay.rowAt(-1.0), std::size_t(0));
    QCOMPARE(replay.rowAt(1e9), t.size() - 1);
    replay.rewind();
    QCOMPARE(replay.row(), std::size_t(0));
    QCOMPARE(replay.impactCount(), std::int64_t(0));
  }

  // The reader names the file and what is wrong with it.
  void readerRefusesWhatIsNotARun() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath(QStringLiteral("none.h5")).toStdString();
    QCOMPARE(hdf5::readRunFile(missing).error, missing + ": no such file");
    const QString text = dir.filePath(QStringLiteral("text.h5"));
    QFile t(text);
    QVERIFY(t.open(QIODevice::WriteOnly) && t.write("not hdf5\n") > 0);
    t.close();
    QCOMPARE(hdf5::readRunFile(text.toStdString()).error,
             text.toStdString() + ": not an HDF5 file");
    const std::string other = dir.filePath(QStringLiteral("other.h5")).toStdString();
    H5Fclose(H5Fcreate(other.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    QCOMPARE(hdf5::readRunFile(other).error,
             other + ": not a Ricochet run (no attribute 'format')");
    // A run whose scenario no longer loads is refused with the scenario file's message.
    const QString good = dir.filePath(QStringLiteral("good.h5"));
    QCOMPARE(cli({QStringLiteral("run"), QStringLiteral("particle-floor"),
                  QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--h5"), good})
                 .exitCode,
             0);
    const hid_t f = H5Fopen(good.toLocal8Bit().constData(), H5F_ACC_RDWR, H5P_DEFAULT);
    QVERIFY(f >= 0);
    H5Adelete(f, "scenario");
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t a = H5Acreate2(f, "scenario", type, space, H5P_DEFAULT, H5P_DEFAULT);
    const char* bad =
        R"({"format": "ricochet-scenario", "version": 1, "system": "particle-floor", "parameters": {"m": -1}})";
    H5Awrite(a, type, &bad);
    H5Aclose(a);
    H5Sclose(space);
    H5Tclose(type);
    H5Fclose(f);
    const std::string error = hdf5::readRunFile(good.toStdString()).error;
    QVERIFY2(str(error).startsWith(good + ": attribute 'scenario'") &&
                 str(error).contains(QStringLiteral("\"parameters.m\" = -1")),
             error.c_str());
  }
};

QTEST_GUILESS_MAIN(TestRunH5)
#include "test_run_h5.moc"
