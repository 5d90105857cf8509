#pragma once
// Random draws that are the same on every platform and standard library.
//
// std::normal_distribution and std::uniform_real_distribution are not used: the standard leaves
// their algorithms to the implementation, so libstdc++, libc++ and MSVC draw different numbers
// from the same engine. std::mt19937_64's output sequence, on the other hand, is fixed by the
// standard (its 10000th output from the default seed is 9981545732273789042), so the mapping
// from its raw 64-bit words to numbers is written here:
//
//  * engine: std::mt19937_64 seeded with seed + 0x9E3779B97F4A7C15 * stream (mod 2^64), one
//    stream per random axis of a study (its index in "vary"), so adding or resizing one axis
//    never changes another's draws;
//  * uniform on [0, 1): u = (x >> 11) * 2^-53, the top 53 bits of one word (every double of the
//    form k 2^-53, equally likely);
//  * uniform on [low, high]: low + (high - low) u;
//  * standard normal (Box-Muller, cosine branch, two words per draw):
//    u1 = ((x1 >> 11) + 1) 2^-53 in (0, 1], u2 = (x2 >> 11) 2^-53, z = sqrt(-2 ln u1) cos(2 pi u2).
//
// The integer steps are exact everywhere. sqrt is correctly rounded by IEEE 754; log and cos come
// from the C library, which on glibc gives the same bits on every machine, and elsewhere may
// differ in the last bit of a normal draw.

#include <cstdint>
#include <random>

namespace ricochet::study {

class Draws {
 public:
  Draws(std::uint64_t seed, std::uint64_t stream);

  /// The engine's next raw 64-bit output.
  std::uint64_t raw() { return engine_(); }
  /// Uniform on [0, 1), 53 random bits.
  double uniform01();
  /// Uniform on [low, high].
  double uniform(double low, double high);
  /// Standard normal (mean 0, sd 1), Box-Muller.
  double normal();

 private:
  std::mt19937_64 engine_;
};

}  // namespace ricochet::study
