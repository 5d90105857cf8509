#pragma once
// The comparison study: one scenario under every integrator the system offers (or a chosen few)
// and several time steps, side by side. Per run: the relative energy error (max over every step
// and at the end), the drift of every momentum column (max |mom.c - mom.c(0)| over every step),
// the first impact times, and the cost (wall time per run and per step).
//
// The runs are one study (a grid of "integrator" and "h" axes); the cost is a timing, so it is
// the one part of the table that changes from one run of the command to the next.

#include "core/study/runner.hpp"

#include <string>
#include <vector>

namespace ricochet::study {

struct CompareSpec {
  Scenario base;
  std::vector<std::string> integrators;  ///< empty: every integrator of the system
  std::vector<double> hs;                ///< empty: the scenario's h
  int impactTimes = 5;                   ///< first K impact times per run
};

struct CompareResult {
  std::string error;
  bool cancelled = false;
  std::vector<std::string> momentumColumns;  ///< mom.* columns, union over the runs
  std::vector<RunResult> runs;               ///< grid order: integrator, then h
  StudyPlan plan;
  int impactTimes = 5;
  int jobs = 1;
};

CompareResult runCompare(const CompareSpec& spec, int jobs = 1, const std::atomic<bool>* cancel = nullptr,
                         std::function<void(const Progress&)> onProgress = {});

/// integrator,h,status,steps,impacts,max_abs_energy_rel_error,energy_final_rel_error,
/// <mom.c>.max_drift...,impact_t.1..K,wall_seconds,us_per_step,message
std::string compareCsv(const CompareResult& result);
std::string compareReport(const CompareResult& result);

}  // namespace ricochet::study
