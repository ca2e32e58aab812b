#include "checks/detail/incidents.h"

#include <utility>

#include "oracles/judgement.h"
#include "oracles/stdio_checks.h"

namespace mcpfuzz::checks::detail {
namespace {

// Bounds what a run keeps of a server that dies or misbehaves on every request.
constexpr std::size_t kMaxIncidents = 10;
constexpr std::size_t kMaxStdoutOffenders = 10;

// A complete reply, or a drop the sentinel behind it proved: the server still reads and answers.
bool AnsweredInTime(Outcome outcome) {
  return outcome == Outcome::kOk || outcome == Outcome::kDropped || outcome == Outcome::kTooLarge;
}

bool TimedOut(Outcome outcome) {
  return outcome == Outcome::kTimeout || outcome == Outcome::kAliveButDeaf;
}

}  // namespace

std::string GaveUpReason() {
  return "the last " + std::to_string(kTimeoutsBeforeGivingUp) +
         " requests went unanswered within the time limit";
}

IncidentLog::IncidentLog(Revision revision, Responsiveness& responsiveness,
                         std::vector<std::string>& notes)
    : revision_(revision), responsiveness_(responsiveness), notes_(notes) {}

void IncidentLog::Record(const Exchange& exchange, ProcessRecord* process, Owed owed) {
  CountTimeouts(exchange.observation.outcome);
  if (process != nullptr) RecordStdio(exchange, *process, owed);
}

void IncidentLog::CountTimeouts(Outcome outcome) {
  if (AnsweredInTime(outcome)) {
    responsiveness_.consecutive_timeouts = 0;
  } else if (TimedOut(outcome) &&
             ++responsiveness_.consecutive_timeouts >= kTimeoutsBeforeGivingUp &&
             !responsiveness_.gave_up) {
    responsiveness_.gave_up = true;
    notes_.push_back("gave up on the target in " + std::string(ToString(revision_)) + ": " +
                     GaveUpReason() + "; nothing more was sent, so the checks left are UNVERIFIED");
  }
}

void IncidentLog::RecordStdio(const Exchange& exchange, ProcessRecord& process, Owed owed) {
  const Observation& observation = exchange.observation;
  if (!observation.stdout_lines.empty()) ++stdout_exchanges_;
  auto append = [](auto& into, const auto& from) {
    into.insert(into.end(), from.begin(), from.end());
  };
  append(stdout_seen_.stdout_lines, observation.stdout_lines);
  append(stdout_seen_.messages, observation.messages);
  append(stdout_seen_.non_json, observation.non_json);
  append(stdout_seen_.multi_line_messages, observation.multi_line_messages);
  if (!CheckStdout(observation, revision_).empty() &&
      stdout_offenders_.size() < kMaxStdoutOffenders) {
    stdout_offenders_.push_back(exchange);
  }

  std::optional<Exchange> previous;
  if (last_stdio_serial_ == process.serial) previous = last_stdio_exchange_;
  if (ProcessEnded(observation) && !observation.killed_by_mcpfuzz) {
    // Only the first exchange that sees a process gone is about its death.
    if (!process.death_reported) {
      process.death_reported = true;
      ++deaths_seen_;
      if (deaths_.size() < kMaxIncidents) {
        deaths_.push_back({std::string(current_check_), std::move(previous), exchange});
      }
    }
  } else if (observation.outcome == Outcome::kAliveButDeaf && owed == Owed::kReply &&
             deafness_.size() < kMaxIncidents) {
    deafness_.push_back({std::string(current_check_), std::move(previous), exchange});
  }
  last_stdio_exchange_ = exchange;
  last_stdio_serial_ = process.serial;
}

}  // namespace mcpfuzz::checks::detail
