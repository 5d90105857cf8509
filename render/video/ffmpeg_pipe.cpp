#include "render/video/ffmpeg_pipe.hpp"

#include <vtkUnsignedCharArray.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ricochet::render::detail {

namespace fs = std::filesystem;

FfmpegPipe::~FfmpegPipe() {
  kill();
  if (errFile_) std::fclose(errFile_);
}

std::string FfmpegPipe::start(const fs::path& program, const std::vector<std::string>& args) {
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
  const int rc = ::posix_spawn(&pid_, program.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fds[0]);
  if (rc != 0) {
    pid_ = -1;
    closePipe();
    return "cannot start ffmpeg ('" + program.string() + "'): " + std::strerror(rc);
  }
  writer_ = std::thread([this] { writeLoop(); });
  return {};
}

vtkSmartPointer<vtkUnsignedCharArray> FfmpegPipe::nextBuffer() {
  vtkSmartPointer<vtkUnsignedCharArray> frame;
  {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return filled_.size() < kQueued || !writeError_.empty(); });
    if (!writeError_.empty()) return nullptr;
    if (!spare_.empty()) {
      frame = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  if (!frame) frame = vtkSmartPointer<vtkUnsignedCharArray>::New();
  return frame;
}

void FfmpegPipe::push(vtkSmartPointer<vtkUnsignedCharArray> frame) {
  {
    std::lock_guard<std::mutex> lock(m_);
    filled_.push_back(std::move(frame));
  }
  cv_.notify_all();
}

std::string FfmpegPipe::finish() {
  stopWriter();
  if (!writeError_.empty()) return fail();
  closePipe();
  return reap();
}

std::string FfmpegPipe::fail(const std::string& own) {
  std::string writeError = own;
  if (writeError.empty()) {
    std::lock_guard<std::mutex> lock(m_);
    writeError = writeError_;
  }
  if (pid_ > 0 && !own.empty()) ::kill(pid_, SIGKILL);
  stopWriter();
  closePipe();
  std::string e = pid_ > 0 ? reap() : std::string();
  if (e.empty() || !own.empty()) e = writeError;  // ffmpeg's own words unless we stopped it
  return e;
}

void FfmpegPipe::kill() {
  if (pid_ > 0) ::kill(pid_, SIGKILL);  // unblocks a writer stuck in write() (EPIPE)
  stopWriter();
  closePipe();
  if (pid_ > 0) reap();
}

void FfmpegPipe::writeLoop() {
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

void FfmpegPipe::stopWriter() {
  if (!writer_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  cv_.notify_all();
  writer_.join();
}

void FfmpegPipe::closePipe() {
  if (pipe_ >= 0) ::close(pipe_);
  pipe_ = -1;
}

// Waits for ffmpeg; empty when it exited with 0, else what it said.
std::string FfmpegPipe::reap() {
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

std::string FfmpegPipe::lastErrorLine() {
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

}  // namespace ricochet::render::detail
