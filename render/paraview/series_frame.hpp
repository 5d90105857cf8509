#pragma once
// One frame of a ParaView series as polygons (internal to render/paraview/): the scene's bodies at
// their poses, its obstacles, the tracked body's trail and the impact points, in world
// coordinates (m), in one vtkPolyData:
//
//   cells, in vtkPolyData's order: vertices (impact points), one polyline (the trail), polygons
//   (bodies, then obstacles)
//   cell data   kind    0 body, 1 obstacle, 2 trail, 3 impact
//               object  the body's or the obstacle's number in the scene, the tracked body's for
//               the
//                       trail, the impact's row in the impacts table
//   point data  Normals surface normals (zero on the trail and impact points)
//               impulse the impact's impulse at an impact point, 0 elsewhere
//
// The geometry of each shape and obstacle is scene/'s (scene_geometry.hpp), built once; a frame
// only moves it. Plane obstacles are square patches (as large as the live view draws them) that
// follow the tracked body in steps of a fifth of their size, so a run that travels far keeps its
// floor.

#include "core/model/scene.hpp"

#include <Eigen/Core>

#include <vtkSmartPointer.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

class vtkPolyData;

namespace ricochet::render::paraview {

enum class FrameKind : int { Body = 0, Obstacle = 1, Trail = 2, Impact = 3 };

struct FrameImpact {
  Eigen::Vector3d point;  ///< world, m (finite)
  double impulse = 0.0;   ///< N s
  std::int64_t row = 0;   ///< row in the impacts table (0-based)
};

class FrameBuilder {
 public:
  /// Prepares the geometry of `scene`; parts and obstacles that cannot be drawn are left out
  /// and named in problems().
  explicit FrameBuilder(const SceneSpec& scene);
  ~FrameBuilder();
  FrameBuilder(const FrameBuilder&) = delete;
  FrameBuilder& operator=(const FrameBuilder&) = delete;

  /// The frame for these body poses (one per scene body), the trail (world points, oldest
  /// first) and the impacts since the previous frame.
  vtkSmartPointer<vtkPolyData> build(std::span<const Pose> poses,
                                     std::span<const Eigen::Vector3d> trail,
                                     std::span<const FrameImpact> impacts) const;
  const std::string& problems() const { return problems_; }
  int trackedBody() const { return tracked_; }

 private:
  struct Piece {
    vtkSmartPointer<vtkPolyData> geometry;  // in its own frame
    Eigen::Matrix4d offset;                 // body from part (bodies), world from piece (obstacles)
    int object = 0;
    FrameKind kind = FrameKind::Body;
    int body = -1;  // the body it moves with; -1: fixed in the world
  };
  struct Patch {            // a plane obstacle that follows the tracked body
    Eigen::Matrix4d frame;  // columns: in-plane a, in-plane b, normal, a point on the plane
    double half = 1.0;      // m
    bool follow = true;
    int object = 0;
  };
  std::vector<Piece> pieces_;
  std::vector<Patch> patches_;
  int tracked_ = 0;
  std::string problems_;
};

}  // namespace ricochet::render::paraview
