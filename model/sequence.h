#pragma once
// Sequences: ordered requests sent on ONE fresh connection (a new stdio process, or a new HTTP
// connection whose handshake-era session is the one a step's initialize opens). What lives
// between requests — the handshake's order, a session after its DELETE, a second initialize —
// is only visible this way. Each step is a Request of the one request model; the session it
// travels in is part of the request (SessionBinding::kAttach: the Mcp-Session-Id captured from
// the first reply that carried one; kOmit: none; kSecond: the one a later initialize without a
// session opened beside it), so a DELETE of the session is a bodyless DELETE that attaches it,
// and a request after it names the ended session. A step may carry
// the nextCursor an earlier step's reply handed out (cursor_from): its params.cursor holds
// kCursorPlaceholder until it is sent, when the cursor captured from that reply takes its place.

#include <boost/json/value.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/request.h"
#include "model/result.h"

namespace mcpfuzz {

/// One step: the request, and the check and table row the generator planned to judge it by
/// (for people and files; the judge derives the rule again from the state actually reached).
struct SequenceStep {
  Request request;
  std::string check_id;
  std::string row;
  /// The step (0-based, earlier) whose reply's nextCursor this step sends as params.cursor.
  std::optional<std::size_t> cursor_from;
  /// Written with the next step, a notifications/cancelled naming this request, before any
  /// reply is read (stdio): the request is still in flight when its cancellation is written.
  /// A ping follows them, so a reply that comes after its answer provably followed the
  /// cancellation. Without such a next step the request is sent as any other.
  bool pipelined = false;
  /// A coverage mutant's edit (`fuzz --coverage`, generators/mutation.h): the step breaks no
  /// rule on purpose, so it is judged by its own check_id (the process rules), not by the rule
  /// of the state it meets, which was planned for the step before the edit.
  bool mutated = false;
  bool operator==(const SequenceStep&) const = default;
};
using Sequence = std::vector<SequenceStep>;

/// What params.cursor holds in a step with cursor_from until the captured cursor replaces it.
inline constexpr std::string_view kCursorPlaceholder = "mcpfuzz-captured-cursor";

/// `request` with params.cursor set to `cursor` (a JSON-RPC request with a body).
Request WithCursor(Request request, std::string_view cursor);

/// [{"request": {…model/case_file.h…}, "check_id": "…", "row": "L6", "cursor_from": 2,
///   "pipelined": true, "mutated": true}, …]
boost::json::value SequenceToJson(const Sequence& sequence);
Result<Sequence> SequenceFromJson(const boost::json::value& json);

/// A handshake revision other than `revision`, for a second initialize that would change the
/// session's version if the server let it (2024-11-05, or 2025-03-26 for a 2024-11-05 session).
Revision AnotherHandshakeRevision(Revision revision);

/// The notifications/cancelled naming `request`'s id (tables §4a L9), of its revision and
/// transport.
Request CancellationOf(const Request& request);
/// Whether `notification` is a notifications/cancelled naming `request`'s id.
bool Cancels(const Request& notification, const Request& request);

/// The requests of `sequence`, in order (for SequenceReproducer, model/reproducer.h).
std::vector<Request> StepRequests(const Sequence& sequence);

}  // namespace mcpfuzz
