// ricochet-video-bench: what an exported video frame costs, and how long whole exports take, beside
// the project's target (a 10 s, 30 fps, 1280x720 MP4 in less than 10 s). Prints figures only; never
// asserts (bench/README.md). Needs an X display: xvfb-run -a -s "-screen 0 1280x1024x24" ...
//
//  * frame cost, per system and antialiasing mode (none, FXAA, 8x MSAA): the median over --frames
//    frames of (a) vtkRenderWindow::Render() alone and (b) OffscreenRenderer::renderFrame() (render
//    plus the read-back into packed RGB, what the MP4/GIF/Ogg encoders take), and (c) writePng()
//    (render plus PNG compression, the PNG sequence path). The simulation advances 1/30 s of
//    simulated time between frames, as in an export.
//  * exports: exportVideo() end to end (ffmpeg included) for each format, with the wall time, the
//    frame rate achieved and the ratio of video time to wall time; the MP4 rows at 1280x720 are the
//    project's target.

#include "core/model/registry.hpp"
#include "render/scene/offscreen_renderer.hpp"
#include "render/video/animation_export.hpp"

#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <X11/Xlib.h>
#include <unistd.h>

using namespace ricochet;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

struct Options {
  std::vector<std::string> systems = {"ellipse-floor", "cube-plane", "disk-table"};
  int frames = 60;
  int width = 1280;
  int height = 720;
  double seconds = 10.0;  ///< simulated (= video) seconds of the MP4 target export
  bool exports = true;
};

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string loadAverage() {
  std::ifstream f("/proc/loadavg");
  std::string a, b, c;
  f >> a >> b >> c;
  return a + " " + b + " " + c;
}

const char* aaName(render::Antialiasing aa) {
  switch (aa) {
    case render::Antialiasing::Off: return "none";
    case render::Antialiasing::Fxaa: return "fxaa";
    case render::Antialiasing::Msaa: return "msaa8";
  }
  return "?";
}

/// Median render / render+readback / PNG times (ms) for one system and antialiasing mode.
bool frameCost(const Options& o, const SystemDescription& system, render::Antialiasing aa) {
  std::string error;
  auto off = render::OffscreenRenderer::create(o.width, o.height, &error);
  if (!off) {
    std::printf("  cannot render: %s\n", error.c_str());
    return false;
  }
  vtkRenderer* renderer = off->renderer();
  renderer->GetRenderWindow()->SetMultiSamples(aa == render::Antialiasing::Msaa ? 8 : 0);
  renderer->SetUseFXAA(aa == render::Antialiasing::Fxaa);
  const Scenario scenario = defaultScenario(system);
  CreateResult created = createSimulation(scenario);
  if (!created.simulation) {
    std::printf("  %s: %s\n", system.info().id.c_str(), created.error.c_str());
    return false;
  }
  Simulation& sim = *created.simulation;
  off->scene().setScene(system.scene(scenario.parameters));
  off->scene().setFollow(true);
  std::vector<Pose> poses(system.scene(scenario.parameters).bodies.size());
  std::vector<unsigned char> rgb;
  std::vector<double> render, grab, png;
  const fs::path pngPath = fs::temp_directory_path() / ("ricochet-video-bench-" + std::to_string(::getpid()) + ".png");
  const int warmup = 5;
  for (int k = 0; k < warmup + o.frames; ++k) {
    const std::int64_t target = render::videoFrameStep(k, 30.0, 1.0, scenario.integrator.h);
    if (target > sim.step() && !sim.advance(target - sim.step(), nullptr).ok()) break;
    sim.poses(poses);
    off->scene().setPoses(poses, sim.time());
    auto t0 = Clock::now();
    renderer->GetRenderWindow()->Render();
    auto t1 = Clock::now();
    off->renderFrame(rgb);
    auto t2 = Clock::now();
    off->writePng(pngPath.string(), nullptr);
    auto t3 = Clock::now();
    if (k < warmup) continue;
    render.push_back(ms(t1 - t0));
    grab.push_back(ms(t2 - t1));
    png.push_back(ms(t3 - t2));
  }
  std::error_code ec;
  fs::remove(pngPath, ec);
  std::printf("  %-16s %-6s %9.1f %14.1f %11.1f\n", system.info().id.c_str(), aaName(aa), median(render),
              median(grab), median(png));
  return true;
}

void exportRow(const std::string& id, render::VideoFormat format, render::Antialiasing aa, int w, int h,
               double seconds, const fs::path& out) {
  const SystemDescription* system = findSystem(id);
  if (!system) return;
  Scenario scenario = defaultScenario(*system);
  CreateResult created = createSimulation(scenario);
  if (!created.simulation) return;
  render::VideoOptions o;
  o.output = out;
  o.format = format;
  o.width = w;
  o.height = h;
  o.duration = seconds;
  o.antialiasing = aa;
  const render::VideoResult r = render::exportVideo(*created.simulation, scenario, o);
  std::uintmax_t bytes = 0;
  std::error_code ec;
  if (format == render::VideoFormat::PngSequence) {
    for (std::int64_t k = 0; k < r.framesWritten; ++k) {
      bytes += fs::file_size(render::pngFrameName(out, k), ec);
      fs::remove(render::pngFrameName(out, k), ec);
    }
  } else {
    bytes = fs::file_size(out, ec);
    fs::remove(out, ec);
  }
  if (!r.ok()) {
    std::printf("  %-14s %-4s %-6s %5dx%-5d failed: %s\n", id.c_str(), render::toString(format), aaName(aa), w, h,
                r.message.c_str());
    return;
  }
  const double video = static_cast<double>(r.framesWritten) / o.fps;
  std::printf("  %-14s %-4s %-6s %5dx%-5d %6lld %8.2f %9.1f %9.2f %10.0f%s\n", id.c_str(), render::toString(format),
              aaName(aa), w, h, static_cast<long long>(r.framesWritten), r.wallSeconds,
              static_cast<double>(r.framesWritten) / r.wallSeconds, video / r.wallSeconds,
              static_cast<double>(bytes) / 1024.0,
              format == render::VideoFormat::Mp4 && w == 1280 && h == 720 && seconds >= 10.0
                  ? (r.wallSeconds < 10.0 ? "   target < 10 s: met" : "   target < 10 s: MISSED")
                  : "");
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "ricochet-video-bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--systems") {
      o.systems.clear();
      std::string list = next();
      for (std::size_t p = 0; p <= list.size();) {
        const std::size_t c = std::min(list.find(',', p), list.size());
        if (c > p) o.systems.push_back(list.substr(p, c - p));
        p = c + 1;
      }
    } else if (a == "--frames") {
      o.frames = std::max(5, std::atoi(next().c_str()));
    } else if (a == "--size") {
      const std::string s = next();
      if (std::sscanf(s.c_str(), "%dx%d", &o.width, &o.height) != 2) {
        std::fprintf(stderr, "ricochet-video-bench: --size WxH\n");
        return 2;
      }
    } else if (a == "--seconds") {
      o.seconds = std::atof(next().c_str());
    } else if (a == "--no-exports") {
      o.exports = false;
    } else {
      std::printf(
          "ricochet-video-bench [--systems ID,ID] [--frames N] [--size WxH] [--seconds T] [--no-exports]\n");
      return a == "--help" ? 0 : 2;
    }
  }
  for (const std::string& id : o.systems) {
    if (!findSystem(id)) {
      std::fprintf(stderr, "ricochet-video-bench: unknown system '%s'\n", id.c_str());
      return 2;
    }
  }
  // Held for the whole run: Xvfb resets when its last client leaves, and a renderer created
  // right then (the next row) could fail to connect.
  Display* keepAlive = XOpenDisplay(nullptr);
  if (!keepAlive) {
    std::fprintf(stderr, "ricochet-video-bench: cannot open the X display (run under xvfb-run -a)\n");
    return 1;
  }
  const char* lp = std::getenv("LP_NUM_THREADS");
  std::printf("ricochet-video-bench: %u hardware threads, LP_NUM_THREADS=%s, load average %s\n",
              std::thread::hardware_concurrency(), lp ? lp : "(unset)", loadAverage().c_str());

  std::printf("\nFrame cost at %dx%d, median of %d frames, ms\n", o.width, o.height, o.frames);
  std::printf("  %-16s %-6s %9s %14s %11s\n", "system", "aa", "Render()", "renderFrame()", "writePng()");
  for (const std::string& id : o.systems) {
    for (auto aa : {render::Antialiasing::Off, render::Antialiasing::Fxaa, render::Antialiasing::Msaa}) {
      if (!frameCost(o, *findSystem(id), aa)) return 1;
    }
  }

  if (o.exports) {
    const fs::path dir = fs::temp_directory_path();
    const std::string tag = "ricochet-video-bench-" + std::to_string(::getpid());
    std::printf("\nExports (exportVideo end to end, defaults: 30 fps, speed 1)\n");
    std::printf("  %-14s %-4s %-6s %11s %6s %8s %9s %9s %10s\n", "system", "fmt", "aa", "size", "frames", "wall s",
                "frames/s", "video/wall", "KiB");
    const std::string first = o.systems.front();
    for (auto aa : {render::Antialiasing::Off, render::Antialiasing::Fxaa, render::Antialiasing::Msaa}) {
      exportRow(first, render::VideoFormat::Mp4, aa, 1280, 720, o.seconds, dir / (tag + ".mp4"));
    }
    for (std::size_t i = 1; i < o.systems.size(); ++i) {
      exportRow(o.systems[i], render::VideoFormat::Mp4, render::Antialiasing::Off, 1280, 720, o.seconds,
                dir / (tag + ".mp4"));
    }
    // The other formats, 2 s each, with the default (no) antialiasing.
    exportRow(first, render::VideoFormat::Gif, render::Antialiasing::Off, 640, 360, 2.0, dir / (tag + ".gif"));
    exportRow(first, render::VideoFormat::Gif, render::Antialiasing::Off, 1280, 720, 2.0, dir / (tag + ".gif"));
    exportRow(first, render::VideoFormat::Ogv, render::Antialiasing::Off, 1280, 720, 2.0, dir / (tag + ".ogv"));
    exportRow(first, render::VideoFormat::PngSequence, render::Antialiasing::Off, 1280, 720, 2.0,
              dir / (tag + "-%05d.png"));
  }
  std::printf("\nload average at the end: %s\n", loadAverage().c_str());
  XCloseDisplay(keepAlive);
  return 0;
}
