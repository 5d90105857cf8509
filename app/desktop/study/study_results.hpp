#pragma once
// What the study window runs (StudyRequest) and what it gets back (StudyResults), for a study of
// the user's own and for the three built-in studies of core/study, which the window runs with
// the very functions ricochet-cli's `convergence`, `sensitivity` and `compare` call.
//
// Every kind of result is a table: the CSV text the command line writes for the same request
// (StudyTable), plus what maps a row back to the scenario it ran, so that a click on a row or a
// point can load that run into the main window.

#include "app/desktop/study/study_table.hpp"
#include "core/study/compare.hpp"
#include "core/study/convergence.hpp"
#include "core/study/sensitivity.hpp"
#include "core/study/study.hpp"

#include <QString>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ricochet::app {

enum class StudyPreset {
  Custom,       ///< a study file's axes (ricochet-cli study)
  Convergence,  ///< ricochet-cli convergence
  Sensitivity,  ///< ricochet-cli sensitivity
  Compare,      ///< ricochet-cli compare
};

/// The most runs the window runs and plots; larger studies belong to ricochet-cli (Save Study).
inline constexpr std::int64_t kMaxWindowRuns = 100'000;

struct StudyRequest {
  StudyPreset preset = StudyPreset::Custom;
  study::Study custom;
  study::ConvergenceSpec convergence;
  study::SensitivitySpec sensitivity;
  study::CompareSpec compare;
  int jobs = 0;  ///< worker threads; 0: every core
  /// The scenario every run starts from.
  const Scenario& base() const;
};

struct StudyResults {
  StudyPreset preset = StudyPreset::Custom;
  Scenario base;
  StudyTable table;    ///< the CSV of the command line, header first
  std::string report;  ///< the command line's printed report (the built-in studies)
  /// Row i is run i of this plan (custom studies, convergence, compare).
  std::optional<study::StudyPlan> plan;
  /// Sensitivity: the perturbation of each distance series, in column order.
  std::vector<study::Perturbation> perturbations;
  /// Convergence: the fitted order, the alpha-corrected one (NaN when not applicable), and
  /// whether the flight is integrated exactly.
  double fittedOrder = std::numeric_limits<double>::quiet_NaN();
  double correctedOrder = std::numeric_limits<double>::quiet_NaN();
  bool exactFlight = false;

  std::int64_t runs = 0;          ///< simulations the study makes (a built-in study's reference too)
  std::int64_t expectedRows = 0;  ///< rows the finished study has
  bool complete = false;          ///< every row is in: the table is the command line's file
  bool cancelled = false;
  QString error;                  ///< why nothing ran (one line naming the value)
  std::int64_t failed = 0;        ///< rows whose status is not "ok"

  /// The scenario behind table row `row`, or behind the point of series `series` in that row
  /// (sensitivity: the perturbed run of distance series `series`; -1: the base run).
  std::optional<Scenario> scenarioFor(std::size_t row, int series = -1) const;
  /// "run 17 (z0 = 7, h = 0.01)", "level 2 (h = 0.0125)", "z0+1e-08", ...
  QString describe(std::size_t row, int series = -1) const;
};

}  // namespace ricochet::app
