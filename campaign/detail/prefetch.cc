#include "campaign/detail/prefetch.h"

#include <memory>
#include <utility>
#include <variant>
#include <vector>

#include "campaign/detail/campaign_loop.h"

namespace mcpfuzz::campaign_detail {
namespace {

// Cases drawn ahead, in number and in bytes: a few cases of the limits family are 16 MiB
// each, and 64 of those would hold a gigabyte. A full queue wakes the drawing thread again
// only once half of it was taken: each wake-up is a context switch on a machine the target
// shares.
constexpr std::size_t kAhead = 64;
constexpr std::size_t kAheadBytes = std::size_t{8} << 20;

// The bytes a drawn case holds beyond its small fixed part: raw bodies are where the size is
// (the limits family builds its big cases as raw text).
std::size_t HeldBytes(const std::optional<GeneratedCase>& generated) {
  if (!generated) return 0;
  auto raw = [](const Request& request) {
    const auto* body = std::get_if<RawBody>(&request.body);
    return body != nullptr ? body->bytes.size() : 0;
  };
  return raw(generated->request) + (generated->well_formed ? raw(*generated->well_formed) : 0);
}

}  // namespace

bool CasePrefetcher::Full() const { return drawn_.size() >= kAhead || drawn_bytes_ >= kAheadBytes; }

bool CasePrefetcher::HasRoom() const {
  return drawn_.size() <= kAhead / 2 && drawn_bytes_ <= kAheadBytes / 2;
}

CasePrefetcher::CasePrefetcher(Draw draw, std::size_t first, std::size_t end)
    : draw_(std::move(draw)), next_(first), thread_([this, first, end] { DrawAll(first, end); }) {}

CasePrefetcher::~CasePrefetcher() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  room_.notify_all();
  thread_.join();
}

void CasePrefetcher::DrawAll(std::size_t first, std::size_t end) {
  for (std::size_t position = first; position < end; ++position) {
    {
      std::unique_lock lock(mutex_);
      if (Full()) {
        drawer_waiting_ = true;
        room_.wait(lock, [&] { return stop_ || HasRoom(); });
        drawer_waiting_ = false;
      }
      if (stop_) return;
    }
    Drawn drawn;
    try {
      drawn.generated = draw_(position);
    } catch (...) {
      drawn.error = std::current_exception();
    }
    bool wake = false;
    {
      const std::lock_guard lock(mutex_);
      drawn_bytes_ += drawn.bytes = HeldBytes(drawn.generated);
      drawn_.push_back(std::move(drawn));
      wake = taker_waiting_;
    }
    if (wake) ready_.notify_one();
  }
}

std::optional<GeneratedCase> CasePrefetcher::Take() {
  std::unique_lock lock(mutex_);
  if (drawn_.empty()) {
    taker_waiting_ = true;
    ready_.wait(lock, [&] { return !drawn_.empty(); });
    taker_waiting_ = false;
  }
  Drawn drawn = std::move(drawn_.front());
  drawn_.pop_front();
  drawn_bytes_ -= drawn.bytes;
  ++next_;
  const bool wake = drawer_waiting_ && HasRoom();
  lock.unlock();
  if (wake) room_.notify_one();
  if (drawn.error) std::rethrow_exception(drawn.error);
  return std::move(drawn.generated);
}

std::optional<GeneratedCase> Campaign::NextCase(const Lane& lane, std::size_t index) {
  if (!options_.pipeline || lane.session->kind() != TransportKind::kHttp) {
    return Preview(lane, index);
  }
  // The serial loop drops a lost lane and skips its index: then the cases ahead were drawn
  // for lanes that no longer are, and drawing starts again.
  // The prefetcher counts positions in this run's case indices (CaseIndices).
  const std::size_t position = indices_.PositionOf(index);
  if (!prefetch_ || prefetch_->next() != position || prefetch_lanes_ != lanes_.size()) {
    prefetch_.reset();
    std::vector<std::pair<rc::Gen<GeneratedCase>, std::optional<rc::Gen<GeneratedCase>>>>
        generators;
    for (const Lane& each : lanes_) generators.emplace_back(*each.preview, each.sequences);
    prefetch_lanes_ = lanes_.size();
    // The drawing thread reads its own copies of the generators, never lanes_.
    prefetch_ = std::make_unique<CasePrefetcher>(
        [generators = std::move(generators), seed = options_.seed,
         indices = indices_](std::size_t at) {
          const std::size_t drawn = indices.At(at);
          const auto& [cases, sequences] = generators[drawn % generators.size()];
          return DrawCase(GeneratorFor(cases, sequences, drawn), seed, drawn);
        },
        position, indices_.Count());
  }
  return prefetch_->Take();
}

}  // namespace mcpfuzz::campaign_detail
