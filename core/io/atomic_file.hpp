#pragma once
// The one writer of every output file: files appear complete or not at all, and what is at the
// output path is respected.
//
// What open() does depends on what the path names:
// * nothing, or a regular file: the data goes to a temporary file in the target's directory
//   (".NAME.tmp-PID-N", so the final rename stays on one file system and is atomic on POSIX), and
//   only commit() moves it into place. A reader never sees half a file, and a cancelled or failed
//   write leaves the previous file (if any) untouched.
// * a symbolic link: written through to the file it names (followed to the end of a chain, also a
//   link to a file that does not exist yet), atomically next to that file, so the link stays a
//   link.
// * a character device or a FIFO (/dev/null, a terminal, a named pipe), or the standard output
//   ("-", /dev/stdout, whatever file descriptor 1 is, even a regular file it was redirected to):
//   written directly, in order; commit() only flushes. What was written before a cancel or a
//   failure cannot be taken back from a pipe or a device; discard() just stops.
// * anything else (a directory, a block device, a socket) is refused with one line naming it.
//
// Writers that write the data themselves by name (HDF5, ffmpeg, VTK's video writer) open with
// Writer::ByName and write into temporaryPath(): next to a file target as above; for a stream
// target a temporary file in the system's temporary folder, whose bytes commit() copies into the
// stream and then removes.

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace ricochet::io {

/// "-": the name of the standard output wherever an output path is taken.
inline constexpr std::string_view kStandardOutputName = "-";

/// True when `path` writes to this process's standard output: "-", or a path naming the very
/// file, pipe or device that file descriptor 1 is (/dev/stdout, /proc/self/fd/1, ...). A program
/// prints its own messages to stderr then, so they do not mix with the data.
bool isStandardOutput(const std::filesystem::path& path);

/// True when two output paths would be written into one another: the same name, or names of the
/// same existing regular file, or both the standard output. Character devices may be shared
/// (`--csv /dev/null --impacts-csv /dev/null`).
bool sameOutput(const std::filesystem::path& a, const std::filesystem::path& b);

/// Follows `path` through symbolic links to the name at the end of the chain (`end`; `path` itself
/// when it is no link), which may not exist yet: a dangling link names the file to create. Empty
/// on success, else the reason (a loop of links, a link that cannot be read).
std::string followLinks(const std::filesystem::path& path, std::filesystem::path& end);

/// What AtomicFile::open() would refuse at `path` (a directory, a missing folder, ...), without
/// creating or opening anything (a FIFO's reader is not woken). Empty when it can be written.
std::string checkOutput(const std::filesystem::path& path);

class AtomicFile {
 public:
  /// Who writes the bytes: this object (write()), or another library by name (temporaryPath()).
  enum class Writer { Here, ByName };
  /// What the target turned out to be at open().
  enum class Kind { None, File, Stream };

  AtomicFile() = default;
  ~AtomicFile() { discard(); }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Looks at what `target` names (see the file comment) and opens the temporary file or the
  /// stream. Empty on success, otherwise a one-line message naming `target`. A FIFO without a
  /// reader blocks here until one opens it, as for any program that writes to a FIFO.
  std::string open(const std::filesystem::path& target, Writer writer = Writer::Here);
  bool isOpen() const { return file_ != nullptr || !temp_.empty(); }
  Kind kind() const { return kind_; }

  /// Appends bytes (Writer::Here). Empty on success, otherwise a message naming the target (disk
  /// full, a closed pipe, ...).
  std::string write(std::string_view data);

  /// Completes the output: flushes, syncs, closes and renames the temporary file onto the
  /// (resolved) target; for a stream, flushes it (Writer::ByName: after copying the temporary
  /// file into it). Empty on success; on failure nothing is left but what a stream already got.
  std::string commit();

  /// Closes and removes the temporary file; the target is not touched. Safe to call twice.
  void discard();

  /// The path as given to open().
  const std::filesystem::path& target() const { return target_; }
  /// The file the rename replaces (the end of a chain of symbolic links); empty for a stream.
  const std::filesystem::path& resolvedTarget() const { return resolved_; }
  /// Writer::ByName: where the other library writes; Writer::Here: the file behind write()
  /// (empty for a stream).
  const std::filesystem::path& temporaryPath() const { return temp_; }

 private:
  std::string openStream(Writer writer);
  std::string openTemporary(const std::filesystem::path& dir, const std::string& name);
  void closeFiles();

  std::FILE* file_ = nullptr;    ///< the temporary file, or the stream (Writer::Here)
  std::FILE* stream_ = nullptr;  ///< Writer::ByName to a stream: where commit() copies to
  Kind kind_ = Kind::None;
  std::filesystem::path target_;
  std::filesystem::path resolved_;
  std::filesystem::path temp_;
};

/// Writes `content` to `path` through an AtomicFile. Empty on success, otherwise one line.
std::string writeFileAtomically(const std::filesystem::path& path, std::string_view content);

}  // namespace ricochet::io
