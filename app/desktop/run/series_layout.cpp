#include "app/desktop/run/series_layout.hpp"

#include <cmath>

namespace ricochet::app {

namespace {
// Series fed from computed quantities rather than from a Simulation column.
enum Computed { kTotal = -1, kKinetic = -2, kPotential = -3, kError = -4, kAbsError = -5 };

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}
}  // namespace

SeriesLayout::SeriesLayout(std::span<const std::string> columns) {
  auto add = [&](std::string name, SeriesInfo::Group group, int source) {
    series_.push_back(SeriesInfo{std::move(name), group});
    source_.push_back(source);
  };
  add("total", SeriesInfo::Group::Energy, kTotal);
  add("kinetic", SeriesInfo::Group::Energy, kKinetic);
  add("potential", SeriesInfo::Group::Energy, kPotential);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (startsWith(columns[c], "e.")) add(columns[c], SeriesInfo::Group::Energy, int(c));
  }
  add("energy error", SeriesInfo::Group::Error, kError);
  add("|energy error|", SeriesInfo::Group::AbsError, kAbsError);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (startsWith(columns[c], "mom.")) add(columns[c], SeriesInfo::Group::Momentum, int(c));
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (!startsWith(columns[c], "e.") && !startsWith(columns[c], "mom.")) {
      add(columns[c], SeriesInfo::Group::Column, int(c));
    }
  }
}

void SeriesLayout::values(const EnergySplit& e, double error, std::span<const double> columns,
                          std::span<double> out) const {
  for (std::size_t i = 0; i < source_.size(); ++i) {
    const int c = source_[i];
    double v;
    switch (c) {
      case kTotal:
        v = e.total();
        break;
      case kKinetic:
        v = e.kinetic;
        break;
      case kPotential:
        v = e.potential;
        break;
      case kError:
        v = error;
        break;
      case kAbsError:
        v = std::fabs(error);
        break;
      default:
        v = columns[std::size_t(c)];
        break;
    }
    out[i] = v;
  }
}

}  // namespace ricochet::app
