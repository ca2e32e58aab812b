#include "campaign/detail/shrink.h"

#include <rapidcheck.h>

namespace mcpfuzz::campaign_detail {

Shrunk ShrinkFinding(Session& session, const rc::Shrinkable<GeneratedCase>& root,
                     const GeneratedCase& original, const Judged& original_judged,
                     const std::string& signature, bool settle, const ShrinkBudget& budget) {
  Shrunk shrunk{original, original_judged, 0, 0};
  const auto deadline = std::chrono::steady_clock::now() + budget.max_time;
  auto spent = [&] {
    return shrunk.sends >= budget.max_sends || std::chrono::steady_clock::now() >= deadline ||
           session.lost();
  };
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
          generated.request == shrunk.minimal.request ||
          generated.request.WireBody().size() > shrunk.minimal.request.WireBody().size()) {
        continue;
      }
      Judged judged = SendAndJudge(session, generated, settle);
      ++shrunk.sends;
      if (!judged.finding || judged.signature != signature) continue;
      current = *candidate;
      shrunk.minimal = std::move(generated);
      shrunk.judged = std::move(judged);
      ++shrunk.steps;
      improved = true;
      break;
    }
  }
  return shrunk;
}

}  // namespace mcpfuzz::campaign_detail
