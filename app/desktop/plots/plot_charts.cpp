#include "app/desktop/plots/plot_charts.hpp"

#include <QObject>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ricochet::app {

namespace {

constexpr double kLogFloor = 1e-17;  // |error| below this (round-off of E0 itself) shows as 1e-17
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Two series closer than this fraction of the value axis everywhere are drawn as one.
constexpr double kCoincide = 2e-3;

// Colour-blind friendly palette (Okabe-Ito), total energy in near-black; kinetic (vermillion) and
// potential (blue) far apart in hue and lightness.
constexpr std::array<PlotRgba, 8> kPalette{{{0x22, 0x22, 0x22, 255},
                                            {0xD5, 0x5E, 0x00, 255},
                                            {0x00, 0x72, 0xB2, 255},
                                            {0x00, 0x9E, 0x73, 255},
                                            {0xCC, 0x79, 0xA7, 255},
                                            {0xE6, 0x9F, 0x00, 255},
                                            {0x56, 0xB4, 0xE9, 255},
                                            {0x80, 0x80, 0x80, 255}}};

QString roleTitle(int role, const ChartContext& c) {
  switch (role) {
    case 0: return QStringLiteral("energy [J]");
    case 1:
      if (c.logError) {
        return c.relativeError ? QStringLiteral("log10 |(E - E0)/E0|")
                               : QStringLiteral("log10 |(E - E0)/(K0 + |V0|)|");
      }
      return c.relativeError ? QStringLiteral("(E - E0)/|E0|") : QStringLiteral("(E - E0)/(K0 + |V0|)");
    case 2: return QStringLiteral("momenta");
    default: return {};
  }
}

bool startsWith(const QString& s, const char* prefix) { return s.startsWith(QLatin1String(prefix)); }

}  // namespace

QString ordinal(std::int64_t n) {
  const std::int64_t tens = n % 100, units = n % 10;
  const char* suffix = "th";
  if (tens < 11 || tens > 13) {
    if (units == 1) suffix = "st";
    if (units == 2) suffix = "nd";
    if (units == 3) suffix = "rd";
  }
  return QString::number(n) + QLatin1String(suffix);
}

namespace {}  // namespace

int ChartContext::indexOf(const QString& name) const {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return int(i);
  }
  return -1;
}

double ChartContext::initial(int k) const {
  if (!snapshot || !snapshot->rows || snapshot->rows->size() == 0 || k < 0) return kNaN;
  const auto row = snapshot->rows->row(0);  // step 0: every stride keeps it
  return std::size_t(k) < row.size() ? row[std::size_t(k)] : kNaN;
}

std::pair<double, double> ChartContext::fullRange() const {
  const std::vector<double>* t = snapshot ? &snapshot->plot.t : nullptr;
  const double t0 = t && !t->empty() ? t->front() : (snapshot ? snapshot->t : 0.0);
  double t1 = t && !t->empty() ? t->back() : t0;
  if (!(t1 > t0)) t1 = t0 + std::max(h, 1e-9);
  return {t0, t1};
}

QStringList defaultColumns(PanelKind kind, const ChartContext& c) {
  // A coordinate and its own momentum (or velocity) whose momentum the system does not conserve
  // (a `mom.p<coord>` column says it does: p.x of a body over a floor is a flat line): the
  // height and vertical momentum of a bouncing body (q.z or q.y), an angle and its rate for the
  // pendulum, the position across a wall for the rolling disks. The phase portrait and the impact
  // map open on it; a time plot on its coordinate.
  const auto has = [&](const QString& name) { return c.indexOf(name) >= 0; };
  QString q, v;
  for (const QString& pass : {QStringLiteral("z"), QStringLiteral("y"), QString()}) {
    for (const QString& n : c.names) {
      if (!q.isEmpty() || !startsWith(n, "q.")) continue;
      const QString coord = n.mid(2);
      if (!pass.isEmpty() && coord != pass) continue;
      if (has(QStringLiteral("mom.p") + coord)) continue;  // conserved: a flat line
      for (const char* prefix : {"p.", "v."}) {
        const QString rate = QString::fromLatin1(prefix) + coord;
        if (v.isEmpty() && has(rate)) {
          q = n;
          v = rate;
        }
      }
    }
  }
  if (q.isEmpty()) {  // no such pair: the first coordinate and the first rate
    for (const QString& n : c.names) {
      if (q.isEmpty() && startsWith(n, "q.")) q = n;
      if (v.isEmpty() && (startsWith(n, "v.") || startsWith(n, "p."))) v = n;
    }
  }
  if (kind == PanelKind::Time) return q.isEmpty() ? QStringList{} : QStringList{q};
  if (q.isEmpty() || v.isEmpty()) {
    QStringList any;
    for (const QString& n : c.names) {
      if (any.size() < 2 && !n.startsWith(QLatin1Char('|'))) any << n;
    }
    return any;
  }
  return {q, v};
}

PlotChart buildChart(const PanelChoice& choice, const ChartContext& c) {
  PlotChart out;
  const Snapshot* s = c.snapshot.get();
  if (choice.kind != PanelKind::Time) {
    // Phase portrait / impact map: dots of the rows (evenly spaced states, or one per impact).
    const QString xName = choice.columns.value(0), yName = choice.columns.value(1);
    const int xi = c.indexOf(xName), yi = c.indexOf(yName);
    out.xTitle = xName.isEmpty() ? QStringLiteral("-") : xName;
    out.yTitle = yName;
    PlotSeries dots;
    dots.dots = true;
    dots.pen = {kPalette[2], 1.0, false};
    std::size_t n = 0;
    std::int64_t stride = 1;
    if (s && xi >= 0 && yi >= 0) {
      if (choice.kind == PanelKind::Phase && s->rows) {
        dots.t = s->rows->column(xi);
        dots.y = s->rows->column(yi);
        n = s->rows->size();
        stride = s->rows->stride();
      } else if (choice.kind == PanelKind::ImpactMap && s->impactRows) {
        dots.t = s->impactRows->column(xi);
        dots.y = s->impactRows->column(yi);
        n = s->impactRows->size();
      }
    }
    if (choice.kind == PanelKind::Phase) {
      dots.name = stride == 1
                      ? QObject::tr("%1 states (every step)").arg(n)
                      : QObject::tr("%1 states (every %2 step)").arg(n).arg(ordinal(stride));
    } else {
      const std::int64_t all = s ? s->impacts : 0;
      dots.name =
          std::int64_t(n) == all
              ? (n == 1 ? QObject::tr("1 impact") : QObject::tr("%1 impacts").arg(n))
              : QObject::tr("%1 of %2 impacts (the first in each time slice)").arg(n).arg(all);
    }
    auto span = [](const std::vector<double>& v) {
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (double x : v) {
        if (std::isfinite(x)) {
          lo = std::min(lo, x);
          hi = std::max(hi, x);
        }
      }
      return valueRange(lo, hi);
    };
    const ValueRange xr = span(dots.t), yr = span(dots.y);
    out.tMin = xr.lo;
    out.tMax = xr.hi;
    out.yMin = yr.lo;
    out.yMax = yr.hi;
    out.series.push_back(std::move(dots));
    return out;
  }

  // A time panel.
  const auto [f0, f1] = c.fullRange();
  double t0 = f0, t1 = f1;
  if (c.window) std::tie(t0, t1) = *c.window;
  out.tMin = t0;
  out.tMax = t1;
  out.yTitle = roleTitle(choice.role, c);
  if (out.yTitle.isEmpty() && choice.columns.size() == 1) out.yTitle = choice.columns.front();
  const bool logView = choice.role == 1 && c.logError;
  const bool deviation = choice.deviation && !logView;
  if (deviation && !out.yTitle.isEmpty()) out.yTitle = QStringLiteral("\u0394 ") + out.yTitle;
  out.legend = choice.role != 1;  // a single series named by its axis title

  const std::vector<double> empty;
  const std::vector<double>& t = s ? s->plot.t : empty;
  std::vector<PlotSeries> curves;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  int k = 0;
  for (const QString& name : choice.columns) {
    int src = c.indexOf(name);
    if (src < 0) continue;
    if (logView) src = c.absErrorSeries;
    PlotSeries ser;
    ser.name = logView ? QStringLiteral("log10 |energy error|") : name;
    if (choice.role == 1 && !logView) ser.name = QStringLiteral("energy error");
    if (deviation) ser.name = QStringLiteral("\u0394 ") + ser.name;
    const PlotRgba col = choice.role == 0 ? kPalette[std::size_t(k) % kPalette.size()]
                                          : kPalette[std::size_t(k + 2) % kPalette.size()];
    ser.pen = {col, choice.role == 0 && k == 0 ? 2.0 : 1.5, choice.role == 0 && startsWith(name, "e.")};
    const double base = deviation ? c.initial(src) : 0.0;
    if (s && src >= 0 && std::size_t(src) < s->plot.y.size()) {
      const std::vector<double>& y = s->plot.y[std::size_t(src)];
      ser.t = t;
      ser.y.resize(y.size());
      for (std::size_t i = 0; i < y.size(); ++i) {
        double v = y[i];
        if (logView) v = std::log10(std::max(v, kLogFloor));
        if (deviation) v -= base;
        ser.y[i] = v;
        if (std::isfinite(v) && i < t.size() && t[i] >= t0 && t[i] <= t1) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
      }
    }
    curves.push_back(std::move(ser));
    ++k;
  }
  // The overlaid run's curve of each quantity shown, dashed in its colour, up to the shown run's
  // latest time (the two runs advance together), its own initial value as the Δ view's base.
  std::vector<PlotSeries> overlays;
  if (c.overlay) {
    const OverlayCurves& o = *c.overlay;
    const double until = s ? std::min(t1, s->t) : t1;
    int m = 0;
    for (const QString& name : choice.columns) {
      if (c.indexOf(name) < 0) continue;
      const PlotSeries& main = curves[std::size_t(m++)];
      const int src = o.indexOf(logView ? QStringLiteral("|energy error|") : name);
      if (src < 0 || std::size_t(src) >= o.plot.y.size()) continue;
      PlotSeries ser;
      ser.name = main.name + QStringLiteral(" (overlay)");
      // One legend entry says what every dashed curve is (each in its quantity's colour).
      if (overlays.empty()) {
        ser.legendName = overlayLegend(o);
      } else {
        ser.inLegend = false;
      }
      ser.pen = {main.pen.colour, 1.5, true};
      const double base = deviation ? o.initial[std::size_t(src)] : 0.0;
      const std::vector<double>& y = o.plot.y[std::size_t(src)];
      for (std::size_t i = 0; i < y.size() && i < o.plot.t.size(); ++i) {
        const double ti = o.plot.t[i];
        if (ti < t0 || ti > until) continue;
        double v = y[i];
        if (logView) v = std::log10(std::max(v, kLogFloor));
        if (deviation) v -= base;
        ser.t.push_back(ti);
        ser.y.push_back(v);
        if (std::isfinite(v)) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
      }
      overlays.push_back(std::move(ser));
    }
  }
  const ValueRange r = valueRange(lo, hi, logView);
  out.yMin = r.lo;
  out.yMax = r.hi;

  // Series that coincide on this axis: the later one dashed over the earlier, one legend entry.
  const double tol = kCoincide * (out.yMax - out.yMin);
  for (std::size_t b = 1; b < curves.size(); ++b) {
    for (std::size_t a = 0; a < b; ++a) {
      if (!curves[a].inLegend || curves[a].y.size() != curves[b].y.size() || curves[a].y.size() < 2) continue;
      bool same = true;
      for (std::size_t i = 0; i < curves[a].y.size() && same; ++i) {
        const double d = std::fabs(curves[a].y[i] - curves[b].y[i]);
        same = d <= tol || (std::isnan(curves[a].y[i]) && std::isnan(curves[b].y[i]));
      }
      if (!same) continue;
      curves[b].pen.dashed = true;
      curves[b].pen.width = std::max(curves[b].pen.width, 2.0);
      curves[b].inLegend = false;
      curves[a].legendName = curves[a].legendText() + QStringLiteral(" = ") + curves[b].name;
      break;
    }
  }

  // Impact lines: one per plot column holding an impact; when impacts are dense (more than one
  // column in eight), short ticks on the time axis instead, so the curves are not buried.
  if (s && !s->plot.eventTimes.empty()) {
    PlotSeries marks;
    marks.name = QStringLiteral("impacts");
    marks.pen = plotstyle::kImpactPen;
    marks.segments = true;
    marks.inLegend = choice.role == 0;  // one legend entry is enough
    std::vector<double> inside;
    for (double e : s->plot.eventTimes) {
      if (e >= t0 && e <= t1) inside.push_back(e);
    }
    const bool dense = double(inside.size()) * 8.0 > double(c.columns);
    const double top = dense ? out.yMin + 0.06 * (out.yMax - out.yMin) : out.yMax;
    for (double e : inside) {
      marks.t.insert(marks.t.end(), {e, e});
      marks.y.insert(marks.y.end(), {out.yMin, top});
    }
    if (!marks.t.empty()) out.series.push_back(std::move(marks));
  }
  for (PlotSeries& ser : curves) out.series.push_back(std::move(ser));
  if (!overlays.empty()) out.legend = true;  // the error panel too: which curve is which
  for (PlotSeries& ser : overlays) out.series.push_back(std::move(ser));
  return out;
}

QString impactDescription(const ImpactRow& r, const ChartContext& c) {
  const QString constraint = r.constraint >= 0 && std::size_t(r.constraint) < c.constraints.size()
                                 ? QString::fromStdString(c.constraints[std::size_t(r.constraint)])
                                 : QString::number(r.constraint);
  return QObject::tr("Impact %1 at t = %2 s\n"
                     "step %3, alpha = %4 (fraction of the step)\n"
                     "constraint: %5\n"
                     "energy before: %6 J\n"
                     "energy after: %7 J\n"
                     "impulse: %8\n"
                     "resolved by: %9")
      .arg(r.number)
      .arg(r.t, 0, 'g', 12)
      .arg(r.step)
      .arg(r.alpha, 0, 'g', 6)
      .arg(constraint)
      .arg(r.energyBefore, 0, 'g', 12)
      .arg(r.energyAfter, 0, 'g', 12)
      .arg(r.impulse, 0, 'g', 8)
      .arg(r.reflected ? QObject::tr("exact reflection (grazing contact)")
                       : QObject::tr("discrete energy balance"));
}

}  // namespace ricochet::app
