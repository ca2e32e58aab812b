// The SSE parser: any bytes, fed whole or in chunks of any size, give the same events, and
// the same verdict on an event left open at the end.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "model/sse.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t chunk = 1 + data[0] % 16;
  const std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);

  mcpfuzz::SseParser whole;
  std::vector<mcpfuzz::SseEvent> expected;
  whole.Feed(stream, expected);
  const bool whole_dropped = whole.Finish(expected);

  mcpfuzz::SseParser pieces;
  std::vector<mcpfuzz::SseEvent> events;
  for (std::size_t at = 0; at < stream.size(); at += chunk)
    pieces.Feed(stream.substr(at, chunk), events);
  const bool pieces_dropped = pieces.Finish(events);

  if (events != expected || whole_dropped != pieces_dropped) std::abort();
  if (mcpfuzz::ParseSse(stream) != expected) std::abort();
  return 0;
}
