#include "campaign/differential.h"

#include <rapidcheck.h>

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "campaign/detail/campaign_loop.h"
#include "campaign/detail/differential_shrink.h"
#include "campaign/detail/judging.h"
#include "campaign/detail/session.h"
#include "generators/registry.h"

namespace mcpfuzz {
namespace {

using campaign_detail::DiffSides;
using campaign_detail::Session;
using Clock = std::chrono::steady_clock;

// The newest revision every target speaks.
std::optional<Revision> SharedRevision(const std::vector<EraReport>& eras) {
  if (eras.empty()) return std::nullopt;
  std::optional<Revision> newest;
  for (Revision revision : eras.front().speaks) {
    const bool everyone = std::all_of(
        eras.begin(), eras.end(), [&](const EraReport& report) { return report.Speaks(revision); });
    if (everyone && (!newest || revision > *newest)) newest = revision;
  }
  return newest;
}

template <typename T, typename Name>
void KeepShared(std::vector<T>& mine, const std::vector<T>& theirs, Name name) {
  std::erase_if(mine, [&](const T& item) {
    return std::none_of(theirs.begin(), theirs.end(),
                        [&](const T& other) { return name(other) == name(item); });
  });
}

// What every target shares, seen from a session on `transport`: `base` (a session's context on
// that transport) with only the capabilities, tools, prompts and resources all the others
// declared too. No random-name answers (they are per target), no real tools.
GenContext CommonContext(GenContext base, const std::vector<std::unique_ptr<Session>>& sessions) {
  for (const auto& session : sessions) {
    const GenContext& other = session->context();
    boost::json::object shared;
    for (const auto& [key, value] : base.capabilities) {
      if (other.capabilities.contains(key)) shared.emplace(key, value);
    }
    base.capabilities = std::move(shared);
    KeepShared(base.tools, other.tools, [](const ToolInfo& tool) { return tool.name; });
    KeepShared(base.prompts, other.prompts, [](const std::string& name) { return name; });
    KeepShared(base.resource_uris, other.resource_uris, [](const std::string& uri) { return uri; });
    if (other.http()) base.session_assigned = base.session_assigned && other.session_assigned;
  }
  base.random_name_answers.clear();
  base.call_real_tools = false;
  return base;
}

// The common context and its generator, one per transport present.
struct Generators {
  std::map<TransportKind, GenContext> contexts;
  std::map<TransportKind, rc::Gen<GeneratedCase>> by_transport;
};

}  // namespace

std::string ToString(const DiffAnswer& answer) {
  std::string text(ToString(answer.channel));
  if (answer.code) text += " " + std::to_string(*answer.code);
  if (answer.http_status != 0) text += " (HTTP " + std::to_string(answer.http_status) + ")";
  if (answer.failure) text += " (" + std::string(ToString(*answer.failure)) + ")";
  return text;
}

std::string_view ToString(DiffLabel label) {
  switch (label) {
    case DiffLabel::kMerelyDifferent:
      return "merely-different";
    case DiffLabel::kSomeWrong:
      return "some-wrong";
    case DiffLabel::kAllWrong:
      return "all-wrong";
    case DiffLabel::kAgreeing:
      return "agreeing";
  }
  return "merely-different";
}

bool AnyWrongSide(const DiffResult& result) {
  return std::any_of(result.disagreements.begin(), result.disagreements.end(),
                     [](const Disagreement& d) {
                       return d.label == DiffLabel::kSomeWrong || d.label == DiffLabel::kAllWrong;
                     });
}

DiffResult RunDiff(const std::vector<DiffTarget>& targets, const DiffOptions& options) {
  const auto start = Clock::now();
  DiffResult result;
  for (const DiffTarget& target : targets) result.targets.push_back(target.name);
  auto finish = [&] {
    result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return result;
  };

  // The revision: given, or the newest every target speaks.
  result.revision = options.revision;
  if (!result.revision) {
    std::vector<EraReport> eras;
    for (const DiffTarget& target : targets) {
      eras.push_back(DetectEras(target.connect));
      if (eras.back().speaks.empty()) {
        result.notes.push_back(target.name + " speaks no MCP revision mcpfuzz knows");
        result.unreachable = true;
      }
    }
    if (result.unreachable) return finish();
    result.revision = SharedRevision(eras);
    if (!result.revision) {
      result.notes.emplace_back("the targets share no revision; give --revision to force one");
      result.unreachable = true;
      return finish();
    }
  }

  std::vector<std::unique_ptr<Session>> sessions;
  for (const DiffTarget& target : targets) {
    sessions.push_back(std::make_unique<Session>(target.connect, *result.revision));
    std::string why;
    if (!sessions.back()->Open(/*list_features=*/true, why)) {
      result.notes.push_back("no " + std::string(ToString(*result.revision)) + " session with " +
                             target.name + ": " + why);
      result.unreachable = true;
    }
    result.transports.push_back(sessions.back()->kind());
    result.server_info.push_back(sessions.back()->server_info());
  }
  if (result.unreachable) return finish();
  const bool mixed = std::any_of(result.transports.begin(), result.transports.end(),
                                 [&](TransportKind kind) { return kind != result.transports[0]; });
  if (mixed) {
    result.notes.emplace_back(
        "HTTP and stdio targets: answers are compared without the HTTP status, and each "
        "transport's case is shrunk in step with the other's");
  }

  Generators generators;
  for (const auto& session : sessions) {
    if (!generators.contexts.contains(session->kind())) {
      generators.contexts.emplace(session->kind(), CommonContext(session->context(), sessions));
    }
  }
  // Only families every context has something to say about, so each transport picks the same.
  std::set<std::string> families;
  for (const std::string& name :
       options.families.empty() ? gen::DefaultFamilies() : options.families) {
    const gen::FamilyInfo* family = gen::FindFamily(name);
    if (family == nullptr) {
      result.notes.push_back("no family named " + name);
      continue;
    }
    const bool everywhere =
        std::all_of(generators.contexts.begin(), generators.contexts.end(),
                    [&](const auto& entry) { return family->applies(entry.second); });
    if (everywhere) families.insert(name);
  }
  if (families.empty()) {
    result.notes.emplace_back("no selected family applies to every target");
    return finish();
  }
  for (const auto& [kind, context] : generators.contexts) {
    generators.by_transport.emplace(kind, gen::AnyCase(context, families));
  }

  std::map<std::string, std::size_t> seen;  // check id + answers → index in disagreements
  std::map<std::string, DiffCheckCount> checks;
  const std::size_t shards = std::max<std::size_t>(options.shard_count, 1);
  for (std::size_t index = options.shard_index - 1; index < options.max_cases; index += shards) {
    if (options.stop != nullptr && options.stop->load()) break;
    if (options.duration && Clock::now() - start >= *options.duration) break;
    std::map<TransportKind, GeneratedCase> drawn;
    bool comparable = true;
    for (const auto& [kind, generator] : generators.by_transport) {
      auto generated = campaign_detail::DrawCase(generator, options.seed, index);
      if (!generated || (!drawn.empty() && drawn.begin()->second.check_id != generated->check_id)) {
        comparable = false;
        break;
      }
      drawn.emplace(kind, std::move(*generated));
    }
    ++result.cases;
    if (!comparable) {
      ++result.incomparable;
      continue;
    }
    std::vector<const GeneratedCase*> cases;
    for (const auto& session : sessions) cases.push_back(&drawn.at(session->kind()));
    DiffSides sides = campaign_detail::SendToAll(sessions, cases, mixed);
    const std::string& check_id = cases.front()->check_id;
    DiffCheckCount& count = checks[check_id];
    count.check_id = check_id;
    ++count.cases;
    const bool agreed = !sides.Disagree();
    if (!agreed) ++count.disagreeing;
    const bool deviation =
        std::any_of(sides.verdicts.begin(), sides.verdicts.end(), [](const Verdict& v) {
          return v.kind == VerdictKind::kFail || v.kind == VerdictKind::kWarn;
        });
    if (agreed && !(options.last_is_baseline && deviation)) continue;
    const std::string key = check_id + "\n" + sides.Key();
    if (auto found = seen.find(key); found != seen.end()) {
      ++result.disagreements[found->second].repeats;
      continue;
    }
    seen.emplace(key, result.disagreements.size());

    Disagreement disagreement;
    disagreement.check_id = check_id;
    disagreement.family = cases.front()->family;
    disagreement.variant = cases.front()->variant;
    disagreement.revision = *result.revision;
    disagreement.case_index = index;
    for (const GeneratedCase* generated : cases) {
      disagreement.original.push_back(generated->request);
    }
    std::vector<rc::Shrinkable<GeneratedCase>> roots;
    std::vector<GeneratedCase> originals;
    for (std::size_t t = 0; t < sessions.size(); ++t) {
      roots.push_back(generators.by_transport.at(sessions[t]->kind())(
          rc::Random(campaign_detail::CaseSeed(options.seed, index)),
          campaign_detail::CaseSize(index)));
      originals.push_back(*cases[t]);
    }
    const campaign_detail::DiffShrunk shrunk = campaign_detail::ShrinkDisagreement(
        sessions, roots, originals, sides, mixed,
        campaign_detail::ShrinkBudget{options.max_shrink_sends, options.max_shrink_time,
                                      options.stop});
    disagreement.shrink_steps = shrunk.steps;
    disagreement.shrink_sends = shrunk.sends;
    for (std::size_t t = 0; t < targets.size(); ++t) {
      disagreement.minimal.push_back(shrunk.minimal[t].request);
      DiffCell cell;
      cell.answer = shrunk.sides.answers[t];
      cell.verdict = shrunk.sides.verdicts[t];
      cell.accepted =
          cell.verdict.kind == VerdictKind::kPass || cell.verdict.kind == VerdictKind::kWarn;
      cell.reproducer = Reproducer(shrunk.minimal[t].request, targets[t].reproducer);
      cell.inherited = options.last_is_baseline && t + 1 < targets.size() &&
                       cell.answer == shrunk.sides.answers.back();
      disagreement.cells.push_back(std::move(cell));
    }
    const auto wrong =
        std::count_if(disagreement.cells.begin(), disagreement.cells.end(),
                      [](const DiffCell& cell) { return cell.verdict.kind == VerdictKind::kFail; });
    disagreement.label = agreed       ? DiffLabel::kAgreeing
                         : wrong == 0 ? DiffLabel::kMerelyDifferent
                         : static_cast<std::size_t>(wrong) == disagreement.cells.size()
                             ? DiffLabel::kAllWrong
                             : DiffLabel::kSomeWrong;
    result.disagreements.push_back(std::move(disagreement));
  }
  for (auto& [id, count] : checks) result.checks.push_back(std::move(count));
  for (const auto& session : sessions) {
    if (session->lost()) {
      result.notes.push_back("a session was lost: " + session->lost_reason());
    }
  }
  return finish();
}

}  // namespace mcpfuzz
