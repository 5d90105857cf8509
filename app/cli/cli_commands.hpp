#pragma once
// The ricochet-cli commands. Each takes the words after the command name and returns the process
// exit code (cli_args.hpp); messages for bad input are one line on stderr, results go to stdout.
// A new command is one more function here or in its own file (`video`: video_command.cpp, built
// only with the render layer), plus one entry in main.cpp's command table.

#include "app/cli/cli_args.hpp"
#include "core/model/system.hpp"

#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace ricochet::io {
class RecordSink;
}

namespace ricochet::cli {

/// The one-line bad-input message of the contract on stderr ("ricochet-cli: ..."); returns the
/// exit code for bad input.
int badInput(const std::string& message);
/// Writes `text` to stdout as is.
void print(const std::string& text);
/// A command's own report (its summary line, its table): on stdout, or on stderr when one of the
/// outputs named by `outputOptions` (e.g. "--csv") goes to stdout (`--csv -`, `--csv /dev/stdout`),
/// so that the data on stdout stays clean.
void printReport(const ParsedArgs& a, std::initializer_list<const char*> outputOptions,
                 const std::string& text);

/// The scenario named by the one positional argument of `command` (a system id: the paper's
/// defaults; or a SCENARIO.json file), with --set NAME=VALUE, --h, --integrator, --tolerance and --t-end
/// applied. Empty on success, otherwise the one-line bad-input message. Does not validate the
/// result as a whole (validateScenario / createSimulation do).
std::string scenarioFromArgs(const ParsedArgs& a, const std::string& command, Scenario& scenario);

int listCommand(const std::vector<std::string>& args);
int describeCommand(const std::vector<std::string>& args);
int runCommand(const std::vector<std::string>& args);
/// `scenario`: writes the canonical scenario file (or prints it) for a system or file plus options.
int scenarioCommand(const std::vector<std::string>& args);
/// `study` and `study merge` (study_commands.cpp): many runs of one scenario, on all cores or as a
/// shard, into one results CSV.
int studyCommand(const std::vector<std::string>& args);
/// The built-in studies (builtin_studies.cpp): `convergence`, `sensitivity`, `compare`.
int convergenceCommand(const std::vector<std::string>& args);
int sensitivityCommand(const std::vector<std::string>& args);
int compareCommand(const std::vector<std::string>& args);
/// `video` (video_command.cpp): renders and encodes an animation; needs the render layer.
int videoCommand(const std::vector<std::string>& args);

/// `run --pvd DIR` (paraview_output.cpp, built with the render layer): the ParaView series writer
/// of `scenario`, opened on `folder`. nullptr and `error` (one line naming the folder, or saying
/// that this ricochet-cli has no render layer) when it cannot be.
std::unique_ptr<io::RecordSink> openParaViewSeries(const std::filesystem::path& folder,
                                                   const Scenario& scenario, std::string& error);

}  // namespace ricochet::cli
