// Registration of the nonholonomic systems (pendulum-cylinder, disk-wall, disk-table).
#include "core/model/system.hpp"

#include <vector>

namespace ricochet {

void appendNonholonomicSystems(std::vector<const SystemDescription*>& out) {
  (void)out;  // systems are appended here as they land, in contract order
}

}  // namespace ricochet
