#include "oracles/verdict_json.h"

#include <cstdint>
#include <optional>

namespace mcpfuzz {
namespace {

namespace json = boost::json;

template <typename T>
json::array Array(const std::vector<T>& values) {
  return json::array(values.begin(), values.end());
}

template <typename T>
json::array Named(const std::vector<T>& values) {
  json::array out;
  for (const auto& value : values) out.emplace_back(ToString(value));
  return out;
}

json::value ExpectedJson(const ExpectedAnswer& expected) {
  return {{"text", expected.text},
          {"channels", Named(expected.channels)},
          {"tolerated_channels", Named(expected.tolerated)},
          {"codes", Array(expected.codes)},
          {"forbidden_codes", Array(expected.forbidden_codes)},
          {"http_statuses", Named(expected.http_statuses)},
          {"tolerated_http_statuses", Named(expected.tolerated_http_statuses)},
          {"data_members", Array(expected.data_members)}};
}

json::value ObservedJson(const ObservedAnswer& observed) {
  // No status (stdio, or no HTTP answer at all) is null, not 0: 0 is no HTTP status.
  return {{"outcome", ToString(observed.outcome)},
          {"channel", ToString(observed.channel)},
          {"excerpt", observed.excerpt},
          {"code", observed.code ? json::value(*observed.code) : json::value(nullptr)},
          {"http_status",
           observed.http_status == 0 ? json::value(nullptr) : json::value(observed.http_status)}};
}

}  // namespace

void AddVerdictJson(const Verdict& verdict, json::object& out) {
  out["verdict"] = ToString(verdict.kind);
  out["strength"] = ToString(verdict.strength);
  out["expected"] = ExpectedJson(verdict.expected);
  out["observed"] = ObservedJson(verdict.observed);
  out["spec_ref"] = verdict.spec_reference;
  out["notes"] = Array(verdict.notes);
  if (verdict.unverified_reason != UnverifiedReason::kNone) {
    out["unverified_reason"] = ToString(verdict.unverified_reason);
  }
  json::array findings;
  for (const Finding& finding : verdict.findings) {
    findings.push_back({{"aspect", ToString(finding.aspect)},
                        {"strength", ToString(finding.strength)},
                        {"text", finding.text}});
  }
  out["findings"] = std::move(findings);
}

}  // namespace mcpfuzz
