#include "campaign/detail/shrink.h"

#include <rapidcheck.h>

#include <utility>

namespace mcpfuzz::campaign_detail {

namespace {

// The next shrink of one tree as a value, or nothing when its sequence ends or fails; a shrink
// its generator cannot produce counts as "no candidate here" (`value` stays empty).
struct Next {
  bool ended = false;
  rc::Maybe<rc::Shrinkable<GeneratedCase>> shrinkable;
  rc::Maybe<GeneratedCase> value;
};

Next NextShrink(rc::Seq<rc::Shrinkable<GeneratedCase>>& candidates) {
  Next next;
  try {
    next.shrinkable = candidates.next();
  } catch (...) {
    next.ended = true;  // The shrink sequence itself failed: keep what was found.
    return next;
  }
  if (!next.shrinkable) {
    next.ended = true;
    return next;
  }
  try {
    next.value = next.shrinkable->value();
  } catch (...) {
  }
  return next;
}

// Only simpler AND no longer: a simpler template can be wordier (server/discover for
// tools/list), and a minimal case should be the smallest one found.
bool Acceptable(const GeneratedCase& candidate, const GeneratedCase& original,
                const GeneratedCase& minimal) {
  return candidate.family == original.family && candidate.check_id == original.check_id &&
         !(candidate.request == minimal.request) &&
         candidate.request.WireSize() <= minimal.request.WireSize();
}

// The walk on the trees of `originals`, which are looked at, never copied, while the walk goes:
// a case may be a body of megabytes, and the walk's candidates are as large.
LockstepWalk Walk(const std::vector<rc::Shrinkable<GeneratedCase>>& roots,
                  const std::vector<const GeneratedCase*>& originals,
                  const std::function<bool()>& spent,
                  const std::function<bool(const std::vector<GeneratedCase>&)>& keeps) {
  LockstepWalk walk;
  // Empty until a shrink is kept: the smallest so far are the originals.
  std::vector<GeneratedCase>& found = walk.minimal;
  std::vector<rc::Shrinkable<GeneratedCase>> current = roots;
  bool improved = true;
  while (improved && !spent()) {
    improved = false;
    std::vector<rc::Seq<rc::Shrinkable<GeneratedCase>>> candidates;
    for (const auto& node : current) candidates.push_back(node.shrinks());
    for (bool ended = false; !ended && !spent();) {
      std::vector<rc::Shrinkable<GeneratedCase>> nodes;
      std::vector<GeneratedCase> values;
      bool acceptable = true;
      for (std::size_t t = 0; t < candidates.size(); ++t) {
        Next next = NextShrink(candidates[t]);
        ended = ended || next.ended;
        if (next.ended) break;
        const GeneratedCase& smallest = found.empty() ? *originals[t] : found[t];
        acceptable = acceptable && next.value && Acceptable(*next.value, *originals[t], smallest);
        nodes.push_back(std::move(*next.shrinkable));
        if (next.value) values.push_back(std::move(*next.value));
      }
      if (ended || !acceptable || !keeps(values)) continue;
      current = std::move(nodes);
      found = std::move(values);
      ++walk.steps;
      improved = true;
      break;
    }
  }
  return walk;
}

}  // namespace

ShrinkWalk WalkShrinkTree(const rc::Shrinkable<GeneratedCase>& root, const GeneratedCase& original,
                          const std::function<bool()>& spent,
                          const std::function<bool(const GeneratedCase&)>& keeps) {
  LockstepWalk walk =
      Walk({root}, {&original}, spent,
           [&](const std::vector<GeneratedCase>& candidates) { return keeps(candidates.front()); });
  // Copied only now, when no candidate is held any more.
  if (walk.minimal.empty()) return ShrinkWalk{original, 0};
  return ShrinkWalk{std::move(walk.minimal.front()), walk.steps};
}

LockstepWalk WalkShrinkTrees(const std::vector<rc::Shrinkable<GeneratedCase>>& roots,
                             std::vector<GeneratedCase> originals,
                             const std::function<bool()>& spent,
                             const std::function<bool(const std::vector<GeneratedCase>&)>& keeps) {
  std::vector<const GeneratedCase*> looked_at;
  for (const GeneratedCase& original : originals) looked_at.push_back(&original);
  LockstepWalk walk = Walk(roots, looked_at, spent, keeps);
  if (walk.minimal.empty()) walk.minimal = std::move(originals);
  return walk;
}

Shrunk ShrinkFinding(TargetSession& session, const rc::Shrinkable<GeneratedCase>& root,
                     const GeneratedCase& original, const Judged& original_judged,
                     const std::string& signature, bool settle, const ShrinkBudget& budget) {
  // The minimal case is the walk's: not a copy of the original held while candidates are.
  Shrunk shrunk{{}, original_judged, 0, 0};
  const auto deadline = std::chrono::steady_clock::now() + budget.max_time;
  auto spent = [&] {
    return shrunk.sends >= budget.max_sends || std::chrono::steady_clock::now() >= deadline ||
           session.lost() || budget.Stopped();
  };
  auto keeps = [&](const GeneratedCase& candidate) {
    Judged judged = SendAndJudge(session, candidate, settle);
    ++shrunk.sends;
    if (!judged.finding || judged.signature != signature) return false;
    shrunk.judged = std::move(judged);
    return true;
  };
  ShrinkWalk walk = WalkShrinkTree(root, original, spent, keeps);
  shrunk.minimal = std::move(walk.minimal);
  shrunk.steps = walk.steps;
  return shrunk;
}

}  // namespace mcpfuzz::campaign_detail
