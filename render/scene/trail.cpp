#include "render/scene/trail.hpp"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>

namespace ricochet::render::detail {

// Segment i joins point i and i+1 (mod capacity); the segment leaving the newest point and
// unfilled ones are fully transparent.
Trail::Trail() {
  points_->SetDataTypeToDouble();
  points_->SetNumberOfPoints(kTrailCapacity);
  for (int i = 0; i < kTrailCapacity; ++i) points_->SetPoint(i, 0.0, 0.0, 0.0);
  colors_->SetNumberOfComponents(4);
  colors_->SetNumberOfTuples(kTrailCapacity);
  colors_->SetName("TrailColors");
  vtkNew<vtkCellArray> segments;
  for (vtkIdType i = 0; i < kTrailCapacity; ++i) {
    const vtkIdType ids[2] = {i, (i + 1) % kTrailCapacity};
    segments->InsertNextCell(2, ids);
  }
  data_->SetPoints(points_);
  data_->SetLines(segments);
  data_->GetCellData()->SetScalars(colors_);
}

Trail::~Trail() = default;

void Trail::takeColour(const SceneSpec& scene) {
  if (scene.bodies.empty() || scene.bodies[scene.trackedBody].parts.empty()) return;
  const Rgb c = scene.bodies[scene.trackedBody].parts.front().color;
  for (int k = 0; k < 3; ++k) rgb_[k] = static_cast<unsigned char>(std::lround(255.0 * 0.8 * c[k]));
}

void Trail::build(PropList& props) {
  vtkSmartPointer<vtkActor> a = makeActor(data_);
  auto* mapper = static_cast<vtkPolyDataMapper*>(a->GetMapper());
  mapper->ScalarVisibilityOn();
  mapper->SetScalarModeToUseCellData();
  mapper->SetColorModeToDirectScalars();
  a->GetProperty()->LightingOff();
  a->GetProperty()->SetLineWidth(2.5f);
  a->SetVisibility(visible_);
  actor_ = a;
  props.add(a);
}

void Trail::reset() {
  head_ = -1;
  count_ = 0;
  const unsigned char none[4] = {0, 0, 0, 0};
  for (vtkIdType i = 0; i < kTrailCapacity; ++i) colors_->SetTypedTuple(i, none);
  colors_->Modified();
}

bool Trail::addPoint(const Eigen::Vector3d& p, double L) {
  if (!p.allFinite()) return false;
  if (head_ >= 0) {
    Eigen::Vector3d last;
    points_->GetPoint(head_, last.data());
    if ((p - last).norm() < kTrailMinStep * L) return false;
  }
  if (head_ < 0) {
    // Park the unused slots on the first point: invisible either way, but they then add
    // nothing to the scene bounds VTK derives the camera clipping range from.
    for (int i = 0; i < kTrailCapacity; ++i) points_->SetPoint(i, p.data());
  }
  head_ = (head_ + 1) % kTrailCapacity;
  count_ = std::min(count_ + 1, kTrailCapacity);
  points_->SetPoint(head_, p.data());
  points_->Modified();
  return true;
}

void Trail::recolour() {
  // Segment j joins j and j+1; it is as old as point j. Opacity falls off with age.
  for (int age = 0; age < kTrailCapacity; ++age) {
    const int j = (head_ - age + kTrailCapacity) % kTrailCapacity;
    unsigned char c[4] = {rgb_[0], rgb_[1], rgb_[2], 0};
    if (age >= 1 && age < count_) {
      const double s = 1.0 - static_cast<double>(age) / kTrailCapacity;
      c[3] = static_cast<unsigned char>(std::lround(220.0 * s * s));
    }
    colors_->SetTypedTuple(j, c);
  }
  colors_->Modified();
}

void Trail::setVisible(bool visible) {
  visible_ = visible;
  if (actor_) actor_->SetVisibility(visible);
}

}  // namespace ricochet::render::detail
