// The survey's HTML page, for dozens of servers: the census first ("35 targets, 30 reached,
// 12 with a FAIL, 5 not judged"), then one row per server named by the serverInfo it announced
// (its URL or command on hover and in its details), then one row per check some server FAILs
// or WARNs on, naming those servers, then the unknown-tool census, then each server's details
// folded. The page keeps no exchange, reproducer or chart: per server it says what deviated and
// how, in a few hundred bytes a deviation, so 35 servers make a page of a few hundred KB. The
// JSON report keeps everything.
//
// Self-contained like the other pages: inline CSS, no script (details fold natively), and a
// Content-Security-Policy that forbids loading anything.

#include <algorithm>
#include <cstdio>

#include "reports/detail/html_charts.h"
#include "reports/detail/stopped_early.h"
#include "reports/escape.h"
#include "reports/survey.h"

namespace mcpfuzz::reports {
namespace {

std::string H(std::string_view text) { return EscapeMarkup(text); }

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:20px 24px;color:#1f2328;max-width:1200px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:18px;border-bottom:1px solid #d0d7de;
padding-bottom:4px;margin:16px 0 6px}.meta{color:#59636e}p{margin:4px 0}
.census{font-size:18px;font-weight:600;margin:8px 0}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #d0d7de;padding:3px 8px;
vertical-align:top}th{background:#f6f8fa;text-align:left}td.n{text-align:right}
td,li,p{overflow-wrap:anywhere}.fail{color:#cf222e}.warn{color:#9a6700}.pass{color:#1a7f37}
.unverified{color:#8250df}.na,.none{color:#8c959f}td.fail,td.warn{font-weight:600}
tr.not-judged td{background:#fff8c5}td a{color:inherit}sup{color:#59636e}
td.inherited,table.servers td:first-child{white-space:nowrap}
table.servers td:nth-child(6){max-width:26em}
details{border:1px solid #d0d7de;border-radius:6px;padding:4px 10px;margin:6px 0}
summary{cursor:pointer;font-weight:600}
)";

constexpr const char* kUnknownToolWords = R"(<p class="meta">VERIFIED: a call to a tool that
cannot exist was answered on the protocol channel (a JSON-RPC error, whatever its code).
OBSERVED_RISK: it was answered on another channel (an <code>isError</code> result, a result as
if the call had worked, something that is not JSON-RPC, or nothing), which a model can take for
the tool's output; a risk in any revision outweighs a verified answer in another. UNVERIFIED:
the call never reached the tool dispatch (HTTP 401/403, rate limits, transport errors).</p>)";

constexpr const char* kInheritedWords = R"(<p class="meta"><i>Likely inherited</i>: the server's
FAILs and WARNs on those checks match, by check, verdict, error code and words, what an SDK
server mcpfuzz measured answers (<code>scripts/sdk-fingerprints.sh</code>); the serverInfo a
server announces is not consulted. Two servers can word an error alike by chance: a match makes
the SDK the likely source, it does not prove it.</p>)";

// A server's name linking to its details; `titled` adds its URL or command on hover, which only
// its own row carries: repeated in every check's row it would be most of the page.
std::string Link(const SurveyTables& tables, const Report& report, std::size_t t, bool titled) {
  std::string html = "<a href=\"#target-" + std::to_string(t) + "\"";
  if (titled) html += " title=\"" + H(report.targets[t].description) + "\"";
  return html + ">" + H(tables.servers[t].name) + "</a>";
}

// The SDK a server's deviation on `check` likely comes from, or nothing.
const KnownSdk* InheritedFrom(const ServerRow& row, std::string_view check,
                              const FingerprintTable& fingerprints) {
  for (const InheritedCheck& inherited : row.inherited) {
    if (inherited.check == check) return fingerprints.Find(inherited.sdks.front());
  }
  return nullptr;
}

std::string CensusHtml(const SurveyCensus& census) {
  auto figure = [](int value, const char* key) {
    return "<span data-figure=\"" + std::string(key) + "\">" + std::to_string(value) + "</span>";
  };
  // The sentence of CensusText, each number marked for tests and scripts.
  return "<p class=\"census\" data-figure=\"census\">" + figure(census.targets, "census-targets") +
         " targets, " + figure(census.reached, "census-reached") + " reached, " +
         figure(census.with_fail, "census-with-fail") + " with a FAIL, " +
         figure(census.not_judged, "census-not-judged") + " not judged</p>";
}

std::string ServersHtml(const Report& report, const SurveyTables& tables,
                        const FingerprintTable& fingerprints) {
  std::string html =
      "<h2>Servers</h2><table class=\"servers\"><tr><th>server</th><th>transport</th>"
      "<th>speaks</th><th>FAIL</th><th>WARN</th><th>reached</th><th>likely inherited</th></tr>";
  for (const ServerRow& row : tables.servers) {
    const TargetSection& target = report.targets[row.target];
    const EraReport& eras = target.eras;
    const std::string speaks =
        eras.speaks.empty() && eras.undetermined.empty() ? "" : SpeaksText(report, target);
    std::string reached = row.reached ? "yes" : "no";
    if (!target.error.empty()) reached += "; not judged: " + target.error;
    std::string inherited_checks;
    for (const InheritedCheck& check : row.inherited) {
      inherited_checks += (inherited_checks.empty() ? "" : ", ") + check.check;
    }
    html += "<tr data-server=\"" + std::to_string(row.target) + "\"" +
            (target.error.empty() ? "" : " class=\"not-judged\"") + "><td>" +
            Link(tables, report, row.target, true) + "</td><td>" + H(target.transport) +
            "</td><td>" + H(speaks) + "</td><td class=\"n" + (row.fail_checks > 0 ? " fail" : "") +
            "\">" + std::to_string(row.fail_checks) + "</td><td class=\"n" +
            (row.warn_checks > 0 ? " warn" : "") + "\">" + std::to_string(row.warn_checks) +
            "</td><td>" + H(reached) + "</td><td class=\"inherited\" title=\"" +
            H(inherited_checks) + "\">" + H(InheritedText(row, fingerprints)) + "</td></tr>";
  }
  return html + "</table>" + kInheritedWords;
}

std::string DeviatingHtml(const Report& report, const SurveyTables& tables,
                          const FingerprintTable& fingerprints) {
  if (tables.deviating.empty()) return "<p class=\"pass\">No server FAILs or WARNs.</p>";
  auto names = [&](const std::string& check, const std::vector<std::size_t>& targets) {
    if (targets.empty()) return std::string("—");
    std::string html = std::to_string(targets.size()) + ": ";
    for (std::size_t i = 0; i < targets.size(); ++i) {
      html += (i == 0 ? "" : ", ") + Link(tables, report, targets[i], false);
      if (const KnownSdk* sdk = InheritedFrom(tables.servers[targets[i]], check, fingerprints)) {
        html += " <sup title=\"likely inherited from " + H(sdk->package) + "\">" + H(sdk->name) +
                "</sup>";
      }
    }
    return html;
  };
  std::string html =
      "<h2>Checks failed or warned on</h2><table class=\"checks\"><tr><th>check</th>"
      "<th>servers that FAIL</th><th>servers that WARN</th></tr>";
  for (const DeviatingCheck& check : tables.deviating) {
    html += "<tr data-check=\"" + H(check.id) + "\"><td>" + H(check.id) + "</td><td>" +
            names(check.id, check.failing) + "</td><td>" + names(check.id, check.warning) +
            "</td></tr>";
  }
  return html + "</table>";
}

std::string UnknownToolHtml(const UnknownToolTable& unknown) {
  auto cell = [](const char* name, int value) {
    return "<tr><td>" + std::string(name) + "</td><td class=\"n\">" + std::to_string(value) +
           "</td></tr>";
  };
  return "<h2>A call to an unknown tool (tools.unknown-name)</h2><table class=\"unknown-tool\">"
         "<tr><th>answer</th><th>servers</th></tr>" +
         cell("VERIFIED", unknown.verified) + cell("OBSERVED_RISK", unknown.observed_risk) +
         cell("UNVERIFIED", unknown.unverified) + cell("not checked", unknown.not_checked) +
         cell("of the risks: isError result", unknown.is_error_result) +
         cell("of the risks: result without isError", unknown.result_without_is_error) +
         cell("of the risks: not JSON-RPC", unknown.not_json_rpc) +
         cell("of the risks: other", unknown.other_risk) + "</table>" + kUnknownToolWords;
}

// One server's details, folded: what it is, and one line per check it FAILs or WARNs on, FAILs
// first: the revisions that answered alike share the line.
std::string DetailsHtml(const Report& report, const TargetSection& target, const ServerRow& row,
                        const FingerprintTable& fingerprints) {
  std::string html = "<details id=\"target-" + std::to_string(row.target) + "\"><summary>" +
                     H(row.name) + " — " + std::to_string(row.fail_checks) + " FAIL, " +
                     std::to_string(row.warn_checks) + " WARN</summary><p class=\"meta\">" +
                     H(target.description) + " · " + H(target.transport) +
                     " · speaks: " + H(SpeaksText(report, target));
  if (target.server_info) html += " · announces: " + H(AnnouncedText(*target.server_info));
  html += "</p>";
  if (!target.error.empty()) {
    html += "<p class=\"fail\" data-figure=\"not-judged\">not judged: " + H(target.error) + "</p>";
  }
  for (const auto& note : target.notes) html += "<p class=\"meta\">note: " + H(note) + "</p>";
  struct Line {
    const ReportItem* item;
    std::string observed;
    std::string revisions;
  };
  std::vector<Line> lines;
  for (const ReportItem& item : target.items) {
    if (item.verdict.kind != VerdictKind::kFail && item.verdict.kind != VerdictKind::kWarn) {
      continue;
    }
    std::string observed = Excerpt(ObservedText(item.verdict.observed), 160);
    auto same = std::find_if(lines.begin(), lines.end(), [&](const Line& line) {
      return line.item->id == item.id && line.item->verdict.kind == item.verdict.kind &&
             line.observed == observed;
    });
    if (same != lines.end()) {
      same->revisions += ", " + item.revision;
    } else {
      lines.push_back({&item, std::move(observed), item.revision});
    }
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return Severity(a.item->verdict.kind) > Severity(b.item->verdict.kind);
  });
  if (lines.empty()) return html + "</details>";
  html +=
      "<table><tr><th>check</th><th>verdict</th><th>revisions</th><th>observed</th>"
      "<th>likely inherited</th></tr>";
  for (const Line& line : lines) {
    const KnownSdk* sdk = InheritedFrom(row, line.item->id, fingerprints);
    html += "<tr><td>" + H(line.item->id) + "</td><td class=\"" +
            detail::VerdictClass(line.item->verdict.kind) + "\">" +
            std::string(ToString(line.item->verdict.kind)) + "</td><td>" + H(line.revisions) +
            "</td><td>" + H(line.observed) + "</td><td>" +
            (sdk != nullptr ? H(sdk->name) : std::string()) + "</td></tr>";
  }
  return html + "</table></details>";
}

}  // namespace

void WriteSurveyHtml(const Report& report, std::ostream& out) {
  const FingerprintTable& fingerprints = KnownSdkFingerprints();
  const SurveyTables tables = Tabulate(report, fingerprints);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", report.duration_seconds);
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'\">"
      << "<title>mcpfuzz survey report</title><style>" << kStyle << "</style></head><body>\n"
      << "<h1>mcpfuzz survey report</h1>" << detail::HtmlStoppedBanner(report)
      << CensusHtml(tables.census) << "<p class=\"meta\">mcpfuzz " << H(report.tool_version)
      << " · started " << H(report.started_at) << " · " << seconds << " s · "
      << FailingCount(report) << " failing (check × revision)</p>\n"
      << ServersHtml(report, tables, fingerprints) << "\n"
      << DeviatingHtml(report, tables, fingerprints) << "\n"
      << UnknownToolHtml(tables.unknown_tool)
      << "\n<h2>Details</h2><p class=\"meta\">Each server's FAILs and WARNs; its exchanges and "
         "reproducers are in the JSON report (<code>--report json=FILE</code>).</p>\n";
  for (const ServerRow& row : tables.servers) {
    out << DetailsHtml(report, report.targets[row.target], row, fingerprints) << "\n";
  }
  out << "</body></html>\n";
}

}  // namespace mcpfuzz::reports
