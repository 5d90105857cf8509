#pragma once
// A folder that appears complete or not at all (internal to render/paraview/), the folder
// counterpart of core/io/atomic_file.hpp: files are written into a hidden temporary folder next to
// the target (".NAME.tmp-PID-N", same file system), and commit() renames it into place. A
// cancelled or failed series leaves nothing behind, and a reader never sees half a series.
//
// The target may not exist yet, or be an empty folder, or hold a previous series (only files that
// `ownFile` accepts): commit() then replaces it. A folder holding anything else is refused at
// open(), so a mistyped path never deletes somebody's files.

#include <filesystem>
#include <functional>
#include <string>

namespace ricochet::render::paraview {

class SeriesFolder {
 public:
  using OwnFile = std::function<bool(const std::string& fileName)>;

  SeriesFolder() = default;
  ~SeriesFolder() { discard(); }
  SeriesFolder(const SeriesFolder&) = delete;
  SeriesFolder& operator=(const SeriesFolder&) = delete;

  /// Checks `target` (see the file comment) and creates the temporary folder. Empty on success,
  /// otherwise one line naming `target`.
  std::string open(const std::filesystem::path& target, OwnFile ownFile);
  bool isOpen() const { return !temp_.empty(); }
  /// Where to write the files until commit().
  const std::filesystem::path& temporaryPath() const { return temp_; }
  const std::filesystem::path& target() const { return target_; }

  /// Moves the temporary folder into place, replacing the previous series. Empty on success;
  /// otherwise one line, and the temporary folder is removed (the target is as it was).
  std::string commit();
  /// Removes the temporary folder and its files; the target is not touched. Safe to call twice.
  void discard();

 private:
  /// Empty when `target_` may be replaced; otherwise why not.
  std::string replaceable() const;

  std::filesystem::path target_;
  std::filesystem::path temp_;
  OwnFile ownFile_;
};

}  // namespace ricochet::render::paraview
