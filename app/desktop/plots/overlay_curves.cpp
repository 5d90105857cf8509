#include "app/desktop/plots/overlay_curves.hpp"

#include "core/io/trace.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ricochet::app {

int OverlayCurves::indexOf(const QString& name) const {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return int(i);
  }
  return -1;
}

std::shared_ptr<const OverlayCurves> overlayCurves(const hdf5::RunFile& run, int columns) {
  auto out = std::make_shared<OverlayCurves>();
  out->label = QStringLiteral("%1, h = %2")
                   .arg(QString::fromStdString(run.integrator))
                   .arg(run.h, 0, 'g', 6);
  // The worker's series order (SimulationWorker::begin), each from its trace column.
  const hdf5::RunTable& trace = run.trace;
  std::vector<const std::vector<double>*> sources;
  std::vector<bool> magnitude;
  auto add = [&](const QString& name, const std::vector<double>* column, bool abs = false) {
    if (!column) return;
    out->names.push_back(name);
    sources.push_back(column);
    magnitude.push_back(abs);
  };
  const std::size_t first = std::size(io::kTraceRequiredColumns);
  auto systemColumns = [&](auto&& keep) {
    for (std::size_t c = first; c < trace.names.size(); ++c) {
      if (keep(trace.names[c])) add(QString::fromStdString(trace.names[c]), &trace.columns[c]);
    }
  };
  auto has = [](const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; };
  add(QStringLiteral("total"), trace.column("energy"));
  add(QStringLiteral("kinetic"), trace.column("kinetic"));
  add(QStringLiteral("potential"), trace.column("potential"));
  systemColumns([&](const std::string& n) { return has(n, "e."); });
  add(QStringLiteral("energy error"), trace.column("energy_rel_error"));
  add(QStringLiteral("|energy error|"), trace.column("energy_rel_error"), true);
  systemColumns([&](const std::string& n) { return has(n, "mom."); });
  systemColumns([&](const std::string& n) { return !has(n, "e.") && !has(n, "mom."); });

  const std::vector<double>* t = trace.column("t");
  const std::size_t rows = t ? t->size() : 0;
  trace::MinMaxDecimator decimator(int(sources.size()));
  std::vector<double> values(sources.size());
  out->initial.assign(sources.size(), std::nan(""));
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t k = 0; k < sources.size(); ++k) {
      const double v = (*sources[k])[r];
      values[k] = magnitude[k] ? std::fabs(v) : v;
    }
    if (r == 0) out->initial = values;
    decimator.append((*t)[r], values);
  }
  if (rows > 0) decimator.render(std::max(columns, 1), out->plot);
  return out;
}

QString overlayLegend(const OverlayCurves& overlay) {
  return QStringLiteral("dashed: overlay (%1)").arg(overlay.label);
}

}  // namespace ricochet::app
