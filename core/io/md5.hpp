#pragma once
// MD5 (RFC 1321) of a byte string, as 32 lowercase hexadecimal digits: the fingerprint a
// scenario file records for its mesh ("md5"), so that a mesh changed since the scenario was saved
// is refused. A fingerprint, not a security measure.

#include <string>
#include <string_view>

namespace ricochet::io {

/// The MD5 digest of `bytes` in lowercase hexadecimal ("d41d8cd98f00b204e9800998ecf8427e" for
/// no bytes).
std::string md5Hex(std::string_view bytes);

}  // namespace ricochet::io
