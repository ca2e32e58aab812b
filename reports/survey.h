#pragma once
// The tables of a survey (`mcpfuzz check --targets FILE`): how many servers got each verdict
// on each check, and the unknown-tool question in the form published surveys use —
// VERIFIED / OBSERVED_RISK / UNVERIFIED, with the wrong shapes broken down.

#include <string>
#include <vector>

#include "reports/report.h"

namespace mcpfuzz::reports {

/// One check across servers: each server counted once, by its worst verdict on the check.
struct SurveyCheckRow {
  std::string id;
  VerdictCounts counts;
};

/// tools.unknown-name across servers. A server is VERIFIED when it answered on the protocol
/// channel (a JSON-RPC error, whatever its code), OBSERVED_RISK when it answered on any other
/// channel, UNVERIFIED when it never let the call reach its tool dispatch (401/403, rate
/// limits, transport errors).
struct UnknownToolTable {
  int verified = 0;
  int observed_risk = 0;
  int unverified = 0;
  /// Servers where the check did not run (unreachable, or no revision spoken).
  int not_checked = 0;
  // The shapes of the observed risks.
  int is_error_result = 0;          ///< A result with isError: true.
  int result_without_is_error = 0;  ///< A result as if the call had worked.
  int not_json_rpc = 0;             ///< HTML, text, invalid JSON, both result and error.
  int other_risk = 0;               ///< No reply, or the transport failed after answering others.
};

/// The servers that announced one serverInfo (name and version; the title is not part of it),
/// so a failure shared by every server of one SDK release can be told from one server's own.
struct ServerInfoGroup {
  /// ServerInfoLabel of its servers.
  std::string label;
  int targets = 0;
  /// As SurveyTables::per_check, over the group's servers only, in the same order.
  std::vector<SurveyCheckRow> per_check;
};

struct SurveyTables {
  std::vector<SurveyCheckRow> per_check;
  UnknownToolTable unknown_tool;
  /// In the order of the targets file by their first server; kNoServerInfo last.
  std::vector<ServerInfoGroup> by_server_info;
};

/// The group of servers that announced nothing (or could not be reached).
inline constexpr std::string_view kNoServerInfo = "(no serverInfo)";
/// "NAME VERSION" as announced (either may be empty), or kNoServerInfo.
std::string ServerInfoLabel(const std::optional<ServerInfo>& info);

SurveyTables Tabulate(const Report& report);

}  // namespace mcpfuzz::reports
