// JUnit XML in the shape GitHub (test-reporter actions), GitLab (artifacts:reports:junit) and
// Jenkins (junit step) read: <testsuites> with <testsuite> children holding tests, failures,
// errors, skipped and time counts, and <testcase name classname time> elements with a
// <failure message type> or <skipped message> child. A <failure> is exactly what fails the
// run (ReportItem::failing, by --fail-on): a WARN passes under --fail-on fail, as a known or
// flaky finding does, and <system-out> says why it does not fail.

#include <cstdio>

#include "reports/detail/stopped_early.h"
#include "reports/escape.h"
#include "reports/writers.h"

namespace mcpfuzz::reports {
namespace {

std::string Seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}

std::string Attr(std::string_view name, std::string_view value) {
  std::string out = " ";
  out += name;
  out += "=\"";
  out += EscapeMarkup(value);
  out += "\"";
  return out;
}

struct SuiteCounts {
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  double time = 0;
};

SuiteCounts Tally(const TargetSection& target) {
  SuiteCounts counts;
  counts.tests = target.items.size();
  for (const auto& item : target.items) {
    counts.time += item.seconds;
    if (item.failing) {
      ++counts.failures;
    } else if (item.verdict.kind == VerdictKind::kUnverified ||
               item.verdict.kind == VerdictKind::kNotApplicable) {
      ++counts.skipped;
    }
  }
  // A target that could not be run at all is one test in error.
  if (!target.error.empty()) {
    ++counts.tests;
    ++counts.errors;
  }
  return counts;
}

std::string CaseName(const ReportItem& item) {
  std::string name = item.id;
  if (!item.revision.empty()) name += " [" + item.revision + "/" + item.transport + "]";
  if (!item.case_file.empty()) name += " " + item.case_file;
  return name;
}

std::string Details(const ReportItem& item) {
  const Verdict& verdict = item.verdict;
  std::string text =
      "expected: " + verdict.expected.text + "\nobserved: " + ObservedText(verdict.observed);
  if (!verdict.observed.excerpt.empty()) text += " \"" + verdict.observed.excerpt + "\"";
  for (const Finding& finding : verdict.findings) {
    text += "\n- ";
    text += ToString(finding.strength);
    text += ": " + finding.text;
  }
  for (const auto& note : verdict.notes) text += "\nnote: " + note;
  for (const auto& [name, value] : item.facts) text += "\n" + name + ": " + value;
  if (!verdict.spec_reference.empty()) text += "\nspec: " + verdict.spec_reference;
  if (!item.reproducer.empty()) text += "\nreproduce: " + item.reproducer;
  return text;
}

// Why a FAIL or WARN listed as a passing test case does not fail the run.
std::string WhyPassing(const ReportItem& item, FailOn fail_on) {
  if (item.known) return "known: listed in the baseline, so it does not fail the run";
  if (FailsRun(item.verdict.kind, fail_on)) {
    return "flaky: not seen again on a re-send, so it does not fail the run";
  }
  return std::string(ToString(item.verdict.kind)) + " does not fail the run under --fail-on " +
         std::string(ToString(fail_on));
}

void WriteCase(const ReportItem& item, FailOn fail_on, std::ostream& out) {
  const Verdict& verdict = item.verdict;
  out << "    <testcase" << Attr("name", CaseName(item))
      << Attr("classname", "mcpfuzz." + FamilyOf(item.id)) << Attr("time", Seconds(item.seconds));
  const std::string summary = std::string(ToString(verdict.kind)) + ": expected " +
                              verdict.expected.text + ", observed " +
                              ObservedText(verdict.observed);
  if (item.failing) {
    out << ">\n      <failure" << Attr("message", summary) << Attr("type", ToString(verdict.kind))
        << ">" << EscapeMarkup(Details(item)) << "</failure>\n    </testcase>\n";
  } else if (verdict.kind == VerdictKind::kUnverified ||
             verdict.kind == VerdictKind::kNotApplicable) {
    std::string reason(ToString(verdict.kind));
    if (verdict.unverified_reason != UnverifiedReason::kNone) {
      reason += ": ";
      reason += ToString(verdict.unverified_reason);
    }
    for (const auto& note : verdict.notes) reason += "; " + note;
    out << ">\n      <skipped" << Attr("message", reason) << "/>\n    </testcase>\n";
  } else if (verdict.kind == VerdictKind::kWarn || verdict.kind == VerdictKind::kFail) {
    out << ">\n      <system-out>"
        << EscapeMarkup(summary + "\n" + WhyPassing(item, fail_on) + "\n" + Details(item))
        << "</system-out>\n    </testcase>\n";
  } else {
    out << "/>\n";
  }
}

}  // namespace

void WriteJunit(const Report& report, std::ostream& out) {
  if (report.kind == ReportKind::kDiff) return WriteDiffJunit(report, out);
  SuiteCounts total;
  for (const auto& target : report.targets) {
    SuiteCounts counts = Tally(target);
    total.tests += counts.tests;
    total.failures += counts.failures;
    total.errors += counts.errors;
    total.skipped += counts.skipped;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites" << Attr("name", "mcpfuzz " + std::string(ToString(report.kind)))
      << Attr("tests", std::to_string(total.tests))
      << Attr("failures", std::to_string(total.failures))
      << Attr("errors", std::to_string(total.errors))
      << Attr("skipped", std::to_string(total.skipped))
      << Attr("time", Seconds(report.duration_seconds)) << Attr("timestamp", report.started_at)
      << ">\n";
  for (const auto& target : report.targets) {
    const SuiteCounts counts = Tally(target);
    out << "  <testsuite" << Attr("name", target.description)
        << Attr("tests", std::to_string(counts.tests))
        << Attr("failures", std::to_string(counts.failures))
        << Attr("errors", std::to_string(counts.errors))
        << Attr("skipped", std::to_string(counts.skipped)) << Attr("time", Seconds(counts.time))
        << Attr("timestamp", report.started_at) << ">\n";
    out << "    <properties>\n"
        << "      <property" << Attr("name", "mcpfuzz.version")
        << Attr("value", report.tool_version) << "/>\n      <property" << Attr("name", "transport")
        << Attr("value", target.transport) << "/>\n"
        << detail::JunitStoppedEarlyProperties(report);
    for (Revision revision : target.eras.speaks) {
      out << "      <property" << Attr("name", "speaks") << Attr("value", ToString(revision))
          << "/>\n";
    }
    for (Revision revision : target.eras.undetermined) {
      out << "      <property" << Attr("name", "not_determined")
          << Attr("value", ToString(revision)) << "/>\n";
    }
    if (target.server_info) {
      out << "      <property" << Attr("name", "server_info")
          << Attr("value", AnnouncedText(*target.server_info)) << "/>\n";
    }
    out << "    </properties>\n";
    for (const auto& item : target.items) WriteCase(item, report.fail_on, out);
    if (!target.error.empty()) {
      out << "    <testcase" << Attr("name", "judge target") << Attr("classname", "mcpfuzz")
          << Attr("time", "0") << ">\n      <error" << Attr("message", target.error)
          << Attr("type", "not-judged") << "/>\n    </testcase>\n";
    }
    if (!target.notes.empty()) {
      std::string notes;
      for (const auto& note : target.notes) notes += note + "\n";
      out << "    <system-out>" << EscapeMarkup(notes) << "</system-out>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace mcpfuzz::reports
