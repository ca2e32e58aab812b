#include "campaign/detail/differential_shrink.h"

#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "oracles/check_ids.h"

namespace mcpfuzz::campaign_detail {
namespace {

// The server capability a method belongs to: its name's first segment ("completion/complete"
// belongs to "completions").
std::string CapabilityOf(std::string_view method) {
  const std::string_view head = method.substr(0, method.find('/'));
  return head == "completion" ? std::string("completions") : std::string(head);
}

// A case drawn from what every target shares probes a method whose capability the targets do
// not all declare; a target that declared it itself was probed for nothing unadvertised, and is
// judged by its own capabilities (issue #26), not the common ones.
std::optional<GeneratedCase> JudgedByOwnCapabilities(const TargetSession& session,
                                                     const GeneratedCase& generated) {
  if (generated.check_id != check::kCapabilityUnadvertised) return std::nullopt;
  const std::optional<std::string> method = generated.request.RpcMethod();
  if (!method || !session.capabilities().contains(CapabilityOf(*method))) return std::nullopt;
  GeneratedCase own = generated;
  own.context.capability_declared = true;
  return own;
}

}  // namespace

bool DiffSides::Disagree() const {
  return std::any_of(answers.begin(), answers.end(),
                     [&](const DiffAnswer& answer) { return !(answer == answers.front()); });
}

std::string DiffSides::Key() const {
  std::string key;
  for (const DiffAnswer& answer : answers) key += ToString(answer) + "\n";
  return key;
}

DiffAnswer AnswerOf(const Judged& judged, bool with_status) {
  const ObservedAnswer& observed = judged.verdict.observed;
  DiffAnswer answer;
  answer.channel = observed.channel;
  answer.code = observed.code;
  if (with_status) answer.http_status = observed.http_status;
  // A message dropped on purpose is an answer (silence), not a failed exchange.
  const Outcome outcome = judged.observation.outcome;
  if (outcome != Outcome::kOk && outcome != Outcome::kDropped && !judged.dropped) {
    answer.failure = outcome;
  }
  return answer;
}

DiffSides SendToAll(const std::vector<std::unique_ptr<TargetSession>>& sessions,
                    const std::vector<const GeneratedCase*>& cases, bool mixed_transports) {
  DiffSides sides;
  for (std::size_t t = 0; t < sessions.size(); ++t) {
    const std::optional<GeneratedCase> own = JudgedByOwnCapabilities(*sessions[t], *cases[t]);
    Judged judged = SendAndJudge(*sessions[t], own ? *own : *cases[t], /*settle=*/false);
    sides.answers.push_back(AnswerOf(judged, !mixed_transports));
    sides.verdicts.push_back(std::move(judged.verdict));
  }
  return sides;
}

DiffShrunk ShrinkDisagreement(const std::vector<std::unique_ptr<TargetSession>>& sessions,
                              const std::vector<std::size_t>& tree_of,
                              const std::vector<rc::Shrinkable<GeneratedCase>>& roots,
                              std::vector<GeneratedCase> originals, const DiffSides& original_sides,
                              bool mixed_transports, const ShrinkBudget& budget) {
  // The walk gives the minimal cases (the originals when nothing shrank): not held twice.
  DiffShrunk shrunk{{}, original_sides, 0, 0};
  const std::string key = original_sides.Key();
  const auto deadline = std::chrono::steady_clock::now() + budget.max_time;
  auto spent = [&] {
    return shrunk.sends >= budget.max_sends || std::chrono::steady_clock::now() >= deadline ||
           budget.Stopped() ||
           std::any_of(sessions.begin(), sessions.end(),
                       [](const auto& session) { return session->lost(); });
  };
  auto keeps = [&](const std::vector<GeneratedCase>& candidates) {
    std::vector<const GeneratedCase*> cases;
    for (const std::size_t tree : tree_of) cases.push_back(&candidates[tree]);
    DiffSides sides = SendToAll(sessions, cases, mixed_transports);
    ++shrunk.sends;
    if (sides.Key() != key) return false;
    shrunk.sides = std::move(sides);
    return true;
  };
  LockstepWalk walk = WalkShrinkTrees(roots, std::move(originals), spent, keeps);
  shrunk.minimal = std::move(walk.minimal);
  shrunk.steps = walk.steps;
  return shrunk;
}

}  // namespace mcpfuzz::campaign_detail
