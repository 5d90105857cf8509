#pragma once
// The trail of the tracked body (internal to render/scene/): a fixed ring buffer of points drawn
// as line segments that fade with age. Memory never grows; per frame only the points and
// colours change, in place.

#include "render/scene/scene_support.hpp"

#include <array>

#include <vtkNew.h>

class vtkPoints;
class vtkUnsignedCharArray;

namespace ricochet::render::detail {

/// Trail points kept (fixed: memory never grows), here and in the ParaView series.
inline constexpr int kTrailCapacity = 2048;
/// A new trail point after the body moved this many scene lengths L.
inline constexpr double kTrailMinStep = 0.002;

class Trail {
 public:
  Trail();
  ~Trail();
  Trail(const Trail&) = delete;
  Trail& operator=(const Trail&) = delete;
  /// Takes the colour of the tracked body of `scene` (deeper, to read on the light background)
  /// when it has a part; otherwise keeps the previous colour.
  void takeColour(const SceneSpec& scene);
  /// Adds the trail's actor (shown as setVisible() last said).
  void build(PropList& props);
  /// Empties the trail.
  void reset();
  /// Appends `p` (world, m) unless it is within a small fraction of `L` (m) of the newest point
  /// or not finite; true when added. The segments are recoloured by recolour().
  bool addPoint(const Eigen::Vector3d& p, double L);
  /// Colours every segment by its age (call once after the points of a frame were added).
  void recolour();
  void setVisible(bool visible);

 private:
  vtkNew<vtkPoints> points_;
  vtkNew<vtkUnsignedCharArray> colors_;
  vtkNew<vtkPolyData> data_;
  vtkSmartPointer<vtkActor> actor_;
  int head_ = -1;  // index of the newest point
  int count_ = 0;
  bool visible_ = true;
  std::array<unsigned char, 3> rgb_{40, 90, 160};
};

}  // namespace ricochet::render::detail
