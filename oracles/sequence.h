#pragma once
// The small model a sequence of requests on one connection is judged by (model/sequence.h):
// where the handshake is, whether the HTTP session lives, and which rule of the tables each
// step is judged by in that state. Pure: the caller sends and passes what came back.
//
// The state moves on what the server answered, not on what a conformant server would have: a
// DELETE refused with 405 leaves the session live, an initialize refused opens nothing, so a
// later step is judged by the rule of the state actually reached.

#include <optional>
#include <string_view>

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
/// other than ping once initialized.
std::optional<StepRule> RuleForStep(const SequenceState& state, const Request& request);

/// The state after `request` got `observation`.
SequenceState AdvanceSequence(SequenceState state, const Request& request,
                              const Observation& observation);

/// The state a conformant server would leave: for generators planning a sequence.
SequenceState PlanSequence(SequenceState state, const Request& request);

/// Judges one step: JudgeCase by the rule of `state`, or NOT_APPLICABLE (never a finding) when
/// no rule judges it.
Judgement JudgeStep(const SequenceState& state, const Request& request, Observation observation);

}  // namespace mcpfuzz
