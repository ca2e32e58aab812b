#pragma once
// Test support: reports with fixed volatile fields (version, start, duration) and server text
// that is as hostile as it gets, built through the real builders from check, fuzz, replay and
// diff results, for the writer, golden and browser tests.

#include <string>

#include "campaign/campaign.h"
#include "campaign/differential.h"
#include "checks/checks.h"
#include "cli/diff.h"
#include "cli/run_reports.h"
#include "model/reproducer.h"
#include "model/request_builder.h"
#include "reports/report.h"

namespace mcpfuzz::test_support {

/// Markup, a CDATA end, terminal escapes, C0/C1 controls, invalid UTF-8 and a noncharacter.
inline const std::string kHostile =
    "<script>alert('x')</script> ]]> & \"q\" | `tick` ```fence``` \x1b[2J\x07\x01\xC2\x9B "
    "\xFF\xFE\xEF\xBF\xBF end";

inline reports::RunInfo FixedRunInfo() {
  reports::RunInfo info;
  info.tool_version = "0.0.0-test";
  info.target = "http://127.0.0.1:8931/mcp";
  info.reproducer_target = {TransportKind::kHttp, "http://127.0.0.1:8931/mcp", {}, {}};
  info.started_at = "2026-01-02T03:04:05Z";
  info.duration_seconds = 1.5;
  return info;
}

inline checks::CheckResult FixtureResult(std::string id, VerdictKind kind, Revision revision) {
  checks::CheckResult result;
  result.verdict.check_id = std::move(id);
  result.verdict.kind = kind;
  result.verdict.expected.text = "protocol_error -32602";
  result.verdict.spec_reference = "R4:server/tools.mdx";
  result.revision = revision;
  return result;
}

/// One FAIL full of hostile text with a credential in its request and response, one WARN,
/// one PASS, one UNVERIFIED, one NOT_APPLICABLE, over two revisions.
inline checks::CheckRun HostileCheckRun() {
  checks::CheckRun run;
  run.eras.speaks = {Revision::k2026_07_28, Revision::k2025_11_25};
  checks::CheckResult failing =
      FixtureResult("tools.unknown-name", VerdictKind::kFail, Revision::k2025_11_25);
  failing.verdict.expected.channels = {Channel::kProtocolError};
  failing.verdict.expected.codes = {-32602};
  failing.verdict.observed.channel = Channel::kExecutionError;
  failing.verdict.observed.http_status = 200;
  failing.verdict.observed.excerpt = kHostile;
  failing.verdict.findings.push_back(
      {Aspect::kChannel, Strength::kMust, "answered with an isError result " + kHostile});
  failing.verdict.notes.push_back("long line: " + std::string(5000, 'x'));
  Request request = MakeRequest(Revision::k2025_11_25, TransportKind::kHttp, "tools/call",
                                {{"name", kHostile}}, 3);
  request.headers.push_back({"Authorization", "Bearer hunter2"});
  Observation observation;
  observation.http_status = 200;
  observation.http_headers = {{"Set-Cookie", "session=secret-cookie"}, {"X-Evil", kHostile}};
  observation.body = kHostile;
  failing.exchanges.push_back({request, observation, "sid"});
  run.results.push_back(failing);

  checks::CheckResult warning =
      FixtureResult("methods.unknown", VerdictKind::kWarn, Revision::k2026_07_28);
  warning.verdict.strength = Strength::kShould;
  warning.verdict.observed.channel = Channel::kProtocolError;
  warning.verdict.observed.code = -32601;
  warning.verdict.observed.http_status = 400;
  warning.verdict.findings.push_back({Aspect::kHttpStatus, Strength::kShould, "HTTP 400, not 404"});
  run.results.push_back(warning);
  run.results.push_back(
      FixtureResult("tools.unknown-name", VerdictKind::kPass, Revision::k2026_07_28));
  checks::CheckResult unverified =
      FixtureResult("prompts.unknown", VerdictKind::kUnverified, Revision::k2026_07_28);
  unverified.verdict.unverified_reason = UnverifiedReason::kCredentialRequired;
  run.results.push_back(unverified);
  run.results.push_back(
      FixtureResult("discover.result", VerdictKind::kNotApplicable, Revision::k2025_11_25));
  return run;
}

inline reports::Report HostileCheckReport() {
  return cli::BuildCheckReport(FixedRunInfo(), HostileCheckRun(), nullptr);
}

inline reports::Report HostileFuzzReport() {
  CampaignOptions options;
  options.seed = 42;
  CampaignResult result;
  result.eras.speaks = {Revision::k2025_11_25};
  result.cases = 2000;
  result.cases_per_family = {{"malformed-json", 1500}, {"unknown-names", 500}};
  result.cases_per_revision = {{"2025-11-25", 2000}};
  result.notes.push_back("note " + kHostile);
  result.server_info = ServerInfo{"fuzzed " + kHostile, "2.0 " + kHostile, kHostile};
  CampaignFinding finding;
  finding.signature = "methods.unknown|FAIL|success|200";
  finding.signature_hash = "abcd1234";
  finding.family = "unknown-names";
  finding.check_id = "methods.unknown";
  finding.case_check_id = "methods.unknown";
  finding.variant = kHostile;
  finding.case_index = 17;
  finding.revision = Revision::k2025_11_25;
  finding.minimal =
      MakeRequest(Revision::k2025_11_25, TransportKind::kHttp, kHostile, boost::json::object{}, 5);
  finding.minimal.headers.push_back({"X-Api-Key", "hunter2"});
  // Nothing shrank: no original apart from the minimal request.
  finding.verdict =
      FixtureResult("methods.unknown", VerdictKind::kFail, Revision::k2025_11_25).verdict;
  finding.verdict.observed.channel = Channel::kSuccess;
  finding.verdict.observed.http_status = 200;
  finding.verdict.observed.excerpt = kHostile;
  finding.reproduced = 3;
  finding.resends = 3;
  finding.stable = true;
  finding.file = "findings/fuzz-methods.unknown-abcd1234.json";
  reports::RunInfo info = FixedRunInfo();
  finding.reproducer = Reproducer(finding.minimal, info.reproducer_target);
  result.findings.push_back(finding);
  return cli::BuildFuzzReport(info, options, result);
}

inline reports::Report HostileReplayReport() {
  ReplayResult result;
  ReplayedCase still;
  still.file = "findings/fuzz-methods.unknown-abcd1234.json";
  still.check_id = "methods.unknown";
  still.revision = Revision::k2025_11_25;
  still.verdict = HostileCheckRun().results[0].verdict;
  still.still_fails = true;
  still.same_signature = true;
  result.cases.push_back(still);
  ReplayedCase broken;
  broken.file = "findings/" + kHostile + ".json";
  broken.check_id = "jsonrpc.parse-error";
  broken.error = "cannot read " + kHostile;
  result.cases.push_back(broken);
  result.still_failing = 1;
  return cli::BuildReplayReport(FixedRunInfo(), result);
}

/// Two targets that answered (the hostile check run, and one that answers an unknown tool
/// with a result without isError) and one that could not be reached.
inline reports::Report HostileSurveyReport() {
  reports::Report report = HostileCheckReport();
  report.kind = reports::ReportKind::kSurvey;
  reports::RunInfo stdio = FixedRunInfo();
  stdio.target = "stdio: node server.js " + kHostile;
  stdio.reproducer_target = {TransportKind::kStdio, "", {"node", "server.js"}, {}};
  checks::CheckRun run;
  run.eras.speaks = {Revision::k2025_06_18};
  // What a server announces is its own text too.
  run.server_info = ServerInfo{"sdk " + kHostile, "1.0 " + kHostile, kHostile};
  checks::CheckResult success =
      FixtureResult("tools.unknown-name", VerdictKind::kFail, Revision::k2025_06_18);
  success.transport = TransportKind::kStdio;
  success.verdict.observed.channel = Channel::kSuccess;
  success.verdict.observed.excerpt = "Unknown tool: " + kHostile;
  run.results.push_back(success);
  report.targets.push_back(cli::CheckSection(stdio, run, nullptr));
  reports::TargetSection unreachable;
  unreachable.description = "http://127.0.0.1:9/mcp";
  unreachable.transport = "http";
  unreachable.error = "could not be reached";
  report.targets.push_back(unreachable);
  cli::ApplyExitPolicy(report, reports::FailOn::kFail, nullptr);  // as a survey does
  return report;
}

/// Two targets, the second a stdio server whose command and serverInfo are hostile (the first
/// announced nothing), and one disagreement with its wrong side.
inline reports::Report HostileDiffReport() {
  DiffOptions options;
  options.seed = 9;
  DiffResult result;
  result.targets = {"http://127.0.0.1:8931/mcp", "stdio: node server.js " + kHostile};
  result.transports = {TransportKind::kHttp, TransportKind::kStdio};
  result.server_info = {std::nullopt, ServerInfo{"sdk " + kHostile, "1.0 " + kHostile, kHostile}};
  result.revision = Revision::k2025_11_25;
  result.cases = 40;
  result.checks = {{"tools.unknown-name", 40, 3}};
  result.notes.push_back("note " + kHostile);
  Disagreement found;
  found.check_id = "tools.unknown-name";
  found.family = "unknown-names";
  found.variant = "plain";
  found.revision = Revision::k2025_11_25;
  found.case_index = 4;
  found.label = DiffLabel::kSomeWrong;
  found.repeats = 2;
  const Request request = MakeRequest(Revision::k2025_11_25, TransportKind::kHttp, "tools/call",
                                      {{"name", "no-such-tool"}}, 7);
  found.original_bytes = {request.WireSize()};
  found.minimal = {request};
  DiffCell conformant;
  conformant.answer.channel = Channel::kProtocolError;
  conformant.answer.code = -32602;
  conformant.verdict.kind = VerdictKind::kPass;
  conformant.accepted = true;
  conformant.reproducer = "curl http://127.0.0.1:8931/mcp";
  DiffCell wrong;
  wrong.answer.channel = Channel::kSuccess;
  wrong.verdict.kind = VerdictKind::kFail;
  wrong.reproducer = "printf x | node server.js";
  found.cells = {conformant, wrong};
  result.disagreements.push_back(found);
  reports::Report report = cli::BuildDiffReport(result, options, {"http", "stdio"});
  const reports::RunInfo info = FixedRunInfo();
  report.tool_version = info.tool_version;
  report.started_at = info.started_at;
  report.duration_seconds = info.duration_seconds;
  return report;
}

}  // namespace mcpfuzz::test_support
