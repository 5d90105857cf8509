#include "render/scene/scene_support.hpp"

#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include <Eigen/Geometry>

#include <cmath>
#include <sstream>

namespace ricochet::render::detail {

namespace {
using RowMajor4d = Eigen::Matrix<double, 4, 4, Eigen::RowMajor>;  // vtkMatrix4x4's layout
}  // namespace

bool positive(double x) { return std::isfinite(x) && x > 0.0; }

std::string num(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

bool validPose(const Pose& p) { return p.position.allFinite() && p.rotation.allFinite(); }

Eigen::Matrix4d toMatrix(const Pose& p) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = p.rotation;
  m.topRightCorner<3, 1>() = p.position;
  return m;
}

Eigen::Matrix4d frameWithZ(const Eigen::Vector3d& origin, const Eigen::Vector3d& z,
                           const Eigen::Vector3d& preferX) {
  Eigen::Vector3d x = preferX - preferX.dot(z) * z;
  if (x.norm() < 1e-6) {
    const Eigen::Vector3d alt = std::fabs(z.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
    x = alt - alt.dot(z) * z;
  }
  x.normalize();
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.block<3, 1>(0, 0) = x;
  m.block<3, 1>(0, 1) = z.cross(x);
  m.block<3, 1>(0, 2) = z;
  m.block<3, 1>(0, 3) = origin;
  return m;
}

void setMatrix(vtkMatrix4x4* dst, const Eigen::Matrix4d& m) {
  const RowMajor4d r = m;
  dst->DeepCopy(r.data());  // copies 16 doubles in place and marks it modified
}

Eigen::Vector3d rgb(const Rgb& c) { return {c[0], c[1], c[2]}; }

vtkSmartPointer<vtkActor> makeActor(vtkPolyData* pd) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(pd);
  mapper->ScalarVisibilityOff();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  return actor;
}

void lineMaterial(vtkProperty* p, const Eigen::Vector3d& c, double width) {
  p->SetColor(c.x(), c.y(), c.z());
  p->LightingOff();
  p->SetLineWidth(static_cast<float>(width));
}

void PropList::add(const vtkSmartPointer<vtkProp>& prop) {
  renderer_->AddViewProp(prop);
  props_.push_back(prop);
}

void PropList::clear() {
  for (const auto& p : props_) renderer_->RemoveViewProp(p);
  props_.clear();
}

void Problems::note(const std::string& problem) {
  if (!text_.empty()) text_ += "; ";
  text_ += problem;
}

}  // namespace ricochet::render::detail
