#include "render/video/encoders.hpp"

#include "core/io/atomic_file.hpp"
#include "core/model/parameter.hpp"
#include "render/scene/offscreen_renderer.hpp"
#include "render/video/ffmpeg_pipe.hpp"
#include "render/video/frame_pattern.hpp"

#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkOggTheoraWriter.h>
#include <vtkPointData.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <vector>

#include <stdlib.h>

namespace ricochet::render::detail {
namespace {

namespace fs = std::filesystem;

/// Renders one frame and reads it back as packed RGB, rows BOTTOM-UP as OpenGL stores them (the
/// encoders flip for free: ffmpeg's vflip only changes strides). One glReadPixels into `into`,
/// without the extra copies of OffscreenRenderer::renderFrame(); the same buffer the
/// vtkWindowToImageFilter there reads (the render buffer, ReadFrontBufferOff).
void grabFrame(OffscreenRenderer& renderer, vtkUnsignedCharArray* into) {
  vtkRenderWindow* window = renderer.renderer()->GetRenderWindow();
  window->Render();
  window->GetPixelData(0, 0, renderer.width() - 1, renderer.height() - 1, 0, into, 0);
}

/// ffmpeg fed raw rgb24 frames on its standard input (FfmpegPipe), writing a temporary file that
/// is renamed into place at the end.
class FfmpegEncoder final : public Encoder {
 public:
  FfmpegEncoder(const VideoOptions& o, fs::path program) : o_(o), program_(std::move(program)) {}
  ~FfmpegEncoder() override { abort(); }
  FfmpegEncoder(const FfmpegEncoder&) = delete;
  FfmpegEncoder& operator=(const FfmpegEncoder&) = delete;

  std::string open() override {
    if (std::string e = file_.open(o_.output, io::AtomicFile::Writer::ByName); !e.empty()) return e;
    const std::string size = std::to_string(o_.width) + "x" + std::to_string(o_.height);
    std::vector<std::string> args = {program_.string(), "-hide_banner", "-nostats", "-loglevel", "error",
                                     "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size,
                                     "-r", formatNumber(o_.fps), "-i", "pipe:0", "-an"};
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
    std::string e = pipe_.start(program_, args);
    if (!e.empty()) file_.discard();
    return e;
  }

  std::string add(OffscreenRenderer& renderer) override {
    vtkSmartPointer<vtkUnsignedCharArray> frame = pipe_.nextBuffer();
    if (!frame) return failure();  // the writer failed
    grabFrame(renderer, frame);
    const vtkIdType expected = vtkIdType(o_.width) * o_.height * 3;
    if (frame->GetNumberOfValues() != expected) {
      return failure("the frame read back from OpenGL has " + std::to_string(frame->GetNumberOfValues()) +
                     " bytes, expected " + std::to_string(expected));
    }
    pipe_.push(std::move(frame));
    ++frames_;
    return {};
  }

  std::string finish() override {
    std::string e = pipe_.finish();
    std::error_code ec;
    if (e.empty() && fs::file_size(file_.temporaryPath(), ec) == 0) e = "ffmpeg exited without writing anything";
    if (!e.empty()) {
      file_.discard();
      return e + " (after " + std::to_string(frames_) + " frames)";
    }
    return file_.commit();
  }

  void abort() override {
    pipe_.kill();
    file_.discard();
  }

 private:
  /// After an error (the writer's, or `own`): collect ffmpeg's exit status and message, drop the
  /// file.
  std::string failure(const std::string& own = {}) {
    const std::string e = pipe_.fail(own);
    file_.discard();
    return e + " (after " + std::to_string(frames_) + " frames)";
  }

  const VideoOptions& o_;
  fs::path program_;
  io::AtomicFile file_;  // ffmpeg writes the temporary file by name; commit() renames it
  FfmpegPipe pipe_;
  std::int64_t frames_ = 0;
};

/// Ogg/Theora through vtkOggTheoraWriter, in-process: works where ffmpeg is missing.
class OggEncoder final : public Encoder {
 public:
  explicit OggEncoder(const VideoOptions& o) : o_(o) {}
  ~OggEncoder() override { abort(); }

  std::string open() override {
    if (std::string e = file_.open(o_.output, io::AtomicFile::Writer::ByName); !e.empty()) return e;
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

}  // namespace

std::unique_ptr<Encoder> makeFfmpegEncoder(const VideoOptions& options, fs::path program) {
  return std::make_unique<FfmpegEncoder>(options, std::move(program));
}

std::unique_ptr<Encoder> makeOggEncoder(const VideoOptions& options) {
  return std::make_unique<OggEncoder>(options);
}

std::unique_ptr<Encoder> makePngEncoder(const VideoOptions& options) {
  return std::make_unique<PngEncoder>(options);
}

}  // namespace ricochet::render::detail
