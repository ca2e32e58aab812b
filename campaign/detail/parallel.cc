// --concurrency N: N workers, each with its own session per lane, draw case indices in order,
// generate, send and judge; the calling thread (the coordinator) takes their results back in
// case-index order and decides everything there, exactly as the serial loop would: what counts
// as a case, what is skipped after hangs, which finding comes first, what is a repeat. While
// the coordinator re-sends and shrinks a new finding on worker 0's session, every worker waits,
// so investigating sees the target as the serial loop does.

#include <condition_variable>
#include <exception>
#include <functional>
#include <map>
#include <optional>
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

/// What a worker made of one case index.
struct Slot {
  std::optional<GeneratedCase> generated;  ///< Empty: the generator failed.
  std::optional<Judged> judged;            ///< Empty: not sent (skipped after hangs).
  bool lost = false;                       ///< The worker's session could not be reopened.
  std::string lost_reason;
  std::string error;  ///< An exception a worker caught; stops the run.
};

}  // namespace

void Campaign::RunParallel(std::size_t workers) {
  // Shared with the workers, under mutex_.
  std::map<std::size_t, Slot> done;
  std::size_t next = 0;     // the next index a worker takes
  std::size_t taken = 0;    // indices below it were taken back by the coordinator
  std::size_t sending = 0;  // workers between taking an index and handing in its slot
  bool paused = false;      // the coordinator is investigating: take no new index
  bool stop = false;
  std::condition_variable ready;  // the coordinator waits on it, the workers on changed_
  const std::size_t ahead = kAheadPerWorker * workers;
  const std::size_t max_cases = options_.max_cases;

  auto work = [&](std::size_t worker) {
    while (true) {
      std::size_t index = 0;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stop || (!paused && next < taken + ahead); });
        if (stop || next >= max_cases) return;
        index = next++;
        ++sending;
      }
      Slot slot;
      try {
        Lane& lane = lanes_[index % lanes_.size()];
        slot.generated = Generate(lane, index);
        // Hangs only grow and are counted in case order, so a case skipped here would be
        // skipped by the coordinator too; this only saves sending it.
        if (slot.generated && Hangs(slot.generated->check_id) < kHangsBeforeSkipping) {
          Session& session = lane.WorkerSession(worker);
          slot.judged = SendAndJudge(session, slot.generated->request, slot.generated->check_id,
                                     slot.generated->context, /*settle=*/false);
          slot.lost = session.lost();
          if (slot.lost) slot.lost_reason = session.lost_reason();
        }
      } catch (const std::exception& error) {
        slot.error = error.what();
      } catch (...) {
        slot.error = "unknown error";
      }
      bool wake = false;
      {
        const std::lock_guard lock(mutex_);
        done.emplace(index, std::move(slot));
        --sending;
        // The coordinator is woken once per batch, not per case: each wake-up is a context
        // switch on a machine the target shares. It is woken at once when it waits for this
        // worker (a pause), when this worker is about to wait for it (the window is full),
        // and for the last cases.
        wake = paused || done.size() >= kBatch || next >= max_cases || next >= taken + ahead;
      }
      if (wake) ready.notify_one();
    }
  };

  std::vector<std::thread> threads;
  // Joins the workers however the coordinator leaves, an exception included.
  struct Joiner {
    std::vector<std::thread>& threads;
    std::function<void()> stop_all;
    ~Joiner() {
      stop_all();
      for (std::thread& thread : threads) thread.join();
    }
  } joiner{threads, [&] {
             {
               const std::lock_guard lock(mutex_);
               stop = true;
             }
             changed_.notify_all();
           }};
  for (std::size_t worker = 0; worker < workers; ++worker) threads.emplace_back(work, worker);

  // Everything below decides in case order; the verdicts were reached by the workers.
  auto conclude = [&](std::size_t index, Slot& slot) {
    if (!slot.error.empty()) {
      result_.notes.push_back("the campaign stopped: " + slot.error);
      return false;
    }
    Lane& lane = lanes_[index % lanes_.size()];
    if (!slot.generated) {
      ++result_.generation_failures;
      return true;
    }
    if (RecordAndSkip(*slot.generated) || !slot.judged) return true;
    if (slot.lost) {
      result_.notes.push_back("the " + std::string(ToString(lane.session->revision())) +
                              " session was lost after " + std::to_string(result_.cases) +
                              " cases: " + slot.lost_reason);
      return false;
    }
    ++result_.cases;
    const bool new_finding =
        IsFinding(slot.judged->verdict) && !seen_.contains(Signature(slot.judged->verdict));
    if (new_finding) {
      std::unique_lock lock(mutex_);
      paused = true;
      ready.wait(lock, [&] { return sending == 0; });
    }
    Conclude(lane, *slot.generated, index, *slot.judged);
    if (new_finding) {
      {
        const std::lock_guard lock(mutex_);
        paused = false;
      }
      changed_.notify_all();
    }
    Report(/*force=*/false);
    return true;
  };

  std::vector<Slot> batch;
  for (std::size_t index = 0; index < max_cases;) {
    batch.clear();
    {
      std::unique_lock lock(mutex_);
      ready.wait(lock, [&] { return done.contains(index); });
      for (auto slot = done.find(index); slot != done.end() && slot->first == index + batch.size();
           slot = done.erase(slot)) {
        batch.push_back(std::move(slot->second));
      }
      taken = index + batch.size();
    }
    changed_.notify_all();
    for (Slot& slot : batch) {
      if (TimeIsUp() || EnoughFindings() || !conclude(index, slot)) return;
      ++index;
    }
  }
}

}  // namespace mcpfuzz::campaign_detail
