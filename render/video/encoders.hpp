#pragma once
// The encoders of an animation export (internal to render/video/), behind one small interface:
// ffmpeg on a pipe (MP4, GIF), VTK's Ogg/Theora writer, and PNG sequences. Each takes its
// frames straight from an OffscreenRenderer.

#include "render/video/animation_export.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace ricochet::render {
class OffscreenRenderer;
}

namespace ricochet::render::detail {

/// open() reserves the output (a temporary file or directory next to it), add() takes one frame
/// from the renderer, finish() finalises and renames into place, abort() removes everything.
/// Each returns one line on failure, empty on success.
class Encoder {
 public:
  virtual ~Encoder() = default;
  virtual std::string open() = 0;
  virtual std::string add(OffscreenRenderer& renderer) = 0;
  virtual std::string finish() = 0;
  virtual void abort() = 0;
};

/// MP4 or GIF (options.format) through the ffmpeg at `program`. `options` must outlive it.
std::unique_ptr<Encoder> makeFfmpegEncoder(const VideoOptions& options,
                                           std::filesystem::path program);
/// Ogg/Theora through vtkOggTheoraWriter, in-process: works where ffmpeg is missing.
std::unique_ptr<Encoder> makeOggEncoder(const VideoOptions& options);
/// PNG frames named by the pattern options.output.
std::unique_ptr<Encoder> makePngEncoder(const VideoOptions& options);

}  // namespace ricochet::render::detail
