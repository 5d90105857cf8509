#include "app/desktop/study/study_recipes.hpp"

#include "core/model/parameter.hpp"
#include "core/model/registry.hpp"

#include <cmath>

namespace ricochet::app {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

/// Custom studies: the results columns are run, status, one per axis, the metrics, message.
constexpr int kFirstAxisColumn = 2;

std::size_t axisCount(const StudyResults& r) {
  return r.preset == StudyPreset::Custom && r.plan ? r.plan->axes.size() : 0;
}

bool axisIsRandom(const StudyResults& r, std::size_t k) {
  return r.plan && k < r.plan->study.vary.size() && study::isRandom(r.plan->study.vary[k].kind);
}

bool axisIsNumeric(const StudyResults& r, std::size_t k) {
  return r.plan && k < r.plan->axes.size() && r.plan->axes[k].target != study::AxisTarget::Integrator;
}

int metricColumn(const StudyResults& r, const QString& name) {
  const std::vector<std::string>& columns = r.table.columns();
  const std::size_t from = r.preset == StudyPreset::Custom ? kFirstAxisColumn + axisCount(r) : 0;
  for (std::size_t c = from; c < columns.size(); ++c) {
    if (qs(columns[c]) == name) return int(c);
  }
  return -1;
}

/// Whether the finite values of `column` over `rows` are all > 0 and span `ratio` or more.
bool spansDecades(const StudyTable& table, int column, const std::vector<std::size_t>& rows, double ratio) {
  if (column < 0) return false;
  double lo = 0.0, hi = 0.0;
  bool any = false;
  const auto visit = [&](std::size_t row) {
    const double v = table.number(row, std::size_t(column));
    if (!std::isfinite(v)) return true;
    if (v <= 0.0) return false;
    lo = any ? std::min(lo, v) : v;
    hi = any ? std::max(hi, v) : v;
    any = true;
    return true;
  };
  if (rows.empty()) {
    for (std::size_t row = 0; row < table.rowCount(); ++row) {
      if (!visit(row)) return false;
    }
  } else {
    for (std::size_t row : rows) {
      if (!visit(row)) return false;
    }
  }
  return any && hi >= ratio * lo;
}

/// The distinct texts of a column.
int distinctValues(const StudyTable& table, int column) {
  if (column < 0) return 0;
  QStringList seen;
  for (std::size_t row = 0; row < table.rowCount(); ++row) {
    const QString v = qs(table.cell(row, std::size_t(column)));
    if (!seen.contains(v)) seen << v;
  }
  return int(seen.size());
}

/// Convergence: every level, not the reference (the last row).
std::vector<std::size_t> levelRows(const StudyResults& r) {
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i + 1 < r.table.rowCount(); ++i) rows.push_back(i);
  return rows;
}

std::vector<int> columnsEndingWith(const StudyTable& table, const std::string& suffix) {
  std::vector<int> columns;
  for (std::size_t c = 0; c < table.columns().size(); ++c) {
    const std::string& name = table.columns()[c];
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      columns.push_back(int(c));
    }
  }
  return columns;
}

QString systemTitle(const StudyResults& r) { return qs(r.base.system); }

/// "z0 [m]": an axis name with the unit of the field it varies (as --set resolves the name).
QString axisTitle(const StudyResults& r, const std::string& name) {
  std::string unit;
  if (name == "h" || name == "t_end") {
    unit = "s";
  } else if (const SystemDescription* system = findSystem(r.base.system)) {
    const SystemInfo& info = system->info();
    const bool onlyInitial = name.rfind("initial.", 0) == 0, onlyParameter = name.rfind("parameters.", 0) == 0;
    const std::string bare = name.substr(onlyInitial ? 8 : onlyParameter ? 11 : 0);
    if (const auto p = indexOf(info.parameters, bare); p && !onlyInitial) unit = info.parameters[*p].unit;
    else if (const auto i = indexOf(info.initial, bare); i && !onlyParameter) unit = info.initial[*i].unit;
  }
  return unit.empty() ? qs(name) : QStringLiteral("%1 [%2]").arg(qs(name), qs(unit));
}

/// A metric's title: the time columns with their unit.
QString metricTitle(const QString& metric) {
  return metric == QLatin1String("first_impact_t") || metric == QLatin1String("t_end") ||
                 metric == QLatin1String("t_reference") || metric.startsWith(QLatin1String("impact_t."))
             ? metric + QStringLiteral(" [s]")
             : metric;
}

/// "12 runs, grid of h (4) x z0 (3), seed 1; 2 failed".
QString customSubtitle(const StudyResults& r) {
  if (!r.plan) return {};
  const study::StudyPlan& plan = *r.plan;
  QStringList axes;
  bool random = false;
  for (std::size_t k = 0; k < plan.axes.size(); ++k) {
    const bool draws = axisIsRandom(r, k);
    const qint64 n = qint64(plan.axes[k].size());
    const QString values = draws ? countOf(n, QObject::tr("draw"), QObject::tr("draws")) : QString::number(n);
    axes << QStringLiteral("%1 (%2)").arg(qs(plan.axes[k].name), values);
    random = random || draws;
  }
  QString text = countOf(plan.runs, QObject::tr("run"), QObject::tr("runs"));
  if (axes.size() == 1) {  // one axis: no grid or zip to speak of
    text += QStringLiteral(", ") + axes.front();
  } else if (!axes.isEmpty()) {
    text += QStringLiteral(", ") +
            (plan.study.combine == study::Combine::Zip ? QObject::tr("zip of %1") : QObject::tr("grid of %1"))
                .arg(axes.join(QStringLiteral(" \u00d7 ")));
  }
  if (random) text += QObject::tr(", seed %1").arg(plan.study.seed);
  if (r.failed > 0) text += QObject::tr("; %n failed", "", int(r.failed));
  return text;
}

}  // namespace

QStringList metricChoices(const StudyResults& r) {
  QStringList metrics;
  const StudyTable& t = r.table;
  switch (r.preset) {
    case StudyPreset::Custom:
      for (std::size_t c = kFirstAxisColumn + axisCount(r); c < t.columns().size(); ++c) {
        if (t.columns()[c] != "message") metrics << qs(t.columns()[c]);
      }
      break;
    case StudyPreset::Convergence:
      for (const char* c : {"error", "error_over_h2_impact_factor", "first_impact_t", "first_impact_alpha", "impacts"}) {
        if (t.column(c) >= 0) metrics << QString::fromLatin1(c);
      }
      break;
    case StudyPreset::Sensitivity:
      if (!columnsEndingWith(t, ".distance").empty()) metrics << QStringLiteral("distance") << QStringLiteral("t_impact");
      break;
    case StudyPreset::Compare:
      for (const std::string& c : t.columns()) {
        if (c != "integrator" && c != "h" && c != "status" && c != "message") metrics << qs(c);
      }
      break;
  }
  return metrics;
}

QStringList xChoices(const StudyResults& r) {
  QStringList xs;
  switch (r.preset) {
    case StudyPreset::Custom: {
      if (!r.plan || r.plan->axes.empty()) return {QStringLiteral("run")};
      const auto& axes = r.plan->axes;
      for (const study::Axis& a : axes) xs << qs(a.name);
      if (axes.size() >= 2 && axisIsNumeric(r, 0) && axisIsNumeric(r, 1)) {
        xs << QStringLiteral("%1 \u00d7 %2").arg(qs(axes[0].name), qs(axes[1].name));
      }
      return xs;
    }
    case StudyPreset::Convergence: return {QStringLiteral("h")};
    case StudyPreset::Sensitivity: return {QStringLiteral("collision")};
    case StudyPreset::Compare:
      if (distinctValues(r.table, r.table.column("h")) > 1) xs << QStringLiteral("h");
      xs << QStringLiteral("integrator");
      return xs;
  }
  return xs;
}

bool isPairChoice(const StudyResults& r, int x) {
  return r.preset == StudyPreset::Custom && r.plan && r.plan->axes.size() >= 2 && x == int(r.plan->axes.size());
}

FigureChoice defaultChoice(const StudyResults& r) {
  FigureChoice c;
  switch (r.preset) {
    case StudyPreset::Custom: {
      bool step = false;
      if (r.plan) {
        for (const study::Axis& a : r.plan->axes) {
          step = step || a.target == study::AxisTarget::H || a.target == study::AxisTarget::Tolerance;
        }
      }
      c.metric = step ? QStringLiteral("max_abs_energy_rel_error") : QStringLiteral("impacts");
      // Two numeric axes alone: both at once; else the first numeric axis (the integrator's
      // names are categories: better as the lines than as the abscissa).
      if (r.plan && r.plan->axes.size() == 2 && isPairChoice(r, 2) && xChoices(r).size() == 3) {
        c.x = 2;
      } else {
        for (std::size_t k = 0; k < axisCount(r); ++k) {
          if (axisIsNumeric(r, k)) {
            c.x = int(k);
            break;
          }
        }
      }
      break;
    }
    case StudyPreset::Convergence: c.metric = QStringLiteral("error"); break;
    case StudyPreset::Sensitivity: c.metric = QStringLiteral("distance"); break;
    case StudyPreset::Compare: c.metric = QStringLiteral("max_abs_energy_rel_error"); break;
  }
  if (!metricChoices(r).contains(c.metric) && !metricChoices(r).isEmpty()) c.metric = metricChoices(r).front();
  applyDefaultLogs(r, c);
  return c;
}

void applyDefaultLogs(const StudyResults& r, FigureChoice& c) {
  const StudyTable& t = r.table;
  switch (r.preset) {
    case StudyPreset::Custom: {
      const std::size_t axes = axisCount(r);
      const auto axisLog = [&](std::size_t k) {
        if (!axisIsNumeric(r, k)) return false;
        if (r.plan->study.vary[k].kind == study::AxisKind::Logspace) return true;
        return !axisIsRandom(r, k) && spansDecades(t, int(kFirstAxisColumn + k), {}, 20.0);
      };
      const bool metricLog = spansDecades(t, metricColumn(r, c.metric), {}, 100.0);
      if (isPairChoice(r, c.x)) {
        c.logX = axisLog(0);
        c.logY = axisLog(1);
      } else {
        c.logX = axes > 0 && std::size_t(c.x) < axes && axisLog(std::size_t(c.x));
        c.logY = metricLog;
      }
      break;
    }
    case StudyPreset::Convergence:
      c.logX = true;
      c.logY = c.metric == QStringLiteral("error") || spansDecades(t, t.column(c.metric.toStdString()), levelRows(r), 100.0);
      break;
    case StudyPreset::Sensitivity:
      c.logX = false;
      c.logY = c.metric == QStringLiteral("distance");
      break;
    case StudyPreset::Compare:
      c.logX = xChoices(r).value(c.x) == QStringLiteral("h") && spansDecades(t, t.column("h"), {}, 3.0);
      c.logY = spansDecades(t, t.column(c.metric.toStdString()), {}, 100.0);
      break;
  }
}

FigureRecipe recipeFor(const StudyResults& r, const FigureChoice& c) {
  FigureRecipe f;
  const StudyTable& t = r.table;
  const int metric = metricColumn(r, c.metric);
  f.logX = c.logX;
  f.logY = c.logY;
  f.yTitle = metricTitle(c.metric);
  switch (r.preset) {
    case StudyPreset::Custom: {
      const std::size_t axes = axisCount(r);
      f.subtitle = customSubtitle(r);
      if (axes == 0) {
        f.x = t.column("run");
        f.ys = {metric};
        f.title = QObject::tr("%1: %2").arg(systemTitle(r), c.metric);
        break;
      }
      if (isPairChoice(r, c.x)) {
        f.x = kFirstAxisColumn;
        f.y = kFirstAxisColumn + 1;
        f.colour = metric;
        f.xTitle = axisTitle(r, r.plan->axes[0].name);
        f.yTitle = axisTitle(r, r.plan->axes[1].name);
        f.colourTitle = metricTitle(c.metric);
        f.logColour = spansDecades(t, metric, {}, 100.0);
        const bool grid = r.plan->study.combine == study::Combine::Grid && !axisIsRandom(r, 0) && !axisIsRandom(r, 1);
        f.kind = grid && axes == 2 ? FigureKind::Map : FigureKind::Scatter;
        f.title = QObject::tr("%1: %2 over %3 and %4")
                      .arg(systemTitle(r), c.metric, qs(r.plan->axes[0].name), qs(r.plan->axes[1].name));
        break;
      }
      const std::size_t k = std::min(std::size_t(std::max(c.x, 0)), axes - 1);
      f.x = int(kFirstAxisColumn + k);
      f.xTitle = axisTitle(r, r.plan->axes[k].name);
      f.xCategorical = !axisIsNumeric(r, k);
      f.ys = {metric};
      for (std::size_t j = 0; j < axes; ++j) {
        if (j != k) f.groupBy.push_back(int(kFirstAxisColumn + j));
      }
      f.kind = axisIsRandom(r, k) || f.xCategorical ? FigureKind::Scatter : FigureKind::Lines;
      f.fit = f.kind == FigureKind::Lines && c.logX && c.logY;
      f.title = QObject::tr("%1: %2 against %3").arg(systemTitle(r), c.metric, qs(r.plan->axes[k].name));
      break;
    }
    case StudyPreset::Convergence: {
      f.x = t.column("h");
      f.ys = {metric};
      f.rows = levelRows(r);
      const bool error = c.metric == QStringLiteral("error");
      f.fit = error && c.logX && c.logY;
      f.xTitle = QObject::tr("h [s]");
      f.yTitle = error ? QObject::tr("error |q(T) - q_ref(T)|") : c.metric;
      f.yNames = {c.metric};
      if (error && r.exactFlight && std::isfinite(r.correctedOrder)) {
        // The impact's O(h^2) kick scaled by |2 alpha - 1|: the order without alpha's jumps.
        f.ys.push_back(metric);
        f.yDivide = {-1, t.column("impact_factor")};
        f.yNames.push_back(QObject::tr("error / |2\u03b1\u22121|"));
      }
      double at = 0.0;
      if (r.plan) at = r.plan->study.base.tEnd;
      f.title = QObject::tr("%1: convergence at T = %2 s").arg(systemTitle(r), qs(formatNumber(at)));
      f.subtitle = QObject::tr("fitted order %1").arg(r.fittedOrder, 0, 'f', 3);
      if (r.exactFlight) {
        f.subtitle += std::isfinite(r.correctedOrder)
                          ? QObject::tr("; exact flight: the slope of error/|2\u03b1\u22121| is %1").arg(r.correctedOrder, 0, 'f', 3)
                          : QObject::tr("; exact flight: see the report");
      }
      break;
    }
    case StudyPreset::Sensitivity: {
      f.x = t.column("collision");
      const bool distance = c.metric == QStringLiteral("distance");
      f.ys = columnsEndingWith(t, distance ? ".distance" : ".t_impact");
      for (const study::Perturbation& p : r.perturbations) f.yNames.push_back(qs(p.label()));
      f.xTitle = QObject::tr("collision of the base run");
      f.yTitle = distance ? QObject::tr("distance from the base run") : QObject::tr("impact time [s]");
      f.title = QObject::tr("%1: sensitivity to the initial conditions").arg(systemTitle(r));
      f.subtitle = distance ? QObject::tr("distance at the first grid state after each collision of the base run")
                            : QObject::tr("each perturbed run's own impact times");
      break;
    }
    case StudyPreset::Compare: {
      const bool againstH = xChoices(r).value(c.x) == QStringLiteral("h");
      f.x = t.column(againstH ? "h" : "integrator");
      f.xTitle = againstH ? QObject::tr("h [s]") : QObject::tr("integrator");
      f.xCategorical = !againstH;
      f.ys = {metric};
      const int other = t.column(againstH ? "integrator" : "h");
      if (distinctValues(t, other) > 1 || againstH) f.groupBy = {other};
      f.kind = againstH ? FigureKind::Lines : FigureKind::Scatter;
      f.fit = againstH && c.logX && c.logY;
      f.title = QObject::tr("%1: integrators compared").arg(systemTitle(r));
      if (r.plan) f.subtitle = QObject::tr("to t_end = %1 s").arg(qs(formatNumber(r.plan->study.base.tEnd)));
      if (c.metric == QStringLiteral("wall_seconds") || c.metric == QStringLiteral("us_per_step")) {
        f.subtitle += QObject::tr(" (timings: they change from one run to the next)");
      }
      break;
    }
  }
  if (f.xTitle.isEmpty() && f.x >= 0) f.xTitle = qs(t.columns()[std::size_t(f.x)]);
  return f;
}

}  // namespace ricochet::app
