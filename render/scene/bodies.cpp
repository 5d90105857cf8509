#include "render/scene/bodies.hpp"

#include "render/scene/hull_geometry.hpp"
#include "render/scene/scene_geometry.hpp"

#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>

#include <Eigen/LU>

#include <algorithm>
#include <cmath>

namespace ricochet::render::detail {
namespace {

// Solid look for bodies: soft ambient, clear diffuse shading, a restrained highlight.
void bodyMaterial(vtkProperty* p, const Eigen::Vector3d& c) {
  p->SetColor(c.x(), c.y(), c.z());
  // Two lights only (lighting.cpp): a face turned from the key light and seen edge-on (the head
  // light grazes it) gets the ambient term alone. At 22 % such a face, or a rounded edge on the
  // side away from the key light, read as a black sliver along the body's outline; at 34 % it
  // reads as shade. (Diffuse 0.75 keeps lit faces as bright as before, short of white.)
  p->SetAmbient(0.34);
  p->SetDiffuse(0.75);
  p->SetSpecular(0.35);
  p->SetSpecularPower(40.0);
  p->SetSpecularColor(1.0, 1.0, 1.0);
  p->SetInterpolationToPhong();
}

}  // namespace

vtkSmartPointer<vtkPolyData> shapeGeometry(const Shape& shape) {
  struct V {
    vtkSmartPointer<vtkPolyData> operator()(const SphereShape& s) const { return geometry::sphere(s.radius); }
    vtkSmartPointer<vtkPolyData> operator()(const EllipsoidShape& s) const {
      return geometry::ellipsoid(s.semiAxes);
    }
    vtkSmartPointer<vtkPolyData> operator()(const PrismShape& s) const {
      return geometry::prism(s.outline, s.depth);
    }
    vtkSmartPointer<vtkPolyData> operator()(const BoxShape& s) const {
      return geometry::box(s.halfExtents, s.cornerRadius);
    }
    vtkSmartPointer<vtkPolyData> operator()(const CylinderShape& s) const {
      return geometry::cylinder(s.radius, s.length);
    }
    vtkSmartPointer<vtkPolyData> operator()(const HullShape& s) const {
      return geometry::roundedHull(s.vertices, s.triangles, s.roundingRadius);
    }
    vtkSmartPointer<vtkPolyData> operator()(const SurfaceShape& s) const {
      return geometry::surface(s.points, s.triangles);
    }
  };
  return std::visit(V{}, shape);
}

namespace {

/// Empty when every point is finite and every triangle indexes a point.
std::string trianglesProblem(const char* what, const std::vector<Eigen::Vector3d>& points,
                             const std::vector<std::array<int, 3>>& triangles) {
  for (const Eigen::Vector3d& p : points) {
    if (!p.allFinite()) return std::string(what) + " has a non-finite point";
  }
  for (const auto& t : triangles) {
    for (int k : t) {
      if (k < 0 || std::size_t(k) >= points.size()) {
        return std::string(what) + " has a triangle with point index " + std::to_string(k) + " of " +
               std::to_string(points.size());
      }
    }
  }
  return "";
}

}  // namespace

Eigen::Vector3d shapeExtent(const Shape& shape) {
  struct V {
    Eigen::Vector3d operator()(const SphereShape& s) const { return Eigen::Vector3d::Constant(s.radius); }
    Eigen::Vector3d operator()(const EllipsoidShape& s) const { return s.semiAxes; }
    Eigen::Vector3d operator()(const PrismShape& s) const {
      Eigen::Vector3d e(0.0, 0.0, 0.5 * s.depth);
      for (const auto& p : s.outline) e.head<2>() = e.head<2>().cwiseMax(p.cwiseAbs());
      return e;
    }
    Eigen::Vector3d operator()(const BoxShape& s) const { return s.halfExtents; }
    Eigen::Vector3d operator()(const CylinderShape& s) const {
      return {s.radius, s.radius, 0.5 * s.length};
    }
    Eigen::Vector3d operator()(const HullShape& s) const {
      Eigen::Vector3d e = Eigen::Vector3d::Zero();
      for (const Eigen::Vector3d& v : s.vertices) e = e.cwiseMax(v.cwiseAbs());
      return e + Eigen::Vector3d::Constant(s.roundingRadius);
    }
    Eigen::Vector3d operator()(const SurfaceShape& s) const {
      Eigen::Vector3d e = Eigen::Vector3d::Zero();
      for (const Eigen::Vector3d& p : s.points) e = e.cwiseMax(p.cwiseAbs());
      return e;
    }
  };
  return std::visit(V{}, shape);
}

std::string shapeProblem(const Shape& shape) {
  struct V {
    std::string operator()(const SphereShape& s) const {
      return positive(s.radius) ? "" : "sphere radius = " + num(s.radius) + " m is not > 0";
    }
    std::string operator()(const EllipsoidShape& s) const {
      for (int k = 0; k < 3; ++k) {
        if (!positive(s.semiAxes[k])) {
          return "ellipsoid semi-axis " + std::string(1, "xyz"[k]) + " = " + num(s.semiAxes[k]) +
                 " m is not > 0";
        }
      }
      return "";
    }
    std::string operator()(const PrismShape& s) const {
      if (!positive(s.depth)) return "prism depth = " + num(s.depth) + " m is not > 0";
      if (s.outline.size() < 3) {
        return "prism outline has " + std::to_string(s.outline.size()) + " points, needs >= 3";
      }
      for (const auto& p : s.outline) {
        if (!p.allFinite()) return "prism outline has a non-finite point";
      }
      if (geometry::triangulate(s.outline).empty()) return "prism outline has zero area";
      return "";
    }
    std::string operator()(const BoxShape& s) const {
      for (int k = 0; k < 3; ++k) {
        if (!positive(s.halfExtents[k])) {
          return "box half-extent " + std::string(1, "xyz"[k]) + " = " + num(s.halfExtents[k]) +
                 " m is not > 0";
        }
      }
      if (!std::isfinite(s.cornerRadius) || s.cornerRadius < 0.0) {
        return "box corner radius = " + num(s.cornerRadius) + " m is not >= 0";
      }
      return "";
    }
    std::string operator()(const CylinderShape& s) const {
      if (!positive(s.radius)) return "cylinder radius = " + num(s.radius) + " m is not > 0";
      if (!positive(s.length)) return "cylinder length = " + num(s.length) + " m is not > 0";
      return "";
    }
    std::string operator()(const HullShape& s) const {
      if (s.vertices.size() < 4 || s.triangles.size() < 4) {
        return "hull has " + std::to_string(s.vertices.size()) + " vertices and " +
               std::to_string(s.triangles.size()) + " triangles, needs >= 4 of each";
      }
      if (!std::isfinite(s.roundingRadius) || s.roundingRadius < 0.0) {
        return "hull rounding radius = " + num(s.roundingRadius) + " m is not >= 0";
      }
      return trianglesProblem("hull", s.vertices, s.triangles);
    }
    std::string operator()(const SurfaceShape& s) const {
      if (s.triangles.empty()) return "surface has no triangles";
      return trianglesProblem("surface", s.points, s.triangles);
    }
  };
  return std::visit(V{}, shape);
}

bool drawable(const BodyPart& part) { return shapeProblem(part.shape).empty() && validPose(part.offset); }

double bodyReach(const BodySpec& body) {
  double reach = 0.0;
  for (const BodyPart& part : body.parts) {
    if (!drawable(part)) continue;
    reach = std::max(reach, part.offset.position.norm() + shapeExtent(part.shape).maxCoeff());
  }
  return reach;
}

void Bodies::build(const BodySpec& body, int index, double L, PropList& props, Problems& problems) {
  std::vector<Part> parts;
  for (std::size_t k = 0; k < body.parts.size(); ++k) {
    const BodyPart& part = body.parts[k];
    const std::string problem = shapeProblem(part.shape);
    const std::string who = "body '" + (body.name.empty() ? std::to_string(index) : body.name) +
                            "' part " + std::to_string(k) + ": ";
    if (!problem.empty()) {
      problems.note(who + problem + " (not drawn)");
      continue;
    }
    if (!validPose(part.offset)) {
      problems.note(who + "offset pose is not finite (not drawn)");
      continue;
    }
    Part p{toMatrix(part.offset), vtkSmartPointer<vtkMatrix4x4>::New()};
    const Eigen::Vector3d color = rgb(part.color);
    vtkSmartPointer<vtkActor> surface = makeActor(shapeGeometry(part.shape));
    bodyMaterial(surface->GetProperty(), color);
    const bool faint = part.opacity < 1.0f;
    if (faint) {
      // A faint surface drawn over a solid (the original mesh over its hull): see-through, both
      // sides (it need not be closed), no highlight.
      surface->GetProperty()->SetOpacity(std::max(0.05, double(part.opacity)));
      surface->GetProperty()->SetSpecular(0.0);
    } else {
      // Every body is a closed, opaque solid with outward faces under a rigid motion: from
      // outside its back faces are always hidden by its front ones, so they are culled instead
      // of being shaded and depth-tested (under llvmpipe the ellipsoid's back half cost ~2.5 ms
      // a frame).
      surface->GetProperty()->BackfaceCullingOn();
    }
    surface->SetUserMatrix(p.matrix);
    props.add(surface);
    // Sharp-edged solids get their feature edges drawn darker: flat faces of one colour
    // otherwise merge into a silhouette (the planar star faces the camera exactly).
    vtkSmartPointer<vtkPolyData> edgeData;
    if (const auto* prism = std::get_if<PrismShape>(&part.shape)) {
      edgeData = geometry::prismEdges(prism->outline, prism->depth);
    } else if (const auto* box = std::get_if<BoxShape>(&part.shape)) {
      if (!(box->cornerRadius > 1e-3 * box->halfExtents.minCoeff())) {
        edgeData = geometry::boxEdges(box->halfExtents);
      }
    } else if (const auto* hull = std::get_if<HullShape>(&part.shape)) {
      if (!(hull->roundingRadius > 1e-3 * shapeExtent(part.shape).minCoeff())) {
        edgeData = geometry::hullEdges(hull->vertices, hull->triangles);
      }
    }
    if (edgeData) {
      vtkSmartPointer<vtkActor> edges = makeActor(edgeData);
      lineMaterial(edges->GetProperty(), 0.55 * color, 2.0);
      if (faint) edges->GetProperty()->SetOpacity(std::max(0.05, double(part.opacity)));
      edges->SetUserMatrix(p.matrix);
      props.add(edges);
    }
    if (part.showAxes) {
      const Eigen::Vector3d e = shapeExtent(part.shape);
      // Lines poke 35% out of the body; a flat prism carries them on its front face.
      Eigen::Vector3d origin = Eigen::Vector3d::Zero();
      Eigen::Vector3d lengths = 1.35 * e;
      if (std::holds_alternative<PrismShape>(part.shape)) {
        origin.z() = e.z() + 1e-3 * L;
        lengths.z() = 0.0;
      }
      vtkSmartPointer<vtkActor> axes = makeActor(geometry::axesMarkers(origin, lengths));
      axes->GetMapper()->ScalarVisibilityOn();
      static_cast<vtkPolyDataMapper*>(axes->GetMapper())->SetScalarModeToUseCellData();
      lineMaterial(axes->GetProperty(), Eigen::Vector3d::Zero(), 3.0);
      axes->SetUserMatrix(p.matrix);
      props.add(axes);
    }
    setMatrix(p.matrix, p.offset);  // body frame = world until the first setPoses
    parts.push_back(std::move(p));
  }
  bodies_.push_back(std::move(parts));
}

void Bodies::place(std::size_t b, const Pose& pose) {
  const Eigen::Matrix4d body = toMatrix(pose);
  for (Part& part : bodies_[b]) setMatrix(part.matrix, body * part.offset);
}

std::optional<Pose> Bodies::pose(std::size_t b) const {
  if (b >= bodies_.size() || bodies_[b].empty()) return std::nullopt;
  const Part& part = bodies_[b].front();
  Eigen::Matrix4d drawn;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) drawn(i, j) = part.matrix->GetElement(i, j);
  }
  const Eigen::Matrix4d body = drawn * part.offset.inverse();
  Pose p;
  p.position = body.block<3, 1>(0, 3);
  p.rotation = body.block<3, 3>(0, 0);
  return p;
}

}  // namespace ricochet::render::detail
