#include "render/scene/impact_marks.hpp"

#include "render/scene/scene_geometry.hpp"

#include <vtkCamera.h>
#include <vtkFollower.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>

#include <cmath>

namespace ricochet::render::detail {
namespace {

constexpr int kImpactPool = 16;          // impact marks alive at once (oldest reused)
constexpr double kImpactLifetime = 0.6;  // s of simulated time a mark stays visible
constexpr double kImpactStartRadius = 0.03;  // in L
constexpr double kImpactEndRadius = 0.25;    // in L

}  // namespace

ImpactMarks::ImpactMarks() : ring_(geometry::ring(0.62)) {}

ImpactMarks::~ImpactMarks() = default;

void ImpactMarks::build(vtkCamera* camera, double L, PropList& props) {
  L_ = L;
  for (int i = 0; i < kImpactPool; ++i) {
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(ring_);
    mapper->ScalarVisibilityOff();
    auto f = vtkSmartPointer<vtkFollower>::New();
    f->SetMapper(mapper);
    f->SetCamera(camera);
    f->GetProperty()->SetColor(0.95, 0.33, 0.12);
    f->GetProperty()->LightingOff();
    f->VisibilityOff();
    marks_.push_back(Mark{f, 0.0, false});
    props.add(f);
  }
}

void ImpactMarks::add(const Eigen::Vector3d& point, double time, vtkCamera* camera) {
  if (marks_.empty()) return;
  Mark* slot = nullptr;
  for (Mark& m : marks_) {
    if (!m.active) {
      slot = &m;
      break;
    }
    if (!slot || m.start < slot->start) slot = &m;  // all busy: reuse the oldest
  }
  slot->active = true;
  slot->start = time;
  slot->actor->SetPosition(point.x(), point.y(), point.z());
  slot->actor->SetCamera(camera);  // the host may have swapped cameras
  style(*slot, 0.0);
}

void ImpactMarks::age(double time) {
  for (Mark& m : marks_) {
    if (!m.active) continue;
    const double age = time - m.start;
    if (age < 0.0 || age > kImpactLifetime) {
      m.active = false;
      m.actor->VisibilityOff();
      continue;
    }
    style(m, age / kImpactLifetime);
  }
}

void ImpactMarks::hideAll() {
  for (Mark& m : marks_) {
    m.active = false;
    m.actor->VisibilityOff();
  }
}

void ImpactMarks::style(Mark& m, double u) {
  // Expands quickly then slows (sqrt), fades out quadratically.
  const double r = L_ * (kImpactStartRadius + (kImpactEndRadius - kImpactStartRadius) * std::sqrt(u));
  m.actor->SetScale(r, r, r);
  m.actor->GetProperty()->SetOpacity((1.0 - u) * (1.0 - u));
  m.actor->VisibilityOn();
}

}  // namespace ricochet::render::detail
