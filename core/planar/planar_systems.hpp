#pragma once
// The planar example systems (contract ids particle-floor, star-floor, ellipse-floor), one
// SystemDescription each; appendPlanarSystems (planar_systems.cpp) registers them in contract order.

#include "core/model/system.hpp"

#include <cmath>

namespace ricochet::planar {

const SystemDescription& particleFloorSystem();  // particle_floor.cpp
const SystemDescription& starFloorSystem();      // star_floor.cpp
const SystemDescription& ellipseFloorSystem();   // ellipse_floor.cpp

/// Half-distance r L of the star outline's inner vertices from the centre (tips at the hull
/// corners (+-L/2, +-L/2), inner vertices on the axes). A uniform plate of this outline has
/// I = (16 + 16 r + 32 r^2)/192 m L^2; r solves that for FMOW's 29/192:
/// 32 r^2 + 16 r - 13 = 0.
inline double starInnerVertexRatio() { return (-16.0 + std::sqrt(16.0 * 16.0 + 4.0 * 32.0 * 13.0)) / 64.0; }

}  // namespace ricochet::planar
