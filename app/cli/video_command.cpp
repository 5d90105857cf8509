// `ricochet-cli video`: renders a run off-screen on the simulation clock and encodes it
// (render/video/animation_export.hpp). Built only with the render layer (RICOCHET_BUILD_GUI=ON);
// the other commands never touch X, so list/describe/run keep working without a display.
//
// Machine-readable progress (for the GUI, which runs this command as a child process): on stdout,
//   progress DONE TOTAL T
// DONE frames of TOTAL are encoded and T is the simulated time (s) of the last one; at most ten
// lines a second, and always one for the last frame. Then one human summary line. SIGTERM or
// SIGINT cancel: the partial output is removed and the exit code is 128 + the signal (143, 130).

#include "app/cli/cli_args.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/interrupt.hpp"
#include "core/io/atomic_file.hpp"
#include "core/model/registry.hpp"
#include "render/video/animation_export.hpp"

#include <chrono>
#include <cstdio>
#include <string>

namespace ricochet::cli {

namespace {

/// An integer option in [lo, hi]; empty on success, else the bad-input line.
std::string integerOption(const ParsedArgs& a, const char* option, int lo, int hi, int& into) {
  const auto text = a.value(option);
  if (!text) return {};
  const auto n = parseInteger(*text);
  if (!n || *n < lo || *n > hi) {
    return std::string(option) + " '" + *text + "' is invalid: must be an integer in [" + std::to_string(lo) +
           ", " + std::to_string(hi) + "]";
  }
  into = static_cast<int>(*n);
  return {};
}

std::string numberOption(const ParsedArgs& a, const char* option, double& into) {
  const auto text = a.value(option);
  if (!text) return {};
  const auto x = parseNumber(*text);
  if (!x) return std::string(option) + " '" + *text + "' is not a number (or out of the range of a double)";
  into = *x;
  return {};
}

constexpr const char* kUsage =
    "ricochet-cli video SYSTEM|SCENARIO.json --out FILE.(mp4|gif|ogv)|PATTERN.png [options]\n"
    "    --out FILE        .mp4 (H.264, needs ffmpeg), .gif (needs ffmpeg), .ogv (Ogg/Theora, built in),\n"
    "                      or a PNG frame pattern with one %d / %05d field, e.g. frames/f_%05d.png\n"
    "    --fps F           video frames per second, [1, 240] (default 30; whole numbers for .ogv)\n"
    "    --t-end T         simulated seconds to show (default: the system's or the scenario's t_end)\n"
    "    --speed S         simulated seconds per video second (default 1)\n"
    "    --width W         pixels (default 1280; even for .mp4/.ogv)\n"
    "    --height H        pixels (default 720; even for .mp4/.ogv)\n"
    "    --set NAME=VALUE, --h H, --integrator NAME, --tolerance TOL   as for `run`\n"
    "    --antialias A     none (default) | fxaa | msaa (8x); in software rendering (Xvfb) an\n"
    "                      export takes about 2.5x (fxaa) or 3x (msaa) as long\n"
    "    --no-overlay      no title / time / impact count in the corner\n"
    "    --no-follow       fixed camera instead of following the body\n"
    "    --quiet           no progress lines\n"
    "  Frame k shows the integrator's state at the step nearest t_k = k * speed / fps, k = 0..N-1,\n"
    "  N = round(T * fps / speed): the video lasts N / fps seconds. Needs an X display (xvfb-run -a).\n"
    "  stdout: 'progress DONE TOTAL T' lines (at most 10/s, always the last), then a summary line.\n";

}  // namespace

int videoCommand(const std::vector<std::string>& args) {
  const ParsedArgs a = parseArgs(args,
                                 {{"--set", true, true},
                                  {"--h", true, false},
                                  {"--t-end", true, false},
                                  {"--integrator", true, false},
                                  {"--tolerance", true, false},
                                  {"--out", true, false},
                                  {"--fps", true, false},
                                  {"--speed", true, false},
                                  {"--width", true, false},
                                  {"--height", true, false},
                                  {"--antialias", true, false},
                                  {"--no-overlay", false, false},
                                  {"--no-follow", false, false},
                                  {"--quiet", false, false},
                                  {"--help", false, false}},
                                 "video");
  if (!a.error.empty()) return badInput(a.error);
  if (a.has("--help")) {
    print(kUsage);
    return kExitOk;
  }
  Scenario scenario;
  if (std::string e = scenarioFromArgs(a, "video", scenario); !e.empty()) return badInput(e);

  render::VideoOptions o;
  const auto out = a.value("--out");
  if (!out) return badInput("'video' needs --out FILE.mp4, FILE.gif, FILE.ogv or a PATTERN.png such as f_%05d.png");
  o.output = *out;
  std::string error;
  const auto format = render::videoFormatFor(o.output, &error);
  if (!format) return badInput(error);
  o.format = *format;
  if (std::string e = numberOption(a, "--fps", o.fps); !e.empty()) return badInput(e);
  if (std::string e = numberOption(a, "--speed", o.speed); !e.empty()) return badInput(e);
  if (std::string e = integerOption(a, "--width", render::kMinVideoSize, render::kMaxVideoSize, o.width); !e.empty()) {
    return badInput(e);
  }
  if (std::string e = integerOption(a, "--height", render::kMinVideoSize, render::kMaxVideoSize, o.height);
      !e.empty()) {
    return badInput(e);
  }
  if (const auto aa = a.value("--antialias")) {
    if (*aa == "none") {
      o.antialiasing = render::Antialiasing::Off;
    } else if (*aa == "fxaa") {
      o.antialiasing = render::Antialiasing::Fxaa;
    } else if (*aa == "msaa") {
      o.antialiasing = render::Antialiasing::Msaa;
    } else {
      return badInput("--antialias '" + *aa + "' is invalid: must be none, fxaa or msaa");
    }
  }
  o.overlay = !a.has("--no-overlay");
  o.follow = !a.has("--no-follow");

  // The checked simulation, then the video's own checks (which need h).
  if (std::string e = validateScenario(scenario); !e.empty()) return badInput(e);
  o.duration = scenario.tEnd;
  if (std::string e = render::checkVideoOptions(o, scenario.integrator.h); !e.empty()) {
    // The library names values neutrally ("fps = 0"); the user typed options.
    return badInput(e);
  }
  CreateResult created = createSimulation(scenario);
  if (!created.simulation) return badInput(created.error);

  // SIGTERM (QProcess::terminate, kill) and SIGINT (Ctrl-C) cancel between frames (interrupt.hpp);
  // the export then removes its temporary output. SIGPIPE is ignored there too: a reader that goes
  // away (`| head`, a GUI that closed the pipe) does not kill the export half-way, progress lines
  // then just go nowhere.
  const bool quiet = a.has("--quiet");
  // With the video itself on stdout (--out -), progress and the summary go to stderr.
  std::FILE* const report = io::isStandardOutput(o.output) ? stderr : stdout;
  auto lastPrint = std::chrono::steady_clock::time_point{};
  std::int64_t lastDone = -1;
  o.progress = [&](std::int64_t done, std::int64_t total, double t) {
    if (interrupted()) return false;
    if (quiet || done == lastDone) return true;
    const auto now = std::chrono::steady_clock::now();
    if (done == total || now - lastPrint >= std::chrono::milliseconds(100)) {
      std::fprintf(report, "progress %lld %lld %.9g\n", static_cast<long long>(done),
                   static_cast<long long>(total), t);
      std::fflush(report);
      lastPrint = now;
      lastDone = done;
    }
    return true;
  };

  const render::VideoResult r = render::exportVideo(*created.simulation, scenario, o);

  switch (r.outcome) {
    case render::VideoOutcome::BadInput:
      return badInput(r.message);
    case render::VideoOutcome::Cancelled:
      return interruptedExit(r.message);
    case render::VideoOutcome::ExportFailed:
      std::fprintf(stderr, "ricochet-cli: export failed: %s\n", r.message.c_str());
      return kExitExportFailed;
    case render::VideoOutcome::Completed:
    case render::VideoOutcome::IntegratorFailed:
      break;
  }
  const double videoSeconds = static_cast<double>(r.framesWritten) / o.fps;
  char line[512];
  std::snprintf(line, sizeof line,
                "%s: wrote %s: %lld %s, %dx%d, %s fps, %s s of video, t = 0 .. %s s, %lld %s, %.3g s "
                "(%.3g frames/s)%s\n",
                scenario.system.c_str(), o.output.string().c_str(), static_cast<long long>(r.framesWritten),
                r.framesWritten == 1 ? "frame" : "frames", o.width, o.height, formatNumber(o.fps).c_str(),
                formatNumber(videoSeconds).c_str(), formatNumber(r.timeReached).c_str(),
                static_cast<long long>(r.impacts), r.impacts == 1 ? "impact" : "impacts", r.wallSeconds,
                r.wallSeconds > 0 ? static_cast<double>(r.framesWritten) / r.wallSeconds : 0.0,
                r.ok() ? "" : " (stopped early)");
  std::fputs(line, report);
  std::fflush(report);
  if (r.outcome == render::VideoOutcome::IntegratorFailed) {
    std::fprintf(stderr, "ricochet-cli: %s\n", r.message.c_str());
    return kExitIntegratorFailed;
  }
  return kExitOk;
}

}  // namespace ricochet::cli
