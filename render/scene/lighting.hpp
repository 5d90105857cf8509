#pragma once
// The scene's light and backdrop (internal to render/scene/): a vertical gradient behind the
// scene and two camera lights, a key light and a head light.

#include <vtkNew.h>

class vtkLight;
class vtkRenderer;

namespace ricochet::render::detail {

class Lighting {
 public:
  /// Sets the background of `renderer` (not owned; must outlive this object) and adds the lights.
  explicit Lighting(vtkRenderer* renderer);
  /// Removes the lights.
  ~Lighting();
  Lighting(const Lighting&) = delete;
  Lighting& operator=(const Lighting&) = delete;

 private:
  vtkRenderer* renderer_;
  vtkNew<vtkLight> key_;   // from above the camera's right shoulder
  vtkNew<vtkLight> head_;  // from the eye: fills what the key light leaves dark
};

}  // namespace ricochet::render::detail
