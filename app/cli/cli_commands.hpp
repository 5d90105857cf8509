#pragma once
// The ricochet-cli commands. Each takes the words after the command name and returns the process
// exit code (cli_args.hpp); messages for bad input are one line on stderr, results go to stdout.
// A new command (e.g. `video`, which needs the render layer) is one more function here or in its
// own file, plus one entry in main.cpp's command table.

#include <string>
#include <vector>

namespace ricochet::cli {

int listCommand(const std::vector<std::string>& args);
int describeCommand(const std::vector<std::string>& args);
int runCommand(const std::vector<std::string>& args);

}  // namespace ricochet::cli
