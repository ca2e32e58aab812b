#pragma once
// Mutants for coverage-guided fuzzing (`fuzz --coverage`): a case that reached new code in the
// server is changed in a few places at once (AFL's "havoc"), structure-aware: members added,
// removed or replaced, strings grown, cut and edited, a read-only method swapped in, values
// taken from a second case. The new values come mostly from the server itself (strings and keys
// it wrote in its replies: a cursor, a name, an id), since a server's deeper branches test what
// it handed out.
//
// A mutant breaks no rule on purpose, so no reply rule judges it: it is held to what every
// request is, over stdio the process rules (it survives, keeps answering and writes only
// JSON-RPC: stdio.no-early-exit). Pure: the same parent, context and seed give the same mutant.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "generators/generated_case.h"

namespace mcpfuzz::gen {

/// The family name mutants are counted under.
inline constexpr std::string_view kMutantFamily = "coverage-mutants";

/// What a mutant may draw on besides its parent.
struct MutationContext {
  /// Strings and keys the server wrote, and the names the target listed: the dictionary.
  std::vector<std::string> tokens;
  /// Strings and keys of the reply to the parent itself, drawn from more often: what a server
  /// handed out for one request is what its next branches test.
  std::vector<std::string> near;
  /// Mutants may call a real tool. When false, a tools/call in a mutant must be one its parent
  /// made, by the same name (an impossible one: the parent's family calls no real tool).
  bool call_real_tools = false;
  /// Whether the target speaks the stateless era's server/discover: offered as a method then.
  bool stateless = false;
};

/// A mutant of `parent` (one request, not a sequence), with values of `donor` spliced in when
/// given; `label` names the parent in the variant ("case 17"). Nothing when every edit drawn
/// was refused (a real tool would be called, the body grew past 64 KiB, nothing changed).
std::optional<GeneratedCase> Mutate(const GeneratedCase& parent, const GeneratedCase* donor,
                                    const MutationContext& context, std::uint64_t seed,
                                    const std::string& label);

/// A mutant of the sequence `parent` (a case of the sequences family, or a mutant of one): one
/// of its requests edited as Mutate edits a case, its id kept, and marked `mutated` so that it
/// is judged by the process rules alone while every other step keeps the rule of its state.
/// Steps that make the state the others are judged in are left as they are: initialize and
/// the notifications, a request written with its cancellation, one that carries a captured
/// cursor. Nothing when no step may be edited or every edit drawn was refused.
std::optional<GeneratedCase> MutateSequence(const GeneratedCase& parent, const GeneratedCase* donor,
                                            const MutationContext& context, std::uint64_t seed,
                                            const std::string& label);

/// A member a server wrote in a reply: a string value and its key.
struct HandedOut {
  std::string key;
  std::string value;
};

/// The members of string value a reply's result holds, at most `limit`, in document order.
std::vector<HandedOut> HandedOutIn(const boost::json::value& reply, std::size_t limit = 16);

/// `parent` with `handed` sent back: a nextCursor as params.cursor, a uri or name as params'
/// own, anything else into params._meta (where any request may carry it). AFL's deterministic
/// stage, for MCP: each value a server handed out for a request goes back once. Nothing when
/// it would call a real tool or change nothing.
std::optional<GeneratedCase> WriteBack(const GeneratedCase& parent, const HandedOut& handed,
                                       const MutationContext& context, const std::string& label);

/// AFL's interesting values, for strings: `parent` with each string value in its params (up to
/// eight) at each of the lengths where buffers and limits end (0, 1, 64, 256 and 4096 bytes),
/// one mutant each.
std::vector<GeneratedCase> BoundaryMutants(const GeneratedCase& parent,
                                           const MutationContext& context,
                                           const std::string& label);

/// The strings worth keeping from a server's reply: every string value and key of 1 to 64
/// bytes, at most `limit` of them, in document order.
std::vector<std::string> TokensOf(const boost::json::value& reply, std::size_t limit = 64);

}  // namespace mcpfuzz::gen
