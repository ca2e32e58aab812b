// The steps every case loop takes for one case, whichever loop it is (serial.cc, pipelined.cc,
// parallel.cc): draw it from the seed and its index, skip it after hangs of its check, send and
// judge it, blame a death found before it on the case before, and conclude it in case order.

#include <rapidcheck.h>

#include <bit>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>

#include "campaign/detail/campaign_loop.h"
#include "campaign/detail/judging.h"
#include "campaign/detail/sequence_run.h"
#include "generators/mutation.h"
#include "model/channel.h"
#include "oracles/check_ids.h"
#include "reports/finding_file.h"

namespace mcpfuzz::campaign_detail {
namespace {

constexpr int kMaxSize = 100;

}  // namespace

std::uint64_t SplitMix64(std::uint64_t value) {
  value += 0x9e3779b97f4a7c15ULL;
  value = (value ^ (value >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  value = (value ^ (value >> 27U)) * 0x94d049bb133111ebULL;
  return value ^ (value >> 31U);
}

std::optional<std::string> BigInputClass(const GeneratedCase& generated) {
  if (!generated.steps.empty()) return std::nullopt;
  std::size_t size = generated.BodyBytes();
  // A header value of the limits family costs its size on every send as a body does.
  for (const Header& header : generated.request.headers) size += header.value.size();
  if (size < kBigInputBytes) return std::nullopt;
  return generated.check_id + " " + std::to_string(std::bit_width(size - 1));
}

bool BudgetRecheck(std::uint64_t seed, std::size_t index, std::size_t every) {
  return every <= 1 || SplitMix64(CaseSeed(seed, index) ^ 0xb16'1e7ULL) % every == 0;
}

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

std::optional<GeneratedCase> Campaign::Generate(const Lane& lane, std::size_t index) const {
  return DrawCase(GeneratorFor(*lane.generator, lane.sequences, index), options_.seed, index);
}

std::optional<GeneratedCase> Campaign::Preview(const Lane& lane, std::size_t index) const {
  return DrawCase(GeneratorFor(*lane.preview, lane.sequences, index), options_.seed, index);
}

void Campaign::Write(const Lane& lane, std::size_t index, GeneratedCase& generated) const {
  if (generated.unwritten_bytes == 0) return;
  std::optional<GeneratedCase> written = Generate(lane, index);
  if (!written) throw std::runtime_error("case " + std::to_string(index) + " drew no case again");
  generated = std::move(*written);
}

void Campaign::CountSent(const GeneratedCase& generated) {
  ++result_.cases;
  ++result_.cases_per_family[generated.family];
  ++result_.cases_per_revision[std::string(ToString(generated.request.revision))];
}

void Campaign::Record(const GeneratedCase& generated) {
  // A big body by its size, which a preview knows before its bytes are written.
  const std::size_t size = generated.BodyBytes();
  result_.case_log.push_back(std::string(ToString(generated.request.revision)) + " " +
                             std::string(ToString(generated.request.transport)) + " " +
                             generated.check_id + " " +
                             (size >= kBigInputBytes ? "<" + std::to_string(size) + " bytes>"
                                                     : generated.request.WireBody()));
}

bool Campaign::RecordAndSkip(const GeneratedCase& generated, std::size_t index) {
  if (options_.record_cases) Record(generated);
  const std::lock_guard lock(mutex_);
  std::size_t& hangs = hangs_[generated.check_id];
  if (hangs >= kHangsBeforeSkipping) {
    if (hangs == kHangsBeforeSkipping) {
      result_.notes.push_back("cases of " + generated.check_id + " are no longer sent: " +
                              std::to_string(hangs) + " of them were not answered in time");
      ++hangs;  // So the note is written once per check.
    }
    ++result_.skipped;
    return true;
  }
  if (const std::optional<Budgeted> budgeted = BudgetOf(generated)) {
    std::size_t& sent = budgeted_sent_[budgeted->name];
    if (HeldBack(*budgeted, sent, index)) {
      ++(budgeted->sequence ? result_.sequences_held_back : result_.big_inputs_held_back);
      return true;
    }
    ++sent;
  }
  return false;
}

bool Campaign::WillSkip(const GeneratedCase& generated, std::size_t index) {
  const std::optional<Budgeted> budgeted = BudgetOf(generated);
  const std::lock_guard lock(mutex_);
  if (const auto hangs = hangs_.find(generated.check_id);
      hangs != hangs_.end() && hangs->second >= kHangsBeforeSkipping) {
    return true;
  }
  if (!budgeted) return false;
  const auto sent = budgeted_sent_.find(budgeted->name);
  return sent != budgeted_sent_.end() && HeldBack(*budgeted, sent->second, index);
}

std::optional<Budgeted> Campaign::BudgetOf(const GeneratedCase& generated) const {
  if (std::optional<std::string> size_class = BigInputClass(generated)) {
    return Budgeted{std::move(*size_class), options_.big_input_every, false};
  }
  if (generated.steps.empty() || !SequencesBudgeted(generated.request.transport)) {
    return std::nullopt;
  }
  return Budgeted{"sequence ending on " + generated.check_id, options_.sequence_every, true};
}

bool Campaign::SequencesBudgeted(TransportKind transport) const {
  // A run that names its families (the sequences family among them) asked for its sequences.
  return transport == TransportKind::kStdio && options_.families.empty();
}

bool Campaign::HeldBack(const Budgeted& budgeted, std::size_t sent, std::size_t index) const {
  return sent > 0 && !BudgetRecheck(options_.seed, index, budgeted.every);
}

void Campaign::Conclude(Lane& lane, const GeneratedCase& generated, std::size_t index,
                        const Judged& judged) {
  if (judged.timed_out) {
    const std::lock_guard lock(mutex_);
    ++hangs_[generated.check_id];
  }
  if (judged.finding) Investigate(lane, generated, index, judged, /*settle=*/false);
}

void Campaign::RunCase(Lane& lane, std::size_t index) {
  std::optional<GeneratedCase> generated = NextCase(lane, index);
  if (!generated) {
    ++result_.generation_failures;
    return;
  }
  if (RecordAndSkip(*generated, index)) return;
  if (!generated->steps.empty()) {
    SendSequence(lane, *generated, index);
    return;
  }
  Write(lane, index, *generated);
  SendAndDecide(lane, std::move(*generated), index);
}

void Campaign::SendSequence(Lane& lane, const GeneratedCase& generated, std::size_t index) {
  const SequenceOutcome outcome = RunSequenceCase(lane, generated, index);
  NoteUnplaceable(lane, generated, outcome.last.observation);
  if (lane.steering) Steer(lane, generated, index, outcome.last, outcome.taken);
}

void Campaign::RunMutant(Lane& lane, std::size_t index) {
  if (!lane.steering || lane.session->lost()) return;
  // A sequence's mutant is a connection of its own, over stdio a server start, as a sequence
  // of the default mix is: it goes under the same budget, one case in --sequence-every.
  const bool sequences = !SequencesBudgeted(lane.session->kind()) ||
                         BudgetRecheck(options_.seed, index, options_.sequence_every);
  std::optional<GeneratedCase> mutant = lane.steering->Mutant(index, sequences);
  if (!mutant) return;
  if (options_.record_cases) Record(*mutant);
  if (!mutant->steps.empty()) {
    SendSequence(lane, *mutant, index);
    return;
  }
  SendAndDecide(lane, std::move(*mutant), index);
}

void Campaign::SendAndDecide(Lane& lane, GeneratedCase generated, std::size_t index) {
  const auto sent = Clock::now();
  const Judged judged = SendAndJudge(*lane.session, generated, /*settle=*/false);
  // A case is counted only when it was sent: reopening a server found dead may have spent the
  // restart budget, and the lost session sent nothing.
  if (lane.session->lost() && judged.observation.outcome == Outcome::kTransportError) return;
  CountSent(generated);
  Add(Silent(generated, judged) ? result_.timing.silence : result_.timing.sending, sent);
  NoteUnplaceable(lane, generated, judged.observation);
  std::optional<ProcessExit> death = lane.session->TakeDeathBetweenExchanges();
  if (lane.death_before_next) death = std::exchange(lane.death_before_next, std::nullopt);
  // Moved, not copied: a case may be a body of megabytes.
  Decide(lane, std::move(generated), index, judged, std::move(death));
}

Judged JudgeDeath(const GeneratedCase& previous, const ProcessExit& death) {
  return JudgeCase(Case{previous.request, std::string(check::kNoEarlyExit), {}},
                   ExitObservation(death), std::nullopt);
}

void Campaign::Decide(Lane& lane, GeneratedCase generated, std::size_t index, const Judged& judged,
                      std::optional<ProcessExit> death_before) {
  // A stdio server found dead before this request ended after answering the previous one.
  if (death_before && lane.previous) {
    const Judged blamed = JudgeDeath(*lane.previous, *death_before);
    if (blamed.finding) {
      const GeneratedCase previous = *lane.previous;
      Investigate(lane, previous, lane.previous_index, blamed, /*settle=*/true);
    }
  }
  Conclude(lane, generated, index, judged);
  const std::optional<Taken> taken = TakeCoverage(lane);
  if (lane.steering) Steer(lane, generated, index, judged, taken);
  NoteOutOfOrder(lane, index);
  lane.previous = std::move(generated);
  lane.previous_index = index;
}

std::optional<Campaign::Taken> Campaign::TakeCoverage(Lane& lane) {
  if (!AskCoverage()) return std::nullopt;
  const auto asking = Clock::now();
  std::optional<Taken> taken = MergeCoverage(lane.session->TakeCoverage());
  Add(result_.timing.coverage, asking);
  return taken;
}

std::optional<Campaign::Taken> Campaign::MergeCoverage(Result<TargetSession::CoverageReply> taken) {
  if (!result_.coverage)
    result_.coverage.emplace().steered = options_.coverage == CoverageUse::kSteer;
  CampaignCoverage& coverage = *result_.coverage;
  if (!coverage.off.empty()) return std::nullopt;
  ++coverage.takes;
  auto gain = taken.ok() ? coverage_.Merge(taken->reply, taken->agent)
                         : Result<coverage::CoverageGain>(taken.error());
  if (!gain.ok()) {
    // The first take decides whether coverage is on: a server without the agent stays so.
    if (coverage.takes == 1) {
      coverage.off = gain.error().message;
    } else {
      ++coverage.missed;
    }
    return std::nullopt;
  }
  if (gain->blocks > 0) {
    coverage.blocks = coverage_.blocks();
    coverage.in_node_modules = coverage_.blocks_in_node_modules();
    // By cases sent, mutants included: the run's own clock, the same at every load.
    if (!coverage.growth.empty() && coverage.growth.back().cases == result_.cases) {
      coverage.growth.back().blocks = coverage.blocks;
    } else {
      coverage.growth.push_back({result_.cases, coverage.blocks});
    }
  }
  return Taken{std::move(*gain), taken->agent, taken->ended};
}

void Campaign::Steer(Lane& lane, const GeneratedCase& generated, std::size_t index,
                     const Judged& judged, const std::optional<Taken>& taken) {
  Steering& steering = *lane.steering;
  steering.Heard(judged.observation);
  if (generated.family == gen::kMutantFamily) ++result_.coverage->mutants;
  // A large case's point is its size, and a finding is investigated already: neither is a
  // parent worth mutating.
  // Nor is a case that ended the server (its death is judged at the next request and then
  // investigated): its blocks count, but a re-send for stability would only end it again.
  if (generated.request.WireSize() > kMaxParentBytes || judged.finding || (taken && taken->ended)) {
    return;
  }
  const Reply reply = ClassifyReply(generated.request, judged.observation);
  // A sequence costs a connection: an answer of a new shape alone does not earn it a place,
  // nor does it take the shape from a case that would join for it.
  const bool new_answer =
      generated.steps.empty() &&
      steering.NewAnswer(generated.check_id + " " + std::string(ToString(reply.channel)) + " " +
                         (reply.error_code ? std::to_string(*reply.error_code) : ""));
  // A case that ran new code joins even when none of it ran again on the re-send (AFL keeps
  // such an input too): its blocks are known now, so no later case would be credited with
  // them, and a step of a deeper path would be lost for good. Stability only weighs it.
  const bool ran_new = taken && taken->gain.blocks > 0;
  // Nor is one whose reply may still come sent again on this process (judged a drop or a
  // timeout): its id would make that late reply the re-send's answer, and the re-send's own
  // reply a stray for the case after it. A sequence is sent again on a connection of its own.
  const bool may_answer_late = generated.steps.empty() && (judged.dropped || judged.timed_out);
  const std::size_t blocks =
      ran_new && !may_answer_late ? StableBlocks(lane, generated, *taken) : 0;
  if (!ran_new && !new_answer) return;
  steering.Add(generated, index, ran_new, blocks, new_answer, judged.observation);
  WriteCorpusEntry(generated, index, judged);
}

void Campaign::WriteCorpusEntry(const GeneratedCase& generated, std::size_t index,
                                const Judged& judged) const {
  if (options_.corpus_dir.empty()) return;
  FindingRecord record;
  static_cast<Case&>(record) = generated;
  record.steps = generated.steps;
  record.origin =
      "fuzz --coverage seed=" + std::to_string(options_.seed) + " case=" + std::to_string(index);
  record.verdict = judged.verdict;
  CampaignFacts& facts = record.campaign.emplace();
  facts.family = generated.family;
  facts.variant = generated.variant;
  facts.seed = options_.seed;
  facts.case_index = index;
  // Best effort, as the corpus is: a folder that cannot be written costs no finding.
  (void)WriteCaseFile(options_.corpus_dir / kCoverageCorpusFolder,
                      "coverage-seed" + std::to_string(options_.seed) + "-case" +
                          std::to_string(index) +
                          (generated.family == gen::kMutantFamily ? "-mutant" : "") + ".json",
                      FindingToJson(record));
}

std::size_t Campaign::StableBlocks(Lane& lane, const GeneratedCase& generated, const Taken& taken) {
  if (lane.session->lost()) return 0;
  const auto resending = Clock::now();
  // Judged as any exchange is, but only its coverage counts: the case was judged already.
  Result<TargetSession::CoverageReply> again = Error{"not sent"};
  if (generated.steps.empty()) {
    (void)SendAndJudge(*lane.session, generated, /*settle=*/false);
    again = lane.session->TakeCoverage(/*all=*/true);
  } else if (auto run = RunSequence(link_, generated.steps, /*take_coverage=*/true, /*all=*/true);
             run.coverage) {
    again = std::move(*run.coverage);
  }
  Add(result_.timing.coverage, resending);
  // On another process (the case ended the server) every block of a start-up runs again; a
  // sequence over stdio runs on a process of its own each time, start-up and all.
  if (!again.ok() || (generated.steps.empty() && again->agent != taken.agent)) return 0;
  auto ran = coverage_.MergeAll(again->reply, again->agent);
  if (!ran.ok()) return 0;
  const std::unordered_set<coverage::BlockKey> ran_again(ran->begin(), ran->end());
  std::vector<coverage::BlockKey> unstable;
  for (const coverage::BlockKey key : taken.gain.keys) {
    if (!ran_again.contains(key)) unstable.push_back(key);
  }
  coverage_.MarkUnstable(unstable);
  CampaignCoverage& coverage = *result_.coverage;
  coverage.unstable = coverage_.unstable_blocks();
  coverage.blocks = coverage_.blocks();
  coverage.in_node_modules = coverage_.blocks_in_node_modules();
  return taken.gain.keys.size() - unstable.size();
}

void Campaign::NoteOutOfOrder(Lane& lane, std::size_t index) {
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
}

}  // namespace mcpfuzz::campaign_detail
