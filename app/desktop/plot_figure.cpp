#include "app/desktop/plot_figure.hpp"

#include <algorithm>
#include <cmath>
#include <locale>
#include <sstream>
#include <string>

namespace ricochet::app {

namespace {

// Truncation with a tolerance of 1/256 px, in single precision, as VTK turns lengths into counts.
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

std::vector<AxisTick> axisTicks(double lo, double hi, double pixels, bool vertical) {
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
  for (int i = 0; i <= n && i < 200; ++i) {
    double value = first + double(i) * interval;
    // Round-off next to zero (-1.4e-17 for 0) is zero.
    if (std::fabs(value) < (interval < 1.0 ? 1e-8 * interval : 1e-8)) value = 0.0;
    ticks.push_back({value, tickLabel(value)});
  }
  return ticks;
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

}  // namespace ricochet::app
