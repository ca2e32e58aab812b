// What becomes of a finding: re-sent to tell stable from flaky (a silence learnt before the
// full limit first sent alone), shrunk to the smallest case with the same signature, given its
// reproducer and written at once as a case file; a sequence's, shrunk by removing steps.

#include <rapidcheck.h>

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include "campaign/detail/campaign_loop.h"
#include "campaign/detail/judging.h"
#include "campaign/detail/sequence_run.h"
#include "campaign/detail/shrink.h"
#include "campaign/finding_file.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::campaign_detail {
namespace {

// Shrink candidates sent for a finding whose exchange timed out.
constexpr std::size_t kTimedOutShrinkSends = 8;

ReproducerTarget ReproducerFor(const CampaignOptions& options, const TargetSession& session) {
  ReproducerTarget target = options.reproducer;
  target.kind = session.kind();
  if (target.kind == TransportKind::kHttp && target.url.empty()) {
    target.url = session.reproduce_at().url;
  }
  if (target.kind == TransportKind::kStdio && target.argv.empty()) {
    target.argv = session.reproduce_at().argv;
  }
  return target;
}

// A server deaf after a request is seen deaf only by the request after it: over stdio the
// reproducer sends a sentinel behind the minimal case, as the campaign did.
std::string FindingReproducer(const CampaignFinding& finding, const ReproducerTarget& target) {
  if (finding.check_id != check::kKeepsAnswering || target.kind != TransportKind::kStdio) {
    return Reproducer(finding.minimal, target);
  }
  const Request sentinel = MakeSentinel(finding.revision, TransportKind::kStdio, 1);
  return Reproducer(std::vector<const Request*>{&finding.minimal, &sentinel}, target);
}

}  // namespace

void Campaign::WriteFinding(CampaignFinding& finding) const {
  if (options_.corpus_dir.empty()) return;
  auto written =
      WriteCaseFile(options_.corpus_dir, FindingFileName(finding.check_id, finding.signature_hash),
                    FindingToJson(RecordOf(finding, options_.seed)));
  if (written.ok()) {
    finding.file = *written;
  } else {
    finding.file_error = written.error().message;
  }
}

void Campaign::Investigate(Lane& lane, const GeneratedCase& generated, std::size_t index,
                           const Judged& judged, bool settle) {
  const std::string signature = judged.signature;
  if (auto seen = seen_.find(signature); seen != seen_.end()) {
    ++result_.findings[seen->second].repeats;
    return;
  }
  seen_.emplace(signature, result_.findings.size());

  CampaignFinding finding;
  finding.signature = signature;
  finding.signature_hash = judged.signature_hash;
  finding.family = generated.family;
  finding.check_id = judged.verdict.check_id;
  finding.case_check_id = generated.check_id;
  finding.variant = generated.variant;
  finding.context = generated.context;
  finding.case_index = index;
  finding.revision = lane.session->revision();

  TargetSession& session = *lane.session;
  // A stdio connection carries what earlier cases did to it (SDK v2 switches a connection's
  // era for good on one request without _meta). The re-sends, the shrinking and the reproducer
  // all start from a fresh process, so a failure that needs that history is reported flaky
  // rather than as a stable finding whose case file cannot reproduce it.
  session.Retire();
  const auto resending = Clock::now();
  // A verdict that rests on a silence learnt before the full limit passed (an unproven drop,
  // a patience cut short) is first sent alone under the full limit: a server that answers
  // late is not to be reported for a silence it did not keep.
  const bool unproven = session.SilenceCutShort(judged.observation);
  // The run's end (--time) bounds the investigation too: past it only that proof is made,
  // and a signal stops even that. The finding counts the re-sends that were made.
  for (finding.resends = 0; finding.resends < options_.resends && !Interrupted();
       ++finding.resends) {
    const bool alone = finding.resends == 0 && unproven;
    if (limits_.TimeIsUp() && !alone) break;
    const Judged again = SendAndJudge(session, generated, settle, alone);
    // Only an answer overturns it: a re-send the session could not make says nothing.
    if (alone && again.observation.outcome == Outcome::kOk &&
        (!again.finding || again.signature != signature)) {
      seen_.erase(signature);
      result_.notes.push_back("case " + std::to_string(index) + " (" + generated.check_id +
                              "): a silence learnt before the time limit passed was answered "
                              "when sent alone; judged by that answer");
      if (again.finding) Investigate(lane, generated, index, again, settle);
      Add(result_.timing.resends, resending);
      return;
    }
    if (again.finding && again.signature == signature) ++finding.reproduced;
  }
  finding.stable = finding.reproduced == finding.resends;
  Add(result_.timing.resends, resending);

  // The shrink tree is the generator's, regenerated from the case's seed and size.
  const rc::Shrinkable<GeneratedCase> root = GeneratorFor(*lane.generator, lane.sequences, index)(
      rc::Random(CaseSeed(options_.seed, index)), CaseSize(index));
  // A finding that timed out costs a whole timeout per candidate: shrink it only a little.
  const std::size_t shrink_sends = judged.timed_out
                                       ? std::min(options_.max_shrink_sends, kTimedOutShrinkSends)
                                       : options_.max_shrink_sends;
  const auto shrinking = Clock::now();
  Shrunk shrunk;
  try {
    shrunk = ShrinkFinding(session, root, generated, judged, signature, settle,
                           {shrink_sends, options_.max_shrink_time, &limits_});
  } catch (...) {
    shrunk = {generated, judged, 0, 0};
  }
  Add(result_.timing.shrinking, shrinking);
  finding.minimal = std::move(shrunk.minimal.request);
  if (!(finding.minimal == generated.request)) finding.original = generated.request;
  finding.variant = shrunk.minimal.variant;
  finding.verdict = shrunk.judged.verdict;
  finding.shrink_steps = shrunk.steps;
  finding.shrink_sends = shrunk.sends;

  if (limits_.TimeIsUp()) {
    result_.notes.push_back("case " + std::to_string(index) + " (" + generated.check_id +
                            "): investigated as the run's time ran out: re-sent " +
                            std::to_string(finding.resends) + " of " +
                            std::to_string(options_.resends) + " times, " +
                            std::to_string(shrunk.sends) + " shrink sends");
  }
  finding.reproducer = FindingReproducer(finding, ReproducerFor(options_, session));
  WriteFinding(finding);
  if (judged.dropped) lane.drop_findings.push_back(result_.findings.size());
  result_.findings.push_back(std::move(finding));
  Report(/*force=*/true);
}

Campaign::SequenceOutcome Campaign::RunSequenceCase(const Lane& lane,
                                                    const GeneratedCase& generated,
                                                    std::size_t index) {
  CountSent(generated);
  const auto sent = Clock::now();
  // Over stdio the sequence's process is its own, and ends with it: asked now or never.
  SequenceRun run = RunSequence(link_, generated.steps, AskCoverage());
  Add(result_.timing.sending, sent);
  SequenceOutcome out;
  if (!run.steps.empty()) out.last = run.steps.back();
  if (!run.error.empty()) {
    result_.notes.push_back("a sequence could not open its connection: " + run.error);
    return out;
  }
  if (run.coverage) out.taken = MergeCoverage(std::move(*run.coverage));
  const Judged* judged = run.finding();
  if (judged == nullptr) return out;
  const std::string signature = judged->signature;
  if (auto seen = seen_.find(signature); seen != seen_.end()) {
    ++result_.findings[seen->second].repeats;
    return out;
  }
  seen_.emplace(signature, result_.findings.size());

  CampaignFinding finding;
  finding.signature = signature;
  finding.signature_hash = judged->signature_hash;
  finding.family = generated.family;
  finding.check_id = judged->verdict.check_id;
  finding.case_check_id = generated.steps[*run.failing].check_id;
  finding.variant = generated.variant;
  finding.case_index = index;
  finding.revision = lane.session->revision();
  finding.original_steps = generated.steps.size();

  const auto resending = Clock::now();
  for (finding.resends = 0; finding.resends < options_.resends && !limits_.Over();
       ++finding.resends) {
    const SequenceRun again = RunSequence(link_, generated.steps);
    if (again.finding() != nullptr && again.finding()->signature == signature) {
      ++finding.reproduced;
    }
  }
  finding.stable = finding.reproduced == finding.resends;
  Add(result_.timing.resends, resending);

  const auto shrinking = Clock::now();
  const ShrunkSequence shrunk =
      ShrinkSequence(link_, generated.steps, run, signature,
                     {options_.max_shrink_sends, options_.max_shrink_time, &limits_});
  Add(result_.timing.shrinking, shrinking);
  finding.steps = shrunk.minimal;
  finding.minimal = shrunk.minimal.back().request;
  if (const Request& failed = generated.steps[*run.failing].request; !(finding.minimal == failed)) {
    finding.original = failed;
  }
  finding.verdict = shrunk.judged.verdict;
  finding.shrink_steps = shrunk.steps;
  finding.shrink_sends = shrunk.sends;
  finding.variant.clear();
  for (const SequenceStep& step : shrunk.minimal) {
    if (!finding.variant.empty()) finding.variant += ", ";
    finding.variant += step.request.http_method == "DELETE"
                           ? std::string("DELETE")
                           : step.request.RpcMethod().value_or("?");
  }

  finding.reproducer = SequenceReproducer(finding.steps, ReproducerFor(options_, *lane.session));
  WriteFinding(finding);
  result_.findings.push_back(std::move(finding));
  Report(/*force=*/true);
  return out;
}

}  // namespace mcpfuzz::campaign_detail
