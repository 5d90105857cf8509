#include "app/desktop/scenario/scenario_settings.hpp"

#include "core/model/registry.hpp"

#include <QSettings>
#include <QString>

namespace ricochet::app {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

Scenario readStoredScenario(QSettings& settings, const SystemDescription& system) {
  // The last scenario run for this system, by value names (so a renamed or added parameter
  // falls back to its default); anything invalid gives the paper's defaults.
  const SystemInfo& info = system.info();
  Scenario s = defaultScenario(system);
  settings.beginGroup(QStringLiteral("scenarios/") + qs(info.id));
  if (settings.childKeys().isEmpty() && settings.childGroups().isEmpty()) {
    settings.endGroup();
    return s;
  }
  auto readList = [&settings](const char* group, const std::vector<ParameterSpec>& specs,
                              std::vector<double>& values) {
    settings.beginGroup(QString::fromLatin1(group));
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const QVariant v = settings.value(qs(specs[i].name));
      bool ok = false;
      const double d = v.toDouble(&ok);
      if (v.isValid() && ok) values[i] = d;
    }
    settings.endGroup();
  };
  readList("parameters", info.parameters, s.parameters);
  readList("initial", info.initial, s.initial);
  const QString integrator = settings.value(QStringLiteral("integrator")).toString();
  if (!integrator.isEmpty()) s.integrator.name = integrator.toStdString();
  bool ok = false;
  double v = settings.value(QStringLiteral("h")).toDouble(&ok);
  if (ok) s.integrator.h = v;
  v = settings.value(QStringLiteral("tolerance")).toDouble(&ok);
  if (ok) s.integrator.tolerance = v;
  v = settings.value(QStringLiteral("t_end")).toDouble(&ok);
  if (ok) s.tEnd = v;
  settings.endGroup();
  if (!validateScenario(s).empty()) return defaultScenario(system);
  return s;
}

void storeScenario(QSettings& settings, const Scenario& s) {
  const SystemDescription* system = findSystem(s.system);
  if (!system) return;
  const SystemInfo& info = system->info();
  settings.setValue(QStringLiteral("run/system"), qs(s.system));
  settings.beginGroup(QStringLiteral("scenarios/") + qs(s.system));
  // Numbers as shortest round-trip text, so a restored scenario is bit-identical.
  settings.beginGroup(QStringLiteral("parameters"));
  for (std::size_t i = 0; i < info.parameters.size(); ++i) {
    settings.setValue(qs(info.parameters[i].name), qs(formatNumber(s.parameters[i])));
  }
  settings.endGroup();
  settings.beginGroup(QStringLiteral("initial"));
  for (std::size_t i = 0; i < info.initial.size(); ++i) {
    settings.setValue(qs(info.initial[i].name), qs(formatNumber(s.initial[i])));
  }
  settings.endGroup();
  settings.setValue(QStringLiteral("integrator"), qs(s.integrator.name));
  settings.setValue(QStringLiteral("h"), qs(formatNumber(s.integrator.h)));
  settings.setValue(QStringLiteral("tolerance"), qs(formatNumber(s.integrator.tolerance)));
  settings.setValue(QStringLiteral("t_end"), qs(formatNumber(s.tEnd)));
  settings.endGroup();
}

}  // namespace ricochet::app
