#pragma once
// Animation export: a simulation rendered off-screen frame by frame on the SIMULATION clock and
// encoded to MP4 (H.264) or GIF by the `ffmpeg` program fed raw RGB frames on a pipe, to Ogg/Theora
// by VTK's writer (no external program), or to a numbered PNG sequence. VTK + POSIX, no Qt:
// `ricochet-cli video` drives it, and the GUI runs that command as a child process.
//
// Frame timing (the contract of `ricochet-cli video`, README "Command line"):
//   N   = round(T * fps / speed) frames, T the simulated duration (s), speed the simulated seconds
//         per video second; the video lasts N / fps seconds (ffprobe's duration).
//   t_k = k * speed / fps, k = 0 .. N-1, the simulated time frame k stands for.
//   Frame k shows the integrator's state at step j_k = round(t_k / h) (the step nearest t_k, ties
//   upward), never an interpolated or wall-clock sample: every picture is a state the integrator
//   produced (admissible, with its exact impacts), and |j_k h - t_k| <= h/2.
//
// Output files appear complete or not at all: the encoder writes a temporary file next to the
// target (core/io AtomicFile) that is renamed only at the end; a cancel or an encoder failure
// removes it. After an integrator failure the frames rendered so far are finalised and kept.

#include "core/model/system.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace ricochet::render {

enum class VideoFormat {
  Mp4,          ///< H.264 (yuv420p) in MP4, through ffmpeg
  Gif,          ///< GIF through ffmpeg (one palette per frame, streamed)
  Ogv,          ///< Ogg/Theora through vtkOggTheoraWriter (needs no external program)
  PngSequence,  ///< one PNG per frame, names from a printf-style %d / %0Nd pattern
};

/// "mp4", "gif", "ogv", "png".
const char* toString(VideoFormat format);

/// The format an output path asks for, from its extension (case-insensitive): .mp4, .gif, .ogv
/// (or .ogg), or .png with exactly one %d / %0Nd (N = 1..9) in the file name (e.g.
/// "frames/f_%05d.png"; "%%" is a literal '%'). nullopt with `*error` naming the path otherwise.
std::optional<VideoFormat> videoFormatFor(const std::filesystem::path& output, std::string* error);

/// Name of PNG frame k for a pattern videoFormatFor() accepted ("f_%05d.png", 7 -> "f_00007.png").
std::filesystem::path pngFrameName(const std::filesystem::path& pattern, std::int64_t k);

/// How many frames a video of `duration` simulated seconds has: round(duration * fps / speed)
/// (see the file comment). -1 when not finite or beyond kMaxVideoFrames.
std::int64_t videoFrameCount(double duration, double fps, double speed);
/// The simulated time frame k stands for, t_k = k * speed / fps, s.
double videoFrameTime(std::int64_t k, double fps, double speed);
/// The integrator step shown by frame k: round(t_k / h), ties upward.
std::int64_t videoFrameStep(std::int64_t k, double fps, double speed, double h);

inline constexpr std::int64_t kMaxVideoFrames = 1'000'000;  ///< 9 h at 30 fps
inline constexpr int kMinVideoSize = 16;                    ///< pixels, per side
inline constexpr int kMaxVideoSize = 8192;                  ///< pixels, per side
inline constexpr double kMinVideoFps = 1.0;
inline constexpr double kMaxVideoFps = 240.0;

/// Edge smoothing of the exported frames. Under Mesa's software renderer (Xvfb, llvmpipe) a
/// 1280x720 frame of ellipse-floor costs ~15 ms plain, ~65 ms with FXAA and ~120 ms with 8x
/// multisampling, and a whole 10 s MP4 export takes ~2.5x (FXAA) or ~3x (MSAA) as long
/// (bench/README.md, ricochet-video-bench): exports default to Off.
enum class Antialiasing { Off, Fxaa, Msaa };  // not "None": X11 defines it as a macro

struct VideoOptions {
  std::filesystem::path output;  ///< FILE.mp4 | FILE.gif | FILE.ogv | PATTERN.png
  VideoFormat format = VideoFormat::Mp4;
  int width = 1280;      ///< pixels; even for MP4 and Ogg (4:2:0 chroma)
  int height = 720;      ///< pixels; even for MP4 and Ogg
  double fps = 30.0;     ///< video frames per second, [1, 240]; an integer for Ogg/Theora
  double speed = 1.0;    ///< simulated seconds per video second (> 0)
  double duration = 10.0;  ///< simulated seconds T to export (> 0)
  bool overlay = true;     ///< system title, integrator, t and the impact count in a corner
  bool follow = true;      ///< the camera follows the tracked body (as the GUI's default)
  Antialiasing antialiasing = Antialiasing::Off;
  std::string ffmpeg = "ffmpeg";  ///< program for MP4/GIF: a name looked up on PATH, or a path
  /// Called after every frame handed to the encoder and between the pieces of stepping towards
  /// the next one (at most 4096 steps apart), from the calling thread; return false to cancel
  /// (then no file is left behind). simTime is the simulated time (s) of the last frame encoded
  /// (0 before the first), also between frames.
  std::function<bool(std::int64_t framesDone, std::int64_t framesTotal, double simTime)> progress;
};

/// Empty when the options are usable for a run with time step `h` (s); otherwise one line naming
/// the offending value, e.g. "--fps 0 is invalid: must be in [1, 240]". Does not touch the display,
/// the file system or PATH.
std::string checkVideoOptions(const VideoOptions& options, double h);

/// The program `name` would run: `name` itself when it contains a '/', else the first executable
/// PATH entry; nullopt when there is none.
std::optional<std::filesystem::path> findProgram(const std::string& name);

enum class VideoOutcome {
  Completed,         ///< every frame written and the file renamed into place
  IntegratorFailed,  ///< advance() failed; the frames before it are finalised and kept
  Cancelled,         ///< progress returned false; nothing written
  BadInput,          ///< options, missing ffmpeg, no display, unwritable output; nothing written
  ExportFailed,      ///< the encoder (ffmpeg died, disk full ...) failed during the run; nothing written
};

struct VideoResult {
  VideoOutcome outcome = VideoOutcome::Completed;
  std::int64_t framesTotal = 0;    ///< N
  std::int64_t framesWritten = 0;  ///< frames in the output (N when completed)
  std::int64_t steps = 0;          ///< integrator steps taken
  double timeReached = 0.0;        ///< simulated time of the last good state, s
  std::int64_t impacts = 0;
  double wallSeconds = 0.0;
  RunStatus status = RunStatus::Ok;  ///< the integrator's status
  std::string message;  ///< one line when not completed (with step and time for a failure)
  bool ok() const { return outcome == VideoOutcome::Completed; }
};

/// Renders `simulation` (created from `scenario`, at its initial state) and encodes the frames.
/// Needs an X display (DISPLAY; Xvfb is fine) and, for MP4/GIF, ffmpeg. Never throws for
/// run-time conditions; every failure comes back in VideoResult.
VideoResult exportVideo(Simulation& simulation, const Scenario& scenario, const VideoOptions& options);

}  // namespace ricochet::render
