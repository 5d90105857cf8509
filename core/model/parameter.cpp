#include "core/model/parameter.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ricochet {

std::optional<std::size_t> indexOf(std::span<const ParameterSpec> specs, std::string_view name) {
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].name == name) return i;
  }
  return std::nullopt;
}

std::string compareNames(std::span<const ParameterSpec> specs,
                         std::span<const std::string_view> names) {
  const std::size_t n = std::max(specs.size(), names.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view listed = i < specs.size() ? std::string_view(specs[i].name) : "(none)";
    const std::string_view read = i < names.size() ? names[i] : "(none)";
    if (listed != read) {
      return "entry " + std::to_string(i) + " is '" + std::string(listed) +
             "' in the spec list but '" + std::string(read) + "' where the code reads it";
    }
  }
  return {};
}

std::string formatNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, value);  // shortest round-trip form
  return std::string(buf, res.ptr);
}

std::string rangeText(const ParameterSpec& spec) {
  const bool lo = std::isfinite(spec.min);
  const bool hi = std::isfinite(spec.max);
  if (!lo && !hi) return "any finite value";
  if (lo && !hi) return std::string(spec.minExclusive ? "> " : ">= ") + formatNumber(spec.min);
  if (!lo && hi) return std::string(spec.maxExclusive ? "< " : "<= ") + formatNumber(spec.max);
  return std::string(spec.minExclusive ? "(" : "[") + formatNumber(spec.min) + ", " +
         formatNumber(spec.max) + (spec.maxExclusive ? ")" : "]");
}

std::string checkValue(const ParameterSpec& spec, double value, std::string_view kind) {
  const std::string head =
      std::string(kind) + " '" + spec.name + "' = " + formatNumber(value);
  if (!std::isfinite(value)) return head + " is not a finite number";
  const bool belowMin = spec.minExclusive ? !(value > spec.min) : !(value >= spec.min);
  const bool aboveMax = spec.maxExclusive ? !(value < spec.max) : !(value <= spec.max);
  if (belowMin || aboveMax) {
    std::string msg = head + " is out of range: must be ";
    const bool lo = std::isfinite(spec.min);
    const bool hi = std::isfinite(spec.max);
    if (lo && hi) {
      msg += "in " + rangeText(spec);
    } else {
      msg += rangeText(spec);
    }
    if (!spec.unit.empty()) msg += " " + spec.unit;
    return msg;
  }
  return {};
}

std::vector<double> defaultValues(std::span<const ParameterSpec> specs) {
  std::vector<double> v;
  v.reserve(specs.size());
  for (const auto& s : specs) v.push_back(s.defaultValue);
  return v;
}

ParameterSpec restitutionSpec() {
  return {
      std::string(kRestitution),
      "",
      1.0,
      0.0,
      1.0,
      false,
      false,
      "Coefficient of restitution e (Newton's law, frictionless): at every impact the contact's "
      "normal velocity maps u+ = -e u- and the kinetic energy drops by (1/2) m_eff (1 - e^2) "
      "u-^2; 1 is elastic, 0 plastic. Below 1 bounces accumulate and the body settles on the "
      "boundary (docs/restitution.md)."};
}

}  // namespace ricochet
