#pragma once
// Internal: shrinking a finding through its generator's shrink tree, re-sending each candidate
// and keeping the first that fails with the same signature.

#include <rapidcheck/Shrinkable.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "campaign/detail/case_walk.h"
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
  /// The run's own end: once its time is up (`--time`) or a signal came, no further candidate
  /// is sent, so a finding made late cannot carry the run past its bound by a whole shrink.
  const RunLimits* run = nullptr;
  bool Stopped() const { return run != nullptr && run->Over(); }
};

struct ShrinkWalk {
  GeneratedCase minimal;
  std::size_t steps = 0;  ///< Accepted shrinks.
};

/// The greedy walk of a generator's shrink tree that every shrinker shares: take the first
/// shrink of the current case (same family and check id, a new request no longer than the
/// smallest so far) that `keeps` accepts, and repeat until none does or `spent` says stop.
/// `keeps` does the sending and keeps what it learnt.
ShrinkWalk WalkShrinkTree(const rc::Shrinkable<GeneratedCase>& root, const GeneratedCase& original,
                          const std::function<bool()>& spent,
                          const std::function<bool(const GeneratedCase&)>& keeps);

/// The same walk over several trees in lockstep: the k-th shrinks of all trees make one
/// candidate, which must pass the one-tree test in every tree. For a case drawn from one seed by
/// several generators (a differential run over HTTP and stdio draws it per transport): their
/// trees branch alike wherever the draws agree, and where they stop agreeing no candidate is
/// taken. The originals are moved in: the minimal cases when nothing shrank.
struct LockstepWalk {
  std::vector<GeneratedCase> minimal;  ///< One per tree, in the order of the roots.
  std::size_t steps = 0;
};
LockstepWalk WalkShrinkTrees(const std::vector<rc::Shrinkable<GeneratedCase>>& roots,
                             std::vector<GeneratedCase> originals,
                             const std::function<bool()>& spent,
                             const std::function<bool(const std::vector<GeneratedCase>&)>& keeps);

/// Greedy shrinking, as RapidCheck does it: take the first shrink of the current case that
/// still fails with `signature`, and repeat until none does or the budget is spent. Candidates
/// of another family or check id are never sent.
Shrunk ShrinkFinding(TargetSession& session, const rc::Shrinkable<GeneratedCase>& root,
                     const GeneratedCase& original, const Judged& original_judged,
                     const std::string& signature, bool settle, const ShrinkBudget& budget);

}  // namespace mcpfuzz::campaign_detail
