// The reference server's request handler, judged by the oracles: bytes → request → handler →
// reply → verdict. A FAIL, crash or hang aborts. With MCPFUZZ_FAULTS naming fault switches the
// server deviates on purpose and the fuzzer must find it (the planted-bug test).

#include <cstddef>
#include <cstdint>

#include "fuzz-targets/case_spec.h"
#include "fuzz-targets/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcpfuzz::fuzzing;
  static InProcessServer server(FaultsFromEnvironment());
  if (auto judged = server.Run(DecodeSpec({data, size}))) {
    if (judged->finding) AbortOnFinding(*judged);
  }
  return 0;
}
