#pragma once
// A rigid body and the world of walls around it, as the user describes them: the "body" and
// "world" objects of a scenario (core/io/body_io.hpp reads and writes them). Plain data; the
// SE(3) code turns it into geometry, mass properties and planes (core/se3/rigid_body.hpp).
//
// A body is a tree: a primitive (ellipsoid, box, convex polyhedron, mesh file) or a union of
// bodies, each member placed by a position and a rotation vector in the union's frame. Lengths
// are metres. A mesh's content (its vertices, read from the file by core/io/mesh_reader.hpp)
// travels with it, shared and immutable, so copying a Scenario never copies vertices.

#include <Eigen/Core>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ricochet {

/// The content of a mesh file: its vertices, its faces (triangles, for drawing it) and its
/// objects or groups (OBJ "o"/"g"; STL and PLY have one), each a list of vertex indices whose
/// convex hull is one convex part of the body.
struct MeshData {
  std::vector<Eigen::Vector3d> points;         ///< m, as stored in the file
  std::vector<std::array<int, 3>> triangles;   ///< indices into points
  std::vector<std::vector<int>> groups;        ///< indices into points, one list per group
  std::vector<std::string> groupNames;         ///< same size as groups ("" when unnamed)
  std::string path;                            ///< the file that was read
  std::string md5;                             ///< hex MD5 of the file's bytes
  std::uintmax_t bytes = 0;                    ///< file size
  /// What the reader accepted but the user should know, one phrase each ("open (4 edges belong
  /// to one face only)"); the body is the hull of the points either way.
  std::vector<std::string> notes;
};

struct BodyNode {
  enum class Shape { Ellipsoid, Box, Polyhedron, Mesh, Union, Sphere };
  Shape shape = Shape::Box;
  /// Ellipsoid: semi-axes along the node's x, y, z; box: edge lengths; sphere: the radius in
  /// x (all three equal). m, > 0.
  Eigen::Vector3d size = Eigen::Vector3d::Ones();
  /// Rounding radius of a box, polyhedron or mesh (m, >= 0); unset: the parameter `epsilon`.
  std::optional<double> epsilon;
  /// Polyhedron: the points whose convex hull it is (m).
  std::vector<Eigen::Vector3d> vertices;
  /// Mesh: the file as the scenario names it, resolved against the scenario's folder, ...
  std::string file;
  /// ... the MD5 the scenario expects (empty: not checked) ...
  std::string md5;
  /// ... and the content read from it (null until read).
  std::shared_ptr<const MeshData> mesh;
  /// Union: the members.
  std::vector<BodyNode> parts;
  /// As a member of a union: position (m) and rotation vector (axis times angle, rad) of this
  /// node's frame in the union's frame.
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Vector3d rotation = Eigen::Vector3d::Zero();
};

/// One fixed plane: the admissible side is where `normal` points (need not be unit).
struct WallSpec {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();   ///< m
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
};

/// Vertical walls at x = cx +- Lx/2, y = cy +- Ly/2 and, when height > 0, a ceiling at z = height;
/// the ground plane is the floor.
struct BoxWorld {
  Eigen::Vector2d size = Eigen::Vector2d::Constant(10.0);  ///< Lx, Ly, m
  double height = 0.0;                                     ///< m; 0: open top
  Eigen::Vector2d center = Eigen::Vector2d::Zero();        ///< cx, cy, m
};

struct WorldSpec {
  std::optional<BoxWorld> box;
  std::vector<WallSpec> walls;  ///< further planes, after the box's
  bool empty() const { return !box && walls.empty(); }
};

/// One body of a world of several bodies (the `bodies` system): an entry of the scenario's
/// "bodies" list. Vectors are world frame unless said otherwise.
struct BodyEntry {
  std::string name;   ///< unique; letters, digits, '_' and '-' (not a reserved word)
  BodyNode body;      ///< its shape, as a single body's "body" object (plus spheres)
  double mass = 1.0;  ///< kg ("m"); unused when `density` is set or the body is fixed
  std::optional<double> density;  ///< kg/m^3: mass = density x volume
  bool fixed = false;             ///< an immovable obstacle (no mass, no velocity)
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  ///< centre of mass, m
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();  ///< of the centre of mass, m/s
  Eigen::Vector3d rotation = Eigen::Vector3d::Zero();  ///< attitude as a rotation vector, rad
  /// Body-frame angular momentum Pi (kg m^2/s), or the world angular velocity (rad/s): one of
  /// the two (angularVelocity set: it was given, and Pi follows from the inertia).
  Eigen::Vector3d angularMomentum = Eigen::Vector3d::Zero();
  std::optional<Eigen::Vector3d> angularVelocity;
};

/// The restitution of one pair of names ("A|B" or "A|PLANE", unordered).
struct PairRestitution {
  std::string first, second;
  double e = 1.0;
};

/// The "body" and "world" of a scenario; for the `bodies` system its "bodies" list, whether the
/// world has a ground, and the pairs' coefficients of restitution.
struct BodyScenario {
  BodyNode body;
  /// kg/m^3; set: the mass is density times volume, and the parameter `m` is not used.
  std::optional<double> density;
  WorldSpec world;
  std::vector<BodyEntry> bodies;  ///< `bodies` system only
  bool ground = true;             ///< `bodies` system: false removes the ground plane
  std::vector<PairRestitution> restitution;  ///< `bodies` system: per-pair coefficients
};

/// Most bodies a `bodies` world may have.
inline constexpr int kMaxBodies = 10000;

/// Largest number of planes a "world" may add to the ground (box walls and listed walls).
inline constexpr int kMaxWorldPlanes = 32;

/// True when a and b describe the same body and world (numbers bitwise, same files and hashes).
bool sameBody(const BodyScenario& a, const BodyScenario& b);
/// The same for two optional bodies (both null, or both set and equal).
bool sameBody(const std::shared_ptr<const BodyScenario>& a,
              const std::shared_ptr<const BodyScenario>& b);

/// "ellipsoid", "box", "polyhedron", "mesh", "union".
const char* shapeName(BodyNode::Shape shape);

}  // namespace ricochet
