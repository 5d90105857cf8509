// `ricochet-cli run --pvd DIR`: the ParaView series of render/paraview (built with the render
// layer; paraview_unavailable.cpp otherwise).

#include "app/cli/cli_commands.hpp"
#include "core/model/registry.hpp"
#include "render/paraview/paraview_series.hpp"

namespace ricochet::cli {

std::unique_ptr<io::RecordSink> openParaViewSeries(const std::filesystem::path& folder,
                                                   const Scenario& scenario, std::string& error) {
  const SystemDescription* system = findSystem(scenario.system);
  if (!system) {
    error = "unknown system '" + scenario.system + "'";
    return nullptr;
  }
  auto writer = std::make_unique<render::paraview::SeriesWriter>();
  error = writer->open(folder, system->scene(scenario));
  if (!error.empty()) return nullptr;
  return writer;
}

}  // namespace ricochet::cli
