#pragma once
// OffscreenRenderer: a SceneView in an off-screen VTK window, rendered into memory or a PNG (for
// `ricochet-cli video`, tests and benchmarks). No Qt.

#include "render/scene/scene_view.hpp"

#include <memory>
#include <string>
#include <vector>

class vtkRenderer;

namespace ricochet::render {

/// Offscreen rendering of a SceneView into memory (for `ricochet-cli video` and tests). Needs an
/// X display (Xvfb in tests): the X-based VTK here has no EGL/OSMesa.
class OffscreenRenderer {
 public:
  /// nullptr with `*error` set when no display / OpenGL context is available.
  static std::unique_ptr<OffscreenRenderer> create(int width, int height, std::string* error);
  ~OffscreenRenderer();
  SceneView& scene();
  /// The renderer the scene draws into (e.g. to add overlays such as a time label).
  vtkRenderer* renderer() const;
  int width() const;
  int height() const;
  /// Renders one frame and copies it as packed RGB, top row first (width*height*3 bytes).
  void renderFrame(std::vector<unsigned char>& rgb);
  /// Renders one frame and writes it as PNG; false (with *error) on I/O failure.
  bool writePng(const std::string& path, std::string* error);

 private:
  OffscreenRenderer();
  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace ricochet::render
