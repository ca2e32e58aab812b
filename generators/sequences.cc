// Sequences on one fresh connection (handshake era): initialize, notifications/initialized,
// ping at every point of the handshake, a second initialize asking for another version, and
// over HTTP a DELETE of the session followed by requests in it. Each step names the check and
// row it is planned to be judged by, from a small model of the state a conformant server
// would be in (oracles/sequence.h); the campaign judges each step by the state actually reached.

#include <rapidcheck.h>

#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "model/request_builder.h"
#include "oracles/sequence.h"

namespace mcpfuzz::gen {
namespace {

constexpr std::string_view kFamily = "sequences";

enum class Op { kInitialize, kInitialized, kPing, kListBeforeInit, kReinitialize, kDelete };

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
  }
  return "?";
}

// What may come next in the planned state. Over HTTP nothing is sent before a session exists
// but initialize: a session-less request only asks sessions.missing's question (and ping's 400
// there is merely tolerated).
std::vector<Op> Choices(const GenContext& context, const SequenceState& state) {
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
  return ops;
}

Request Build(const GenContext& context, Op op, int id) {
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
  }
  return {};
}

GeneratedCase Assemble(const GenContext& context, const std::vector<int>& codes) {
  GeneratedCase generated;
  generated.family = std::string(kFamily);
  SequenceState state;
  int id = 1;
  for (int code : codes) {
    const std::vector<Op> ops = Choices(context, state);
    const Op op = ops[static_cast<std::size_t>(code) % ops.size()];
    Request request = Build(context, op, id++);
    SequenceStep step;
    if (auto rule = RuleForStep(state, request)) {
      step.check_id = std::string(rule->check_id);
      step.row = std::string(rule->row);
    }
    state = PlanSequence(state, request);
    step.request = std::move(request);
    if (!generated.variant.empty()) generated.variant += ", ";
    generated.variant += Name(op);
    generated.steps.push_back(std::move(step));
  }
  const SequenceStep& last = generated.steps.back();
  generated.request = last.request;
  generated.check_id = last.check_id;
  return generated;
}

}  // namespace

rc::Gen<GeneratedCase> Sequences(const GenContext& context) {
  // Not shrunk here: a shorter list of choices can change what the last step is judged by. The
  // campaign shrinks a failing sequence by removing steps instead (campaign/detail).
  return rc::gen::noShrink(
      rc::gen::map(rc::gen::mapcat(rc::gen::inRange(1, 7),
                                   [](int length) {
                                     return rc::gen::container<std::vector<int>>(
                                         static_cast<std::size_t>(length), rc::gen::inRange(0, 60));
                                   }),
                   [context](const std::vector<int>& codes) { return Assemble(context, codes); }));
}

}  // namespace mcpfuzz::gen
