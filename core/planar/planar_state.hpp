#pragma once
// The state of one planar run (the "Data" of the Model/Data split): the node (q_k, p_k), the gaps
// at q_k (cached between steps), the length of the last drift segment and the settled contacts.
// Shared by the FMOW and rk4-event steppers, which are constant and never hold a run's state.

#include "core/planar/planar_model.hpp"

namespace ricochet::planar {

/// Default cap of impacts resolved in one planar step (beyond it: RunStatus::Zeno).
inline constexpr int kPlanarImpactCap = 32;

template <PlanarModel Model>
struct PlanarState {
  typename Model::Vec q = Model::Vec::Zero();        ///< node configuration q_k
  typename Model::Vec p = Model::Vec::Zero();        ///< node momentum p_k
  typename Model::GapVec gaps = Model::GapVec::Zero();  ///< g(q_k)
  /// Length (s) of the last drift segment: h after a smooth step, the final sub-step after an
  /// impact step (FMOW's E_d of that segment is recovered from the node, see lastSegmentEnergy).
  double lastTau = 0.0;
  /// Settled contacts (restitution < 1 only; settled_motion.hpp); 0 in flight.
  unsigned held = 0;
  /// Forces of the held gaps at the last constrained step (the next one's Newton guess).
  typename Model::GapVec force = Model::GapVec::Zero();
};

}  // namespace ricochet::planar
