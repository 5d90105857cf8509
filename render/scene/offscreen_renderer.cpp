// OffscreenRenderer: a SceneView in an off-screen VTK window, for `ricochet-cli video` and tests.

#include "render/scene/offscreen_renderer.hpp"

#include <X11/Xlib.h>

#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPNGWriter.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkWindowToImageFilter.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

namespace ricochet::render {

struct OffscreenRenderer::Impl {
  vtkSmartPointer<vtkRenderWindow> window;
  vtkNew<vtkRenderer> renderer;
  vtkNew<vtkWindowToImageFilter> grabber;
  std::unique_ptr<SceneView> scene;
  int width = 0;
  int height = 0;
  Display* display = nullptr;  // ours, handed to VTK so it never opens (and aborts on) its own

  // Renders and returns the frame (RGB, bottom row first as VTK stores it).
  vtkImageData* render() {
    window->Render();
    grabber->Modified();  // otherwise the filter hands back its previous frame
    grabber->Update();
    return grabber->GetOutput();
  }
};

OffscreenRenderer::OffscreenRenderer() : d(std::make_unique<Impl>()) {}

OffscreenRenderer::~OffscreenRenderer() {
  if (d && d->window) {
    d->scene.reset();  // its actors leave the renderer first
    d->window->Finalize();
    d->window = nullptr;
  }
  if (d && d->display) XCloseDisplay(d->display);
}

std::unique_ptr<OffscreenRenderer> OffscreenRenderer::create(int width, int height,
                                                             std::string* error) {
  auto fail = [&](const std::string& message) {
    if (error) *error = message;
    return std::unique_ptr<OffscreenRenderer>();
  };
  if (width < 16 || height < 16 || width > 8192 || height > 8192) {
    return fail("frame size " + std::to_string(width) + "x" + std::to_string(height) +
                " is invalid: width and height must be in [16, 8192] pixels");
  }
  // VTK's X11 render window aborts the process without a display: ask X first.
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display) {
    return fail("no X display (DISPLAY is not set): off-screen rendering here needs an X server; "
                "run under xvfb-run -a");
  }
  Display* x = XOpenDisplay(nullptr);
  if (!x) {
    return fail(std::string("cannot open X display '") + display +
                "': off-screen rendering here needs an X server; run under xvfb-run -a");
  }

  std::unique_ptr<OffscreenRenderer> r(new OffscreenRenderer());
  Impl& d = *r->d;
  d.display = x;
  d.width = width;
  d.height = height;
  d.window = vtkSmartPointer<vtkRenderWindow>::New();
  d.window->SetDisplayId(x);  // VTK's X window would abort() if its own XOpenDisplay failed
  d.window->SetOffScreenRendering(1);
  d.window->SetMultiSamples(8);  // antialiased edges where the driver supports it
  d.window->SetSize(width, height);
  d.window->AddRenderer(d.renderer);
  if (!d.window->SupportsOpenGL()) {
    return fail(std::string("the X display '") + display +
                "' offers no OpenGL 3.2 context, which VTK needs for rendering");
  }
  d.scene = std::make_unique<SceneView>(d.renderer.GetPointer());
  d.grabber->SetInput(d.window);
  d.grabber->SetInputBufferTypeToRGB();
  d.grabber->ReadFrontBufferOff();  // off-screen: the frame is in the back buffer
  d.grabber->ShouldRerenderOff();   // we render explicitly, once per frame
  return r;
}

SceneView& OffscreenRenderer::scene() { return *d->scene; }

vtkRenderer* OffscreenRenderer::renderer() const { return d->renderer; }

int OffscreenRenderer::width() const { return d->width; }

int OffscreenRenderer::height() const { return d->height; }

void OffscreenRenderer::renderFrame(std::vector<unsigned char>& rgb) {
  vtkImageData* image = d->render();
  const int w = d->width, h = d->height;
  rgb.resize(static_cast<std::size_t>(w) * h * 3);
  const auto* src = static_cast<const unsigned char*>(image->GetScalarPointer());
  int dims[3];
  image->GetDimensions(dims);
  if (!src || dims[0] != w || dims[1] != h) {
    std::memset(rgb.data(), 0, rgb.size());
    return;
  }
  const std::size_t row = static_cast<std::size_t>(w) * 3;
  for (int y = 0; y < h; ++y) {  // VTK's rows run bottom-up; ours top-down
    std::memcpy(rgb.data() + static_cast<std::size_t>(y) * row,
                src + static_cast<std::size_t>(h - 1 - y) * row, row);
  }
}

bool OffscreenRenderer::writePng(const std::string& path, std::string* error) {
  vtkImageData* image = d->render();
  {
    std::ofstream probe(path, std::ios::binary | std::ios::app);
    if (!probe) {
      if (error) *error = "cannot write PNG '" + path + "': " + std::strerror(errno);
      return false;
    }
  }
  vtkNew<vtkPNGWriter> writer;
  writer->SetFileName(path.c_str());
  writer->SetInputData(image);
  writer->Write();
  if (writer->GetErrorCode() != 0) {
    if (error) *error = "cannot write PNG '" + path + "' (VTK error " +
                        std::to_string(writer->GetErrorCode()) + ")";
    return false;
  }
  return true;
}

}  // namespace ricochet::render
