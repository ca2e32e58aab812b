// The disagreement matrix in HTML, JUnit XML and SARIF. JUnit has one test case per distinct
// disagreement (a failure when some side is wrong); SARIF one result per disagreement, an error
// when some side is wrong and a note when the answers are merely different.

#include <algorithm>
#include <cstdio>
#include <set>
#include <string_view>
#include <vector>

#include "model/pretty_json.h"
#include "reports/detail/sarif_location.h"
#include "reports/detail/server_info_json.h"
#include "reports/detail/stopped_early.h"
#include "reports/diff.h"
#include "reports/escape.h"
#include "reports/report.h"

namespace mcpfuzz::reports {
namespace {

namespace json = boost::json;

const DiffSection& SectionOf(const Report& report) {
  static const DiffSection kEmpty;
  return report.diff ? *report.diff : kEmpty;
}

std::string H(std::string_view text) { return EscapeMarkup(text); }

std::string Seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}

std::string Summary(const DiffRow& row, const DiffSection& diff) {
  std::string text = row.check_id + ": " + row.label + ";";
  for (std::size_t t = 0; t < row.cells.size(); ++t) {
    text += " [" + (t < diff.targets.size() ? diff.targets[t].name : "?") + "] " +
            row.cells[t].answer + " " + row.cells[t].verdict + ";";
  }
  return text;
}

// A cell is coloured by its verdict: a tolerated answer (WARN) is accepted as a PASS is, and
// looked like one when the colour said only "accepted".
std::string_view CellClass(std::string_view verdict) {
  if (verdict == "FAIL") return "v-fail";
  if (verdict == "WARN") return "v-warn";
  if (verdict == "PASS") return "v-pass";
  return "v-other";
}

constexpr std::string_view kDiffLegend =
    "<p class=\"legend\">Each cell is a target's answer and mcpfuzz's verdict on it: "
    "<span class=\"v-fail\">FAIL</span> breaks a MUST, <span class=\"v-warn\">WARN</span> is "
    "tolerated or breaks a SHOULD, <span class=\"v-pass\">PASS</span> is what the oracle table "
    "asks; ✓ marks an answer the table accepts. Rows with a wrong side come first.</p>\n";

}  // namespace

void WriteDiffHtml(const Report& report, std::ostream& out) {
  const DiffSection& diff = SectionOf(report);
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'\"><title>mcpfuzz diff report</title><style>"
      << "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
         "td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}"
         ".v-pass{background:#e6f4ea}.v-warn{background:#fff4ce}.v-fail,.bad{background:#fce8e6}"
         ".v-other{background:#eef1f5}pre{white-space:pre-wrap;"
         "font-size:12px}</style></head><body>\n<h1>mcpfuzz diff report</h1>"
      << detail::HtmlStoppedBanner(report) << "<p class=\"meta\">mcpfuzz " << H(report.tool_version)
      << " · started " << H(report.started_at) << " · seed <span data-figure=\"seed\">" << diff.seed
      << "</span> · revision " << H(diff.revision) << " · <span data-figure=\"cases\">"
      << diff.cases << "</span> cases · <span data-figure=\"disagreements\">" << diff.rows.size()
      << "</span> disagreement(s), " << diff.WrongSideCount() << " with a wrong side</p>\n"
      << kDiffLegend;
  out << "<table><tr><th>check</th><th>label</th>";
  for (const auto& target : diff.targets) {
    out << "<th>" << H(target.name);
    if (target.server_info) out << "<br>announces: " << H(AnnouncedText(*target.server_info));
    if (!target.error.empty()) {
      out << "<br><span class=\"bad\" data-figure=\"not-judged\">not judged: " << H(target.error)
          << "</span>";
    }
    out << "</th>";
  }
  out << "</tr>\n";
  std::vector<const DiffRow*> rows;
  for (const auto& row : diff.rows) rows.push_back(&row);
  std::stable_partition(rows.begin(), rows.end(),
                        [](const DiffRow* row) { return row->WrongSide(); });
  for (const DiffRow* row_of : rows) {
    const DiffRow& row = *row_of;
    out << "<tr><td><code>" << H(row.check_id) << "</code><br>" << H(row.family) << ": "
        << H(row.variant) << "</td><td>" << H(row.label) << "</td>";
    for (const auto& cell : row.cells) {
      out << "<td class=\"" << CellClass(cell.verdict) << "\">" << H(cell.answer)
          << (cell.accepted ? " ✓" : "") << " <b>" << H(cell.verdict)
          << "</b><details><summary>reproducer</summary><pre>" << H(cell.reproducer)
          << "</pre></details></td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n";
  for (const auto& note : diff.notes) out << "<p>note: " << H(note) << "</p>\n";
  out << "</body></html>\n";
}

// As in every SARIF report, by verdict: error where a side FAILs, warning where one WARNs.
std::string_view Level(const DiffRow& row) {
  if (row.WrongSide()) return "error";
  return row.SomeSideWarns() ? "warning" : "note";
}

void WriteDiffJunit(const Report& report, std::ostream& out) {
  const DiffSection& diff = SectionOf(report);
  auto attr = [](std::string_view name, std::string_view value) {
    return " " + std::string(name) + "=\"" + EscapeMarkup(value) + "\"";
  };
  // A target that could not be judged is a test in error, as in a survey.
  const auto not_judged = static_cast<std::size_t>(
      std::count_if(diff.targets.begin(), diff.targets.end(),
                    [](const DiffTargetReport& target) { return !target.error.empty(); }));
  const std::string tests = std::to_string(diff.rows.size() + not_judged);
  const std::string failures = std::to_string(FailingCount(report));
  const std::string errors = std::to_string(not_judged);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" << attr("name", "mcpfuzz diff")
      << attr("tests", tests) << attr("failures", failures) << attr("errors", errors)
      << attr("skipped", "0") << attr("time", Seconds(report.duration_seconds))
      << attr("timestamp", report.started_at) << ">\n  <testsuite" << attr("name", "disagreements")
      << attr("tests", tests) << attr("failures", failures) << attr("errors", errors)
      << attr("skipped", "0") << attr("time", Seconds(report.duration_seconds)) << ">\n";
  std::string properties = detail::JunitStoppedEarlyProperties(report);
  for (std::size_t t = 0; t < diff.targets.size(); ++t) {
    if (!diff.targets[t].server_info) continue;
    properties += "      <property" + attr("name", "server_info." + std::to_string(t + 1)) +
                  attr("value", AnnouncedText(*diff.targets[t].server_info)) + "/>\n";
  }
  if (!properties.empty()) out << "    <properties>\n" << properties << "    </properties>\n";
  for (const auto& row : diff.rows) {
    out << "    <testcase" << attr("name", row.check_id + " (" + row.label + ")")
        << attr("classname", "mcpfuzz.diff") << attr("time", "0") << ">\n";
    std::string body;
    for (std::size_t t = 0; t < row.cells.size(); ++t) {
      body += "[" + std::to_string(t + 1) + "] " + row.cells[t].answer + " " +
              row.cells[t].verdict + "\n" + row.cells[t].reproducer + "\n";
    }
    if (RowFailsRun(row, report.fail_on)) {
      out << "      <failure" << attr("message", Summary(row, diff)) << attr("type", row.label)
          << ">" << EscapeMarkup(body) << "</failure>\n";
    } else {
      out << "      <system-out>" << EscapeMarkup(body) << "</system-out>\n";
    }
    out << "    </testcase>\n";
  }
  for (std::size_t t = 0; t < diff.targets.size(); ++t) {
    if (diff.targets[t].error.empty()) continue;
    out << "    <testcase"
        << attr("name", "judge target [" + std::to_string(t + 1) + "] " + diff.targets[t].name)
        << attr("classname", "mcpfuzz.diff") << attr("time", "0") << ">\n      <error"
        << attr("message", diff.targets[t].error) << attr("type", "not-judged")
        << "/>\n    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

void WriteDiffSarif(const Report& report, std::ostream& out, std::string_view sarif_root) {
  const DiffSection& diff = SectionOf(report);
  json::array results;
  std::set<std::string> rule_ids;
  for (const auto& row : diff.rows) {
    rule_ids.insert(row.check_id);
    json::object result{
        {"ruleId", row.check_id},
        {"level", Level(row)},
        {"message", {{"text", Summary(row, diff)}}},
        {"locations", json::array{json::object{
                          {"physicalLocation", detail::SarifPhysicalLocation("", sarif_root)}}}},
        {"properties", {{"label", row.label}, {"case_index", row.case_index}}}};
    results.push_back(std::move(result));
  }
  json::array rules;
  for (const auto& id : rule_ids) rules.push_back(json::object{{"id", id}});
  json::object run{
      {"tool",
       {{"driver", {{"name", "mcpfuzz"}, {"version", report.tool_version}, {"rules", rules}}}}},
      {"invocations", json::array{detail::SarifInvocation(report)}},
      {"results", results}};
  // As in every SARIF report: what the targets announced is a run property, not the driver's.
  json::array announced;
  bool any = false;
  for (const auto& target : diff.targets) {
    any = any || target.server_info.has_value();
    announced.push_back(json::object{{"name", target.name},
                                     {"serverInfo", detail::ServerInfoToJson(target.server_info)}});
  }
  if (any) run["properties"] = {{"targets", std::move(announced)}};
  detail::AddStoppedEarlySarif(report, run);
  json::value log = json::object{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                                 {"version", "2.1.0"},
                                 {"runs", json::array{std::move(run)}}};
  MakeJsonStringsValidUtf8(log);
  out << PrettyJson(log);
}

}  // namespace mcpfuzz::reports
