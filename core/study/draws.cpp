#include "core/study/draws.hpp"

#include <cmath>
#include <numbers>

namespace ricochet::study {

namespace {
constexpr double kTwoToMinus53 = 1.0 / 9007199254740992.0;  // 2^-53, exact
}

Draws::Draws(std::uint64_t seed, std::uint64_t stream)
    : engine_(seed + 0x9E3779B97F4A7C15ull * stream) {}

double Draws::uniform01() { return static_cast<double>(engine_() >> 11) * kTwoToMinus53; }

double Draws::uniform(double low, double high) { return low + (high - low) * uniform01(); }

double Draws::normal() {
  const double u1 = static_cast<double>((engine_() >> 11) + 1) * kTwoToMinus53;  // (0, 1]: log is finite
  const double u2 = uniform01();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace ricochet::study
