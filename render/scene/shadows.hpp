#pragma once
// Contact shadows (internal to render/scene/): in spatial scenes a soft round shadow of each
// body on each floor-like surface, straight below the body, wider and fainter with its height,
// so that heights and touch-downs read at a glance.

#include "render/scene/ground.hpp"

#include <span>
#include <vector>

namespace ricochet::render::detail {

class Shadows {
 public:
  /// Forgets every shadow (their actors leave with the scene's PropList).
  void clear() { shadows_.clear(); }
  /// One hidden shadow per body of a spatial `scene` and floor of `floors` (none for planar
  /// scenes or without floors); shown by the first update() that has the body's pose.
  void build(const SceneSpec& scene, const std::vector<Ground::Floor>& floors, PropList& props);
  /// Places the shadows of the first `n` bodies (n <= poses.size()) whose pose is finite; `L` is
  /// the scene's length (m).
  void update(std::span<const Pose> poses, std::size_t n, double L);

 private:
  struct Shadow {
    int body = 0;
    Ground::Floor floor;
    double radius = 0.0;  // m, the body's reach from its origin
    vtkSmartPointer<vtkActor> actor;
    vtkSmartPointer<vtkMatrix4x4> matrix;
  };
  void place(Shadow& sh, const Eigen::Vector3d& p, double L);

  std::vector<Shadow> shadows_;
};

}  // namespace ricochet::render::detail
