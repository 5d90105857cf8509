#pragma once
// The still world of a scene (internal to render/scene/): ground planes (floors and walls with
// their grids, the planar view's hatched ground and graph-paper backdrop), cylinder walls and
// table discs. Plane patches follow the tracked body so that they never run out, and fade out
// towards their edge so that they read as unbounded planes.

#include "render/scene/scene_support.hpp"

#include <array>
#include <vector>

class vtkUnsignedCharArray;

namespace ricochet::render::detail {

/// Largest half-size (in scene lengths L) a plane patch is drawn with, here and in the ParaView
/// series.
inline constexpr double kMaxPlanePatch = 25.0;

class Ground {
 public:
  /// A floor-like surface (normal within ~70 degrees of up) that bodies cast shadows on.
  struct Floor {
    Eigen::Vector3d point, normal;
    Eigen::Matrix4d frame;
    double lift;  // in L: the shadow's height above this surface
  };

  /// Forgets every patch and floor (their actors leave with the scene's PropList).
  void clear();
  /// Adds, back to front, the planar backdrop and then each obstacle of `scene` in its order.
  /// `L` is the scene's length (m), `up` its up direction and `frontZ` (planar scenes) a z in
  /// front of every body. Obstacles that cannot be drawn are left out and named in `problems`.
  void build(const SceneSpec& scene, double L, const Eigen::Vector3d& up, double frontZ,
             PropList& props, Problems& problems);
  /// Recentres the following patches under the tracked body at `tracked` and fades them around it.
  void recentre(const Eigen::Vector3d& tracked);
  /// Grows the floors that follow the body so that they reach well past what a camera at
  /// `distance` (m) from the body sees: a small body thrown high (the camera backs off to frame
  /// the motion) stands on a ground that fills the view, not on a small disc of a few of its own
  /// sizes. Floors only grow (by doubling, so rarely); a new scene starts from build()'s size.
  /// Call recentre() after it.
  void fitView(double distance);
  const std::vector<Floor>& floors() const { return floors_; }

 private:
  // Something drawn on a plane (patch, grid, hatch). With `snap` > 0 it recentres under the
  // tracked body in steps of `snap` along the in-plane axes of `frame`, so its pattern stays
  // fixed in the world while the patch never runs out. Its per-vertex alpha fades it out with
  // distance from the body's foot point (exactly, not snapped), so the patch has no hard edge
  // and reads as an unbounded plane.
  struct Follower {
    Eigen::Matrix4d frame;  // columns: in-plane a, in-plane b, normal, origin
    bool alongB = true;     // planar ground: only along a
    double snap = 0.0;
    double half = 1.0;      // m, the patch half-size the fade is scaled to
    vtkSmartPointer<vtkMatrix4x4> matrix;
    vtkSmartPointer<vtkPolyData> data;
    vtkSmartPointer<vtkUnsignedCharArray> rgba;
    std::array<unsigned char, 3> color{0, 0, 0};
    double alpha = 1.0;
    Eigen::Vector3d shift = Eigen::Vector3d::Zero();  // current recentring offset, world
  };

  struct Build;  // what build() works with, and how it builds each kind of thing

  static void fade(Follower& f, const Eigen::Vector3d& centre);

  // A floor patch with its two grids (three followers from `first`), its size and what its grid
  // step follows.
  struct GrowingFloor {
    std::size_t first = 0;
    double half = 0.0;  // m
    double L = 1.0;     // m
  };

  std::vector<Follower> followers_;
  std::vector<GrowingFloor> growing_;
  std::vector<Floor> floors_;
};

}  // namespace ricochet::render::detail
