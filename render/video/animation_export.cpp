// Animation export (animation_export.hpp): the frame loop on the simulation clock. Each frame
// advances the simulation to the step it shows, moves the scene, draws the overlay and hands the
// picture to one of the encoders (encoders.hpp); options are checked first (video_options.cpp).

#include "render/video/animation_export.hpp"

#include "core/io/atomic_file.hpp"
#include "core/model/parameter.hpp"
#include "core/model/registry.hpp"
#include "render/scene/offscreen_renderer.hpp"
#include "render/video/encoders.hpp"

#include <vtkNew.h>
#include <vtkOutputWindow.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkStringOutputWindow.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

namespace ricochet::render {

namespace fs = std::filesystem;

namespace {

std::string num(double x) { return formatNumber(x); }

/// "t = 1.23 s" with as many decimals as the time step resolves (h = 0.01 -> 2), at most 6.
std::string timeText(double t, double h) {
  int decimals = 0;
  if (h > 0.0 && std::isfinite(h)) decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(h) - 1e-9)), 0, 6);
  char buf[64];
  std::snprintf(buf, sizeof buf, "t = %.*f s", decimals, t);
  return buf;
}

/// Impacts reported during advance(), kept without allocating: the newest kKept since the last
/// frame (the scene shows at most 16 marks at once anyway) and a running count.
class ImpactRing final : public ImpactSink {
 public:
  static constexpr std::size_t kKept = 16;
  void onImpact(const ImpactRecord& impact) override {
    ring_[count_ % kKept] = impact;
    ++count_;
  }
  /// Impacts since the previous call, oldest first (at most kKept).
  template <class F>
  void drain(F&& f) {
    const std::uint64_t first = std::max<std::uint64_t>(drained_, count_ > kKept ? count_ - kKept : 0);
    for (std::uint64_t i = first; i < count_; ++i) f(ring_[i % kKept]);
    drained_ = count_;
  }

 private:
  std::array<ImpactRecord, kKept> ring_{};
  std::uint64_t count_ = 0;
  std::uint64_t drained_ = 0;
};

/// Captures VTK's error and warning text (instead of VTK printing it on stderr) while alive.
class VtkMessages {
 public:
  VtkMessages() : previous_(vtkOutputWindow::GetInstance()) {
    previous_->Register(nullptr);
    vtkOutputWindow::SetInstance(capture_);
  }
  ~VtkMessages() {
    vtkOutputWindow::SetInstance(previous_);
    previous_->UnRegister(nullptr);
  }
  VtkMessages(const VtkMessages&) = delete;
  VtkMessages& operator=(const VtkMessages&) = delete;

 private:
  vtkOutputWindow* previous_;
  vtkNew<vtkStringOutputWindow> capture_;
};

}  // namespace

VideoResult exportVideo(Simulation& simulation, const Scenario& scenario, const VideoOptions& o) {
  const auto wallStart = std::chrono::steady_clock::now();
  VideoResult r;
  const auto finishWith = [&](VideoOutcome outcome, std::string message) {
    r.outcome = outcome;
    r.message = std::move(message);
    if (outcome != VideoOutcome::Completed && outcome != VideoOutcome::IntegratorFailed) r.framesWritten = 0;
    r.steps = simulation.step();
    r.timeReached = simulation.time();
    r.impacts = simulation.impactCount();
    r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return r;
  };

  const double h = simulation.timeStep();
  if (std::string e = checkVideoOptions(o, h); !e.empty()) return finishWith(VideoOutcome::BadInput, e);
  r.framesTotal = videoFrameCount(o.duration, o.fps, o.speed);
  const SystemDescription* system = findSystem(scenario.system);
  if (!system) return finishWith(VideoOutcome::BadInput, "unknown system '" + scenario.system + "'");

  // Cheap checks first: a missing program or an unwritable path fail before any X connection.
  std::unique_ptr<detail::Encoder> encoder;
  if (o.format == VideoFormat::Mp4 || o.format == VideoFormat::Gif) {
    const auto program = findProgram(o.ffmpeg);
    if (!program) {
      return finishWith(VideoOutcome::BadInput,
                        "cannot write " + std::string(toString(o.format)) + ": the program '" + o.ffmpeg +
                            "' was not found on PATH (install ffmpeg, or write Ogg/Theora with --out FILE.ogv, "
                            "which needs no external program)");
    }
    encoder = detail::makeFfmpegEncoder(o, *program);
  } else if (o.format == VideoFormat::Ogv) {
    encoder = detail::makeOggEncoder(o);
  } else {
    encoder = detail::makePngEncoder(o);
  }
  {  // Probe the output location (AtomicFile names the problem) without starting an encoder.
    if (o.format != VideoFormat::PngSequence) {
      if (std::string e = io::checkOutput(o.output); !e.empty())
        return finishWith(VideoOutcome::BadInput, e);
    } else {
      std::error_code ec;
      const fs::path dir = o.output.has_parent_path() ? o.output.parent_path() : fs::path(".");
      if (!fs::is_directory(dir, ec)) {
        return finishWith(VideoOutcome::BadInput,
                          o.output.string() + ": cannot write: directory '" + dir.string() + "' does not exist");
      }
    }
  }

  VtkMessages quietVtk;  // VTK's own messages never reach stderr unasked
  std::string error;
  std::unique_ptr<OffscreenRenderer> off = OffscreenRenderer::create(o.width, o.height, &error);
  if (!off) return finishWith(VideoOutcome::BadInput, error);
  vtkRenderer* renderer = off->renderer();
  // Before the first render, so the window's framebuffer is created accordingly. OffscreenRenderer
  // asks for 8x MSAA, which triples the cost of a frame under llvmpipe (bench/README.md).
  renderer->GetRenderWindow()->SetMultiSamples(o.antialiasing == Antialiasing::Msaa ? 8 : 0);
  renderer->SetUseFXAA(o.antialiasing == Antialiasing::Fxaa);

  SceneView& view = off->scene();
  const SceneSpec spec = system->scene(scenario);
  view.setScene(spec);
  view.setFollow(o.follow);

  vtkNew<vtkTextActor> overlay;
  const SystemInfo& info = system->info();
  if (o.overlay) {
    vtkTextProperty* tp = overlay->GetTextProperty();
    tp->SetFontSize(std::max(10, o.height / 36));
    tp->SetColor(0.12, 0.14, 0.18);
    tp->SetJustificationToLeft();
    tp->SetVerticalJustificationToTop();
    tp->SetLineSpacing(1.15);
    tp->SetBackgroundColor(0.97, 0.98, 0.99);  // legible over trails and grid lines
    tp->SetBackgroundOpacity(0.65);
    const int margin = std::max(4, o.height / 60);
    overlay->SetDisplayPosition(margin, o.height - margin);
    renderer->AddActor2D(overlay);
  }
  const std::string headline = info.title + "\n" + scenario.integrator.name + ", h = " + num(h) + " s";

  std::vector<Pose> poses(spec.bodies.size());
  ImpactRing impacts;
  if (std::string e = encoder->open(); !e.empty()) return finishWith(VideoOutcome::BadInput, e);

  // An integrator failure ends the video at the last frame rendered: the file is finalised with
  // the frames before it (they are true states), and the message says how many.
  const auto integratorFailed = [&](std::int64_t k, RunStatus status, const std::string& failure) {
    r.status = status;
    const std::string kept = std::to_string(k) + (k == 1 ? " frame" : " frames");
    if (std::string e = encoder->finish(); !e.empty()) {
      return finishWith(VideoOutcome::ExportFailed, failure + "; the " + kept + " before it were lost: " + e);
    }
    r.framesWritten = k;
    return finishWith(VideoOutcome::IntegratorFailed,
                      failure + "; " + o.output.string() + " holds the " + kept + " before it (t < " +
                          num(videoFrameTime(k, o.fps, o.speed)) + " s)");
  };

  // Between two frames the simulation advances in up to kTrailSamples pieces, and each
  // intermediate state extends the trail (setPoses, nothing rendered): the trail follows the
  // integrator's path, not the straight chords between frames, when a frame spans many steps
  // (speed-ups, low fps). Splitting advance() changes no number. At most kChunk steps run
  // between cancel checks.
  constexpr std::int64_t kTrailSamples = 8;
  constexpr std::int64_t kChunk = 4096;
  double lastFrameTime = 0.0;  // progress reports the time of the last frame encoded
  for (std::int64_t k = 0; k < r.framesTotal; ++k) {
    const std::int64_t target = videoFrameStep(k, o.fps, o.speed, h);
    const std::int64_t piece =
        std::clamp<std::int64_t>((target - simulation.step() + kTrailSamples - 1) / kTrailSamples, 1, kChunk);
    while (simulation.step() < target) {
      const AdvanceResult a = simulation.advance(std::min(piece, target - simulation.step()), &impacts);
      if (!a.ok()) {
        return integratorFailed(k, a.status, failureText(simulation, a));
      }
      if (simulation.step() < target) {
        if (o.progress && !o.progress(k, r.framesTotal, lastFrameTime)) {
          encoder->abort();
          return finishWith(VideoOutcome::Cancelled, "cancelled at frame " + std::to_string(k) + " of " +
                                                         std::to_string(r.framesTotal) + "; no file written");
        }
        simulation.poses(poses);
        view.setPoses(poses, simulation.time());
      }
    }
    if (const double e = simulation.energy().total(); !std::isfinite(e)) {
      // The system did not flag it, but a non-finite state would only draw garbage.
      return integratorFailed(k, RunStatus::NonFinite,
                              failureText(simulation.step(), simulation.time() - simulation.timeStep(),
                                          "the energy is not finite (" + num(e) + ")"));
    }
    simulation.poses(poses);
    const double t = simulation.time();
    impacts.drain([&](const ImpactRecord& i) { view.addImpact(i.contactPoint, i.t); });
    view.setPoses(poses, t);
    if (o.overlay) {
      const std::int64_t n = simulation.impactCount();
      overlay->SetInput((headline + "\n" + timeText(t, h) + "   " + std::to_string(n) +
                         (n == 1 ? " impact" : " impacts"))
                            .c_str());
    }
    if (std::string e = encoder->add(*off); !e.empty()) {
      encoder->abort();
      return finishWith(VideoOutcome::ExportFailed, e + "; no file written");
    }
    r.framesWritten = k + 1;  // handed to the encoder
    lastFrameTime = t;
    if (o.progress && !o.progress(k + 1, r.framesTotal, t)) {
      encoder->abort();
      return finishWith(VideoOutcome::Cancelled, "cancelled after frame " + std::to_string(k + 1) + " of " +
                                                     std::to_string(r.framesTotal) + "; no file written");
    }
  }
  if (std::string e = encoder->finish(); !e.empty()) {
    return finishWith(VideoOutcome::ExportFailed, e + "; no file written");
  }
  return finishWith(VideoOutcome::Completed, {});
}

}  // namespace ricochet::render
