#include "core/io/describe.hpp"

#include <cmath>

namespace ricochet::io {

namespace {

json::Value boundOrNull(double x) { return std::isfinite(x) ? json::Value::number(x) : json::Value::null(); }

json::Value entriesJson(const std::vector<ParameterSpec>& specs) {
  json::Value a = json::Value::array();
  for (const ParameterSpec& p : specs) {
    json::Value e = json::Value::object();
    e.add("name", json::Value::string(p.name));
    e.add("unit", json::Value::string(p.unit));
    e.add("default", json::Value::number(p.defaultValue));
    e.add("min", boundOrNull(p.min));
    e.add("max", boundOrNull(p.max));
    e.add("help", json::Value::string(p.help));
    e.add("min_exclusive", json::Value::boolean(p.minExclusive));
    e.add("max_exclusive", json::Value::boolean(p.maxExclusive));
    a.push(std::move(e));
  }
  return a;
}

}  // namespace

json::Value describeToJson(const SystemInfo& info) {
  json::Value o = json::Value::object();
  o.add("id", json::Value::string(info.id));
  o.add("title", json::Value::string(info.title));
  o.add("source", json::Value::string(info.source));
  o.add("summary", json::Value::string(info.summary));
  o.add("parameters", entriesJson(info.parameters));
  o.add("initial", entriesJson(info.initial));
  json::Value names = json::Value::array();
  json::Value details = json::Value::array();
  for (const IntegratorInfo& in : info.integrators) {
    names.push(json::Value::string(in.name));
    json::Value d = json::Value::object();
    d.add("name", json::Value::string(in.name));
    d.add("title", json::Value::string(in.title));
    d.add("help", json::Value::string(in.help));
    details.push(std::move(d));
  }
  o.add("integrators", std::move(names));
  o.add("integrator_details", std::move(details));
  json::Value constraints = json::Value::array();
  for (const std::string& c : info.constraints) constraints.push(json::Value::string(c));
  o.add("constraints", std::move(constraints));
  json::Value defaults = json::Value::object();
  defaults.add("h", json::Value::number(info.defaultH));
  defaults.add("t_end", json::Value::number(info.defaultTEnd));
  defaults.add("integrator", json::Value::string(info.integrators.empty() ? std::string()
                                                                          : info.integrators.front().name));
  defaults.add("tolerance", json::Value::number(info.defaultTolerance));
  o.add("defaults", std::move(defaults));
  return o;
}

}  // namespace ricochet::io
