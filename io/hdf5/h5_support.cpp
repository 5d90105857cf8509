#include "io/hdf5/h5_support.hpp"

#include <string_view>
#include <utility>

#include <sys/mman.h>  // memfd_create (Linux)
#include <unistd.h>    // dup2, close

namespace ricochet::hdf5::detail {
namespace {

// HDF5 1.10 keeps the id of a file whose close failed (its last writes did not reach a full disk,
// or went past the file size limit), half destroyed, and its exit handler crashes on it. Every file
// Ricochet opens is closed by its owner, so the exit handler has nothing to do: it is turned off,
// before the library starts (this runs at static initialisation, before any HDF5 call).
const bool kNoExitHandler = [] {
  H5dont_atexit();
  return true;
}();

Handle stringType(bool variable, std::size_t size) {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose);
  if (!t.valid()) return t;
  if (H5Tset_size(t.get(), variable ? H5T_VARIABLE : size) < 0 ||
      H5Tset_cset(t.get(), H5T_CSET_UTF8) < 0) {
    return {};
  }
  return t;
}

// A new attribute `name` of `object` (replacing one of that name), or an invalid handle.
Handle createAttribute(hid_t object, const char* name, hid_t type, hid_t space) {
  if (H5Aexists(object, name) > 0 && H5Adelete(object, name) < 0) return {};
  return Handle(H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
}

bool writeScalar(hid_t object, const char* name, hid_t fileType, hid_t memType, const void* value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  if (!space.valid()) return false;
  Handle a = createAttribute(object, name, fileType, space.get());
  return a.valid() && H5Awrite(a.get(), memType, value) >= 0;
}

// The attribute, with its type and dataspace, when it exists and its type is of class `cls`.
struct OpenAttribute {
  Handle attribute, type, space;
};
std::optional<OpenAttribute> openAttribute(hid_t object, const char* name, H5T_class_t cls) {
  if (H5Aexists(object, name) <= 0) return std::nullopt;
  OpenAttribute a;
  a.attribute = Handle(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  if (!a.attribute.valid()) return std::nullopt;
  a.type = Handle(H5Aget_type(a.attribute.get()), H5Tclose);
  a.space = Handle(H5Aget_space(a.attribute.get()), H5Sclose);
  if (!a.type.valid() || !a.space.valid() || H5Tget_class(a.type.get()) != cls) return std::nullopt;
  return a;
}

template <typename T>
std::optional<T> readScalar(hid_t object, const char* name, H5T_class_t cls, hid_t memType) {
  auto a = openAttribute(object, name, cls);
  if (!a || H5Sget_simple_extent_npoints(a->space.get()) != 1) return std::nullopt;
  T value{};
  if (H5Aread(a->attribute.get(), memType, &value) < 0) return std::nullopt;
  return value;
}

herr_t firstDescription(unsigned, const H5E_error2_t* error, void* data) {
  auto* text = static_cast<std::string*>(data);
  if (text->empty() && error && error->desc) *text = error->desc;
  return 0;
}

}  // namespace

Handle::Handle(Handle&& other) noexcept
    : id_(std::exchange(other.id_, H5I_INVALID_HID)),
      close_(std::exchange(other.close_, nullptr)) {}

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    (void)close();
    id_ = std::exchange(other.id_, H5I_INVALID_HID);
    close_ = std::exchange(other.close_, nullptr);
  }
  return *this;
}

bool Handle::close() {
  if (id_ < 0 || !close_) {
    id_ = H5I_INVALID_HID;
    return true;
  }
  const herr_t status = close_(std::exchange(id_, H5I_INVALID_HID));
  return status >= 0;
}

QuietErrors::QuietErrors() {
  H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietErrors::~QuietErrors() {
  // The messages have been read (lastError) where the errors happened. Clearing the stack releases
  // the error classes its entries hold: a thread that ends with a non-empty stack (a file read on
  // a pool thread) would otherwise keep them, and HDF5 loops at exit trying to free them.
  H5Eclear2(H5E_DEFAULT);
  H5Eset_auto2(H5E_DEFAULT, func_, data_);
}

std::string lastError() {
  std::string text;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, &firstDescription, &text);
  // The sec2 driver's description of a failed write or read spans lines and lists its buffers
  // ("file write failed: time = ...\n, filename = ..., errno = 28, error message = 'No space left
  // on device', buf = ..."): the system's message is what a user needs, on one line.
  constexpr std::string_view kSystem = "error message = '";
  if (const auto at = text.find(kSystem); at != std::string::npos) {
    const auto from = at + kSystem.size();
    const auto to = text.find('\'', from);
    text = text.substr(from, to == std::string::npos ? std::string::npos : to - from);
  }
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

bool detachFromDisk(hid_t file) {
  void* handle = nullptr;
  if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || !handle) return false;
  const int fd = *static_cast<int*>(handle);
  const int memory = ::memfd_create("ricochet-discarded-hdf5", MFD_CLOEXEC);
  if (memory < 0) return false;
  const bool ok = ::dup2(memory, fd) == fd;
  ::close(memory);
  return ok;
}

bool writeString(hid_t object, const char* name, std::string_view value) {
  Handle type = stringType(true, 0);
  if (!type.valid()) return false;
  const std::string text(value);
  const char* p = text.c_str();
  return writeScalar(object, name, type.get(), type.get(), &p);
}

bool writeStrings(hid_t object, const char* name, const std::vector<std::string>& values) {
  Handle type = stringType(true, 0);
  if (!type.valid()) return false;
  const hsize_t n = values.size();
  Handle space(n == 0 ? H5Screate(H5S_NULL) : H5Screate_simple(1, &n, nullptr), H5Sclose);
  if (!space.valid()) return false;
  Handle a = createAttribute(object, name, type.get(), space.get());
  if (!a.valid()) return false;
  if (n == 0) return true;
  std::vector<const char*> pointers;
  pointers.reserve(values.size());
  for (const std::string& v : values) pointers.push_back(v.c_str());
  return H5Awrite(a.get(), type.get(), pointers.data()) >= 0;
}

bool writeDouble(hid_t object, const char* name, double value) {
  return writeScalar(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

bool writeInt64(hid_t object, const char* name, std::int64_t value) {
  return writeScalar(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

std::optional<std::vector<std::string>> readStrings(hid_t object, const char* name) {
  auto a = openAttribute(object, name, H5T_STRING);
  if (!a) return std::nullopt;
  if (H5Sget_simple_extent_type(a->space.get()) == H5S_NULL) return std::vector<std::string>{};
  const hssize_t n = H5Sget_simple_extent_npoints(a->space.get());
  if (n < 0) return std::nullopt;
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(n));
  if (H5Tis_variable_str(a->type.get()) > 0) {
    Handle mem = stringType(true, 0);
    std::vector<char*> pointers(static_cast<std::size_t>(n), nullptr);
    if (!mem.valid() || H5Aread(a->attribute.get(), mem.get(), pointers.data()) < 0)
      return std::nullopt;
    for (char* p : pointers) out.emplace_back(p ? p : "");
#if H5_VERSION_GE(1, 12, 0)
    H5Treclaim(mem.get(), a->space.get(), H5P_DEFAULT, pointers.data());
#else
    H5Dvlen_reclaim(mem.get(), a->space.get(), H5P_DEFAULT, pointers.data());  // Debian 12: 1.10
#endif
    return out;
  }
  const std::size_t size = H5Tget_size(a->type.get());
  if (size == 0) return std::nullopt;
  Handle mem(H5Tcopy(a->type.get()), H5Tclose);
  std::string buffer(size * static_cast<std::size_t>(n), '\0');
  if (!mem.valid() || H5Aread(a->attribute.get(), mem.get(), buffer.data()) < 0)
    return std::nullopt;
  for (hssize_t i = 0; i < n; ++i) {
    std::string s = buffer.substr(static_cast<std::size_t>(i) * size, size);
    s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<std::string> readString(hid_t object, const char* name) {
  auto a = openAttribute(object, name, H5T_STRING);
  if (!a || H5Sget_simple_extent_type(a->space.get()) == H5S_NULL ||
      H5Sget_simple_extent_npoints(a->space.get()) != 1) {
    return std::nullopt;
  }
  auto values = readStrings(object, name);
  if (!values || values->size() != 1) return std::nullopt;
  return std::move(values->front());
}

std::optional<double> readDouble(hid_t object, const char* name) {
  return readScalar<double>(object, name, H5T_FLOAT, H5T_NATIVE_DOUBLE);
}

std::optional<std::int64_t> readInt64(hid_t object, const char* name) {
  return readScalar<std::int64_t>(object, name, H5T_INTEGER, H5T_NATIVE_INT64);
}

}  // namespace ricochet::hdf5::detail
