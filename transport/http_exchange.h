#pragma once
// The receiving half of one HTTP exchange, free of curl: response header lines and body bytes
// go in as they arrive, an Observation comes out.

#include <boost/json/value.hpp>
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "model/observation.h"
#include "model/request.h"
#include "model/sse.h"
#include "transport/transport.h"

namespace mcpfuzz {

/// True when a Content-Type value names text/event-stream, whatever its case and parameters.
bool IsEventStream(std::string_view content_type);

/// The ids of the responses `request` waits for: its own JSON-RPC id, or the ids of a batch's
/// requests. Empty for notifications, responses, bodies that are not JSON-RPC, and no body.
std::vector<boost::json::value> AwaitedIds(const Request& request);

/// Fills `observation` from one reply. An SSE body is parsed event by event as it arrives, so
/// the exchange can end as soon as the awaited responses are in, although the server may keep
/// the stream open. Memory is bounded whatever the server sends: the body up to
/// `max_body_bytes`, SSE events up to `max_events`; past either cap the exchange stops reading
/// and the body shrinks to an excerpt. Not thread-safe; `observation` must outlive it.
class HttpExchange {
 public:
  using Clock = std::chrono::steady_clock;

  HttpExchange(Observation& observation, const Request& request, std::size_t max_body_bytes,
               std::size_t max_events = Limits{}.max_reply_lines);

  /// One header line, with or without its CRLF: a status line, a header, or the blank line
  /// ending the header block. Only the headers of the last response are kept (a 100 Continue
  /// may come first).
  void OnHeaderLine(std::string_view line);
  /// Body bytes as they arrive. Returns false when reading should stop: the body went over the
  /// size cap or the SSE stream over the event cap (the excess is dropped, and the body kept
  /// is cut to its first kExcerptBytes), or every awaited response has arrived.
  bool OnBody(std::string_view bytes);
  /// After the transfer: fills `messages`/`non_json` from a non-SSE body within the cap, and
  /// the content type.
  /// Returns true when an SSE stream ended inside an event, which was discarded.
  bool Finish();

  bool expects_reply() const { return expects_reply_; }
  bool is_sse() const { return is_sse_; }
  bool too_large() const { return too_large_; }
  /// Why the reply was too large, for an observation's detail: the cap it went over, the bytes
  /// received, and an escaped excerpt of its start. Empty unless too_large().
  std::string DescribeTooLarge() const;
  /// True once every awaited response arrived on the SSE stream.
  bool answered() const { return answered_; }
  /// True once the stream of a subscriptions/listen request was acknowledged: its response
  /// comes only when the server ends the subscription, so it is heard out once quiet.
  bool acknowledged() const { return acknowledged_; }
  /// True for a GET asking for an event stream (the standalone stream) while its response
  /// headers have not all come: the wait Limits::stream_open bounds.
  bool awaits_stream_headers() const { return opens_stream_ && !headers_complete_; }
  /// When the last header line or body bytes arrived (or the exchange was created).
  Clock::time_point last_activity() const { return last_activity_; }

 private:
  void TakeSseEvents(std::vector<SseEvent> events);
  void StopTooLarge();

  Observation& observation_;
  std::size_t max_body_bytes_;
  std::size_t max_events_;
  /// Body bytes curl delivered, kept or not.
  std::size_t received_bytes_ = 0;
  /// The SSE event cap, not the byte cap, ended the reply.
  bool too_many_events_ = false;
  std::vector<boost::json::value> awaited_ids_;
  bool expects_reply_ = false;
  bool opens_stream_;
  bool headers_complete_ = false;
  SseParser parser_;
  bool is_sse_ = false;
  bool too_large_ = false;
  bool answered_ = false;
  bool acknowledged_ = false;
  /// The listen request's id; null for every other request.
  boost::json::value listen_id_;
  Clock::time_point last_activity_ = Clock::now();
};

}  // namespace mcpfuzz
