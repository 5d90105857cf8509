#pragma once
// When a run's energy error says its result should not be trusted: the one check behind the run
// summary's `warning` (ricochet-cli run's status line and summary JSON, Python's summary, the
// window's run status).
//
// Every integrator belongs to a class with a documented bound on the relative energy error of a
// sound run, max over every step of |E + D - E0| / |E0| (E the continuous energy, D the energy the
// run removes on purpose through restitution < 1, the trace column `e.dissipated`, 0 for a
// conservative run; the denominator is io::energyScale, that of the trace's energy_rel_error):
//
// * EnergyClass::Conserving, bound 1e-6: the scheme conserves energy to round-off by construction
//   (SE(3) LGVCI, the reduced disk, RK4 with events, whose uniform-gravity flight and reflections
//   are exact). Sound runs stay below 5e-10 (case II's 1e5 steps, sliding 1e5 m down its incline).
// * EnergyClass::Bounded, bound 5e-2: variational schemes whose O(h^2) energy error stays bounded
//   (FMOW, LDAP and its variants, P002's scheme, the pendulum's midpoint scheme): the presets stay
//   below 2.6e-4, the star's random walk reaches 2.3e-3 over 1.5e5 impacts.
// * EnergyClass::FirstOrder, bound 5e-2: P000's rectangle scheme for the pendulum, whose energy
//   creeps (1.9e-2 over P000's 5 s at h = 1e-3, 1.5e-2 over 100 s at h = 1e-4, 0.15 over 100 s at
//   h = 1e-3, 660 over 1e4 s): for long runs use `variational-midpoint`.
//
// A run past its bound keeps its status ("ok" stays "ok", the exit code does not change); the
// warning only says why the numbers should not be trusted.

#include <string>
#include <string_view>

namespace ricochet::io {

/// The trace column of the energy a run removes on purpose (restitution < 1), J, when it has one.
inline constexpr std::string_view kDissipatedEnergyColumn = "e.dissipated";

enum class EnergyClass { Conserving, Bounded, FirstOrder };

struct EnergyBound {
  EnergyClass energyClass = EnergyClass::Bounded;
  double relative = 5e-2;   ///< bound on max |E + D - E0| / |E0| of a sound run
  const char* scheme = "";  ///< what the integrator is, for the warning
  const char* advice = "";  ///< what to do instead ("" : reduce h)
  bool registered = false;  ///< false: a system or integrator the table does not list (Bounded)
};

/// The bound of `integrator` on `system` (the table in energy_check.cpp; a pair it does not list
/// gets the Bounded class and registered = false).
EnergyBound energyBound(std::string_view system, std::string_view integrator);

/// The energy balance error of one state: (E + D - E0) / scale, with `dissipated` D the energy
/// removed on purpose so far (0 for a conservative run), `scale` = energyScale(initial split).
double energyBalanceError(double energy, double dissipated, double energyInitial, double scale);

/// Empty while `maxAbsBalanceError` (the largest |energyBalanceError| over the run) is within the
/// bound of `integrator` on `system`; otherwise one line saying so, with the bound and the advice.
/// `dissipative`: the run reports a dissipated energy (the message then names E + D).
std::string energyWarning(std::string_view system, std::string_view integrator,
                          double maxAbsBalanceError, bool dissipative = false);

}  // namespace ricochet::io
