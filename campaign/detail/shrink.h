#pragma once
// Internal: shrinking a finding through its generator's shrink tree, re-sending each candidate
// and keeping the first that fails with the same signature.

#include <rapidcheck/Shrinkable.h>

#include <chrono>
#include <cstddef>
#include <string>

#include "campaign/detail/judging.h"
#include "generators/generated_case.h"

namespace mcpfuzz::campaign_detail {

struct Shrunk {
  GeneratedCase minimal;
  Judged judged;
  std::size_t steps = 0;
  std::size_t sends = 0;
};

struct ShrinkBudget {
  std::size_t max_sends = 200;
  std::chrono::milliseconds max_time{20000};
};

/// Greedy shrinking, as RapidCheck does it: take the first shrink of the current case that
/// still fails with `signature`, and repeat until none does or the budget is spent. Candidates
/// of another family or check id are never sent.
Shrunk ShrinkFinding(Session& session, const rc::Shrinkable<GeneratedCase>& root,
                     const GeneratedCase& original, const Judged& original_judged,
                     const std::string& signature, bool settle, const ShrinkBudget& budget);

}  // namespace mcpfuzz::campaign_detail
