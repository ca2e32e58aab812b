#include "cli/progress.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace mcpfuzz::cli {
namespace {

// "42 s", "3 min 5 s", "2 h 10 min": as far as a person reading a log cares.
std::string Span(std::chrono::seconds span) {
  const long long total = span.count();
  std::ostringstream text;
  if (total >= 3600) {
    text << total / 3600 << " h " << total % 3600 / 60 << " min";
  } else if (total >= 60) {
    text << total / 60 << " min " << total % 60 << " s";
  } else {
    text << total << " s";
  }
  return text.str();
}

}  // namespace

std::optional<std::chrono::seconds> EstimatedTimeLeft(const CampaignProgress& now) {
  std::optional<std::chrono::seconds> left;
  if (now.duration) {
    left = std::chrono::ceil<std::chrono::seconds>(
        std::max(*now.duration - now.elapsed, std::chrono::milliseconds(0)));
  }
  if (now.planned_cases && now.cases_per_second > 0) {
    const std::size_t to_send = *now.planned_cases - std::min(now.cases, *now.planned_cases);
    const auto by_rate = std::chrono::seconds(
        static_cast<long long>(std::ceil(static_cast<double>(to_send) / now.cases_per_second)));
    left = left ? std::min(*left, by_rate) : by_rate;
  }
  return left;
}

std::string DescribeProgress(const CampaignProgress& now) {
  std::ostringstream text;
  text << now.cases;
  if (now.planned_cases) text << "/" << *now.planned_cases;
  text << " cases, " << std::llround(now.cases_per_second) << " cases/s, " << now.findings
       << (now.findings == 1 ? " finding, " : " findings, ")
       << Span(std::chrono::duration_cast<std::chrono::seconds>(now.elapsed)) << " elapsed";
  if (const auto left = EstimatedTimeLeft(now)) text << ", about " << Span(*left) << " left";
  return text.str();
}

ProgressLine::ProgressLine(ProgressMode mode, bool terminal, std::ostream& err)
    : style_(mode == ProgressMode::kNever              ? Style::kNone
             : mode == ProgressMode::kAuto && terminal ? Style::kRedrawn
                                                       : Style::kLogLines),
      err_(err),
      last_line_(Clock::now()) {}

void ProgressLine::Show(const std::string& text, Clock::time_point now) {
  if (style_ == Style::kRedrawn) {
    err_ << "\r\033[K" << text << std::flush;
  } else if (style_ == Style::kLogLines && now - last_line_ >= kLogInterval) {
    last_line_ = now;
    err_ << "mcpfuzz: " << text << "\n" << std::flush;
  }
}

void ProgressLine::Finish() {
  if (style_ == Style::kRedrawn) err_ << "\r\033[K" << std::flush;
}

}  // namespace mcpfuzz::cli
