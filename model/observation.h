#pragma once
// Everything that came back from one exchange with a target, before any judgement.

#include <boost/json/value.hpp>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/request.h"

namespace mcpfuzz {

/// How the exchange ended at the transport level. Only kOk carries a complete answer.
enum class Outcome {
  kOk,
  kTimeout,            ///< No complete reply within the per-request time limit.
  kConnectionRefused,  ///< Nothing listens at the address.
  kConnectionReset,    ///< The peer dropped the connection mid-exchange.
  kExited,             ///< A stdio server process ended before replying.
  kAliveButDeaf,       ///< A stdio server process is running but did not reply in time.
  /// A stdio server answered the sentinel request written right behind this one, but not this
  /// one: it dropped the message without a word. Learnt in one round trip, not a timeout; the
  /// reply channel is "no reply", which the tables judge as they judge silence.
  kDropped,
  kTooLarge,        ///< The reply exceeded the response-size cap; the rest was dropped.
  kTransportError,  ///< Any other local failure (bad URL, spawn failure, refused host).
};
std::string_view ToString(Outcome outcome);

/// One Server-Sent Event as dispatched by the SSE parser.
struct SseEvent {
  std::string event = "message";
  std::string data;
  std::string id;
  std::optional<long> retry_ms;
  bool operator==(const SseEvent&) const = default;
};

/// What is kept of a piece of a reply too large to keep whole once it was judged (see
/// KeepExcerpts): its first bytes and its whole size.
struct ReplyExcerpt {
  /// Which piece: "body", "message" (a JSON value, cut as its JSON text) or "non_json".
  std::string of;
  /// Its first kExcerptBytes bytes.
  std::string text;
  /// Its whole size in bytes.
  std::size_t bytes = 0;
};

/// The time limit an exchange waited under: when it ended without a reply, how long mcpfuzz
/// waited and which option gives more time.
enum class TimeLimit {
  kReply,       ///< the per-request timeout, with a large request's read allowance
  kStartup,     ///< a freshly started stdio server's first reply (Limits::startup_timeout)
  kPatience,    ///< the shorter wait for a server that went deaf before (a session's patience)
  kStreamOpen,  ///< a GET's wait for the headers of the stream it asks for (Limits::stream_open)
};
/// "reply", "startup", "patience", "stream-open": the name in reports.
std::string_view ToString(TimeLimit limit);
std::optional<TimeLimit> TimeLimitNamed(std::string_view name);
/// "the start-up limit": what an observation's detail says.
std::string_view Describe(TimeLimit limit);

struct Observation {
  Outcome outcome = Outcome::kOk;
  /// A human-readable note on the outcome ("curl: Operation timed out after 2000 ms").
  std::string detail;
  /// The limit the exchange waited under, and its length (0 where none was set: a test double).
  TimeLimit time_limit = TimeLimit::kReply;
  std::chrono::milliseconds limit{0};

  // HTTP: status 0 means no HTTP response arrived.
  int http_status = 0;
  Headers http_headers;
  std::string content_type;
  /// The raw response body, exactly as received; of a reply over the cap (kTooLarge), only
  /// its first bytes, so an observation costs a constant whatever the server sends.
  std::string body;
  std::vector<SseEvent> sse_events;

  /// Every JSON value read from the reply: the JSON body, each SSE `data`, each stdout line.
  /// Values are kept whatever their shape; classification decides what they are.
  std::vector<boost::json::value> messages;
  /// Each piece of the reply that should have been JSON but was not (an HTML body, a log line
  /// on stdout, an SSE event whose data does not parse).
  std::vector<std::string> non_json;

  // stdio
  std::vector<std::string> stdout_lines;
  std::string stderr_tail;
  std::optional<int> exit_code;
  std::optional<int> exit_signal;
  /// True when mcpfuzz itself ended the process, so a kill is never reported as a crash.
  bool killed_by_mcpfuzz = false;
  /// Responses carrying the id of a request this transport concluded without its reply in an
  /// earlier exchange (dropped, or unanswered within the limit): that request's late reply,
  /// never this exchange's answer, so it is here and not in `messages`; a pipeline reports them
  /// on its sentinel's observation. After a late reply to a drop the server is known to answer
  /// out of order, and the transport no longer concludes kDropped.
  std::vector<boost::json::value> late_replies;
  /// Stdio: responses carrying the id of a request answered in an earlier exchange on the same
  /// process: a second response to it (JSON-RPC owes one), kept here so it is never taken for
  /// this exchange's answer. Not judged: the request it repeats is another case's. (A repeat
  /// written before the reply to the sentinel behind its request is in that request's own
  /// `messages`, where the envelope judges it.)
  std::vector<boost::json::value> repeated_replies;
  /// Stdio: the start of each message that arrived spread over several stdout lines (JSON
  /// pretty-printed across lines), its lines joined by '\n' and cut to a few hundred bytes.
  /// Framing forbids it (one message per line, no embedded newline), yet the message is the
  /// server's answer: it is in `messages`, its lines in `stdout_lines` (not in `non_json`).
  std::vector<std::string> multi_line_messages;

  std::chrono::microseconds elapsed{0};

  /// Only in an observation kept after judgement (KeepExcerpts): the pieces too large to keep
  /// whole, taken out of `body`, `messages` and `non_json`, in that order.
  std::vector<ReplyExcerpt> excerpts;
  /// Pieces past the kKeptPieces kept of each list, left out entirely, and their bytes.
  std::size_t left_out = 0;
  std::size_t left_out_bytes = 0;
};

/// A request and what came back for it.
struct Exchange {
  Request request;
  Observation observation;
  /// The session id attached to the request, if any (handshake era over HTTP).
  std::string session_id;
};

/// A piece of a kept observation larger than this is kept as a ReplyExcerpt of this size.
inline constexpr std::size_t kExcerptBytes = 4096;
/// Messages, non-JSON pieces, SSE events and stdout lines kept of each kept observation.
inline constexpr std::size_t kKeptPieces = 64;

/// Cuts `observation` to what is kept once it was judged (in check results, incidents and
/// reports): every piece over kExcerptBytes becomes a ReplyExcerpt, each list keeps its first
/// kKeptPieces, and stdout lines and SSE data (read as `messages` and `non_json` already) are
/// cut to kExcerptBytes. So a run keeps a constant per exchange, however large the replies;
/// the judgement itself always reads the whole observation.
void KeepExcerpts(Observation& observation);

}  // namespace mcpfuzz
