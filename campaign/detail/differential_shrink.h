#pragma once
// Internal: sending one case to every target of a differential run, and shrinking a
// disagreement to the smallest case whose answers keep the same tuple.

#include <rapidcheck/Shrinkable.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "campaign/detail/shrink.h"
#include "campaign/differential.h"
#include "generators/generated_case.h"
#include "transport/session.h"

namespace mcpfuzz::campaign_detail {

/// Every target's answer to one case, and the oracle's verdict on it, in target order.
struct DiffSides {
  std::vector<DiffAnswer> answers;
  std::vector<Verdict> verdicts;
  /// Some answer differs from the first.
  bool Disagree() const;
  /// The tuple of answers as text: what makes two disagreements of one check the same.
  std::string Key() const;
};

/// The answer `judged` stands for. `with_status`: keep the HTTP status (not when transports mix).
DiffAnswer AnswerOf(const Judged& judged, bool with_status);

/// Sends cases[t] on sessions[t] for every target t, and judges each answer.
DiffSides SendToAll(const std::vector<std::unique_ptr<TargetSession>>& sessions,
                    const std::vector<const GeneratedCase*>& cases, bool mixed_transports);

struct DiffShrunk {
  /// Per tree (one per transport): target t's is minimal[tree_of[t]].
  std::vector<GeneratedCase> minimal;
  DiffSides sides;
  std::size_t steps = 0;
  std::size_t sends = 0;
};

/// Greedy shrinking as ShrinkFinding does it, with "the same tuple of answers from every
/// target" as the property kept. One tree per transport (`roots`, `originals`), walked in
/// lockstep when HTTP and stdio mix (WalkShrinkTrees); target t is sent tree `tree_of[t]`'s
/// case, so six targets on one transport hold one candidate, not six (a case may be megabytes).
/// The originals are moved in: the minimal cases when nothing shrank.
DiffShrunk ShrinkDisagreement(const std::vector<std::unique_ptr<TargetSession>>& sessions,
                              const std::vector<std::size_t>& tree_of,
                              const std::vector<rc::Shrinkable<GeneratedCase>>& roots,
                              std::vector<GeneratedCase> originals, const DiffSides& original_sides,
                              bool mixed_transports, const ShrinkBudget& budget);

}  // namespace mcpfuzz::campaign_detail
