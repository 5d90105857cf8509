#pragma once
// Malformed mesh files made deterministically from six small valid ones (ASCII and binary STL,
// an OBJ of two objects, ASCII, little- and big-endian PLY), for the reader's fuzz test
// (test_io_mesh_fuzz) and the CLI's (test_cli_body): truncations at every byte, lying counts,
// out-of-range indices, non-finite and out-of-range coordinates, missing properties, and random
// byte mutations from a fixed seed. The same list on every machine: no std:: distributions.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ricochet::testing::mesh_fuzz {

struct Case {
  std::string name;  ///< a file name: the seed, what was done, and the format's extension
  std::string bytes;
  bool mustRefuse = false;  ///< a case that no correct reader accepts
  std::string message;      ///< with mustRefuse: a part of the refusal ("" for any)
};

/// splitmix64: a tiny generator whose sequence is fixed by its seed.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n).
  std::size_t below(std::size_t n) { return n == 0 ? 0 : std::size_t(next() % n); }

 private:
  std::uint64_t state_;
};

inline void putLe32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s += char((v >> (8 * i)) & 0xff);
}
inline void putBytes(std::string& s, const void* p, std::size_t n, bool bigEndian) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i)
    s += char(b[bigEndian ? n - 1 - i : i]);  // little-endian host
}
template <class T>
void put(std::string& s, T v, bool bigEndian = false) {
  putBytes(s, &v, sizeof v, bigEndian);
}

/// The tetrahedron 0, e1, e2, e3 (0.1 added to x so that digits matter) and its outward faces.
inline const double kTetra[4][3] = {{0.1, 0, 0}, {1.1, 0, 0}, {0.1, 1, 0}, {0.1, 0, 1}};
inline const int kTetraFaces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};

inline std::string asciiStl() {
  std::string s = "solid tetra\n";
  for (const auto& f : kTetraFaces) {
    s += " facet normal 0 0 0\n  outer loop\n";
    for (int k : f) {
      s += "   vertex " + std::to_string(kTetra[k][0]) + " " + std::to_string(kTetra[k][1]) + " " +
           std::to_string(kTetra[k][2]) + "\n";
    }
    s += "  endloop\n endfacet\n";
  }
  return s + "endsolid tetra\n";
}

/// Binary, with a header that starts with "solid" as many writers' do.
inline std::string binaryStl() {
  std::string s = "solid written as binary";
  s.resize(80, ' ');
  putLe32(s, 4);
  for (const auto& f : kTetraFaces) {
    for (int i = 0; i < 3; ++i) put(s, 0.0f);
    for (int k : f) {
      for (int i = 0; i < 3; ++i) put(s, float(kTetra[k][i]));
    }
    put(s, std::uint16_t(0));
  }
  return s;
}

inline std::string obj() {
  return "# two objects\nmtllib none.mtl\no first\nv 0.1 0 0\nv 1.1 0 0\nv 0.1 1 0\nv 0.1 0 1\n"
         "vt 0 0\nvn 0 0 1\ng side\nf 1/1/1 3/1/1 2/1/1\nf 1//1 2//1 4//1\ng\nf 1 4 3\n"
         "f -3 -2 -1\no second\nv 3 0 0 1\nv 4 0 0\nv 3 1 0\nv 3 0 1\ns off\nf 5 7 6\nf 5 6 8\n"
         "f 5 8 7\nf 6 7 8\n";
}

inline std::string asciiPly() {
  std::string s =
      "ply\nformat ascii 1.0\ncomment tetra\nelement vertex 4\nproperty float x\nproperty float "
      "y\nproperty float z\nproperty float nx\nelement face 4\nproperty list uchar int "
      "vertex_indices\nend_header\n";
  for (const auto& p : kTetra) {
    s += std::to_string(p[0]) + " " + std::to_string(p[1]) + " " + std::to_string(p[2]) + " 0\n";
  }
  for (const auto& f : kTetraFaces) {
    s += "3 " + std::to_string(f[0]) + " " + std::to_string(f[1]) + " " + std::to_string(f[2]) +
         "\n";
  }
  return s;
}

/// Little-endian: double coordinates, a colour byte, a list of normals per vertex to skip, uint
/// indices.
inline std::string littlePly() {
  std::string s =
      "ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty double x\nproperty "
      "double y\nproperty double z\nproperty uchar red\nproperty list uchar float extra\n"
      "element face 4\nproperty list uchar uint vertex_indices\nend_header\n";
  for (const auto& p : kTetra) {
    for (double x : p) put(s, x);
    put(s, std::uint8_t(200));
    put(s, std::uint8_t(1));
    put(s, 0.5f);
  }
  for (const auto& f : kTetraFaces) {
    put(s, std::uint8_t(3));
    for (int k : f) put(s, std::uint32_t(k));
  }
  return s;
}

/// Big-endian with the faces first, z y x in that order, a short count and int16 indices.
inline std::string bigPly() {
  std::string s =
      "ply\nformat binary_big_endian 1.0\nelement face 4\nproperty list short short "
      "vertex_index\nelement vertex 4\nproperty float z\nproperty int id\nproperty float y\n"
      "property float x\nend_header\n";
  for (const auto& f : kTetraFaces) {
    put(s, std::int16_t(3), true);
    for (int k : f) put(s, std::int16_t(k), true);
  }
  for (int v = 0; v < 4; ++v) {
    put(s, float(kTetra[v][2]), true);
    put(s, std::int32_t(v), true);
    put(s, float(kTetra[v][1]), true);
    put(s, float(kTetra[v][0]), true);
  }
  return s;
}

/// The valid files every case is made from; each reads as a tetrahedron (two for the OBJ).
inline std::vector<Case> seeds() {
  std::vector<Case> out;
  for (auto [name, bytes] : {std::pair{"tetra-ascii.stl", asciiStl()},
                             {"tetra-binary.stl", binaryStl()},
                             {"parts.obj", obj()},
                             {"tetra-ascii.ply", asciiPly()},
                             {"tetra-little.ply", littlePly()},
                             {"tetra-big.ply", bigPly()}}) {
    out.push_back({name, bytes, false, {}});
  }
  return out;
}

inline std::string extensionOf(const std::string& name) {
  return name.substr(name.rfind('.'));
}
inline std::string stemOf(const std::string& name) {
  return name.substr(0, name.rfind('.'));
}

/// `text` with its first `from` replaced by `to`; unchanged when `from` is absent (a case that
/// must be refused then reads, and the test says which).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

inline std::vector<Case> cases() {
  std::vector<Case> out;
  const std::vector<Case> valid = seeds();
  const auto add = [&](const Case& seed, const std::string& what, std::string bytes, bool refuse,
                       std::string message = {}) {
    out.push_back({stemOf(seed.name) + "-" + what + extensionOf(seed.name), std::move(bytes),
                   refuse, std::move(message)});
  };

  // 1. Truncations at every byte offset (some are still valid files: an OBJ cut after a line).
  for (const Case& s : valid) {
    const bool binaryStl = s.name == "tetra-binary.stl";
    for (std::size_t n = 0; n < s.bytes.size(); ++n) {
      add(s, "cut" + std::to_string(n), s.bytes.substr(0, n), binaryStl || n == 0);
    }
  }

  // 2. Lying counts.
  const Case& ascii = valid[0];
  const Case& stl = valid[1];
  const Case& objSeed = valid[2];
  for (std::uint32_t n : {0u, 1u, 3u, 5u, 1u << 31, 0xffffffffu}) {
    std::string b = stl.bytes;
    for (int i = 0; i < 4; ++i) b[std::size_t(80 + i)] = char((n >> (8 * i)) & 0xff);
    add(stl, "count" + std::to_string(n), b, true, "not a binary STL");
  }
  add(stl, "extra-byte", stl.bytes + '\0', true, "not a binary STL");
  for (std::size_t p = 3; p < 6; ++p) {
    const Case& ply = valid[p];
    for (const char* n : {"0", "3", "5", "1000001", "2147483648", "9223372036854775807",
                          "9223372036854775808", "-1", "4x", ""}) {
      add(ply, std::string("vertices") + n,
          replaced(ply.bytes, "element vertex 4", std::string("element vertex ") + n), true);
      add(ply, std::string("faces") + n,
          replaced(ply.bytes, "element face 4", std::string("element face ") + n),
          std::string(n) != "4");
    }
    add(ply, "no-x", replaced(ply.bytes, " x\n", " q\n"), true, "no 'x' property");
    add(ply, "no-z", replaced(ply.bytes, " z\n", " q\n"), true, "no 'z' property");
    add(ply, "no-end", replaced(ply.bytes, "end_header", "end_headr"), true);
    add(ply, "no-faces-list", replaced(ply.bytes, "vertex_ind", "vertex_inx"), true,
        "no list property");
    const char* indexType[] = {"uchar int vertex", "uchar uint vertex", "short short vertex"};
    const char* floatType[] = {"uchar float vertex", "uchar float vertex", "short float vertex"};
    add(ply, "float-index", replaced(ply.bytes, indexType[p - 3], floatType[p - 3]), true,
        "not an integer type");
    add(ply, "version", replaced(ply.bytes, " 1.0\n", " 2.0\n"), true, "version");
    add(ply, "twice",
        replaced(ply.bytes, "element vertex 4\n", "element vertex 4\nelement vertex 4\n"), true,
        "declared twice");
  }
  // Face vertex counts and indices of the ASCII PLY.
  const Case& plyText = valid[3];
  for (const char* face : {"0 0 2 1", "2 0 2", "4 0 2 1", "3 0 2 4", "3 0 2 -1",
                           "3 0 2 99999999999", "3 0 2", "3 0 2 1 7", "256 0 1 2", "3 0 2 1.5"}) {
    add(plyText, std::string("face-") + face, replaced(plyText.bytes, "3 0 2 1", face), true);
  }
  // Binary face lists: the first face's count, then its first index.
  {
    const Case& le = valid[4];
    const std::size_t data = le.bytes.find("end_header\n") + 11;
    const std::size_t face = data + 4 * (24 + 1 + 1 + 4);
    for (unsigned char c : {0, 1, 2, 4, 255}) {
      std::string b = le.bytes;
      b[face] = char(c);
      add(le, "facecount" + std::to_string(c), b, true);
    }
    for (std::uint32_t i : {4u, 0x7fffffffu, 0xffffffffu}) {
      std::string b = le.bytes;
      for (int k = 0; k < 4; ++k) b[face + 1 + std::size_t(k)] = char((i >> (8 * k)) & 0xff);
      add(le, "index" + std::to_string(i), b, true, "out of range");
    }
    const Case& be = valid[5];
    const std::size_t first = be.bytes.find("end_header\n") + 11;
    for (std::int16_t c : {0, 2, -1, 0x7fff}) {
      std::string b = be.bytes;
      b[first] = char((c >> 8) & 0xff);
      b[first + 1] = char(c & 0xff);
      add(be, "facecount" + std::to_string(c), b, true);
    }
    for (std::int16_t i : {4, -1, 0x7fff}) {
      std::string b = be.bytes;
      b[first + 2] = char((i >> 8) & 0xff);
      b[first + 3] = char(i & 0xff);
      add(be, "index" + std::to_string(i), b, true, "out of range");
    }
  }
  // OBJ face indices.
  for (const char* f :
       {"f 1 4 0", "f 1 4 9", "f 1 4 -9", "f 1 4 99999999999", "f 1 4", "f 1 4 x", "f 1 4 /3"}) {
    add(objSeed, std::string("face-") + f, replaced(objSeed.bytes, "f 1 4 3", f), true);
  }
  add(objSeed, "v2", replaced(objSeed.bytes, "v 4 0 0", "v 4 0"), true, "3 coordinates");
  add(objSeed, "v8", replaced(objSeed.bytes, "v 4 0 0", "v 4 0 0 1 1 1 1 1"), true, "unexpected");

  // 3. Non-finite and out-of-range coordinates.
  for (const char* x : {"nan", "NaN", "-nan", "inf", "-inf", "Infinity", "nan(0x1)"}) {
    add(ascii, std::string("x-") + x,
        replaced(ascii.bytes, "vertex 0.100000", std::string("vertex ") + x), true, "non-finite");
    add(objSeed, std::string("x-") + x, replaced(objSeed.bytes, "v 0.1", std::string("v ") + x),
        true, "non-finite");
    add(plyText, std::string("x-") + x,
        replaced(plyText.bytes, "\n0.100000", std::string("\n") + x), true, "non-finite");
  }
  for (const char* x : {"1e400", "-1e400", "0x1p3", "1,5", "--1", "+-1", "1e", "."}) {
    add(ascii, std::string("x-") + x,
        replaced(ascii.bytes, "vertex 0.100000", std::string("vertex ") + x), true);
    add(objSeed, std::string("x-") + x, replaced(objSeed.bytes, "v 0.1", std::string("v ") + x),
        true);
    add(plyText, std::string("x-") + x,
        replaced(plyText.bytes, "\n0.100000", std::string("\n") + x), true);
  }
  {
    const std::uint32_t bits[] = {0x7fc00000u, 0x7f800000u, 0xff800000u, 0x7f800001u};
    for (std::uint32_t v : bits) {
      std::string b = stl.bytes;
      for (int k = 0; k < 4; ++k) b[std::size_t(84 + 12 + 4 + k)] = char((v >> (8 * k)) & 0xff);
      add(stl, "y-" + std::to_string(v), b, true, "non-finite");
      std::string be = valid[5].bytes;
      const std::size_t vertex = be.find("end_header\n") + 11 + 4 * 8;
      for (int k = 0; k < 4; ++k) be[vertex + std::size_t(k)] = char((v >> (8 * (3 - k))) & 0xff);
      add(valid[5], "z-" + std::to_string(v), be, true, "non-finite");
    }
  }

  {
    std::string le = valid[4].bytes;  // +inf as the first vertex's y, a little-endian double
    const std::size_t data = le.find("end_header\n") + 11;
    for (int k = 0; k < 8; ++k)
      le[data + 8 + std::size_t(k)] = k < 6 ? '\0' : k == 6 ? char(0xf0) : char(0x7f);
    add(valid[4], "y-inf", le, true, "non-finite");
  }

  // 4. Random mutations: 1 to 3 edits of each seed, 450 mutants per seed.
  Random random(20261201);
  const char interesting[] = {'\n', ' ', '-',  '.',    'e',  '9', '0',
                              '/',  '#', '\0', '\xff', '\r', 'n'};
  for (const Case& s : valid) {
    for (int m = 0; m < 450; ++m) {
      std::string b = s.bytes;
      const std::size_t edits = 1 + random.below(3);
      std::string what;
      for (std::size_t e = 0; e < edits && !b.empty(); ++e) {
        const std::size_t at = random.below(b.size());
        switch (random.below(6)) {
          case 0:
            b[at] = char(b[at] ^ char(1 << random.below(8)));
            what += "f";
            break;
          case 1:
            b[at] = char(random.below(256));
            what += "r";
            break;
          case 2:
            b[at] = interesting[random.below(sizeof interesting)];
            what += "i";
            break;
          case 3:
            b.erase(at, 1 + random.below(8));
            what += "d";
            break;
          case 4:
            b.insert(at, b.substr(at, 1 + random.below(16)));
            what += "u";
            break;
          default:
            b.insert(at, std::string(1 + random.below(4), char(random.below(256))));
            what += "n";
            break;
        }
      }
      add(s, "mut" + std::to_string(m) + what, b, false);
    }
  }
  return out;
}

}  // namespace ricochet::testing::mesh_fuzz
