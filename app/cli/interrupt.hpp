#pragma once
// SIGINT and SIGTERM in every ricochet-cli command (Ctrl-C; `kill`, `timeout` and Slurm's
// `scancel` send SIGTERM): the first asks the running command to stop at its next check (between
// steps, runs or frames), to remove its temporary files and to exit with 128 + the signal (130,
// 143); a second one, when the command did not get there (a FIFO nobody reads), ends the process
// the default way. main() installs the handlers once for every command; commands poll.

#include <atomic>
#include <string>

namespace ricochet::cli {

/// Installs the handlers of SIGINT and SIGTERM, and ignores SIGPIPE (a reader that went away is a
/// write error the command reports and cleans up after, not a kill that leaves temporaries).
void installInterruptHandlers();

/// True once SIGINT or SIGTERM arrived.
bool interrupted();
/// The flag the handlers set, for code that polls an atomic (the study runner, video frames).
const std::atomic<bool>* interruptFlag();

/// Prints "ricochet-cli: interrupted (SIGINT|SIGTERM): WHAT" on stderr and returns the exit code,
/// 128 + the signal (130 for SIGINT, 143 for SIGTERM; 130 when called without a signal).
int interruptedExit(const std::string& what);

}  // namespace ricochet::cli
