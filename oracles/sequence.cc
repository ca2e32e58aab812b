#include "oracles/sequence.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "model/channel.h"
#include "model/logging.h"
#include "model/request_builder.h"
#include "model/request_edit.h"
#include "oracles/check_ids.h"

namespace mcpfuzz {
namespace {

using Handshake = SequenceState::Handshake;
using Session = SequenceState::Session;
using EraLock = SequenceState::EraLock;

bool Http(const Request& request) { return request.transport == TransportKind::kHttp; }

// The step names the session the sequence captured (and no other id of its own).
bool InSession(const Request& request) {
  return Http(request) && request.session == SessionBinding::kAttach &&
         !FindHeader(request.headers, kHeaderSessionId);
}

// The step names the second session the sequence opened (SessionBinding::kSecond).
bool InSecond(const Request& request) {
  return Http(request) && request.session == SessionBinding::kSecond &&
         !FindHeader(request.headers, kHeaderSessionId);
}

bool IsInitialize(const Request& request) {
  return request.RpcMethod() == "initialize" && !request.IsNotification();
}

// A new handshake: the first initialize on the connection, or over HTTP one sent without a
// session (it opens a session of its own).
bool OpensHandshake(const SequenceState& state, const Request& request) {
  return IsInitialize(request) &&
         (state.handshake == Handshake::kFresh || (Http(request) && !InSession(request)));
}

// Carries the 2026-07-28 envelope (params._meta protocolVersion): a claim of that era.
bool Enveloped(const Request& request) {
  const auto body = request.BodyJson();
  const boost::json::object* meta = body ? ParamsMeta(*body) : nullptr;
  return meta != nullptr && meta->contains(kMetaProtocolVersion);
}

// The era a served `request` locks a stdio connection to (tables §4b V16): an enveloped request
// other than server/discover locks 2026-07-28, an envelope-less initialize the handshake era.
// V16 has any envelope-less request lock the handshake era, but a server may answer a ping in
// either era without committing the connection, so the model takes only initialize as proof.
std::optional<EraLock> LocksEra(const Request& request) {
  if (request.transport != TransportKind::kStdio || request.IsNotification()) return std::nullopt;
  const auto method = request.RpcMethod();
  if (!method || method == "server/discover") return std::nullopt;
  if (IsInitialize(request)) {
    return Enveloped(request) ? std::nullopt : std::optional<EraLock>(EraLock::kHandshake);
  }
  return Enveloped(request) ? std::optional<EraLock>(EraLock::kStateless) : std::nullopt;
}

bool IsList(const Request& request) {
  const auto method = request.RpcMethod();
  return method && method->ends_with("/list") && !request.IsNotification();
}

// params[key] of the body, when it is a string.
std::optional<std::string> StringParam(const Request& request, std::string_view key) {
  const auto body = request.BodyJson();
  const boost::json::object* object = body ? body->if_object() : nullptr;
  const boost::json::object* params = object ? ObjectMember(*object, "params") : nullptr;
  const boost::json::value* value = params ? params->if_contains(key) : nullptr;
  if (value == nullptr || !value->is_string()) return std::nullopt;
  return std::string(value->get_string());
}

std::optional<std::string> CursorOf(const Request& request) {
  return StringParam(request, "cursor");
}

// The captured cursor `request` carries when its own list method handed it out.
std::optional<std::size_t> OwnCursor(const SequenceState& state, const Request& request) {
  const auto cursor = CursorOf(request);
  if (!cursor || !IsList(request)) return std::nullopt;
  for (std::size_t index = 0; index < state.cursors.size(); ++index) {
    const SequenceState::Cursor& captured = state.cursors[index];
    if (captured.cursor == *cursor && captured.method == *request.RpcMethod()) return index;
  }
  return std::nullopt;
}

// A cursor another list method handed out, and this one never did (a server may share one).
bool ForeignCursor(const SequenceState& state, const Request& request) {
  const auto cursor = CursorOf(request);
  if (!cursor || !IsList(request)) return false;
  const std::string method(*request.RpcMethod());
  bool foreign = false;
  for (const SequenceState::Cursor& captured : state.cursors) {
    if (captured.cursor != *cursor) continue;
    if (captured.method == method) return false;
    foreign = true;
  }
  return foreign;
}

// The level a logging/setLevel sets: a level name in params.level (a refusal sets nothing, so
// the caller asks only of an answered one).
std::optional<std::string> LevelSet(const Request& request) {
  if (request.RpcMethod() != "logging/setLevel" || request.IsNotification()) return std::nullopt;
  std::optional<std::string> level = StringParam(request, "level");
  if (!level || !LogLevelRank(*level)) return std::nullopt;
  return level;
}

// The params.uri of a resources/subscribe or resources/unsubscribe request.
std::optional<std::string> SubscriptionUri(const Request& request, std::string_view method) {
  if (request.RpcMethod() != method || request.IsNotification()) return std::nullopt;
  return StringParam(request, "uri");
}

bool Contains(const std::vector<std::string>& uris, const std::string& uri) {
  return std::find(uris.begin(), uris.end(), uri) != uris.end();
}

// The subscription `request` ended: an unsubscribe of a URI the session subscribed to.
std::optional<std::string> EndsSubscription(const SequenceState& state, const Request& request) {
  auto uri = SubscriptionUri(request, "resources/unsubscribe");
  if (!uri || !Contains(state.subscribed, *uri)) return std::nullopt;
  return uri;
}

// The step travels in the first session: over HTTP the captured one, over stdio the connection.
bool InFirstSession(const Request& request) { return !Http(request) || InSession(request); }

// The _meta.progressToken a request gave.
std::optional<boost::json::value> ProgressToken(const Request& request) {
  if (request.IsNotification()) return std::nullopt;
  const auto body = request.BodyJson();
  const boost::json::object* meta = body ? ParamsMeta(*body) : nullptr;
  const boost::json::value* token = meta ? meta->if_contains(kMetaProgressToken) : nullptr;
  if (token == nullptr) return std::nullopt;
  return *token;
}

// `answered`: a result; `replied`: a result or an error (the request is no longer active).
SequenceState Advance(SequenceState state, const Request& request, bool answered, bool replied,
                      bool session_assigned, bool deleted) {
  ++state.steps;
  if (replied) {
    if (auto token = ProgressToken(request)) state.finished_progress_tokens.push_back(*token);
  }
  if (answered) {
    if (const auto own = OwnCursor(state, request)) ++state.cursors[*own].uses;
  }
  if (answered && InFirstSession(request)) {
    if (auto level = LevelSet(request)) state.log_level = std::move(level);
    if (auto uri = SubscriptionUri(request, "resources/subscribe")) {
      std::erase(state.unsubscribed, *uri);
      if (!Contains(state.subscribed, *uri)) state.subscribed.push_back(*uri);
    }
    if (auto uri = EndsSubscription(state, request)) {
      std::erase(state.subscribed, *uri);
      state.unsubscribed.push_back(*uri);
    }
  }
  if (state.era == EraLock::kUnlocked && answered) {
    if (const auto era = LocksEra(request)) state.era = *era;
  }
  if (OpensHandshake(state, request) && Http(request) && state.session != Session::kNone) {
    // Another session beside the first: the first one's handshake is where it was.
    if (session_assigned && state.second == Session::kNone) state.second = Session::kLive;
    return state;
  }
  if (OpensHandshake(state, request)) {
    if (answered) state.handshake = Handshake::kInitializeAnswered;
    if (session_assigned && state.session == Session::kNone) state.session = Session::kLive;
    return state;
  }
  if (request.RpcMethod() == "notifications/initialized" &&
      state.handshake == Handshake::kInitializeAnswered) {
    state.handshake = Handshake::kInitialized;
  }
  if (request.http_method == "DELETE" && InSession(request) && state.session == Session::kLive &&
      deleted) {
    state.session = Session::kEnded;
  }
  if (request.http_method == "DELETE" && InSecond(request) && state.second == Session::kLive &&
      deleted) {
    state.second = Session::kEnded;
  }
  return state;
}

}  // namespace

std::optional<StepRule> RuleForStep(const SequenceState& state, const Request& request) {
  JudgeContext context;
  if (InFirstSession(request)) {
    context.session_log_level = state.log_level;
    context.unsubscribed_uris = state.unsubscribed;
  }
  if (!Http(request)) context.finished_progress_tokens = state.finished_progress_tokens;
  if (!Http(request) && !request.IsNotification()) {
    const auto claims = LocksEra(request);
    if (state.era == EraLock::kStateless && IsInitialize(request) && !Enveloped(request)) {
      return StepRule{check::kInitializeAfterEraLock, "V16a", context};
    }
    if (state.era == EraLock::kHandshake && claims == EraLock::kStateless) {
      return StepRule{check::kEnvelopeAfterInitialize, "V16b", context};
    }
  }
  if (EraOf(request.revision) == Era::kStateless) {
    if (request.RpcMethod() == "server/discover") {
      return StepRule{check::kDiscoverResult, "V5", context};
    }
    return std::nullopt;
  }
  if (InSession(request) && state.session == Session::kEnded) {
    return StepRule{check::kSessionUnknown, "H13", context};
  }
  if (InSecond(request)) {
    // Only the second session's end is judged; its own handshake is not tracked.
    if (state.second == Session::kEnded) return StepRule{check::kSessionUnknown, "H13", context};
    if (request.http_method == "DELETE" && state.second == Session::kLive) {
      return StepRule{check::kSessionDelete, "H14", context};
    }
    return std::nullopt;
  }
  if (request.http_method == "DELETE") {
    if (InSession(request) && state.session == Session::kLive) {
      return StepRule{check::kSessionDelete, "H14", context};
    }
    return std::nullopt;
  }
  if (IsInitialize(request)) {
    if (OpensHandshake(state, request)) return StepRule{check::kInitialize, "L1", context};
    return StepRule{check::kReinitialize, "L8a", context};
  }
  if (request.IsNotification()) return StepRule{check::kNotificationNoReply, "L3", context};
  if (request.RpcMethod() == "ping") {
    if (state.handshake == Handshake::kInitialized) {
      // After a served resources/unsubscribe its reply shows whether updates stopped (§7 R4s);
      // after a served logging/setLevel, the level at work (§7 G4).
      if (!state.unsubscribed.empty()) return StepRule{check::kUnsubscribe, "R4s", context};
      // Over stdio, after a request with a progressToken was answered (§4a L10a).
      if (!context.finished_progress_tokens.empty()) {
        return StepRule{check::kProgressAfterResponse, "L10a", context};
      }
      if (context.session_log_level) return StepRule{check::kSessionLogLevel, "G4", context};
      return StepRule{check::kPing, "L6a", context};
    }
    return StepRule{check::kPingBeforeInit, "L6", context};
  }
  if (state.handshake != Handshake::kInitialized) {
    return StepRule{check::kRequestBeforeInit, "L4", context};
  }
  // The list's method answered a list before (the capability is there to ask about).
  if (ForeignCursor(state, request)) return StepRule{check::kInvalidCursor, "C1", context};
  if (const auto own = OwnCursor(state, request); own && state.cursors[*own].uses > 0) {
    return StepRule{check::kCursorReused, "C2", context};
  }
  if (InFirstSession(request) && EndsSubscription(state, request)) {
    return StepRule{check::kUnsubscribe, "R4s", context};
  }
  return std::nullopt;
}

std::optional<std::string> CapturedCursor(const SequenceState& state, std::size_t step) {
  for (const SequenceState::Cursor& captured : state.cursors) {
    if (captured.step == step) return captured.cursor;
  }
  return std::nullopt;
}

SequenceState AdvanceSequence(SequenceState state, const Request& request,
                              const Observation& observation) {
  const Reply reply = ClassifyReply(request, observation);
  const bool answered = reply.channel == Channel::kSuccess;
  const bool replied = IsResponse(reply.channel);
  if (answered && IsList(request) && reply.message && reply.message->is_object()) {
    const auto* result = reply.message->as_object().if_contains("result");
    const auto* next = result != nullptr && result->is_object()
                           ? result->as_object().if_contains("nextCursor")
                           : nullptr;
    if (next != nullptr && next->is_string()) {
      state.cursors.push_back(
          {state.steps, std::string(*request.RpcMethod()), std::string(next->as_string()), 0});
    }
  }
  const bool session_assigned = FindHeader(observation.http_headers, kHeaderSessionId).has_value();
  const bool deleted = observation.http_status >= 200 && observation.http_status < 300;
  return Advance(state, request, answered, replied, session_assigned, deleted);
}

SequenceState PlanSequence(SequenceState state, const Request& request) {
  return Advance(state, request, /*answered=*/true, /*replied=*/true,
                 /*session_assigned=*/Http(request), /*deleted=*/true);
}

Judgement JudgeCancelled(const Request& cancelled, Observation observation,
                         bool answered_after_ping) {
  const bool replied = ClassifyReply(cancelled, observation).channel != Channel::kNoReply &&
                       observation.outcome == Outcome::kOk;
  if (replied && !answered_after_ping) {
    Judgement judgement;
    judgement.verdict = NotApplicableVerdict(
        check::kCancelledNoReply, cancelled.revision, cancelled.transport,
        "answered before the ping written after the cancellation: the server may have finished "
        "before it read the cancellation, and then MAY answer (tables §4a L9)");
    judgement.observation = std::move(observation);
    return judgement;
  }
  return JudgeCase(Case{cancelled, std::string(check::kCancelledNoReply), JudgeContext{}},
                   std::move(observation), std::nullopt);
}

Judgement JudgeStep(const SequenceState& state, const Request& request, Observation observation) {
  const std::optional<StepRule> rule = RuleForStep(state, request);
  if (!rule) {
    Judgement judgement;
    judgement.verdict =
        NotApplicableVerdict("", request.revision, request.transport,
                             "recorded, not judged: the tables leave this step open in this state");
    judgement.observation = std::move(observation);
    return judgement;
  }
  return JudgeCase(Case{request, std::string(rule->check_id), rule->context},
                   std::move(observation), std::nullopt);
}

}  // namespace mcpfuzz
