#include "reports/check_report.h"

#include <algorithm>
#include <map>

#include "model/case_file.h"
#include "model/detail/text.h"
#include "reports/terminal.h"

namespace mcpfuzz::reports {
namespace {

// Excerpts and notes can quote bytes a server sent that are not UTF-8; Boost.JSON would write
// them raw and produce a report no JSON parser accepts.
void MakeStringsValidUtf8(boost::json::value& value) {
  if (auto* text = value.if_string()) {
    if (!detail::IsValidUtf8(*text)) *text = detail::ToValidUtf8(*text);
  } else if (auto* array = value.if_array()) {
    for (auto& item : *array) MakeStringsValidUtf8(item);
  } else if (auto* object = value.if_object()) {
    for (auto& member : *object) MakeStringsValidUtf8(member.value());
  }
}

boost::json::array Strings(const std::vector<std::string>& texts) {
  return boost::json::array(texts.begin(), texts.end());
}

boost::json::array Codes(const std::vector<std::int64_t>& codes) {
  return boost::json::array(codes.begin(), codes.end());
}

boost::json::array Channels(const std::vector<Channel>& channels) {
  boost::json::array out;
  for (Channel channel : channels) out.emplace_back(ToString(channel));
  return out;
}

boost::json::array Statuses(const std::vector<StatusRange>& ranges) {
  boost::json::array out;
  for (const auto& range : ranges) out.emplace_back(ToString(range));
  return out;
}

boost::json::value ExpectedJson(const ExpectedAnswer& expected) {
  return {{"text", expected.text},
          {"channels", Channels(expected.channels)},
          {"tolerated_channels", Channels(expected.tolerated)},
          {"codes", Codes(expected.codes)},
          {"forbidden_codes", Codes(expected.forbidden_codes)},
          {"http_statuses", Statuses(expected.http_statuses)},
          {"tolerated_http_statuses", Statuses(expected.tolerated_http_statuses)},
          {"data_members", Strings(expected.data_members)}};
}

boost::json::value ObservedJson(const ObservedAnswer& observed) {
  boost::json::object out{{"outcome", ToString(observed.outcome)},
                          {"channel", ToString(observed.channel)},
                          {"excerpt", observed.excerpt}};
  out["code"] = observed.code ? boost::json::value(*observed.code) : nullptr;
  out["http_status"] = observed.http_status == 0 ? boost::json::value(nullptr)
                                                 : boost::json::value(observed.http_status);
  return out;
}

boost::json::value RedactedObservationJson(const Observation& observation) {
  boost::json::value json = ObservationToJson(observation);
  if (auto* headers = json.as_object().if_contains("http_headers")) {
    for (auto& pair : headers->as_array()) {
      auto& fields = pair.as_array();
      if (IsSecretHeader(fields[0].as_string())) {
        fields[1] = "<redacted>";
      }
    }
  }
  return json;
}

boost::json::value ResultJson(const checks::CheckResult& result, const RunInfo& info) {
  const Verdict& verdict = result.verdict;
  boost::json::object out{{"id", verdict.check_id},
                          {"revision", ToString(result.revision)},
                          {"transport", ToString(result.transport)},
                          {"verdict", ToString(verdict.kind)},
                          {"strength", ToString(verdict.strength)},
                          {"expected", ExpectedJson(verdict.expected)},
                          {"observed", ObservedJson(verdict.observed)},
                          {"spec_ref", verdict.spec_reference},
                          {"notes", Strings(verdict.notes)}};
  if (verdict.unverified_reason != UnverifiedReason::kNone) {
    out["unverified_reason"] = ToString(verdict.unverified_reason);
  }
  boost::json::array findings;
  for (const Finding& finding : verdict.findings) {
    findings.push_back({{"aspect", ToString(finding.aspect)},
                        {"strength", ToString(finding.strength)},
                        {"text", finding.text}});
  }
  out["findings"] = std::move(findings);
  if (result.judged < result.exchanges.size()) {
    out["reproducer"] = Reproducer(result.exchanges[result.judged].request, info.reproducer_target);
  }
  boost::json::array exchanges;
  for (const auto& exchange : result.exchanges) {
    exchanges.push_back({{"request", RedactedRequestJson(exchange.request)},
                         {"observation", RedactedObservationJson(exchange.observation)}});
  }
  out["exchanges"] = std::move(exchanges);
  return out;
}

boost::json::value ErasJson(const EraReport& eras) {
  boost::json::array speaks;
  for (Revision revision : eras.speaks) speaks.emplace_back(ToString(revision));
  boost::json::array attempts;
  for (const EraAttempt& attempt : eras.attempts) {
    boost::json::object item{{"asked", ToString(attempt.asked)},
                             {"method", attempt.method},
                             {"channel", ToString(attempt.channel)},
                             {"supported_versions", Strings(attempt.supported_versions)},
                             {"note", attempt.note}};
    item["error_code"] =
        attempt.error_code ? boost::json::value(*attempt.error_code) : boost::json::value(nullptr);
    item["http_status"] = attempt.http_status == 0 ? boost::json::value(nullptr)
                                                   : boost::json::value(attempt.http_status);
    item["answered"] = attempt.answered ? boost::json::value(ToString(*attempt.answered))
                                        : boost::json::value(nullptr);
    attempts.push_back(std::move(item));
  }
  return {{"speaks", std::move(speaks)}, {"attempts", std::move(attempts)}};
}

boost::json::array EntriesJson(const std::vector<BaselineEntry>& entries) {
  boost::json::array out;
  for (const auto& entry : entries) out.emplace_back(ToString(entry));
  return out;
}

std::string Cell(const checks::CheckResult* result) {
  if (result == nullptr) return "-";
  if (result->verdict.kind == VerdictKind::kNotApplicable) return "n/a";
  return std::string(ToString(result->verdict.kind));
}

}  // namespace

boost::json::value RedactedRequestJson(const Request& request) {
  Request redacted = request;
  for (Header& header : redacted.headers) {
    if (IsSecretHeader(header.name)) header.value = "<redacted>";
  }
  return RequestToJson(redacted);
}

VerdictCounts Count(const checks::CheckRun& run) {
  VerdictCounts counts;
  for (const auto& result : run.results) {
    switch (result.verdict.kind) {
      case VerdictKind::kPass:
        ++counts.pass;
        break;
      case VerdictKind::kWarn:
        ++counts.warn;
        break;
      case VerdictKind::kFail:
        ++counts.fail;
        break;
      case VerdictKind::kUnverified:
        ++counts.unverified;
        break;
      case VerdictKind::kNotApplicable:
        ++counts.not_applicable;
        break;
    }
  }
  return counts;
}

boost::json::value CheckReportToJson(const RunInfo& info, const checks::CheckRun& run,
                                     const BaselineComparison* baseline) {
  const VerdictCounts counts = Count(run);
  boost::json::object report{
      {"format", kCheckReportFormat},
      {"version", kCheckReportVersion},
      {"tool", {{"name", "mcpfuzz"}, {"version", info.tool_version}}},
      {"target",
       {{"description", info.target}, {"transport", ToString(info.reproducer_target.kind)}}},
      {"started_at", info.started_at},
      {"duration_seconds", info.duration_seconds},
      {"eras", ErasJson(run.eras)},
      {"summary",
       {{"pass", counts.pass},
        {"warn", counts.warn},
        {"fail", counts.fail},
        {"unverified", counts.unverified},
        {"not_applicable", counts.not_applicable}}}};
  boost::json::array checks;
  for (const auto& result : run.results) checks.push_back(ResultJson(result, info));
  report["checks"] = std::move(checks);
  boost::json::array controls;
  for (const auto& control : run.handshake_controls) {
    controls.push_back({{"revision", ToString(control.revision)},
                        {"rejects_pre_init", ToString(control.pre_init.rejects)},
                        {"grounds", ToString(control.pre_init.grounds)},
                        {"reason", control.pre_init.reason}});
  }
  report["handshake_controls"] = std::move(controls);
  if (baseline != nullptr) {
    report["baseline"] = {{"new_failures", EntriesJson(baseline->new_failures)},
                          {"no_longer_failing", EntriesJson(baseline->no_longer_failing)},
                          {"still_failing", EntriesJson(baseline->still_failing)}};
  }
  boost::json::value json = std::move(report);
  MakeStringsValidUtf8(json);
  return json;
}

void PrintCheckReport(const RunInfo& info, const checks::CheckRun& run,
                      const BaselineComparison* baseline, std::ostream& out) {
  out << "target: " << EscapeForTerminal(info.target, 200) << "\nspeaks: ";
  if (run.eras.speaks.empty()) out << "no revision mcpfuzz knows";
  for (std::size_t i = 0; i < run.eras.speaks.size(); ++i) {
    out << (i ? ", " : "") << ToString(run.eras.speaks[i]);
  }
  out << "\n\n";

  // The matrix: one row per check id, one column per revision checked, in run order.
  std::vector<Revision> columns;
  std::vector<std::string> rows;
  std::map<std::pair<std::string, Revision>, const checks::CheckResult*> cells;
  for (const auto& result : run.results) {
    if (std::find(columns.begin(), columns.end(), result.revision) == columns.end()) {
      columns.push_back(result.revision);
    }
    const std::string& id = result.verdict.check_id;
    if (std::find(rows.begin(), rows.end(), id) == rows.end()) rows.push_back(id);
    auto& cell = cells[{id, result.revision}];
    // Several results of one id in one revision (both transports): the worst is shown.
    if (cell == nullptr || Severity(result.verdict.kind) > Severity(cell->verdict.kind)) {
      cell = &result;
    }
  }
  std::sort(columns.begin(), columns.end(), std::greater<>());
  std::size_t width = 6;
  for (const auto& id : rows) width = std::max(width, id.size() + 2);
  out << "  " << Pad("check", width);
  for (Revision revision : columns) out << Pad(ToString(revision), 16);
  out << "\n";
  for (const auto& id : rows) {
    out << "  " << Pad(id, width);
    for (Revision revision : columns) {
      auto found = cells.find({id, revision});
      out << Pad(Cell(found == cells.end() ? nullptr : found->second), 16);
    }
    out << "\n";
  }

  bool heading = false;
  for (const auto& result : run.results) {
    const Verdict& verdict = result.verdict;
    if (verdict.kind != VerdictKind::kFail && verdict.kind != VerdictKind::kWarn) continue;
    if (!heading) out << "\nFindings\n";
    heading = true;
    out << "\n"
        << ToString(verdict.kind) << "  " << verdict.check_id << "  " << ToString(result.revision)
        << "/" << ToString(result.transport) << "  (" << ToString(verdict.strength) << ")\n";
    out << "  expected: " << EscapeForTerminal(verdict.expected.text, 160) << "\n";
    out << "  observed: " << ToString(verdict.observed.channel);
    if (verdict.observed.code) out << " " << *verdict.observed.code;
    if (verdict.observed.http_status != 0) out << " (HTTP " << verdict.observed.http_status << ")";
    if (!verdict.observed.excerpt.empty()) {
      out << "  \"" << EscapeForTerminal(verdict.observed.excerpt, 100) << "\"";
    }
    out << "\n";
    for (const Finding& finding : verdict.findings) {
      out << "  - " << ToString(finding.strength) << ": " << EscapeForTerminal(finding.text, 160)
          << "\n";
    }
    out << "  spec: " << verdict.spec_reference << "\n";
    if (result.judged < result.exchanges.size()) {
      out << "  reproduce: "
          << EscapeForTerminal(
                 Reproducer(result.exchanges[result.judged].request, info.reproducer_target), 2000)
          << "\n";
    }
  }

  if (!run.handshake_controls.empty()) out << "\nHandshake control\n";
  for (const auto& control : run.handshake_controls) {
    out << "  " << ToString(control.revision)
        << ": rejects_pre_init=" << ToString(control.pre_init.rejects) << " ("
        << ToString(control.pre_init.grounds) << ") "
        << EscapeForTerminal(control.pre_init.reason, 120) << "\n";
  }

  const VerdictCounts counts = Count(run);
  out << "\n"
      << counts.pass << " pass, " << counts.warn << " warn, " << counts.fail << " fail, "
      << counts.unverified << " unverified, " << counts.not_applicable << " not applicable\n";
  if (baseline != nullptr) {
    out << "baseline: " << baseline->new_failures.size() << " new failure(s), "
        << baseline->no_longer_failing.size() << " listed but no longer failing, "
        << baseline->still_failing.size() << " known\n";
    for (const auto& entry : baseline->new_failures) out << "  new: " << ToString(entry) << "\n";
    for (const auto& entry : baseline->no_longer_failing) {
      out << "  fixed (remove it from the baseline): " << ToString(entry) << "\n";
    }
  }
}

}  // namespace mcpfuzz::reports
