// The HTML report: one self-contained file. Inline CSS and SVG, one small inline script (copy
// buttons, the matrix's filter and "show only failing" switch), and a Content-Security-Policy
// that forbids loading anything, so even a string that escaped escaping could not fetch or run
// anything from outside. Findings come first, grouped by check; the matrix follows with its
// passing rows folded; then the charts.

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cstdio>

#include "reports/detail/html_charts.h"
#include "reports/detail/html_findings.h"
#include "reports/detail/html_matrix.h"
#include "reports/detail/stopped_early.h"
#include "reports/escape.h"
#include "reports/survey.h"
#include "reports/writers.h"

namespace mcpfuzz::reports {
namespace {

using detail::VerdictClass;

std::string H(std::string_view text) { return EscapeMarkup(text); }

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:20px 24px;color:#1f2328;max-width:1200px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:18px;border-bottom:1px solid #d0d7de;
padding-bottom:4px;margin:16px 0 6px}h3{font-size:15px;margin:14px 0 6px}h4{margin:8px 0 4px}
.meta{color:#59636e}p{margin:4px 0}.tally b{font-size:16px}
.figures{display:flex;gap:12px;flex-wrap:wrap;margin:8px 0}
.figure{border:1px solid #d0d7de;border-radius:6px;padding:6px 12px;min-width:90px}
.figure b{display:block;font-size:22px}.charts{display:flex;flex-wrap:wrap;gap:20px}
figure{margin:0}figcaption{font-weight:600;margin-bottom:4px}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #d0d7de;padding:3px 8px}
th{background:#f6f8fa;text-align:left}td.n{text-align:right}
.fail{color:#cf222e}.warn{color:#9a6700}.unverified{color:#8250df}.pass{color:#1a7f37}
.na,.none{color:#8c959f}td.fail,td.warn,td.pass,td.unverified,td.na{font-weight:600}
td a{color:inherit}article{border:1px solid #d0d7de;border-left:4px solid #cf222e;
border-radius:6px;padding:6px 14px;margin:10px 0}article.v-warn{border-left-color:#bf8700}
article h3{margin:4px 0}.occurrence{border-top:1px dashed #d0d7de;padding-top:4px;margin-top:6px}
table.compare th{background:none;font-weight:600}table.compare tr.differs td{background:#ffebe9}
article.v-warn table.compare tr.differs td{background:#fff8c5}
pre{background:#f6f8fa;padding:8px;white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0}
pre.excerpt{max-height:8em;overflow:auto}
button{font-size:12px}li,p,td,h2,h3{overflow-wrap:anywhere}
.controls{margin:6px 0}.controls input[type=search]{width:220px}
details.quiet>summary{cursor:pointer;color:#59636e;margin:4px 0}
)";

constexpr const char* kScript = R"(
document.querySelectorAll('button[data-copy]').forEach(function (b) {
  b.addEventListener('click', function () {
    var text = document.getElementById(b.dataset.copy).textContent;
    if (navigator.clipboard) navigator.clipboard.writeText(text);
    b.textContent = 'Copied';
  });
});
document.querySelectorAll('.controls[data-matrix]').forEach(function (controls) {
  var matrix = document.getElementById(controls.dataset.matrix + '-matrix');
  var filter = controls.querySelector('.filter');
  var only = controls.querySelector('.only-failing');
  var folded = matrix.querySelector('details.quiet');
  function apply() {
    var text = filter.value.trim().toLowerCase();
    matrix.querySelectorAll('tr[data-check]').forEach(function (row) {
      var shown = (!only.checked || row.dataset.state === 'failing') &&
          row.dataset.check.toLowerCase().indexOf(text) >= 0;
      row.hidden = !shown;
    });
    // A filter reaches into the folded rows; "only failing" leaves nothing to see there.
    if (folded) {
      folded.hidden = only.checked;
      if (text) folded.open = true;
    }
  }
  filter.addEventListener('input', apply);
  only.addEventListener('change', apply);
});
)";

// The counts per verdict, in one line: the findings below it are what matters.
std::string Tally(const VerdictCounts& counts, const std::string& scope) {
  std::string html = "<p class=\"tally\">";
  bool first = true;
  for (VerdictKind kind : kVerdictOrder) {
    const std::string name(ToString(kind));
    html += std::string(first ? "" : " · ") + "<b class=\"" + VerdictClass(kind) +
            "\" data-figure=\"" + scope + name + "\">" + std::to_string(counts.Of(kind)) + "</b> " +
            name;
    first = false;
  }
  return html + "</p>";
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
// A fuzz run counts its cases per revision (a run has one transport), so its findings are counted
// so too, in the same row.
std::string RevisionKey(const ReportItem& item) {
  return item.revision.empty() ? "unknown" : item.revision;
}
// A fuzz finding names the generator family that found it; a check result has none.
std::string GeneratorKey(const ReportItem& item) {
  for (const auto& [name, value] : item.facts) {
    if (name == "family") return value;
  }
  return FamilyOf(item.id);
}

std::string Figure(const std::string& value, const std::string& name, const std::string& key) {
  return "<div class=\"figure\"><b data-figure=\"" + key + "\">" + H(value) + "</b>" + H(name) +
         "</div>";
}

// `mcpfuzz fuzz` again with this seed: the target as the report describes it.
std::string ReplayCommand(const Report& report) {
  const FuzzFigures& fuzz = *report.fuzz;
  std::string target = "TARGET";
  if (report.targets.size() == 1) {
    const std::string& description = report.targets[0].description;
    const std::string words = description.substr(0, description.find(" ("));
    if (words.starts_with("http")) target = words;
    if (words.starts_with("stdio: ")) target = "-- " + words.substr(7);
  }
  // --cases counts the case indices drawn: those sent, and those that were not.
  const std::size_t drawn = fuzz.cases + fuzz.generation_failures + fuzz.skipped +
                            fuzz.big_inputs_held_back + fuzz.sequences_held_back;
  return "mcpfuzz fuzz --seed " + std::to_string(fuzz.seed) + " --cases " + std::to_string(drawn) +
         " " + target;
}

// What a fuzz run did: its own figures, not verdict counts (a campaign judges only findings).
std::string FuzzSummary(const Report& report) {
  const FuzzFigures& fuzz = *report.fuzz;
  std::size_t findings = 0;
  for (const auto& target : report.targets) findings += target.items.size();
  const double seconds = static_cast<double>(fuzz.elapsed_ms) / 1000.0;
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.0f",
                seconds > 0 ? static_cast<double>(fuzz.cases) / seconds : 0.0);
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.1f s", seconds);
  std::string html =
      "<div class=\"figures\">" + Figure(std::to_string(fuzz.cases), "cases sent", "cases") +
      Figure(std::to_string(findings), "findings", "findings") + Figure(rate, "cases/s", "rate") +
      Figure(elapsed, "elapsed", "elapsed") + Figure(std::to_string(fuzz.seed), "seed", "seed") +
      Figure(std::to_string(fuzz.sessions_opened), "sessions", "sessions") + "</div>";
  if (fuzz.generation_failures + fuzz.skipped > 0) {
    html += "<p class=\"meta\">" + std::to_string(fuzz.generation_failures) +
            " cases could not be generated; " + std::to_string(fuzz.skipped) +
            " were not sent (their check timed out three times)</p>";
  }
  if (fuzz.big_inputs_held_back > 0) {
    html += "<p class=\"meta\">" + std::to_string(fuzz.big_inputs_held_back) +
            " big inputs held back: the first of each size class is sent, then one in " +
            std::to_string(fuzz.big_input_every) + "</p>";
  }
  if (fuzz.sequences_held_back > 0) {
    html += "<p class=\"meta\">" + std::to_string(fuzz.sequences_held_back) +
            " sequences held back (over stdio each starts a server): the first ending on each "
            "check is sent, then one in " +
            std::to_string(fuzz.sequence_every) + "</p>";
  }
  html +=
      "<p>the same cases again <button type=\"button\" data-copy=\"replay-command\">Copy"
      "</button></p><pre id=\"replay-command\">" +
      H(ReplayCommand(report)) + "</pre>";
  return html;
}

// Cases sent and findings, per generator family or per revision: every group that was sent
// to, and any that holds a finding.
std::string CountTable(const std::map<std::string, std::size_t>& sent,
                       const std::vector<std::pair<std::string, VerdictCounts>>& groups,
                       const std::string& what) {
  std::map<std::string, std::pair<std::size_t, int>> rows;
  for (const auto& [name, count] : sent) rows[name].first = count;
  for (const auto& [name, counts] : groups) rows[name].second = counts.Total();
  std::string html = "<table><tr><th>" + H(what) + "</th><th>cases sent</th><th>findings</th></tr>";
  for (const auto& [name, row] : rows) {
    html += "<tr><td>" + H(name) + "</td><td class=\"n\">" + std::to_string(row.first) +
            "</td><td class=\"n\">" + std::to_string(row.second) + "</td></tr>";
  }
  return html + "</table>";
}

// The server's own coverage (fuzz --coverage): how far the cases reached, how it grew, and
// the scripts of the server's own code first, then the busiest under node_modules.
std::string CoverageHtml(const FuzzCoverage& coverage, std::size_t cases) {
  if (!coverage.off.empty()) {
    return "<h3>Server coverage</h3><p class=\"meta\" data-figure=\"coverage-off\">off: " +
           H(coverage.off) + "</p>";
  }
  std::string html = "<h3>Server coverage</h3><p class=\"meta\"><b data-figure=\"coverage\">" +
                     std::to_string(coverage.blocks) + "</b> blocks of the server ran: " +
                     std::to_string(coverage.blocks - coverage.in_node_modules) +
                     " in its own code, " + std::to_string(coverage.in_node_modules) +
                     " under node_modules, in " + std::to_string(coverage.scripts.size()) +
                     " scripts</p>";
  if (coverage.steered) {
    html += "<p class=\"meta\">Steered by it: <b data-figure=\"mutants\">" +
            std::to_string(coverage.mutants) + "</b> mutants sent, a corpus of <b " +
            "data-figure=\"corpus\">" + std::to_string(coverage.corpus.size()) + "</b> cases, " +
            std::to_string(coverage.unstable) + " blocks unstable (ran for a case, not when it " +
            "was sent again)</p>";
  }
  html += detail::GrowthPlot(coverage.growth, cases, "blocks run, by case sent");
  std::vector<const FuzzCoverage::Script*> scripts;
  for (const auto& script : coverage.scripts) scripts.push_back(&script);
  std::stable_sort(scripts.begin(), scripts.end(), [](const auto* a, const auto* b) {
    if (a->in_node_modules != b->in_node_modules) return !a->in_node_modules;
    return a->blocks > b->blocks;
  });
  // A page for people: the scripts that say most; the JSON report lists every one.
  constexpr std::size_t kScriptsShown = 20;
  html += "<table><tr><th>script</th><th>blocks</th></tr>";
  for (std::size_t i = 0; i < scripts.size() && i < kScriptsShown; ++i) {
    html += "<tr><td>" + H(scripts[i]->url) + "</td><td class=\"n\">" +
            std::to_string(scripts[i]->blocks) + "</td></tr>";
  }
  return html + "</table>";
}

std::string TargetHtml(const Report& report, const TargetSection& target, std::size_t index,
                       std::size_t& findings) {
  const FuzzFigures* fuzz =
      report.kind == ReportKind::kFuzz && report.fuzz ? &*report.fuzz : nullptr;
  const std::string scope = "t" + std::to_string(index);
  std::string html = "<section class=\"target\" id=\"target-" + std::to_string(index) + "\"><h2>" +
                     H(target.description) +
                     "</h2><p class=\"meta\">speaks: " + H(SpeaksText(report, target));
  if (target.server_info) html += " · announces: " + H(AnnouncedText(*target.server_info));
  html += "</p>";
  if (!target.error.empty())
    html += "<p class=\"fail\" data-figure=\"not-judged\">not judged: " + H(target.error) + "</p>";
  for (const auto& note : target.notes) html += "<p class=\"meta\">note: " + H(note) + "</p>";
  if (!fuzz) html += Tally(Count(target.items), scope + "-");

  detail::FindingAnchors anchors;
  const std::string cards = detail::FindingCards(target.items, findings, anchors);
  if (!cards.empty()) {
    html += "<h3>Findings</h3>" + cards;
  } else if (target.error.empty()) {
    html += "<p class=\"pass\">No FAIL and no WARN.</p>";
  }
  if (fuzz) {
    html += "<div class=\"charts\">" +
            CountTable(fuzz->cases_per_family, GroupBy(target.items, GeneratorKey),
                       "generator family") +
            CountTable(fuzz->cases_per_revision, GroupBy(target.items, RevisionKey), "revision") +
            "</div>";
    if (fuzz->coverage) html += CoverageHtml(*fuzz->coverage, fuzz->cases);
  }
  if (target.items.empty()) return html + "</section>";
  html += "<h3>Checks × revisions</h3>" + detail::Matrix(target, anchors, scope);
  if (!fuzz) {
    html += "<h3>Charts</h3><div class=\"charts\">" +
            detail::VerdictBars(Count(target.items), "per verdict") +
            detail::StackedBars(GroupBy(target.items, FamilyKey), "per family") +
            detail::StackedBars(GroupBy(target.items, detail::ColumnOf), "per revision") + "</div>";
  }
  return html + "</section>";
}

}  // namespace

void WriteHtml(const Report& report, std::ostream& out) {
  if (report.kind == ReportKind::kDiff) return WriteDiffHtml(report, out);
  if (report.kind == ReportKind::kSurvey) return WriteSurveyHtml(report, out);
  std::string title = "mcpfuzz " + std::string(ToString(report.kind)) + " report";
  if (report.targets.size() == 1) title += ": " + report.targets[0].description;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", report.duration_seconds);
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
      << "<title>" << H(title) << "</title><style>" << kStyle << "</style></head><body>\n"
      << "<h1>" << H(title) << "</h1>" << detail::HtmlStoppedBanner(report)
      << "<p class=\"meta\">mcpfuzz " << H(report.tool_version) << " · started "
      << H(report.started_at) << " · " << seconds << " s · " << FailingCount(report)
      << " failing</p>\n";
  if (report.fuzz) out << FuzzSummary(report);
  if (report.targets.size() > 1) out << Tally(Count(report), "all-");
  std::size_t findings = 0;
  for (std::size_t i = 0; i < report.targets.size(); ++i) {
    out << TargetHtml(report, report.targets[i], i, findings) << "\n";
  }
  out << "<script>" << kScript << "</script></body></html>\n";
}

}  // namespace mcpfuzz::reports
