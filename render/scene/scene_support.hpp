#pragma once
// Small helpers every layer of a SceneView uses (internal to render/scene/): checks of input
// values, Eigen poses into VTK matrices, actors and line materials, the list of props a scene
// added to its renderer, and the problems setScene() reports.

#include "core/model/scene.hpp"

#include <Eigen/Core>

#include <vtkSmartPointer.h>

#include <string>
#include <vector>

class vtkActor;
class vtkMatrix4x4;
class vtkPolyData;
class vtkProp;
class vtkProperty;
class vtkRenderer;

namespace ricochet::render::detail {

inline bool finite(const Eigen::Vector3d& v) { return v.allFinite(); }
/// Finite and > 0.
bool positive(double x);
/// `v` with 6 significant digits, for messages.
std::string num(double v);
bool validPose(const Pose& p);

/// The rigid transform of `p` as a 4x4 matrix (world from body).
Eigen::Matrix4d toMatrix(const Pose& p);
/// A rigid frame at `origin` whose z axis is `z` (unit), x as close to `preferX` as possible.
Eigen::Matrix4d frameWithZ(const Eigen::Vector3d& origin, const Eigen::Vector3d& z,
                           const Eigen::Vector3d& preferX);
/// Copies `m` into `dst` in place (16 doubles) and marks it modified.
void setMatrix(vtkMatrix4x4* dst, const Eigen::Matrix4d& m);
Eigen::Vector3d rgb(const Rgb& c);

/// An actor drawing `pd` in its property's colour (scalars off).
vtkSmartPointer<vtkActor> makeActor(vtkPolyData* pd);
/// Lines that read as drawing, not as lit geometry: colour `c`, unlit, `width` pixels wide.
void lineMaterial(vtkProperty* p, const Eigen::Vector3d& c, double width);

/// Everything a scene added to its renderer, in the order added, so a new scene removes exactly
/// those props. The order matters: translucent props are blended in it (back to front).
class PropList {
 public:
  explicit PropList(vtkRenderer* renderer) : renderer_(renderer) {}
  vtkRenderer* renderer() const { return renderer_; }
  void add(const vtkSmartPointer<vtkProp>& prop);
  /// Removes every prop added so far from the renderer.
  void clear();

 private:
  vtkRenderer* renderer_;
  std::vector<vtkSmartPointer<vtkProp>> props_;
};

/// What setScene() could not draw, one clause per problem, joined by "; ".
class Problems {
 public:
  void note(const std::string& problem);
  void clear() { text_.clear(); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace ricochet::render::detail
