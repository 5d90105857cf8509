#include "app/cli/cli_commands.hpp"

#include "app/cli/body_option.hpp"
#include "app/cli/cli_args.hpp"
#include "app/cli/interrupt.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/describe.hpp"
#include "core/io/json.hpp"
#include "core/io/scenario_io.hpp"
#include "core/io/trace.hpp"
#include "core/model/registry.hpp"
#include "io/hdf5/run_file_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string_view>

namespace ricochet::cli {

int badInput(const std::string& message) {
  std::fprintf(stderr, "ricochet-cli: %s\n", message.c_str());
  return kExitBadInput;
}

void print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

void printReport(const ParsedArgs& a, std::initializer_list<const char*> outputOptions,
                 const std::string& text) {
  bool toStderr = false;
  for (const char* option : outputOptions) {
    if (const auto path = a.value(option); path && io::isStandardOutput(*path)) toStderr = true;
  }
  std::FILE* to = toStderr ? stderr : stdout;
  std::fwrite(text.data(), 1, text.size(), to);
  std::fflush(to);
}

namespace {

/// Display width of UTF-8 text (code points; every unit we use is one column wide).
std::size_t displayWidth(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string pad(const std::string& s, std::size_t width) {
  const std::size_t w = displayWidth(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

const SystemDescription* requireSystem(const std::string& id, std::string& error) {
  const SystemDescription* s = findSystem(id);
  if (!s) error = "unknown system '" + id + "' (try `ricochet-cli list`)";
  return s;
}

std::string specTable(const std::vector<ParameterSpec>& specs) {
  if (specs.empty()) return "  (none)\n";
  const std::vector<std::string> head = {"name", "unit", "default", "range", "help"};
  std::vector<std::vector<std::string>> rows;
  for (const ParameterSpec& p : specs) {
    rows.push_back({p.name, p.unit.empty() ? "-" : p.unit, formatNumber(p.defaultValue), rangeText(p), p.help});
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    width[c] = displayWidth(head[c]);
    for (const auto& r : rows) width[c] = std::max(width[c], displayWidth(r[c]));
  }
  std::string out;
  const auto line = [&](const std::vector<std::string>& r) {
    std::string l = " ";
    for (std::size_t c = 0; c < r.size(); ++c) {
      l += ' ';
      l += c + 1 < r.size() ? pad(r[c], width[c]) + " " : r[c];
    }
    out += l + "\n";
  };
  line(head);
  for (const auto& r : rows) line(r);
  return out;
}

std::string describeText(const SystemInfo& info) {
  std::string out = info.id + ": " + info.title + " (" + info.source + ")\n";
  if (!info.summary.empty()) out += info.summary + "\n";
  out += "\nParameters:\n" + specTable(info.parameters);
  out += "\nInitial conditions:\n" + specTable(info.initial);
  out += "\nIntegrators:\n";
  for (std::size_t i = 0; i < info.integrators.size(); ++i) {
    const IntegratorInfo& in = info.integrators[i];
    out += "  " + in.name + (i == 0 ? " (default)" : "") + ": " + in.title;
    if (!in.help.empty()) out += ". " + in.help;
    out += "\n";
  }
  out += "\nConstraints (gaps g_j >= 0):";
  for (const std::string& c : info.constraints) out += " " + c;
  out += "\n\nDefaults: h = " + formatNumber(info.defaultH) + " s, t_end = " +
         formatNumber(info.defaultTEnd) + " s, tolerance = " + formatNumber(info.defaultTolerance) + "\n";
  return out;
}

}  // namespace

std::string scenarioFromArgs(const ParsedArgs& a, const std::string& command, Scenario& scenario) {
  if (a.positionals.size() != 1) {
    return a.positionals.empty() ? "'" + command + "' needs a SYSTEM id or a SCENARIO.json file"
                                 : "'" + command + "' takes one SYSTEM or SCENARIO.json, got '" +
                                       a.positionals[1] + "' as well";
  }
  // 1. The starting scenario: a system's defaults or a scenario file.
  io::ScenarioResult start = io::scenarioFromTarget(a.positionals.front());
  if (!start.ok()) return start.error;
  scenario = std::move(*start.scenario);

  if (std::string e = applyBodyOption(a, scenario); !e.empty()) return e;

  // 2. Overrides, each checked where its value is known.
  const auto number = [&](const char* option, double& into) -> std::string {
    const auto text = a.value(option);
    if (!text) return {};
    const auto x = parseNumber(*text);
    if (!x) return std::string(option) + " '" + *text + "' is not a number (or out of the range of a double)";
    into = *x;
    return {};
  };
  if (auto v = a.value("--integrator")) scenario.integrator.name = *v;
  for (const std::string& set : a.values("--set")) {
    const auto eq = set.find('=');
    if (eq == std::string::npos || eq == 0) return "--set '" + set + "': expected NAME=VALUE";
    const std::string name = set.substr(0, eq);
    const std::string text = set.substr(eq + 1);
    const auto x = parseNumber(text);
    if (!x) return "--set " + set + ": '" + text + "' is not a number (or out of the range of a double)";
    if (std::string e = io::setScenarioValue(scenario, name, *x); !e.empty()) return e;
  }
  if (std::string e = number("--h", scenario.integrator.h); !e.empty()) return e;
  if (std::string e = number("--tolerance", scenario.integrator.tolerance); !e.empty()) return e;
  if (std::string e = number("--t-end", scenario.tEnd); !e.empty()) return e;
  return {};
}

int listCommand(const std::vector<std::string>& args) {
  const ParsedArgs a = parseArgs(args, {{"--help", false, false}}, "list");
  if (!a.error.empty()) return badInput(a.error);
  if (a.has("--help")) {
    print("ricochet-cli list\n    one line per system: id<TAB>title<TAB>source\n");
    return kExitOk;
  }
  if (!a.positionals.empty()) return badInput("'list' takes no argument (got '" + a.positionals.front() + "')");
  std::string out;
  for (const SystemDescription* s : systems()) {
    out += s->info().id + "\t" + s->info().title + "\t" + s->info().source + "\n";
  }
  print(out);
  return kExitOk;
}

int describeCommand(const std::vector<std::string>& args) {
  const ParsedArgs a = parseArgs(args, {{"--json", false, false}, {"--help", false, false}}, "describe");
  if (!a.error.empty()) return badInput(a.error);
  if (a.has("--help")) {
    print("ricochet-cli describe SYSTEM [--json]\n");
    return kExitOk;
  }
  if (a.positionals.size() != 1) return badInput("'describe' needs exactly one SYSTEM id (see `ricochet-cli list`)");
  std::string error;
  const SystemDescription* system = requireSystem(a.positionals.front(), error);
  if (!system) return badInput(error);
  print(a.has("--json") ? json::write(io::describeToJson(system->info()), 2) : describeText(system->info()));
  return kExitOk;
}

int runCommand(const std::vector<std::string>& args) {
  const ParsedArgs a = parseArgs(args,
                                 {{"--set", true, true},
                                  {"--h", true, false},
                                  {"--t-end", true, false},
                                  {"--steps", true, false},
                                  {"--integrator", true, false},
                                  {"--tolerance", true, false},
                                  {"--csv", true, false},
                                  {"--every", true, false},
                                  {"--impacts-csv", true, false},
                                  {"--summary-json", true, false},
                                  {"--body", true, false},
                                  {"--h5", true, false},
                                  {"--pvd", true, false},
                                  {"--help", false, false}},
                                 "run");
  if (!a.error.empty()) return badInput(a.error);
  if (a.has("--help")) {
    print("ricochet-cli run SYSTEM|SCENARIO.json [--set NAME=VALUE]... [--h H] [--t-end T | --steps N]\n"
          "    [--integrator NAME] [--tolerance TOL] [--csv FILE] [--every K] [--impacts-csv FILE]\n"
          "    [--summary-json FILE] [--h5 FILE.h5] [--pvd DIR] [--body MESH]\n");
    return kExitOk;
  }
  // 1-2. The starting scenario (a system's defaults or a scenario file) and the overrides.
  Scenario scenario;
  if (std::string e = scenarioFromArgs(a, "run", scenario); !e.empty()) return badInput(e);
  if (a.has("--t-end") && a.has("--steps")) return badInput("give either --t-end or --steps, not both");

  io::RunOptions options;
  if (auto v = a.value("--steps")) {
    const auto n = parseInteger(*v);
    if (!n || *n < 1) return badInput("--steps '" + *v + "' is invalid: must be an integer >= 1");
    options.steps = *n;
  }
  if (auto v = a.value("--every")) {
    const auto k = parseInteger(*v);
    if (!k || *k < 1) return badInput("--every '" + *v + "' is invalid: must be an integer >= 1");
    options.every = *k;
  }
  if (auto v = a.value("--csv")) options.traceCsv = *v;
  if (auto v = a.value("--impacts-csv")) options.impactsCsv = *v;
  if (std::string e = io::checkRunOptions(options); !e.empty()) return badInput(e);
  {  // Two outputs renamed onto one path (or mixed on stdout) would keep only one of them whole.
    std::vector<std::pair<const char*, std::filesystem::path>> outputs;
    for (const char* o : {"--csv", "--impacts-csv", "--summary-json", "--h5", "--pvd"}) {
      if (auto v = a.value(o)) outputs.emplace_back(o, std::filesystem::path(*v));
    }
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      for (std::size_t j = i + 1; j < outputs.size(); ++j) {
        if (io::sameOutput(outputs[i].second, outputs[j].second)) {
          return badInput(std::string(outputs[i].first) + " and " + outputs[j].first +
                          " name the same file '" + outputs[i].second.lexically_normal().string() +
                          "'");
        }
      }
    }
  }

  // 3. The checked simulation: generic checks, then the system's own (admissible set ...).
  if (std::string e = validateScenario(scenario); !e.empty()) return badInput(e);
  if (options.steps < 0 && io::stepCount(scenario.tEnd, scenario.integrator.h) < 0) {
    return badInput("t_end = " + formatNumber(scenario.tEnd) + " s with h = " +
                    formatNumber(scenario.integrator.h) + " s needs more than " +
                    std::to_string(io::kMaxRunSteps) + " steps");
  }
  CreateResult created = createSimulation(scenario);
  if (!created.simulation) return badInput(created.error);
  printMeshNotes(scenario);

  // The summary file, the HDF5 file and the ParaView series are opened before the run, so an
  // unwritable path fails in a second, not after an hour of integration. They are written from the
  // driver's own rows (RecordSink), the very rows of --csv and --impacts-csv.
  io::AtomicFile summaryFile;
  const auto summaryPath = a.value("--summary-json");
  if (summaryPath) {
    if (std::string e = summaryFile.open(*summaryPath); !e.empty()) return badInput(e);
  }
  hdf5::RunFileWriter h5;
  if (const auto path = a.value("--h5")) {
    const std::string e = h5.open(*path, scenario, created.simulation->columns(), options.every);
    if (!e.empty()) return badInput(e);
    options.sinks.push_back(&h5);
  }
  std::unique_ptr<io::RecordSink> series;
  if (const auto folder = a.value("--pvd")) {
    std::string e;
    series = openParaViewSeries(*folder, scenario, e);
    if (!series) return badInput(e);
    options.sinks.push_back(series.get());
  }

  // SIGINT and SIGTERM stop the run between steps; the driver removes its temporary files (a
  // --pvd series' folder included). A few hundred steps keep the answer prompt when every step
  // writes a frame.
  options.progress = [](std::int64_t, std::int64_t) { return !interrupted(); };
  options.progressInterval = 256;

  const io::RunSummary summary = io::runSimulation(*created.simulation, scenario, options);

  if (summary.outcome == io::RunOutcome::Cancelled) {
    summaryFile.discard();
    return interruptedExit(summary.message + "; no file written");
  }
  if (summary.outcome == io::RunOutcome::OutputError || summary.outcome == io::RunOutcome::InvalidOptions) {
    summaryFile.discard();
    return badInput(summary.message);
  }
  printReport(a, {"--csv", "--impacts-csv", "--summary-json", "--h5"},
              io::summaryLine(summary) + "\n");
  if (summaryPath) {
    std::string e = summaryFile.write(json::write(io::summaryToJson(summary), 2));
    if (e.empty()) e = summaryFile.commit();
    if (!e.empty()) return badInput(e);
  }
  if (summary.outcome == io::RunOutcome::IntegratorFailed) {
    std::fprintf(stderr, "ricochet-cli: %s\n", summary.message.c_str());
    return kExitIntegratorFailed;
  }
  return kExitOk;
}

int scenarioCommand(const std::vector<std::string>& args) {
  const ParsedArgs a = parseArgs(args,
                                 {{"--set", true, true},
                                  {"--h", true, false},
                                  {"--t-end", true, false},
                                  {"--integrator", true, false},
                                  {"--tolerance", true, false},
                                  {"--out", true, false},
                                  {"--body", true, false},
                                  {"--help", false, false}},
                                 "scenario");
  if (!a.error.empty()) return badInput(a.error);
  if (a.has("--help")) {
    print("ricochet-cli scenario SYSTEM|SCENARIO.json [--set NAME=VALUE]... [--h H] [--t-end T]\n"
          "    [--integrator NAME] [--tolerance TOL] [--out FILE.json] [--body MESH]\n");
    return kExitOk;
  }
  Scenario scenario;
  if (std::string e = scenarioFromArgs(a, "scenario", scenario); !e.empty()) return badInput(e);
  // Only scenarios that run are written: generic checks, then the system's own (admissible set).
  if (std::string e = validateScenario(scenario); !e.empty()) return badInput(e);
  if (CreateResult created = createSimulation(scenario); !created.simulation) return badInput(created.error);
  if (const auto out = a.value("--out")) {
    if (std::string e = io::saveScenario(*out, scenario); !e.empty()) return badInput(e);
    return kExitOk;
  }
  print(io::scenarioToText(scenario, "."));
  return kExitOk;
}

}  // namespace ricochet::cli
