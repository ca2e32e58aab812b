#pragma once
// Internal: what the checks of one revision saw the target do across exchanges, as opposed to
// the answer to any one request: stdio servers that died or went deaf, and everything written
// to stdout. The IncidentLog observes every exchange of the revision's sessions (it is their
// TargetLink's observer while the revision runs); the stdio checks read it.

#include <boost/json/value.hpp>
#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checks/checks.h"
#include "transport/session.h"

namespace mcpfuzz::checks::detail {

/// A stdio server that stopped answering (deaf) or ended (death) during a check: itself a
/// finding, judged under stdio.keeps-answering or stdio.no-early-exit.
struct Incident {
  std::string check_id;
  /// The exchange before the one that saw the incident, on the same process, if any: the
  /// server may have died right after answering it.
  std::optional<Exchange> previous;
  Exchange exchange;
};

/// A second response to a request answered in an earlier exchange on the same stdio process,
/// seen in a later exchange (outside the window its own reply ended), and that exchange.
struct Repeat {
  Exchange answered;
  boost::json::value reply;
  Exchange seen_in;
};

class IncidentLog final : public SessionObserver {
 public:
  explicit IncidentLog(Revision revision) : revision_(revision) {}

  /// Over stdio: keeps stdout, offenders and incidents, blamed on current_check().
  void Saw(const ObservedExchange& observed) override;
  /// A stdio server that ended between exchanges: a death, blamed on the check of the exchange
  /// before it on that process.
  void DiedBetween(const ProcessExit& exit, std::size_t connection) override;

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
  /// Repeats seen so far in this revision (capped).
  const std::vector<Repeat>& repeats() const { return repeats_; }
  /// The last exchange recorded over stdio.
  const std::optional<Exchange>& last_stdio_exchange() const { return last_stdio_exchange_; }

 private:
  void KeepOffendingStdout(const Observation& observation);
  /// Pairs each response of `exchange`'s repeated_replies with the recent exchange it repeats.
  void RecordRepeats(const Exchange& exchange, std::size_t connection);
  /// Records the end of process `connection`, once per process.
  void RecordDeath(std::optional<Exchange> previous, Exchange exchange, std::size_t connection);

  Revision revision_;
  std::string_view current_check_;
  /// The processes whose end was recorded already.
  std::set<std::size_t> deaths_reported_;

  std::vector<Incident> deaths_;
  std::vector<Incident> deafness_;
  std::vector<Repeat> repeats_;
  /// The last few stdio exchanges of each recent process, for RecordRepeats: a repeat comes, if at
  /// all, within the next few exchanges on its process, however many went to other processes in
  /// between.
  std::map<std::size_t, std::deque<Exchange>> recent_;
  std::size_t deaths_seen_ = 0;
  Observation stdout_seen_;
  std::size_t stdout_lines_seen_ = 0;
  std::vector<Exchange> stdout_offenders_;
  std::size_t stdout_exchanges_ = 0;
  std::optional<Exchange> last_stdio_exchange_;
  /// The connection of last_stdio_exchange_'s process; 0 for none.
  std::size_t last_stdio_serial_ = 0;
  /// The check blamed for last_stdio_exchange_.
  std::string last_stdio_check_;
};

}  // namespace mcpfuzz::checks::detail
