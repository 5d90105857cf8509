#include "app/desktop/study/study_results.hpp"

namespace ricochet::app {

const Scenario& StudyRequest::base() const {
  switch (preset) {
    case StudyPreset::Custom: return custom.base;
    case StudyPreset::Convergence: return convergence.base;
    case StudyPreset::Sensitivity: return sensitivity.base;
    case StudyPreset::Compare: return compare.base;
  }
  return custom.base;
}

std::optional<Scenario> StudyResults::scenarioFor(std::size_t row, int series) const {
  if (row >= table.rowCount()) return std::nullopt;
  if (preset == StudyPreset::Sensitivity) {
    if (series < 0 || std::size_t(series) >= perturbations.size()) return base;
    Scenario s;
    if (!study::perturbedScenario(base, perturbations[std::size_t(series)], s).empty()) return std::nullopt;
    return s;
  }
  if (!plan || std::int64_t(row) >= plan->runs) return std::nullopt;
  Scenario s;
  if (!study::runScenario(*plan, std::int64_t(row), s).empty()) return std::nullopt;
  return s;
}

QString StudyResults::describe(std::size_t row, int series) const {
  const auto qs = [](const std::string& s) { return QString::fromStdString(s); };
  switch (preset) {
    case StudyPreset::Sensitivity:
      if (series >= 0 && std::size_t(series) < perturbations.size()) {
        return QObject::tr("the run %1").arg(qs(perturbations[std::size_t(series)].label()));
      }
      return QObject::tr("the base run");
    case StudyPreset::Convergence:
      if (!plan || std::int64_t(row) >= plan->runs) return {};
      return (std::int64_t(row) + 1 == plan->runs ? QObject::tr("the reference")
                                                 : QObject::tr("level %1").arg(row)) +
             QStringLiteral(" (%1)").arg(qs(study::describeRun(*plan, std::int64_t(row))));
    case StudyPreset::Custom:
    case StudyPreset::Compare:
      if (!plan || std::int64_t(row) >= plan->runs) return {};
      if (plan->axes.empty()) return QObject::tr("run %1").arg(row);
      return QObject::tr("run %1 (%2)").arg(row).arg(qs(study::describeRun(*plan, std::int64_t(row))));
  }
  return {};
}

}  // namespace ricochet::app
