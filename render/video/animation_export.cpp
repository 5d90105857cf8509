// Animation export (animation_export.hpp): the frame loop on the simulation clock, and three
// encoders behind one small interface: ffmpeg on a pipe (MP4, GIF), VTK's Ogg/Theora writer, and
// PNG sequences.

#include "render/video/animation_export.hpp"

#include "core/io/atomic_file.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"
#include "render/scene/offscreen_renderer.hpp"

#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkOggTheoraWriter.h>
#include <vtkOutputWindow.h>
#include <vtkPointData.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkStringOutputWindow.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ricochet::render {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// A PNG pattern's file name split around its one %d / %0Nd conversion.
struct PngPattern {
  std::string prefix, suffix;  // with "%%" already turned into '%'
  int width = 0;               // 0: no padding
};

std::optional<PngPattern> parsePngPattern(const std::string& name) {
  PngPattern p;
  bool seen = false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    std::string& out = seen ? p.suffix : p.prefix;
    if (name[i] != '%') {
      out += name[i];
      continue;
    }
    const std::string_view rest = std::string_view(name).substr(i + 1);
    if (rest.starts_with('%')) {  // "%%": a literal '%'
      out += '%';
      i += 1;
    } else if (!seen && rest.starts_with('d')) {
      seen = true;
      i += 1;
    } else if (!seen && rest.size() >= 3 && rest[0] == '0' && rest[1] >= '1' && rest[1] <= '9' && rest[2] == 'd') {
      seen = true;
      p.width = rest[1] - '0';
      i += 3;
    } else {
      return std::nullopt;  // a second conversion, or one we do not take (%5d pads with blanks)
    }
  }
  if (!seen) return std::nullopt;
  return p;
}

std::string frameFileName(const PngPattern& p, std::int64_t k) {
  std::string digits = std::to_string(k);
  if (static_cast<int>(digits.size()) < p.width) digits.insert(0, p.width - digits.size(), '0');
  return p.prefix + digits + p.suffix;
}

std::string num(double x) { return formatNumber(x); }

/// "t = 1.23 s" with as many decimals as the time step resolves (h = 0.01 -> 2), at most 6.
std::string timeText(double t, double h) {
  int decimals = 0;
  if (h > 0.0 && std::isfinite(h)) decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(h) - 1e-9)), 0, 6);
  char buf[64];
  std::snprintf(buf, sizeof buf, "t = %.*f s", decimals, t);
  return buf;
}

/// Renders one frame and reads it back as packed RGB, rows BOTTOM-UP as OpenGL stores them (the
/// encoders flip for free: ffmpeg's vflip only changes strides). One glReadPixels into `into`,
/// without the extra copies of OffscreenRenderer::renderFrame(); the same buffer the
/// vtkWindowToImageFilter there reads (the render buffer, ReadFrontBufferOff).
void grabFrame(OffscreenRenderer& renderer, vtkUnsignedCharArray* into) {
  vtkRenderWindow* window = renderer.renderer()->GetRenderWindow();
  window->Render();
  window->GetPixelData(0, 0, renderer.width() - 1, renderer.height() - 1, 0, into, 0);
}

// ------------------------------------------------------------------------------------------
// Encoders. open() reserves the output (a temporary file or directory next to it), add() takes
// one frame from the renderer, finish() finalises and renames into place, abort() removes
// everything. Each returns one line on failure, empty on success.

class Encoder {
 public:
  virtual ~Encoder() = default;
  virtual std::string open() = 0;
  virtual std::string add(OffscreenRenderer& renderer) = 0;
  virtual std::string finish() = 0;
  virtual void abort() = 0;
};

/// ffmpeg fed raw rgb24 frames on its standard input. A writer thread pushes frame k down the
/// pipe while the caller renders frame k+1, so rendering and encoding overlap (ffmpeg and x264
/// run in their own process and threads). At most kQueued frames wait in memory.
class FfmpegEncoder final : public Encoder {
 public:
  FfmpegEncoder(const VideoOptions& o, fs::path program) : o_(o), program_(std::move(program)) {}
  ~FfmpegEncoder() override {
    abort();
    if (errFile_) std::fclose(errFile_);
  }

  std::string open() override {
    if (std::string e = file_.open(o_.output); !e.empty()) return e;
    const std::string size = std::to_string(o_.width) + "x" + std::to_string(o_.height);
    std::vector<std::string> args = {program_.string(), "-hide_banner", "-nostats", "-loglevel", "error",
                                     "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size,
                                     "-r", num(o_.fps), "-i", "pipe:0", "-an"};
    if (o_.format == VideoFormat::Mp4) {
      // ultrafast: a third less CPU than superfast (files ~1.6x larger), which matters when the
      // software renderer and x264 share two cores (bench/README.md); crf 20 is visually clean
      // for these flat-shaded scenes. yuv420p plays everywhere (needs even sizes).
      for (const char* a : {"-vf", "vflip", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20",
                            "-pix_fmt", "yuv420p", "-f", "mp4"}) {
        args.emplace_back(a);
      }
    } else {
      // One palette per frame (palettegen stats_mode=single + paletteuse new=1): streams with
      // bounded memory, where a global palette would hold every frame until the end.
      for (const char* a : {"-vf",
                            "vflip,split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1:"
                            "dither=bayer:bayer_scale=4",
                            "-loop", "0", "-f", "gif"}) {
        args.emplace_back(a);
      }
    }
    args.emplace_back("-y");
    args.push_back(file_.temporaryPath().string());
    return spawn(args);
  }

  std::string add(OffscreenRenderer& renderer) override {
    vtkSmartPointer<vtkUnsignedCharArray> frame;
    bool writerFailed = false;
    {
      std::unique_lock<std::mutex> lock(m_);
      cv_.wait(lock, [&] { return filled_.size() < kQueued || !writeError_.empty(); });
      writerFailed = !writeError_.empty();
      if (!writerFailed && !spare_.empty()) {
        frame = std::move(spare_.back());
        spare_.pop_back();
      }
    }
    if (writerFailed) return failure();  // outside the lock: failure() takes it
    if (!frame) frame = vtkSmartPointer<vtkUnsignedCharArray>::New();
    grabFrame(renderer, frame);
    const vtkIdType expected = vtkIdType(o_.width) * o_.height * 3;
    if (frame->GetNumberOfValues() != expected) {
      return failure("the frame read back from OpenGL has " + std::to_string(frame->GetNumberOfValues()) +
                     " bytes, expected " + std::to_string(expected));
    }
    {
      std::lock_guard<std::mutex> lock(m_);
      filled_.push_back(std::move(frame));
    }
    cv_.notify_all();
    ++frames_;
    return {};
  }

  std::string finish() override {
    stopWriter();
    if (!writeError_.empty()) return failure();
    closePipe();
    std::string e = reap();
    std::error_code ec;
    if (e.empty() && fs::file_size(file_.temporaryPath(), ec) == 0) e = "ffmpeg exited without writing anything";
    if (!e.empty()) {
      file_.discard();
      return e + " (after " + std::to_string(frames_) + " frames)";
    }
    return file_.commit();
  }

  void abort() override {
    if (pid_ > 0) ::kill(pid_, SIGKILL);  // unblocks a writer stuck in write() (EPIPE)
    stopWriter();
    closePipe();
    if (pid_ > 0) reap();
    file_.discard();
  }

 private:
  static constexpr std::size_t kQueued = 2;

  std::string spawn(const std::vector<std::string>& args) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return std::string("cannot create a pipe to ffmpeg: ") + std::strerror(errno);
    pipe_ = fds[1];
    // Bigger pipe (1 MiB is the unprivileged limit): fewer wake-ups per 2.7 MB frame. Best effort.
    ::fcntl(pipe_, F_SETPIPE_SZ, 1 << 20);
    // ffmpeg's messages go to an unlinked temporary file, read back only when it fails: a pipe
    // nobody drains could block ffmpeg, and nothing is left on disk.
    errFile_ = std::tmpfile();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    if (errFile_) {
      posix_spawn_file_actions_adddup2(&actions, fileno(errFile_), STDERR_FILENO);
    } else {
      posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    }
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // Own process group: a terminal's Ctrl-C reaches only us, and we decide how ffmpeg ends.
    // Default dispositions and an empty mask, whatever the caller ignores or blocks.
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) sigaddset(&defaults, s);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int rc = ::posix_spawn(&pid_, program_.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(fds[0]);
    if (rc != 0) {
      pid_ = -1;
      closePipe();
      file_.discard();
      return "cannot start ffmpeg ('" + program_.string() + "'): " + std::strerror(rc);
    }
    writer_ = std::thread([this] { writeLoop(); });
    return {};
  }

  void writeLoop() {
    // write() on a pipe whose reader died raises SIGPIPE in the writing thread: blocked here, it
    // stays pending and harmless, and write() reports EPIPE instead of killing the process.
    sigset_t pipeOnly;
    sigemptyset(&pipeOnly);
    sigaddset(&pipeOnly, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipeOnly, nullptr);
    for (;;) {
      vtkSmartPointer<vtkUnsignedCharArray> frame;
      {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return !filled_.empty() || stop_; });
        if (filled_.empty()) return;  // stop_ and nothing left to write
        frame = std::move(filled_.front());
        filled_.pop_front();
      }
      std::string error;
      const unsigned char* bytes = frame->GetPointer(0);
      const auto size = static_cast<std::size_t>(frame->GetNumberOfValues());
      std::size_t done = 0;
      while (done < size) {
        const ssize_t n = ::write(pipe_, bytes + done, size - done);
        if (n > 0) {
          done += static_cast<std::size_t>(n);
        } else if (n < 0 && errno == EINTR) {
          continue;
        } else {
          error = errno == EPIPE ? "ffmpeg stopped reading frames" : std::string("writing to ffmpeg failed: ") +
                                                                          std::strerror(errno);
          break;
        }
      }
      {
        std::lock_guard<std::mutex> lock(m_);
        spare_.push_back(std::move(frame));
        if (!error.empty()) {
          writeError_ = error;
          filled_.clear();
        }
      }
      cv_.notify_all();
      if (!error.empty()) return;
    }
  }

  void stopWriter() {
    if (!writer_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    writer_.join();
  }

  void closePipe() {
    if (pipe_ >= 0) ::close(pipe_);
    pipe_ = -1;
  }

  /// Waits for ffmpeg; empty when it exited with 0, else what it said.
  std::string reap() {
    int status = 0;
    pid_t r;
    do {
      r = ::waitpid(pid_, &status, 0);
    } while (r < 0 && errno == EINTR);
    pid_ = -1;
    if (r < 0) return std::string("waiting for ffmpeg failed: ") + std::strerror(errno);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
    std::string what = WIFEXITED(status) ? "ffmpeg exited with code " + std::to_string(WEXITSTATUS(status))
                                         : "ffmpeg was killed by signal " + std::to_string(WTERMSIG(status));
    const std::string said = lastErrorLine();
    return said.empty() ? what : what + ": " + said;
  }

  std::string lastErrorLine() {
    if (!errFile_) return {};
    std::string text;
    std::fflush(errFile_);
    std::rewind(errFile_);
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, errFile_)) > 0) {
      text.append(buf, n);
      if (text.size() > 65536) text.erase(0, text.size() - 65536);
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    const auto nl = text.find_last_of('\n');
    return nl == std::string::npos ? text : text.substr(nl + 1);
  }

  /// After an error (the writer's, or `own`): collect ffmpeg's exit status and message, drop the
  /// file.
  std::string failure(const std::string& own = {}) {
    std::string writeError = own;
    if (writeError.empty()) {
      std::lock_guard<std::mutex> lock(m_);
      writeError = writeError_;
    }
    if (pid_ > 0 && !own.empty()) ::kill(pid_, SIGKILL);
    stopWriter();
    closePipe();
    std::string e = pid_ > 0 ? reap() : std::string();
    file_.discard();
    if (e.empty() || !own.empty()) e = writeError;  // ffmpeg's own words unless we stopped it
    return e + " (after " + std::to_string(frames_) + " frames)";
  }

  const VideoOptions& o_;
  fs::path program_;
  io::AtomicFile file_;  // ffmpeg writes the temporary file by name; commit() renames it
  pid_t pid_ = -1;
  int pipe_ = -1;
  std::FILE* errFile_ = nullptr;
  std::thread writer_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<vtkSmartPointer<vtkUnsignedCharArray>> filled_;
  std::vector<vtkSmartPointer<vtkUnsignedCharArray>> spare_;
  std::string writeError_;
  bool stop_ = false;
  std::int64_t frames_ = 0;

 public:
  FfmpegEncoder(const FfmpegEncoder&) = delete;
  FfmpegEncoder& operator=(const FfmpegEncoder&) = delete;
};

/// Ogg/Theora through vtkOggTheoraWriter, in-process: works where ffmpeg is missing.
class OggEncoder final : public Encoder {
 public:
  explicit OggEncoder(const VideoOptions& o) : o_(o) {}
  ~OggEncoder() override { abort(); }

  std::string open() override {
    if (std::string e = file_.open(o_.output); !e.empty()) return e;
    image_->SetDimensions(o_.width, o_.height, 1);
    image_->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
    writer_->SetInputData(image_);
    writer_->SetFileName(file_.temporaryPath().c_str());
    writer_->SetRate(static_cast<int>(std::lround(o_.fps)));
    writer_->SetQuality(2);       // best of VTK's three levels
    writer_->SetSubsampling(1);   // 4:2:0, the usual Theora profile (needs even sizes)
    writer_->Start();
    if (writer_->GetError()) {
      file_.discard();
      return o_.output.string() + ": the Ogg/Theora writer could not start";
    }
    started_ = true;
    return {};
  }

  std::string add(OffscreenRenderer& renderer) override {
    // Straight into the image's scalars: OpenGL's bottom-up rows are vtkImageData's order.
    grabFrame(renderer, vtkUnsignedCharArray::SafeDownCast(image_->GetPointData()->GetScalars()));
    image_->Modified();
    writer_->Write();
    if (writer_->GetError()) return o_.output.string() + ": the Ogg/Theora writer failed to write a frame";
    return {};
  }

  std::string finish() override {
    if (started_) writer_->End();
    started_ = false;
    if (writer_->GetError()) {
      file_.discard();
      return o_.output.string() + ": the Ogg/Theora writer failed to finish the file";
    }
    return file_.commit();
  }

  void abort() override {
    if (started_) writer_->End();  // closes its file handle before the file is removed
    started_ = false;
    file_.discard();
  }

 private:
  const VideoOptions& o_;
  io::AtomicFile file_;
  vtkNew<vtkImageData> image_;
  vtkNew<vtkOggTheoraWriter> writer_;
  bool started_ = false;
};

/// PNG frames, written into a hidden temporary directory beside the pattern's directory and
/// moved into place at the end: a cancelled export leaves the directory as it was.
class PngEncoder final : public Encoder {
 public:
  explicit PngEncoder(const VideoOptions& o) : o_(o) {}
  ~PngEncoder() override { abort(); }

  std::string open() override {
    const auto pattern = parsePngPattern(o_.output.filename().string());
    if (!pattern) return o_.output.string() + ": not a PNG frame pattern";
    pattern_ = *pattern;
    dir_ = o_.output.has_parent_path() ? o_.output.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir_, ec)) {
      return o_.output.string() + ": cannot write: directory '" + dir_.string() + "' does not exist";
    }
    std::string templ = (dir_ / ".ricochet-frames-XXXXXX").string();
    if (!::mkdtemp(templ.data())) {
      return o_.output.string() + ": cannot write in '" + dir_.string() + "': " + std::strerror(errno);
    }
    temp_ = templ;
    return {};
  }

  std::string add(OffscreenRenderer& renderer) override {
    const fs::path path = temp_ / frameFileName(pattern_, frames_);
    std::string error;
    if (!renderer.writePng(path.string(), &error)) return error;
    ++frames_;
    return {};
  }

  std::string finish() override {
    for (std::int64_t k = 0; k < frames_; ++k) {
      const std::string name = frameFileName(pattern_, k);
      std::error_code ec;
      fs::rename(temp_ / name, dir_ / name, ec);
      if (ec) {
        const std::string e = (dir_ / name).string() + ": cannot move the frame into place: " + ec.message();
        abort();
        return e;
      }
    }
    std::error_code ec;
    fs::remove_all(temp_, ec);
    temp_.clear();
    return {};
  }

  void abort() override {
    if (temp_.empty()) return;
    std::error_code ec;
    fs::remove_all(temp_, ec);
    temp_.clear();
  }

 private:
  const VideoOptions& o_;
  PngPattern pattern_;
  fs::path dir_, temp_;
  std::int64_t frames_ = 0;
};

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
  std::unique_ptr<Encoder> encoder;
  if (o.format == VideoFormat::Mp4 || o.format == VideoFormat::Gif) {
    const auto program = findProgram(o.ffmpeg);
    if (!program) {
      return finishWith(VideoOutcome::BadInput,
                        "cannot write " + std::string(toString(o.format)) + ": the program '" + o.ffmpeg +
                            "' was not found on PATH (install ffmpeg, or write Ogg/Theora with --out FILE.ogv, "
                            "which needs no external program)");
    }
    encoder = std::make_unique<FfmpegEncoder>(o, *program);
  } else if (o.format == VideoFormat::Ogv) {
    encoder = std::make_unique<OggEncoder>(o);
  } else {
    encoder = std::make_unique<PngEncoder>(o);
  }
  {  // Probe the output location (AtomicFile names the problem) without starting an encoder.
    if (o.format != VideoFormat::PngSequence) {
      io::AtomicFile probe;
      if (std::string e = probe.open(o.output); !e.empty()) return finishWith(VideoOutcome::BadInput, e);
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
  const SceneSpec spec = system->scene(scenario.parameters);
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
