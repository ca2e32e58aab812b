// The HTML report: one self-contained file. Inline CSS and SVG, one small inline script for
// the copy buttons, and a Content-Security-Policy that forbids loading anything, so even a
// string that escaped escaping could not fetch or run anything from outside.

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cstdio>
#include <map>

#include "model/pretty_json.h"
#include "reports/detail/html_charts.h"
#include "reports/escape.h"
#include "reports/survey.h"
#include "reports/writers.h"

namespace mcpfuzz::reports {
namespace {

using detail::VerdictClass;

std::string H(std::string_view text) { return EscapeMarkup(text); }

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1f2328;max-width:1200px}
h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.meta{color:#59636e}.figures{display:flex;gap:12px;flex-wrap:wrap;margin:12px 0}
.figure{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;min-width:90px}
.figure b{display:block;font-size:24px}.charts{display:flex;flex-wrap:wrap;gap:20px}
figure{margin:0}figcaption{font-weight:600;margin-bottom:4px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d0d7de;padding:3px 8px}
th{background:#f6f8fa;text-align:left}td.n{text-align:right}
.fail{color:#cf222e}.warn{color:#9a6700}.unverified{color:#8250df}.pass{color:#1a7f37}
.na{color:#8c959f}td.fail,td.warn,td.pass,td.unverified,td.na{font-weight:600}
article{border:1px solid #d0d7de;border-left:4px solid #cf222e;border-radius:6px;
padding:8px 14px;margin:12px 0}article.v-warn{border-left-color:#bf8700}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:12px}
pre{background:#f6f8fa;padding:8px;white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0}
button{font-size:12px}li,p,td,h2,h3{overflow-wrap:anywhere}
)";

constexpr const char* kScript = R"(
document.querySelectorAll('button[data-copy]').forEach(function (b) {
  b.addEventListener('click', function () {
    var text = document.getElementById(b.dataset.copy).textContent;
    if (navigator.clipboard) navigator.clipboard.writeText(text);
    b.textContent = 'Copied';
  });
});
)";

std::string Figures(const VerdictCounts& counts, const std::string& scope) {
  std::string html = "<div class=\"figures\">";
  for (VerdictKind kind : kVerdictOrder) {
    const std::string name(ToString(kind));
    html += "<div class=\"figure " + VerdictClass(kind) + "\"><b data-figure=\"" + scope + name +
            "\">" + std::to_string(counts.Of(kind)) + "</b>" + name + "</div>";
  }
  return html + "</div>";
}

std::vector<std::pair<std::string, VerdictCounts>> GroupBy(const std::vector<ReportItem>& items,
                                                           std::string (*key)(const ReportItem&)) {
  std::vector<std::pair<std::string, VerdictCounts>> groups;
  for (const auto& item : items) {
    const std::string name = key(item);
    auto found = std::find_if(groups.begin(), groups.end(),
                              [&](const auto& group) { return group.first == name; });
    if (found == groups.end()) found = groups.insert(groups.end(), {name, VerdictCounts{}});
    found->second.Add(item.verdict.kind);
  }
  return groups;
}

std::string FamilyKey(const ReportItem& item) { return FamilyOf(item.id); }
std::string RevisionKey(const ReportItem& item) {
  return item.revision.empty() ? "unknown" : item.revision + "/" + item.transport;
}

std::string Matrix(const TargetSection& target) {
  std::vector<std::string> columns;
  std::vector<std::string> rows;
  std::map<std::pair<std::string, std::string>, VerdictKind> cells;
  for (const auto& item : target.items) {
    const std::string column = RevisionKey(item);
    if (std::find(columns.begin(), columns.end(), column) == columns.end()) {
      columns.push_back(column);
    }
    if (std::find(rows.begin(), rows.end(), item.id) == rows.end()) rows.push_back(item.id);
    auto [cell, added] = cells.emplace(std::make_pair(item.id, column), item.verdict.kind);
    if (!added && Severity(item.verdict.kind) > Severity(cell->second)) {
      cell->second = item.verdict.kind;
    }
  }
  std::sort(columns.begin(), columns.end(), std::greater<>());
  std::string html = "<table class=\"matrix\"><tr><th>check</th>";
  for (const auto& column : columns) html += "<th>" + H(column) + "</th>";
  html += "</tr>";
  for (const auto& row : rows) {
    html += "<tr><td>" + H(row) + "</td>";
    for (const auto& column : columns) {
      auto found = cells.find({row, column});
      if (found == cells.end()) {
        html += "<td>-</td>";
      } else {
        html += "<td class=\"" + VerdictClass(found->second) + "\">" +
                std::string(ToString(found->second)) + "</td>";
      }
    }
    html += "</tr>";
  }
  return html + "</table>";
}

std::string Capped(std::string text, std::size_t limit) {
  if (text.size() > limit) {
    text.resize(limit);
    text += "\n… (cut here; the JSON report has all of it)";
  }
  return text;
}

std::string Finding(const ReportItem& item, std::size_t index) {
  const Verdict& verdict = item.verdict;
  const std::string id = "finding-" + std::to_string(index);
  std::string html = "<article class=\"v-" + VerdictClass(verdict.kind) + "\" id=\"" + id +
                     "\"><h3><span class=\"" + VerdictClass(verdict.kind) + "\">" +
                     std::string(ToString(verdict.kind)) + "</span> " + H(item.id);
  if (!item.revision.empty()) html += " — " + H(item.revision + "/" + item.transport);
  html += " (" + std::string(ToString(verdict.strength)) + ")</h3>";
  std::string observed = ObservedText(verdict.observed);
  if (!verdict.observed.excerpt.empty()) observed += "\n" + verdict.observed.excerpt;
  html += "<div class=\"sides\"><div><h4>Expected</h4><pre>" + H(verdict.expected.text) +
          "</pre></div><div><h4>Observed</h4><pre>" + H(observed) + "</pre></div></div><ul>";
  for (const auto& finding : verdict.findings) {
    html += "<li>" + std::string(ToString(finding.strength)) + ": " + H(finding.text) + "</li>";
  }
  for (const auto& note : verdict.notes) html += "<li>note: " + H(note) + "</li>";
  for (const auto& [name, value] : item.facts) html += "<li>" + H(name) + ": " + H(value) + "</li>";
  if (!item.case_file.empty()) html += "<li>case file: " + H(item.case_file) + "</li>";
  html += "</ul><p>spec: <span class=\"spec\">" + H(verdict.spec_reference) + "</span></p>";
  if (!item.reproducer.empty()) {
    html += "<p>reproduce <button type=\"button\" data-copy=\"" + id +
            "-repro\">Copy</button></p><pre class=\"repro\" id=\"" + id + "-repro\">" +
            H(item.reproducer) + "</pre>";
  }
  if (item.judged < item.exchanges.size()) {
    const auto& exchange = item.exchanges[item.judged];
    html += "<details><summary>request and observation</summary><pre>" +
            H(Capped(PrettyJson(exchange.request) + PrettyJson(exchange.observation), 16384)) +
            "</pre></details>";
  }
  return html + "</article>";
}

std::string SurveyHtml(const Report& report) {
  const SurveyTables tables = Tabulate(report);
  const UnknownToolTable& unknown = tables.unknown_tool;
  auto row = [](const std::string& name, int value, const std::string& key) {
    return "<tr><td>" + name + "</td><td class=\"n\" data-figure=\"" + key + "\">" +
           std::to_string(value) + "</td></tr>";
  };
  std::string html =
      "<section class=\"survey\"><h2>Survey: unknown tool (tools.unknown-name)</h2>"
      "<table><tr><th>state</th><th>servers</th></tr>" +
      row("VERIFIED", unknown.verified, "VERIFIED") +
      row("OBSERVED_RISK", unknown.observed_risk, "OBSERVED_RISK") +
      row("UNVERIFIED", unknown.unverified, "UNVERIFIED") +
      row("not checked", unknown.not_checked, "not_checked") +
      "</table><p>Of the observed risks:</p><table><tr><th>shape</th><th>servers</th></tr>" +
      row("isError result", unknown.is_error_result, "is_error_result") +
      row("result without isError", unknown.result_without_is_error, "result_without_is_error") +
      row("not JSON-RPC", unknown.not_json_rpc, "not_json_rpc") +
      row("other", unknown.other_risk, "other_risk") +
      "</table><h2>Servers per verdict, per check</h2><table><tr><th>check</th>";
  for (VerdictKind kind : kVerdictOrder) html += "<th>" + std::string(ToString(kind)) + "</th>";
  html += "</tr>";
  for (const auto& check : tables.per_check) {
    html += "<tr><td>" + H(check.id) + "</td>";
    for (VerdictKind kind : kVerdictOrder) {
      html += "<td class=\"n\">" + std::to_string(check.counts.Of(kind)) + "</td>";
    }
    html += "</tr>";
  }
  return html + "</table></section>";
}

std::string TargetHtml(const TargetSection& target, std::size_t index, std::size_t& findings) {
  const VerdictCounts counts = Count(target.items);
  std::string html = "<section class=\"target\"><h2>" + H(target.description) + "</h2><p>speaks: ";
  if (target.eras.speaks.empty()) html += "no revision mcpfuzz knows";
  for (std::size_t i = 0; i < target.eras.speaks.size(); ++i) {
    html += (i ? ", " : "") + std::string(ToString(target.eras.speaks[i]));
  }
  html += "</p>";
  if (!target.error.empty()) html += "<p class=\"fail\">not run: " + H(target.error) + "</p>";
  for (const auto& note : target.notes) html += "<p class=\"meta\">note: " + H(note) + "</p>";
  html += Figures(counts, "t" + std::to_string(index) + "-");
  if (!target.items.empty()) {
    html += "<div class=\"charts\">" + detail::VerdictBars(counts, "per verdict") +
            detail::StackedBars(GroupBy(target.items, FamilyKey), "per family") +
            detail::StackedBars(GroupBy(target.items, RevisionKey), "per revision") + "</div>";
    html += "<h3>Checks × revisions</h3>" + Matrix(target);
  }
  bool heading = false;
  for (const auto& item : target.items) {
    if (!WorthShowing(item)) continue;
    if (!heading) html += "<h3>Findings</h3>";
    heading = true;
    html += Finding(item, findings++);
  }
  return html + "</section>";
}

}  // namespace

void WriteHtml(const Report& report, std::ostream& out) {
  if (report.kind == ReportKind::kDiff) return WriteDiffHtml(report, out);
  std::string title = "mcpfuzz " + std::string(ToString(report.kind)) + " report";
  if (report.targets.size() == 1) title += ": " + report.targets[0].description;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", report.duration_seconds);
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
      << "<title>" << H(title) << "</title><style>" << kStyle << "</style></head><body>\n"
      << "<h1>" << H(title) << "</h1><p class=\"meta\">mcpfuzz " << H(report.tool_version)
      << " · started " << H(report.started_at) << " · " << seconds << " s · "
      << FailingCount(report) << " failing</p>\n";
  if (report.fuzz) {
    out << "<p class=\"meta\">seed <span data-figure=\"seed\">" << report.fuzz->seed
        << "</span> · <span data-figure=\"cases\">" << report.fuzz->cases << "</span> cases</p>";
  }
  if (report.targets.size() > 1) out << Figures(Count(report), "all-");
  if (report.kind == ReportKind::kSurvey) out << SurveyHtml(report);
  std::size_t findings = 0;
  for (std::size_t i = 0; i < report.targets.size(); ++i) {
    out << TargetHtml(report.targets[i], i, findings) << "\n";
  }
  out << "<script>" << kScript << "</script></body></html>\n";
}

}  // namespace mcpfuzz::reports
