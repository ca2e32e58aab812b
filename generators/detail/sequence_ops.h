#pragma once
// Internal: the operations of the sequences family, one unit each, shaped like RapidCheck's
// rc::state::Command (include/rapidcheck/state/Command.h): whether it fits the planned state
// (checkPreconditions), the steps it builds (run) and its name (show). How a step advances the
// planned state (nextState) is not written per operation: it is the model's PlanSequence
// (oracles/sequence.h), the transition the campaign judges by once the replies came, applied to
// every step built. An operation adds only what the model cannot know, as marks on its steps:
// the request a later cancellation may name, the list whose cursor a later list carries.
//
// There is no system under test here (a sequence is generated whole and sent by the campaign), so
// an operation builds requests instead of running them. The family draws from two tables (the
// handshake era; 2026-07-28 over stdio): a new operation is one entry there.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "generators/generated_case.h"
#include "model/sequence.h"
#include "oracles/sequence.h"

namespace mcpfuzz::gen::detail {

/// The planned state: what a conformant server would be in after the steps planned so far, and
/// what the generator remembers of them.
struct Plan {
  SequenceState model;
  /// The id the next operation's first request takes.
  int next_id = 1;
  /// The last request a notifications/cancelled may name once it was answered.
  std::optional<Request> finished;
  /// The last list whose reply's nextCursor a later list carries: its step and method.
  struct Listed {
    std::size_t step = 0;
    std::string method;
  };
  std::optional<Listed> listed;

  bool Begun() const { return model.handshake != SequenceState::Handshake::kFresh; }
  bool Initialized() const { return model.handshake == SequenceState::Handshake::kInitialized; }
  /// HTTP: the first session lives (over stdio the connection is the session).
  bool SessionLive(const GenContext& context) const {
    return context.stdio() || model.session == SequenceState::Session::kLive;
  }
};

/// What the codes drew for one operation: its variant, and the ids its requests take in turn.
struct Draw {
  std::size_t variant = 0;
  int next_id = 1;
  int Id() { return next_id++; }
};

/// The check and table row a step is planned to be judged by; an empty check names none.
struct PlannedRule {
  std::string_view check_id;
  std::string_view row;
};

/// A step an operation builds.
struct OpStep {
  /// Its check_id and row are filled in as the planned state judges the request (RuleForStep),
  /// unless `rule` holds one.
  SequenceStep step;
  /// For people, in the case's variant; empty: the operation's name.
  std::string name;
  /// The rule, when the operation knows it better than the planned state: a cursor an earlier
  /// reply hands out, a cancellation written with its request.
  std::optional<PlannedRule> rule;
  /// A request a later notifications/cancelled may name once it is answered (tables §4a L9): not
  /// initialize (a client MUST NOT cancel it), nor one of the other era or another session.
  bool cancellable = false;
  /// A list whose reply's nextCursor later lists carry (tables §7 C1, C2).
  bool lists = false;
};

/// One operation.
struct SequenceOp {
  /// Unique within its table: how the case's variant calls its steps that are not named, and
  /// how `in_place_of` finds it.
  std::string_view name = {};
  /// Whether it fits the planned state and the target.
  bool (*fits)(const GenContext& context, const Plan& plan) = nullptr;
  /// The steps it sends, in order. Every operation takes an id, used or not, and more from `draw`.
  std::vector<OpStep> (*build)(const GenContext& context, const Plan& plan, Draw& draw) = nullptr;
  /// Non-empty: drawn in place of the operation so named, at the variants `at` takes, where it
  /// fits; not among the choices. An operation added after a seed's draws were fixed takes a
  /// share of an existing one's draws, so every other draw of the seed stays what it was.
  std::string_view in_place_of = {};
  bool (*at)(std::size_t variant) = nullptr;
  /// Nothing is drawn after it: the sequence ends on it.
  bool ends = false;
};

/// The handshake era: initialize, initialized, ping, lists, cancellations, DELETE, a second
/// session, logging/setLevel, a subscription, progress, an enveloped request. The order is the
/// choices' order: the code modulo the number that fit picks one.
std::span<const SequenceOp> HandshakeOps();

/// 2026-07-28 over stdio (tables §4b V16a): server/discover, an enveloped list that locks the
/// connection's era, then initialize.
std::span<const SequenceOp> EraLockOps();

/// The operation of `ops` named `name` (one that is there).
const SequenceOp& OpNamed(std::span<const SequenceOp> ops, std::string_view name);

}  // namespace mcpfuzz::gen::detail
