// The Markdown summary, short enough for a CI step summary: counts per target, then each
// finding with expected and observed, the spec reference and a reproducer. Server text is
// escaped for inline Markdown (GitHub renders raw HTML, so < and > become entities) and
// reproducers sit in fences longer than any backtick run inside them.

#include <cstdio>

#include "reports/detail/stopped_early.h"
#include "reports/escape.h"
#include "reports/sdk_fingerprints.h"
#include "reports/survey.h"
#include "reports/writers.h"

namespace mcpfuzz::reports {
namespace {

// A step summary is read on one screen: server text is cut at 1000 bytes here (the JSON and
// HTML reports keep all of it).
std::string Text(std::string_view text) { return EscapeMarkdownInline(Excerpt(text, 1000)); }

void CountsTable(const Report& report, std::ostream& out) {
  out << "| target | speaks |";
  for (VerdictKind kind : kVerdictOrder) out << " " << ToString(kind) << " |";
  out << "\n|---|---|";
  for (std::size_t i = 0; i < std::size(kVerdictOrder); ++i) out << "---:|";
  out << "\n";
  for (const auto& target : report.targets) {
    const EraReport& eras = target.eras;
    const bool probed = !eras.speaks.empty() || !eras.undetermined.empty();
    std::string speaks =
        probed || report.kind == ReportKind::kReplay ? SpeaksText(report, target) : "";
    if (!target.error.empty()) speaks = "not judged: " + target.error;
    out << "| " << Text(target.description) << " | " << Text(speaks) << " |";
    const VerdictCounts counts = Count(target.items);
    for (VerdictKind kind : kVerdictOrder) out << " " << counts.Of(kind) << " |";
    out << "\n";
  }
}

// A survey: the census, one row per server, one per check some server FAILs or WARNs on, and
// the unknown-tool table. No finding one by one: dozens of servers would overflow a step
// summary; the JSON and HTML reports have them.
// `run` is the line that says which mcpfuzz ran when; it follows the census.
void SurveyMarkdown(const Report& report, const std::string& run, std::ostream& out) {
  const FingerprintTable& fingerprints = KnownSdkFingerprints();
  const SurveyTables tables = Tabulate(report, fingerprints);
  out << "**" << CensusText(tables.census) << "**\n\n"
      << run << "\n\n"
      << "| server | transport | speaks | FAIL | WARN | reached | likely inherited |\n"
      << "|---|---|---|---:|---:|---|---|\n";
  for (const ServerRow& row : tables.servers) {
    const TargetSection& target = report.targets[row.target];
    const std::string speaks = target.eras.speaks.empty() && target.eras.undetermined.empty()
                                   ? ""
                                   : SpeaksText(report, target);
    std::string reached = row.reached ? "yes" : "no";
    if (!target.error.empty()) reached += ", not judged: " + target.error;
    out << "| " << Text(row.name) << " | " << Text(target.transport) << " | " << Text(speaks)
        << " | " << row.fail_checks << " | " << row.warn_checks << " | " << Text(reached) << " | "
        << Text(InheritedText(row, fingerprints)) << " |\n";
  }
  if (!tables.deviating.empty()) {
    out << "\n### Checks failed or warned on\n\n| check | FAIL | WARN |\n|---|---|---|\n";
    auto names = [&](const std::vector<std::size_t>& targets) {
      std::string text;
      for (std::size_t t : targets) text += (text.empty() ? "" : ", ") + tables.servers[t].name;
      return targets.empty() ? std::string("—")
                             : std::to_string(targets.size()) + ": " + Text(text);
    };
    for (const DeviatingCheck& check : tables.deviating) {
      out << "| " << Text(check.id) << " | " << names(check.failing) << " | "
          << names(check.warning) << " |\n";
    }
  }
  const UnknownToolTable& unknown = tables.unknown_tool;
  out << "\n### Unknown tool (tools.unknown-name)\n\n| state | servers |\n|---|---:|\n"
      << "| VERIFIED | " << unknown.verified << " |\n| OBSERVED\\_RISK | " << unknown.observed_risk
      << " |\n| UNVERIFIED | " << unknown.unverified << " |\n";
  if (unknown.not_checked > 0) out << "| not checked | " << unknown.not_checked << " |\n";
  out << "\nOf the " << unknown.observed_risk << " observed risks:\n\n"
      << "| shape | servers |\n|---|---:|\n"
      << "| isError result | " << unknown.is_error_result << " |\n"
      << "| result without isError | " << unknown.result_without_is_error << " |\n"
      << "| not JSON-RPC | " << unknown.not_json_rpc << " |\n";
  if (unknown.other_risk > 0) out << "| other | " << unknown.other_risk << " |\n";
  out << "\n*Likely inherited*: the server's FAILs and WARNs on those checks match, by check, "
         "verdict, error code and words, what an SDK server mcpfuzz measured answers; serverInfo "
         "is not consulted. A match is likely, not proven.\n";
  for (const auto& target : report.targets) {
    for (const auto& note : target.notes) out << "\n> note: " << Text(note) << "\n";
  }
  out << "\nEvery finding, with its exchanges and reproducer, is in the JSON report.\n";
}

void FindingMarkdown(const TargetSection& target, const ReportItem& item, bool many_targets,
                     std::ostream& out) {
  const Verdict& verdict = item.verdict;
  out << "\n#### " << ToString(verdict.kind) << " " << Text(item.id);
  if (!item.revision.empty()) out << " — " << item.revision << "/" << item.transport;
  out << " (" << ToString(verdict.strength) << ")\n\n";
  if (many_targets) out << "- target: " << Text(target.description) << "\n";
  out << "- expected: " << Text(verdict.expected.text) << "\n"
      << "- observed: " << Text(ObservedText(verdict.observed));
  if (!verdict.observed.excerpt.empty()) out << " — “" << Text(verdict.observed.excerpt) << "”";
  out << "\n";
  for (const Finding& finding : verdict.findings) {
    out << "- " << ToString(finding.strength) << ": " << Text(finding.text) << "\n";
  }
  for (const auto& note : verdict.notes) out << "- note: " << Text(note) << "\n";
  for (const auto& [name, value] : item.facts)
    out << "- " << Text(name) << ": " << Text(value) << "\n";
  if (!item.case_file.empty()) out << "- case file: " << Text(item.case_file) << "\n";
  if (!verdict.spec_reference.empty()) out << "- spec: " << Text(verdict.spec_reference) << "\n";
  if (!item.reproducer.empty()) {
    out << "\n<details><summary>reproduce</summary>\n\n"
        << MarkdownCodeBlock(item.reproducer, "sh") << "\n</details>\n";
  }
}

}  // namespace

void WriteMarkdown(const Report& report, std::ostream& out) {
  if (report.kind == ReportKind::kDiff) return WriteDiffMarkdown(report, out);
  const VerdictCounts counts = Count(report);
  out << "## mcpfuzz " << ToString(report.kind);
  if (report.targets.size() == 1) out << ": " << Text(report.targets[0].description);
  out << "\n\n" << detail::MarkdownStoppedBanner(report);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", report.duration_seconds);
  // A survey's sum of (check × revision) verdicts over servers means nothing: its census does.
  if (report.kind == ReportKind::kSurvey) {
    return SurveyMarkdown(report,
                          "mcpfuzz " + Text(report.tool_version) + ", started " +
                              Text(report.started_at) + ", " + seconds + " s",
                          out);
  }
  for (VerdictKind kind : kVerdictOrder) {
    out << (kind == kVerdictOrder[0] ? "**" : " · ") << counts.Of(kind) << " " << ToString(kind);
  }
  out << "** — " << FailingCount(report) << " failing; mcpfuzz " << Text(report.tool_version)
      << ", started " << Text(report.started_at) << ", " << seconds << " s\n\n";
  if (report.targets.size() == 1 && report.targets[0].server_info) {
    out << "Announces: " << Text(AnnouncedText(*report.targets[0].server_info)) << "\n\n";
  }
  if (report.fuzz) {
    out << "Seed " << report.fuzz->seed << ", " << report.fuzz->cases << " cases, "
        << report.targets[0].items.size() << " finding(s).\n\n";
    if (const auto& coverage = report.fuzz->coverage; coverage && coverage->off.empty()) {
      out << "Server coverage: " << coverage->blocks << " blocks ran ("
          << coverage->blocks - coverage->in_node_modules << " in its own code, "
          << coverage->in_node_modules << " under node_modules).";
      if (coverage->steered) {
        out << " Steered by it: " << coverage->mutants << " mutants sent, a corpus of "
            << coverage->corpus.size() << " cases, " << coverage->unstable << " blocks unstable.";
      }
      out << "\n\n";
    } else if (coverage) {
      out << "Server coverage off: " << Text(coverage->off) << "\n\n";
    }
  }
  CountsTable(report, out);
  for (const auto& target : report.targets) {
    for (const auto& note : target.notes) out << "\n> note: " << Text(note) << "\n";
  }
  bool heading = false;
  for (const auto& target : report.targets) {
    for (const auto& item : target.items) {
      if (!WorthShowing(item)) continue;
      if (!heading) out << "\n### Findings\n";
      heading = true;
      FindingMarkdown(target, item, report.targets.size() > 1, out);
    }
  }
  if (!heading) out << "\nNo findings.\n";
}

}  // namespace mcpfuzz::reports
