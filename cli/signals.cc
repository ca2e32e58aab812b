#include "cli/signals.h"

#include <unistd.h>

#include <csignal>
#include <string>

#include "transport/children.h"

namespace mcpfuzz::cli {
namespace {

std::atomic<bool> g_requested{false};
std::atomic<int> g_signal{0};
struct sigaction g_previous_int {};
struct sigaction g_previous_term {};

// Only async-signal-safe calls here: atomics, kill (inside KillAllChildrenNow) and _exit.
extern "C" void OnStopSignal(int signal_number) {
  if (g_requested.load()) {
    KillAllChildrenNow();
    ::_exit(128 + signal_number);
  }
  g_signal.store(signal_number);
  g_requested.store(true);
  StopAllExchanges();
}

}  // namespace

StopOnSignals::StopOnSignals() {
  struct sigaction action {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: an interrupted read or write carries on instead of failing, which would look
  // like a broken server; every wait mcpfuzz makes is short, so the flag is seen soon anyway.
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, &g_previous_int);
  ::sigaction(SIGTERM, &action, &g_previous_term);
}

StopOnSignals::~StopOnSignals() {
  ::sigaction(SIGINT, &g_previous_int, nullptr);
  ::sigaction(SIGTERM, &g_previous_term, nullptr);
}

const std::atomic<bool>& StopOnSignals::requested() { return g_requested; }
int StopOnSignals::signal_number() { return g_signal.load(); }

std::string StopOnSignals::stopped_by() {
  if (!g_requested.load()) return {};
  switch (g_signal.load()) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "signal " + std::to_string(g_signal.load());
  }
}

}  // namespace mcpfuzz::cli
