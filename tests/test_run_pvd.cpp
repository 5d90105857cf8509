// ParaView series (render/paraview, `ricochet-cli run --pvd DIR`), read back with VTK's XML reader:
// DIR/run.pvd indexes one .vtp per recorded trace row with the row's time as `timestep` (the CSV's
// t bit for bit); each frame holds the bodies where the trace says they are, the obstacles, the
// trail and the impacts since the previous frame with the impacts CSV's impulses; every system
// writes a readable series; the same run gives the same bytes; a previous series is replaced but a
// folder of other files is refused; bad paths and Ctrl-C leave nothing behind (exit 2 and 130).
//
// Run by hand: build/bin/test_run_pvd (no display needed).

#include "test_run_files_support.hpp"

#include "core/model/registry.hpp"

#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>

#include <Eigen/Core>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

using namespace ricochet;
using namespace runfiles;

namespace {

struct IndexEntry {
  double timestep = 0.0;
  QString file;
  QString timestepText;
};

// The DataSet entries of a .pvd collection, in order; empty when it is not one.
std::vector<IndexEntry> readIndex(const QString& path) {
  std::vector<IndexEntry> out;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return out;
  QXmlStreamReader xml(&f);
  bool collection = false;
  while (!xml.atEnd()) {
    if (xml.readNext() != QXmlStreamReader::StartElement) continue;
    if (xml.name() == QLatin1String("VTKFile")) {
      collection = xml.attributes().value(QLatin1String("type")) == QLatin1String("Collection");
    } else if (collection && xml.name() == QLatin1String("DataSet")) {
      IndexEntry e;
      e.timestepText = xml.attributes().value(QLatin1String("timestep")).toString();
      e.timestep = number(e.timestepText.toStdString());
      e.file = xml.attributes().value(QLatin1String("file")).toString();
      out.push_back(e);
    }
  }
  if (xml.hasError()) out.clear();
  return out;
}

struct Frame {
  vtkSmartPointer<vtkPolyData> data;
  double time = std::nan("");
  std::int64_t step = -1;

  vtkDataArray* cellArray(const char* name) const { return data->GetCellData()->GetArray(name); }
  /// Cells of a kind (series_frame.hpp: 0 body, 1 obstacle, 2 trail, 3 impact).
  int cells(int kind) const {
    int n = 0;
    for (vtkIdType c = 0; c < data->GetNumberOfCells(); ++c)
      n += cellArray("kind")->GetTuple1(c) == kind;
    return n;
  }
  /// Mean of the distinct points of the cells of `kind` (for a symmetric body: its centre).
  Eigen::Vector3d centroid(int kind) const {
    std::map<vtkIdType, bool> seen;
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (vtkIdType c = 0; c < data->GetNumberOfCells(); ++c) {
      if (cellArray("kind")->GetTuple1(c) != kind) continue;
      vtkIdType n = 0;
      const vtkIdType* ids = nullptr;
      data->GetCellPoints(c, n, ids);
      for (vtkIdType k = 0; k < n; ++k) {
        if (seen.emplace(ids[k], true).second) sum += Eigen::Vector3d(data->GetPoint(ids[k]));
      }
    }
    return seen.empty() ? Eigen::Vector3d::Constant(std::nan(""))
                        : Eigen::Vector3d(sum / double(seen.size()));
  }
};

Frame readFrame(const QString& path) {
  Frame f;
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName(path.toLocal8Bit().constData());
  reader->Update();
  if (reader->GetErrorCode() != 0 || !reader->GetOutput()) return f;
  f.data = reader->GetOutput();
  vtkFieldData* fd = f.data->GetFieldData();
  if (fd->GetArray("TimeValue")) f.time = fd->GetArray("TimeValue")->GetTuple1(0);
  if (fd->GetArray("step")) f.step = std::int64_t(fd->GetArray("step")->GetTuple1(0));
  return f;
}

QStringList runArgs(const QString& system, int steps, int every) {
  return {QStringLiteral("run"),     system,
          QStringLiteral("--steps"), QString::number(steps),
          QStringLiteral("--every"), QString::number(every)};
}

}  // namespace

class TestRunPvd : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(QFileInfo::exists(cliPath()), qPrintable(cliPath())); }

  // render/paraview links VTK but not Qt (the CLI and the window share it).
  void seriesLibraryHasNoQt() {
    // (A plain string literal: moc mis-parses raw strings that contain a hash-include.)
    const std::regex qt("^\\s*#\\s*include\\s*[<\"](Q[A-Za-z]|qt)");
    int files = 0;
    const auto root = std::filesystem::path(RICOCHET_SOURCE_DIR) / "render" / "paraview";
    for (const auto& entry : std::filesystem::directory_iterator(root)) {
      std::ifstream in(entry.path());
      ++files;
      for (std::string line; std::getline(in, line);) {
        QVERIFY2(!std::regex_search(line, qt), (entry.path().string() + ": " + line).c_str());
      }
    }
    QVERIFY(files >= 6);
  }

  // The particle, every 7th step: one frame per trace row at the row's time and step; the sphere
  // centred where q says; the trail ending at the body; the impact points, each in the first frame
  // at or after its step, with the impacts CSV's impulse and row.
  void seriesFollowsTheTraceRowByRow() {
    QTemporaryDir dir;
    const QString series = dir.filePath(QStringLiteral("series"));
    const QString csv = dir.filePath(QStringLiteral("t.csv")),
                  impactsCsv = dir.filePath(QStringLiteral("i.csv"));
    const Run r = cli(runArgs(QStringLiteral("particle-floor"), 300, 7)
                      << QStringLiteral("--csv") << csv << QStringLiteral("--impacts-csv")
                      << impactsCsv << QStringLiteral("--pvd") << series);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const Csv trace = readCsv(csv), impacts = readCsv(impactsCsv);
    const std::vector<IndexEntry> index = readIndex(series + QStringLiteral("/run.pvd"));
    QCOMPARE(index.size(), trace.rows.size());
    QCOMPARE(index.size(), std::size_t(1 + 300 / 7 + 1));
    QCOMPARE(entries(series).size(), qsizetype(index.size() + 1));  // the frames and run.pvd only
    QVERIFY(impacts.rows.size() >= 2);
    const std::vector<double> t = trace.column("t"), step = trace.column("step");
    const std::vector<double> qx = trace.column("q.x"), qy = trace.column("q.y");
    const std::vector<double> impactStep = impacts.column("step"),
                              impulse = impacts.column("impulse");
    std::size_t nextImpact = 0;
    for (std::size_t i = 0; i < index.size(); ++i) {
      QCOMPARE(index[i].file, QStringLiteral("run_%1.vtp").arg(i, 6, 10, QLatin1Char('0')));
      QVERIFY2(sameBits(index[i].timestep, t[i]), qPrintable(index[i].timestepText));
      const Frame f = readFrame(series + QLatin1Char('/') + index[i].file);
      QVERIFY2(f.data, qPrintable(index[i].file));
      QVERIFY(sameBits(f.time, t[i]));
      QCOMPARE(double(f.step), step[i]);
      const Eigen::Vector3d centre = f.centroid(0);
      QVERIFY2((centre - Eigen::Vector3d(qx[i], qy[i], 0.0)).norm() < 1e-12,
               qPrintable(index[i].file));
      QCOMPARE(f.cells(1), 1);  // the floor
      if (i > 0) {
        QCOMPARE(f.cells(2), 1);  // the trail, ending at the body
        vtkIdType n = 0;
        const vtkIdType* ids = nullptr;
        for (vtkIdType c = 0; c < f.data->GetNumberOfCells(); ++c) {
          if (f.cellArray("kind")->GetTuple1(c) == 2) f.data->GetCellPoints(c, n, ids);
        }
        QVERIFY(n >= 2);
        QVERIFY((Eigen::Vector3d(f.data->GetPoint(ids[n - 1])) - Eigen::Vector3d(qx[i], qy[i], 0.0))
                    .norm() < 1e-15);
      }
      // Impacts with step in (previous row's step, this row's step].
      int expected = 0;
      while (nextImpact + expected < impactStep.size() &&
             impactStep[nextImpact + expected] <= step[i])
        ++expected;
      QCOMPARE(f.cells(3), expected);
      for (vtkIdType c = 0; c < f.data->GetNumberOfCells(); ++c) {
        if (f.cellArray("kind")->GetTuple1(c) != 3) continue;
        const auto row = std::size_t(f.cellArray("object")->GetTuple1(c));
        QCOMPARE(row, nextImpact);
        vtkIdType n = 0;
        const vtkIdType* ids = nullptr;
        f.data->GetCellPoints(c, n, ids);
        QVERIFY(
            sameBits(f.data->GetPointData()->GetArray("impulse")->GetTuple1(ids[0]), impulse[row]));
        QVERIFY(std::fabs(f.data->GetPoint(ids[0])[1]) < 1e-9);  // on the floor
        ++nextImpact;
      }
    }
    QCOMPARE(nextImpact, impacts.rows.size());
  }

  // Every system writes a series VTK reads, with its bodies and obstacles; the SE(3) cube sits
  // where the trace puts its centre.
  void everySystemWritesAReadableSeries() {
    QTemporaryDir dir;
    for (const SystemDescription* system : systems()) {
      const QString id = QString::fromStdString(system->info().id);
      const QString series = dir.filePath(id), csv = dir.filePath(id + QStringLiteral(".csv"));
      const Run r = cli(runArgs(id, 20, 10)
                        << QStringLiteral("--csv") << csv << QStringLiteral("--pvd") << series);
      QVERIFY2(r.exitCode == 0, qPrintable(id + QStringLiteral(": ") + r.err));
      const std::vector<IndexEntry> index = readIndex(series + QStringLiteral("/run.pvd"));
      QCOMPARE(index.size(), std::size_t(3));
      const Frame last = readFrame(series + QLatin1Char('/') + index.back().file);
      QVERIFY2(last.data && last.cells(0) > 0, qPrintable(id));
      QVERIFY2(last.cells(1) > 0, qPrintable(id));
      QVERIFY(last.data->GetPointData()->GetNormals());
      if (id == QStringLiteral("cube-plane")) {
        const Csv trace = readCsv(csv);
        const Eigen::Vector3d x(trace.column("q.x").back(), trace.column("q.y").back(),
                                trace.column("q.z").back());
        QVERIFY((last.centroid(0) - x).norm() < 1e-9);
      }
    }
  }

  // The series draws the scenario's own body and its walls (the same model the run uses), not
  // the default cube: a box, a union of two boxes and a mesh file (a box written as an STL) each
  // span exactly their size (plus the rounding) in the first frame, and a box of walls adds
  // obstacle cells to the ground's.
  void seriesShowsTheScenariosBodyAndWalls() {
    QTemporaryDir dir;
    {
      QFile stl(dir.filePath(QStringLiteral("slab.stl")));
      QVERIFY(stl.open(QIODevice::WriteOnly));
      // A 0.8 x 0.5 x 0.3 box centred at the origin.
      const double hx = 0.4, hy = 0.25, hz = 0.15;
      const double v[8][3] = {{-hx, -hy, -hz}, {hx, -hy, -hz}, {-hx, hy, -hz}, {hx, hy, -hz},
                              {-hx, -hy, hz},  {hx, -hy, hz},  {-hx, hy, hz},  {hx, hy, hz}};
      const int t[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                            {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
      QByteArray text = "solid slab\n";
      for (const auto& f : t) {
        text += " facet normal 0 0 0\n  outer loop\n";
        for (int k : f) text += QByteArray("   vertex ") + QByteArray::number(v[k][0], 'g', 17) + ' ' +
                                QByteArray::number(v[k][1], 'g', 17) + ' ' + QByteArray::number(v[k][2], 'g', 17) + '\n';
        text += "  endloop\n endfacet\n";
      }
      stl.write(text + "endsolid slab\n");
    }
    struct Case {
      const char* name;
      const char* body;
      Eigen::Vector3d extent;
    };
    const Case cases[] = {
        {"box", R"({"shape": "box", "size": [0.4, 0.6, 1.0], "epsilon": 0.001})",
         Eigen::Vector3d(0.402, 0.602, 1.002)},
        {"union", R"({"shape": "union", "parts": [
            {"shape": "box", "size": [1, 0.2, 0.2], "epsilon": 0.001, "position": [0, 0, 0], "rotation": [0, 0, 0]},
            {"shape": "box", "size": [0.2, 0.2, 0.6], "epsilon": 0.001, "position": [0.4, 0, 0.2], "rotation": [0, 0, 0]}]})",
         Eigen::Vector3d(1.002, 0.202, 0.602)},
        {"mesh", R"({"shape": "mesh", "file": "slab.stl", "epsilon": 0.001})", Eigen::Vector3d(0.802, 0.502, 0.302)},
    };
    int ground = -1;
    for (const Case& c : cases) {
      const QString scenario = dir.filePath(QString::fromLatin1(c.name) + ".json");
      QFile f(scenario);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray(R"({"format": "ricochet-scenario", "version": 1, "system": "rigid-body", "body": )") + c.body +
              R"(, "world": {"box": {"size": [3, 2]}},
        "initial": {"x0": 0, "y0": 0, "z0": 1, "vx0": 0, "vy0": 0, "vz0": 0, "Pi1_0": 0, "Pi2_0": 0,
                    "Pi3_0": 0, "rx0": 0, "ry0": 0, "rz0": 0}})");
      f.close();
      const QString series = dir.filePath(QString::fromLatin1(c.name));
      const Run r = cli({QStringLiteral("run"), scenario, QStringLiteral("--steps"), QStringLiteral("2"),
                         QStringLiteral("--pvd"), series});
      QVERIFY2(r.exitCode == 0, qPrintable(r.err));
      const std::vector<IndexEntry> index = readIndex(series + QStringLiteral("/run.pvd"));
      QVERIFY(!index.empty());
      const Frame first = readFrame(series + QLatin1Char('/') + index.front().file);
      QVERIFY(first.data);
      Eigen::Vector3d lo = Eigen::Vector3d::Constant(1e300), hi = -lo;
      for (vtkIdType k = 0; k < first.data->GetNumberOfCells(); ++k) {
        if (first.cellArray("kind")->GetTuple1(k) != 0) continue;
        vtkIdType n = 0;
        const vtkIdType* ids = nullptr;
        first.data->GetCellPoints(k, n, ids);
        for (vtkIdType q = 0; q < n; ++q) {
          const Eigen::Vector3d p(first.data->GetPoint(ids[q]));
          lo = lo.cwiseMin(p);
          hi = hi.cwiseMax(p);
        }
      }
      const Eigen::Vector3d extent = hi - lo;
      QVERIFY2((extent - c.extent).cwiseAbs().maxCoeff() < 2e-3,
               qPrintable(QStringLiteral("%1: %2 %3 %4").arg(c.name).arg(extent.x()).arg(extent.y()).arg(extent.z())));
      if (ground < 0) {
        const QString plain = dir.filePath(QStringLiteral("plain"));
        QVERIFY(cli(runArgs(QStringLiteral("rigid-body"), 2, 1) << QStringLiteral("--pvd") << plain).exitCode == 0);
        ground = readFrame(plain + QLatin1Char('/') + readIndex(plain + QStringLiteral("/run.pvd")).front().file).cells(1);
      }
      QVERIFY2(first.cells(1) > ground, qPrintable(QStringLiteral("%1: %2 vs %3").arg(c.name).arg(first.cells(1)).arg(ground)));
    }
  }

  // No times, no addresses: the same run gives the same files, byte for byte.
  void sameRunGivesTheSameBytes() {
    QTemporaryDir dir;
    for (const char* name : {"a", "b"}) {
      const Run r = cli(runArgs(QStringLiteral("star-floor"), 60, 5)
                        << QStringLiteral("--pvd") << dir.filePath(QLatin1String(name)));
      QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }
    const QStringList files = entries(dir.filePath(QStringLiteral("a")));
    QCOMPARE(files.size(), 1 + 13);  // run.pvd and rows 0, 5, ..., 60
    QCOMPARE(entries(dir.filePath(QStringLiteral("b"))), files);
    for (const QString& f : files) {
      QCOMPARE(readAll(dir.filePath(QStringLiteral("a/") + f)),
               readAll(dir.filePath(QStringLiteral("b/") + f)));
    }
  }

  // A previous series is replaced as a whole (no stale frame survives); an empty folder is used; a
  // folder holding other files is refused (exit 2) and left as it was; so are a missing parent
  // folder and a file of that name.
  void previousSeriesIsReplacedOtherFoldersRefused() {
    QTemporaryDir dir;
    const QString series = dir.filePath(QStringLiteral("s"));
    QCOMPARE(
        cli(runArgs(QStringLiteral("particle-floor"), 50, 1) << QStringLiteral("--pvd") << series)
            .exitCode,
        0);
    QCOMPARE(entries(series).size(), 52);
    QCOMPARE(cli(runArgs(QStringLiteral("particle-floor"), 10, 1)
                 << QStringLiteral("--pvd") << series + QLatin1Char('/'))
                 .exitCode,
             0);
    QCOMPARE(entries(series).size(), 12);
    QCOMPARE(entries(dir.path()),
             QStringList{QStringLiteral("s")});  // no temporary or old folder left

    const QString empty = dir.filePath(QStringLiteral("empty"));
    QVERIFY(QDir().mkdir(empty));
    QCOMPARE(
        cli(runArgs(QStringLiteral("particle-floor"), 3, 1) << QStringLiteral("--pvd") << empty)
            .exitCode,
        0);
    QCOMPARE(entries(empty).size(), 5);

    const QString mine = dir.filePath(QStringLiteral("mine"));
    QVERIFY(QDir().mkdir(mine));
    QFile note(mine + QStringLiteral("/notes.txt"));
    QVERIFY(note.open(QIODevice::WriteOnly) && note.write("keep me\n") == 8);
    note.close();
    Run r = cli(runArgs(QStringLiteral("particle-floor"), 3, 1) << QStringLiteral("--pvd") << mine);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(mine) && r.err.contains(QStringLiteral("'notes.txt'")) &&
                 r.err.count(QLatin1Char('\n')) == 1,
             qPrintable(r.err));
    QCOMPARE(entries(mine), QStringList{QStringLiteral("notes.txt")});

    const QString missing = dir.filePath(QStringLiteral("no/such/series"));
    r = cli(runArgs(QStringLiteral("particle-floor"), 3, 1) << QStringLiteral("--pvd") << missing);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(missing) && r.err.contains(QStringLiteral("does not exist")),
             qPrintable(r.err));
    r = cli(runArgs(QStringLiteral("particle-floor"), 3, 1)
            << QStringLiteral("--pvd") << mine + QStringLiteral("/notes.txt"));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("is not a folder")), qPrintable(r.err));
    QCOMPARE(entries(dir.path()),
             (QStringList{QStringLiteral("empty"), QStringLiteral("mine"), QStringLiteral("s")}));
  }

  // Ctrl-C (exit 130): no series and no temporary folder.
  void interruptLeavesNoHalfSeries() {
    QTemporaryDir dir;
    const QString series = dir.filePath(QStringLiteral("s"));
    const Run r =
        interrupted(runArgs(QStringLiteral("particle-floor"), 2000000000, 1000)
                        << QStringLiteral("--pvd") << series,
                    [&] { return !entries(dir.path()).isEmpty(); });  // its temporary folder
    QCOMPARE(r.exitCode, 130);
    QCOMPARE(entries(dir.path()), QStringList());
  }
};

QTEST_GUILESS_MAIN(TestRunPvd)
#include "test_run_pvd.moc"
