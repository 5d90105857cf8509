// ricochet-cli: the headless runner (its commands and options: README, "Command line").
//
// main() only dispatches: each command is a row of kCommands (name, usage, function). Adding a
// command means one more row and one function. `video` needs the render layer: without it
// (RICOCHET_BUILD_GUI=OFF) video_unavailable.cpp answers instead.

#include "app/cli/cli_args.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/interrupt.hpp"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace ricochet::cli;

struct Command {
  const char* name;
  const char* usage;  ///< one or more lines for `help`
  int (*run)(const std::vector<std::string>& args);
};

int helpCommand(const std::vector<std::string>& args);

const Command kCommands[] = {
    {"list", "  ricochet-cli list\n      one line per system: id<TAB>title<TAB>source\n", &listCommand},
    {"describe",
     "  ricochet-cli describe SYSTEM [--json]\n"
     "      parameters and initial conditions (name, unit, default, range, help), integrators,\n"
     "      default h / t_end / tolerance; --json prints the contract's JSON object\n",
     &describeCommand},
    {"run",
     "  ricochet-cli run SYSTEM|SCENARIO.json [options]\n"
     "      --set NAME=VALUE     override a parameter or initial condition (repeatable)\n"
     "      --h H                time step, s\n"
     "      --t-end T            simulated time, s (default: the system's or the scenario's)\n"
     "      --steps N            number of steps instead of --t-end\n"
     "      --integrator NAME    'variational' (default) or a baseline the system offers\n"
     "      --tolerance TOL      solver tolerance, in (0, 1)\n"
     "      --csv FILE           trace CSV, one row per recorded step\n"
     "      --every K            record every K-th step in the trace (default 1)\n"
     "      --impacts-csv FILE   one row per impact\n"
     "      --summary-json FILE  the run summary as JSON\n"
     "      --h5 FILE.h5         the trace, impacts and scenario as one HDF5 file (same rows as --csv)\n"
     "      --pvd DIR            a ParaView time series: DIR/run.pvd and one .vtp per recorded step\n"
     "      --body FILE          rigid-body: the body is the rounded hull of a mesh (STL, OBJ, PLY)\n",
     &runCommand},
    {"video",
     "  ricochet-cli video SYSTEM|SCENARIO.json --out FILE.(mp4|gif|ogv)|PATTERN.png [options]\n"
     "      --fps F              frames per second, [1, 240] (default 30)\n"
     "      --t-end T            simulated seconds to show (default: the scenario's t_end)\n"
     "      --speed S            simulated seconds per video second (default 1)\n"
     "      --width W --height H frame size in pixels (default 1280x720)\n"
     "      --set, --h, --integrator, --tolerance as for run; --antialias none|fxaa|msaa,\n"
     "      --no-overlay, --no-follow, --quiet (see `ricochet-cli video --help`)\n"
     "      needs an X display (xvfb-run -a); .mp4 and .gif need ffmpeg, .ogv and .png do not\n",
     &videoCommand},
    {"scenario",
     "  ricochet-cli scenario SYSTEM|SCENARIO.json [--set NAME=VALUE]... [--h H] [--t-end T]\n"
     "      [--integrator NAME] [--tolerance TOL] [--out FILE.json]\n"
     "      the checked scenario in the canonical file format (stdout without --out)\n",
     &scenarioCommand},
    {"study",
     "  ricochet-cli study STUDY.json --out RESULTS.csv [--jobs N] [--shard K/N] [--summary-json FILE]\n"
     "      every run of a study file (README, \"Studies\"), one results row per run; all cores by\n"
     "      default; --shard K/N runs the K-th of N slices; --quiet: no progress on stderr\n"
     "  ricochet-cli study merge --out RESULTS.csv [--study STUDY.json] SHARD.csv...\n"
     "      joins the slices into the file one process would have written\n",
     &studyCommand},
    {"convergence",
     "  ricochet-cli convergence SYSTEM|SCENARIO.json --at T [--levels L] [--h0 H] [--ref-levels R]\n"
     "      [--set ...] [--integrator NAME] [--out FILE.csv] [--jobs N]\n"
     "      the state error at T against a finer-h reference, halving h L times: order per level\n"
     "      and the fitted slope\n",
     &convergenceCommand},
    {"sensitivity",
     "  ricochet-cli sensitivity SYSTEM|SCENARIO.json [--perturb NAME=DELTA]... [--collisions N]\n"
     "      [--t-end T] [--set ...] [--out FILE.csv] [--jobs N]\n"
     "      how fast perturbed runs separate from the base run, collision by collision (SE(3)\n"
     "      systems default to 003's: z0 + 1e-8 and ry0 + pi 1e-8)\n",
     &sensitivityCommand},
    {"compare",
     "  ricochet-cli compare SYSTEM|SCENARIO.json [--h H,H...] [--integrators A,B...] [--t-end T]\n"
     "      [--set ...] [--impact-times K] [--out FILE.csv] [--jobs N]\n"
     "      every integrator the system offers (and several h) side by side: energy and momentum\n"
     "      errors, impact times, cost per run\n",
     &compareCommand},
    {"help", "  ricochet-cli help | --help\n      this text\n", &helpCommand},
};

void printUsage(std::FILE* to) {
  std::string text =
      "ricochet-cli: headless runner of the Ricochet variational collision integrators\n\n"
      "Usage:\n";
  for (const Command& c : kCommands) text += c.usage;
  text +=
      "\nExit codes: 0 success; 2 bad input (one line on stderr naming the value); 3 the "
      "integrator\n"
      "failed (step and time on stderr; the CSV files hold everything up to the failure; a video\n"
      "keeps the frames before it); 4 a video's encoder or disk failed (no file written);\n"
      "130 interrupted by SIGINT, 143 by SIGTERM (no output file written; what already went to a "
      "pipe\n"
      "or a device stays there). An output FILE may be '-' (stdout), a FIFO or a device: written "
      "directly,\n"
      "and the command's own summary goes to stderr; a symbolic link is written through to its "
      "file.\n";
  std::fputs(text.c_str(), to);
}

int helpCommand(const std::vector<std::string>&) {
  printUsage(stdout);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (args.empty()) {
    printUsage(stderr);
    return kExitBadInput;
  }
  const std::string name = args.front();
  args.erase(args.begin());
  installInterruptHandlers();
  if (name == "--help" || name == "-h") return helpCommand(args);
  for (const Command& c : kCommands) {
    if (name == c.name) return c.run(args);
  }
  std::fprintf(stderr, "ricochet-cli: unknown command '%s' (see `ricochet-cli help`)\n", name.c_str());
  return kExitBadInput;
}
