#include "core/io/run_metrics.hpp"

#include "core/io/trace.hpp"

#include <cmath>
#include <limits>

namespace ricochet::io {

RunMetrics::RunMetrics(const EnergySplit& initial)
    : e0_(initial.total()),
      scale_(energyScale(initial)),
      firstT_(std::numeric_limits<double>::quiet_NaN()),
      firstAlpha_(std::numeric_limits<double>::quiet_NaN()) {}

void RunMetrics::onImpact(const ImpactRecord& impact) {
  if (impacts_ == 0) {
    firstT_ = impact.t;
    firstAlpha_ = impact.alpha;
  }
  ++impacts_;
  if (impact.reflected) ++reflected_;
}

void RunMetrics::onStep(const Simulation&, const EnergySplit& energy) {
  const double rel = std::fabs(relativeError(energy));
  if (std::isnan(rel)) {
    nanSeen_ = true;
  } else if (rel > maxRel_) {
    maxRel_ = rel;
  }
}

double RunMetrics::maxAbsEnergyRelError() const {
  return nanSeen_ ? std::numeric_limits<double>::quiet_NaN() : maxRel_;
}

}  // namespace ricochet::io
