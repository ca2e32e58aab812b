#include "checks/detail/incidents.h"

#include <algorithm>
#include <boost/json/value.hpp>
#include <string>
#include <utility>

#include "oracles/judgement.h"
#include "oracles/stdio_checks.h"

namespace mcpfuzz::checks::detail {
namespace {

// Bounds what a run keeps of a server that dies or misbehaves on every request.
constexpr std::size_t kMaxIncidents = 10;
constexpr std::size_t kMaxStdoutOffenders = 10;
// Offending stdout kept for the verdict: non-JSON lines (each cut), and JSON that is not
// JSON-RPC, kept whole since a finding quotes its JSON text (so fewer: each may be a cap).
constexpr std::size_t kMaxOffendingLines = 32;
constexpr std::size_t kMaxOffendingMessages = 4;
// How many earlier exchanges of a process a repeat is looked for in, and of how many processes.
constexpr std::size_t kRecentExchanges = 4;
constexpr std::size_t kRecentProcesses = 16;
// Every check with a repeated request can be judged, however many variants each repeats.
constexpr std::size_t kMaxRepeats = 64;

// A non-JSON stdout line as the stdout verdict needs it: whole when short; else its first
// bytes, and a mark that keeps a line that is not blank from looking blank.
std::string CutNonJson(const std::string& piece) {
  if (piece.size() <= kExcerptBytes) return piece;
  const bool blank = piece.find_first_not_of(" \t\r") == std::string::npos;
  return piece.substr(0, kExcerptBytes) + (blank ? "" : "\xE2\x80\xA6");
}

}  // namespace

void IncidentLog::Saw(const ObservedExchange& observed) {
  if (!observed.stdio) return;
  const Observation& observation = observed.observation;
  if (!observation.stdout_lines.empty()) ++stdout_exchanges_;
  stdout_lines_seen_ += observation.stdout_lines.size();
  const bool offends = !CheckStdout(observation, revision_).empty();
  if (offends) KeepOffendingStdout(observation);
  // What is kept of the exchange is cut once judged (the stdout verdict above read it whole;
  // the process verdicts read only its outcome and the process's end).
  Exchange exchange = observed.Copy();
  KeepExcerpts(exchange.observation);
  if (offends && stdout_offenders_.size() < kMaxStdoutOffenders) {
    stdout_offenders_.push_back(exchange);
  }

  std::optional<Exchange> previous;
  if (last_stdio_serial_ == observed.connection) previous = last_stdio_exchange_;
  if (ProcessEnded(observation) && !observation.killed_by_mcpfuzz) {
    RecordDeath(std::move(previous), exchange, observed.connection);
  } else if (observation.outcome == Outcome::kAliveButDeaf && observed.owed == Owed::kReply &&
             deafness_.size() < kMaxIncidents) {
    deafness_.push_back({std::string(current_check_), std::move(previous), exchange});
  }
  RecordRepeats(exchange, observed.connection);
  last_stdio_exchange_ = std::move(exchange);
  last_stdio_serial_ = observed.connection;
  last_stdio_check_ = std::string(current_check_);
}

void IncidentLog::DiedBetween(const ProcessExit& exit, std::size_t connection) {
  if (exit.killed_by_mcpfuzz || last_stdio_serial_ != connection || !last_stdio_exchange_) return;
  // No exchange saw this end: it is the exchange before it, answered, then the exit.
  Exchange ended = *last_stdio_exchange_;
  ended.observation.outcome = Outcome::kExited;
  ended.observation.detail = "the server ended right after answering";
  ended.observation.exit_code = exit.exit_code;
  ended.observation.exit_signal = exit.signal;
  ended.observation.stderr_tail = exit.stderr_tail;
  const std::string_view blamed = current_check_;
  current_check_ = last_stdio_check_;
  RecordDeath(std::nullopt, std::move(ended), connection);
  current_check_ = blamed;
}

void IncidentLog::RecordDeath(std::optional<Exchange> previous, Exchange exchange,
                              std::size_t connection) {
  // Only the first exchange that sees a process gone is about its death.
  if (!deaths_reported_.insert(connection).second) return;
  ++deaths_seen_;
  if (deaths_.size() < kMaxIncidents) {
    deaths_.push_back({std::string(current_check_), std::move(previous), std::move(exchange)});
  }
}

void IncidentLog::RecordRepeats(const Exchange& exchange, std::size_t connection) {
  for (const boost::json::value& reply : exchange.observation.repeated_replies) {
    if (repeats_.size() >= kMaxRepeats) break;
    const boost::json::value* id =
        reply.is_object() ? reply.as_object().if_contains("id") : nullptr;
    if (id == nullptr) continue;
    const std::deque<Exchange>& earlier = recent_[connection];
    const auto repeated = std::find_if(earlier.rbegin(), earlier.rend(), [&](const Exchange& one) {
      return one.request.RpcId() == *id;
    });
    if (repeated == earlier.rend()) continue;
    repeats_.push_back({*repeated, reply, exchange});
  }
  std::deque<Exchange>& kept = recent_[connection];
  kept.push_back(exchange);
  if (kept.size() > kRecentExchanges) kept.pop_front();
  // Connections are numbered in order: the oldest process goes first.
  if (recent_.size() > kRecentProcesses) recent_.erase(recent_.begin());
}

void IncidentLog::KeepOffendingStdout(const Observation& observation) {
  // Only what breaks the rules changes the stdout verdict: a JSON-RPC message never does, so
  // none is kept, and of the rest a bounded number, each piece no larger than a finding quotes.
  for (const boost::json::value& message : observation.messages) {
    if (stdout_seen_.messages.size() >= kMaxOffendingMessages) break;
    Observation alone;
    alone.messages.push_back(message);
    if (!CheckStdout(alone, revision_).empty()) stdout_seen_.messages.push_back(message);
  }
  for (const std::string& piece : observation.non_json) {
    if (stdout_seen_.non_json.size() >= kMaxOffendingLines) break;
    stdout_seen_.non_json.push_back(CutNonJson(piece));
  }
  for (const std::string& excerpt : observation.multi_line_messages) {
    if (stdout_seen_.multi_line_messages.size() >= kMaxOffendingMessages) break;
    stdout_seen_.multi_line_messages.push_back(excerpt);  // already cut by the transport
  }
}

}  // namespace mcpfuzz::checks::detail
