#include "campaign/campaign.h"

#include <rapidcheck.h>

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <utility>

#include "campaign/detail/campaign_loop.h"
#include "campaign/detail/judging.h"
#include "campaign/detail/random_names.h"
#include "campaign/detail/sequence_run.h"
#include "campaign/detail/shrink.h"
#include "campaign/finding_file.h"
#include "generators/registry.h"
#include "oracles/check_ids.h"

namespace mcpfuzz {
namespace campaign_detail {
namespace {

constexpr int kMaxSize = 100;
// Shrink candidates sent for a finding whose exchange timed out.
constexpr std::size_t kTimedOutShrinkSends = 8;
constexpr auto kProgressInterval = std::chrono::milliseconds(250);

std::uint64_t SplitMix64(std::uint64_t value) {
  value += 0x9e3779b97f4a7c15ULL;
  value = (value ^ (value >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  value = (value ^ (value >> 27U)) * 0x94d049bb133111ebULL;
  return value ^ (value >> 31U);
}

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

std::set<std::string> FamiliesFor(const CampaignOptions& options) {
  if (!options.families.empty()) return options.families;
  std::set<std::string> families = gen::DefaultFamilies();
  if (options.call_real_tools) {
    for (const gen::FamilyInfo& family : gen::AllFamilies()) {
      if (family.calls_real_tools) families.emplace(family.name);
    }
  }
  return families;
}

// Fuzz sessions reopen after a failure and keep a warm spare: a finding's re-sends and shrinking
// restart a stdio server several times, and each restart would otherwise wait for a start-up.
SessionPolicy LaneSessionPolicy() {
  SessionPolicy policy;
  policy.warm_spare = true;
  policy.list_features = true;
  return policy;
}

// The verdict rests on a silence learnt before the full time limit passed and not proven at
// this target: a drop while no drop was awaited yet (TargetSession::drops_proven), or a
// deafness within the patience kept for a server that went deaf before.
bool SilenceCutShort(const Judged& judged, const TargetSession& session) {
  return (judged.dropped && !session.drops_proven()) ||
         (judged.observation.outcome == Outcome::kAliveButDeaf &&
          judged.observation.time_limit == TimeLimit::kPatience);
}

}  // namespace

bool Silent(const GeneratedCase& generated, const Judged& judged) {
  return judged.timed_out ||
         ClassifyReply(generated.request, judged.observation).channel == Channel::kNoReply;
}

std::uint64_t CaseSeed(std::uint64_t run_seed, std::size_t index) {
  return SplitMix64(run_seed ^ SplitMix64(static_cast<std::uint64_t>(index)));
}
int CaseSize(std::size_t index) { return static_cast<int>(index % (kMaxSize + 1)); }

std::optional<GeneratedCase> DrawCase(const rc::Gen<GeneratedCase>& generator,
                                      std::uint64_t run_seed, std::size_t index) {
  const rc::Shrinkable<GeneratedCase> drawn =
      generator(rc::Random(CaseSeed(run_seed, index)), CaseSize(index));
  try {
    return drawn.value();
  } catch (...) {
    return std::nullopt;
  }
}

const rc::Gen<GeneratedCase>& GeneratorFor(const rc::Gen<GeneratedCase>& cases,
                                           const std::optional<rc::Gen<GeneratedCase>>& sequences,
                                           std::size_t index) {
  return sequences && index % kSequenceEvery == kSequenceEvery - 1 ? *sequences : cases;
}

void Campaign::OpenLanes() {
  std::vector<Revision> revisions;
  if (options_.revision) {
    revisions.push_back(*options_.revision);
  } else {
    result_.eras = DetectEras(connect_);
    // A revision kept for batches only is a whole lane: fuzz sends every family there.
    for (const PlannedRevision& planned : PlanRevisions(result_.eras)) {
      revisions.push_back(planned.revision);
    }
    if (revisions.empty()) {
      result_.notes.emplace_back("the target speaks no MCP revision mcpfuzz knows");
    }
  }
  const std::set<std::string> families = FamiliesFor(options_);
  for (const std::string& name : families) {
    if (gen::FindFamily(name) == nullptr) result_.notes.push_back("no family named " + name);
  }
  for (Revision revision : revisions) {
    Lane lane;
    lane.session = std::make_unique<TargetSession>(link_, revision, LaneSessionPolicy());
    if (auto opened = lane.session->Open(); !opened.ok()) {
      result_.notes.push_back("no session in " + std::string(ToString(revision)) + ": " +
                              opened.error().message);
      continue;
    }
    if (!result_.server_info) result_.server_info = lane.session->server_info();
    lane.context = ContextOf(*lane.session);
    lane.context.call_real_tools = options_.call_real_tools;
    // Only a probe tells: with a forced revision the target is not known to speak both eras.
    lane.context.speaks_both_eras = result_.eras.Newest(Era::kStateless).has_value() &&
                                    result_.eras.Newest(Era::kHandshake).has_value();
    lane.context.max_request_bytes = options_.max_request_bytes;
    if (options_.ask_random_names) {
      // Behind a sentinel: a server that never answers an unknown name costs one round trip
      // over stdio, not a timeout per session.
      TargetSession& session = *lane.session;
      lane.context.random_name_answers = campaign_detail::AskRandomNames(
          lane.context,
          [&session](const Request& request) { return session.Send(request, Owed::kNothing); });
    }
    if (gen::ApplicableFamilies(lane.context, families).empty()) {
      result_.notes.push_back("no selected family applies in " + std::string(ToString(revision)));
      continue;
    }
    lane.generator = gen::AnyCase(lane.context, families);
    if (options_.families.empty() &&
        !gen::ApplicableFamilies(lane.context, {"sequences"}).empty()) {
      lane.sequences = gen::AnyCase(lane.context, {"sequences"});
    }
    result_.revisions.push_back(lane.session->revision());
    lanes_.push_back(std::move(lane));
  }
}

std::size_t Campaign::OpenWorkerSessions(std::size_t wanted) {
  if (wanted <= 1 || lanes_.empty()) return 1;
  // A stdio server has one stdin: a second session would be a second process, and the
  // process-level checks (early exit, deafness) blame the previous case on the same pipe.
  if (lanes_.front().session->kind() != TransportKind::kHttp) {
    result_.notes.emplace_back("--concurrency applies to HTTP targets only; ran with 1");
    return 1;
  }
  std::size_t workers = wanted;
  for (Lane& lane : lanes_) {
    while (lane.extra.size() + 1 < workers) {
      SessionPolicy policy = LaneSessionPolicy();
      policy.list_features = false;
      auto session = std::make_unique<TargetSession>(link_, lane.session->revision(), policy);
      if (auto opened = session->Open(); !opened.ok()) {
        result_.notes.push_back("ran with concurrency " + std::to_string(lane.extra.size() + 1) +
                                ": another " + std::string(ToString(lane.session->revision())) +
                                " session could not be opened: " + opened.error().message);
        workers = lane.extra.size() + 1;
        break;
      }
      lane.extra.push_back(std::move(session));
    }
  }
  return workers;
}

std::optional<GeneratedCase> Campaign::Generate(const Lane& lane, std::size_t index) const {
  return DrawCase(GeneratorFor(*lane.generator, lane.sequences, index), options_.seed, index);
}

std::size_t Campaign::Hangs(const std::string& check_id) {
  const std::lock_guard lock(mutex_);
  auto found = hangs_.find(check_id);
  return found == hangs_.end() ? 0 : found->second;
}

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

void Campaign::CountSent(const GeneratedCase& generated) {
  ++result_.cases;
  ++result_.cases_per_family[generated.family];
  ++result_.cases_per_revision[std::string(ToString(generated.request.revision))];
}

bool Campaign::RecordAndSkip(const GeneratedCase& generated) {
  if (options_.record_cases) {
    result_.case_log.push_back(std::string(ToString(generated.request.revision)) + " " +
                               std::string(ToString(generated.request.transport)) + " " +
                               generated.check_id + " " + generated.request.WireBody());
  }
  const std::lock_guard lock(mutex_);
  std::size_t& hangs = hangs_[generated.check_id];
  if (hangs < kHangsBeforeSkipping) return false;
  if (hangs == kHangsBeforeSkipping) {
    result_.notes.push_back("cases of " + generated.check_id + " are no longer sent: " +
                            std::to_string(hangs) + " of them were not answered in time");
    ++hangs;  // So the note is written once per check.
  }
  ++result_.skipped;
  return true;
}

void Campaign::Conclude(Lane& lane, const GeneratedCase& generated, std::size_t index,
                        const Judged& judged) {
  if (judged.timed_out) {
    const std::lock_guard lock(mutex_);
    ++hangs_[generated.check_id];
  }
  if (judged.finding) Investigate(lane, generated, index, judged, /*settle=*/false);
}

std::optional<SentCase> Campaign::RunCase(Lane& lane, std::size_t index) {
  std::optional<GeneratedCase> generated = NextCase(lane, index);
  if (!generated) {
    ++result_.generation_failures;
    return std::nullopt;
  }
  if (RecordAndSkip(*generated)) return std::nullopt;
  if (!generated->steps.empty()) return RunSequenceCase(lane, std::move(*generated), index);
  const auto sent = Clock::now();
  SentCase judged{*generated, SendAndJudge(*lane.session, *generated, /*settle=*/false)};
  // A case is counted only when it was sent: reopening a server found dead may have spent the
  // restart budget, and the lost session sent nothing.
  if (lane.session->lost() && judged.judged.observation.outcome == Outcome::kTransportError) {
    return std::nullopt;
  }
  CountSent(*generated);
  Add(Silent(*generated, judged.judged) ? result_.timing.silence : result_.timing.sending, sent);
  std::optional<ProcessExit> death = lane.session->TakeDeathBetweenExchanges();
  if (lane.death_before_next) death = std::exchange(lane.death_before_next, std::nullopt);
  Decide(lane, std::move(*generated), index, judged.judged, std::move(death));
  return judged;
}

void Campaign::Decide(Lane& lane, GeneratedCase generated, std::size_t index, const Judged& judged,
                      std::optional<ProcessExit> death_before) {
  // A stdio server found dead before this request ended after answering the previous one.
  if (death_before && lane.previous) {
    const Judged blamed =
        JudgeCase(Case{lane.previous->request, std::string(check::kNoEarlyExit), {}},
                  ExitObservation(*death_before), std::nullopt);
    if (blamed.finding) {
      const GeneratedCase previous = *lane.previous;
      Investigate(lane, previous, lane.previous_index, blamed, /*settle=*/true);
    }
  }
  Conclude(lane, generated, index, judged);
  if (lane.session->out_of_order() && !lane.noted_out_of_order) {
    lane.noted_out_of_order = true;
    std::string note = "the " + std::string(ToString(lane.session->revision())) +
                       " server answered a request after the sentinel written behind it (" +
                       lane.session->late_reply() + "); from case " + std::to_string(index) +
                       " on, every case waited for its reply";
    for (std::size_t finding : lane.drop_findings) {
      const CampaignFinding& suspect = result_.findings[finding];
      note += "; the finding of case " + std::to_string(suspect.case_index) + " (" +
              suspect.check_id + ") rests on a silence that may have been a slow reply";
    }
    result_.notes.push_back(std::move(note));
  }
  lane.previous = std::move(generated);
  lane.previous_index = index;
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
  finding.original = generated.request;

  TargetSession& session = *lane.session;
  // A stdio connection carries what earlier cases did to it (SDK v2 switches a connection's
  // era for good on one request without _meta). The re-sends, the shrinking and the reproducer
  // all start from a fresh process, so a failure that needs that history is reported flaky
  // rather than as a stable finding whose case file cannot reproduce it.
  session.Retire();
  const auto resending = Clock::now();
  // A signal ends the re-sends (and the shrinking below) after the exchange in flight: the
  // finding counts the re-sends that were made.
  for (finding.resends = 0; finding.resends < options_.resends && !Interrupted();
       ++finding.resends) {
    // A verdict that rests on a silence learnt before the full limit passed (an unproven drop,
    // a patience cut short) is first sent alone under the full limit: a server that answers
    // late is not to be reported for a silence it did not keep.
    const bool alone = finding.resends == 0 && SilenceCutShort(judged, session);
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
                           {shrink_sends, options_.max_shrink_time, options_.stop});
  } catch (...) {
    shrunk = {generated, judged, 0, 0};
  }
  Add(result_.timing.shrinking, shrinking);
  finding.minimal = shrunk.minimal.request;
  finding.variant = shrunk.minimal.variant;
  finding.verdict = shrunk.judged.verdict;
  finding.shrink_steps = shrunk.steps;
  finding.shrink_sends = shrunk.sends;

  finding.reproducer = Reproducer(finding.minimal, ReproducerFor(options_, session));
  WriteFinding(finding);
  if (judged.dropped) lane.drop_findings.push_back(result_.findings.size());
  result_.findings.push_back(std::move(finding));
  Report(/*force=*/true);
}

SentCase Campaign::RunSequenceCase(const Lane& lane, GeneratedCase generated, std::size_t index) {
  CountSent(generated);
  const auto sent = Clock::now();
  const SequenceRun run = RunSequence(link_, generated.steps);
  Add(result_.timing.sending, sent);
  SentCase out{generated, run.steps.empty() ? Judged{} : run.steps.back()};
  if (!run.error.empty()) {
    result_.notes.push_back("a sequence could not open its connection: " + run.error);
    return out;
  }
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
  finding.original = generated.steps[*run.failing].request;
  finding.original_steps = generated.steps.size();

  const auto resending = Clock::now();
  for (finding.resends = 0; finding.resends < options_.resends && !Interrupted();
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
                     {options_.max_shrink_sends, options_.max_shrink_time, options_.stop});
  Add(result_.timing.shrinking, shrinking);
  finding.steps = shrunk.minimal;
  finding.minimal = shrunk.minimal.back().request;
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

void Campaign::Report(bool force) {
  if (!progress_) return;
  const auto now = Clock::now();
  if (!force && now - last_report_ < kProgressInterval) return;
  last_report_ = now;
  CampaignProgress progress;
  progress.cases = result_.cases;
  progress.findings = result_.findings.size();
  progress.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(now - start_);
  const double seconds = std::chrono::duration<double>(now - start_).count();
  progress.cases_per_second = seconds > 0 ? static_cast<double>(result_.cases) / seconds : 0;
  progress_(progress);
}

void Campaign::AddCounts(const TargetSession& session) {
  result_.restarts += session.counts().reopens;
  result_.warm_restarts += session.counts().warm_reopens;
  result_.deaf_timeouts += session.counts().deaf_timeouts;
  result_.deaf_within_patience += session.counts().deaf_within_patience;
}

void Campaign::DropLostLane(std::size_t position) {
  const TargetSession& session = *lanes_[position].session;
  AddCounts(session);
  result_.notes.push_back("the " + std::string(ToString(session.revision())) +
                          " session was lost after " + std::to_string(result_.cases) +
                          " cases: " + session.why());
  lanes_.erase(lanes_.begin() + static_cast<std::ptrdiff_t>(position));
  // Which lane a case index goes to changed: what was sent ahead is for the old assignment.
  for (Lane& lane : lanes_) lane.ahead.clear();
}

void Campaign::RunSerial() {
  for (std::size_t position = 0; position < indices_.Count() && !lanes_.empty(); ++position) {
    if (StopNow()) break;
    const std::size_t index = indices_.At(position);
    Lane& lane = lanes_[index % lanes_.size()];
    if (lane.session->lost()) {
      DropLostLane(index % lanes_.size());
      continue;
    }
    RunCase(lane, index);
    Report(/*force=*/false);
  }
}

CampaignResult Campaign::Run() {
  // Nothing may escape: a finding already written stays written, and the partial result is
  // still returned.
  try {
    const auto starting = Clock::now();
    OpenLanes();
    const std::size_t workers = OpenWorkerSessions(std::max<std::size_t>(options_.concurrency, 1));
    Add(result_.timing.startup, starting);
    const bool stdio = !lanes_.empty() && lanes_.front().session->kind() == TransportKind::kStdio;
    if (workers > 1) {
      // The workers send while the coordinator judges: the loop's time, findings aside.
      const auto sending = Clock::now();
      RunParallel(workers);
      Add(result_.timing.sending, sending);
      result_.timing.sending -=
          std::min(result_.timing.sending, result_.timing.resends + result_.timing.shrinking);
    } else if (stdio && options_.stdio_pipeline_depth > 1) {
      RunPipelined(options_.stdio_pipeline_depth);
    } else {
      RunSerial();
    }
  } catch (const std::exception& error) {
    result_.notes.push_back(std::string("the campaign stopped: ") + error.what());
  } catch (...) {
    result_.notes.emplace_back("the campaign stopped on an unknown error");
  }
  for (const Lane& lane : lanes_) AddCounts(*lane.session);
  // Every server ends here, spares included, before the run reports its time.
  lanes_.clear();
  result_.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_);
  result_.sessions_opened = connections_;
  Report(/*force=*/true);
  return std::move(result_);
}

}  // namespace campaign_detail

CampaignResult RunCampaign(const TransportFactory& connect, const CampaignOptions& options,
                           const CampaignProgressCallback& progress) {
  return campaign_detail::Campaign(connect, options, progress).Run();
}

}  // namespace mcpfuzz
