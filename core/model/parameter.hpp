#pragma once
// Named, user-editable numbers: physical parameters and initial conditions.
//
// A system lists its parameters and initial conditions once (ParameterSpec); the GUI forms, the
// CLI (`--set NAME=VALUE`, `describe`), scenario files and tests all read that list. Values travel
// as plain vectors aligned with the spec list (same order, same length).

#include <array>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ricochet {

inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

/// One named number with its unit, default, valid range and help text.
struct ParameterSpec {
  std::string name;           ///< identifier accepted by `--set NAME=VALUE`, e.g. "m", "theta0"
  std::string unit;           ///< SI unit, e.g. "kg", "m/s", "rad"; empty when dimensionless
  double defaultValue = 0.0;  ///< the paper's value (see the system's `source`)
  double min = -kUnbounded;   ///< lower bound of the valid range; -inf when unbounded
  double max = kUnbounded;    ///< upper bound of the valid range; +inf when unbounded
  bool minExclusive = false;  ///< true for strict bounds such as a mass > 0
  bool maxExclusive = false;
  std::string help;           ///< one sentence for tooltips and `describe`
};

/// The names of a spec list as a system's code reads them, in the list's order. A value is read
/// as `values[kParams("m")]`: the index is computed at compile time, and a name that is not in
/// the list does not compile. The registry checks, when it registers the system, that the list
/// its code reads is exactly its spec list (SystemDescription::readsNames), so the index is the
/// right one.
template <std::size_t N>
struct NameList {
  std::array<std::string_view, N> names;

  consteval std::size_t operator()(std::string_view name) const {
    for (std::size_t i = 0; i < N; ++i) {
      if (names[i] == name) return i;
    }
    throw "a name this system reads is not in its name list";  // a compile error
  }
  std::span<const std::string_view> view() const { return names; }
};
template <class... S>
NameList(S...) -> NameList<sizeof...(S)>;

/// Empty when the names of `specs` are `names`, in order; otherwise one line that says where they
/// differ (a programming error, reported at registration).
std::string compareNames(std::span<const ParameterSpec> specs,
                         std::span<const std::string_view> names);

/// Index of `name` in `specs`, or nullopt.
std::optional<std::size_t> indexOf(std::span<const ParameterSpec> specs, std::string_view name);

/// Empty when `value` is finite and inside the spec's range; otherwise a message that names the
/// value, e.g. "parameter 'm' = -1 is out of range: must be > 0 kg". `kind` is "parameter" or
/// "initial condition".
std::string checkValue(const ParameterSpec& spec, double value, std::string_view kind);

/// The defaults of a spec list, in order.
std::vector<double> defaultValues(std::span<const ParameterSpec> specs);

/// Human-readable range, e.g. "> 0", "[0, 6.283]", "any". Used by messages and tooltips.
std::string rangeText(const ParameterSpec& spec);

/// Shortest text that reads back to exactly `value` (round-trip), e.g. "0.1", "-2", "1e-15".
std::string formatNumber(double value);

/// Name of the coefficient of restitution, the parameter every system with impacts lists last
/// (docs/restitution.md).
inline constexpr std::string_view kRestitution = "restitution";

/// The one spec of the coefficient of restitution e of Newton's law (docs/restitution.md): in
/// [0, 1], dimensionless, default 1 (elastic: the same bytes as a run without it). Every system
/// with impacts appends it to its parameters and reads it by name like any other
/// (`values[kParams("restitution")]`).
ParameterSpec restitutionSpec();

}  // namespace ricochet
