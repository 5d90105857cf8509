// `ricochet-cli run rigid-body --body FILE` as a separate process: a mesh file becomes the body
// (with VTK's readers built in), a scenario names its mesh relative to itself, and every bad
// body input exits 2 with one line naming the problem.

#include "cli_process.hpp"

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
#ifdef RICOCHET_HAS_MESH_READER
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile f(path("summary.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("\"impacts\""));
#else
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("built without VTK"), qPrintable(r.err));
#endif
  }

  void scenarioNamesTheMeshRelativeToItself() {
#ifdef RICOCHET_HAS_MESH_READER
    QDir().mkpath(path("scenes"));
    write(path("die.obj"), boxObj(0.5));
    Result r = cli({"scenario", "rigid-body", "--body", path("die.obj"), "--out", path("scenes/die.json")});
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
#else
    QSKIP("built without VTK: no mesh files");
#endif
  }

  void badBodiesExitTwo() {
    write(path("empty.stl"), "");
    write(path("flat.obj"), "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n");
    write(path("cube.json"), R"({"format": "ricochet-scenario", "version": 1, "system": "rigid-body",
      "body": {"shape": "box", "size": [1, 1, 1]}, "world": {"box": {"size": [0.8, 4]}}})");
    write(path("mass.json"), R"({"format": "ricochet-scenario", "version": 1, "system": "rigid-body",
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
#ifdef RICOCHET_HAS_MESH_READER
        {{"run", "rigid-body", "--body", path("empty.stl")}, "the file is empty"},
        {{"run", "rigid-body", "--body", path("flat.obj")}, "lie in one plane"},
#endif
    };
    for (const Case& c : cases) {
      const Result r = cli(c.args);
      QVERIFY2(r.exitCode == 2, qPrintable(c.args.join(' ') + ": exit " + QString::number(r.exitCode)));
      QVERIFY2(r.err.contains(QString::fromUtf8(c.message)), qPrintable(c.args.join(' ') + ": " + r.err));
      QCOMPARE(r.err.trimmed().count('\n'), 0);  // one line
    }
  }

 private:
  QString path(const char* name) const { return dir_.filePath(QString::fromUtf8(name)); }
  QTemporaryDir dir_;
};

QTEST_GUILESS_MAIN(TestCliBody)
#include "test_cli_body.moc"
