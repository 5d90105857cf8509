// ricochet-cli convergence | sensitivity | compare: the built-in studies of core/study, one
// command each. Each prints its table on stdout and, with --out, writes its CSV atomically.

#include "app/cli/cli_commands.hpp"
#include "app/cli/interrupt.hpp"
#include "app/cli/study_support.hpp"

#include "core/io/atomic_file.hpp"
#include "core/model/registry.hpp"
#include "core/study/compare.hpp"
#include "core/study/convergence.hpp"
#include "core/study/sensitivity.hpp"

#include <cstdio>

namespace ricochet::cli {

namespace {

/// The options every built-in study takes: the scenario's (as for `run`), jobs, quiet, output.
std::vector<OptionSpec> withCommonOptions(std::vector<OptionSpec> specs) {
  for (OptionSpec s : std::initializer_list<OptionSpec>{{"--set", true, true},
                                                        {"--integrator", true, false},
                                                        {"--tolerance", true, false},
                                                        {"--out", true, false},
                                                        {"--jobs", true, false},
                                                        {"--quiet", false, false},
                                                        {"--help", false, false}}) {
    specs.push_back(s);
  }
  return specs;
}

/// The checked base scenario (a system's defaults or a file, with the overrides).
std::string baseScenario(const ParsedArgs& a, const std::string& command, Scenario& scenario) {
  if (std::string e = scenarioFromArgs(a, command, scenario); !e.empty()) return e;
  if (std::string e = validateScenario(scenario); !e.empty()) return e;
  CreateResult created = createSimulation(scenario);
  return created.simulation ? std::string() : created.error;
}

/// Opens --out (before anything runs, so a bad path fails at once).
std::string openOut(const ParsedArgs& a, io::AtomicFile& file) {
  const auto out = a.value("--out");
  return out ? file.open(*out) : std::string();
}

std::string commitOut(io::AtomicFile& file, const std::string& csv) {
  if (!file.isOpen()) return {};
  std::string e = file.write(csv);
  if (e.empty()) e = file.commit();
  return e;
}

std::optional<std::vector<std::string>> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (items.back().empty()) return std::nullopt;
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

std::string integerOption(const ParsedArgs& a, const char* name, int& into) {
  if (const auto v = a.value(name)) {
    const auto n = parseInteger(*v);
    if (!n || *n < -1000000000 || *n > 1000000000) return std::string(name) + " '" + *v + "' is not an integer";
    into = static_cast<int>(*n);
  }
  return {};
}

std::string numberOption(const ParsedArgs& a, const char* name, double& into) {
  if (const auto v = a.value(name)) {
    const auto x = parseNumber(*v);
    if (!x) return std::string(name) + " '" + *v + "' is not a number";
    into = *x;
  }
  return {};
}

}  // namespace

int convergenceCommand(const std::vector<std::string>& args) {
  const ParsedArgs a = parseArgs(args,
                                 withCommonOptions({{"--at", true, false},
                                                    {"--levels", true, false},
                                                    {"--h0", true, false},
                                                    {"--h", true, false},
                                                    {"--ref-levels", true, false}}),
                                 "convergence");
  if (!a.error.empty()) return badInput(a.error);
  if (a.has("--help")) {
    print("ricochet-cli convergence SYSTEM|SCENARIO.json --at T [--levels L] [--h0 H] [--ref-levels R] [--set ...]\n"
          "    [--integrator NAME] [--tolerance TOL] [--out FILE.csv] [--jobs N] [--quiet]\n");
    return kExitOk;
  }
  study::ConvergenceSpec spec;
  if (std::string e = baseScenario(a, "convergence", spec.base); !e.empty()) return badInput(e);
  if (!a.has("--at")) return badInput("'convergence' needs --at T (a time after the impacts of interest, s)");
  for (const std::string& e : {numberOption(a, "--at", spec.at), numberOption(a, "--h0", spec.h0),
                               integerOption(a, "--levels", spec.levels), integerOption(a, "--ref-levels", spec.refLevels)}) {
    if (!e.empty()) return badInput(e);
  }
  if (a.has("--h0") && !(spec.h0 > 0.0)) return badInput("--h0 " + formatNumber(spec.h0) + " is invalid: must be > 0 s");
  StudyRunSettings settings;
  if (std::string e = parseStudyRunSettings(a, settings); !e.empty()) return badInput(e);
  io::AtomicFile out;
  if (std::string e = openOut(a, out); !e.empty()) return badInput(e);
  const study::ConvergenceResult r = study::runConvergence(spec, settings.jobs, interruptFlag(),
                                                           settings.runnerOptions().onProgress);
  if (!r.error.empty()) return badInput(r.error);
  if (r.cancelled) return interruptedExit("convergence stopped; no file written");
  if (std::string e = commitOut(out, study::convergenceCsv(r)); !e.empty()) return badInput(e);
  printReport(a, {"--out"}, study::convergenceReport(r));
  return kExitOk;
}

int sensitivityCommand(const std::vector<std::string>& args) {
  const ParsedArgs a = parseArgs(args,
                                 withCommonOptions({{"--perturb", true, true},
                                                    {"--collisions", true, false},
                                                    {"--h", true, false},
                                                    {"--t-end", true, false}}),
                                 "sensitivity");
  if (!a.error.empty()) return badInput(a.error);
  if (a.has("--help")) {
    print("ricochet-cli sensitivity SYSTEM|SCENARIO.json [--perturb NAME=DELTA]... [--collisions N] [--t-end T]\n"
          "    [--set ...] [--h H] [--integrator NAME] [--tolerance TOL] [--out FILE.csv] [--jobs N]\n");
    return kExitOk;
  }
  study::SensitivitySpec spec;
  if (std::string e = baseScenario(a, "sensitivity", spec.base); !e.empty()) return badInput(e);
  for (const std::string& p : a.values("--perturb")) {
    const auto eq = p.find('=');
    const auto delta = eq == std::string::npos ? std::nullopt : parseNumber(p.substr(eq + 1));
    if (eq == std::string::npos || eq == 0 || !delta || !std::isfinite(*delta)) {
      return badInput("--perturb '" + p + "': expected NAME=DELTA with a finite number DELTA");
    }
    spec.perturbations.push_back({p.substr(0, eq), *delta});
  }
  if (std::string e = integerOption(a, "--collisions", spec.collisions); !e.empty()) return badInput(e);
  StudyRunSettings settings;
  if (std::string e = parseStudyRunSettings(a, settings); !e.empty()) return badInput(e);
  io::AtomicFile out;
  if (std::string e = openOut(a, out); !e.empty()) return badInput(e);
  const study::SensitivityResult r = study::runSensitivity(spec, settings.jobs, interruptFlag());
  if (!r.error.empty()) return badInput(r.error);
  if (r.cancelled) return interruptedExit("sensitivity stopped; no file written");
  if (std::string e = commitOut(out, study::sensitivityCsv(r)); !e.empty()) return badInput(e);
  printReport(a, {"--out"}, study::sensitivityReport(r));
  return kExitOk;
}

int compareCommand(const std::vector<std::string>& args) {
  ParsedArgs a = parseArgs(args,
                           withCommonOptions({{"--h", true, false},
                                              {"--integrators", true, false},
                                              {"--impact-times", true, false},
                                              {"--t-end", true, false}}),
                           "compare");
  if (!a.error.empty()) return badInput(a.error);
  if (a.has("--help")) {
    print("ricochet-cli compare SYSTEM|SCENARIO.json [--h H,H...] [--integrators A,B...] [--t-end T]\n"
          "    [--set ...] [--tolerance TOL] [--impact-times K] [--out FILE.csv] [--jobs N]\n");
    return kExitOk;
  }
  study::CompareSpec spec;
  // --h is a list here; the scenario itself keeps its own h.
  const std::optional<std::string> hList = a.value("--h");
  std::erase_if(a.options, [](const auto& o) { return o.first == "--h"; });
  if (a.has("--integrator")) return badInput("'compare' runs several integrators: give --integrators A,B (or none: all)");
  if (std::string e = baseScenario(a, "compare", spec.base); !e.empty()) return badInput(e);
  if (hList) {
    const auto items = splitList(*hList);
    if (!items) return badInput("--h '" + *hList + "': expected H or H,H,... (time steps, s)");
    for (const std::string& item : *items) {
      const auto x = parseNumber(item);
      if (!x) return badInput("--h '" + *hList + "': '" + item + "' is not a number");
      spec.hs.push_back(*x);
    }
  }
  if (const auto v = a.value("--integrators")) {
    const auto items = splitList(*v);
    if (!items) return badInput("--integrators '" + *v + "': expected NAME or NAME,NAME,...");
    spec.integrators = *items;
  }
  if (std::string e = integerOption(a, "--impact-times", spec.impactTimes); !e.empty()) return badInput(e);
  StudyRunSettings settings;
  settings.jobs = 1;  // the cost column is clearest with one run at a time; --jobs N to trade it
  if (std::string e = parseStudyRunSettings(a, settings); !e.empty()) return badInput(e);
  io::AtomicFile out;
  if (std::string e = openOut(a, out); !e.empty()) return badInput(e);
  const study::CompareResult r =
      study::runCompare(spec, settings.jobs, interruptFlag(), settings.runnerOptions().onProgress);
  if (!r.error.empty()) return badInput(r.error);
  if (r.cancelled) return interruptedExit("compare stopped; no file written");
  if (std::string e = commitOut(out, study::compareCsv(r)); !e.empty()) return badInput(e);
  printReport(a, {"--out"}, study::compareReport(r));
  return kExitOk;
}

}  // namespace ricochet::cli
