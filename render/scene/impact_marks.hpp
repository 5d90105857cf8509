#pragma once
// Impact marks (internal to render/scene/): a ring facing the camera where an impact happened,
// expanding and fading out over a fixed span of simulated time. A fixed pool of marks, the
// oldest reused, so memory never grows however many impacts come.

#include "render/scene/scene_support.hpp"

#include <vector>

class vtkCamera;
class vtkFollower;

namespace ricochet::render::detail {

class ImpactMarks {
 public:
  ImpactMarks();
  ~ImpactMarks();
  ImpactMarks(const ImpactMarks&) = delete;
  ImpactMarks& operator=(const ImpactMarks&) = delete;

  /// Forgets the pool (its actors leave with the scene's PropList).
  void clear() { marks_.clear(); }
  /// Adds the pool's hidden marks, facing `camera`; `L` (m) scales them.
  void build(vtkCamera* camera, double L, PropList& props);
  /// Shows a mark at `point` (world, m, finite) for an impact at simulated `time` (s, finite),
  /// facing `camera`. Nothing before build().
  void add(const Eigen::Vector3d& point, double time, vtkCamera* camera);
  /// Grows and fades every shown mark to its age at simulated `time` (s); hides those older
  /// than their lifetime or from the future.
  void age(double time);
  void hideAll();

 private:
  struct Mark {
    vtkSmartPointer<vtkFollower> actor;
    double start = 0.0;
    bool active = false;
  };
  void style(Mark& m, double u);

  vtkSmartPointer<vtkPolyData> ring_;
  std::vector<Mark> marks_;
  double L_ = 1.0;
};

}  // namespace ricochet::render::detail
