// Registration of the nonholonomic systems (pendulum-cylinder, disk-wall, disk-table).
#include "core/model/system.hpp"
#include "core/nonholonomic/pendulum_cylinder.hpp"
#include "core/nonholonomic/rolling_disk.hpp"

#include <vector>

namespace ricochet {

void appendNonholonomicSystems(std::vector<const SystemDescription*>& out) {
  // Contract order.
  out.push_back(&nonholonomic::pendulumCylinderSystem());
  out.push_back(&nonholonomic::diskWallSystem());
  out.push_back(&nonholonomic::diskTableSystem());
}

}  // namespace ricochet
