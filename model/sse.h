#pragma once
// An incremental parser for text/event-stream, as the WHATWG HTML standard defines it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/observation.h"

namespace mcpfuzz {

/// Feed bytes as they arrive, in chunks of any size; complete events are appended to `out`.
/// Handles CR, LF and CRLF line ends (also split across chunks), a leading BOM, comments,
/// `data` across several lines, `id` (ignored when it contains NUL), `retry` (digits only),
/// and unknown fields (ignored). An event still open at Finish() is dropped, as the standard
/// says, and the returned flag tells the caller that happened.
///
/// The last event id and the retry time are stream state, not event state: like a browser's
/// EventSource, every dispatched event carries the values most recently set on the stream.
class SseParser {
 public:
  void Feed(std::string_view chunk, std::vector<SseEvent>& out);
  /// Ends the stream. Returns true when an incomplete event was discarded. The parser is then
  /// ready for a new stream.
  bool Finish(std::vector<SseEvent>& out);

 private:
  void FeedLines(std::string_view chunk, std::vector<SseEvent>& out);
  void ProcessLine(std::string_view line, std::vector<SseEvent>& out);
  void ProcessField(std::string_view field, std::string_view value);
  void Dispatch(std::vector<SseEvent>& out);

  /// Bytes held back at the start of the stream until it is clear whether they are a BOM.
  std::string head_;
  bool bom_checked_ = false;
  /// The current line, not yet terminated.
  std::string line_;
  /// A CR ended the previous chunk, so an LF starting the next one belongs to it.
  bool last_was_cr_ = false;
  std::string event_type_;
  std::string data_;
  std::string last_event_id_;
  std::optional<long> retry_ms_;
};

/// Parses a whole event-stream body at once.
std::vector<SseEvent> ParseSse(std::string_view body);

}  // namespace mcpfuzz
