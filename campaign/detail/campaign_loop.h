#pragma once
// Internal: the state of one campaign run and its one case loop, in three implementations, one
// file each: serial (serial.cc), stdio windows written back to back (pipelined.cc) and workers
// for --concurrency, each with an HTTP connection or a stdio process of its own (parallel.cc).
// Each walks the same case indices (case_walk.h) and takes the same steps per case (cases.cc);
// whatever decides the outcome — counting cases, skipping after hangs, recognising findings,
// deduplicating them — happens in case-index order on one thread, so how cases are sent never
// changes what is reported. Findings are investigated in findings.cc.

#include <rapidcheck/Gen.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "campaign/campaign.h"
#include "campaign/detail/case_walk.h"
#include "campaign/detail/judging.h"
#include "campaign/detail/prefetch.h"
#include "campaign/detail/steering.h"
#include "generators/generated_case.h"
#include "transport/session.h"
#include "transport/transport.h"

namespace mcpfuzz::campaign_detail {

/// A stdio case written ahead in a pipelined window, waiting to be judged in case order.
struct SentAhead {
  GeneratedCase generated;
  Observation observation;
  /// The window's sentinel and what it got.
  Request sentinel;
  Observation sentinel_observation;
  /// The connection the window went out on (TargetSession::generation()).
  std::size_t generation = 0;
  /// The first case of the window carries a death found before the window was sent.
  std::optional<ProcessExit> death_before;
};

/// The sessions of one revision and the generator drawn from what the first saw of the target.
struct Lane {
  /// The first session: worker 0 sends on it, and findings are re-sent and shrunk on it.
  std::unique_ptr<TargetSession> session;
  /// Sessions of workers 1..N-1 (--concurrency N), each with its own connection (over stdio,
  /// its own server process).
  std::vector<std::unique_ptr<TargetSession>> extra;
  /// The target as the first session saw it, for the generators.
  GenContext context;
  std::optional<rc::Gen<GeneratedCase>> generator;
  /// The same generator over the context with GenContext::big_bodies_unwritten: the cases
  /// drawn in order come from it, and a megabyte body is written only once it is to be sent.
  std::optional<rc::Gen<GeneratedCase>> preview;
  /// The sequences family, when no family was named and it applies here: every
  /// kSequenceEvery-th case is drawn from it instead (Campaign::Generate).
  std::optional<rc::Gen<GeneratedCase>> sequences;
  /// The last case sent on this lane, to blame a death found before the next one (serial).
  std::optional<GeneratedCase> previous;
  std::size_t previous_index = 0;
  /// Stdio pipelining: cases sent ahead on `session`, by case index.
  std::map<std::size_t, SentAhead> ahead;
  /// Windows whose answers had to be sent again one at a time; after a few, this lane sends
  /// one case at a time.
  std::size_t troubled_windows = 0;
  /// A death found before a window that is sent again one case at a time: blamed when the
  /// first of them is judged.
  std::optional<ProcessExit> death_before_next;
  bool noted_out_of_order = false;
  /// Findings of this lane whose verdict rests on a drop (indices in CampaignResult::findings).
  std::vector<std::size_t> drop_findings;
  /// Checks whose cases this lane sends alone (pipelined.cc).
  std::set<std::string> alone_checks;
  /// CoverageUse::kSteer: this lane's corpus and mutants (its revision's requests).
  std::unique_ptr<Steering> steering;

  TargetSession& WorkerSession(std::size_t worker) {
    return worker == 0 ? *session : *extra[worker - 1];
  }
};

/// Sends `generated`'s check alone on `lane` from now on when what the server wrote for it,
/// sent alone, is something no pipeline could have placed (pipelined.cc).
void NoteUnplaceable(Lane& lane, const GeneratedCase& generated, const Observation& observation);

/// With the default families, one case in this many is a sequence where sequences apply (a
/// handshake era, or 2026-07-28 over stdio, where a connection's era is locked): each opens
/// a connection of its own, over stdio a process, so they are kept few; and the other cases
/// stay what they were at every seed, drawn at their own indices.
inline constexpr std::size_t kSequenceEvery = 64;

/// Each case left unanswered costs a whole timeout: after this many, cases of the same check
/// are generated but no longer sent.
inline constexpr std::size_t kHangsBeforeSkipping = 3;

/// A request this large (body and header values) is a big input
/// (CampaignOptions::big_input_every).
inline constexpr std::size_t kBigInputBytes = std::size_t{64} << 10;

/// The size class of a big input: its check and the power of two its body's size is at most
/// (sizes in (2^(k-1), 2^k] share one, so a limit of 1 or 4 MiB and one byte past it differ).
/// Nothing for a smaller case or a sequence.
std::optional<std::string> BigInputClass(const GeneratedCase& generated);

/// Whether case `index` of a run seeded `seed` re-checks a class sent before (a big input's size
/// class, a sequence's last check): one case in `every`, drawn from the index apart from what
/// the case's own draw uses.
bool BudgetRecheck(std::uint64_t seed, std::size_t index, std::size_t every);

/// A case that costs far more than an ordinary one, sent under a budget: the first of its class,
/// then one in `every` (CampaignOptions::big_input_every, sequence_every).
struct Budgeted {
  std::string name;  ///< The class: a big input's size class, or a sequence's last check.
  std::size_t every = 1;
  bool sequence = false;  ///< A stdio sequence of the default mix, else a big input.
};

/// The case got no reply: a drop, a timeout, a notification's quiet window.
bool Silent(const GeneratedCase& generated, const Judged& judged);

/// The verdict on `previous`, the case a stdio server answered last before it was found ended
/// (`death`) by the next request on the same process.
Judged JudgeDeath(const GeneratedCase& previous, const ProcessExit& death);

/// SplitMix64's mixing: what the campaign's draws from a seed and an index go through.
std::uint64_t SplitMix64(std::uint64_t value);

/// The seed of case `index`: everything about the case follows from it and the index.
std::uint64_t CaseSeed(std::uint64_t run_seed, std::size_t index);
int CaseSize(std::size_t index);
/// Case `index` of a run drawn from `generator`; nothing when the generator failed. Pure.
std::optional<GeneratedCase> DrawCase(const rc::Gen<GeneratedCase>& generator,
                                      std::uint64_t run_seed, std::size_t index);
/// The generator case `index` of a lane comes from: `sequences`, when the lane has it, for one
/// case in kSequenceEvery, else `cases`.
const rc::Gen<GeneratedCase>& GeneratorFor(const rc::Gen<GeneratedCase>& cases,
                                           const std::optional<rc::Gen<GeneratedCase>>& sequences,
                                           std::size_t index);

class CasePipeline;

class Campaign {
 public:
  Campaign(const TransportFactory& connect, const CampaignOptions& options,
           const CampaignProgressCallback& progress)
      // Sequences, re-sends and shrinking each start a server of their own over stdio, one
      // after the other: the next is started while the last is in use (StartingAhead).
      : connect_([this, ahead = StartingAhead(connect)] {
          ++connections_;  // CampaignResult::sessions_opened
          return ahead();
        }),
        link_(connect_),
        options_(options),
        progress_(progress),
        indices_(CaseIndices::Shard(options.shard_index, options.shard_count, options.max_cases)),
        limits_{options.duration, options.stop, options.clock} {}

  CampaignResult Run();

 private:
  using Clock = std::chrono::steady_clock;

  void OpenLanes();
  /// Opens the sessions of workers 1..N-1; returns how many workers can run.
  std::size_t OpenWorkerSessions(std::size_t wanted);
  void RunSerial();
  /// The pipeline of parallel.cc for --concurrency above 1: cases drawn on one thread, sent
  /// and judged on `workers` others, concluded on the calling one.
  void RunParallel(std::size_t workers);
  /// Stdio with stdio_pipeline_depth > 1: RunSerial's outcome, with windows of cases written
  /// back to back (pipelined.cc).
  void RunPipelined(std::size_t depth);
  /// Writes the window of cases starting at `index` on `lane` (those of its next cases whose
  /// replies can be told apart) into lane.ahead; marks them `alone` when it went wrong.
  void SendAhead(Lane& lane, std::size_t index, std::size_t depth, std::set<std::size_t>& alone);
  /// Adds what `session` counted (restarts, deafness) to the result.
  void AddCounts(const TargetSession& session);
  /// Removes the lane at `position`, noting why.
  void DropLostLane(std::size_t position);
  /// Generates, sends and decides case `index`. A case sent alone whose answer no pipeline
  /// could have placed sends its check alone on this lane from then on (Lane::alone_checks).
  void RunCase(Lane& lane, std::size_t index);
  /// CoverageUse::kSteer, after case `index`: a mutant of the lane's corpus, when it gives one.
  /// It is numbered by the case it follows.
  void RunMutant(Lane& lane, std::size_t index);
  /// Sends `generated` (case `index`, or a mutant after it) and decides it.
  void SendAndDecide(Lane& lane, GeneratedCase generated, std::size_t index);
  /// Appends `generated` to CampaignResult::case_log.
  void Record(const GeneratedCase& generated);
  /// In case order, after case `index` was judged: blames a death found before it on the case
  /// before, then concludes it.
  void Decide(Lane& lane, GeneratedCase generated, std::size_t index, const Judged& judged,
              std::optional<ProcessExit> death_before);
  /// With CampaignOptions::coverage, after a case was decided: what `lane`'s server ran since
  /// the last take, and which of its processes' agents said so; nothing when no take succeeded.
  struct Taken {
    coverage::CoverageGain gain;
    std::size_t agent = 0;
    /// The last take of a process the case ended (TargetSession::CoverageReply::ended).
    bool ended = false;
  };
  std::optional<Taken> TakeCoverage(Lane& lane);
  /// Whether the server's agent is asked: coverage is on, and its first take did not find it off.
  bool AskCoverage() const {
    return options_.coverage != CoverageUse::kOff &&
           (!result_.coverage || result_.coverage->off.empty());
  }
  /// Merges what a take got (on `lane`'s session, or a worker's), in case order.
  std::optional<Taken> MergeCoverage(Result<TargetSession::CoverageReply> taken);
  /// CoverageUse::kSteer, after case `index` was decided: whether it joins the lane's corpus.
  void Steer(Lane& lane, const GeneratedCase& generated, std::size_t index, const Judged& judged,
             const std::optional<Taken>& taken);
  /// Sends `generated` again and returns how many of the blocks it ran first (`taken`) ran
  /// again; marks the others unstable.
  std::size_t StableBlocks(Lane& lane, const GeneratedCase& generated, const Taken& taken);
  /// Writes a corpus entry as a case file under the corpus folder, when there is one.
  void WriteCorpusEntry(const GeneratedCase& generated, std::size_t index,
                        const Judged& judged) const;
  /// Once per lane, when case `index` is the first decided after the target answered a
  /// request after the sentinel behind it: a note, naming the findings that rest on a silence.
  void NoteOutOfOrder(Lane& lane, std::size_t index);
  /// Adds the time since `since` to `into`.
  static void Add(std::chrono::microseconds& into, Clock::time_point since) {
    into += std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - since);
  }

  /// Case `index` drawn from the lane's generator; nothing when the generator failed. Pure:
  /// safe from any thread.
  std::optional<GeneratedCase> Generate(const Lane& lane, std::size_t index) const;
  /// Case `index` as Generate draws it, but a megabyte body left unwritten (Lane::preview):
  /// what deciding in case order whether it is sent needs. Pure: safe from any thread.
  std::optional<GeneratedCase> Preview(const Lane& lane, std::size_t index) const;
  /// Case `index` of `lane`, previewed, made whole once it is to be sent: the one step between
  /// a preview and a transport.
  void Write(const Lane& lane, std::size_t index, GeneratedCase& generated) const;
  /// Case `index` for the serial loop, previewed: over HTTP (CampaignOptions::pipeline) drawn
  /// ahead on a thread of its own, else drawn now (prefetch.cc).
  std::optional<GeneratedCase> NextCase(const Lane& lane, std::size_t index);
  /// In case order: records the case (record_cases) and decides whether it is skipped because
  /// earlier cases of its check went unanswered, or held back as a big input or a stdio
  /// sequence of a class already sent.
  bool RecordAndSkip(const GeneratedCase& generated, std::size_t index);
  /// Whether RecordAndSkip will skip case `index` whatever the cases before it that are not
  /// concluded yet: what hangs and budgeted cases counted so far only grow. Lets a worker or a
  /// pipelined window leave a case unsent (locked: workers call it).
  bool WillSkip(const GeneratedCase& generated, std::size_t index);
  /// Whether the sequences of a run over `transport` (and their coverage mutants) go under
  /// CampaignOptions::sequence_every: over stdio, with the default families.
  bool SequencesBudgeted(TransportKind transport) const;
  /// The budget `generated` is sent under, if any.
  std::optional<Budgeted> BudgetOf(const GeneratedCase& generated) const;
  /// Whether case `index`, of a budgeted class sent `sent` times before, is held back: the one
  /// rule RecordAndSkip and WillSkip share.
  bool HeldBack(const Budgeted& budgeted, std::size_t sent, std::size_t index) const;
  /// Writes `finding` as a case file into the corpus, when there is one, and says where.
  void WriteFinding(CampaignFinding& finding) const;
  /// Counts `generated` as sent: in all, per family and per revision.
  void CountSent(const GeneratedCase& generated);
  /// In case order: counts a hang, and investigates a finding.
  void Conclude(Lane& lane, const GeneratedCase& generated, std::size_t index,
                const Judged& judged);
  /// A bad verdict on `generated` (case `index`): re-send, shrink, record, write.
  void Investigate(Lane& lane, const GeneratedCase& generated, std::size_t index,
                   const Judged& judged, bool settle);
  /// What a sequence case gave: the judgement of its last step sent, and with
  /// CampaignOptions::coverage what the server ran for it.
  struct SequenceOutcome {
    Judged last;
    std::optional<Taken> taken;
  };
  /// A case of the sequences family (or a mutant of one): sent on a fresh connection, and when
  /// a step fails, re-sent, shrunk by removing steps and written like any finding
  /// (sequence_run.h).
  SequenceOutcome RunSequenceCase(const Lane& lane, const GeneratedCase& generated,
                                  std::size_t index);
  /// RunSequenceCase, then what steering makes of it (RunCase and RunMutant).
  void SendSequence(Lane& lane, const GeneratedCase& generated, std::size_t index);
  void Report(bool force);
  bool EnoughFindings() const {
    return options_.max_findings > 0 && result_.findings.size() >= options_.max_findings;
  }
  bool Interrupted() const { return limits_.Interrupted(); }
  /// No new case is started: the time is up, enough findings, or the run was interrupted.
  bool StopNow() const { return limits_.Over() || EnoughFindings(); }

  friend class CasePipeline;

  std::atomic<std::size_t> connections_{0};  // workers reopen sessions too
  const TransportFactory connect_;
  // Every session of the run shares it: the give-up rule and whether sentinels prove drops.
  TargetLink link_;
  const CampaignOptions& options_;
  const CampaignProgressCallback& progress_;
  // This run's case indices: every one, or one shard's.
  const CaseIndices indices_;
  CampaignResult result_;
  std::vector<Lane> lanes_;
  std::map<std::string, std::size_t> seen_;  // signature → index in result_.findings
  // This run's time limit and signal; its start.
  const RunLimits limits_;
  Clock::time_point last_report_ = limits_.start;

  // Guards hangs_ and budgeted_sent_: RunParallel's workers read them.
  std::mutex mutex_;
  std::map<std::string, std::size_t> hangs_;          // case check id → hangs it caused
  std::map<std::string, std::size_t> budgeted_sent_;  // Budgeted::name → cases sent
  std::map<Revision, std::size_t> sessions_ended_;    // sessions the server ended unasked
  coverage::CoverageMap coverage_;                    // CampaignOptions::coverage

  // Last, so its thread stops before anything else goes.
  std::unique_ptr<CasePrefetcher> prefetch_;
  std::size_t prefetch_lanes_ = 0;  // the lanes prefetch_ draws for
};

}  // namespace mcpfuzz::campaign_detail
