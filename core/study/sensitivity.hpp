#pragma once
// The sensitivity study: how fast runs from slightly perturbed initial conditions separate from
// the base run, collision by collision (paper 003's experiment with the cube, section 7.4).
//
// The base run records its first N impacts. Each perturbed run (one value changed by a small
// delta) is compared with it at the first grid state after each of the base run's impacts
// (the step each impact reports), and at step 0. The distance between two states is
//   SE(3) systems: |x - x_ref| + ||R - R_ref||_2 (the spectral norm of the rotation difference);
//   others:        the Euclidean norm of the difference of the q.* columns.
// The perturbed runs' own impact times are reported beside the base run's.
//
// For SE(3) systems the default perturbations are 003's: z0 + 1e-8 (position) and
// ry0 + pi 1e-8 (attitude, R0 = R_y(pi 1e-8)). With cube-plane's defaults (case IV) the position
// run gives the twelve reference distances of that experiment to their two printed digits:
// 8.0e-9, 4.2e-8, 1.4e-6, 1.4e-6, 2.0e-5, 5.9e-5, 7.4e-4, 7.5e-4, 1.9e-2, 2.9e-2, 2.6e-1, 7.3.

#include "core/study/runner.hpp"

#include <string>
#include <vector>

namespace ricochet::study {

struct Perturbation {
  std::string name;  ///< a --set name
  double delta = 0.0;
  std::string label() const;  ///< "z0+1e-08"
};

struct SensitivitySpec {
  Scenario base;          ///< its t_end is the length of every run
  std::vector<Perturbation> perturbations;  ///< empty: the defaults (SE(3) systems only)
  int collisions = 12;    ///< N
};

struct SensitivitySeries {
  Perturbation perturbation;
  RunResult run;
  std::vector<double> distance;     ///< [0]: at step 0; [c]: after the base run's c-th impact
  std::vector<double> impactTimes;  ///< the perturbed run's own first N impact times, s
};

struct SensitivityResult {
  std::string error;
  bool cancelled = false;
  RunResult reference;
  std::vector<double> referenceTimes;  ///< the base run's first N impact times, s
  std::vector<std::int64_t> steps;     ///< [0] = 0, [c] = the step after the c-th impact
  std::vector<SensitivitySeries> series;
  bool se3 = false;
};

/// 003's perturbations for an SE(3) system (z0 + 1e-8, ry0 + pi 1e-8); empty for other systems.
std::vector<Perturbation> defaultPerturbations(const Scenario& base);

/// The scenario of perturbation `p`'s run: `base` with p.name moved by p.delta. Empty on
/// success, else one line naming the perturbation ("--perturb z0+1e-08: ...").
std::string perturbedScenario(const Scenario& base, const Perturbation& p, Scenario& out);

/// Runs the base run, then the perturbed runs on `jobs` threads.
SensitivityResult runSensitivity(const SensitivitySpec& spec, int jobs = 0, const std::atomic<bool>* cancel = nullptr);

/// collision,t_reference,step, then per perturbation <label>.distance,<label>.t_impact.
std::string sensitivityCsv(const SensitivityResult& result);
std::string sensitivityReport(const SensitivityResult& result);

}  // namespace ricochet::study
