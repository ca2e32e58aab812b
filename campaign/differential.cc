#include "campaign/differential.h"

#include <rapidcheck.h>

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "campaign/detail/campaign_loop.h"
#include "campaign/detail/differential_shrink.h"
#include "campaign/detail/judging.h"
#include "generators/registry.h"

namespace mcpfuzz {
namespace {

using campaign_detail::DiffSides;
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
GenContext CommonContext(GenContext base,
                         const std::vector<std::unique_ptr<TargetSession>>& sessions) {
  for (const auto& session : sessions) {
    const GenContext other = campaign_detail::ContextOf(*session);
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

namespace campaign_detail {
namespace {

// One differential run, step by step: the revision every target speaks, a session per target,
// one generator per transport drawing from what every target shares, then the case loop, each
// case sent to every target and a disagreement shrunk and recorded.
class DiffRun {
 public:
  DiffRun(const std::vector<DiffTarget>& targets, const DiffOptions& options)
      : targets_(targets),
        options_(options),
        indices_(CaseIndices::Shard(options.shard_index, options.shard_count, options.max_cases)),
        limits_{options.duration, options.stop} {
    for (const DiffTarget& target : targets) result_.targets.push_back(target.name);
  }

  DiffResult Run() {
    if (ChooseRevision() && OpenSessions() && MakeGenerators()) RunCases();
    for (const auto& session : sessions_) {
      if (session->lost()) result_.notes.push_back("a session was lost: " + session->why());
    }
    result_.elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - limits_.start);
    return std::move(result_);
  }

 private:
  // The revision given, or the newest every target speaks.
  bool ChooseRevision() {
    result_.revision = options_.revision;
    if (result_.revision) return true;
    std::vector<EraReport>& eras = result_.eras;
    result_.not_judged.assign(targets_.size(), "");
    for (std::size_t t = 0; t < targets_.size(); ++t) {
      eras.push_back(DetectEras(targets_[t].connect));
      if (eras.back().speaks.empty()) {
        result_.not_judged[t] = "speaks no MCP revision mcpfuzz knows";
        result_.unreachable = true;
      }
    }
    if (result_.unreachable) return false;
    result_.revision = SharedRevision(eras);
    if (!result_.revision) {
      result_.notes.emplace_back("the targets share no revision; give --revision to force one");
      result_.unreachable = true;
    }
    return result_.revision.has_value();
  }

  // One link per target: each has its own give-up rule and its own sentinel trust.
  bool OpenSessions() {
    SessionPolicy policy;
    policy.list_features = true;
    result_.not_judged.assign(targets_.size(), "");
    for (std::size_t t = 0; t < targets_.size(); ++t) {
      links_.push_back(std::make_unique<TargetLink>(targets_[t].connect));
      sessions_.push_back(
          std::make_unique<TargetSession>(*links_.back(), *result_.revision, policy));
      if (auto opened = sessions_.back()->Open(); !opened.ok()) {
        result_.not_judged[t] = "no " + std::string(ToString(*result_.revision)) +
                                " session: " + opened.error().message;
        result_.unreachable = true;
      }
      result_.transports.push_back(sessions_.back()->kind());
      result_.server_info.push_back(sessions_.back()->server_info());
    }
    if (result_.unreachable) return false;
    mixed_ = std::any_of(result_.transports.begin(), result_.transports.end(),
                         [&](TransportKind kind) { return kind != result_.transports[0]; });
    if (mixed_) {
      result_.notes.emplace_back(
          "HTTP and stdio targets: answers are compared without the HTTP status, and each "
          "transport's case is shrunk in step with the other's");
    }
    return true;
  }

  // One generator per transport present, drawing only what every target shares and only from
  // families every context has something to say about, so each transport picks the same.
  bool MakeGenerators() {
    for (const auto& session : sessions_) {
      if (!generators_.contexts.contains(session->kind())) {
        generators_.contexts.emplace(session->kind(),
                                     CommonContext(ContextOf(*session), sessions_));
      }
    }
    std::set<std::string> families;
    for (const std::string& name :
         options_.families.empty() ? gen::DefaultFamilies() : options_.families) {
      const gen::FamilyInfo* family = gen::FindFamily(name);
      if (family == nullptr) {
        result_.notes.push_back("no family named " + name);
        continue;
      }
      const bool everywhere =
          std::all_of(generators_.contexts.begin(), generators_.contexts.end(),
                      [&](const auto& entry) { return family->applies(entry.second); });
      if (everywhere) families.insert(name);
    }
    if (families.empty()) {
      result_.notes.emplace_back("no selected family applies to every target");
      return false;
    }
    for (const auto& [kind, context] : generators_.contexts) {
      generators_.by_transport.emplace(kind, gen::AnyCase(context, families));
    }
    return true;
  }

  void RunCases() {
    for (std::size_t position = 0; position < indices_.Count() && !limits_.Over(); ++position) {
      Compare(indices_.At(position));
    }
    for (auto& [id, count] : checks_) result_.checks.push_back(std::move(count));
  }

  // Case `index`, drawn for each transport, sent to every target and compared.
  void Compare(std::size_t index) {
    std::map<TransportKind, GeneratedCase> drawn;
    for (const auto& [kind, generator] : generators_.by_transport) {
      auto generated = DrawCase(generator, options_.seed, index);
      if (!generated || (!drawn.empty() && drawn.begin()->second.check_id != generated->check_id)) {
        ++result_.cases;
        ++result_.incomparable;
        return;
      }
      drawn.emplace(kind, std::move(*generated));
    }
    ++result_.cases;
    std::vector<const GeneratedCase*> cases;
    for (const auto& session : sessions_) cases.push_back(&drawn.at(session->kind()));
    const DiffSides sides = SendToAll(sessions_, cases, mixed_);
    const std::string& check_id = cases.front()->check_id;
    DiffCheckCount& count = checks_[check_id];
    count.check_id = check_id;
    ++count.cases;
    const bool agreed = !sides.Disagree();
    if (!agreed) ++count.disagreeing;
    const bool deviation =
        std::any_of(sides.verdicts.begin(), sides.verdicts.end(), [](const Verdict& v) {
          return v.kind == VerdictKind::kFail || v.kind == VerdictKind::kWarn;
        });
    if (agreed && !(options_.last_is_baseline && deviation)) return;
    const std::string key = check_id + "\n" + sides.Key();
    if (auto found = seen_.find(key); found != seen_.end()) {
      ++result_.disagreements[found->second].repeats;
      return;
    }
    seen_.emplace(key, result_.disagreements.size());
    Record(index, std::move(drawn), sides, agreed);
  }

  // A new disagreement (or, with a baseline, a shared deviation): shrunk on every target in
  // step, labelled by how many sides the oracle calls wrong, one reproducer per target.
  // `drawn`: the case per transport, moved into the shrinking (it may be megabytes).
  void Record(std::size_t index, std::map<TransportKind, GeneratedCase> drawn,
              const DiffSides& sides, bool agreed) {
    Disagreement disagreement;
    const GeneratedCase& first = drawn.at(sessions_.front()->kind());
    disagreement.check_id = first.check_id;
    disagreement.family = first.family;
    disagreement.variant = first.variant;
    disagreement.revision = *result_.revision;
    disagreement.case_index = index;
    // One shrink tree per transport: its targets are sent the same case.
    std::vector<TransportKind> kinds;
    std::vector<std::size_t> tree_of;
    std::vector<rc::Shrinkable<GeneratedCase>> roots;
    std::vector<GeneratedCase> originals;
    for (std::size_t t = 0; t < sessions_.size(); ++t) {
      const TransportKind kind = sessions_[t]->kind();
      const auto known = std::find(kinds.begin(), kinds.end(), kind);
      tree_of.push_back(static_cast<std::size_t>(known - kinds.begin()));
      if (known != kinds.end()) continue;
      kinds.push_back(kind);
      roots.push_back(generators_.by_transport.at(kind)(rc::Random(CaseSeed(options_.seed, index)),
                                                        CaseSize(index)));
      GeneratedCase& original = drawn.at(kind);
      disagreement.original_bytes.push_back(original.request.WireSize());
      originals.push_back(std::move(original));
    }
    DiffShrunk shrunk = ShrinkDisagreement(
        sessions_, tree_of, roots, std::move(originals), sides, mixed_,
        ShrinkBudget{options_.max_shrink_sends, options_.max_shrink_time, &limits_});
    disagreement.shrink_steps = shrunk.steps;
    disagreement.shrink_sends = shrunk.sends;
    for (std::size_t t = 0; t < targets_.size(); ++t) {
      const GeneratedCase& minimal = shrunk.minimal[tree_of[t]];
      DiffCell cell;
      cell.answer = shrunk.sides.answers[t];
      cell.verdict = shrunk.sides.verdicts[t];
      cell.accepted =
          cell.verdict.kind == VerdictKind::kPass || cell.verdict.kind == VerdictKind::kWarn;
      cell.reproducer = Reproducer(minimal.request, targets_[t].reproducer);
      cell.inherited = options_.last_is_baseline && t + 1 < targets_.size() &&
                       cell.answer == shrunk.sides.answers.back();
      disagreement.cells.push_back(std::move(cell));
    }
    for (GeneratedCase& minimal : shrunk.minimal) {
      disagreement.minimal.push_back(std::move(minimal.request));
    }
    const auto wrong =
        std::count_if(disagreement.cells.begin(), disagreement.cells.end(),
                      [](const DiffCell& cell) { return cell.verdict.kind == VerdictKind::kFail; });
    disagreement.label = agreed       ? DiffLabel::kAgreeing
                         : wrong == 0 ? DiffLabel::kMerelyDifferent
                         : static_cast<std::size_t>(wrong) == disagreement.cells.size()
                             ? DiffLabel::kAllWrong
                             : DiffLabel::kSomeWrong;
    result_.disagreements.push_back(std::move(disagreement));
  }

  const std::vector<DiffTarget>& targets_;
  const DiffOptions& options_;
  const CaseIndices indices_;
  const RunLimits limits_;
  DiffResult result_;
  std::vector<std::unique_ptr<TargetLink>> links_;
  std::vector<std::unique_ptr<TargetSession>> sessions_;
  bool mixed_ = false;
  Generators generators_;
  std::map<std::string, std::size_t> seen_;  // check id + answers → index in disagreements
  std::map<std::string, DiffCheckCount> checks_;
};

}  // namespace
}  // namespace campaign_detail

DiffResult RunDiff(const std::vector<DiffTarget>& targets, const DiffOptions& options) {
  return campaign_detail::DiffRun(targets, options).Run();
}

}  // namespace mcpfuzz
