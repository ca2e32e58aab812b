#include "oracles/verdict.h"

#include "model/text.h"

namespace mcpfuzz {

std::string_view ToString(Strength strength) {
  switch (strength) {
    case Strength::kMust:
      return "MUST";
    case Strength::kShould:
      return "SHOULD";
    case Strength::kMay:
      return "MAY";
  }
  return "unknown";
}

int Severity(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kFail:
      return 4;
    case VerdictKind::kWarn:
      return 3;
    case VerdictKind::kUnverified:
      return 2;
    case VerdictKind::kPass:
      return 1;
    case VerdictKind::kNotApplicable:
      return 0;
  }
  return 0;
}

std::string_view ToString(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kPass:
      return "PASS";
    case VerdictKind::kWarn:
      return "WARN";
    case VerdictKind::kFail:
      return "FAIL";
    case VerdictKind::kUnverified:
      return "UNVERIFIED";
    case VerdictKind::kNotApplicable:
      return "NOT_APPLICABLE";
  }
  return "unknown";
}

std::string_view ToString(UnverifiedReason reason) {
  switch (reason) {
    case UnverifiedReason::kNone:
      return "none";
    case UnverifiedReason::kCredentialRequired:
      return "credential_required";
    case UnverifiedReason::kRateLimited:
      return "rate_limited";
    case UnverifiedReason::kTransportError:
      return "transport_error";
    case UnverifiedReason::kEraNotSpoken:
      return "era_not_spoken";
  }
  return "unknown";
}

std::string_view ToString(Aspect aspect) {
  switch (aspect) {
    case Aspect::kChannel:
      return "channel";
    case Aspect::kCode:
      return "code";
    case Aspect::kHttpStatus:
      return "http_status";
    case Aspect::kData:
      return "data";
    case Aspect::kShape:
      return "shape";
    case Aspect::kEnvelope:
      return "envelope";
    case Aspect::kLeak:
      return "leak";
  }
  return "unknown";
}

VerdictKind EffectOf(Strength strength) {
  switch (strength) {
    case Strength::kMust:
      return VerdictKind::kFail;
    case Strength::kShould:
      return VerdictKind::kWarn;
    case Strength::kMay:
      return VerdictKind::kPass;
  }
  return VerdictKind::kPass;
}

std::string ToString(StatusRange range) {
  if (range.low == range.high) return std::to_string(range.low);
  if (range.low % 100 == 0 && range.high == range.low + 99) {
    return std::to_string(range.low / 100) + "xx";
  }
  return std::to_string(range.low) + "-" + std::to_string(range.high);
}

std::string DescribeObserved(const ObservedAnswer& observed) {
  return DescribeObserved(observed.channel, observed.code, observed.http_status);
}

std::string Summarize(const Verdict& verdict) {
  std::string line = std::string(ToString(verdict.kind)) + " " + verdict.check_id;
  if (verdict.kind == VerdictKind::kUnverified) {
    line += " (" + std::string(ToString(verdict.unverified_reason)) + ")";
  }
  if (!verdict.expected.text.empty()) line += ": expected " + verdict.expected.text + ",";
  line += " got " + DescribeObserved(verdict.observed);
  for (const Finding& finding : verdict.findings) {
    line += "; " + std::string(ToString(finding.strength)) + ": " + finding.text;
  }
  for (const std::string& note : verdict.notes) line += "; note: " + note;
  return line;
}

std::string Excerpt(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  return std::string(Utf8Prefix(text, limit)) + "\xE2\x80\xA6";
}

}  // namespace mcpfuzz
