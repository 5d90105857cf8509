#pragma once
// What the run file's writer and reader share (internal to io/hdf5/): HDF5 ids that close
// themselves, HDF5's own error printing silenced (messages are ours, one line naming the file),
// the innermost error text of the HDF5 error stack, and string and number attributes.

#include <hdf5.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ricochet::hdf5::detail {

/// Owns one HDF5 id and closes it with the matching function (H5Fclose, H5Dclose, ...).
class Handle {
 public:
  using Close = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Close close) : id_(id), close_(close) {}
  ~Handle() { (void)close(); }
  Handle(Handle&& other) noexcept;
  Handle& operator=(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  /// Closes the id now; false when HDF5 reports an error (for a file: its last writes failed).
  bool close();

 private:
  hid_t id_ = H5I_INVALID_HID;
  Close close_ = nullptr;
};

/// While alive, HDF5 does not print its error stacks to stderr on this thread; the stack is
/// cleared when it goes.
class QuietErrors {
 public:
  QuietErrors();
  ~QuietErrors();
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

/// The most specific description on this thread's HDF5 error stack ("" when empty), e.g.
/// "file write failed: ... No space left on device".
std::string lastError();

/// Points the descriptor of `file` (a file of the default sec2 driver) at an anonymous memory
/// file, so that closing it writes nowhere and cannot fail. For a file being thrown away after a
/// write error (a full disk): HDF5 1.10 keeps the id of a file whose close failed, half
/// destroyed, and crashes on it in its exit handler. False when it could not (then close as is).
bool detachFromDisk(hid_t file);

/// Attributes of `object`: UTF-8 variable-length strings (h5py reads them as str), a 1-D array
/// of them, a float64 and an int64. False on an HDF5 error.
bool writeString(hid_t object, const char* name, std::string_view value);
bool writeStrings(hid_t object, const char* name, const std::vector<std::string>& values);
bool writeDouble(hid_t object, const char* name, double value);
bool writeInt64(hid_t object, const char* name, std::int64_t value);

/// The attribute `name` of `object`; nullopt when missing or of another kind (strings: variable
/// or fixed length).
std::optional<std::string> readString(hid_t object, const char* name);
std::optional<std::vector<std::string>> readStrings(hid_t object, const char* name);
std::optional<double> readDouble(hid_t object, const char* name);
std::optional<std::int64_t> readInt64(hid_t object, const char* name);

}  // namespace ricochet::hdf5::detail
