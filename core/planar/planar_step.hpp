#pragma once
// What one step of a planar integrator reports: its status, the impacts it resolved (in order)
// and, on failure, what failed. Shared by the FMOW and rk4-event integrators and read by
// PlanarSimulation (which turns it into ImpactRecords and AdvanceResult messages).

#include "core/model/system.hpp"

#include <array>

namespace ricochet::planar {

/// Hard upper bound of impacts resolved in one step (the per-step cap, §2.6, is <= this).
inline constexpr int kMaxImpactsPerStep = 32;

template <class Vec>
struct PlanarImpact {
  double s = 0.0;      ///< time of the impact from the start of the step, as a fraction of h
  int gap = 0;         ///< constraint index j
  Vec q;               ///< impact point q~ (g_j(q~) = 0)
  Vec pMinus;          ///< incoming momentum p~-
  Vec pPlus;           ///< outgoing momentum p~+ = p~- + mu n_j(q~)
  double mu = 0.0;     ///< impulse multiplier (FMOW's lambda = -mu), > 0 for a rebound
  double energyResidual = 0.0;  ///< discrete energy balance F(mu) left at the solution, J
  bool reflectionFallback = false;  ///< near grazing: pure reflection used (P12, grazing.hpp)
  /// The joint solve (78) for a following impact had no solution (e.g. the same gap again after a
  /// tiny hop); the impulse was kept and energyResidual is the (78a) defect.
  bool jointFallback = false;
};

/// Why a step failed (only meaningful when the status is not Ok).
struct StepFailure {
  const char* what = "";  ///< static text, e.g. "impulse (energy equation) did not converge"
  int gap = -1;           ///< constraint involved, -1 if none
  double s = 0.0;         ///< fraction of the step where it happened
  double value = 0.0;     ///< a residual or count that explains it (see `what`)
};

template <class Vec>
struct StepReport {
  RunStatus status = RunStatus::Ok;
  int impactCount = 0;
  std::array<PlanarImpact<Vec>, kMaxImpactsPerStep> impacts;
  StepFailure failure;
};

}  // namespace ricochet::planar
