#include "generators/detail/sequence_ops.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>

#include "model/logging.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen::detail {
namespace {

using Steps = std::vector<OpStep>;
using Session = SequenceState::Session;

constexpr std::string_view kLists[] = {"resources/templates/list", "tools/list", "prompts/list",
                                       "resources/list"};

// A list method the target declared, for a request every server answers: an enveloped one locks
// a dual-era stdio connection to 2026-07-28 once served (tables §4b V16). Empty when none is.
std::string_view DeclaredList(const GenContext& context) {
  if (context.Declares("tools")) return "tools/list";
  if (context.Declares("prompts")) return "prompts/list";
  if (context.Declares("resources")) return "resources/list";
  return {};
}

Request Call(const GenContext& context, std::string_view method, boost::json::value id,
             boost::json::object params = {}) {
  return MakeRequest(context.revision, context.transport, method, std::move(params), std::move(id));
}

// Without a session: over HTTP it opens a session of its own (tables §9b).
Request Initialize(const GenContext& context, int id) {
  Request request = MakeInitialize(context.revision, context.transport, id);
  request.session = SessionBinding::kOmit;
  return request;
}

OpStep Step(Request request, std::string name = {}) {
  OpStep step;
  step.step.request = std::move(request);
  step.name = std::move(name);
  return step;
}

OpStep Cancellable(Request request, std::string name = {}) {
  OpStep step = Step(std::move(request), std::move(name));
  step.cancellable = true;
  return step;
}

// `first`, then a ping. After a cancellation the receiver MAY ignore (a finished request, an id
// never sent), whatever the server made of it, it must go on answering (tables §4a L9, L6); after
// logging/setLevel the ping's reply stream shows the level at work (§7 G4), after an
// unsubscribe that no update comes any more (§7 R4s), after a request with a progressToken was
// answered that no progress for it comes (§4a L10a).
Steps ThenPing(const GenContext& context, Draw& draw, Request first, std::string name = {}) {
  Steps steps;
  steps.push_back(Step(std::move(first), std::move(name)));
  steps.push_back(Cancellable(Call(context, "ping", draw.Id()), "ping"));
  return steps;
}

// A second session beside the first (HTTP): opened, DELETEd, then named (tables §9b H14a). Its
// operations take the place of every other ping drawn while the first session lives.
bool SecondSession(const GenContext& context, const Plan& plan, Session second) {
  return context.http() && plan.model.session == Session::kLive && plan.model.second == second;
}
Request InSecondSession(Request request) {
  request.session = SessionBinding::kSecond;
  return request;
}
bool Odd(std::size_t variant) { return variant % 2 == 1; }

constexpr SequenceOp kHandshakeOps[] = {
    {.name = "initialize",
     .fits = [](const GenContext&, const Plan& plan) { return !plan.Begun(); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       return {Step(Initialize(context, draw.Id()))};
     }},
    // Over HTTP nothing is sent before a session exists but initialize: a session-less request
    // only asks sessions.missing's question (and ping's 400 there is merely tolerated).
    {.name = "ping",
     .fits = [](const GenContext& context,
                const Plan& plan) { return plan.Begun() || context.stdio(); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       return {Cancellable(Call(context, "ping", draw.Id()))};
     }},
    // A request of the session's revision asking for another one (tables §4a L8a).
    {.name = "initialize again",
     .fits = [](const GenContext&, const Plan& plan) { return plan.Begun(); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       Request request = MakeInitialize(context.revision, context.transport, draw.Id());
       boost::json::object body = request.BodyJson()->as_object();
       body["params"].as_object()["protocolVersion"] =
           ToString(AnotherHandshakeRevision(context.revision));
       request.body = boost::json::value(std::move(body));
       return {Step(std::move(request))};
     }},
    {.name = "initialized",
     .fits =
         [](const GenContext&, const Plan& plan) {
           return plan.model.handshake == SequenceState::Handshake::kInitializeAnswered;
         },
     .build = [](const GenContext& context, const Plan&, Draw&) -> Steps {
       return {Step(
           MakeNotification(context.revision, context.transport, "notifications/initialized"))};
     }},
    {.name = "tools/list",
     .fits = [](const GenContext& context,
                const Plan& plan) { return plan.Begun() ? !plan.Initialized() : context.stdio(); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       return {Cancellable(Call(context, "tools/list", draw.Id()))};
     }},
    // A DELETE, then a ping in the session it ended (tables §9b H14: 404), so every DELETE
    // drawn asks that question and not only one a later code happens to follow: in the default
    // mix (one sequence in 64) that is the difference between one such case in 2,000 and a
    // few. The ping takes the id the DELETE took and left unused, and is no request a later
    // cancellation names, so the codes after it choose what they chose before.
    {.name = "DELETE",
     .fits =
         [](const GenContext& context, const Plan& plan) {
           return context.http() && plan.model.session == Session::kLive;
         },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       Steps steps;
       steps.push_back(Step(MakeBodyless(context.revision, "DELETE")));
       steps.push_back(Step(Call(context, "ping", draw.Id()), "a ping in the deleted session"));
       return steps;
     }},
    // Cancellation (tables §4a L9). In flight only over stdio: over HTTP the request's POST holds
    // the connection until it is answered, and a cancellation would need a second one. Sent with
    // the request right before it, and judged as its cancellation (§8 S5): whatever the
    // request's own rule, a cancelled request is owed no reply.
    {.name = "ping in flight",
     .fits = [](const GenContext& context,
                const Plan& plan) { return plan.Begun() && context.stdio(); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       OpStep ping = Cancellable(Call(context, "ping", draw.Id()));
       ping.step.pipelined = true;
       ping.rule = PlannedRule{};  // judged with its cancellation, at the next step
       OpStep cancellation = Step(CancellationOf(ping.step.request), "its cancellation");
       cancellation.rule = PlannedRule{check::kCancelledNoReply, "L9"};
       return {std::move(ping), std::move(cancellation)};
     }},
    {.name = "cancel an unknown id",
     .fits = [](const GenContext&, const Plan& plan) { return plan.Begun(); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       return ThenPing(context, draw, CancellationOf(Call(context, "ping", "mcpfuzz-never-sent")));
     }},
    {.name = "cancel the last request",
     .fits = [](const GenContext&,
                const Plan& plan) { return plan.Begun() && plan.finished.has_value(); },
     .build = [](const GenContext& context, const Plan& plan, Draw& draw) -> Steps {
       return ThenPing(context, draw, CancellationOf(*plan.finished));
     }},
    // A list of the method listed last asks for its next page with the cursor that list handed
    // out, twice: the second time reuses the cursor (tables §7 C2: cursors are stable).
    {.name = "list",
     .fits = [](const GenContext&, const Plan& plan) { return plan.Initialized(); },
     .build = [](const GenContext& context, const Plan& plan, Draw& draw) -> Steps {
       const std::string_view method = kLists[draw.variant % std::size(kLists)];
       if (!plan.listed || plan.listed->method != method) {
         OpStep list = Cancellable(Call(context, method, draw.Id()));
         list.lists = true;
         return {std::move(list)};
       }
       OpStep next = Cancellable(WithCursor(Call(context, method, draw.Id()), kCursorPlaceholder),
                                 "its next page");
       next.step.cursor_from = plan.listed->step;
       OpStep again = Step(WithCursor(Call(context, method, draw.Id()), kCursorPlaceholder),
                           "the same cursor again");
       again.step.cursor_from = plan.listed->step;
       again.rule = PlannedRule{check::kCursorReused, "C2"};
       return {std::move(next), std::move(again)};
     }},
    // Judged once the reply to the list handed out a cursor (tables §7 C1).
    {.name = "another list with its cursor",
     .fits = [](const GenContext&,
                const Plan& plan) { return plan.Initialized() && plan.listed.has_value(); },
     .build = [](const GenContext& context, const Plan& plan, Draw& draw) -> Steps {
       const std::string_view other = plan.listed->method == kLists[1] ? kLists[0] : kLists[1];
       OpStep step = Cancellable(WithCursor(Call(context, other, draw.Id()), kCursorPlaceholder));
       step.step.cursor_from = plan.listed->step;
       step.rule = PlannedRule{check::kInvalidCursor, "C1"};
       return {std::move(step)};
     }},
    // The connection's era is the handshake's: a 2026-07-28 request, as a client of that era
    // would send it (tables §4b V16b). Last, so that at a target not seen speaking both eras the
    // choices stay what they were.
    {.name = "an enveloped request",
     .fits =
         [](const GenContext& context, const Plan& plan) {
           return plan.Initialized() && context.stdio() && context.speaks_both_eras &&
                  !DeclaredList(context).empty();
         },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       return {Step(MakeRequest(Revision::k2026_07_28, context.transport,
                                std::string(DeclaredList(context)), {}, draw.Id()))};
     }},

    // In place of a ping, so that the sequences a seed drew before they existed stay what they
    // were.

    // Over stdio (no second session there): a ping after its answer may carry no progress for
    // the token any more (tables §4a L10a).
    {.name = "ping with a progressToken",
     .fits = [](const GenContext& context,
                const Plan& plan) { return context.stdio() && plan.Initialized(); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       const std::string token = "mcpfuzz-progress-" + std::to_string(draw.next_id);
       return ThenPing(context, draw,
                       Call(context, "ping", draw.Id(),
                            {{"_meta", {{std::string(kMetaProgressToken), token}}}}));
     },
     .in_place_of = "ping",
     .at = Odd},
    {.name = "initialize a second session",
     .fits = [](const GenContext& context,
                const Plan& plan) { return SecondSession(context, plan, Session::kNone); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       return {Step(Initialize(context, draw.Id()))};
     },
     .in_place_of = "ping",
     .at = Odd},
    {.name = "DELETE the second session",
     .fits = [](const GenContext& context,
                const Plan& plan) { return SecondSession(context, plan, Session::kLive); },
     .build = [](const GenContext& context, const Plan&, Draw&) -> Steps {
       return {Step(InSecondSession(MakeBodyless(context.revision, "DELETE")))};
     },
     .in_place_of = "ping",
     .at = Odd},
    {.name = "ping in the second session",
     .fits = [](const GenContext& context,
                const Plan& plan) { return SecondSession(context, plan, Session::kEnded); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       return {Step(InSecondSession(Call(context, "ping", draw.Id())))};
     },
     .in_place_of = "ping",
     .at = Odd},
    // Then a ping whose reply stream is judged by the level set (tables §7 G4).
    {.name = "logging/setLevel",
     .fits =
         [](const GenContext& context, const Plan& plan) {
           return plan.Initialized() && context.Declares("logging") && plan.SessionLive(context);
         },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       // The level comes from the step's place, so that the seeds' draws stay what they were.
       const std::string_view level =
           kLogLevels[(draw.variant / 4 + static_cast<std::size_t>(draw.next_id) * 3) %
                      kLogLevels.size()];
       return ThenPing(context, draw,
                       Call(context, "logging/setLevel", draw.Id(), {{"level", level}}),
                       "logging/setLevel \"" + std::string(level) + "\"");
     },
     .in_place_of = "ping",
     .at = [](std::size_t variant) { return variant % 4 == 2; }},
    // A URI the target listed: subscribe, unsubscribe, then a ping (tables §7 R4s).
    {.name = "resources/subscribe",
     .fits =
         [](const GenContext& context, const Plan& plan) {
           return plan.Initialized() && context.DeclaresFlag("resources", "subscribe") &&
                  !context.resource_uris.empty() && plan.SessionLive(context);
         },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       const std::string& uri =
           context.resource_uris[(draw.variant / 4 + static_cast<std::size_t>(draw.next_id)) %
                                 context.resource_uris.size()];
       Steps steps;
       steps.push_back(Step(Call(context, "resources/subscribe", draw.Id(), {{"uri", uri}}),
                            "resources/subscribe " + uri));
       for (OpStep& step : ThenPing(
                context, draw, Call(context, "resources/unsubscribe", draw.Id(), {{"uri", uri}}),
                "resources/unsubscribe")) {
         steps.push_back(std::move(step));
       }
       return steps;
     },
     .in_place_of = "ping",
     .at = [](std::size_t variant) { return variant % 4 == 0 && variant > 0; }},
};

// 2026-07-28 over stdio (tables §4b V16a): the era of the connection is locked by an enveloped
// list served (server/discover before it locks nothing), and an envelope-less initialize of a
// handshake revision must then be refused.
bool Locked(const Plan& plan) { return plan.model.era == SequenceState::EraLock::kStateless; }

constexpr SequenceOp kEraLockOps[] = {
    {.name = "server/discover",
     .fits = [](const GenContext&, const Plan& plan) { return !Locked(plan); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       return {Step(Call(context, "server/discover", draw.Id()))};
     }},
    // The family runs in this lane only where the target declared a list.
    {.name = "an enveloped list",
     .fits = [](const GenContext&, const Plan&) { return true; },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       return {Step(Call(context, DeclaredList(context), draw.Id()))};
     }},
    // What a handshake-era client sends, on the connection of this lane's era.
    {.name = "initialize",
     .fits = [](const GenContext&, const Plan& plan) { return Locked(plan); },
     .build = [](const GenContext& context, const Plan&, Draw& draw) -> Steps {
       constexpr Revision kHandshakeRevisions[] = {Revision::k2024_11_05, Revision::k2025_03_26,
                                                   Revision::k2025_06_18, Revision::k2025_11_25};
       Request request =
           MakeInitialize(kHandshakeRevisions[draw.variant % std::size(kHandshakeRevisions)],
                          context.transport, draw.Id());
       request.revision = context.revision;
       return {Step(std::move(request))};
     },
     .ends = true},
};

// Checked when the tables compile: a name is how `in_place_of` and the family's endings find an
// operation, and one drawn in place of another names a choice and the variants it takes.
constexpr bool WellFormed(std::span<const SequenceOp> ops) {
  auto named = [&](std::string_view name) {
    return std::count_if(ops.begin(), ops.end(), [&](const SequenceOp& op) {
      return op.name == name && op.in_place_of.empty();
    });
  };
  return std::all_of(ops.begin(), ops.end(), [&](const SequenceOp& op) {
    const bool unique = std::count_if(ops.begin(), ops.end(), [&](const SequenceOp& other) {
                          return other.name == op.name;
                        }) == 1;
    const bool drawn =
        op.in_place_of.empty() ? op.at == nullptr : named(op.in_place_of) == 1 && op.at != nullptr;
    return unique && drawn && op.fits != nullptr && op.build != nullptr;
  });
}
static_assert(WellFormed(kHandshakeOps) && WellFormed(kEraLockOps));

}  // namespace

std::span<const SequenceOp> HandshakeOps() { return kHandshakeOps; }
std::span<const SequenceOp> EraLockOps() { return kEraLockOps; }

const SequenceOp& OpNamed(std::span<const SequenceOp> ops, std::string_view name) {
  return *std::find_if(ops.begin(), ops.end(),
                       [&](const SequenceOp& op) { return op.name == name; });
}

}  // namespace mcpfuzz::gen::detail
