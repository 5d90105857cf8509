// ricochet-scene-bench: where the 3-D view's frame time goes. For each system, a SceneView in an
// off-screen window of the desktop view's size renders a state after a short run (trail, shadows,
// floor as the user sees them); the median CPU time of a frame is printed, then what a few
// renderer-wide settings change (background, antialiasing, lights), and with --props the cost of
// each prop added in drawing order to an empty renderer. --png writes each state's image.
//
//   LP_NUM_THREADS=0 xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/ricochet-scene-bench
//       [--system ID] [--size WxH] [--frames N] [--props] [--png DIR] [--msaa N] [--fxaa]
//
// LP_NUM_THREADS=0 makes Mesa's llvmpipe rasterise in the calling thread, so the process CPU time
// of a frame is its cost, whatever else runs on the machine. Prints figures only; no pass/fail.

#include "core/model/registry.hpp"
#include "render/scene/offscreen_renderer.hpp"

#include <vtkActor.h>
#include <vtkLight.h>
#include <vtkLightCollection.h>
#include <vtkMapper.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProp.h>
#include <vtkPropCollection.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

using namespace ricochet;

namespace {

double cpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// Median CPU ms of a rendered and finished frame.
double frameCost(vtkRenderWindow* window, int frames) {
  auto* gl = vtkOpenGLRenderWindow::SafeDownCast(window);
  for (int i = 0; i < 3; ++i) {
    window->Render();
    if (gl) gl->WaitForCompletion();
  }
  std::vector<double> cost;
  for (int i = 0; i < frames; ++i) {
    const double c0 = cpuMs();
    window->Render();
    if (gl) gl->WaitForCompletion();
    cost.push_back(cpuMs() - c0);
  }
  return median(cost);
}

std::string describe(vtkProp* prop) {
  char buf[256];
  auto* actor = vtkActor::SafeDownCast(prop);
  if (!actor || !actor->GetMapper()) {
    std::snprintf(buf, sizeof buf, "%s", prop->GetClassName());
    return buf;
  }
  auto* pd = vtkPolyData::SafeDownCast(actor->GetMapper()->GetInput());
  vtkProperty* p = actor->GetProperty();
  std::snprintf(buf, sizeof buf, "%-12s pts %6lld polys %6lld lines %5lld  opacity %.2f%s width %.1f %s",
                prop->GetClassName(), pd ? (long long)pd->GetNumberOfPoints() : -1LL,
                pd ? (long long)pd->GetNumberOfPolys() : -1LL,
                pd ? (long long)pd->GetNumberOfLines() : -1LL, p->GetOpacity(),
                actor->GetMapper()->GetScalarVisibility() ? " +scalars" : "", p->GetLineWidth(),
                p->GetLighting() ? "lit" : "unlit");
  return buf;
}

void benchSystem(const SystemDescription& system, int width, int height, int frames, bool props,
                 const std::string& pngDir, int msaa, bool fxaa) {
  std::string error;
  auto off = render::OffscreenRenderer::create(width, height, &error);
  if (!off) {
    std::printf("cannot render: %s\n", error.c_str());
    return;
  }
  vtkRenderer* renderer = off->renderer();
  vtkRenderWindow* window = renderer->GetRenderWindow();
  window->SetMultiSamples(msaa);  // 0: the desktop app's default
  renderer->SetUseFXAA(fxaa);
  const Scenario scenario = defaultScenario(system);
  CreateResult created = createSimulation(scenario);
  if (!created.simulation) {
    std::printf("%s: %s\n", system.info().id.c_str(), created.error.c_str());
    return;
  }
  Simulation& sim = *created.simulation;
  render::SceneView& view = off->scene();
  const SceneSpec spec = system.scene(scenario.parameters);
  view.setScene(spec);
  view.setFollow(true);
  std::vector<Pose> poses(spec.bodies.size());
  // 2 s of simulated time, a pose every 1/60 s: the trail and floor as after a short run.
  const double h = sim.timeStep();
  const auto perFrame = std::max<std::int64_t>(1, std::int64_t(1.0 / (60.0 * h) + 0.5));
  for (int k = 0; k < 120; ++k) {
    if (!sim.advance(perFrame, nullptr).ok()) break;
    sim.poses(poses);
    view.setPoses(poses, sim.time());
  }
  if (!pngDir.empty()) {
    const std::string path = pngDir + "/" + system.info().id + ".png";
    if (!off->writePng(path, &error)) std::printf("%s\n", error.c_str());
  }
  const double all = frameCost(window, frames);
  std::printf("%-18s %dx%d  frame CPU %6.2f ms\n", system.info().id.c_str(), width, height, all);

  auto setting = [&](const char* what, auto apply, auto undo) {
    apply();
    const double c = frameCost(window, frames);
    undo();
    std::printf("    %-44s %6.2f ms (%+6.2f)\n", what, c, c - all);
  };
  setting("no gradient background", [&] { renderer->GradientBackgroundOff(); },
          [&] { renderer->GradientBackgroundOn(); });
  setting("FXAA", [&] { renderer->SetUseFXAA(true); }, [&] { renderer->SetUseFXAA(fxaa); });
  setting("MSAA 4x", [&] { window->SetMultiSamples(4); }, [&] { window->SetMultiSamples(msaa); });
  setting("MSAA 8x", [&] { window->SetMultiSamples(8); }, [&] { window->SetMultiSamples(msaa); });
  setting("one light (of the two)",
          [&] {
            renderer->GetLights()->InitTraversal();
            int i = 0;
            while (vtkLight* l = renderer->GetLights()->GetNextItem()) l->SetSwitch(i++ == 0);
          },
          [&] {
            renderer->GetLights()->InitTraversal();
            while (vtkLight* l = renderer->GetLights()->GetNextItem()) l->SetSwitch(true);
          });

  std::vector<vtkProp*> list;
  vtkPropCollection* pc = renderer->GetViewProps();
  pc->InitTraversal();
  while (vtkProp* p = pc->GetNextProp()) list.push_back(p);
  std::vector<int> shown;
  for (vtkProp* p : list) shown.push_back(p->GetVisibility());
  setting("nothing drawn (empty renderer)",
          [&] { for (vtkProp* p : list) p->SetVisibility(0); },
          [&] { for (std::size_t i = 0; i < list.size(); ++i) list[i]->SetVisibility(shown[i]); });
  if (!props) return;
  // Props added one at a time to an empty renderer, in drawing order: the cost of each on top of
  // those before it.
  for (vtkProp* p : list) p->SetVisibility(0);
  double before = frameCost(window, frames);
  std::printf("    %-44s %6.2f ms\n", "empty renderer", before);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!shown[i]) continue;
    list[i]->SetVisibility(1);
    const double c = frameCost(window, frames);
    std::printf("    + %-80s %6.2f ms (%+6.2f)\n", describe(list[i]).c_str(), c, c - before);
    before = c;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string only;
  int width = 538, height = 720, frames = 15;
  bool props = false;
  std::string pngDir;
  int msaa = 0;
  bool fxaa = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--system" && i + 1 < argc) only = argv[++i];
    else if (a == "--size" && i + 1 < argc) std::sscanf(argv[++i], "%dx%d", &width, &height);
    else if (a == "--frames" && i + 1 < argc) frames = std::atoi(argv[++i]);
    else if (a == "--props") props = true;
    else if (a == "--png" && i + 1 < argc) pngDir = argv[++i];
    else if (a == "--msaa" && i + 1 < argc) msaa = std::atoi(argv[++i]);
    else if (a == "--fxaa") fxaa = true;
    else {
      std::printf("usage: %s [--system ID] [--size WxH] [--frames N] [--props] [--png DIR] [--msaa N] [--fxaa]\n",
                  argv[0]);
      return 2;
    }
  }
  for (const SystemDescription* s : systems()) {
    if (!only.empty() && s->info().id != only) continue;
    benchSystem(*s, width, height, frames, props, pngDir, msaa, fxaa);
  }
  return 0;
}
