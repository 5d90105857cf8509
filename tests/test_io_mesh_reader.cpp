// core/io's mesh reader, format by format: every digit of a text coordinate and every bit of a
// binary float32 or float64 kept; a binary STL whose header starts with "solid"; PLY in both byte
// orders with its elements and properties in any order; OBJ objects and groups as parts; the
// notes for open, non-manifold and face-less meshes; the MD5 scenario files record; and refusals
// that name the file and where the problem is, word for word.

#include "core/io/md5.hpp"
#include "core/io/mesh_reader.hpp"

#include <QtTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

using namespace ricochet;
using Vec3 = Eigen::Vector3d;

namespace {

template <class T>
void put(std::string& s, T v, bool bigEndian) {
  unsigned char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  for (std::size_t i = 0; i < sizeof v; ++i) s += char(b[bigEndian ? sizeof v - 1 - i : i]);
}

io::MeshReadResult parse(const std::string& bytes, const char* name) {
  return io::parseMesh(bytes, name);
}

/// The mesh, or a failed check with the reader's message.
#define READ(var, bytes, name)                               \
  const io::MeshReadResult var##Result = parse(bytes, name); \
  QVERIFY2(var##Result.ok(), var##Result.error.c_str());     \
  const MeshData& var = *var##Result.mesh

std::string text17(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

/// A binary STL of `triangles` (9 floats each), with `header` in the 80 header bytes.
std::string binaryStl(const std::vector<std::array<float, 9>>& triangles,
                      const std::string& header) {
  std::string s = header;
  s.resize(80, '\0');
  put(s, std::uint32_t(triangles.size()), false);
  for (const auto& t : triangles) {
    for (int i = 0; i < 3; ++i) put(s, 0.0f, false);
    for (float x : t) put(s, x, false);
    put(s, std::uint16_t(0), false);
  }
  return s;
}

}  // namespace

class TestIoMeshReader : public QObject {
  Q_OBJECT
 private slots:
  void md5OfRfc1321() {
    QCOMPARE(io::md5Hex(""), std::string("d41d8cd98f00b204e9800998ecf8427e"));
    QCOMPARE(io::md5Hex("abc"), std::string("900150983cd24fb0d6963f7d28e17f72"));
    QCOMPARE(io::md5Hex("message digest"), std::string("f96b697d7cb7938d525a2f31aaf161d0"));
    QCOMPARE(
        io::md5Hex(
            "12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
        std::string("57edf4a22be3c955ac49da2e2107b67a"));
    // Lengths around the 56-byte padding boundary (values of md5sum).
    QCOMPARE(io::md5Hex(std::string(55, 'x')), std::string("04364420e25c512fd958a70738aa8f72"));
    QCOMPARE(io::md5Hex(std::string(56, 'x')), std::string("668a72d5ba17f08e62dabcafad6db14b"));
    QCOMPARE(io::md5Hex(std::string(64, 'x')), std::string("c1bb4f81d892b2d57947682aeb252456"));
    READ(m, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n", "p.obj");
    QCOMPARE(m.md5, io::md5Hex("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"));
  }

  void asciiStlKeepsEveryDigit() {
    const double values[] = {0.1,    1.0 / 3.0,          std::sqrt(2.0),
                             1e-300, -2.5e300,           4.9406564584124654e-324,
                             -0.0,   123456789.12345679, std::nextafter(1.0, 2.0)};
    std::string s = "SOLID digits\n";  // keywords in any case
    std::vector<Vec3> expected;
    for (std::size_t t = 0; t + 2 < std::size(values); t += 3) {
      s += "  Facet Normal 0 0 1\n    OUTER LOOP\n";
      for (std::size_t k = 0; k < 3; ++k) {
        const Vec3 p(values[t + k], values[(t + k + 1) % std::size(values)], double(k));
        expected.push_back(p);
        // A '+' before a positive number is read too.
        const char* plus = std::signbit(p.y()) ? " " : " +";
        s += "      vertex " + text17(p.x()) + plus + text17(p.y()) + " " + text17(p.z()) + "\n";
      }
      s += "    endloop\n  endfacet\n";
    }
    s += "endsolid digits\nsolid second\nendsolid\n";  // several solids, one body
    READ(m, s, "digits.stl");
    QCOMPARE(m.points.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      QVERIFY2(m.points[i] == expected[i], std::to_string(i).c_str());
      QCOMPARE(std::signbit(m.points[i].x()), std::signbit(expected[i].x()));
    }
    QCOMPARE(int(m.triangles.size()), 3);
  }

  void binaryStlReadsFloat32Exactly() {
    // Every float, subnormal and largest included, as the double it is; the header starts with
    // "solid" as many binary writers' do. Corners shared by two triangles are merged.
    const float tiny = std::numeric_limits<float>::denorm_min();
    const float big = std::numeric_limits<float>::max();
    const std::vector<std::array<float, 9>> t = {{0.1f, -0.0f, 1e-30f, 1.0f, 0, 0, 0, big, tiny},
                                                 {0.1f, -0.0f, 1e-30f, 0, big, tiny, 7.25f, 1, 1}};
    const std::string bytes = binaryStl(t, "solid looks like text");
    READ(m, bytes, "floats.stl");
    QCOMPARE(int(m.points.size()), 4);
    QVERIFY(m.points[0] == Vec3(double(0.1f), 0.0, double(1e-30f)));
    QVERIFY(std::signbit(m.points[0].y()));
    QVERIFY(m.points[2] == Vec3(0.0, double(big), double(tiny)));
    QVERIFY(m.points[3] == Vec3(7.25, 1.0, 1.0));
    QCOMPARE(m.triangles.size(), std::size_t(2));
    QVERIFY((m.triangles[1] == std::array<int, 3>{0, 2, 3}));
    QCOMPARE(m.bytes, std::uintmax_t(84 + 2 * 50));
  }

  void binaryStlCountIsCheckedAgainstTheSize() {
    std::string bytes = binaryStl({{0, 0, 0, 1, 0, 0, 0, 1, 0}}, "binary");
    // The header claims 2^31 + 1 triangles: refused by the size alone, nothing allocated.
    bytes[83] = char(0x80);
    QCOMPARE(parse(bytes, "lie.stl").error,
             std::string("mesh 'lie.stl': not an ASCII STL (it does not start with 'solid'), and "
                         "not a binary STL: its triangle count 2147483649 makes 84 + 50 x "
                         "2147483649 = 107374182534 bytes, but the file has 134"));
    QCOMPARE(parse(std::string(60, 'x'), "short.stl").error,
             std::string("mesh 'short.stl': not an ASCII STL (it does not start with 'solid'), and "
                         "too short for a binary STL (60 bytes, fewer than the 84 of its header "
                         "and triangle count)"));
  }

  void asciiStlRefusals() {
    const std::string facet = "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n";
    QCOMPARE(parse("solid t\n" + facet, "cut.stl").error,
             std::string("mesh 'cut.stl': the file ends at line 5 where 'vertex' was expected (is "
                         "it truncated?)"));
    QCOMPARE(parse("solid t\n" + facet + "vertex 0 nan 1\n", "nan.stl").error,
             std::string("mesh 'nan.stl': line 6: the vertex has a non-finite coordinate 'nan'"));
    QCOMPARE(parse("solid t\n" + facet + "vertex 0 1e999 1\n", "big.stl").error,
             std::string("mesh 'big.stl': line 6: '1e999' is out of the range of a double"));
    QCOMPARE(parse("solid t\n" + facet + "endloop\n", "two.stl").error,
             std::string("mesh 'two.stl': line 6: expected 'vertex' (2 of the facet's 3 read), "
                         "found 'endloop'"));
  }

  void plyBigEndianInAnyOrder() {
    // Faces before vertices, z y x in that order between skipped properties (a list among them),
    // double, int16 and uint8 types, big-endian; then the same in ASCII and little-endian.
    const Vec3 p[4] = {{0.1, 0.2, 0.3}, {1.0 / 3.0, -0.0, 1e-310}, {-2.5, 4.0, 1e300}, {7, 8, 9}};
    const int faces[2][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}};
    for (const char* format : {"binary_big_endian", "binary_little_endian", "ascii"}) {
      const bool ascii = std::string(format) == "ascii";
      const bool big = std::string(format) == "binary_big_endian";
      std::string s =
          std::string("ply\r\nformat ") + format +
          " 1.0\r\ncomment CRLF header\r\nelement face 2\r\nproperty uchar flags\r\n"
          "property list uint8 int16 vertex_indices\r\nelement edge 1\r\n"
          "property int a\r\nproperty int b\r\nelement vertex 4\r\nproperty double z\r\n"
          "property list uchar float normal\r\nproperty double y\r\nproperty short id\r\n"
          "property double x\r\nend_header\r\n";
      for (const auto& f : faces) {
        if (ascii) {
          s += "9 4 " + std::to_string(f[0]) + " " + std::to_string(f[1]) + " " +
               std::to_string(f[2]) + " " + std::to_string(f[3]) + "\n";
        } else {
          put(s, std::uint8_t(9), big);
          put(s, std::uint8_t(4), big);
          for (int k : f) put(s, std::int16_t(k), big);
        }
      }
      if (ascii) {
        s += "0 1\n";
      } else {
        put(s, std::int32_t(0), big);
        put(s, std::int32_t(1), big);
      }
      for (int v = 0; v < 4; ++v) {
        if (ascii) {
          s += text17(p[v].z()) + " 2 0.5 0.25 " + text17(p[v].y()) + " " + std::to_string(v) +
               " " + text17(p[v].x()) + "\n";
        } else {
          put(s, p[v].z(), big);
          put(s, std::uint8_t(2), big);
          put(s, 0.5f, big);
          put(s, 0.25f, big);
          put(s, p[v].y(), big);
          put(s, std::int16_t(v), big);
          put(s, p[v].x(), big);
        }
      }
      READ(m, s, "order.ply");
      QCOMPARE(int(m.points.size()), 4);
      for (int v = 0; v < 4; ++v) QVERIFY2(m.points[std::size_t(v)] == p[v], format);
      QVERIFY(std::signbit(m.points[1].y()));
      QCOMPARE(int(m.triangles.size()), 4);  // two quads, fanned
      QVERIFY((m.triangles[0] == std::array<int, 3>{0, 1, 2}));
      QVERIFY((m.triangles[3] == std::array<int, 3>{3, 1, 0}));
      QCOMPARE(int(m.groups.size()), 1);
      QVERIFY(m.notes.empty());  // two quads on the same four corners: every edge twice
    }
  }

  void plyRefusals() {
    const std::string head =
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
        "property float y\nproperty float z\nelement face 1\n"
        "property list uchar int vertex_indices\nend_header\n";
    QCOMPARE(parse(head + "0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", "index.ply").error,
             std::string("mesh 'index.ply': line 13: face 1: vertex index 3 is out of range: the "
                         "file has 3 vertices (indices 0 to 2)"));
    QCOMPARE(
        parse(head + "0 0 0\n1 inf 0\n0 1 0\n3 0 1 2\n", "inf.ply").error,
        std::string("mesh 'inf.ply': line 11: vertex 2 has a non-finite coordinate (1, inf, 0)"));
    QCOMPARE(parse(head + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 1 2\n", "more.ply").error,
             std::string("mesh 'more.ply': line 14: data after the last element (do the header's "
                         "counts match the data?)"));
    QCOMPARE(parse(head + "0 0 0\n1 0 0\n", "short.ply").error,
             std::string("mesh 'short.ply': the header declares 3 'vertex' lines of 3 values, more "
                         "than the 12 bytes after the header can hold (is the file truncated?)"));
    QCOMPARE(
        parse(head + "0.000 0.000 0.000\n1.000 0 0\n", "cut.ply").error,
        std::string("mesh 'cut.ply': the file ends before 'vertex' 3 of 3 (is it truncated?)"));
    std::string noY = head;
    noY.replace(noY.find("float y"), 7, "float w");
    QCOMPARE(parse(noY + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", "noy.ply").error,
             std::string("mesh 'noy.ply': the 'vertex' element has no 'y' property"));
    // A binary count larger than the file can hold, refused before anything is allocated.
    std::string lie =
        "ply\nformat binary_little_endian 1.0\nelement vertex 999999\nproperty "
        "double x\nproperty double y\nproperty double z\nend_header\n";
    lie += std::string(48, '\0');
    QCOMPARE(parse(lie, "lie.ply").error,
             std::string("mesh 'lie.ply': the header declares 999999 'vertex' items of at least 24 "
                         "bytes, more than the 48 bytes after the header can hold (is the file "
                         "truncated?)"));
    // One face of 5 million corners would pass the triangle limit: refused before it is read.
    QCOMPARE(
        parse("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
              "property float z\nelement face 1\nproperty list int int vertex_indices\n"
              "end_header\n0 0 0\n1 0 0\n0 1 0\n5000000 0 1 2\n",
              "huge.ply")
            .error,
        std::string("mesh 'huge.ply': line 13: face 1 declares 5000000 vertices, more than the "
                    "file holds or the triangle limit allows"));
  }

  void objObjectsAndGroupsAreParts() {
    // Parts are named "object/group", "object" or "group", numbered by their first face; faces
    // of one name anywhere in the file are one part; a vertex no face uses is in no part.
    const std::string s =
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 5 5 5\n"
        "o body\nf 1 2 3\ng lid\nf 1 2 4   # a comment\n"
        "g\nf 1 3 4\no\ng loose\tpart\nf 2/7/1 3//2 4/9\n"
        "o body\ng lid\nf -4 -3 -1\n"  // -1: the last vertex read so far (5)
        "o \x1b[31mred\nf 6 7 8\nv 2 0 0\nv 2 1 0\nv 2 0 1\n";  // indices of vertices written later
    READ(m, s, "parts.obj");
    QCOMPARE(int(m.points.size()), 8);
    // Control characters (a tab, an escape) are shown as '?' in names, which messages quote.
    const std::vector<std::string> names = {"body", "body/lid", "loose?part", "?[31mred/lid"};
    QCOMPARE(m.groupNames, names);
    QCOMPARE(int(m.groups.size()), 4);
    QCOMPARE(m.groups[0], (std::vector<int>{0, 1, 2, 3}));     // f 1 2 3 and f 1 3 4
    QCOMPARE(m.groups[1], (std::vector<int>{0, 1, 2, 3, 4}));  // f 1 2 4 and f 2 3 5
    QCOMPARE(m.groups[2], (std::vector<int>{1, 2, 3}));
    QCOMPARE(m.groups[3], (std::vector<int>{5, 6, 7}));
    QCOMPARE(int(m.triangles.size()), 6);

    // One part, or none named: the hull of every vertex, faceless ones included.
    READ(one, "o die\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 9 9 9\nf 1 2 3\n", "one.obj");
    QCOMPARE(int(one.groups.size()), 1);
    QCOMPARE(one.groupNames[0], std::string("die"));
    QCOMPARE(one.groups[0], (std::vector<int>{0, 1, 2, 3, 4}));
  }

  void objRefusals() {
    QCOMPARE(parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "range.obj").error,
             std::string("mesh 'range.obj': line 4: face vertex 4 is out of range: the file has 3 "
                         "vertices"));
    QCOMPARE(parse("v 0 0 0\nv 1 0 0\nv nan 1 0\n", "nan.obj").error,
             std::string("mesh 'nan.obj': line 3: vertex 3 has a non-finite coordinate 'nan'"));
    QCOMPARE(parse("v 0 0 0\nv 1 0 0\nv -inf 1 0\n", "inf.obj").error,
             std::string("mesh 'inf.obj': line 3: vertex 3 has a non-finite coordinate '-inf'"));
    QCOMPARE(parse("v 0 0 0\nf 1 -2 1\n", "back.obj").error,
             std::string("mesh 'back.obj': line 2: face vertex '-2' counts back before the first "
                         "vertex (1 read so far)"));
    QCOMPARE(
        parse("v 0 0 0\nv 1 0 0\nf 1 2\n", "two.obj").error,
        std::string("mesh 'two.obj': line 3: a face needs at least 3 vertices, this one has 2"));
    QCOMPARE(parse("v 0 0\n", "short.obj").error,
             std::string("mesh 'short.obj': line 1: a vertex needs 3 coordinates, found 2"));
    QCOMPARE(parse("# nothing\n", "empty.obj").error,
             std::string("mesh 'empty.obj': the file has no vertices"));
    // 10^6 + 1 vertices: the cap, refused at the vertex that passes it.
    std::string many;
    for (std::size_t i = 0; i <= io::kMaxMeshVertices; ++i) many += "v 0 0 0\n";
    QCOMPARE(parse(many, "many.obj").error,
             std::string("mesh 'many.obj': line 1000001: more than 1000000 vertices, above the "
                         "limit of 1000000"));
  }

  void notesForOpenAndNonManifoldMeshes() {
    const std::string tetra = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n";
    READ(closed, tetra + "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n", "closed.obj");
    QVERIFY(closed.notes.empty());
    READ(open, tetra + "f 1 3 2\nf 1 2 4\nf 1 4 3\n", "open.obj");
    QCOMPARE(open.notes, std::vector<std::string>{"open (3 edges belong to one face only)"});
    // A fin: a third face on the edge 1-2 (and its own two open edges).
    READ(fin, tetra + "v 1 -1 0\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\nf 1 5 2\n", "fin.obj");
    QCOMPARE(fin.notes,
             (std::vector<std::string>{"open (2 edges belong to one face only)",
                                       "not manifold (1 edge is shared by more than two faces)"}));
    READ(cloud, tetra, "cloud.obj");
    QCOMPARE(cloud.notes, std::vector<std::string>{"a point cloud (no faces)"});

    // The line the CLI prints: every mesh of a body, unions walked.
    BodyNode body;
    body.shape = BodyNode::Shape::Union;
    body.parts.resize(3);
    body.parts[0].shape = BodyNode::Shape::Mesh;
    body.parts[0].file = "open.obj";
    body.parts[0].mesh = openResult.mesh;
    body.parts[1].shape = BodyNode::Shape::Box;
    body.parts[2].shape = BodyNode::Shape::Mesh;
    body.parts[2].file = "fin.obj";
    body.parts[2].mesh = finResult.mesh;
    QCOMPARE(io::meshNotes(body),
             std::string("mesh 'open.obj' is open (3 edges belong to one face only); the body is "
                         "its convex hull; mesh 'fin.obj' is open (2 edges belong to one face "
                         "only) and not manifold (1 edge is shared by more than two faces); the "
                         "body is its convex hull"));
    body.parts.erase(body.parts.begin() + 2);
    body.parts.erase(body.parts.begin());
    QCOMPARE(io::meshNotes(body), std::string());
  }
};

QTEST_GUILESS_MAIN(TestIoMeshReader)
#include "test_io_mesh_reader.moc"
