// `ricochet-cli run rigid-body --body FILE` as a separate process: a mesh file becomes the body
// (in every build: core reads meshes), a scenario names its mesh relative to itself, an open
// mesh runs with one note on stderr, and every bad body input exits 2 with one line naming the
// problem, a sample of the mesh reader's fuzz cases included.

#include "cli_process.hpp"
#include "core/io/mesh_reader.hpp"
#include "mesh_fuzz_cases.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <QProcess>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace {

/// An OBJ box of half-extents h (8 corners, 6 quads).
std::string boxObj(double h) {
  std::string s;
  for (int i = 0; i < 8; ++i) {
    s += "v " + std::to_string(i & 1 ? h : -h) + " " + std::to_string(i & 2 ? h : -h) + " " +
         std::to_string(i & 4 ? h : -h) + "\n";
  }
  return s + "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
}

void write(const QString& path, const std::string& text) {
  std::ofstream(path.toStdString(), std::ios::binary) << text;
}

}  // namespace

class TestCliBody : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void meshBodyRuns() {
    write(path("die.obj"), boxObj(0.5));
    const Result r = cli({"run", "rigid-body", "--body", path("die.obj"), "--steps", "300",
                          "--summary-json", path("summary.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(r.err, QString());  // a closed surface: nothing to note
    QFile f(path("summary.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("\"impacts\""));
  }

  // An open surface runs as its hull, with one note on stderr.
  void openMeshRunsWithANote() {
    std::string open = boxObj(0.5);
    open.erase(open.rfind("f 2 4 8 6\n"));  // the +x face: a hole bordered by 4 edges
    write(path("open.obj"), open);
    const Result r = cli({"run", "rigid-body", "--body", path("open.obj"), "--steps", "50"});
    QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
    QCOMPARE(r.err, QStringLiteral("ricochet-cli: note: mesh '%1' is open (4 edges belong to one "
                                   "face only); the body is its convex hull\n")
                        .arg(path("open.obj")));
  }

  void scenarioNamesTheMeshRelativeToItself() {
    QDir().mkpath(path("scenes"));
    write(path("die.obj"), boxObj(0.5));
    Result r = cli(
        {"scenario", "rigid-body", "--body", path("die.obj"), "--out", path("scenes/die.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile f(path("scenes/die.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY2(text.contains("\"file\": \"../die.obj\""), text.constData());
    r = cli({"run", path("scenes/die.json"), "--steps", "100"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // The mesh changes: the scenario refuses to run.
    write(path("die.obj"), boxObj(0.6));
    r = cli({"run", path("scenes/die.json"), "--steps", "100"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("changed since the scenario was saved"), qPrintable(r.err));
  }

  void badBodiesExitTwo() {
    write(path("empty.stl"), "");
    write(path("flat.obj"), "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n");
    write(path("cube.json"),
          R"({"format": "ricochet-scenario", "version": 1, "system": "rigid-body",
      "body": {"shape": "box", "size": [1, 1, 1]}, "world": {"box": {"size": [0.8, 4]}}})");
    write(path("mass.json"),
          R"({"format": "ricochet-scenario", "version": 1, "system": "rigid-body",
      "body": {"shape": "box", "size": [1, 1, 1], "density": 0}})");
    struct Case {
      QStringList args;
      const char* message;
    };
    const Case cases[] = {
        {{"run", "rigid-body", "--body", path("missing.stl")}, "no such file"},
        {{"run", "ellipsoid-plane", "--body", path("empty.stl")}, "takes no body"},
        {{"run", path("cube.json")}, "gap 'box.-x'"},
        {{"run", path("mass.json")}, "\"body.density\" = 0 must be > 0"},
        {{"run", "rigid-body", "--set", "m=-1"}, "'m'"},
        {{"run", "rigid-body", "--body", path("empty.stl")}, "the file is empty"},
        {{"run", "rigid-body", "--body", path("flat.obj")}, "lie in one plane"},
    };
    for (const Case& c : cases) {
      const Result r = cli(c.args);
      QVERIFY2(r.exitCode == 2,
               qPrintable(c.args.join(' ') + ": exit " + QString::number(r.exitCode)));
      QVERIFY2(r.err.contains(QString::fromUtf8(c.message)),
               qPrintable(c.args.join(' ') + ": " + r.err));
      QCOMPARE(r.err.trimmed().count('\n'), 0);  // one line
    }
  }

  // A sample of the reader's fuzz cases, run as a user would: a refused file exits 2 with the
  // reader's one line (the very message core gives), a file that reads runs or is refused as a
  // body, and none crashes.
  void malformedMeshesExitTwoWithOneLine() {
    namespace fuzz = ricochet::testing::mesh_fuzz;
    QDir().mkpath(path("fuzz"));
    const std::vector<fuzz::Case> cases = fuzz::cases();
    int refused = 0, read = 0, ran = 0;
    for (std::size_t i = 0; i < cases.size(); i += 23) {
      const QString file = path("fuzz") + "/" + QString::fromStdString(cases[i].name);
      write(file, cases[i].bytes);
      const ricochet::io::MeshReadResult expected = ricochet::io::readMesh(file.toStdString());
      const Result r = cli({"run", "rigid-body", "--body", file, "--steps", "20"});
      const QString what = QString::fromStdString(cases[i].name) + ": " + describeResult(r);
      if (!expected.ok()) {
        ++refused;
        QVERIFY2(r.exitCode == 2, qPrintable(what));
        QCOMPARE(r.err, "ricochet-cli: --body: " + QString::fromStdString(expected.error) + "\n");
      } else {
        ++read;
        // Read: it runs (0), its hull is no solid or cuts the ground (2), or the integrator stops
        // (3); the note and a refusal are a line each.
        QVERIFY2(r.exitCode == 0 || r.exitCode == 2 || r.exitCode == 3, qPrintable(what));
        ran += r.exitCode == 0;
        QVERIFY2(r.err.count('\n') <= 2, qPrintable(what));
      }
    }
    qInfo("%d refused by the reader (exit 2); %d read, of which %d ran", refused, read, ran);
    QVERIFY(refused >= 100 && read >= 10 && ran >= 1);
  }

 private:
  QString path(const char* name) const { return dir_.filePath(QString::fromUtf8(name)); }
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestCliBody)
#include "test_cli_body.moc"
