#include "core/io/scenario_io.hpp"

#include "core/io/atomic_file.hpp"
#include "core/io/body_io.hpp"
#include "core/io/json_checker.hpp"
#include "core/model/registry.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>

namespace ricochet::io {

namespace {

using Checker = io::JsonChecker;

/// Reads a {NAME: number} object into `values` (aligned with `specs`); `group` is "parameters" or
/// "initial", `kind` the checkValue() wording.
bool readValues(Checker& c, const json::Value& object, const std::vector<ParameterSpec>& specs,
                std::vector<double>& values, const std::string& group, std::string_view kind,
                const std::string& systemId) {
  if (!c.expect(object, json::Type::Object, group)) return false;
  for (const json::Member& m : object.asObject()) {
    const std::string key = group + "." + m.first;
    const auto index = indexOf(specs, m.first);
    if (!index) {
      std::string names;
      for (const ParameterSpec& s : specs) names += (names.empty() ? "" : ", ") + s.name;
      return c.fail(m.second, "unknown key \"" + key + "\": '" + systemId + "' has no " +
                                  std::string(kind) + " named '" + m.first + "' (known: " +
                                  (names.empty() ? std::string("none") : names) + ")");
    }
    if (!c.expectNumber(m.second, key, kMaxScenarioMagnitude)) return false;
    const double x = m.second.asNumber();
    std::string e = checkValue(specs[*index], x, kind);
    if (!e.empty()) {
      // checkValue says "parameter 'm' = -1 is ..."; name the file's key instead.
      const std::string head = std::string(kind) + " '" + m.first + "' = " + formatNumber(x);
      if (e.rfind(head, 0) == 0) e = "\"" + key + "\" = " + formatNumber(x) + e.substr(head.size());
      return c.fail(m.second, e);
    }
    values[*index] = x;
  }
  return true;
}

/// Checks one scenario-level field by validating the system's default scenario with only that
/// field changed: validateScenario() stays the one place that knows the valid ranges of h,
/// tolerance, t_end and the integrator names.
bool probe(Checker& c, const json::Value& at, const Scenario& defaults, const std::string& key,
           const auto& change) {
  Scenario s = defaults;
  change(s);
  const std::string e = validateScenario(s);
  if (e.empty()) return true;
  return c.fail(at, "\"" + key + "\": " + e);
}

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

}  // namespace

ScenarioResult scenarioFromJson(const json::Value& doc, std::string_view source,
                                const std::filesystem::path& baseDirectory) {
  ScenarioResult r;
  Checker c(source);
  static const char* const kTopKeys[] = {"format", "version",    "system", "parameters", "initial",
                                         "body",   "world", "bodies", "restitution",
                                         "integrator", "t_end"};
  static const char* const kIntegratorKeys[] = {"name", "h", "tolerance"};
  const auto done = [&]() {
    r.error = c.error();
    return r;
  };
  if (!doc.isObject()) {
    c.fail(doc, std::string("a scenario must be a JSON object, not ") + json::typeNameWithArticle(doc.type()));
    return done();
  }
  if (!c.onlyKeys(doc, kTopKeys, "")) return done();

  const json::Value* format = doc.find("format");
  if (!format) {
    c.fail(doc, std::string("missing key \"format\" (must be \"") + std::string(kScenarioFormat) + "\")");
    return done();
  }
  if (!c.expect(*format, json::Type::String, "format")) return done();
  if (format->asString() != kScenarioFormat) {
    c.fail(*format, "\"format\" = " + json::quote(format->asString()) + " is not \"" +
                        kScenarioFormat + "\"");
    return done();
  }
  const json::Value* version = doc.find("version");
  if (!version) {
    c.fail(doc, "missing key \"version\" (must be " + std::to_string(kScenarioVersion) + ")");
    return done();
  }
  if (!c.expect(*version, json::Type::Number, "version")) return done();
  if (version->asNumber() != kScenarioVersion) {
    c.fail(*version, "\"version\" = " + formatNumber(version->asNumber()) +
                         " is not supported (this build reads version " +
                         std::to_string(kScenarioVersion) + ")");
    return done();
  }
  const json::Value* systemId = doc.find("system");
  if (!systemId) {
    c.fail(doc, "missing key \"system\" (a system id, see `ricochet-cli list`)");
    return done();
  }
  if (!c.expect(*systemId, json::Type::String, "system")) return done();
  const SystemDescription* system = findSystem(systemId->asString());
  if (!system) {
    c.fail(*systemId, "\"system\" = " + json::quote(systemId->asString()) +
                          " is not a known system id (try `ricochet-cli list`)");
    return done();
  }
  const SystemInfo& info = system->info();
  const Scenario defaults = defaultScenario(*system);
  Scenario s = defaults;

  if (const json::Value* p = doc.find("parameters")) {
    if (!readValues(c, *p, info.parameters, s.parameters, "parameters", "parameter", info.id)) {
      return done();
    }
  }
  if (const json::Value* p = doc.find("initial")) {
    if (!readValues(c, *p, info.initial, s.initial, "initial", "initial condition", info.id)) {
      return done();
    }
  }
  const json::Value* body = doc.find("body");
  const json::Value* world = doc.find("world");
  const json::Value* bodies = doc.find("bodies");
  const json::Value* restitution = doc.find("restitution");
  // A world of several bodies (its default has a "bodies" list) reads "bodies", "world" and
  // "restitution" instead of "body".
  const bool several = info.defaultBody && !info.defaultBody->bodies.empty();
  if ((bodies || restitution) && !several) {
    c.fail(bodies ? *bodies : *restitution, std::string("\"") + (bodies ? "bodies" : "restitution") +
                                                "\": '" + info.id + "' takes no list of bodies (bodies does)");
    return done();
  }
  if (several && body) {
    c.fail(*body, "\"body\": '" + info.id + "' takes a \"bodies\" list, each entry with its \"body\"");
    return done();
  }
  if (several && (bodies || world || restitution)) {
    auto b = std::make_shared<BodyScenario>(*info.defaultBody);
    if (bodies) b->bodies.clear();
    if (restitution) b->restitution.clear();
    if (bodies || world) {  // a world written out has the ground unless it says "ground": false
      b->world = WorldSpec{};
      b->ground = true;
    }
    if (!readBodies(c, bodies, world, restitution, baseDirectory, *b)) return done();
    s.body = std::move(b);
  } else if (body || world) {
    if (!info.defaultBody) {
      c.fail(body ? *body : *world, std::string("\"") + (body ? "body" : "world") + "\": '" + info.id +
                                        "' takes no body or world (rigid-body does)");
      return done();
    }
    auto b = std::make_shared<BodyScenario>();
    if (!body) b->body = info.defaultBody->body;  // a world around the default body
    if (!readBody(c, body, world, baseDirectory, *b)) return done();
    s.body = std::move(b);
  }
  if (const json::Value* in = doc.find("integrator")) {
    if (!c.expect(*in, json::Type::Object, "integrator")) return done();
    if (!c.onlyKeys(*in, kIntegratorKeys, "integrator")) return done();
    if (const json::Value* name = in->find("name")) {
      if (!c.expect(*name, json::Type::String, "integrator.name")) return done();
      s.integrator.name = name->asString();
      if (!probe(c, *name, defaults, "integrator.name",
                 [&](Scenario& t) { t.integrator.name = name->asString(); })) {
        return done();
      }
    }
    if (const json::Value* h = in->find("h")) {
      if (!c.expectNumber(*h, "integrator.h", kMaxScenarioMagnitude)) return done();
      s.integrator.h = h->asNumber();
      if (!probe(c, *h, defaults, "integrator.h", [&](Scenario& t) { t.integrator.h = h->asNumber(); })) {
        return done();
      }
    }
    if (const json::Value* tol = in->find("tolerance")) {
      if (!c.expectNumber(*tol, "integrator.tolerance", kMaxScenarioMagnitude)) return done();
      s.integrator.tolerance = tol->asNumber();
      if (!probe(c, *tol, defaults, "integrator.tolerance",
                 [&](Scenario& t) { t.integrator.tolerance = tol->asNumber(); })) {
        return done();
      }
    }
  }
  if (const json::Value* tEnd = doc.find("t_end")) {
    if (!c.expectNumber(*tEnd, "t_end", kMaxScenarioMagnitude)) return done();
    s.tEnd = tEnd->asNumber();
    if (!probe(c, *tEnd, defaults, "t_end", [&](Scenario& t) { t.tEnd = tEnd->asNumber(); })) {
      return done();
    }
  }
  // Every field was checked on its own above; this is the backstop for combinations.
  const std::string e = validateScenario(s);
  if (!e.empty()) {
    c.fail(doc, e);
    return done();
  }
  r.scenario = std::move(s);
  return r;
}

ScenarioResult parseScenario(std::string_view text, std::string_view source,
                             const std::filesystem::path& baseDirectory) {
  json::ParseResult p = json::parse(text);
  if (!p.ok()) {
    ScenarioResult r;
    r.error = std::string(source) + ": " + p.error;
    return r;
  }
  return scenarioFromJson(*p.value, source, baseDirectory);
}

ScenarioResult loadScenario(const std::filesystem::path& path) {
  std::string text;
  std::string error = json::readTextFile(path, text);
  if (!error.empty()) {
    ScenarioResult r;
    r.error = std::move(error);
    return r;
  }
  return parseScenario(text, path.string(), path.parent_path());
}

ScenarioResult scenarioFromTarget(const std::string& target) {
  if (const SystemDescription* system = findSystem(target)) {
    ScenarioResult r;
    r.scenario = defaultScenario(*system);
    return r;
  }
  std::error_code ec;
  const bool looksLikeFile = target.size() > 5 && target.substr(target.size() - 5) == ".json";
  if (!looksLikeFile && !std::filesystem::exists(target, ec)) {
    ScenarioResult r;
    r.error = "unknown system '" + target + "' (try `ricochet-cli list`)";
    return r;
  }
  return loadScenario(target);
}

json::Value scenarioToJson(const Scenario& scenario, const std::filesystem::path& baseDirectory) {
  json::Value doc = json::Value::object();
  doc.add("format", json::Value::string(kScenarioFormat));
  doc.add("version", json::Value::integer(kScenarioVersion));
  doc.add("system", json::Value::string(scenario.system));
  const SystemDescription* system = findSystem(scenario.system);
  const auto values = [](const std::vector<ParameterSpec>* specs, const std::vector<double>& v) {
    json::Value o = json::Value::object();
    for (std::size_t i = 0; i < v.size(); ++i) {
      // Without the registry entry (never for a validated scenario) fall back to positions.
      const std::string name = specs && i < specs->size() ? (*specs)[i].name : std::string("#") + std::to_string(i);
      o.add(name, json::Value::number(v[i]));
    }
    return o;
  };
  doc.add("parameters", values(system ? &system->info().parameters : nullptr, scenario.parameters));
  doc.add("initial", values(system ? &system->info().initial : nullptr, scenario.initial));
  if (scenario.body && !scenario.body->bodies.empty()) {
    doc.add("world", worldToJson(scenario.body->world, scenario.body->ground));
    doc.add("bodies", bodiesToJson(*scenario.body, baseDirectory));
    if (!scenario.body->restitution.empty()) doc.add("restitution", restitutionToJson(scenario.body->restitution));
  } else if (scenario.body) {
    doc.add("body", bodyToJson(*scenario.body, baseDirectory));
    if (!scenario.body->world.empty()) doc.add("world", worldToJson(scenario.body->world));
  }
  json::Value in = json::Value::object();
  in.add("name", json::Value::string(scenario.integrator.name));
  in.add("h", json::Value::number(scenario.integrator.h));
  in.add("tolerance", json::Value::number(scenario.integrator.tolerance));
  doc.add("integrator", std::move(in));
  doc.add("t_end", json::Value::number(scenario.tEnd));
  return doc;
}

std::string scenarioToText(const Scenario& scenario, const std::filesystem::path& baseDirectory) {
  return json::write(scenarioToJson(scenario, baseDirectory), 2);
}

std::string saveScenario(const std::filesystem::path& path, const Scenario& scenario) {
  const std::string e = validateScenario(scenario);
  if (!e.empty()) return path.string() + ": not saved: " + e;
  std::filesystem::path folder = path.parent_path();
  if (folder.empty()) folder = ".";
  return writeFileAtomically(path, scenarioToText(scenario, folder));
}

namespace {

/// `--set NAME.FIELD=VALUE` for a world of several bodies: the body's mass and the components of
/// its initial position, velocity, rotation vector, and angular momentum or angular velocity.
std::string setBodyValue(Scenario& scenario, std::string_view name, std::string_view field, double value) {
  // Messages are built by appending: GCC 12 misreports `"'" + std::string` as overlapping copies.
  const auto say = [](std::initializer_list<std::string_view> parts) {
    std::string out;
    for (std::string_view p : parts) out += p;
    return out;
  };
  auto copy = std::make_shared<BodyScenario>(*scenario.body);
  BodyEntry* e = nullptr;
  std::string known;
  for (std::size_t i = 0; i < copy->bodies.size(); ++i) {
    BodyEntry& b = copy->bodies[i];
    std::string n = b.name;
    if (n.empty()) n = say({"b", std::to_string(i)});
    if (n == name) e = &b;
    if (i < 8) {
      if (!known.empty()) known += ", ";
      known += n;
    }
  }
  if (!e) {
    return say({"no body named '", name, "' (bodies: ", known, copy->bodies.size() > 8 ? ", ..." : "", ")"});
  }
  static constexpr const char* kFields[] = {"m",   "x0",  "y0",  "z0",    "vx0",   "vy0",
                                            "vz0", "rx0", "ry0", "rz0",   "Pi1_0", "Pi2_0",
                                            "Pi3_0", "wx0", "wy0", "wz0"};
  int k = -1;
  for (int i = 0; i < int(std::size(kFields)); ++i) {
    if (field == kFields[i]) k = i;
  }
  if (k < 0) {
    std::string list;
    for (const char* f : kFields) {
      if (!list.empty()) list += ", ";
      list += f;
    }
    return say({"unknown field '", field, "' of body '", name, "' (known: ", list, ")"});
  }
  const std::string key = say({name, ".", field});
  const std::string shown = formatNumber(value);
  if (!std::isfinite(value)) return say({"'", key, "' = ", shown, " must be finite"});
  if (k == 0) {
    if (!(value > 0.0)) return say({"'", key, "' = ", shown, " must be > 0 kg"});
    e->mass = value;
    e->density.reset();
  } else if (k <= 3) {
    e->position[k - 1] = value;
  } else if (k <= 6) {
    e->velocity[k - 4] = value;
  } else if (k <= 9) {
    e->rotation[k - 7] = value;
  } else if (k <= 12) {
    if (e->angularVelocity) {
      return say({"'", key, "': body '", name, "' gives its angular velocity: set wx0, wy0, wz0 instead"});
    }
    e->angularMomentum[k - 10] = value;
  } else {
    if (!e->angularVelocity) {
      if (e->angularMomentum != Eigen::Vector3d::Zero()) {
        return say({"'", key, "': body '", name, "' gives its angular momentum: set Pi1_0, Pi2_0, Pi3_0 instead"});
      }
      e->angularVelocity = Eigen::Vector3d::Zero();
    }
    (*e->angularVelocity)[k - 13] = value;
  }
  scenario.body = std::move(copy);
  return {};
}

}  // namespace

std::string setScenarioValue(Scenario& scenario, std::string_view name, double value) {
  const SystemDescription* system = findSystem(scenario.system);
  if (!system) return "unknown system '" + scenario.system + "' (try `ricochet-cli list`)";
  const SystemInfo& info = system->info();
  if (std::isfinite(value) && std::fabs(value) > kMaxScenarioMagnitude) {
    return std::string("'") + std::string(name) + "' = " + formatNumber(value) + " is too large: |value| must be <= " +
           formatNumber(kMaxScenarioMagnitude);
  }
  std::string_view bare = name;
  bool onlyParameters = false, onlyInitial = false;
  if (bare.rfind("parameters.", 0) == 0) {
    bare.remove_prefix(11);
    onlyParameters = true;
  } else if (bare.rfind("initial.", 0) == 0) {
    bare.remove_prefix(8);
    onlyInitial = true;
  }
  const auto p = onlyInitial ? std::nullopt : indexOf(info.parameters, bare);
  const auto q = onlyParameters ? std::nullopt : indexOf(info.initial, bare);
  if (p && q) {
    return std::string("'") + std::string(bare) + "' is both a parameter and an initial condition of " + info.id +
           std::string(": write parameters.") + std::string(bare) + std::string(" or initial.") + std::string(bare);
  }
  if (p) {
    scenario.parameters.at(*p) = value;
    return {};
  }
  if (q) {
    scenario.initial.at(*q) = value;
    return {};
  }
  // NAME.FIELD: one number of one body of a world of several bodies.
  if (const std::size_t dot = bare.find('.');
      dot != std::string_view::npos && !onlyParameters && !onlyInitial && scenario.body &&
      !scenario.body->bodies.empty()) {
    return setBodyValue(scenario, bare.substr(0, dot), bare.substr(dot + 1), value);
  }
  std::string names;
  for (const ParameterSpec& s : info.parameters) names += (names.empty() ? "" : ", ") + s.name;
  for (const ParameterSpec& s : info.initial) names += (names.empty() ? "" : ", ") + s.name;
  return std::string("unknown parameter '") + std::string(name) + "' for " + info.id + " (known: " +
         (names.empty() ? std::string("none") : names) + ")";
}

bool sameScenario(const Scenario& a, const Scenario& b) {
  const auto same = [](const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (bits(x[i]) != bits(y[i])) return false;
    }
    return true;
  };
  return a.system == b.system && same(a.parameters, b.parameters) && same(a.initial, b.initial) &&
         a.integrator.name == b.integrator.name && bits(a.integrator.h) == bits(b.integrator.h) &&
         bits(a.integrator.tolerance) == bits(b.integrator.tolerance) && bits(a.tEnd) == bits(b.tEnd) &&
         sameBody(a.body, b.body);
}

}  // namespace ricochet::io
