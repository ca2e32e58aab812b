// TargetLink: what the sessions of one run share (transport/session.h).
#include <algorithm>
#include <mutex>
#include <string>
#include <utility>

#include "transport/detail/session_connection.h"
#include "transport/session.h"

namespace mcpfuzz {

Result<std::unique_ptr<Transport>> TargetLink::Connect() {
  ++connections_made_;
  return connect_();
}

void TargetLink::Count(const Observation& observation) {
  const std::lock_guard lock(mutex_);
  if (transport_detail::AnsweredInTime(observation.outcome)) {
    unanswered_in_a_row_ = 0;
  } else if (observation.outcome == Outcome::kTimeout ||
             observation.outcome == Outcome::kAliveButDeaf) {
    if (++unanswered_in_a_row_ >= kUnansweredBeforeGivingUp) gave_up_ = true;
  }
}

void TargetLink::NoteAnswer(const Request& request, const Observation& observation) {
  const bool ended_session = request.http_method == "DELETE" && observation.http_status / 100 == 2;
  if (!transport_detail::AnsweredInTime(observation.outcome) || ended_session) ++changes_seen_;
}

void TargetLink::TrustSentinels() {
  SentinelTrust unproven = SentinelTrust::kUnproven;
  sentinel_trust_.compare_exchange_strong(unproven, SentinelTrust::kTrusted);
}

std::chrono::milliseconds TargetLink::quiet_window(std::chrono::milliseconds base) const {
  return std::max(base, std::chrono::milliseconds(kLateQuietFactor * lateness_ms_.load()));
}

void TargetLink::DistrustSentinels(std::string late_reply, std::chrono::milliseconds lateness) {
  lateness_ms_.store(std::max(lateness_ms_.load(), lateness.count()));
  const std::lock_guard lock(mutex_);
  if (sentinel_trust_.exchange(SentinelTrust::kDistrusted) != SentinelTrust::kDistrusted) {
    late_reply_ = std::move(late_reply);
  }
}

std::string TargetLink::late_reply() const {
  const std::lock_guard lock(mutex_);
  return late_reply_;
}

std::string TargetLink::GaveUpReason() {
  return "the last " + std::to_string(kUnansweredBeforeGivingUp) +
         " harmless requests (handshakes, sentinels, pings) went unanswered within the time limit";
}

}  // namespace mcpfuzz
