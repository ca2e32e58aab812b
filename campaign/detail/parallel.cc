// --concurrency N: a generator thread draws the cases in index order into a bounded queue; N
// workers, each with its own session per lane (over stdio, its own server process), take them
// in order, send and judge them; the calling thread (the coordinator) takes the verdicts back
// in case-index order and decides everything there, exactly as the serial loop would: what
// counts as a case, what is skipped after hangs, which finding comes first, what is a repeat.
//
// Over stdio a server that ends right after answering a case is blamed for it as the serial
// loop blames it, which finds the death when the next case on the same process is sent. A
// worker learns it at once, from the sentinel written behind the case, and the coordinator
// blames the case right after concluding it: where the serial loop blames it, before the next
// case is concluded. A server that ends only after answering the sentinel too is found by the
// worker's next case on that process and blamed on the case that worker sent before, the case
// the serial loop blames; that finding is listed when the case that found the death is
// concluded, which may be after findings of cases in between.
//
// The target sees what the serial loop shows it: after an exchange that may change what comes
// next — a finding not seen before (it is re-sent and shrunk at once), a failed exchange (a
// hang counts towards skipping its check; the session is reopened), a lost session — no
// worker takes a new case until the coordinator has concluded that one; while it re-sends and
// shrinks a new finding on worker 0's session, every worker waits (cases already in flight on
// other workers finish first).
//
// The pipeline counts positions in the run's case indices (CaseIndices: every index, or one
// shard's); the campaign is told the case index at each position.

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "campaign/detail/campaign_loop.h"

namespace mcpfuzz::campaign_detail {
namespace {

// How far workers may run ahead of the coordinator, per worker: bounds the memory of results
// waiting to be taken, and the cases sent in vain after the run stops early.
constexpr std::size_t kAheadPerWorker = 32;
// Results handed in before the coordinator is woken to take them.
constexpr std::size_t kBatch = 16;
// Cases generated ahead of the workers. A full queue wakes the generator again only once half
// of it was taken: each wake-up is a context switch on a machine the target shares.
constexpr std::size_t kGeneratedAhead = 64;

/// One case index on its way through the pipeline.
struct Slot {
  std::optional<GeneratedCase> generated;  ///< Empty: the generator failed.
  std::optional<Judged> judged;            ///< Empty: not sent (skipped after hangs).
  bool lost = false;                       ///< The worker's session could not be reopened.
  std::string lost_reason;
  /// Stdio: the sentinel behind this case found the server ended after answering it.
  std::optional<ProcessExit> died_after;
  /// Stdio: the server was found ended before this case, after answering `blamed`, the case
  /// the worker sent before on that process.
  std::optional<ProcessExit> death_before;
  std::optional<std::size_t> blamed;
  /// --coverage-measure: what the worker's server ran for this case, taken on the worker's
  /// thread (the session is the worker's) and merged by the coordinator in case order.
  std::optional<Result<TargetSession::CoverageReply>> coverage;
  std::string error;  ///< An exception a stage caught; stops the run.
};

}  // namespace

class CasePipeline {
 public:
  CasePipeline(Campaign& campaign, std::size_t workers)
      : campaign_(campaign),
        workers_(workers),
        ahead_(kAheadPerWorker * workers),
        max_cases_(campaign.indices_.Count()) {}
  ~CasePipeline() { StopAndJoin(); }
  CasePipeline(const CasePipeline&) = delete;
  CasePipeline& operator=(const CasePipeline&) = delete;

  /// Runs until every case is concluded or the run stops.
  void Run();

 private:
  void GenerateCases();
  void Work(std::size_t worker);
  /// Waits for the next case a worker may send; nothing when the workers must stop.
  std::optional<std::pair<std::size_t, Slot>> TakeCase();
  /// `previous`: per lane, the case index this worker sent last on it.
  void Send(std::size_t worker, std::size_t position, Slot& slot,
            std::vector<std::optional<std::size_t>>& previous);
  void HandIn(std::size_t index, Slot slot);
  /// True when the next case must wait until `slot` is concluded (see the top of the file).
  bool MustConcludeFirst(const Slot& slot) const;
  /// Records that case `index` is concluded; lets the workers go on after it.
  void Concluded(std::size_t index, const Slot& slot);
  /// Waits for the results from `index` on, in order.
  void TakeResults(std::size_t index, std::vector<Slot>& batch);
  /// False when the run stops.
  bool Conclude(std::size_t position, Slot& slot);
  /// Judges the death a worker found before a case on case `blamed`, and investigates it.
  void BlameDeath(Lane& lane, const ProcessExit& death, std::size_t blamed);
  void Pause();
  void Resume();
  void StopAndJoin();

  Campaign& campaign_;
  const std::size_t workers_;
  const std::size_t ahead_;
  const std::size_t max_cases_;  // positions, not case indices
  std::vector<std::thread> threads_;

  // Shared by the stages, under mutex_.
  std::mutex mutex_;
  std::condition_variable room_;     // the generator waits on it
  std::condition_variable changed_;  // the workers wait on it
  std::condition_variable ready_;    // the coordinator waits on it
  std::deque<Slot> generated_;       // cases next_, next_ + 1, ... in order
  bool generator_waiting_ = false;
  std::size_t workers_waiting_ = 0;
  std::map<std::size_t, Slot> done_;
  std::size_t next_ = 0;     // the next index a worker takes
  std::size_t taken_ = 0;    // indices below it were taken back by the coordinator
  std::size_t sending_ = 0;  // workers between taking an index and handing in its slot
  bool paused_ = false;      // the coordinator is investigating: take no new index
  bool stop_ = false;
  std::size_t concluded_ = 0;            // indices below it were concluded by the coordinator
  std::optional<std::size_t> wait_for_;  // take no new index before this one is concluded
  std::set<std::string> signatures_;     // of the findings concluded so far
};

void CasePipeline::GenerateCases() {
  for (std::size_t index = 0; index < max_cases_; ++index) {
    {
      std::unique_lock lock(mutex_);
      if (generated_.size() >= kGeneratedAhead) {
        generator_waiting_ = true;
        room_.wait(lock, [&] { return stop_ || generated_.size() <= kGeneratedAhead / 2; });
        generator_waiting_ = false;
      }
      if (stop_) return;
    }
    Slot slot;
    try {
      const std::size_t at = campaign_.indices_.At(index);
      slot.generated = campaign_.Preview(campaign_.lanes_[at % campaign_.lanes_.size()], at);
    } catch (const std::exception& error) {
      slot.error = error.what();
    } catch (...) {
      slot.error = "unknown error";
    }
    bool wake = false;
    {
      const std::lock_guard lock(mutex_);
      generated_.push_back(std::move(slot));
      // Only a worker that found the queue empty waits for the generator.
      wake = workers_waiting_ > 0 && generated_.size() == 1;
    }
    if (wake) changed_.notify_all();
  }
}

std::optional<std::pair<std::size_t, Slot>> CasePipeline::TakeCase() {
  std::unique_lock lock(mutex_);
  ++workers_waiting_;
  changed_.wait(lock, [&] {
    return stop_ || next_ >= max_cases_ ||
           (!paused_ && next_ < taken_ + ahead_ && !generated_.empty() &&
            !(wait_for_ && concluded_ <= *wait_for_));
  });
  --workers_waiting_;
  if (stop_ || next_ >= max_cases_) return std::nullopt;
  std::pair<std::size_t, Slot> taken{next_++, std::move(generated_.front())};
  generated_.pop_front();
  ++sending_;
  const bool wake = generator_waiting_ && generated_.size() <= kGeneratedAhead / 2;
  lock.unlock();
  if (wake) room_.notify_one();
  return taken;
}

void CasePipeline::Send(std::size_t worker, std::size_t position, Slot& slot,
                        std::vector<std::optional<std::size_t>>& previous) {
  const std::size_t index = campaign_.indices_.At(position);
  const std::size_t lane = index % campaign_.lanes_.size();
  TargetSession& session = campaign_.lanes_[lane].WorkerSession(worker);
  // A case skipped here would be skipped by the coordinator too (WillSkip); this only saves
  // sending it. A sequence opens a connection of its own: the coordinator runs it (Conclude).
  if (!slot.error.empty() || !slot.generated || !slot.generated->steps.empty() ||
      campaign_.WillSkip(*slot.generated, index)) {
    return;
  }
  campaign_.Write(campaign_.lanes_[lane], index, *slot.generated);
  slot.judged = SendAndJudge(session, *slot.generated, /*settle=*/false);
  if (campaign_.options_.coverage != CoverageUse::kOff) slot.coverage = session.TakeCoverage();
  slot.lost = session.lost();
  if (slot.lost) slot.lost_reason = session.why();
  slot.death_before = session.TakeDeathBetweenExchanges();
  if (slot.death_before) slot.blamed = previous[lane];
  if (const std::optional<Exchange>& sentinel = session.last_sentinel();
      sentinel && !ProcessEnded(slot.judged->observation) &&
      (sentinel->observation.outcome == Outcome::kExited || ProcessEnded(sentinel->observation))) {
    slot.died_after = session.EndedAfterReply(&sentinel->observation);
  }
  // As RunCase: a case the lost session could not send is no case, nor one to blame.
  if (!slot.lost || slot.judged->observation.outcome != Outcome::kTransportError) {
    previous[lane] = index;
  }
}

void CasePipeline::HandIn(std::size_t index, Slot slot) {
  bool wake = false;
  {
    const std::lock_guard lock(mutex_);
    if (MustConcludeFirst(slot)) wait_for_ = std::max(wait_for_.value_or(0), index);
    done_.emplace(index, std::move(slot));
    --sending_;
    // The coordinator is woken once per batch, not per case. It is woken at once when it waits
    // for this worker (a pause), when the workers are about to wait for it (the window is
    // full, or a case must be concluded first), and for the last cases.
    wake = paused_ || wait_for_ || done_.size() >= kBatch || next_ >= max_cases_ ||
           next_ >= taken_ + ahead_;
  }
  if (wake) ready_.notify_one();
}

bool CasePipeline::MustConcludeFirst(const Slot& slot) const {
  if (slot.lost || !slot.error.empty() || slot.death_before || slot.died_after) return true;
  if (!slot.judged) return false;
  // A stdio drop is an answer (the sentinel behind it was answered), not a failed exchange.
  const Outcome outcome = slot.judged->observation.outcome;
  return (outcome != Outcome::kOk && outcome != Outcome::kDropped) ||
         (slot.judged->finding && !signatures_.contains(slot.judged->signature));
}

void CasePipeline::Concluded(std::size_t index, const Slot& slot) {
  bool wake = false;
  {
    const std::lock_guard lock(mutex_);
    concluded_ = index + 1;
    if (slot.judged && slot.judged->finding) signatures_.insert(slot.judged->signature);
    wake = wait_for_ && *wait_for_ == index;
    if (wake) wait_for_.reset();
  }
  if (wake) changed_.notify_all();
}

void CasePipeline::Work(std::size_t worker) {
  std::vector<std::optional<std::size_t>> previous(campaign_.lanes_.size());
  while (auto taken = TakeCase()) {
    auto& [index, slot] = *taken;
    try {
      Send(worker, index, slot, previous);
    } catch (const std::exception& error) {
      slot.error = error.what();
    } catch (...) {
      slot.error = "unknown error";
    }
    HandIn(index, std::move(slot));
  }
}

void CasePipeline::TakeResults(std::size_t index, std::vector<Slot>& batch) {
  batch.clear();
  {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return done_.contains(index); });
    for (auto slot = done_.find(index); slot != done_.end() && slot->first == index + batch.size();
         slot = done_.erase(slot)) {
      batch.push_back(std::move(slot->second));
    }
    taken_ = index + batch.size();
  }
  changed_.notify_all();
}

void CasePipeline::Pause() {
  std::unique_lock lock(mutex_);
  paused_ = true;
  ready_.wait(lock, [&] { return sending_ == 0; });
}

void CasePipeline::Resume() {
  {
    const std::lock_guard lock(mutex_);
    paused_ = false;
  }
  changed_.notify_all();
}

// Everything below decides in case order; the exchanges were made by the workers.
bool CasePipeline::Conclude(std::size_t position, Slot& slot) {
  Campaign& campaign = campaign_;
  const std::size_t index = campaign.indices_.At(position);
  CampaignResult& result = campaign.result_;
  if (!slot.error.empty()) {
    result.notes.push_back("the campaign stopped: " + slot.error);
    return false;
  }
  Lane& lane = campaign.lanes_[index % campaign.lanes_.size()];
  if (!slot.generated) {
    ++result.generation_failures;
    return true;
  }
  if (!slot.generated->steps.empty()) {
    // Alone: RunSequenceCase keeps findings as the serial loop does, with no worker sending.
    if (campaign.RecordAndSkip(*slot.generated, index)) return true;
    Pause();
    campaign.RunSequenceCase(lane, std::move(*slot.generated), index);
    Resume();
    campaign.Report(/*force=*/false);
    return true;
  }
  if (campaign.RecordAndSkip(*slot.generated, index) || !slot.judged) return true;
  if (slot.lost) {
    result.notes.push_back("the " + std::string(ToString(lane.session->revision())) +
                           " session was lost after " + std::to_string(result.cases) +
                           " cases: " + slot.lost_reason);
    return false;
  }
  campaign.CountSent(*slot.generated);
  if (slot.death_before && slot.blamed) BlameDeath(lane, *slot.death_before, *slot.blamed);
  const Judged& judged = *slot.judged;
  const bool new_finding = judged.finding && !campaign.seen_.contains(judged.signature);
  if (new_finding) Pause();
  campaign.Conclude(lane, *slot.generated, index, judged);
  if (slot.coverage) campaign.MergeCoverage(std::move(*slot.coverage));
  if (new_finding) Resume();
  if (slot.died_after) BlameDeath(lane, *slot.died_after, index);
  campaign.NoteOutOfOrder(lane, index);
  campaign.Report(/*force=*/false);
  return true;
}

void CasePipeline::BlameDeath(Lane& lane, const ProcessExit& death, std::size_t blamed) {
  // Drawn again from its index: a worker keeps indices, not cases that may be megabytes.
  const std::optional<GeneratedCase> previous = campaign_.Generate(lane, blamed);
  if (!previous) return;
  const Judged judged = JudgeDeath(*previous, death);
  if (!judged.finding) return;
  const bool new_finding = !campaign_.seen_.contains(judged.signature);
  if (new_finding) Pause();
  campaign_.Investigate(lane, *previous, blamed, judged, /*settle=*/true);
  if (new_finding) Resume();
}

void CasePipeline::Run() {
  threads_.emplace_back([this] { GenerateCases(); });
  for (std::size_t worker = 0; worker < workers_; ++worker) {
    threads_.emplace_back([this, worker] { Work(worker); });
  }
  std::vector<Slot> batch;
  for (std::size_t index = 0; index < max_cases_;) {
    TakeResults(index, batch);
    for (Slot& slot : batch) {
      if (campaign_.StopNow()) return;
      const bool go_on = Conclude(index, slot);
      Concluded(index, slot);
      if (!go_on) return;
      ++index;
    }
  }
}

void CasePipeline::StopAndJoin() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  room_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
}

void Campaign::RunParallel(std::size_t workers) { CasePipeline(*this, workers).Run(); }

}  // namespace mcpfuzz::campaign_detail
