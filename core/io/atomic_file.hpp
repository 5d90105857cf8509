#pragma once
// Files that appear complete or not at all: data goes to a temporary file in the target's
// directory (so the final rename stays on one file system and is atomic on POSIX), and only
// commit() moves it into place. A reader never sees half a scenario or half a trace, and a
// cancelled or failed write leaves the previous file (if any) untouched.

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace ricochet::io {

class AtomicFile {
 public:
  AtomicFile() = default;
  ~AtomicFile() { discard(); }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Creates the temporary file next to `target` (".NAME.tmp-PID-N"). Empty on success,
  /// otherwise a one-line message naming `target`.
  std::string open(const std::filesystem::path& target);
  bool isOpen() const { return file_ != nullptr; }

  /// Appends bytes. Empty on success, otherwise a message naming the target (disk full, ...).
  std::string write(std::string_view data);

  /// Flushes, syncs, closes and renames the temporary file onto the target. Empty on success.
  std::string commit();

  /// Closes and removes the temporary file; the target is not touched. Safe to call twice.
  void discard();

  const std::filesystem::path& target() const { return target_; }
  const std::filesystem::path& temporaryPath() const { return temp_; }

 private:
  std::FILE* file_ = nullptr;
  std::filesystem::path target_;
  std::filesystem::path temp_;
};

/// Writes `content` to `path` atomically (AtomicFile). Empty on success, otherwise one line.
std::string writeFileAtomically(const std::filesystem::path& path, std::string_view content);

}  // namespace ricochet::io
