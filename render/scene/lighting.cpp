#include "render/scene/lighting.hpp"

#include <vtkLight.h>
#include <vtkRenderer.h>

namespace ricochet::render::detail {

Lighting::Lighting(vtkRenderer* renderer) : renderer_(renderer) {
  renderer->GradientBackgroundOn();
  renderer->SetBackground(0.80, 0.84, 0.89);   // bottom
  renderer->SetBackground2(0.97, 0.98, 0.99);  // top
  renderer->SetTwoSidedLighting(true);
  // Two camera lights instead of VTK's five-light kit: under llvmpipe every light is paid per
  // lit pixel (5 -> 2 lights saved ~2 ms per frame on ellipsoid-plane), and a key light plus a
  // head light already model the bodies clearly. Key: elevation 50, azimuth 10 degrees, as in
  // vtkLightKit.
  key_->SetLightTypeToCameraLight();
  key_->SetDirectionAngle(50.0, 10.0);
  key_->SetColor(1.0, 0.98, 0.95);
  key_->SetIntensity(0.8);
  head_->SetLightTypeToHeadlight();
  head_->SetColor(0.95, 0.97, 1.0);
  head_->SetIntensity(0.55);
  renderer->AddLight(key_);
  renderer->AddLight(head_);
}

Lighting::~Lighting() {
  renderer_->RemoveLight(key_);
  renderer_->RemoveLight(head_);
}

}  // namespace ricochet::render::detail
