#pragma once
// The convergence study: the state error at a time T (after impacts) against a reference run with
// a finer time step, for h = h0, h0/2, ..., h0/2^(L-1); the observed order per level,
// log2(e_{k-1}/e_k), and the least-squares slope of log e against log h.
//
// The reference has h_ref = h_{L-1} / 2^R (R = refLevels, default 3, so its own error is 1/64 of
// the finest level's at second order). T must be a whole number of steps of h0 (then of every
// level). The error is the Euclidean norm of the difference of the configuration columns q.* at
// step T/h (SE(3): the position and the nine entries of R, i.e. |dx| and the Frobenius norm of dR).
//
// Systems whose flight the scheme integrates exactly (uniform gravity and free rotation under the
// planar variational integrator: particle-floor, star-floor, ellipse-floor) have no flight error
// at all: the error comes from the impact alone. FMOW's O(h^2) energy kick there is
// (h^2/8) grad V^T M^-1 grad V (1 - 2 alpha), so the error is C h^2 |2 alpha - 1| with the
// impact's step fraction alpha, which jumps around as h halves. The raw slope is then erratic,
// and the order is read instead from error / (h^2 |2 alpha - 1|), which must stay bounded (it is
// the constant C), and from the slope of error / |2 alpha - 1| (the "alpha-corrected" order).
// Both are reported for those systems when every level has exactly one impact before T.
//
// The runs are one study (an "h" axis, t_end = T) on the runner's threads.

#include "core/study/runner.hpp"

#include <span>
#include <string>
#include <vector>

namespace ricochet::study {

struct ConvergenceSpec {
  Scenario base;
  double at = 0.0;   ///< T, s (> 0)
  double h0 = 0.0;   ///< coarsest h, s; 0: the largest T/2^k not above the scenario's h
  int levels = 5;    ///< L >= 2
  int refLevels = 3; ///< R >= 1
};

struct ConvergenceLevel {
  double h = 0.0;
  RunResult run;
  double error = 0.0;            ///< |q(T) - q_ref(T)|; NaN when the run failed
  double order = 0.0;            ///< log2(e_{k-1}/e_k); NaN for the first level
  double impactFactor = 0.0;     ///< exact flight: |2 alpha - 1| of the run's one impact before T; else NaN
  double normalizedError = 0.0;  ///< error / (h^2 impactFactor); NaN without a factor
};

struct ConvergenceResult {
  std::string error;  ///< bad input (one line naming the value); nothing ran
  bool cancelled = false;
  std::vector<ConvergenceLevel> levels;
  RunResult reference;
  double hRef = 0.0;
  std::vector<std::string> stateColumns;  ///< the q.* columns of the error
  double fittedOrder = 0.0;     ///< least-squares slope of log e against log h
  double correctedOrder = 0.0;  ///< the same for e / impactFactor; NaN unless every level has one
  bool exactFlight = false;     ///< the system integrates its flight exactly (see above)
  int jobs = 1;
};

/// Checks `spec` and builds its study (levels then the reference as an "h" axis). Empty on
/// success, else one line naming the option (at, h0, levels, ...).
std::string convergencePlan(const ConvergenceSpec& spec, StudyPlan& plan);

/// Plans, checks every run, runs them on `jobs` threads and computes the errors and orders.
ConvergenceResult runConvergence(const ConvergenceSpec& spec, int jobs = 0,
                                 const std::atomic<bool>* cancel = nullptr,
                                 std::function<void(const Progress&)> onProgress = {});

/// Least-squares slope of log(y) against log(x) over the pairs where both are > 0 and finite;
/// NaN with fewer than two.
double logLogSlope(std::span<const double> x, std::span<const double> y);

/// Whether the variational scheme of `system` integrates its flight exactly.
bool integratesFlightExactly(const Scenario& scenario);

/// One row per level, then the reference: level,h,steps,status,impacts,first_impact_t,
/// first_impact_alpha,error,observed_order,impact_factor,error_over_h2_impact_factor.
std::string convergenceCsv(const ConvergenceResult& result);
/// The human-readable report: a table and the fitted order, with the exact-flight note.
std::string convergenceReport(const ConvergenceResult& result);

}  // namespace ricochet::study
