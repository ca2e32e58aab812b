#include "oracles/verdict_json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

// The reading side: each enumerator is known by the name ToString gives it.
template <typename Enum, std::size_t N>
std::optional<Enum> Named(const json::value* text, const Enum (&all)[N]) {
  if (text == nullptr || !text->is_string()) return std::nullopt;
  for (const Enum candidate : all) {
    if (ToString(candidate) == text->as_string()) return candidate;
  }
  return std::nullopt;
}

constexpr Channel kChannels[] = {Channel::kProtocolError, Channel::kExecutionError,
                                 Channel::kSuccess,       Channel::kNoReply,
                                 Channel::kNotJsonRpc,    Channel::kTransportFailure};
constexpr Outcome kOutcomes[] = {Outcome::kOk,
                                 Outcome::kTimeout,
                                 Outcome::kConnectionRefused,
                                 Outcome::kConnectionReset,
                                 Outcome::kExited,
                                 Outcome::kAliveButDeaf,
                                 Outcome::kDropped,
                                 Outcome::kTooLarge,
                                 Outcome::kTransportError};
constexpr Strength kStrengths[] = {Strength::kMust, Strength::kShould, Strength::kMay};
constexpr VerdictKind kKinds[] = {VerdictKind::kPass, VerdictKind::kWarn, VerdictKind::kFail,
                                  VerdictKind::kUnverified, VerdictKind::kNotApplicable};
constexpr UnverifiedReason kReasons[] = {
    UnverifiedReason::kNone, UnverifiedReason::kCredentialRequired, UnverifiedReason::kRateLimited,
    UnverifiedReason::kTransportError, UnverifiedReason::kEraNotSpoken};
constexpr Aspect kAspects[] = {Aspect::kChannel, Aspect::kCode,  Aspect::kHttpStatus,
                               Aspect::kData,    Aspect::kShape, Aspect::kEnvelope,
                               Aspect::kLeak};

const json::array& ArrayAt(const json::object& in, std::string_view key) {
  static const json::array kNone;
  const json::value* value = in.if_contains(key);
  return value != nullptr && value->is_array() ? value->as_array() : kNone;
}

std::string TextAt(const json::object& in, std::string_view key) {
  const json::value* value = in.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : std::string();
}

std::vector<std::string> Texts(const json::array& in) {
  std::vector<std::string> out;
  for (const json::value& each : in) {
    if (each.is_string()) out.emplace_back(each.as_string());
  }
  return out;
}

std::vector<std::int64_t> Codes(const json::array& in) {
  std::vector<std::int64_t> out;
  for (const json::value& each : in) {
    if (each.is_int64()) out.push_back(each.as_int64());
  }
  return out;
}

// "404", "4xx", "200-204": the forms ToString(StatusRange) writes.
std::optional<StatusRange> RangeFrom(const json::value& text) {
  if (!text.is_string()) return std::nullopt;
  const std::string value(text.as_string());
  try {
    if (value.size() == 3 && value.ends_with("xx")) {
      const int hundreds = std::stoi(value.substr(0, 1));
      return StatusRange{hundreds * 100, hundreds * 100 + 99};
    }
    const std::size_t dash = value.find('-');
    if (dash == std::string::npos) return StatusRange{std::stoi(value), std::stoi(value)};
    return StatusRange{std::stoi(value.substr(0, dash)), std::stoi(value.substr(dash + 1))};
  } catch (...) {
    return std::nullopt;
  }
}

Result<std::vector<StatusRange>> Ranges(const json::array& in, std::string_view key) {
  std::vector<StatusRange> out;
  for (const json::value& each : in) {
    auto range = RangeFrom(each);
    if (!range) return Error{"expected." + std::string(key) + " holds a status range not read"};
    out.push_back(*range);
  }
  return out;
}

Result<std::vector<Channel>> Channels(const json::array& in, std::string_view key) {
  std::vector<Channel> out;
  for (const json::value& each : in) {
    auto channel = Named(&each, kChannels);
    if (!channel) return Error{"expected." + std::string(key) + " holds an unknown channel"};
    out.push_back(*channel);
  }
  return out;
}

}  // namespace

std::optional<Channel> ChannelNamed(std::string_view text) {
  const json::value name(text);
  return Named(&name, kChannels);
}

Result<Verdict> VerdictFromJson(const json::object& in) {
  Verdict verdict;
  const auto kind = Named(in.if_contains("verdict"), kKinds);
  const auto strength = Named(in.if_contains("strength"), kStrengths);
  if (!kind || !strength) return Error{"\"verdict\" or \"strength\" is not one mcpfuzz writes"};
  verdict.kind = *kind;
  verdict.strength = *strength;
  if (const json::value* expected = in.if_contains("expected"); expected && expected->is_object()) {
    const json::object& e = expected->as_object();
    verdict.expected.text = TextAt(e, "text");
    auto channels = Channels(ArrayAt(e, "channels"), "channels");
    auto tolerated = Channels(ArrayAt(e, "tolerated_channels"), "tolerated_channels");
    auto statuses = Ranges(ArrayAt(e, "http_statuses"), "http_statuses");
    auto tolerated_statuses =
        Ranges(ArrayAt(e, "tolerated_http_statuses"), "tolerated_http_statuses");
    if (!channels) return channels.error();
    if (!tolerated) return tolerated.error();
    if (!statuses) return statuses.error();
    if (!tolerated_statuses) return tolerated_statuses.error();
    verdict.expected.channels = std::move(*channels);
    verdict.expected.tolerated = std::move(*tolerated);
    verdict.expected.codes = Codes(ArrayAt(e, "codes"));
    verdict.expected.forbidden_codes = Codes(ArrayAt(e, "forbidden_codes"));
    verdict.expected.http_statuses = std::move(*statuses);
    verdict.expected.tolerated_http_statuses = std::move(*tolerated_statuses);
    verdict.expected.data_members = Texts(ArrayAt(e, "data_members"));
  }
  if (const json::value* observed = in.if_contains("observed"); observed && observed->is_object()) {
    const json::object& o = observed->as_object();
    const auto outcome = Named(o.if_contains("outcome"), kOutcomes);
    const auto channel = Named(o.if_contains("channel"), kChannels);
    if (!outcome || !channel) return Error{"observed.outcome or observed.channel is not known"};
    verdict.observed.outcome = *outcome;
    verdict.observed.channel = *channel;
    verdict.observed.excerpt = TextAt(o, "excerpt");
    if (const json::value* code = o.if_contains("code"); code && code->is_int64()) {
      verdict.observed.code = code->as_int64();
    }
    if (const json::value* status = o.if_contains("http_status"); status && status->is_int64()) {
      verdict.observed.http_status = static_cast<int>(status->as_int64());
    }
  }
  verdict.spec_reference = TextAt(in, "spec_ref");
  verdict.notes = Texts(ArrayAt(in, "notes"));
  if (in.contains("unverified_reason")) {
    const auto reason = Named(in.if_contains("unverified_reason"), kReasons);
    if (!reason) return Error{"\"unverified_reason\" is not one mcpfuzz writes"};
    verdict.unverified_reason = *reason;
  }
  for (const json::value& each : ArrayAt(in, "findings")) {
    if (!each.is_object()) continue;
    const json::object& f = each.as_object();
    const auto aspect = Named(f.if_contains("aspect"), kAspects);
    const auto finding_strength = Named(f.if_contains("strength"), kStrengths);
    if (!aspect || !finding_strength) return Error{"a finding's aspect or strength is not known"};
    verdict.findings.push_back({*aspect, *finding_strength, TextAt(f, "text")});
  }
  return verdict;
}

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
