#pragma once
// A system's description as data: what `ricochet-cli describe SYSTEM --json` prints and
// `ricochet.describe(id)` returns, built in one place.
//
//   {"id", "title", "source", "summary", "parameters": [ENTRY...], "initial": [ENTRY...],
//    "integrators": [NAME...], "integrator_details": [{"name", "title", "help"}...],
//    "constraints": [NAME...], "defaults": {"h", "t_end", "integrator", "tolerance"}}
//
// with ENTRY = {"name", "unit", "default", "min", "max", "help", "min_exclusive",
// "max_exclusive"}; "min"/"max" are null when unbounded.

#include "core/io/json.hpp"
#include "core/model/system.hpp"

namespace ricochet::io {

json::Value describeToJson(const SystemInfo& info);

}  // namespace ricochet::io
