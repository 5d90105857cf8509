#include "core/io/energy_check.hpp"

#include <cmath>
#include <cstdio>
#include <iterator>

namespace ricochet::io {

namespace {

constexpr double kConservingBound = 1e-6;
constexpr double kVariationalBound = 5e-2;

struct Row {
  const char* system;      ///< a system id, or "*" for every system
  const char* integrator;  ///< an integrator name, or "*" for every integrator of the system
  EnergyClass energyClass;
  double bound;
  const char* scheme;
  const char* advice;
};

// One row per integrator of every registered system (test_io_energy_check checks that none is
// missing); the first row that matches wins.
constexpr Row kRows[] = {
    {"*", "rk4-event", EnergyClass::Conserving, kConservingBound,
     "RK4 with event location (exact flight and reflection)", ""},
    {"*", "reduced", EnergyClass::Conserving, kConservingBound, "the reduced (Chaplygin) scheme",
     ""},
    {"pendulum-cylinder", "variational", EnergyClass::FirstOrder, kVariationalBound,
     "P000's first-order rectangle scheme, whose energy creeps",
     "for long runs use variational-midpoint"},
    {"pendulum-cylinder", "variational-midpoint", EnergyClass::Bounded, kVariationalBound,
     "the LDAP midpoint scheme", ""},
    {"particle-floor", "variational", EnergyClass::Bounded, kVariationalBound,
     "FMOW's variational scheme", ""},
    {"star-floor", "variational", EnergyClass::Bounded, kVariationalBound,
     "FMOW's variational scheme", ""},
    {"ellipse-floor", "variational", EnergyClass::Bounded, kVariationalBound,
     "FMOW's variational scheme", ""},
    {"ellipse-floor", "ldap", EnergyClass::Bounded, kVariationalBound, "the LDAP scheme", ""},
    {"ellipse-floor", "ldap-paper", EnergyClass::Bounded, kVariationalBound,
     "P000's literal LDAP scheme", ""},
    {"disk-wall", "variational", EnergyClass::Bounded, kVariationalBound, "the LDAP scheme", ""},
    {"disk-wall", "dla-002", EnergyClass::Bounded, kVariationalBound, "P002's scheme", ""},
    {"disk-table", "variational", EnergyClass::Bounded, kVariationalBound, "the LDAP scheme", ""},
    {"disk-table", "dla-002", EnergyClass::Bounded, kVariationalBound, "P002's scheme", ""},
    {"ellipsoid-plane", "*", EnergyClass::Conserving, kConservingBound, "the SE(3) LGVCI", ""},
    {"ellipsoid-tilted", "*", EnergyClass::Conserving, kConservingBound, "the SE(3) LGVCI", ""},
    {"ellipsoids-union", "*", EnergyClass::Conserving, kConservingBound, "the SE(3) LGVCI", ""},
    {"cube-plane", "*", EnergyClass::Conserving, kConservingBound, "the SE(3) LGVCI", ""},
    {"rigid-body", "*", EnergyClass::Conserving, kConservingBound, "the SE(3) LGVCI", ""},
    {"bodies", "*", EnergyClass::Conserving, kConservingBound,
     "the SE(3) LGVCI of each body with exact jumps", ""},
};

bool matches(const char* pattern, std::string_view name) {
  return std::string_view(pattern) == "*" || name == pattern;
}

std::string shortNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", x);
  return buf;
}

}  // namespace

EnergyBound energyBound(std::string_view system, std::string_view integrator) {
  for (const Row& r : kRows) {
    if (matches(r.system, system) && matches(r.integrator, integrator)) {
      return EnergyBound{r.energyClass, r.bound, r.scheme, r.advice, true};
    }
  }
  return EnergyBound{EnergyClass::Bounded, kVariationalBound, "", "", false};
}

double energyBalanceError(double energy, double dissipated, double energyInitial, double scale) {
  return (energy + dissipated - energyInitial) / scale;
}

std::string energyWarning(std::string_view system, std::string_view integrator,
                          double maxAbsBalanceError, bool dissipative) {
  const EnergyBound b = energyBound(system, integrator);
  if (!(maxAbsBalanceError > b.relative) && !std::isnan(maxAbsBalanceError)) return {};
  std::string w = std::string(dissipative ? "energy balance error max |E + dissipated - E0|/|E0| = "
                                          : "energy error max |dE/E0| = ") +
                  shortNumber(maxAbsBalanceError) + " is beyond " + shortNumber(b.relative) +
                  ", the bound of a sound run of " + std::string(integrator) + " on " +
                  std::string(system);
  if (*b.scheme) w += std::string(" (") + b.scheme + ")";
  w += ": do not trust this result; ";
  w += *b.advice ? b.advice : "reduce h";
  return w;
}

}  // namespace ricochet::io
