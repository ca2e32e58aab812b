#include "campaign/detail/shrink.h"

#include <rapidcheck.h>

#include <utility>

namespace mcpfuzz::campaign_detail {

ShrinkWalk WalkShrinkTree(const rc::Shrinkable<GeneratedCase>& root, const GeneratedCase& original,
                          const std::function<bool()>& spent,
                          const std::function<bool(const GeneratedCase&)>& keeps) {
  ShrinkWalk walk{original, 0};
  rc::Shrinkable<GeneratedCase> current = root;
  bool improved = true;
  while (improved && !spent()) {
    improved = false;
    rc::Seq<rc::Shrinkable<GeneratedCase>> candidates = current.shrinks();
    for (;;) {
      rc::Maybe<rc::Shrinkable<GeneratedCase>> candidate;
      try {
        candidate = candidates.next();
      } catch (...) {
        break;  // The shrink sequence itself failed: keep what was found.
      }
      if (!candidate || spent()) break;
      GeneratedCase generated;
      try {
        generated = candidate->value();
      } catch (...) {
        continue;  // A generator that cannot produce this shrink: skip it.
      }
      // Only simpler AND no longer: a simpler template can be wordier (server/discover for
      // tools/list), and a minimal case should be the smallest one found.
      if (generated.family != original.family || generated.check_id != original.check_id ||
          generated.request == walk.minimal.request ||
          generated.request.WireBody().size() > walk.minimal.request.WireBody().size()) {
        continue;
      }
      if (!keeps(generated)) continue;
      current = *candidate;
      walk.minimal = std::move(generated);
      ++walk.steps;
      improved = true;
      break;
    }
  }
  return walk;
}

Shrunk ShrinkFinding(Session& session, const rc::Shrinkable<GeneratedCase>& root,
                     const GeneratedCase& original, const Judged& original_judged,
                     const std::string& signature, bool settle, const ShrinkBudget& budget) {
  Shrunk shrunk{original, original_judged, 0, 0};
  const auto deadline = std::chrono::steady_clock::now() + budget.max_time;
  auto spent = [&] {
    return shrunk.sends >= budget.max_sends || std::chrono::steady_clock::now() >= deadline ||
           session.lost();
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
