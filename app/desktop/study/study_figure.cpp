#include "app/desktop/study/study_figure.hpp"

#include "core/study/convergence.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace ricochet::app {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The most series a recipe's grouping makes; beyond, the points are one unjoined series.
constexpr std::size_t kMaxGroups = 10;

double axisValue(double v, bool log) {
  if (!log) return v;
  return v > 0.0 ? std::log10(v) : kNaN;
}

/// [lo, hi] widened by 5 % on each side (a single value gets a unit-wide range around it).
void padRange(double& lo, double& hi, bool log) {
  if (!(lo <= hi)) {
    lo = 0.0;
    hi = 1.0;
    return;
  }
  if (hi == lo) {
    const double half = log ? 0.5 : std::max(std::fabs(lo) * 0.1, 0.5);
    lo -= half;
    hi += half;
    return;
  }
  const double pad = 0.05 * (hi - lo);
  lo -= pad;
  hi += pad;
}

/// Cell bounds around sorted distinct values: midpoints between neighbours, the end cells as
/// wide as their neighbour's half gap (one value: a unit-wide cell).
std::vector<double> cellBounds(const std::vector<double>& values) {
  std::vector<double> b(values.size() + 1);
  if (values.size() == 1) {
    b[0] = values[0] - 0.5;
    b[1] = values[0] + 0.5;
    return b;
  }
  for (std::size_t i = 1; i < values.size(); ++i) b[i] = 0.5 * (values[i - 1] + values[i]);
  b.front() = values.front() - (b[1] - values.front());
  b.back() = values.back() + (values.back() - b[values.size() - 1]);
  return b;
}

std::size_t indexIn(const std::vector<double>& sorted, double v) {
  return std::size_t(std::lower_bound(sorted.begin(), sorted.end(), v) - sorted.begin());
}

QString columnName(const StudyTable& table, int column) {
  return column >= 0 && std::size_t(column) < table.columns().size()
             ? QString::fromStdString(table.columns()[std::size_t(column)])
             : QString();
}

/// "h = 0.01, z0 = 5": the values of the grouping columns in `row`.
QString groupLabel(const StudyTable& table, const std::vector<int>& columns, std::size_t row) {
  QStringList parts;
  for (int c : columns) {
    const double x = table.number(row, std::size_t(c));
    const QString value = std::isnan(x) ? QString::fromStdString(table.cell(row, std::size_t(c))) : shortNumber(x);
    parts << columnName(table, c) + QStringLiteral(" = ") + value;
  }
  return parts.join(QStringLiteral(", "));
}

void buildMap(const StudyTable& table, const FigureRecipe& r, const std::vector<std::size_t>& rows, StudyFigure& f) {
  std::vector<double> xs, ys;
  for (std::size_t row : rows) {
    const double x = axisValue(table.number(row, std::size_t(r.x)), r.logX);
    const double y = axisValue(table.number(row, std::size_t(r.y)), r.logY);
    if (std::isfinite(x)) xs.push_back(x);
    if (std::isfinite(y)) ys.push_back(y);
  }
  for (auto* v : {&xs, &ys}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  if (xs.empty() || ys.empty()) {
    f.hidden = rows.size();
    return;
  }
  const std::vector<double> bx = cellBounds(xs), by = cellBounds(ys);
  bool logColour = r.logColour;
  for (std::size_t row : rows) {
    const double c = table.number(row, std::size_t(r.colour));
    logColour = logColour && !(c <= 0.0);
  }
  f.logColour = logColour;
  double cLo = kNaN, cHi = kNaN;
  for (std::size_t row : rows) {
    const double x = axisValue(table.number(row, std::size_t(r.x)), r.logX);
    const double y = axisValue(table.number(row, std::size_t(r.y)), r.logY);
    if (!std::isfinite(x) || !std::isfinite(y)) {
      ++f.hidden;
      continue;
    }
    const std::size_t ix = indexIn(xs, x), iy = indexIn(ys, y);
    const double value = axisValue(table.number(row, std::size_t(r.colour)), logColour);
    f.cells.push_back({bx[ix], bx[ix + 1], by[iy], by[iy + 1], value, row});
    if (std::isfinite(value)) {
      cLo = std::isnan(cLo) ? value : std::min(cLo, value);
      cHi = std::isnan(cHi) ? value : std::max(cHi, value);
    }
  }
  f.xMin = bx.front();
  f.xMax = bx.back();
  f.yMin = by.front();
  f.yMax = by.back();
  f.cMin = std::isnan(cLo) ? 0.0 : cLo;
  f.cMax = std::isnan(cHi) ? 1.0 : (cHi > cLo ? cHi : cLo + 1.0);
}

void buildPoints(const StudyTable& table, const FigureRecipe& r, const std::vector<std::size_t>& rows, StudyFigure& f) {
  if (r.xCategorical) {
    for (std::size_t row : rows) {
      const QString text = QString::fromStdString(table.cell(row, std::size_t(r.x)));
      if (std::find(f.xCategories.begin(), f.xCategories.end(), text) == f.xCategories.end()) {
        f.xCategories.push_back(text);
      }
    }
  }
  const auto xOf = [&](std::size_t row) {
    if (!r.xCategorical) return axisValue(table.number(row, std::size_t(r.x)), r.logX);
    const QString text = QString::fromStdString(table.cell(row, std::size_t(r.x)));
    return double(std::find(f.xCategories.begin(), f.xCategories.end(), text) - f.xCategories.begin());
  };
  const bool twoAxes = r.y >= 0 && r.colour >= 0;
  if (twoAxes) {  // axis against axis, the metric as colour
    f.colourSeries = true;
    FigureSeries s;
    s.name = columnName(table, r.colour);
    s.colour = seriesColour(1);
    s.joined = false;
    bool logColour = r.logColour;
    for (std::size_t row : rows) logColour = logColour && !(table.number(row, std::size_t(r.colour)) <= 0.0);
    f.logColour = logColour;
    for (std::size_t row : rows) {
      const double x = xOf(row), y = axisValue(table.number(row, std::size_t(r.y)), r.logY);
      if (!std::isfinite(x) || !std::isfinite(y)) {
        ++f.hidden;
        continue;
      }
      s.points.push_back({x, y, axisValue(table.number(row, std::size_t(r.colour)), logColour), row});
    }
    f.series.push_back(std::move(s));
  } else {
    // Series per y column and group, in order of first appearance.
    std::map<QString, std::size_t> groupIndex;
    std::vector<QString> groups;
    std::vector<std::size_t> groupOfRow(rows.size(), 0);
    if (!r.groupBy.empty()) {
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const QString label = groupLabel(table, r.groupBy, rows[i]);
        auto [it, added] = groupIndex.emplace(label, groups.size());
        if (added) groups.push_back(label);
        groupOfRow[i] = it->second;
      }
    }
    const bool tooMany = groups.size() > kMaxGroups;
    if (groups.empty() || tooMany) {
      groups.assign(1, QString());
      std::fill(groupOfRow.begin(), groupOfRow.end(), 0);
    }
    for (std::size_t k = 0; k < r.ys.size(); ++k) {
      const QString yName = k < r.yNames.size() ? r.yNames[k] : columnName(table, r.ys[k]);
      const int divide = k < r.yDivide.size() ? r.yDivide[k] : -1;
      const auto yOf = [&](std::size_t row) {
        const double y = table.number(row, std::size_t(r.ys[k]));
        return axisValue(divide >= 0 ? y / table.number(row, std::size_t(divide)) : y, r.logY);
      };
      for (std::size_t g = 0; g < groups.size(); ++g) {
        FigureSeries s;
        if (r.ys.size() > 1 && !groups[g].isEmpty()) s.name = yName + QStringLiteral(", ") + groups[g];
        else if (!groups[g].isEmpty()) s.name = groups[g];
        else s.name = tooMany ? QObject::tr("%1 (all runs)").arg(yName) : yName;
        s.colour = seriesColour(f.series.size());
        s.joined = r.kind == FigureKind::Lines && !r.xCategorical && !tooMany;
        s.tag = int(k);
        for (std::size_t i = 0; i < rows.size(); ++i) {
          if (groupOfRow[i] != g) continue;
          const double x = xOf(rows[i]), y = yOf(rows[i]);
          if (!std::isfinite(x) || !std::isfinite(y)) {
            ++f.hidden;
            continue;
          }
          s.points.push_back({x, y, kNaN, rows[i]});
        }
        if (s.joined) {
          std::stable_sort(s.points.begin(), s.points.end(),
                           [](const FigurePoint& a, const FigurePoint& b) { return a.x < b.x; });
        }
        if (r.fit && r.logX && r.logY && s.points.size() >= 2) {
          // The command line's fitted order (core's least-squares slope), and the line's offset.
          std::vector<double> xs, ys;
          double mx = 0.0, my = 0.0;
          for (const FigurePoint& p : s.points) {
            xs.push_back(std::pow(10.0, p.x));
            ys.push_back(std::pow(10.0, p.y));
            mx += p.x;
            my += p.y;
          }
          s.slope = study::logLogSlope(xs, ys);
          s.intercept = my / double(s.points.size()) - s.slope * mx / double(s.points.size());
        }
        f.series.push_back(std::move(s));
      }
    }
  }
  double xLo = kNaN, xHi = kNaN, yLo = kNaN, yHi = kNaN, cLo = kNaN, cHi = kNaN;
  for (const FigureSeries& s : f.series) {
    for (const FigurePoint& p : s.points) {
      xLo = std::isnan(xLo) ? p.x : std::min(xLo, p.x);
      xHi = std::isnan(xHi) ? p.x : std::max(xHi, p.x);
      yLo = std::isnan(yLo) ? p.y : std::min(yLo, p.y);
      yHi = std::isnan(yHi) ? p.y : std::max(yHi, p.y);
      if (std::isfinite(p.value)) {
        cLo = std::isnan(cLo) ? p.value : std::min(cLo, p.value);
        cHi = std::isnan(cHi) ? p.value : std::max(cHi, p.value);
      }
    }
  }
  if (r.xCategorical) {
    xLo = -0.5;
    xHi = double(f.xCategories.size()) - 0.5;
  } else {
    padRange(xLo, xHi, r.logX);
  }
  padRange(yLo, yHi, r.logY);
  f.yWhole = !r.logY && f.kind != FigureKind::Map && !f.series.empty();
  for (const FigureSeries& s : f.series) {
    for (const FigurePoint& p : s.points) f.yWhole = f.yWhole && p.y == std::round(p.y);
  }
  f.xMin = xLo;
  f.xMax = xHi;
  f.yMin = yLo;
  f.yMax = yHi;
  f.cMin = std::isnan(cLo) ? 0.0 : cLo;
  f.cMax = std::isnan(cHi) ? 1.0 : (cHi > cLo ? cHi : cLo + 1.0);
}

}  // namespace

std::size_t StudyFigure::pointCount() const {
  std::size_t n = cells.size();
  for (const FigureSeries& s : series) n += s.points.size();
  return n;
}

StudyFigure buildFigure(const StudyTable& table, const FigureRecipe& r) {
  StudyFigure f;
  f.kind = r.kind;
  f.title = r.title;
  f.subtitle = r.subtitle;
  f.xTitle = r.xTitle.isEmpty() ? columnName(table, r.x) : r.xTitle;
  f.yTitle = r.yTitle;
  f.colourTitle = r.colourTitle.isEmpty() ? columnName(table, r.colour) : r.colourTitle;
  f.logX = r.logX && !r.xCategorical;
  f.logY = r.logY;
  const int columns = int(table.columns().size());
  const auto valid = [&](int c) { return c >= 0 && c < columns; };
  if (!valid(r.x)) return f;
  std::vector<std::size_t> rows = r.rows;
  if (rows.empty()) {
    for (std::size_t i = 0; i < table.rowCount(); ++i) rows.push_back(i);
  }
  std::erase_if(rows, [&](std::size_t row) { return row >= table.rowCount(); });
  FigureRecipe recipe = r;
  recipe.logX = f.logX;
  if (r.kind == FigureKind::Map) {
    if (valid(r.y) && valid(r.colour)) buildMap(table, recipe, rows, f);
    return f;
  }
  for (std::size_t k = 0; k < recipe.yDivide.size(); ++k) {
    if (!valid(recipe.yDivide[k])) recipe.yDivide[k] = -1;
  }
  for (std::size_t k = recipe.ys.size(); k-- > 0;) {
    if (valid(recipe.ys[k])) continue;
    recipe.ys.erase(recipe.ys.begin() + std::ptrdiff_t(k));
    if (k < recipe.yDivide.size()) recipe.yDivide.erase(recipe.yDivide.begin() + std::ptrdiff_t(k));
    if (k < recipe.yNames.size()) recipe.yNames.erase(recipe.yNames.begin() + std::ptrdiff_t(k));
  }
  std::erase_if(recipe.groupBy, [&](int c) { return !valid(c); });
  if (!valid(recipe.y) || !valid(recipe.colour)) recipe.y = recipe.colour = -1;
  buildPoints(table, recipe, rows, f);
  return f;
}

std::vector<AxisTick> logAxisTicks(double lo, double hi, double pixels, bool vertical) {
  std::vector<AxisTick> ticks;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
  const double spacing = vertical ? 30.0 : 45.0;
  const int first = int(std::ceil(lo - 1e-9)), last = int(std::floor(hi + 1e-9));
  const int decades = last - first + 1;
  // Every k-th decade so that labels keep their distance.
  const double perDecade = pixels / (hi - lo);
  const int every = std::max(1, int(std::ceil(spacing / std::max(perDecade, 1e-9))));
  for (int e = first; e <= last; ++e) {
    if ((e - first) % every == 0) ticks.push_back({double(e), tickLabel(std::pow(10.0, e))});
  }
  if (decades < 3) {  // a short axis: 2 and 5 between the decades, where they fit
    for (int e = int(std::floor(lo)); e <= int(std::ceil(hi)); ++e) {
      for (double m : {2.0, 5.0}) {
        const double v = std::log10(m) + e;
        if (v < lo || v > hi || std::log10(2.5) * perDecade < spacing) continue;
        ticks.push_back({v, tickLabel(m * std::pow(10.0, e))});
      }
    }
    std::sort(ticks.begin(), ticks.end(), [](const AxisTick& a, const AxisTick& b) { return a.value < b.value; });
  }
  if (ticks.size() < 2) {  // less than a decade: the linear rule on the values, placed in log10
    ticks.clear();
    for (const AxisTick& t : axisTicks(std::pow(10.0, lo), std::pow(10.0, hi), pixels, vertical)) {
      if (t.value > 0.0) ticks.push_back({std::log10(t.value), t.label});
    }
  }
  return ticks;
}

PlotRgba colourScale(double t) {
  // Viridis at nine stops, interpolated linearly.
  static constexpr std::array<std::array<unsigned char, 3>, 9> kStops{{{68, 1, 84},
                                                                      {71, 44, 122},
                                                                      {59, 81, 139},
                                                                      {44, 113, 142},
                                                                      {33, 144, 141},
                                                                      {39, 173, 129},
                                                                      {92, 200, 99},
                                                                      {170, 220, 50},
                                                                      {253, 231, 37}}};
  if (!std::isfinite(t)) return {190, 190, 190, 255};
  const double u = std::clamp(t, 0.0, 1.0) * double(kStops.size() - 1);
  const std::size_t i = std::min(std::size_t(u), kStops.size() - 2);
  const double w = u - double(i);
  const auto mix = [&](int c) {
    return static_cast<unsigned char>(std::lround(kStops[i][c] * (1.0 - w) + kStops[i + 1][c] * w));
  };
  return {mix(0), mix(1), mix(2), 255};
}

PlotRgba seriesColour(std::size_t k) {
  static constexpr std::array<PlotRgba, 8> kPalette{{{0x00, 0x72, 0xB2, 255},
                                                     {0xD5, 0x5E, 0x00, 255},
                                                     {0x00, 0x9E, 0x73, 255},
                                                     {0xCC, 0x79, 0xA7, 255},
                                                     {0x56, 0xB4, 0xE9, 255},
                                                     {0xE6, 0x9F, 0x00, 255},
                                                     {0x22, 0x22, 0x22, 255},
                                                     {0x80, 0x80, 0x80, 255}}};
  return kPalette[k % kPalette.size()];
}

}  // namespace ricochet::app
