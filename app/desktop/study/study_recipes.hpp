#pragma once
// Which figure a study's results make: the metrics and horizontal axes a user may pick above the
// plot, the defaults, and the FigureRecipe for a choice.
//
//  * A study of one's own: the metric against one axis, a series per value of the other axes
//    (markers only for random draws); two axes together as a colour map (a grid of ranges) or a
//    scatter of the two axes coloured by the metric (random draws, zipped axes).
//  * convergence: the state error against h, log-log, with the least-squares slope (the fitted
//    order the command line prints); the reference row is not plotted.
//  * sensitivity: each perturbed run's distance from the base run against the collision, log y.
//  * compare: a metric against h, a series per integrator (or against the integrator when there
//    is one h).
// Log scales default to on where the values span decades (and for the convergence plot).

#include "app/desktop/study/study_figure.hpp"
#include "app/desktop/study/study_results.hpp"

#include <QStringList>

namespace ricochet::app {

struct FigureChoice {
  QString metric;  ///< a column of the results table
  int x = 0;       ///< index in xChoices()
  bool logX = false, logY = false;
};

/// The columns that can be plotted, in table order.
QStringList metricChoices(const StudyResults& results);
/// The horizontal axes: one per varied column, then "a × b" pairs where a colour map or a
/// two-axis scatter applies.
QStringList xChoices(const StudyResults& results);
/// Whether x choice `x` is a pair (two axes, the metric as colour).
bool isPairChoice(const StudyResults& results, int x);

/// The metric and axis shown first, with their log defaults.
FigureChoice defaultChoice(const StudyResults& results);
/// Sets choice.logX / logY to the defaults for its metric and axis.
void applyDefaultLogs(const StudyResults& results, FigureChoice& choice);

FigureRecipe recipeFor(const StudyResults& results, const FigureChoice& choice);

}  // namespace ricochet::app
