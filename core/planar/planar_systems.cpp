// Registration of the planar systems (particle-floor, star-floor, ellipse-floor).
#include "core/planar/planar_systems.hpp"

#include <vector>

namespace ricochet {

void appendPlanarSystems(std::vector<const SystemDescription*>& out) {
  out.push_back(&planar::particleFloorSystem());
  out.push_back(&planar::starFloorSystem());
  out.push_back(&planar::ellipseFloorSystem());
}

}  // namespace ricochet
