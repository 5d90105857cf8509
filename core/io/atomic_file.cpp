#include "core/io/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <unistd.h>  // getpid, fsync (POSIX; core stays free of Qt and VTK)

namespace ricochet::io {

namespace {

std::string describeErrno(int err) { return std::strerror(err); }

std::atomic<unsigned> gTempCounter{0};

}  // namespace

std::string AtomicFile::open(const std::filesystem::path& target) {
  discard();
  target_ = target;
  if (target.empty()) return "empty output file name";
  std::error_code ec;
  if (std::filesystem::is_directory(target, ec)) return target.string() + ": is a directory";
  const std::filesystem::path dir =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(dir, ec)) {
    return target.string() + ": cannot write: directory '" + dir.string() + "' does not exist";
  }
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = std::string(".") + target.filename().string() + ".tmp-" +
                             std::to_string(static_cast<long>(::getpid())) + "-" +
                             std::to_string(gTempCounter.fetch_add(1));
    temp_ = dir / name;
    // "x": exclusive create (C11), so two writers never share a temporary file.
    file_ = std::fopen(temp_.c_str(), "wbx");
    if (file_) return {};
    if (errno != EEXIST) {
      const int err = errno;
      temp_.clear();
      return target.string() + ": cannot write: " + describeErrno(err);
    }
  }
  temp_.clear();
  return target.string() + ": cannot create a temporary file next to it";
}

std::string AtomicFile::write(std::string_view data) {
  if (!file_) return target_.string() + ": write to a file that is not open";
  if (data.empty()) return {};
  if (std::fwrite(data.data(), 1, data.size(), file_) != data.size()) {
    return target_.string() + ": write failed: " + describeErrno(errno);
  }
  return {};
}

std::string AtomicFile::commit() {
  if (!file_) return target_.string() + ": commit of a file that is not open";
  std::string error;
  if (std::fflush(file_) != 0) {
    error = target_.string() + ": write failed: " + describeErrno(errno);
  } else if (::fsync(::fileno(file_)) != 0 && errno != EINVAL) {
    error = target_.string() + ": sync failed: " + describeErrno(errno);
  }
  if (std::fclose(file_) != 0 && error.empty()) {
    error = target_.string() + ": close failed: " + describeErrno(errno);
  }
  file_ = nullptr;
  if (error.empty()) {
    std::error_code ec;
    std::filesystem::rename(temp_, target_, ec);
    if (ec) error = target_.string() + ": cannot move the finished file into place: " + ec.message();
  }
  if (!error.empty()) {
    std::error_code ignored;
    std::filesystem::remove(temp_, ignored);
  }
  temp_.clear();
  return error;
}

void AtomicFile::discard() {
  if (file_) {
    std::fclose(file_);
    file_ = nullptr;
  }
  if (!temp_.empty()) {
    std::error_code ignored;
    std::filesystem::remove(temp_, ignored);
    temp_.clear();
  }
}

std::string writeFileAtomically(const std::filesystem::path& path, std::string_view content) {
  AtomicFile f;
  std::string error = f.open(path);
  if (error.empty()) error = f.write(content);
  if (error.empty()) error = f.commit();
  return error;
}

}  // namespace ricochet::io
