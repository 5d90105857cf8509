// The mesh reader under a deterministic fuzz (tests/mesh_fuzz_cases.hpp: about 5000 malformed
// STL, OBJ and PLY files made from six valid ones): every case is either read into a consistent
// mesh (finite vertices, indices in range) or refused with one printable line that names the file;
// the cases no reader may accept (lying counts, out-of-range indices, NaN and inf, missing
// properties) are refused with the expected words; and no case allocates more than 1 MiB (each
// file is under 1 KiB: a count the file cannot hold is refused before anything is allocated).

#include "bench/alloc_counter.hpp"
#include "core/io/mesh_reader.hpp"
#include "mesh_fuzz_cases.hpp"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>

using namespace ricochet;
namespace fuzz = ricochet::testing::mesh_fuzz;

namespace {

/// Empty when `m` is a consistent mesh, else what is wrong.
std::string inconsistency(const MeshData& m) {
  if (m.points.empty() || m.points.size() > io::kMaxMeshVertices) return "vertex count";
  for (const Eigen::Vector3d& p : m.points) {
    if (!p.allFinite()) return "a non-finite vertex";
  }
  const auto inRange = [&](int i) { return i >= 0 && std::size_t(i) < m.points.size(); };
  for (const auto& t : m.triangles) {
    if (!inRange(t[0]) || !inRange(t[1]) || !inRange(t[2])) return "a triangle index";
  }
  if (m.groups.empty() || m.groups.size() != m.groupNames.size()) return "the groups";
  for (const auto& g : m.groups) {
    if (g.empty()) return "an empty group";
    for (int i : g) {
      if (!inRange(i)) return "a group index";
    }
  }
  if (m.md5.size() != 32) return "the MD5";
  return {};
}

/// Empty when `error` is one printable line that starts by naming the file.
std::string badMessage(const std::string& error, const std::string& name) {
  if (error.rfind("mesh '" + name + "': ", 0) != 0) return "does not start with the file's name";
  if (error.size() > 400) return "is longer than 400 characters";
  for (char c : error) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) return "has a control or non-ASCII character";
  }
  return {};
}

}  // namespace

class TestIoMeshFuzz : public QObject {
  Q_OBJECT
 private slots:
  void seedsRead() {
    for (const fuzz::Case& c : fuzz::seeds()) {
      const io::MeshReadResult r = io::parseMesh(c.bytes, c.name);
      QVERIFY2(r.ok(), r.error.c_str());
      QCOMPARE(int(r.mesh->points.size()), c.name == "parts.obj" ? 8 : 4);
      QCOMPARE(int(r.mesh->triangles.size()), c.name == "parts.obj" ? 8 : 4);
      QCOMPARE(int(r.mesh->groups.size()), c.name == "parts.obj" ? 3 : 1);
      QVERIFY2(r.mesh->notes.empty() || c.name == "parts.obj", c.name.c_str());
    }
  }

  void everyCaseIsReadOrRefusedInOneLine() {
    const std::vector<fuzz::Case> cases = fuzz::cases();
    QVERIFY(cases.size() >= 4000);
    std::size_t read = 0, refused = 0, mustRefuse = 0, largest = 0;
    std::map<std::string, std::size_t> readByFormat, refusedByFormat;
    for (const fuzz::Case& c : cases) {
      io::MeshReadResult r;
      {
        alloc_counter::AllocationScope scope;
        r = io::parseMesh(c.bytes, c.name);
        largest = std::max(largest, scope.largest());
#if RICOCHET_ALLOC_COUNTER_AVAILABLE
        QVERIFY2(
            scope.largest() <= (std::size_t(1) << 20),
            (c.name + ": an allocation of " + std::to_string(scope.largest()) + " bytes").c_str());
#endif
      }
      const std::string format = fuzz::extensionOf(c.name);
      if (r.ok()) {
        ++read;
        ++readByFormat[format];
        QVERIFY2(r.error.empty(), c.name.c_str());
        const std::string wrong = inconsistency(*r.mesh);
        QVERIFY2(wrong.empty(), (c.name + ": read with " + wrong).c_str());
        QVERIFY2(!c.mustRefuse, (c.name + " was read, but must be refused").c_str());
      } else {
        ++refused;
        ++refusedByFormat[format];
        const std::string wrong = badMessage(r.error, c.name);
        QVERIFY2(wrong.empty(), (c.name + ": the message " + wrong + ": " + r.error).c_str());
        if (c.mustRefuse) {
          ++mustRefuse;
          QVERIFY2(r.error.find(c.message) != std::string::npos,
                   (c.name + ": '" + r.error + "' lacks '" + c.message + "'").c_str());
        }
      }
    }
    qInfo("%zu cases: %zu read, %zu refused (%zu of them must be); largest allocation %zu bytes",
          cases.size(), read, refused, mustRefuse, largest);
    for (const auto& [format, n] : refusedByFormat) {
      qInfo("  %s: %zu read, %zu refused", format.c_str(), readByFormat[format], n);
    }
    // Both outcomes occur in every format: the cases exercise the parsers, not one early exit.
    for (const char* format : {".stl", ".obj", ".ply"}) {
      QVERIFY2(readByFormat[format] > 0 && refusedByFormat[format] > 0, format);
    }
  }

  // A file through readMesh (the path the CLI and the window use) reads as its bytes do.
  void filesReadAsTheirBytes() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::vector<fuzz::Case> cases = fuzz::cases();
    for (std::size_t i = 0; i < cases.size(); i += 97) {
      const std::filesystem::path file =
          dir.filePath(QString::fromStdString(cases[i].name)).toStdString();
      { std::ofstream(file, std::ios::binary) << cases[i].bytes; }
      const io::MeshReadResult a = io::readMesh(file);
      const io::MeshReadResult b = io::parseMesh(cases[i].bytes, file);
      QCOMPARE(a.error,
               cases[i].bytes.empty() ? io::meshLabel(file) + ": the file is empty" : b.error);
      QCOMPARE(a.ok(), b.ok() && !cases[i].bytes.empty());
      if (a.ok()) QVERIFY(a.mesh->points == b.mesh->points);
    }
  }
};

QTEST_GUILESS_MAIN(TestIoMeshFuzz)
#include "test_io_mesh_fuzz.moc"
