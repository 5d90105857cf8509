// `ricochet-cli video` in a build without the render layer (RICOCHET_BUILD_GUI=OFF).

#include "app/cli/cli_commands.hpp"

namespace ricochet::cli {

int videoCommand(const std::vector<std::string>&) {
  return badInput("'video' is not available: this ricochet-cli was built without the render layer "
                  "(configure with -DRICOCHET_BUILD_GUI=ON)");
}

}  // namespace ricochet::cli
