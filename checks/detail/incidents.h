#pragma once
// Internal: what the checks of one revision saw the target do across exchanges, as opposed to
// the answer to any one request: stdio servers that died or went deaf, everything written to
// stdout, replies that came after their sentinel, and timeouts in a row. Every connection's
// RecordingTransport writes each exchange into one IncidentLog; the stdio checks and the
// connection manager read it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checks/checks.h"

namespace mcpfuzz::checks::detail {

/// A target that stopped answering in time: after this many consecutive exchanges ended in a
/// timeout (HTTP) or deafness (stdio), nothing more is sent to it in the whole run, so a server
/// that drips its replies costs a few timeouts, not one per check. Any answered exchange
/// (restarted stdio servers included) resets the count.
inline constexpr int kTimeoutsBeforeGivingUp = 3;

/// Whether the target still answers in time, shared by the revisions of one run.
struct Responsiveness {
  int consecutive_timeouts = 0;
  bool gave_up = false;
};

/// Why nothing more is sent once Responsiveness::gave_up, for notes and verdicts.
std::string GaveUpReason();

/// Whether a request is owed a reply, which decides what a stdio timeout means.
enum class Owed {
  /// Well-formed with an id: silence means the server stopped answering.
  kReply,
  /// Malformed or a notification: silence may be the server's (tolerated) answer.
  kNothing,
};

/// A stdio server that stopped answering (deaf) or ended (death) during a check: itself a
/// finding, judged under stdio.keeps-answering or stdio.no-early-exit.
struct Incident {
  std::string check_id;
  /// The exchange before the one that saw the incident, on the same process, if any: the
  /// server may have died right after answering it.
  std::optional<Exchange> previous;
  Exchange exchange;
};

/// One stdio server process as the log knows it.
struct ProcessRecord {
  /// Tells the connections of one run apart (addresses may be reused); from 1.
  std::size_t serial = 0;
  /// The process's end was already recorded as an incident.
  bool death_reported = false;
};

class IncidentLog {
 public:
  /// The give-up note goes to `notes` (the run's).
  IncidentLog(Revision revision, Responsiveness& responsiveness, std::vector<std::string>& notes);

  /// Records one exchange: counts timeouts in a row and, over stdio (`process` given), keeps
  /// stdout, offenders and incidents, blamed on current_check().
  void Record(const Exchange& exchange, ProcessRecord* process, Owed owed);

  /// The target stopped answering in time (kTimeoutsBeforeGivingUp): nothing more is sent.
  bool gave_up() const { return responsiveness_.gave_up; }
  /// A sentinel saw a late reply: sentinels prove nothing about this server, so requests owed
  /// nothing wait out the quiet window or the timeout.
  void set_out_of_order() { out_of_order_ = true; }
  bool out_of_order() const { return out_of_order_; }

  /// The check whose exchanges are being made, for incidents.
  void set_current_check(std::string_view check_id) { current_check_ = check_id; }
  std::string_view current_check() const { return current_check_; }

  /// Stdio incidents seen so far in this revision, in order (capped), and how many deaths.
  const std::vector<Incident>& deaths() const { return deaths_; }
  const std::vector<Incident>& deafness() const { return deafness_; }
  std::size_t deaths_seen() const { return deaths_seen_; }
  /// What the stdout verdict needs of every stdout line seen over stdio in this revision, as
  /// one observation: the pieces that break the rules (capped, each cut to a finding's
  /// needs), never a JSON-RPC message, so it costs a constant however much the server wrote.
  const Observation& stdout_seen() const { return stdout_seen_; }
  /// How many stdout lines were seen over stdio in this revision.
  std::size_t stdout_lines_seen() const { return stdout_lines_seen_; }
  /// The exchanges whose stdout broke the stdio framing rules (capped), and how many had stdout.
  const std::vector<Exchange>& stdout_offenders() const { return stdout_offenders_; }
  std::size_t stdout_exchanges() const { return stdout_exchanges_; }
  /// The last exchange recorded over stdio.
  const std::optional<Exchange>& last_stdio_exchange() const { return last_stdio_exchange_; }

 private:
  void CountTimeouts(Outcome outcome);
  void RecordStdio(const Exchange& whole, ProcessRecord& process, Owed owed);
  void KeepOffendingStdout(const Observation& observation);

  Revision revision_;
  Responsiveness& responsiveness_;
  std::vector<std::string>& notes_;
  bool out_of_order_ = false;
  std::string_view current_check_;

  std::vector<Incident> deaths_;
  std::vector<Incident> deafness_;
  std::size_t deaths_seen_ = 0;
  Observation stdout_seen_;
  std::size_t stdout_lines_seen_ = 0;
  std::vector<Exchange> stdout_offenders_;
  std::size_t stdout_exchanges_ = 0;
  std::optional<Exchange> last_stdio_exchange_;
  /// ProcessRecord::serial of last_stdio_exchange_'s process; 0 for none.
  std::size_t last_stdio_serial_ = 0;
};

}  // namespace mcpfuzz::checks::detail
