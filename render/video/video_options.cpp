// What an animation export is asked for, checked before anything runs (animation_export.hpp):
// the video format of an output path, PNG frame names, the frame clock on the simulation's time
// and the option checks, and the lookup of the encoder program on PATH.

#include "render/video/animation_export.hpp"

#include "core/io/trace.hpp"
#include "core/model/parameter.hpp"
#include "render/video/frame_pattern.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <utility>

#include <sys/stat.h>
#include <unistd.h>

namespace ricochet::render {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string num(double x) { return formatNumber(x); }

}  // namespace

using detail::frameFileName;
using detail::parsePngPattern;

const char* toString(VideoFormat format) {
  switch (format) {
    case VideoFormat::Mp4: return "mp4";
    case VideoFormat::Gif: return "gif";
    case VideoFormat::Ogv: return "ogv";
    case VideoFormat::PngSequence: return "png";
  }
  return "?";
}

std::optional<VideoFormat> videoFormatFor(const fs::path& output, std::string* error) {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return std::optional<VideoFormat>();
  };
  const std::string name = output.filename().string();
  if (output.empty() || name.empty()) return fail("--out needs a file name ending in .mp4, .gif, .ogv or .png");
  const std::string ext = lower(output.extension().string());
  if (ext == ".png") {
    if (!parsePngPattern(name)) {
      return fail("--out '" + output.string() +
                  "': a PNG sequence needs exactly one frame-number field %d or %0Nd (N = 1..9) in the "
                  "file name, e.g. frames/f_%05d.png");
    }
    return VideoFormat::PngSequence;
  }
  if (name.find('%') != std::string::npos && ext != ".png") {
    // A pattern for a single-file format is almost surely a mistake (ffmpeg would expand it).
    return fail("--out '" + output.string() + "': '%' frame patterns are for .png sequences only");
  }
  if (ext == ".mp4") return VideoFormat::Mp4;
  if (ext == ".gif") return VideoFormat::Gif;
  if (ext == ".ogv" || ext == ".ogg") return VideoFormat::Ogv;
  return fail("--out '" + output.string() + "': unknown video format '" + (ext.empty() ? name : ext) +
              "' (use .mp4, .gif, .ogv, or a .png frame pattern such as frames/f_%05d.png)");
}

fs::path pngFrameName(const fs::path& pattern, std::int64_t k) {
  const auto p = parsePngPattern(pattern.filename().string());
  if (!p) return {};
  return pattern.parent_path() / frameFileName(*p, k);
}

std::int64_t videoFrameCount(double duration, double fps, double speed) {
  const double n = duration * fps / speed;
  if (!std::isfinite(n) || n < 0.0 || n > static_cast<double>(kMaxVideoFrames) + 0.5) return -1;
  return std::llround(n);
}

double videoFrameTime(std::int64_t k, double fps, double speed) {
  return static_cast<double>(k) * speed / fps;
}

std::int64_t videoFrameStep(std::int64_t k, double fps, double speed, double h) {
  return static_cast<std::int64_t>(std::floor(videoFrameTime(k, fps, speed) / h + 0.5));
}

std::string checkVideoOptions(const VideoOptions& o, double h) {
  const bool chroma420 = o.format == VideoFormat::Mp4 || o.format == VideoFormat::Ogv;
  for (const auto& [name, v] : {std::pair{"width", o.width}, std::pair{"height", o.height}}) {
    if (v < kMinVideoSize || v > kMaxVideoSize) {
      return std::string(name) + " = " + std::to_string(v) + " is invalid: must be in [" +
             std::to_string(kMinVideoSize) + ", " + std::to_string(kMaxVideoSize) + "] pixels";
    }
    if (chroma420 && v % 2 != 0) {
      return std::string(name) + " = " + std::to_string(v) + " is invalid: " + toString(o.format) +
             " needs an even number of pixels (4:2:0 chroma)";
    }
  }
  if (!std::isfinite(o.fps) || o.fps < kMinVideoFps || o.fps > kMaxVideoFps) {
    return "fps = " + num(o.fps) + " is invalid: must be in [" + num(kMinVideoFps) + ", " + num(kMaxVideoFps) + "]";
  }
  if (o.format == VideoFormat::Ogv && o.fps != std::round(o.fps)) {
    return "fps = " + num(o.fps) + " is invalid for .ogv: VTK's Ogg/Theora writer takes whole frame rates";
  }
  if (!std::isfinite(o.speed) || !(o.speed > 0.0) || o.speed > 1e6) {
    return "speed = " + num(o.speed) + " is invalid: must be in (0, 1e6] simulated seconds per video second";
  }
  if (!std::isfinite(o.duration) || !(o.duration > 0.0)) {
    return "t_end = " + num(o.duration) + " is invalid: must be a finite number > 0 s";
  }
  if (!std::isfinite(h) || !(h > 0.0)) return "time step h = " + num(h) + " is invalid: must be > 0 s";
  const std::int64_t n = videoFrameCount(o.duration, o.fps, o.speed);
  if (n < 0) {
    return "t_end = " + num(o.duration) + " s at " + num(o.fps) + " fps and speed " + num(o.speed) +
           " needs more than " + std::to_string(kMaxVideoFrames) + " frames";
  }
  if (n == 0) {
    return "t_end = " + num(o.duration) + " s is shorter than one frame (" + num(o.speed / o.fps) +
           " s of simulated time at " + num(o.fps) + " fps and speed " + num(o.speed) + ")";
  }
  const double lastStep = videoFrameTime(n - 1, o.fps, o.speed) / h;
  if (!(lastStep < static_cast<double>(io::kMaxRunSteps))) {
    return "t_end = " + num(o.duration) + " s with h = " + num(h) + " s needs more than " +
           std::to_string(io::kMaxRunSteps) + " steps";
  }
  return {};
}

std::optional<fs::path> findProgram(const std::string& name) {
  const auto runnable = [](const fs::path& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) return runnable(name) ? std::optional<fs::path>(name) : std::nullopt;
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::string_view rest(path);
  for (;;) {
    const auto colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    const fs::path candidate = (dir.empty() ? fs::path(".") : fs::path(dir)) / name;
    if (runnable(candidate)) return candidate;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return std::nullopt;
}

}  // namespace ricochet::render
