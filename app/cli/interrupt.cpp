#include "app/cli/interrupt.hpp"

#include <csignal>
#include <cstdio>

namespace ricochet::cli {

namespace {

std::atomic<bool> gInterrupted{false};
volatile std::sig_atomic_t gSignal = 0;
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void onInterruptSignal(int signal) {
  if (gSignal != 0) {  // the second: the command did not get to its check, end it now
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  gSignal = signal;
  gInterrupted.store(true);
}

}  // namespace

void installInterruptHandlers() {
  std::signal(SIGINT, onInterruptSignal);
  std::signal(SIGTERM, onInterruptSignal);
  std::signal(SIGPIPE, SIG_IGN);
}

bool interrupted() {
  return gInterrupted.load(std::memory_order_relaxed);
}

const std::atomic<bool>* interruptFlag() {
  return &gInterrupted;
}

int interruptedExit(const std::string& what) {
  const int signal = gSignal == SIGTERM ? SIGTERM : SIGINT;
  std::fprintf(stderr, "ricochet-cli: interrupted (%s): %s\n",
               signal == SIGTERM ? "SIGTERM" : "SIGINT", what.c_str());
  return 128 + signal;
}

}  // namespace ricochet::cli
