#pragma once
// The tables of a survey (`mcpfuzz check --targets FILE`), built for dozens of servers: first
// the census (how many targets were reached, FAIL, could not be judged), then one row per
// server, then one row per check some server FAILs or WARNs naming those servers; and the
// unknown-tool question in the form published surveys use — VERIFIED / OBSERVED_RISK /
// UNVERIFIED, with the wrong shapes broken down.

#include <ostream>
#include <string>
#include <vector>

#include "reports/report.h"
#include "reports/sdk_fingerprints.h"

namespace mcpfuzz::reports {

/// What the first screen of a survey says, in every format.
struct SurveyCensus {
  int targets = 0;
  /// Targets that answered anything, judged or not.
  int reached = 0;
  /// Targets with at least one FAIL.
  int with_fail = 0;
  /// Targets with an `error`: nothing could be judged there (reachable or not).
  int not_judged = 0;
};

/// "10 targets, 7 reached, 3 with a FAIL, 3 not judged".
std::string CensusText(const SurveyCensus& census);

/// One server of the survey, in the targets file's order.
struct ServerRow {
  /// Its index in Report::targets (and the HTML details' "target-N").
  std::size_t target = 0;
  /// "NAME VERSION" as the server announced it, or its URL or command when it announced
  /// nothing: what people call it. `announced` tells which.
  std::string name;
  bool announced = false;
  /// The checks it FAILs, and those it WARNs on without a FAIL, each once whatever the revisions.
  int fail_checks = 0;
  int warn_checks = 0;
  bool reached = false;
  /// Its deviations that match a known SDK's fingerprints.
  std::vector<InheritedCheck> inherited;
};

/// A check some server FAILs or WARNs on, and which: indices into Report::targets.
struct DeviatingCheck {
  std::string id;
  std::vector<std::size_t> failing;
  std::vector<std::size_t> warning;
};

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

struct SurveyTables {
  SurveyCensus census;
  std::vector<ServerRow> servers;
  /// Checks with a FAIL first, most servers first; then those only WARNed on, likewise.
  std::vector<DeviatingCheck> deviating;
  std::vector<SurveyCheckRow> per_check;
  UnknownToolTable unknown_tool;
};

/// `fingerprints` attributes deviations to SDKs (KnownSdkFingerprints() in every writer).
SurveyTables Tabulate(const Report& report, const FingerprintTable& fingerprints);

/// "NAME VERSION" as announced, or the target's description when it announced nothing.
std::string ServerName(const TargetSection& target);

/// Whether a target answered anything: judged, or an era question got some answer.
bool Reached(const TargetSection& target);

/// "TypeScript SDK v1 (2 of 3)": the SDK most of a server's inherited checks name (the lower
/// layer on a tie) and how many of its deviating checks match it; "" when none does.
std::string InheritedText(const ServerRow& row, const FingerprintTable& fingerprints);

/// The survey's HTML page (WriteHtml writes it for a survey report).
void WriteSurveyHtml(const Report& report, std::ostream& out);

}  // namespace mcpfuzz::reports
