#pragma once
// The small model a sequence of requests on one connection is judged by (model/sequence.h):
// where the handshake is, whether the HTTP session lives, and which rule of the tables each
// step is judged by in that state. Pure: the caller sends and passes what came back.
//
// The state moves on what the server answered, not on what a conformant server would have: a
// DELETE refused with 405 leaves the session live, an initialize refused opens nothing, so a
// later step is judged by the rule of the state actually reached.

#include <boost/json/value.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/observation.h"
#include "model/request.h"
#include "oracles/judgement.h"

namespace mcpfuzz {

struct SequenceState {
  enum class Handshake { kFresh, kInitializeAnswered, kInitialized };
  enum class Session { kNone, kLive, kEnded };
  Handshake handshake = Handshake::kFresh;
  /// HTTP: the session the first initialize opened (Mcp-Session-Id), live or ended by DELETE.
  Session session = Session::kNone;
  /// HTTP: the session a later initialize without a session opened beside it (steps bound
  /// SessionBinding::kSecond name it). Its handshake is not tracked: only its DELETE and what
  /// follows are judged, and the first session must live on (sessions are isolated).
  Session second = Session::kNone;
  /// stdio: the era the first era-distinctive request the server served locked the connection
  /// to (tables §4b V16): an enveloped request other than server/discover locks 2026-07-28, an
  /// envelope-less initialize the handshake era (a ping, answered in either era, proves none).
  enum class EraLock { kUnlocked, kHandshake, kStateless };
  EraLock era = EraLock::kUnlocked;
  /// A nextCursor a list reply handed out: which step's reply, and for which list method.
  struct Cursor {
    std::size_t step = 0;
    std::string method;
    std::string cursor;
    /// Requests of the same list carrying it that got a result (a later one reuses it, §7 C2).
    std::size_t uses = 0;
    bool operator==(const Cursor&) const = default;
  };
  std::vector<Cursor> cursors;
  /// The level a logging/setLevel the server answered with a result set for the first session
  /// (over stdio, the connection): later steps in it are judged with it (tables §7 G4).
  std::optional<std::string> log_level;
  /// The resource URIs a resources/subscribe the server answered with a result subscribed the
  /// first session to, and of those the ones a served resources/unsubscribe ended since (§7 R4s).
  std::vector<std::string> subscribed;
  std::vector<std::string> unsubscribed;
  /// The `_meta.progressToken`s of requests the server answered (with a result or an error):
  /// their requests are no longer active (§4a L10a).
  std::vector<boost::json::value> finished_progress_tokens;
  /// Steps taken so far (the index of the next one).
  std::size_t steps = 0;
  bool operator==(const SequenceState&) const = default;
};

/// The check a step is judged by in `state`, and the row of the tables it comes from.
struct StepRule {
  std::string_view check_id;
  std::string_view row;
  JudgeContext context;
};

/// The rule for sending `request` in `state`; nothing when the spec leaves the step open and
/// no row judges it (it is recorded, not judged): a DELETE without a live session, a request
/// other than ping once initialized. Once initialized, a */list request whose cursor is one
/// another list method handed out (and not one of its own) is judged by C1: refused -32602.
/// Over stdio, a request of the other era on a locked connection is judged by V16a (initialize
/// after a served enveloped request) or V16b (an enveloped request after initialize); of the
/// other 2026-07-28 requests only server/discover is judged (V5). Once initialized, a */list
/// request carrying a cursor its own list handed out, already used once with a result, is
/// judged by C2: cursors are stable. A step in the first session
/// after a served logging/setLevel carries that level in its context, and a ping there once
/// initialized is judged by G4 instead of L6a (§7 G4). A resources/unsubscribe of a URI the
/// session subscribed to is judged by R4s, and so is a ping once one was served; the URIs it
/// ended are in the context of every later step of the session. Over stdio, a ping once
/// initialized after a request with a progressToken was answered is judged by L10a, with the
/// tokens in its context.
std::optional<StepRule> RuleForStep(const SequenceState& state, const Request& request);

/// The cursor the reply of step `step` handed out, if it handed one out.
std::optional<std::string> CapturedCursor(const SequenceState& state, std::size_t step);

/// The state after `request` got `observation` (capturing a list reply's nextCursor).
SequenceState AdvanceSequence(SequenceState state, const Request& request,
                              const Observation& observation);

/// The state a conformant server would leave: for generators planning a sequence.
SequenceState PlanSequence(SequenceState state, const Request& request);

/// Judges a request written with its notifications/cancelled right behind it and a ping after
/// them (model/sequence.h, `pipelined`), over stdio (tables §4a L9, §8 S5). A reply that came
/// after the ping's (`answered_after_ping`) was written once the server had read the
/// cancellation: cancellation.no-reply judges it (a deviation), and silence passes. A reply
/// before the ping's is not judged (NOT_APPLICABLE): the server may have finished before the
/// cancellation arrived, and then MAY answer.
Judgement JudgeCancelled(const Request& cancelled, Observation observation,
                         bool answered_after_ping);

/// Judges one step: JudgeCase by the rule of `state`, or NOT_APPLICABLE (never a finding) when
/// no rule judges it.
Judgement JudgeStep(const SequenceState& state, const Request& request, Observation observation);

}  // namespace mcpfuzz
