#include "app/cli/body_option.hpp"

#include "core/io/body_io.hpp"
#include "core/io/mesh_reader.hpp"
#include "core/model/registry.hpp"

#include <cstdio>
#include <memory>

namespace ricochet::cli {

std::string applyBodyOption(const ParsedArgs& args, Scenario& scenario) {
  const auto file = args.value("--body");
  if (!file) return {};
  const SystemDescription* system = findSystem(scenario.system);
  if (!system || !system->info().defaultBody) {
    return "--body: '" + scenario.system + "' takes no body (the rigid-body system does)";
  }
  auto body = std::make_shared<BodyScenario>();
  if (scenario.body) body->world = scenario.body->world;
  if (std::string e = io::meshBody(*file, body->body); !e.empty()) return "--body: " + e;
  scenario.body = std::move(body);
  return {};
}

void printMeshNotes(const Scenario& scenario) {
  if (!scenario.body) return;
  const std::string notes = io::meshNotes(scenario.body->body);
  if (!notes.empty()) std::fprintf(stderr, "ricochet-cli: note: %s\n", notes.c_str());
}

}  // namespace ricochet::cli
