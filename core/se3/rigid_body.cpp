#include "core/se3/rigid_body.hpp"

#include "core/model/parameter.hpp"
#include "core/se3/mass_properties.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <set>

namespace ricochet::se3 {

namespace {

/// A rigid placement of a node's frame in the body's description frame.
struct Placement {
  Mat3 Q = Mat3::Identity();
  Vec3 t = Vec3::Zero();
  bool identity = true;  ///< no transform at all: points are used exactly as given
  Vec3 apply(const Vec3& p) const { return identity ? p : Vec3(Q * p + t); }
};

std::string vec(const Vec3& v) {
  std::string s(1, '(');  // appended piece by piece: GCC 12 warns on "(" + string (-Wrestrict)
  s += formatNumber(v.x());
  s += ", ";
  s += formatNumber(v.y());
  s += ", ";
  s += formatNumber(v.z());
  s += ')';
  return s;
}

class Builder {
 public:
  Builder(BuiltBody& out, double defaultEpsilon) : out_(out), defaultEpsilon_(defaultEpsilon) {}

  bool node(const BodyNode& n, const Placement& at, const std::string& where) {
    switch (n.shape) {
      case BodyNode::Shape::Sphere: {
        // One point rounded by the radius: a ball, whose support point is its centre minus r u.
        const double r = n.size.x();
        if (!(r > 0.0) || !std::isfinite(r)) {
          return fail(where + ": sphere radius = " + formatNumber(r) + " m must be > 0");
        }
        PolyhedronPart part;
        part.vertices = {at.t};
        part.epsilon = r;
        out_.shape.polyhedra.push_back(std::move(part));
        out_.hulls.push_back({{at.t}, {}, r});
        moments_ += moved(ellipsoidMoments(Vec3::Constant(r)), Mat3::Identity(), at.t);
        out_.inputVertices += 1;
        out_.hullVertices += 1;
        return true;
      }
      case BodyNode::Shape::Ellipsoid: {
        for (int k = 0; k < 3; ++k) {
          if (!(n.size[k] > 0.0) || !std::isfinite(n.size[k])) {
            return fail(where + ": ellipsoid semi-axis " + std::string(1, "xyz"[k]) + " = " +
                        formatNumber(n.size[k]) + " m must be > 0");
          }
        }
        out_.shape.ellipsoids.push_back(makeEllipsoid(at.t, n.size, at.Q));
        out_.ellipsoids.push_back({at.t, n.size, at.Q});
        moments_ += moved(ellipsoidMoments(n.size), at.Q, at.t);
        ++ellipsoidCount_;
        return true;
      }
      case BodyNode::Shape::Box: {
        for (int k = 0; k < 3; ++k) {
          if (!(n.size[k] > 0.0) || !std::isfinite(n.size[k])) {
            return fail(where + ": box size " + std::string(1, "xyz"[k]) + " = " +
                        formatNumber(n.size[k]) + " m must be > 0");
          }
        }
        const PolyhedronPart corners = makeBox(Vec3::Zero(), 0.5 * n.size, 0.0);
        return hull(corners.vertices, n, at, where, "box");
      }
      case BodyNode::Shape::Polyhedron:
        return hull(n.vertices, n, at, where, "polyhedron");
      case BodyNode::Shape::Mesh: {
        if (!n.mesh) return fail(where + ": the mesh file '" + n.file + "' has not been read");
        const MeshData& mesh = *n.mesh;
        const std::string name = "'" + n.file + "'";
        if (mesh.groups.empty()) return fail(where + ": mesh " + name + " has no vertices");
        bool convex = true;  // every group is its own hull
        for (std::size_t g = 0; g < mesh.groups.size(); ++g) {
          std::vector<Vec3> points;
          for (int i : mesh.groups[g]) points.push_back(mesh.points[std::size_t(i)]);
          std::string part = where + ": mesh " + name;
          if (mesh.groups.size() > 1) {
            part += ", group " + std::to_string(g + 1);
            if (!mesh.groupNames[g].empty()) part += " ('" + mesh.groupNames[g] + "')";
          }
          const std::size_t before = out_.hulls.size();
          if (!hull(points, n, at, part, "mesh")) return false;
          // The surface is its hull when every distinct point is a hull vertex.
          const std::set<std::array<double, 3>> distinct = [&] {
            std::set<std::array<double, 3>> d;
            for (const Vec3& p : points) d.insert({p.x(), p.y(), p.z()});
            return d;
          }();
          convex = convex && out_.hulls[before].vertices.size() == distinct.size();
        }
        if (!convex && !mesh.triangles.empty()) {
          BuiltBody::Surface s;
          for (const Vec3& p : mesh.points) s.points.push_back(at.apply(p));
          s.triangles = mesh.triangles;
          out_.originals.push_back(std::move(s));
        }
        return true;
      }
      case BodyNode::Shape::Union: {
        if (n.parts.empty()) return fail(where + ": a union needs at least one part");
        for (std::size_t i = 0; i < n.parts.size(); ++i) {
          const BodyNode& p = n.parts[i];
          if (!p.position.allFinite() || !p.rotation.allFinite()) {
            return fail(where + ".parts[" + std::to_string(i) + "]: position " + vec(p.position) +
                        " and rotation " + vec(p.rotation) + " must be finite");
          }
          Placement child;
          child.identity = false;
          child.Q = at.Q * expSO3(p.rotation);
          child.t = at.t + at.Q * p.position;
          if (!node(p, child, where + ".parts[" + std::to_string(i) + "]")) return false;
        }
        return true;
      }
    }
    return fail(where + ": unknown shape");
  }

  bool hull(const std::vector<Vec3>& given, const BodyNode& n, const Placement& at,
            const std::string& where, const char* kind) {
    const double epsilon = n.epsilon.value_or(defaultEpsilon_);
    if (!std::isfinite(epsilon) || epsilon < 0.0) {
      return fail(where + ": epsilon = " + formatNumber(epsilon) + " m must be >= 0");
    }
    std::vector<Vec3> points;
    points.reserve(given.size());
    for (const Vec3& p : given) points.push_back(at.apply(p));
    out_.inputVertices += int(given.size());
    ConvexHull h = convexHull(points);
    if (!h.ok()) return fail(where + ": the " + std::string(kind) + " " + h.error);
    moments_ += roundedHullMoments(h, epsilon);
    out_.hullVertices += int(h.vertices.size());
    PolyhedronPart part;
    part.vertices = h.vertices;
    part.epsilon = epsilon;
    out_.shape.polyhedra.push_back(std::move(part));
    out_.hulls.push_back({std::move(h.vertices), std::move(h.triangles), epsilon});
    return true;
  }

  bool fail(std::string message) {
    if (out_.error.empty()) out_.error = std::move(message);
    return false;
  }

  const Moments& moments() const { return moments_; }
  int ellipsoidCount() const { return ellipsoidCount_; }

 private:
  BuiltBody& out_;
  double defaultEpsilon_;
  Moments moments_;
  int ellipsoidCount_ = 0;
};

}  // namespace

BuiltBody buildBody(const BodyScenario& description, double defaultEpsilon, double mass) {
  BuiltBody out;
  Builder b(out, defaultEpsilon);
  if (!b.node(description.body, Placement{}, "body")) return out;
  const Moments& m = b.moments();
  if (!(m.volume > 0.0) || !std::isfinite(m.volume)) {
    out.error = "body: its volume " + formatNumber(m.volume) + " m^3 is not > 0";
    return out;
  }
  out.volume = m.volume;
  out.mass = description.density ? *description.density * m.volume : mass;
  if (!(out.mass > 0.0) || !std::isfinite(out.mass)) {
    out.error = description.density
                    ? "body: density " + formatNumber(*description.density) + " kg/m^3 gives mass " +
                          formatNumber(out.mass) + " kg, which must be > 0"
                    : "body: mass m = " + formatNumber(out.mass) + " kg must be > 0";
    return out;
  }

  // A lone ellipsoid at the origin keeps the closed form of paper 003 (the same digits as
  // ellipsoid-plane); everything else comes from the moments.
  // So does a lone box whose rounding is negligible (below 1e-12 of its size): paper 003's cube,
  // J = m s^2/6 with the rounding ignored, in the same digits as cube-plane (for a cube the sum
  // below doubles m s^2 exactly, and /12 then rounds as /6 does). Its trajectory is chaotic, so
  // even a change in the last bit of J separates the runs within a few impacts.
  const BodyNode& top = description.body;
  const Vec3& s = top.size;
  const bool sharpBox = top.shape == BodyNode::Shape::Box &&
                        top.epsilon.value_or(defaultEpsilon) <= 1e-12 * s.minCoeff();
  if (top.shape == BodyNode::Shape::Ellipsoid) {
    const double a = top.size.x(), bb = top.size.y(), c = top.size.z();
    out.J = (out.mass / 5.0) * Vec3(bb * bb + c * c, a * a + c * c, a * a + bb * bb).asDiagonal();
  } else if (sharpBox) {
    const double m = out.mass;
    out.J = Vec3((m * s.y() * s.y() + m * s.z() * s.z()) / 12.0, (m * s.x() * s.x() + m * s.z() * s.z()) / 12.0,
                 (m * s.x() * s.x() + m * s.y() * s.y()) / 12.0)
                .asDiagonal();
  } else {
    const MassProperties mp = massPropertiesOf(m, out.mass);
    out.centreOfMass = mp.centroid;
    out.J = mp.J;
  }
  if (!out.J.allFinite() || !out.centreOfMass.allFinite()) {
    out.error = "body: its inertia is not finite (a body too large or too small for doubles)";
    return out;
  }

  // Re-centre every part (and what is drawn) on the centre of mass.
  const Vec3 c = out.centreOfMass;
  if (c != Vec3::Zero()) {
    for (EllipsoidPart& e : out.shape.ellipsoids) e.centre -= c;
    for (BuiltBody::Ellipsoid& e : out.ellipsoids) e.centre -= c;
    for (PolyhedronPart& p : out.shape.polyhedra) {
      for (Vec3& v : p.vertices) v -= c;
    }
    for (BuiltBody::Hull& h : out.hulls) {
      for (Vec3& v : h.vertices) v -= c;
    }
    for (BuiltBody::Surface& s : out.originals) {
      for (Vec3& v : s.points) v -= c;
    }
  }
  for (std::size_t i = 0; i < out.shape.polyhedra.size(); ++i) {
    PolyhedronPart& p = out.shape.polyhedra[i];
    if (p.vertices.size() > kClimbAboveVertices) attachSupportGraph(p, out.hulls[i].triangles);
    for (const Vec3& v : p.vertices) out.reach = std::max(out.reach, v.norm() + p.epsilon);
  }
  for (const BuiltBody::Ellipsoid& e : out.ellipsoids) {
    out.reach = std::max(out.reach, e.centre.norm() + e.semiAxes.maxCoeff());
  }

  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(0.5 * (out.J + out.J.transpose()));
  out.principalMoments = eigen.eigenvalues();
  out.principalAxes = eigen.eigenvectors();
  if (!(out.principalMoments.minCoeff() > 0.0)) {
    out.error = "body: its inertia has a principal moment " +
                formatNumber(out.principalMoments.minCoeff()) + " kg m^2 that is not > 0";
    return out;
  }
  if (std::string e = validate(out.shape); !e.empty()) out.error = "body: " + e;
  return out;
}

}  // namespace ricochet::se3
