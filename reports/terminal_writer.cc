// The terminal writer: what `mcpfuzz check`, `fuzz`, `replay` and a survey print, read from
// the report model like the five file formats. Server text is escaped (reports/terminal.h).

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "oracles/expectations.h"
#include "reports/survey.h"
#include "reports/terminal.h"
#include "reports/writers.h"

namespace mcpfuzz::reports {
namespace {

// What the target announced itself as, on a line of its own after `speaks:`.
void Announces(const TargetSection& target, std::ostream& out) {
  if (target.server_info) {
    out << "\nannounces: " << EscapeForTerminal(AnnouncedText(*target.server_info), 300);
  }
}

std::string Cell(const ReportItem* item) {
  if (item == nullptr) return "-";
  if (item->verdict.kind == VerdictKind::kNotApplicable) return "n/a";
  return std::string(ToString(item->verdict.kind));
}

// One row per check id, one column per revision checked, in run order.
void Matrix(const TargetSection& target, std::ostream& out) {
  std::vector<std::string> columns;
  std::vector<std::string> rows;
  std::map<std::pair<std::string, std::string>, const ReportItem*> cells;
  for (const auto& item : target.items) {
    if (std::find(columns.begin(), columns.end(), item.revision) == columns.end()) {
      columns.push_back(item.revision);
    }
    if (std::find(rows.begin(), rows.end(), item.id) == rows.end()) rows.push_back(item.id);
    auto& cell = cells[{item.id, item.revision}];
    // Several results of one id in one revision (both transports): the worst is shown.
    if (cell == nullptr || Severity(item.verdict.kind) > Severity(cell->verdict.kind)) {
      cell = &item;
    }
  }
  // Revisions are dates ("2025-11-25"): newest first is descending text.
  std::sort(columns.begin(), columns.end(), std::greater<>());
  std::size_t width = 6;
  for (const auto& id : rows) width = std::max(width, id.size() + 2);
  out << "  " << Pad("check", width);
  for (const auto& revision : columns) out << Pad(revision, 16);
  out << "\n";
  for (const auto& id : rows) {
    out << "  " << Pad(id, width);
    for (const auto& revision : columns) {
      auto found = cells.find({id, revision});
      out << Pad(Cell(found == cells.end() ? nullptr : found->second), 16);
    }
    out << "\n";
  }
}

// One line per finding of `verdict`: its strength and what it says.
void FindingLines(const Verdict& verdict, std::ostream& out) {
  for (const Finding& finding : verdict.findings) {
    out << "  - " << ToString(finding.strength) << ": " << EscapeForTerminal(finding.text, 160)
        << "\n";
  }
}

void Findings(const TargetSection& target, std::ostream& out) {
  bool heading = false;
  for (const auto& item : target.items) {
    const Verdict& verdict = item.verdict;
    if (verdict.kind != VerdictKind::kFail && verdict.kind != VerdictKind::kWarn) continue;
    if (!heading) out << "\nFindings\n";
    heading = true;
    out << "\n"
        << ToString(verdict.kind) << "  " << item.id << "  " << item.revision << "/"
        << item.transport << "  (" << ToString(verdict.strength) << ")\n";
    out << "  expected: " << EscapeForTerminal(ForPeople(verdict.expected.text), 160) << "\n";
    out << "  observed: " << DescribeObserved(verdict.observed);
    if (!verdict.observed.excerpt.empty()) {
      out << "  \"" << EscapeForTerminal(verdict.observed.excerpt, 100) << "\"";
    }
    out << "\n";
    FindingLines(verdict, out);
    out << "  spec: " << verdict.spec_reference << "\n";
    if (!item.reproducer.empty()) {
      out << "  reproduce: " << EscapeForTerminal(item.reproducer, 2000) << "\n";
    }
  }
}

void Baseline(const BaselineComparison& baseline, std::ostream& out) {
  out << "baseline: " << baseline.new_failures.size() << " new failure(s), "
      << baseline.no_longer_failing.size() << " listed but no longer failing, "
      << baseline.still_failing.size() << " known, " << baseline.not_run.size()
      << " not judged in this run\n";
  for (const auto& entry : baseline.new_failures) out << "  new: " << ToString(entry) << "\n";
  for (const auto& entry : baseline.no_longer_failing) {
    out << "  fixed (remove it from the baseline): " << ToString(entry) << "\n";
  }
  for (const auto& entry : baseline.not_run) out << "  not run: " << ToString(entry) << "\n";
}

// Fuzz and replay: the findings measured against `--baseline`, by signature.
void FindingsBaseline(const BaselineComparison& baseline, std::ostream& out) {
  out << "baseline: " << baseline.new_failures.size() << " new, " << baseline.still_failing.size()
      << " known, " << baseline.stale.size() << " stale (listed, not seen in this run)\n";
  for (const auto& entry : baseline.new_failures) {
    out << "  new: " << EscapeForTerminal(ToString(entry), 300) << "\n";
  }
  for (const auto& entry : baseline.stale) {
    out << "  stale: " << EscapeForTerminal(ToString(entry), 300) << "\n";
  }
}

// What of it fails the run, and why the rest does not: a WARN listed but passing must not
// read as a failure, nor a failure hide among WARNs.
void PolicyLine(const Report& report, std::ostream& out) {
  std::size_t known = 0;
  for (const auto& target : report.targets) {
    for (const auto& item : target.items) known += item.known ? 1 : 0;
  }
  out << FailingCount(report) << " fail the run (--fail-on " << ToString(report.fail_on) << ")";
  if (known > 0) out << "; " << known << " known from the baseline";
  out << "\n";
  if (report.baseline) FindingsBaseline(*report.baseline, out);
}

// Why a check could not be judged, in words: the JSON report keeps the enum names.
std::string_view ReasonWords(UnverifiedReason reason) {
  switch (reason) {
    case UnverifiedReason::kCredentialRequired:
      return "credentials required";
    case UnverifiedReason::kRateLimited:
      return "rate limited";
    case UnverifiedReason::kTransportError:
      return "the exchange did not complete";
    case UnverifiedReason::kEraNotSpoken:
      return "the revision is not spoken";
    case UnverifiedReason::kNone:
      break;
  }
  return "not judged";
}

// A note that starts with how an exchange ended ("alive_but_deaf: no reply within ..."), with
// that outcome in words; other notes as they are.
std::string OutcomeInWords(const std::string& note) {
  static constexpr std::pair<std::string_view, std::string_view> kWords[] = {
      {"timeout", "timed out"},
      {"connection_refused", "connection refused"},
      {"connection_reset", "connection reset"},
      {"exited", "the server exited"},
      {"alive_but_deaf", "the server stayed up but answered nothing"},
      {"dropped", "no reply"},
      {"too_large", "the reply was too large"},
      {"transport_error", "the exchange failed"},
  };
  for (const auto& [token, words] : kWords) {
    if (note.size() > token.size() && note.starts_with(token) && note[token.size()] == ':') {
      return std::string(words) + note.substr(token.size());
    }
  }
  return note;
}

// What the handshake control saw, as a sentence: the JSON report keeps the enum names.
std::string PreInitSentence(const PreInitClassification& pre_init) {
  switch (pre_init.rejects) {
    case RejectsPreInit::kNo:
      return "a request sent before initialize was served";
    case RejectsPreInit::kIndeterminate:
      return "whether a request sent before initialize is refused could not be told";
    case RejectsPreInit::kYes:
      break;
  }
  switch (pre_init.grounds) {
    case RefusalGrounds::kOrdering:
      return "a request sent before initialize was refused for coming before the handshake";
    case RefusalGrounds::kName:
      return "a request sent before initialize was refused for its method or params";
    case RefusalGrounds::kNotRefused:
    case RefusalGrounds::kUnclear:
      break;
  }
  return "a request sent before initialize was refused, on grounds the answer does not name";
}

// The eras, the matrix of checks × revisions, then every FAIL and WARN with expected vs
// observed, the spec reference and a reproducer, then the counts.
void CheckText(const Report& report, const TargetSection& target, std::ostream& out) {
  out << "target: " << EscapeForTerminal(target.description, 200)
      << "\nspeaks: " << SpeaksText(report, target);
  Announces(target, out);
  out << "\n\n";
  Matrix(target, out);
  Findings(target, out);

  // Why a check could not be judged is as much a result as a finding: without it, UNVERIFIED
  // reads like a pass nobody checked.
  bool heading = false;
  for (const auto& item : target.items) {
    const Verdict& verdict = item.verdict;
    if (verdict.kind != VerdictKind::kUnverified) continue;
    if (!heading) out << "\nUnverified\n";
    heading = true;
    out << "  " << item.id << "  " << item.revision << "/" << item.transport << "  ("
        << ReasonWords(verdict.unverified_reason) << ")";
    if (!verdict.notes.empty()) {
      out << ": " << EscapeForTerminal(OutcomeInWords(verdict.notes.front()), 200);
    }
    out << "\n";
  }
  for (const std::string& note : target.notes) {
    out << "\nnote: " << EscapeForTerminal(note, 300) << "\n";
  }

  if (!target.handshake_controls.empty()) out << "\nHandshake control\n";
  for (const auto& control : target.handshake_controls) {
    out << "  " << ToString(control.revision) << ": " << PreInitSentence(control.pre_init) << " ("
        << EscapeForTerminal(control.pre_init.reason, 120) << ")\n";
  }

  const VerdictCounts counts = Count(target.items);
  out << "\n"
      << counts.pass << " pass, " << counts.warn << " warn, " << counts.fail << " fail, "
      << counts.unverified << " unverified, " << counts.not_applicable << " not applicable\n";
  if (target.baseline) Baseline(*target.baseline, out);
}

// One line: how far the cases reached into the server, and when it last grew.
void CoverageText(const FuzzCoverage& coverage, std::ostream& out) {
  if (!coverage.off.empty()) {
    out << "coverage: off: " << EscapeForTerminal(coverage.off, 200) << "\n";
    return;
  }
  out << "coverage: " << coverage.blocks << " blocks of the server ran ("
      << coverage.blocks - coverage.in_node_modules << " in its own code, "
      << coverage.in_node_modules << " under node_modules) in " << coverage.scripts.size()
      << " scripts";
  if (!coverage.growth.empty()) out << "; last grew at case " << coverage.growth.back().first;
  if (coverage.missed > 0) {
    out << "; " << coverage.missed << " of " << coverage.takes
        << " takes missed (a server that had just ended)";
  }
  out << "\n";
  if (coverage.steered) {
    std::size_t found_code = 0;
    for (const auto& entry : coverage.corpus) found_code += entry.blocks > 0 ? 1 : 0;
    out << "steering: " << coverage.mutants << " mutants sent; a corpus of "
        << coverage.corpus.size() << " cases (" << found_code << " ran new code); "
        << coverage.unstable
        << " blocks unstable (ran for a case, not when it was sent again: set-up, timers)\n";
  }
}

// The seed, the eras, the counts and cases/s, then each finding: check, signature, stable or
// flaky, the case file, and the reproducer of its minimal case.
void FuzzText(const Report& report, std::ostream& out) {
  const TargetSection& target = report.targets.at(0);
  const FuzzFigures figures = report.fuzz.value_or(FuzzFigures{});
  out << "target: " << EscapeForTerminal(target.description, 200) << "\nseed: " << figures.seed
      << "\nspeaks: " << SpeaksText(report, target);
  Announces(target, out);
  const double seconds = static_cast<double>(figures.elapsed_ms) / 1000.0;
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.0f",
                seconds > 0 ? static_cast<double>(figures.cases) / seconds : 0.0);
  out << "\n"
      << figures.cases << " cases in " << figures.elapsed_ms << " ms (" << rate << " cases/s), "
      << target.items.size() << " finding(s), " << figures.sessions_opened
      << " session(s) opened\n";
  // Whole milliseconds, cut rather than rounded, as people read a stopwatch.
  auto ms = [](double value) { return std::to_string(static_cast<long long>(value)); };
  out << "time: start-up " << ms(figures.startup_ms) << " ms, sending " << ms(figures.sending_ms)
      << " ms, waiting for silence " << ms(figures.silence_ms) << " ms, re-sends "
      << ms(figures.resends_ms) << " ms, shrinking " << ms(figures.shrinking_ms) << " ms";
  if (figures.coverage) out << ", coverage " << ms(figures.coverage_ms) << " ms";
  out << "\ncpu: mcpfuzz " << ms(figures.own_cpu_ms) << " ms, the servers it started "
      << ms(figures.servers_cpu_ms) << " ms\n";
  // Over HTTP a restart is a session opened anew: the figure is the same, its name is not.
  if (figures.pipelined > 0) {
    out << "stdio: " << figures.pipelined << " of " << figures.cases
        << " cases pipelined; the server restarted " << figures.restarts << " time(s), "
        << figures.warm_restarts << " onto a spare started ahead\n";
  } else if (figures.restarts > 0) {
    out << "sessions: reopened " << figures.restarts << " time(s) (over stdio, a server restarted; "
        << figures.warm_restarts << " onto a spare started ahead)\n";
  }
  if (figures.big_inputs_held_back > 0) {
    out << "big inputs: " << figures.big_inputs_held_back
        << " held back (the first of each size class is sent, then one in "
        << figures.big_input_every << "; --big-input-every)\n";
  }
  if (figures.sequences_held_back > 0) {
    out << "sequences: " << figures.sequences_held_back
        << " held back (over stdio each starts a server: the first ending on each check is "
           "sent, then one in "
        << figures.sequence_every << "; --sequence-every)\n";
  }
  if (figures.coverage) CoverageText(*figures.coverage, out);
  for (const auto& note : target.notes) out << "note: " << EscapeForTerminal(note, 200) << "\n";
  for (const auto& item : target.items) {
    const Verdict& verdict = item.verdict;
    const bool stable = !Fact(item, "stable").empty();
    out << "\n"
        << ToString(verdict.kind) << (item.known ? " (known)" : "") << "  " << item.id << "  "
        << item.revision << "  family " << Fact(item, "family") << "  "
        << (stable ? "stable" : "flaky") << " (" << Fact(item, stable ? "stable" : "flaky") << ")";
    if (const std::string_view repeats = Fact(item, "repeats");
        !repeats.empty() && repeats != "0") {
      out << "  +" << repeats << " repeats";
    }
    out << "\n  expected: " << EscapeForTerminal(ForPeople(verdict.expected.text), 160)
        << "\n  observed: " << ObservedText(verdict.observed) << "\n";
    // What broke, where the channel and status were as expected (a log level, a leak).
    FindingLines(verdict, out);
    out << "  shrunk in " << Fact(item, "shrunk") << "\n";
    if (!item.case_file.empty()) {
      out << "  case: " << EscapeForTerminal(item.case_file, 300) << "\n";
    } else if (const std::string_view why = Fact(item, "case not written"); !why.empty()) {
      out << "  case not written: " << EscapeForTerminal(why, 200) << "\n";
    }
    out << "  reproduce: " << EscapeForTerminal(item.reproducer, 2000) << "\n";
  }
  out << "\n" << target.items.size() << " finding(s), ";
  PolicyLine(report, out);
}

// The target and the revisions replayed in, then one line per case file: still fails, still
// warns, fixed or error, where it was sent again, with the verdict or the error.
void ReplayText(const Report& report, std::ostream& out) {
  const TargetSection& target = report.targets.at(0);
  out << "target: " << EscapeForTerminal(target.description, 200)
      << "\nspeaks: " << SpeaksText(report, target) << "\n";
  for (const auto& item : target.items) {
    const std::string_view state = Fact(item, "replay");
    const bool error = state == "error";
    out << Pad(std::string(state) + (item.known ? " (known)" : ""), 20) << item.id << "  ";
    if (!item.revision.empty()) out << item.revision << "/" << item.transport << "  ";
    out << EscapeForTerminal(item.case_file, 300);
    if (Fact(item, "signature") == "different") {
      out << "  (with another signature)";
    }
    // A case that could not be replayed has no verdict; its last note says why.
    if (!error) {
      out << "\n    " << EscapeForTerminal(ForPeople(Summarize(item.verdict)), 300);
    } else if (!item.verdict.notes.empty()) {
      out << "\n    " << EscapeForTerminal(item.verdict.notes.back(), 300);
    }
    out << "\n";
  }
  out << target.items.size() << " case(s), ";
  PolicyLine(report, out);
}

// The census first, then one line per server named by what it announced, then one line per
// check some server FAILs or WARNs on with those servers, then the unknown-tool table.
void SurveyText(const Report& report, std::ostream& out) {
  const FingerprintTable& fingerprints = KnownSdkFingerprints();
  const SurveyTables tables = Tabulate(report, fingerprints);
  out << CensusText(tables.census) << "\n\n";
  for (const ServerRow& row : tables.servers) {
    const TargetSection& target = report.targets[row.target];
    out << Pad(EscapeForTerminal(row.name, 40), 42) << Pad(target.transport, 7);
    if (!target.error.empty()) {
      out << "not judged: " << EscapeForTerminal(target.error, 300) << "\n";
    } else {
      out << row.fail_checks << " fail, " << row.warn_checks << " warn";
      if (const std::string inherited = InheritedText(row, fingerprints); !inherited.empty()) {
        out << "; likely inherited from " << inherited;
      }
      out << "\n";
    }
    if (row.announced) out << "  " << EscapeForTerminal(target.description, 200) << "\n";
  }
  if (!tables.deviating.empty()) out << "\nchecks failed or warned on, with their servers:\n";
  for (const DeviatingCheck& check : tables.deviating) {
    out << "  " << Pad(check.id, 40);
    auto names = [&](const std::vector<std::size_t>& targets, const char* what) {
      if (targets.empty()) return;
      out << " " << targets.size() << " " << what << ":";
      for (std::size_t i = 0; i < targets.size(); ++i) {
        out << (i == 0 ? " " : ", ") << EscapeForTerminal(tables.servers[targets[i]].name, 40);
      }
      out << ";";
    };
    names(check.failing, "fail");
    names(check.warning, "warn");
    out << "\n";
  }
  const UnknownToolTable& table = tables.unknown_tool;
  out << "\ntools.unknown-name: " << table.verified << " VERIFIED, " << table.observed_risk
      << " OBSERVED_RISK, " << table.unverified << " UNVERIFIED, " << table.not_checked
      << " not checked\n  observed risks: " << table.is_error_result << " isError result, "
      << table.result_without_is_error << " result without isError, " << table.not_json_rpc
      << " not JSON-RPC, " << table.other_risk << " other\n"
      << "\n"
      << CensusText(tables.census) << "\n";
}

}  // namespace

void WriteTerminal(const Report& report, std::ostream& out) {
  // First, so nobody reads the summary below as the whole run's.
  if (report.StoppedEarly()) out << EscapeForTerminal(StoppedEarlyText(report), 200) << "\n\n";
  switch (report.kind) {
    case ReportKind::kCheck:
      CheckText(report, report.targets.at(0), out);
      return;
    case ReportKind::kFuzz:
      FuzzText(report, out);
      return;
    case ReportKind::kReplay:
      ReplayText(report, out);
      return;
    case ReportKind::kSurvey:
      SurveyText(report, out);
      return;
    case ReportKind::kDiff:
      WriteDiffTerminal(report, out);
      return;
  }
}

}  // namespace mcpfuzz::reports
