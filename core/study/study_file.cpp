#include "core/study/study_file.hpp"

#include "core/io/scenario_io.hpp"

#include "core/io/json_checker.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"

#include <cmath>

namespace ricochet::study {

namespace {

using Checker = io::JsonChecker;

constexpr const char* kKinds[] = {"values", "linspace", "logspace", "uniform", "normal", "perturb"};

bool readAxis(Checker& c, const json::Value& entry, std::size_t i, AxisSpec& axis) {
  const std::string k = "vary[" + std::to_string(i) + "]";
  if (!c.expect(entry, json::Type::Object, k)) return false;
  static const char* const kAxisKeys[] = {"name", "values", "linspace", "logspace", "uniform", "normal", "perturb", "samples"};
  if (!c.onlyKeys(entry, kAxisKeys, k)) return false;
  const json::Value* name = entry.find("name");
  if (!name) return c.fail(entry, "\"" + k + "\" has no \"name\" (a --set name, h, tolerance, t_end or integrator)");
  if (!c.expect(*name, json::Type::String, k + ".name")) return false;
  axis.name = name->asString();
  const json::Value* given = nullptr;
  for (std::size_t kind = 0; kind < std::size(kKinds); ++kind) {
    const json::Value* v = entry.find(kKinds[kind]);
    if (!v) continue;
    if (given) {
      return c.fail(*v, "\"" + k + "\" gives both \"" + toString(axis.kind) + "\" and \"" + kKinds[kind] +
                            "\": one way of giving values per axis");
    }
    given = v;
    axis.kind = static_cast<AxisKind>(kind);
  }
  if (!given) {
    return c.fail(entry, "\"" + k + "\" (\"" + axis.name +
                             "\") needs one of values, linspace, logspace, uniform, normal, perturb");
  }
  const std::string vk = k + "." + toString(axis.kind);
  if (!c.expect(*given, json::Type::Array, vk)) return false;
  const json::Array& items = given->asArray();
  const bool ranged = axis.kind == AxisKind::Linspace || axis.kind == AxisKind::Logspace;
  for (std::size_t j = 0; j < items.size(); ++j) {
    const std::string ik = vk + "[" + std::to_string(j) + "]";
    if (axis.kind == AxisKind::Values && axis.name == "integrator") {
      if (!c.expect(items[j], json::Type::String, ik)) return false;
      axis.names.push_back(items[j].asString());
      continue;
    }
    if (ranged && j == 2) {
      if (!c.expectInteger(items[j], ik + " (count)", 0, 1e15)) return false;
      axis.count = static_cast<std::int64_t>(items[j].asNumber());
      continue;
    }
    if (!c.expectNumber(items[j], ik)) return false;
    axis.numbers.push_back(items[j].asNumber());
  }
  if (ranged && items.size() != 3) return c.fail(*given, "\"" + vk + "\" must be [from, to, count]");
  const json::Value* samples = entry.find("samples");
  if (isRandom(axis.kind)) {
    if (!samples) return c.fail(entry, "\"" + k + "\" (" + toString(axis.kind) + ") needs \"samples\"");
    if (!c.expectInteger(*samples, k + ".samples", 0, 1e15)) return false;
    axis.count = static_cast<std::int64_t>(samples->asNumber());
  } else if (samples) {
    return c.fail(*samples, "\"" + k + ".samples\" only goes with uniform, normal or perturb");
  }
  return true;
}

}  // namespace

StudyResult studyFromJson(const json::Value& doc, std::string_view source, const std::filesystem::path& baseDir) {
  StudyResult r;
  Checker c(source);
  const auto done = [&]() {
    r.error = c.error();
    return r;
  };
  if (!doc.isObject()) {
    c.fail(doc, std::string("a study must be a JSON object, not ") + json::typeNameWithArticle(doc.type()));
    return done();
  }
  static const char* const kTopKeys[] = {"format", "version", "scenario", "vary", "combine", "seed", "steps", "t_end"};
  if (!c.onlyKeys(doc, kTopKeys, "")) return done();
  const json::Value* format = doc.find("format");
  if (!format) {
    c.fail(doc, std::string("missing key \"format\" (must be \"") + kStudyFormat + "\")");
    return done();
  }
  if (!c.expect(*format, json::Type::String, "format")) return done();
  if (format->asString() != kStudyFormat) {
    c.fail(*format, "\"format\" = " + json::quote(format->asString()) + " is not \"" + kStudyFormat + "\"");
    return done();
  }
  const json::Value* version = doc.find("version");
  if (!version) {
    c.fail(doc, "missing key \"version\" (must be " + std::to_string(kStudyVersion) + ")");
    return done();
  }
  if (!c.expect(*version, json::Type::Number, "version")) return done();
  if (version->asNumber() != kStudyVersion) {
    c.fail(*version, "\"version\" = " + formatNumber(version->asNumber()) + " is not supported (this build reads version " +
                         std::to_string(kStudyVersion) + ")");
    return done();
  }

  Study study;
  study.source = std::string(source);
  const json::Value* scenario = doc.find("scenario");
  if (!scenario) {
    c.fail(doc, "missing key \"scenario\" (a scenario object or the path of a scenario file)");
    return done();
  }
  if (scenario->isString()) {
    const std::filesystem::path path = baseDir / scenario->asString();
    io::ScenarioResult loaded = io::loadScenario(path);
    if (!loaded.ok()) {
      c.fail(*scenario, "\"scenario\": " + loaded.error);
      return done();
    }
    study.base = std::move(*loaded.scenario);
  } else if (scenario->isObject()) {
    json::Value full = json::Value::object();  // the scenario file's required keys, when left out
    if (!scenario->find("format")) full.add("format", json::Value::string(io::kScenarioFormat));
    if (!scenario->find("version")) full.add("version", json::Value::number(io::kScenarioVersion));
    for (const json::Member& m : scenario->asObject()) full.add(m.first, m.second);
    full.setPosition(scenario->line(), scenario->column());
    io::ScenarioResult parsed = io::scenarioFromJson(full, "\"scenario\"");
    if (!parsed.ok()) {
      c.fail(json::Value(), parsed.error);  // already carries the position inside the scenario
      return done();
    }
    study.base = std::move(*parsed.scenario);
  } else {
    c.fail(*scenario, std::string("\"scenario\" must be an object or a file path, not ") +
                          json::typeNameWithArticle(scenario->type()));
    return done();
  }

  if (const json::Value* vary = doc.find("vary")) {
    if (!c.expect(*vary, json::Type::Array, "vary")) return done();
    for (std::size_t i = 0; i < vary->asArray().size(); ++i) {
      AxisSpec axis;
      if (!readAxis(c, vary->asArray()[i], i, axis)) return done();
      study.vary.push_back(std::move(axis));
    }
  }
  if (const json::Value* combine = doc.find("combine")) {
    if (!c.expect(*combine, json::Type::String, "combine")) return done();
    if (combine->asString() == "grid") {
      study.combine = Combine::Grid;
    } else if (combine->asString() == "zip") {
      study.combine = Combine::Zip;
    } else {
      c.fail(*combine, "\"combine\" = " + json::quote(combine->asString()) + " must be \"grid\" or \"zip\"");
      return done();
    }
  }
  if (const json::Value* seed = doc.find("seed")) {
    if (!c.expectInteger(*seed, "seed", 0, 9007199254740992.0)) return done();
    study.seed = static_cast<std::uint64_t>(seed->asNumber());
  }
  const json::Value* steps = doc.find("steps");
  const json::Value* tEnd = doc.find("t_end");
  if (steps && tEnd) {
    c.fail(*tEnd, "give \"steps\" or \"t_end\", not both");
    return done();
  }
  if (steps) {
    if (!c.expectInteger(*steps, "steps", 1, static_cast<double>(io::kMaxRunSteps))) return done();
    study.steps = static_cast<std::int64_t>(steps->asNumber());
  }
  if (tEnd) {
    if (!c.expectNumber(*tEnd, "t_end")) return done();
    Scenario probe = study.base;
    probe.tEnd = tEnd->asNumber();
    if (std::string e = validateScenario(probe); !e.empty()) {
      c.fail(*tEnd, "\"t_end\": " + e);
      return done();
    }
    study.base.tEnd = probe.tEnd;
  }
  r.study = std::move(study);
  return r;
}

StudyResult parseStudy(std::string_view text, std::string_view source, const std::filesystem::path& baseDir) {
  json::ParseResult p = json::parse(text);
  if (!p.ok()) {
    StudyResult r;
    r.error = std::string(source) + ": " + p.error;
    return r;
  }
  return studyFromJson(*p.value, source, baseDir);
}

StudyResult loadStudy(const std::filesystem::path& path) {
  std::string text;
  if (std::string e = json::readTextFile(path, text); !e.empty()) {
    StudyResult r;
    r.error = std::move(e);
    return r;
  }
  return parseStudy(text, path.string(), path.parent_path());
}

PlanResult loadPlan(const std::filesystem::path& path) {
  StudyResult loaded = loadStudy(path);
  if (!loaded.ok()) {
    PlanResult r;
    r.error = loaded.error;
    return r;
  }
  return planStudy(std::move(*loaded.study));
}

json::Value studyToJson(const Study& study) {
  json::Value doc = json::Value::object();
  doc.add("format", json::Value::string(kStudyFormat));
  doc.add("version", json::Value::number(kStudyVersion));
  doc.add("scenario", io::scenarioToJson(study.base));
  json::Value vary = json::Value::array();
  for (const AxisSpec& a : study.vary) {
    json::Value entry = json::Value::object();
    entry.add("name", json::Value::string(a.name));
    json::Value values = json::Value::array();
    for (const std::string& n : a.names) values.push(json::Value::string(n));
    for (double x : a.numbers) values.push(json::Value::number(x));
    if (a.kind == AxisKind::Linspace || a.kind == AxisKind::Logspace) {
      values.push(json::Value::number(static_cast<double>(a.count)));
    }
    entry.add(toString(a.kind), std::move(values));
    if (isRandom(a.kind)) entry.add("samples", json::Value::number(static_cast<double>(a.count)));
    vary.push(std::move(entry));
  }
  doc.add("vary", std::move(vary));
  doc.add("combine", json::Value::string(study.combine == Combine::Zip ? "zip" : "grid"));
  doc.add("seed", json::Value::number(static_cast<double>(study.seed)));
  if (study.steps > 0) doc.add("steps", json::Value::number(static_cast<double>(study.steps)));
  return doc;
}

}  // namespace ricochet::study
