#include "app/desktop/plots/plot_figure.hpp"

#include <algorithm>
#include <cmath>
#include <locale>
#include <sstream>
#include <string>

namespace ricochet::app {

namespace {

// Truncation with a tolerance of 1/256 px, in single precision (a length of 89.999 px holds as
// many ticks as one of 90).
int floatToInt(float x) {
  const float tol = x >= 0 ? 0.00390625f : -0.00390625f;
  return static_cast<int>(x + tol);
}

// 1, 2, 5 or 10: the nice number at or above n (n in [1, 10)).
double niceNumber(double n) {
  if (n <= 1.0) return 1.0;
  if (n <= 2.0) return 2.0;
  if (n <= 5.0) return 5.0;
  return 10.0;
}

}  // namespace

double plotExportScale(QSize size) {
  const double s = std::min(size.width() / 800.0, size.height() / 500.0);
  return std::clamp(s, 1.0, 4.0);
}

ValueRange valueRange(double lo, double hi, bool log) {
  if (!(lo <= hi) || !std::isfinite(lo) || !std::isfinite(hi)) return {};
  const double magnitude = std::max(std::fabs(lo), std::fabs(hi));
  double minSpan = log ? 0.5 : kMinRelativeSpan * magnitude;
  if (!(minSpan > 0.0)) minSpan = 2.0;  // all zero: [-1, 1]
  if (hi - lo < minSpan) {
    // A constant (the first snapshot) or one to round-off (a conserved momentum): flat in the
    // middle of a round span of about a tenth of its size (4 kg m/s: 3.75 .. 4.25), so the ticks
    // read 3.8, 4.0, 4.2 rather than 3.999998 .. 4.000002.
    const double mid = 0.5 * (lo + hi);
    double span = minSpan;
    if (!log && magnitude > 0.0) {
      const double raw = 0.1 * magnitude;
      const double decade = std::pow(10.0, std::floor(std::log10(raw)));
      span = niceNumber(raw / decade) * decade;
    }
    lo = mid - 0.5 * span;
    hi = mid + 0.5 * span;
  }
  const double pad = 0.05 * (hi - lo);
  return {lo - pad, hi + pad};
}

std::vector<AxisTick> axisTicks(double lo, double hi, double pixels, bool vertical, int* exponent) {
  if (exponent) *exponent = 0;
  std::vector<AxisTick> ticks;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
  // The tick interval: the range over as many ticks as fit, rounded up to 1, 2 or 5 x 10^k.
  const float spacing = vertical ? 30.0f : 45.0f;
  const int maxTicks = floatToInt(float(pixels) / spacing);
  if (maxTicks <= 0) return ticks;
  const double raw = (hi - lo) / maxTicks;
  const int order = static_cast<int>(std::floor(std::log10(raw)));
  const double interval = niceNumber(raw * std::pow(10.0, -order)) * std::pow(10.0, order);
  if (!(interval > 0.0)) return ticks;
  // The multiples of the interval inside [lo, hi].
  double first = std::floor(lo / interval) * interval;
  double last = std::ceil(hi / interval) * interval;
  while (first < lo) first += interval;
  while (last > hi) last -= interval;
  const int n = floatToInt(float((last - first) / interval));
  double largest = 0.0;
  for (int i = 0; i <= n && i < 200; ++i) {
    double value = first + double(i) * interval;
    // Round-off next to zero (-1.4e-17 for 0) is zero.
    if (std::fabs(value) < 1e-8 * interval) value = 0.0;
    ticks.push_back({value, QString()});
    largest = std::max(largest, std::fabs(value));
  }
  // A short axis may hold the single tick 0: the interval then gives the scale, so that a range
  // of round-off reads "0" in units of 1e-16 rather than "0.0000000000000000".
  largest = std::max(largest, interval);
  int e = 0;
  if (exponent && largest > 0.0 && (largest < 1e-3 || largest >= 1e5)) {
    e = static_cast<int>(std::floor(std::log10(largest)));
    *exponent = e;
  }
  const double unit = std::pow(10.0, e);
  for (AxisTick& t : ticks) t.label = tickLabel(t.value / unit, interval / unit);
  return ticks;
}

QString tickLabel(double value, double step) {
  if (!std::isfinite(value)) return QString::number(value);
  const int order = step > 0.0 ? static_cast<int>(std::floor(std::log10(step) + 1e-9)) : 0;
  const int decimals = std::clamp(-order, 0, 17);
  if (std::fabs(value) >= 1e7) {
    const int digits = std::clamp(static_cast<int>(std::floor(std::log10(std::fabs(value)))) - order, 0, 16);
    return QString::number(value, 'e', digits);
  }
  QString s = QString::number(value, 'f', decimals);
  // "-0", "-0.00": zero.
  bool allZero = true;
  for (QChar c : s) {
    if (c.isDigit() && c != QLatin1Char('0')) allZero = false;
  }
  if (allZero && s.startsWith(QLatin1Char('-'))) s.remove(0, 1);
  return s;
}

QString tickLabel(double value) {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out << value;
  std::string s = out.str();
  const std::size_t e = s.find_first_of("eE");
  if (e != std::string::npos && e + 1 < s.size() && (s[e + 1] == '+' || s[e + 1] == '-')) {
    std::size_t digits = e + 2;
    while (digits < s.size() && s[digits] == '0') s.erase(digits, 1);
    if (digits == s.size()) s.erase(e);  // an exponent of 0: no exponent
  }
  return QString::fromStdString(s);
}

QString exponentSuffix(int exponent) {
  if (exponent == 0) return {};
  return QStringLiteral(" (\u00d71e%1)").arg(exponent);
}

}  // namespace ricochet::app
