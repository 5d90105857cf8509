// Registration of the se3 systems (ellipsoid-plane, ellipsoid-tilted, ellipsoids-union, cube-plane).
#include "core/model/system.hpp"

#include <vector>

namespace ricochet {

void appendSe3Systems(std::vector<const SystemDescription*>& out) {
  (void)out;  // systems are appended here as they land, in contract order
}

}  // namespace ricochet
