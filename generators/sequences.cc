// Sequences on one fresh connection (handshake era): initialize, notifications/initialized,
// ping at every point of the handshake, a second initialize asking for another version, and
// over HTTP a DELETE of the session followed by requests in it; once initialized, a list and
// a list of another method carrying the nextCursor the first handed out, and the same list's next
// page asked for twice with that cursor; cancellations (of a ping still in flight over stdio, of a
// finished request, of an id never sent, each of the last two followed by a ping that must still
// be answered); over stdio a ping with a progressToken and a ping after its answer; where the
// target declared logging, logging/setLevel and a ping whose reply shows the level at work; where
// it declared resources.subscribe, a resource's subscribe, its unsubscribe and a ping; over stdio
// at a target speaking both eras, an enveloped request once initialized; over HTTP a second
// session opened beside the first, DELETEd, and a request naming it (the first must live on:
// sessions are isolated). In 2026-07-28 over stdio: server/discover, an enveloped list that locks
// the connection's era, then an envelope-less initialize (tables §4b V16a, V16b). Each step names
// the check and row it is planned to be judged by, from a small model of the state a conformant
// server would be in (oracles/sequence.h); the campaign judges each step by the state actually
// reached.

#include <rapidcheck.h>

#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "model/logging.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"
#include "oracles/sequence.h"

namespace mcpfuzz::gen {
namespace {

constexpr std::string_view kFamily = "sequences";

enum class Op {
  kInitialize,
  kInitialized,
  kPing,
  kListBeforeInit,
  kReinitialize,
  kDelete,
  kList,
  kForeignCursor,
  kCancelInFlight,
  kCancelFinished,
  kCancelUnknown,
  kEnvelopedRequest,
  kOpenSecond,
  kDeleteSecond,
  kInSecond,
  kSetLevel,
  kSubscribe,
  kProgress,
};

constexpr std::string_view kLists[] = {"resources/templates/list", "tools/list", "prompts/list",
                                       "resources/list"};

std::string_view Name(Op op) {
  switch (op) {
    case Op::kInitialize:
      return "initialize";
    case Op::kInitialized:
      return "initialized";
    case Op::kPing:
      return "ping";
    case Op::kListBeforeInit:
      return "tools/list";
    case Op::kReinitialize:
      return "initialize again";
    case Op::kDelete:
      return "DELETE";
    case Op::kList:
      return "list";
    case Op::kForeignCursor:
      return "another list with its cursor";
    case Op::kCancelInFlight:
      return "ping in flight";
    case Op::kCancelFinished:
      return "cancel the last request";
    case Op::kCancelUnknown:
      return "cancel an unknown id";
    case Op::kEnvelopedRequest:
      return "an enveloped request";
    case Op::kOpenSecond:
      return "initialize a second session";
    case Op::kDeleteSecond:
      return "DELETE the second session";
    case Op::kInSecond:
      return "ping in the second session";
    case Op::kSetLevel:
      return "logging/setLevel";
    case Op::kSubscribe:
      return "resources/subscribe";
    case Op::kProgress:
      return "ping with a progressToken";
  }
  return "?";
}

// A list method the target declared, for a request every server answers: an enveloped one locks
// a dual-era stdio connection to 2026-07-28 once served (tables §4b V16). Empty when none is.
std::string_view DeclaredList(const GenContext& context) {
  if (context.Declares("tools")) return "tools/list";
  if (context.Declares("prompts")) return "prompts/list";
  if (context.Declares("resources")) return "resources/list";
  return {};
}

// What may come next in the planned state. Over HTTP nothing is sent before a session exists
// but initialize: a session-less request only asks sessions.missing's question (and ping's 400
// there is merely tolerated).
// `answered`: an earlier step was a request, so its id names a finished request.
std::vector<Op> Choices(const GenContext& context, const SequenceState& state, bool listed,
                        bool answered) {
  using Handshake = SequenceState::Handshake;
  using Session = SequenceState::Session;
  if (state.handshake == Handshake::kFresh) {
    if (context.http()) return {Op::kInitialize};
    return {Op::kInitialize, Op::kPing, Op::kListBeforeInit};
  }
  std::vector<Op> ops = {Op::kPing, Op::kReinitialize};
  if (state.handshake == Handshake::kInitializeAnswered) {
    ops.push_back(Op::kInitialized);
    ops.push_back(Op::kListBeforeInit);
  }
  if (context.http() && state.session == Session::kLive) ops.push_back(Op::kDelete);
  // Cancellation (tables §4a L9). In flight only over stdio: over HTTP the request's POST holds
  // the connection until it is answered, and a cancellation would need a second one.
  if (!context.http()) ops.push_back(Op::kCancelInFlight);
  ops.push_back(Op::kCancelUnknown);
  if (answered) ops.push_back(Op::kCancelFinished);
  if (state.handshake == Handshake::kInitialized) {
    ops.push_back(Op::kList);
    if (listed) ops.push_back(Op::kForeignCursor);
    // Last, so that at a target not seen speaking both eras the choices stay what they were.
    if (context.stdio() && context.speaks_both_eras && !DeclaredList(context).empty()) {
      ops.push_back(Op::kEnvelopedRequest);
    }
  }
  return ops;
}

// A second session beside the first (HTTP): opened, DELETEd, then named. It takes the place of
// every other ping drawn while the first session lives, so that the other choices, and the
// sequences a seed drew before it existed, stay what they were.
std::optional<Op> SecondSessionOp(const GenContext& context, const SequenceState& state) {
  using Session = SequenceState::Session;
  if (!context.http() || state.session != Session::kLive) return std::nullopt;
  switch (state.second) {
    case Session::kNone:
      return Op::kOpenSecond;
    case Session::kLive:
      return Op::kDeleteSecond;
    case Session::kEnded:
      return Op::kInSecond;
  }
  return std::nullopt;
}

// logging/setLevel, then a ping whose reply stream is judged by the level set (tables §7 G4). It
// takes the place of every fourth ping drawn once initialized where the target declared logging,
// for the same reason as SecondSessionOp.
bool SetLevelFits(const GenContext& context, const SequenceState& state) {
  using Session = SequenceState::Session;
  return state.handshake == SequenceState::Handshake::kInitialized && context.Declares("logging") &&
         (context.stdio() || state.session == Session::kLive);
}

// resources/subscribe of a URI the target listed, its resources/unsubscribe, then a ping (tables
// §7 R4s). It takes the place of the pings SetLevelFits leaves, at every fourth variant, where
// the target declared resources.subscribe.
bool SubscribeFits(const GenContext& context, const SequenceState& state) {
  return state.handshake == SequenceState::Handshake::kInitialized &&
         context.DeclaresFlag("resources", "subscribe") && !context.resource_uris.empty() &&
         (context.stdio() || state.session == SequenceState::Session::kLive);
}

bool IsInitializeOp(Op op) {
  return op == Op::kInitialize || op == Op::kReinitialize || op == Op::kOpenSecond;
}

// `list` names the list method for kList and kForeignCursor (whose method is another one).
Request Build(const GenContext& context, Op op, int id, std::string_view list) {
  switch (op) {
    case Op::kInitialize: {
      Request request = MakeInitialize(context.revision, context.transport, id);
      request.session = SessionBinding::kOmit;
      return request;
    }
    case Op::kReinitialize: {
      // A request of the session's revision asking for another one (tables §4a L8a).
      Request request = MakeInitialize(context.revision, context.transport, id);
      boost::json::object body = request.BodyJson()->as_object();
      body["params"].as_object()["protocolVersion"] =
          ToString(AnotherHandshakeRevision(context.revision));
      request.body = boost::json::value(std::move(body));
      return request;
    }
    case Op::kInitialized:
      return MakeNotification(context.revision, context.transport, "notifications/initialized");
    case Op::kPing:
      return MakeRequest(context.revision, context.transport, "ping", {}, id);
    case Op::kListBeforeInit:
      return MakeRequest(context.revision, context.transport, "tools/list", {}, id);
    case Op::kDelete:
      return MakeBodyless(context.revision, "DELETE");
    case Op::kList:
      return MakeRequest(context.revision, context.transport, std::string(list), {}, id);
    case Op::kForeignCursor: {
      const std::string_view other = list == kLists[1] ? kLists[0] : kLists[1];
      return WithCursor(
          MakeRequest(context.revision, context.transport, std::string(other), {}, id),
          kCursorPlaceholder);
    }
    case Op::kCancelInFlight:
      return MakeRequest(context.revision, context.transport, "ping", {}, id);
    case Op::kEnvelopedRequest:
      // The connection's era is the handshake's: a 2026-07-28 request, as a client of that era
      // would send it (tables §4b V16b).
      return MakeRequest(Revision::k2026_07_28, context.transport,
                         std::string(DeclaredList(context)), {}, id);
    case Op::kOpenSecond: {
      // Without a session: over HTTP it opens a session of its own (tables §9b).
      Request request = MakeInitialize(context.revision, context.transport, id);
      request.session = SessionBinding::kOmit;
      return request;
    }
    case Op::kDeleteSecond: {
      Request request = MakeBodyless(context.revision, "DELETE");
      request.session = SessionBinding::kSecond;
      return request;
    }
    case Op::kInSecond: {
      Request request = MakeRequest(context.revision, context.transport, "ping", {}, id);
      request.session = SessionBinding::kSecond;
      return request;
    }
    case Op::kCancelFinished:
    case Op::kCancelUnknown:
    case Op::kSetLevel:
    case Op::kSubscribe:
    case Op::kProgress:
      break;  // several steps: Assemble builds them
  }
  return {};
}

// `first`, then a ping. After a cancellation the receiver MAY ignore (a finished request, an id
// never sent), whatever the server made of it, it must go on answering (tables §4a L9, L6); after
// logging/setLevel, the ping's reply stream shows the level at work (§7 G4).
std::vector<SequenceStep> ThenPing(const GenContext& context, const SequenceState& state,
                                   Request first, int ping_id) {
  std::vector<SequenceStep> steps(2);
  steps[0].request = std::move(first);
  const Request ping = MakeRequest(context.revision, context.transport, "ping", {}, ping_id);
  const SequenceState after = PlanSequence(state, steps[0].request);
  steps[1].request = ping;
  for (std::size_t k = 0; k < 2; ++k) {
    if (auto rule = RuleForStep(k == 0 ? state : after, steps[k].request)) {
      steps[k].check_id = std::string(rule->check_id);
      steps[k].row = std::string(rule->row);
    }
  }
  return steps;
}

GeneratedCase Assemble(const GenContext& context, const std::vector<int>& codes) {
  GeneratedCase generated;
  generated.family = std::string(kFamily);
  SequenceState state;
  int id = 1;
  // The last list step: the cursor a kForeignCursor step carries comes from its reply.
  std::optional<std::size_t> listed;
  std::string_view listed_method;
  std::vector<std::string> names;
  // The last request sent (its id names a finished request for kCancelFinished).
  std::optional<Request> last_request;
  // `first` and a ping after it (ThenPing), named `name` and "ping".
  auto add_then_ping = [&](Request first, std::string name) {
    for (SequenceStep& step : ThenPing(context, state, std::move(first), id)) {
      state = PlanSequence(state, step.request);
      generated.steps.push_back(std::move(step));
    }
    last_request = generated.steps.back().request;
    ++id;
    names.push_back(std::move(name));
    names.emplace_back("ping");
  };
  for (int code : codes) {
    const std::vector<Op> ops =
        Choices(context, state, listed.has_value(), last_request.has_value());
    const auto index = static_cast<std::size_t>(code);
    Op op = ops[index % ops.size()];
    const std::size_t variant = index / ops.size();
    if (op == Op::kPing && variant % 2 == 1) {
      // Over stdio (no second session there): a request with a progressToken, then a ping after
      // its answer, which may carry no progress for that token any more (tables §4a L10a).
      const bool progress =
          context.stdio() && state.handshake == SequenceState::Handshake::kInitialized;
      op = progress ? Op::kProgress : SecondSessionOp(context, state).value_or(op);
    } else if (op == Op::kPing && variant % 4 == 2 && SetLevelFits(context, state)) {
      op = Op::kSetLevel;
    } else if (op == Op::kPing && variant % 4 == 0 && variant > 0 &&
               SubscribeFits(context, state)) {
      op = Op::kSubscribe;
    }
    if (op == Op::kProgress) {
      const std::string token = "mcpfuzz-progress-" + std::to_string(id);
      add_then_ping(MakeRequest(context.revision, context.transport, "ping",
                                {{"_meta", {{std::string(kMetaProgressToken), token}}}}, id++),
                    "ping with a progressToken");
      continue;
    }
    if (op == Op::kSubscribe) {
      const std::string& uri = context.resource_uris[(variant / 4 + static_cast<std::size_t>(id)) %
                                                     context.resource_uris.size()];
      const Request subscribe = MakeRequest(context.revision, context.transport,
                                            "resources/subscribe", {{"uri", uri}}, id++);
      SequenceStep first{subscribe, "", "", std::nullopt};
      state = PlanSequence(state, subscribe);
      generated.steps.push_back(std::move(first));
      names.push_back("resources/subscribe " + uri);
      add_then_ping(MakeRequest(context.revision, context.transport, "resources/unsubscribe",
                                {{"uri", uri}}, id++),
                    "resources/unsubscribe");
      continue;
    }
    if (op == Op::kSetLevel) {
      // The level comes from the step's place, so that the seeds' draws stay what they were.
      const std::string_view level =
          kLogLevels[(variant / 4 + static_cast<std::size_t>(id) * 3) % kLogLevels.size()];
      add_then_ping(MakeRequest(context.revision, context.transport, "logging/setLevel",
                                {{"level", level}}, id++),
                    "logging/setLevel \"" + std::string(level) + "\"");
      continue;
    }
    if (op == Op::kCancelFinished || op == Op::kCancelUnknown) {
      const Request named =
          op == Op::kCancelFinished
              ? *last_request
              : MakeRequest(context.revision, context.transport, "ping", {}, "mcpfuzz-never-sent");
      add_then_ping(CancellationOf(named),
                    op == Op::kCancelFinished ? "cancel the last request" : "cancel an unknown id");
      continue;
    }
    const std::string_view list =
        op == Op::kList ? kLists[index / ops.size() % std::size(kLists)] : listed_method;
    // A list of the method listed last asks for its next page with the cursor that list handed
    // out, twice: the second time reuses the cursor (tables §7 C2: cursors are stable). So the
    // draws stay what they were: they were plain lists, which nothing judges.
    const bool next_page = op == Op::kList && listed && list == listed_method;
    Request request = Build(context, op, id++, list);
    if (next_page) request = WithCursor(std::move(request), kCursorPlaceholder);
    SequenceStep step;
    if (auto rule = RuleForStep(state, request)) {
      step.check_id = std::string(rule->check_id);
      step.row = std::string(rule->row);
    }
    if (op == Op::kForeignCursor) {
      // The model judges it once the reply to step `listed` handed out a cursor.
      step.check_id = std::string(check::kInvalidCursor);
      step.row = "C1";
      step.cursor_from = listed;
    }
    if (op == Op::kCancelInFlight) {
      // Judged with its cancellation, at the next step.
      step.check_id.clear();
      step.row.clear();
    }
    if (next_page) {
      step.cursor_from = listed;
    } else if (op == Op::kList) {
      listed = generated.steps.size();
      listed_method = list;
    }
    state = PlanSequence(state, request);
    // A client MUST NOT cancel initialize (tables §4a L9): only a later request is named.
    // Nor the enveloped request: its cancellation would be of the other era too.
    if (!request.IsNotification() && request.BodyJson() && !IsInitializeOp(op) &&
        op != Op::kEnvelopedRequest && request.session != SessionBinding::kSecond) {
      last_request = request;
    }
    step.pipelined = op == Op::kCancelInFlight;
    step.request = std::move(request);
    names.emplace_back(next_page ? "its next page" : Name(op));
    generated.steps.push_back(std::move(step));
    if (next_page) {
      SequenceStep again = generated.steps.back();
      again.request = WithCursor(Build(context, op, id++, list), kCursorPlaceholder);
      again.check_id = std::string(check::kCursorReused);
      again.row = "C2";
      state = PlanSequence(state, again.request);
      names.emplace_back("the same cursor again");
      generated.steps.push_back(std::move(again));
    }
    if (op == Op::kCancelInFlight) {
      // Sent with the request right before it, and judged as its cancellation (tables §4a L9,
      // §8 S5): whatever the request's own rule, a cancelled request is owed no reply.
      SequenceStep cancellation;
      cancellation.request = CancellationOf(generated.steps.back().request);
      cancellation.check_id = std::string(check::kCancelledNoReply);
      cancellation.row = "L9";
      state = PlanSequence(state, cancellation.request);
      names.push_back("its cancellation");
      generated.steps.push_back(std::move(cancellation));
    }
  }
  // A step no rule judges can fail nothing, so trailing ones are left out and the case names
  // the check of its last step (the first step always has one: initialize, ping or L4).
  while (generated.steps.size() > 1 && generated.steps.back().check_id.empty()) {
    generated.steps.pop_back();
    names.pop_back();
  }
  for (const std::string& name : names) {
    if (!generated.variant.empty()) generated.variant += ", ";
    generated.variant += name;
  }
  const SequenceStep& last = generated.steps.back();
  generated.request = last.request;
  generated.check_id = last.check_id;
  return generated;
}

// 2026-07-28 over stdio (tables §4b V16a): the era of the connection is locked by an enveloped
// list served (server/discover before it locks nothing), and an envelope-less initialize of a
// handshake revision must then be refused. The codes choose discovers and locks in between; the
// sequence always ends on the initialize, after a lock.
enum class EraOp { kDiscover, kLock, kInitialize };

SequenceStep EraStep(const GenContext& context, const SequenceState& state, EraOp op, int id,
                     int code) {
  SequenceStep step;
  switch (op) {
    case EraOp::kDiscover:
      step.request = MakeRequest(context.revision, context.transport, "server/discover", {}, id);
      break;
    case EraOp::kLock:
      step.request = MakeRequest(context.revision, context.transport,
                                 std::string(DeclaredList(context)), {}, id);
      break;
    case EraOp::kInitialize: {
      // What a handshake-era client sends, on the connection of this lane's era.
      constexpr Revision kHandshakeRevisions[] = {Revision::k2024_11_05, Revision::k2025_03_26,
                                                  Revision::k2025_06_18, Revision::k2025_11_25};
      const auto pick = static_cast<std::size_t>(code) % std::size(kHandshakeRevisions);
      step.request = MakeInitialize(kHandshakeRevisions[pick], context.transport, id);
      step.request.revision = context.revision;
      break;
    }
  }
  if (auto rule = RuleForStep(state, step.request)) {
    step.check_id = std::string(rule->check_id);
    step.row = std::string(rule->row);
  }
  return step;
}

GeneratedCase AssembleEraLock(const GenContext& context, const std::vector<int>& codes) {
  using EraLock = SequenceState::EraLock;
  GeneratedCase generated;
  generated.family = std::string(kFamily);
  SequenceState state;
  int id = 1;
  std::vector<std::string_view> names;
  auto add = [&](EraOp op, int code) {
    SequenceStep step = EraStep(context, state, op, id++, code);
    state = PlanSequence(state, step.request);
    names.push_back(op == EraOp::kDiscover ? "server/discover"
                    : op == EraOp::kLock   ? "an enveloped list"
                                           : "initialize");
    generated.steps.push_back(std::move(step));
  };
  for (int code : codes) {
    const bool locked = state.era == EraLock::kStateless;
    const EraOp op = locked ? (code % 2 == 0 ? EraOp::kLock : EraOp::kInitialize)
                            : (code % 2 == 0 ? EraOp::kDiscover : EraOp::kLock);
    add(op, code / 2);
    if (op == EraOp::kInitialize) break;
  }
  if (state.era != EraLock::kStateless) add(EraOp::kLock, 0);
  if (generated.steps.back().check_id != check::kInitializeAfterEraLock) {
    add(EraOp::kInitialize, codes.front());
  }
  for (std::string_view name : names) {
    if (!generated.variant.empty()) generated.variant += ", ";
    generated.variant += name;
  }
  generated.request = generated.steps.back().request;
  generated.check_id = generated.steps.back().check_id;
  return generated;
}

}  // namespace

rc::Gen<GeneratedCase> Sequences(const GenContext& context) {
  // Not shrunk here: a shorter list of choices can change what the last step is judged by. The
  // campaign shrinks a failing sequence by removing steps instead (campaign/detail).
  return rc::gen::noShrink(rc::gen::map(
      rc::gen::mapcat(rc::gen::inRange(1, 7),
                      [](int length) {
                        return rc::gen::container<std::vector<int>>(
                            static_cast<std::size_t>(length), rc::gen::inRange(0, 60));
                      }),
      [context](const std::vector<int>& codes) {
        return context.stateless() ? AssembleEraLock(context, codes) : Assemble(context, codes);
      }));
}

}  // namespace mcpfuzz::gen
