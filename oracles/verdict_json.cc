#include "oracles/verdict_json.h"

#include <cstdint>
#include <optional>

#include "model/json_build.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;

json::value ExpectedJson(const ExpectedAnswer& expected) {
  return {{"text", expected.text},
          {"channels", JsonNames(expected.channels)},
          {"tolerated_channels", JsonNames(expected.tolerated)},
          {"codes", JsonArray(expected.codes)},
          {"forbidden_codes", JsonArray(expected.forbidden_codes)},
          {"http_statuses", JsonNames(expected.http_statuses)},
          {"tolerated_http_statuses", JsonNames(expected.tolerated_http_statuses)},
          {"data_members", JsonArray(expected.data_members)}};
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
  out["notes"] = JsonArray(verdict.notes);
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
