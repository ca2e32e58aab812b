// The case-file codec: any JSON either is rejected with a reason or reads as a request that
// writes back to a file reading as the same request.

#include "model/case_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcpfuzz;
  auto json = ParseJson({reinterpret_cast<const char*>(data), size});
  if (!json) return 0;
  auto request = RequestFromJson(*json);
  if (!request) {
    if (request.error().message.empty()) std::abort();
    return 0;
  }
  auto again = RequestFromJson(RequestToJson(*request));
  if (!again || !(*again == *request)) std::abort();
  return 0;
}
