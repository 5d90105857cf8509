// `ricochet-cli run --pvd` in a build without the render layer (RICOCHET_BUILD_GUI=OFF).

#include "app/cli/cli_commands.hpp"
#include "core/io/trace.hpp"

namespace ricochet::cli {

std::unique_ptr<io::RecordSink> openParaViewSeries(const std::filesystem::path&, const Scenario&,
                                                   std::string& error) {
  error =
      "--pvd is not available: this ricochet-cli was built without the render layer "
      "(configure with -DRICOCHET_BUILD_GUI=ON)";
  return nullptr;
}

}  // namespace ricochet::cli
