#include "core/model/body_description.hpp"

#include <bit>

namespace ricochet {

namespace {

bool same(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

template <int N>
bool same(const Eigen::Matrix<double, N, 1>& a, const Eigen::Matrix<double, N, 1>& b) {
  for (int i = 0; i < N; ++i) {
    if (!same(a[i], b[i])) return false;
  }
  return true;
}

bool same(const std::optional<double>& a, const std::optional<double>& b) {
  return a.has_value() == b.has_value() && (!a || same(*a, *b));
}

bool sameNode(const BodyNode& a, const BodyNode& b) {
  if (a.shape != b.shape || !same(a.size, b.size) || !same(a.epsilon, b.epsilon) ||
      !same(a.position, b.position) || !same(a.rotation, b.rotation) || a.file != b.file ||
      a.md5 != b.md5 || a.vertices.size() != b.vertices.size() || a.parts.size() != b.parts.size()) {
    return false;
  }
  // Two reads of one file are the same content when their hashes agree.
  const std::string ma = a.mesh ? a.mesh->md5 : std::string(), mb = b.mesh ? b.mesh->md5 : std::string();
  if (ma != mb) return false;
  for (std::size_t i = 0; i < a.vertices.size(); ++i) {
    if (!same(a.vertices[i], b.vertices[i])) return false;
  }
  for (std::size_t i = 0; i < a.parts.size(); ++i) {
    if (!sameNode(a.parts[i], b.parts[i])) return false;
  }
  return true;
}

bool sameWorld(const WorldSpec& a, const WorldSpec& b) {
  if (a.box.has_value() != b.box.has_value() || a.walls.size() != b.walls.size()) return false;
  if (a.box && (!same(a.box->size, b.box->size) || !same(a.box->height, b.box->height) ||
                !same(a.box->center, b.box->center))) {
    return false;
  }
  for (std::size_t i = 0; i < a.walls.size(); ++i) {
    if (!same(a.walls[i].point, b.walls[i].point) || !same(a.walls[i].normal, b.walls[i].normal)) {
      return false;
    }
  }
  return true;
}

bool sameEntry(const BodyEntry& a, const BodyEntry& b) {
  return a.name == b.name && sameNode(a.body, b.body) && same(a.mass, b.mass) &&
         same(a.density, b.density) && a.fixed == b.fixed && same(a.position, b.position) &&
         same(a.velocity, b.velocity) && same(a.rotation, b.rotation) &&
         same(a.angularMomentum, b.angularMomentum) &&
         a.angularVelocity.has_value() == b.angularVelocity.has_value() &&
         (!a.angularVelocity || same(*a.angularVelocity, *b.angularVelocity));
}

}  // namespace

bool sameBody(const BodyScenario& a, const BodyScenario& b) {
  if (!sameNode(a.body, b.body) || !same(a.density, b.density) || !sameWorld(a.world, b.world) ||
      a.ground != b.ground || a.bodies.size() != b.bodies.size() ||
      a.restitution.size() != b.restitution.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    if (!sameEntry(a.bodies[i], b.bodies[i])) return false;
  }
  for (std::size_t i = 0; i < a.restitution.size(); ++i) {
    const PairRestitution &p = a.restitution[i], &q = b.restitution[i];
    if (p.first != q.first || p.second != q.second || !same(p.e, q.e)) return false;
  }
  return true;
}

bool sameBody(const std::shared_ptr<const BodyScenario>& a,
              const std::shared_ptr<const BodyScenario>& b) {
  if (!a || !b) return !a && !b;
  return a == b || sameBody(*a, *b);
}

const char* shapeName(BodyNode::Shape shape) {
  switch (shape) {
    case BodyNode::Shape::Ellipsoid: return "ellipsoid";
    case BodyNode::Shape::Box: return "box";
    case BodyNode::Shape::Polyhedron: return "polyhedron";
    case BodyNode::Shape::Mesh: return "mesh";
    case BodyNode::Shape::Union: return "union";
    case BodyNode::Shape::Sphere: return "sphere";
  }
  return "unknown";
}

}  // namespace ricochet
