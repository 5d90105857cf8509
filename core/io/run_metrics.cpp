#include "core/io/run_metrics.hpp"

#include "core/io/energy_check.hpp"
#include "core/io/trace.hpp"

#include <algorithm>
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

void RunMetrics::onStep(const Simulation& simulation, const EnergySplit& energy) {
  const double rel = std::fabs(relativeError(energy));
  if (std::isnan(rel)) {
    nanSeen_ = true;
  } else if (rel > maxRel_) {
    maxRel_ = rel;
  }
  if (dissipatedColumn_ == -2) {
    const auto columns = simulation.columns();
    const auto it = std::find(columns.begin(), columns.end(), kDissipatedEnergyColumn);
    dissipatedColumn_ = it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
    if (dissipatedColumn_ >= 0) columns_.resize(columns.size());
  }
  double dissipated = 0.0;
  if (dissipatedColumn_ >= 0) {
    simulation.sample(columns_);
    dissipated = columns_[static_cast<std::size_t>(dissipatedColumn_)];
  }
  const double balance = std::fabs(energyBalanceError(energy.total(), dissipated, e0_, scale_));
  if (std::isnan(balance)) {
    balanceNanSeen_ = true;
  } else if (balance > maxBalance_) {
    maxBalance_ = balance;
  }
}

double RunMetrics::maxAbsEnergyRelError() const {
  return nanSeen_ ? std::numeric_limits<double>::quiet_NaN() : maxRel_;
}

double RunMetrics::maxAbsEnergyBalanceError() const {
  return balanceNanSeen_ ? std::numeric_limits<double>::quiet_NaN() : maxBalance_;
}

}  // namespace ricochet::io
