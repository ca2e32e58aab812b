#pragma once
// Internal: one sequence (model/sequence.h) sent step by step on a fresh connection, each step
// judged by the rule of the state it met (oracles/sequence.h); and a failing sequence shrunk by
// removing steps.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "campaign/detail/judging.h"
#include "campaign/detail/shrink.h"
#include "model/sequence.h"
#include "transport/session.h"

namespace mcpfuzz::campaign_detail {

struct SequenceRun {
  /// One judgement per step sent; sending stops after the first finding.
  std::vector<Judged> steps;
  /// The first step that is a finding.
  std::optional<std::size_t> failing;
  /// Why nothing was sent (the connection could not be made).
  std::string error;
  /// What the server's coverage agent said the sequence ran, when asked (`take_coverage`):
  /// taken once every step was sent, on the sequence's own connection.
  std::optional<Result<TargetSession::CoverageReply>> coverage;
  const Judged* finding() const { return failing ? &steps[*failing] : nullptr; }
};

/// Opens a fresh connection on `link` and sends `sequence` on it in order, each step exactly
/// as it is (no sentinel: every message is part of what is judged). Each step is judged by the
/// rule of the state it meets, a mutated one by its own check (SequenceStep::mutated). Over
/// HTTP the Mcp-Session-Id of the first reply that carries one is attached to the later steps
/// that ask for the session; a session still live at the end is ended with DELETE (not
/// judged). With `take_coverage`, the server's coverage agent is asked last (`all`: every
/// block that ran, new or not).
SequenceRun RunSequence(TargetLink& link, const Sequence& sequence, bool take_coverage = false,
                        bool all = false);

struct ShrunkSequence {
  Sequence minimal;
  Judged judged;
  std::size_t steps = 0;  ///< Accepted removals.
  std::size_t sends = 0;  ///< Sequences sent while shrinking.
};

/// Drops the steps after the failing one, then removes one other step at a time, keeping a
/// removal when the shorter sequence still fails with `signature` (at any step), until no
/// single removal does or the budget (sequences sent, time, a signal) is spent.
ShrunkSequence ShrinkSequence(TargetLink& link, const Sequence& sequence, const SequenceRun& run,
                              const std::string& signature, const ShrinkBudget& budget);

}  // namespace mcpfuzz::campaign_detail
