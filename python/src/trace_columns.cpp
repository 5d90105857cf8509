#include "trace_columns.hpp"

#include "core/bodies/bodies_system.hpp"

#include <algorithm>

namespace ricochet::python {

using namespace pybind11::literals;

void ImpactColumns::add(const ImpactRecord& impact, std::string_view constraintName) {
  // As io::appendImpactRow writes them.
  step.push_back(static_cast<double>(impact.step));
  t.push_back(impact.t);
  alpha.push_back(impact.alpha);
  constraint.emplace_back(constraintName);
  energyBefore.push_back(impact.energyBefore);
  energyAfter.push_back(impact.energyAfter);
  impulse.push_back(impact.impulse);
  reflected.push_back(impact.reflected ? 1.0 : 0.0);
  bodyA.push_back(static_cast<double>(impact.bodyA));
  bodyB.push_back(static_cast<double>(impact.bodyB));
}

void ImpactColumns::append(const ImpactColumns& o) {
  const auto extend = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  extend(step, o.step);
  extend(t, o.t);
  extend(alpha, o.alpha);
  extend(constraint, o.constraint);
  extend(energyBefore, o.energyBefore);
  extend(energyAfter, o.energyAfter);
  extend(impulse, o.impulse);
  extend(reflected, o.reflected);
  extend(bodyA, o.bodyA);
  extend(bodyB, o.bodyB);
  bodies = bodies || o.bodies;
}

py::dict ImpactColumns::toDict() const {
  const std::vector<double>* numeric[] = {&step, &t, &alpha, nullptr, &energyBefore, &energyAfter, &impulse, &reflected};
  static_assert(std::size(io::kImpactColumns) == std::size(numeric));
  py::dict out;
  for (std::size_t c = 0; c < std::size(numeric); ++c) {
    if (numeric[c]) {
      out[io::kImpactColumns[c]] = toArray(std::vector<double>(*numeric[c]));
    } else {
      py::list names;
      for (const std::string& n : constraint) names.append(n);
      out[io::kImpactColumns[c]] = py::module_::import("numpy").attr("array")(names, "dtype"_a = "str");
    }
  }
  if (bodies) {  // as the CSV: after `reflected`
    out["body_a"] = toArray(std::vector<double>(bodyA));
    out["body_b"] = toArray(std::vector<double>(bodyB));
  }
  return out;
}

TraceColumns::TraceColumns(std::span<const std::string> systemColumns, std::int64_t expectedRows) {
  for (const char* c : io::kTraceRequiredColumns) names_.emplace_back(c);
  names_.insert(names_.end(), systemColumns.begin(), systemColumns.end());
  columns_.resize(names_.size());
  // Reserve what a run of this length records, within reason (a long run grows as it goes).
  const auto rows = static_cast<std::size_t>(std::clamp<std::int64_t>(expectedRows, 0, std::int64_t(1) << 20));
  for (auto& c : columns_) c.reserve(rows);
}

std::string TraceColumns::onRow(const Simulation& simulation, const io::TraceRow& row) {
  impacts_.bodies = impacts_.bodies || !bodies::bodyNamesOf(simulation).empty();
  if (row.step == skipStep) return {};
  // As io::appendTraceRow writes them.
  const double required[] = {static_cast<double>(row.step),
                             row.t,
                             row.energy.total(),
                             row.energy.kinetic,
                             row.energy.potential,
                             reference ? reference->relativeError(row.energy) : row.energyRelError,
                             static_cast<double>(row.impacts)};
  static_assert(std::size(required) == std::size(io::kTraceRequiredColumns));
  std::size_t c = 0;
  for (double x : required) columns_[c++].push_back(x);
  for (double x : row.columns) columns_[c++].push_back(x);
  return {};
}

std::string TraceColumns::onImpact(const ImpactRecord& impact, std::string_view constraint) {
  impacts_.add(impact, constraint);
  return {};
}

py::dict TraceColumns::takeTrace() {
  py::dict out;
  for (std::size_t c = 0; c < names_.size(); ++c) out[py::str(names_[c])] = toArray(std::move(columns_[c]));
  columns_.assign(names_.size(), {});
  return out;
}

}  // namespace ricochet::python
