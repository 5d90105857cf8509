#pragma once
// The ffmpeg child process of an export (internal to render/video/): spawning it with raw frames
// on its standard input, writing the frames from a thread of its own, and collecting its exit
// status and last error line. POSIX (posix_spawn, pipes, waitpid); knows nothing of formats:
// the caller builds the command line.

#include <vtkSmartPointer.h>

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sys/types.h>

class vtkUnsignedCharArray;

namespace ricochet::render::detail {

/// A writer thread pushes frame k down the pipe while the caller renders frame k+1, so rendering
/// and encoding overlap (ffmpeg runs in its own process and threads). At most kQueued frames
/// wait in memory; their buffers are reused.
class FfmpegPipe {
 public:
  FfmpegPipe() = default;
  /// Kills a running ffmpeg (see kill()).
  ~FfmpegPipe();
  FfmpegPipe(const FfmpegPipe&) = delete;
  FfmpegPipe& operator=(const FfmpegPipe&) = delete;

  /// Starts `program` with `args` (args[0] is its name) in its own process group, its standard
  /// input on a pipe, its output discarded and its messages kept for error reports. Empty on
  /// success, else one line.
  std::string start(const std::filesystem::path& program, const std::vector<std::string>& args);
  /// Waits until fewer than kQueued frames wait, then hands out a buffer to fill (a reused one
  /// when there is one, else a new one). Null when the writer failed: call fail().
  vtkSmartPointer<vtkUnsignedCharArray> nextBuffer();
  /// Queues a filled buffer for ffmpeg.
  void push(vtkSmartPointer<vtkUnsignedCharArray> frame);
  /// Writes what is queued, closes ffmpeg's input and waits for it: empty when it exited with 0,
  /// else why not (a write error, or its exit code or signal and its last message line).
  std::string finish();
  /// After a failure (the writer's, or `own` from the caller, which kills ffmpeg first): stops
  /// the writer, reaps ffmpeg and returns what to report: ffmpeg's own words when it failed by
  /// itself, else the write error or `own`.
  std::string fail(const std::string& own = {});
  /// Kills ffmpeg (SIGKILL) if it runs, stops the writer and reaps it. Idempotent.
  void kill();

 private:
  static constexpr std::size_t kQueued = 2;

  void writeLoop();
  void stopWriter();
  void closePipe();
  std::string reap();
  std::string lastErrorLine();

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
};

}  // namespace ricochet::render::detail
