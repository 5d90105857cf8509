// Registration of the planar systems (particle-floor, star-floor, ellipse-floor).
#include "core/model/system.hpp"

#include <vector>

namespace ricochet {

void appendPlanarSystems(std::vector<const SystemDescription*>& out) {
  (void)out;  // systems are appended here as they land, in contract order
}

}  // namespace ricochet
