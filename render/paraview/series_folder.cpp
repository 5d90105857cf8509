#include "render/paraview/series_folder.hpp"

#include "core/io/atomic_file.hpp"

#include <atomic>
#include <system_error>

#include <unistd.h>  // getpid

namespace ricochet::render::paraview {
namespace fs = std::filesystem;

namespace {

std::atomic<unsigned> gCounter{0};

// ".NAME.KIND-PID-N" next to `target`, for the first N that does not exist yet (nothing created).
fs::path sibling(const fs::path& target, const char* kind) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  return dir / (std::string(".") + target.filename().string() + "." + kind + "-" +
                std::to_string(long(::getpid())) + "-" + std::to_string(gCounter.fetch_add(1)));
}

}  // namespace

std::string SeriesFolder::replaceable() const {
  std::error_code ec;
  if (!fs::exists(target_, ec)) return {};
  if (!fs::is_directory(target_, ec)) return target_.string() + ": exists and is not a folder";
  for (fs::directory_iterator it(target_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!it->is_regular_file(ec) || !ownFile_(name)) {
      return target_.string() + ": the folder holds '" + name +
             "', which is not part of a ParaView series of Ricochet; choose a new or empty folder";
    }
  }
  if (ec) return target_.string() + ": cannot list the folder: " + ec.message();
  return {};
}

std::string SeriesFolder::open(const fs::path& target, OwnFile ownFile) {
  discard();
  target_ = target.lexically_normal();
  if (!target_.empty() && !target_.has_filename())
    target_ = target_.parent_path();  // "out/" -> "out"
  ownFile_ = std::move(ownFile);
  if (target_.empty() || target_.filename() == "." || target_.filename() == "..") {
    return std::string("'") + target.string() + "' cannot name a series folder";
  }
  // A symbolic link is written through: the series replaces the folder it names (created when
  // the link dangles), and the link stays a link.
  fs::path resolved;
  if (std::string e = io::followLinks(target_, resolved); !e.empty()) {
    return target_.string() + ": cannot write: " + e;
  }
  target_ = resolved.lexically_normal();
  std::error_code ec;
  const fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec)) {
    return target_.string() + ": cannot write: directory '" + parent.string() + "' does not exist";
  }
  if (std::string e = replaceable(); !e.empty()) return e;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path candidate = sibling(target_, "tmp");
    if (fs::create_directory(candidate, ec)) {
      temp_ = candidate;
      return {};
    }
    if (ec) return target_.string() + ": cannot write: " + ec.message();
  }
  return target_.string() + ": cannot create a temporary folder next to it";
}

std::string SeriesFolder::commit() {
  if (temp_.empty()) return target_.string() + ": commit of a folder that is not open";
  std::error_code ec;
  std::string error = replaceable();  // files may have appeared in it since open()
  fs::path old;
  if (error.empty() && fs::exists(target_, ec)) {
    old = sibling(target_, "old");
    fs::rename(target_, old, ec);
    if (ec) error = target_.string() + ": cannot move the previous series aside: " + ec.message();
  }
  if (error.empty()) {
    fs::rename(temp_, target_, ec);
    if (ec) {
      error = target_.string() + ": cannot move the finished series into place: " + ec.message();
      if (!old.empty()) {
        std::error_code ignored;
        fs::rename(old, target_, ignored);  // the previous series back where it was
        old.clear();
      }
    } else {
      temp_.clear();
    }
  }
  if (!old.empty()) {
    std::error_code ignored;
    fs::remove_all(old, ignored);
  }
  if (!error.empty()) discard();
  return error;
}

void SeriesFolder::discard() {
  if (temp_.empty()) return;
  std::error_code ignored;
  fs::remove_all(temp_, ignored);
  temp_.clear();
}

}  // namespace ricochet::render::paraview
