// The live harness (fuzz-targets/live.h): libFuzzer's inputs decoded into requests, sent to
// the MCP server named by MCPFUZZ_TARGET_URL or MCPFUZZ_TARGET_COMMAND, judged by the oracles.
// A FAIL, crash or hang aborts, so -minimize_crash, -merge and crash artifacts work on it.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>

#include "fuzz-targets/case_spec.h"
#include "fuzz-targets/live.h"

namespace {

mcpfuzz::fuzzing::LiveTarget& Target() {
  static mcpfuzz::fuzzing::LiveTarget* target = [] {
    auto settings = mcpfuzz::fuzzing::LiveSettingsFromEnvironment();
    if (!settings) {
      std::cerr << "live_target: " << settings.error().message << "\n";
      std::exit(2);
    }
    // Never destroyed: libFuzzer may end the process from any thread, and a stdio server is
    // ended by its own process group's shutdown when the harness exits.
    return new mcpfuzz::fuzzing::LiveTarget(std::move(*settings));
  }();
  return *target;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcpfuzz::fuzzing;
  if (auto judged = Target().Run(DecodeSpec({data, size}))) {
    if (judged->finding) AbortOnFinding(*judged);
  }
  return 0;
}
