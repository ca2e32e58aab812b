#include "reports/report.h"

#include <algorithm>
#include <string>
#include <vector>

namespace mcpfuzz::reports {

std::string_view ToString(ReportKind kind) {
  switch (kind) {
    case ReportKind::kCheck:
      return "check";
    case ReportKind::kFuzz:
      return "fuzz";
    case ReportKind::kReplay:
      return "replay";
    case ReportKind::kSurvey:
      return "survey";
    case ReportKind::kDiff:
      return "diff";
  }
  return "check";
}

std::string_view ToString(FailOn fail_on) {
  switch (fail_on) {
    case FailOn::kFail:
      return "fail";
    case FailOn::kWarn:
      return "warn";
    case FailOn::kNever:
      return "never";
  }
  return "fail";
}

std::optional<FailOn> ParseFailOn(std::string_view text) {
  for (FailOn fail_on : {FailOn::kFail, FailOn::kWarn, FailOn::kNever}) {
    if (text == ToString(fail_on)) return fail_on;
  }
  return std::nullopt;
}

bool FailsRun(VerdictKind kind, FailOn fail_on) {
  switch (fail_on) {
    case FailOn::kFail:
      return kind == VerdictKind::kFail;
    case FailOn::kWarn:
      return kind == VerdictKind::kFail || kind == VerdictKind::kWarn;
    case FailOn::kNever:
      return false;
  }
  return false;
}

void VerdictCounts::Add(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kPass:
      ++pass;
      break;
    case VerdictKind::kWarn:
      ++warn;
      break;
    case VerdictKind::kFail:
      ++fail;
      break;
    case VerdictKind::kUnverified:
      ++unverified;
      break;
    case VerdictKind::kNotApplicable:
      ++not_applicable;
      break;
  }
}

int VerdictCounts::Of(VerdictKind kind) const {
  switch (kind) {
    case VerdictKind::kPass:
      return pass;
    case VerdictKind::kWarn:
      return warn;
    case VerdictKind::kFail:
      return fail;
    case VerdictKind::kUnverified:
      return unverified;
    case VerdictKind::kNotApplicable:
      return not_applicable;
  }
  return 0;
}

VerdictCounts Count(const std::vector<ReportItem>& items) {
  VerdictCounts counts;
  for (const auto& item : items) counts.Add(item.verdict.kind);
  return counts;
}

VerdictCounts Count(const Report& report) {
  VerdictCounts counts;
  for (const auto& target : report.targets) {
    for (const auto& item : target.items) counts.Add(item.verdict.kind);
  }
  return counts;
}

std::string FamilyOf(std::string_view check_id) {
  return std::string(check_id.substr(0, check_id.find('.')));
}

std::string ObservedText(const ObservedAnswer& observed) {
  std::string text = DescribeObserved(observed);
  if (observed.outcome != Outcome::kOk) {
    text += " ";
    text += ToString(observed.outcome);
  }
  return text;
}

std::string StoppedEarlyText(const Report& report) {
  if (!report.StoppedEarly()) return {};
  return "Stopped early by " + report.stopped_by + ": this report covers only what ran before it";
}

std::string_view Fact(const ReportItem& item, std::string_view name) {
  for (const auto& [fact, value] : item.facts) {
    if (fact == name) return value;
  }
  return {};
}

bool IsFinding(ReportKind kind, const ReportItem& item) {
  if (kind == ReportKind::kFuzz) return true;
  if (kind != ReportKind::kReplay) return false;
  return Fact(item, "replay").starts_with("still");
}

VerdictKind FindingSeverity(const ReportItem& item, bool finding) {
  if (!finding || item.verdict.kind == VerdictKind::kWarn) return item.verdict.kind;
  return VerdictKind::kFail;
}

void OrderByStrength(ReportKind kind, TargetSection& section) {
  // What is no finding (a replayed case fixed, or not sent again) comes after every finding.
  auto strength = [kind](const ReportItem& item) {
    return IsFinding(kind, item) ? Severity(FindingSeverity(item, true)) : 0;
  };
  std::stable_sort(section.items.begin(), section.items.end(),
                   [&strength](const ReportItem& left, const ReportItem& right) {
                     const int a = strength(left);
                     const int b = strength(right);
                     return a != b ? a > b : left.id < right.id;
                   });
}

bool WorthShowing(const ReportItem& item) {
  return item.failing || item.verdict.kind == VerdictKind::kWarn ||
         item.verdict.kind == VerdictKind::kFail;
}

bool RowFailsRun(const DiffRow& row, FailOn fail_on) {
  if (fail_on == FailOn::kNever) return false;
  if (row.WrongSide()) return true;
  return fail_on == FailOn::kWarn && row.SomeSideWarns();
}

std::size_t FailingCount(const Report& report) {
  std::size_t count = 0;
  if (report.diff) {
    for (const DiffRow& row : report.diff->rows)
      count += RowFailsRun(row, report.fail_on) ? 1U : 0U;
  }
  for (const auto& target : report.targets) {
    for (const auto& item : target.items) count += item.failing ? 1 : 0;
  }
  return count;
}

std::string ReplayedRevisions(const TargetSection& target) {
  std::vector<std::string> seen;
  std::string text;
  for (const ReportItem& item : target.items) {
    if (item.revision.empty() || std::find(seen.begin(), seen.end(), item.revision) != seen.end()) {
      continue;
    }
    seen.push_back(item.revision);
    text += (text.empty() ? "" : ", ") + item.revision;
  }
  return text;
}

std::string SpeaksText(const Report& report, const TargetSection& target) {
  const FuzzFigures* fuzz =
      report.kind == ReportKind::kFuzz && report.fuzz ? &*report.fuzz : nullptr;
  std::string text;
  for (Revision revision : target.eras.speaks) {
    text += (text.empty() ? "" : ", ") + std::string(ToString(revision));
  }
  // A revision whose question a time limit ended is neither spoken nor not: it is said.
  std::string undetermined;
  for (Revision revision : target.eras.undetermined) {
    undetermined += (undetermined.empty() ? "" : ", ") + std::string(ToString(revision));
  }
  if (!undetermined.empty()) {
    undetermined = "not determined (timed out): " + undetermined;
    return text.empty() ? undetermined : text + "; " + undetermined;
  }
  if (!text.empty()) return text;
  // A replay sends each case file in the revision it names, without asking the target first.
  if (report.kind == ReportKind::kReplay) {
    const std::string replayed = ReplayedRevisions(target);
    return replayed.empty() ? "not probed; no case file was read"
                            : "not probed; replayed in " + replayed;
  }
  if (fuzz == nullptr || fuzz->revisions.empty()) return "no revision mcpfuzz knows";
  std::vector<std::string> fuzzed;
  for (const std::string& revision : fuzz->revisions) {
    if (std::find(fuzzed.begin(), fuzzed.end(), revision) == fuzzed.end()) {
      fuzzed.push_back(revision);
    }
  }
  text = "not probed; fuzzed in ";
  for (std::size_t i = 0; i < fuzzed.size(); ++i) text += (i ? ", " : "") + fuzzed[i];
  return text;
}

std::string AnnouncedText(const ServerInfo& info) {
  std::string text = info.name + " " + info.version;
  if (!info.title.empty()) text += " (" + info.title + ")";
  return text;
}

}  // namespace mcpfuzz::reports
