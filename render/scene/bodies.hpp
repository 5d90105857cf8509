#pragma once
// The moving bodies of a scene (internal to render/scene/): one solid actor per body part, with
// feature edges on sharp-edged solids and body axes where asked, all moved through one matrix per
// part. Also what the other layers (and the ParaView series) need to know of a body's shape: its
// surface, whether it can be drawn and how far it reaches.

#include "render/scene/scene_support.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ricochet::render::detail {

/// The shape's surface in its own frame, with normals (scene_geometry.hpp); `shape` must be
/// drawable (shapeProblem() empty).
vtkSmartPointer<vtkPolyData> shapeGeometry(const Shape& shape);
/// Half-extents (m) of the shape's bounding box in its own frame.
Eigen::Vector3d shapeExtent(const Shape& shape);
/// Empty when the shape can be drawn; else what is wrong with which value.
std::string shapeProblem(const Shape& shape);
/// The part can be drawn: a valid shape at a finite offset.
bool drawable(const BodyPart& part);
/// How far (m) the body's drawable parts reach from its origin; 0 when none can be drawn.
double bodyReach(const BodySpec& body);

class Bodies {
 public:
  /// Forgets every body (their actors leave with the scene's PropList).
  void clear() { bodies_.clear(); }
  /// Adds the actors of `body` (the scene's body number `index`) at its parts' offsets; parts
  /// that cannot be drawn are left out and named in `problems`. `L` is the scene's length (m).
  void build(const BodySpec& body, int index, double L, PropList& props, Problems& problems);
  /// Bodies built, drawable parts or not.
  std::size_t size() const { return bodies_.size(); }
  /// Moves body `b` (< size()) to `pose` (finite).
  void place(std::size_t b, const Pose& pose);
  /// Where body `b` is drawn, read back from its first drawn part's actor matrix (that matrix
  /// times the inverse of the part's offset); nullopt when it has no drawn part.
  std::optional<Pose> pose(std::size_t b) const;

 private:
  struct Part {
    Eigen::Matrix4d offset;
    vtkSmartPointer<vtkMatrix4x4> matrix;  // shared by the part's surface, edge and axes actors
  };
  std::vector<std::vector<Part>> bodies_;
};

}  // namespace ricochet::render::detail
