#include "oracles/detail/judge_aspects.h"

#include <algorithm>
#include <boost/json.hpp>

#include "oracles/detail/consistency.h"
#include "oracles/detail/describe.h"
#include "oracles/detail/envelope.h"
#include "oracles/detail/listen.h"
#include "oracles/detail/result_shapes.h"
#include "oracles/stdio_checks.h"

namespace mcpfuzz::oracles_detail {
namespace {

bool Has(const std::vector<Channel>& channels, Channel channel) {
  return std::find(channels.begin(), channels.end(), channel) != channels.end();
}

bool Has(const std::vector<std::int64_t>& codes, std::int64_t code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

bool InRanges(const std::vector<StatusRange>& ranges, int status) {
  return std::any_of(ranges.begin(), ranges.end(),
                     [status](const StatusRange& range) { return range.Contains(status); });
}

const boost::json::value* Member(const std::optional<boost::json::value>& message,
                                 std::string_view key) {
  if (!message || !message->is_object()) return nullptr;
  return message->as_object().if_contains(key);
}

bool DataMemberOk(const boost::json::value& value, DataKind kind, const Request& request) {
  switch (kind) {
    case DataKind::kString:
      return value.is_string();
    case DataKind::kObject:
      return value.is_object();
    case DataKind::kNonEmptyStringArray:
      return value.is_array() && !value.as_array().empty() &&
             std::all_of(value.as_array().begin(), value.as_array().end(),
                         [](const boost::json::value& item) { return item.is_string(); });
    case DataKind::kRequestedVersion: {
      if (!value.is_string()) return false;
      const std::optional<std::string> requested = RequestedVersion(request);
      return !requested || value.as_string() == *requested;
    }
  }
  return false;
}

std::string_view DescribeKind(DataKind kind) {
  switch (kind) {
    case DataKind::kString:
      return "a string";
    case DataKind::kObject:
      return "an object";
    case DataKind::kNonEmptyStringArray:
      return "a non-empty array of strings";
    case DataKind::kRequestedVersion:
      return "the requested version";
  }
  return "?";
}

void JudgeNamesArgument(const Judging& c, std::vector<Finding>& findings,
                        std::vector<std::string>& notes) {
  const Channel channel = c.reply.channel;
  if (channel != Channel::kExecutionError && channel != Channel::kProtocolError) return;
  if (c.context.argument_name.empty()) {
    notes.push_back("no argument name given, so whether the error names it was not checked");
    return;
  }
  for (const std::string& text : ErrorTexts(*c.reply.message)) {
    if (text.find(c.context.argument_name) != std::string::npos) return;
  }
  findings.push_back(
      {Aspect::kShape, c.row.shape_strength,
       "the error text does not name the argument \"" + c.context.argument_name + "\""});
}

}  // namespace

Strength PrimaryStrength(const Expectation& row) {
  if (!row.channel.conformant.empty()) return row.channel.strength;
  if (!row.http_status.conformant.empty()) return row.http_status.strength;
  return row.shape_strength;
}

bool JudgeChannel(const Judging& c, std::vector<Finding>& findings,
                  std::vector<std::string>& notes) {
  const ChannelRule& rule = c.row.channel;
  const Channel channel = c.reply.channel;
  if (rule.conformant.empty()) return false;
  const bool is_error = channel == Channel::kProtocolError;
  if (c.Http4xx() && rule.http_rejection == HttpRejection::kStatusOnly) {
    notes.push_back("refused with HTTP " + std::to_string(c.observation.http_status) +
                    ", which the spec allows here whatever the body");
    return false;
  }
  if (Has(rule.conformant, channel)) return is_error;
  const std::string observed = std::string(ToString(channel)) + " (" + c.reply.reason + ")";
  if (Has(rule.tolerated, channel)) {
    findings.push_back({Aspect::kChannel, Strength::kShould,
                        "answered with " + observed +
                            ", only tolerated here; preferred: " + JoinChannels(rule.conformant)});
    return is_error;
  }
  const bool bare_or_error =
      is_error || channel == Channel::kNotJsonRpc || channel == Channel::kNoReply;
  if (c.Http4xx() && bare_or_error && rule.http_rejection != HttpRejection::kNotAnAnswer) {
    const std::string refusal = "refused with HTTP " + std::to_string(c.observation.http_status) +
                                " and a " + std::string(ToString(channel)) + " body";
    if (rule.http_rejection == HttpRejection::kConformant) {
      notes.push_back(refusal + ", which the spec allows here");
    } else {
      findings.push_back(
          {Aspect::kChannel, Strength::kShould,
           refusal + " instead of " + JoinChannels(rule.conformant) + " (tolerated)"});
    }
    return false;
  }
  // A reply that is not JSON-RPC, or none at all because the exchange broke, breaks the base
  // protocol whatever the check's own strength.
  const bool broken = channel == Channel::kNotJsonRpc || channel == Channel::kTransportFailure;
  findings.push_back({Aspect::kChannel, broken ? Strength::kMust : rule.strength,
                      "answered with " + observed + "; expected " + JoinChannels(rule.conformant)});
  return false;
}

void JudgeCode(const Judging& c, std::vector<Finding>& findings) {
  const CodeRule& rule = c.row.code;
  if (!c.reply.error_code) return;
  const std::int64_t code = *c.reply.error_code;
  if (Has(rule.forbidden, code)) {
    findings.push_back(
        {Aspect::kCode, Strength::kMust, "code " + std::to_string(code) + " MUST NOT answer this"});
  } else if (!rule.conformant.empty() && !Has(rule.conformant, code)) {
    findings.push_back(
        {Aspect::kCode, rule.strength,
         "code " + std::to_string(code) + "; expected " + JoinCodes(rule.conformant)});
  }
}

void JudgeData(const Judging& c, std::vector<Finding>& findings) {
  const DataRule& rule = c.row.data;
  if (rule.members.empty()) return;
  const boost::json::value* error = Member(c.reply.message, "error");
  const boost::json::object* data = nullptr;
  if (error != nullptr && error->is_object()) {
    const auto* member = error->as_object().if_contains("data");
    if (member != nullptr && member->is_object()) data = &member->as_object();
  }
  for (const DataMember& member : rule.members) {
    const boost::json::value* value = data != nullptr ? data->if_contains(member.name) : nullptr;
    if (value == nullptr) {
      findings.push_back(
          {Aspect::kData, rule.strength, "error.data." + std::string(member.name) + " is missing"});
    } else if (!DataMemberOk(*value, member.kind, c.request)) {
      findings.push_back({Aspect::kData, rule.strength,
                          "error.data." + std::string(member.name) + " is not " +
                              std::string(DescribeKind(member.kind))});
    }
  }
}

void JudgeStatus(const Judging& c, std::vector<Finding>& findings) {
  const StatusRule& rule = c.row.http_status;
  if (!c.OverHttp() || rule.conformant.empty()) return;
  const int status = c.observation.http_status;
  if (InRanges(rule.conformant, status)) return;
  const std::string expected = JoinStatuses(rule.conformant);
  if (InRanges(rule.tolerated, status)) {
    findings.push_back(
        {Aspect::kHttpStatus, Strength::kShould,
         "HTTP " + std::to_string(status) + " is only tolerated; expected " + expected});
    return;
  }
  findings.push_back({Aspect::kHttpStatus, rule.strength,
                      "HTTP " + std::to_string(status) + "; expected " + expected});
}

void JudgeShape(const Judging& c, std::vector<Finding>& findings, std::vector<std::string>& notes) {
  const Strength strength = c.row.shape_strength;
  const boost::json::value* result =
      c.reply.channel == Channel::kSuccess ? Member(c.reply.message, "result") : nullptr;
  std::vector<Finding> found;
  switch (c.row.shape) {
    case ShapeCheck::kNone:
    case ShapeCheck::kBatchResponses:
    case ShapeCheck::kBatchProcessingTolerated:
      break;
    case ShapeCheck::kEmptyResult:
      if (result != nullptr) found = CheckEmptyResult(*result, strength);
      break;
    case ShapeCheck::kInitializeResult:
    case ShapeCheck::kInitializeFallback:
      if (result != nullptr) {
        found = CheckInitializeResult(*result, RequestedVersion(c.request),
                                      c.row.shape == ShapeCheck::kInitializeResult, strength);
      }
      break;
    case ShapeCheck::kSessionVersionKept:
      if (result != nullptr) {
        std::optional<std::string> new_session;
        const auto issued = FindHeader(c.observation.http_headers, "Mcp-Session-Id");
        if (issued && !c.context.session_id.empty() && *issued != c.context.session_id) {
          new_session = std::string(*issued);
        }
        found = CheckSessionVersionKept(*result, c.request.revision, new_session, strength);
      }
      break;
    case ShapeCheck::kHandshakeEraResult:
      if (result != nullptr) found = CheckHandshakeEraResult(*result, strength);
      break;
    case ShapeCheck::kDiscoverResult:
      if (result != nullptr) found = CheckDiscoverResult(*result, strength, c.request.revision);
      break;
    case ShapeCheck::kNamesArgument:
      JudgeNamesArgument(c, findings, notes);
      break;
    case ShapeCheck::kEventStreamOn200:
      if (c.observation.http_status == 200 &&
          !MediaTypeIs(c.observation.content_type, "text/event-stream")) {
        found.push_back({Aspect::kShape, strength,
                         "GET answered 200 with Content-Type \"" +
                             Excerpt(c.observation.content_type, 60) +
                             "\" instead of text/event-stream"});
      }
      break;
    case ShapeCheck::kStdoutOnlyJsonRpc:
      found = CheckStdout(c.observation, c.request.revision);
      break;
    case ShapeCheck::kProcessAlive:
      found = CheckProcessAlive(c.observation);
      break;
    case ShapeCheck::kSameAnswerAsRandomName:
      if (c.context.random_name_answer) found = CompareWithRandomName(c);
      break;
    case ShapeCheck::kListenStream:
      found = CheckListenStream(c.request, c.observation, strength, notes);
      break;
  }
  findings.insert(findings.end(), found.begin(), found.end());
}

bool JudgeBatch(const Judging& c, const BatchAnswer& batch, std::vector<Finding>& findings) {
  const Strength strength = c.row.shape_strength;
  if (c.row.shape == ShapeCheck::kBatchProcessingTolerated) {
    if (!batch.Processed()) return false;
    findings.push_back({Aspect::kShape, strength,
                        "processed the batch element by element, though a batch is not an MCP "
                        "message in " +
                            std::string(ToString(c.request.revision)) + " (tolerated)"});
    return true;
  }
  if (batch.request_ids.empty()) {
    if (batch.Processed() || c.reply.channel != Channel::kNoReply) {
      findings.push_back(
          {Aspect::kShape, strength,
           "a batch of notifications got a reply: " + std::string(ToString(c.reply.channel))});
    }
    if (c.OverHttp() && c.observation.http_status != 202) {
      findings.push_back({Aspect::kHttpStatus, strength,
                          "a batch of notifications got HTTP " +
                              std::to_string(c.observation.http_status) + "; expected 202"});
    }
    return true;
  }
  for (const auto& id : batch.request_ids) {
    if (std::find(batch.answered_ids.begin(), batch.answered_ids.end(), id) ==
        batch.answered_ids.end()) {
      findings.push_back({Aspect::kShape, strength,
                          "no response for the batch's request " + boost::json::serialize(id)});
    }
  }
  if (batch.malformed_elements > 0) {
    findings.push_back({Aspect::kShape, strength,
                        std::to_string(batch.malformed_elements) +
                            " element(s) of the batch reply are not JSON-RPC responses"});
  }
  return true;
}

}  // namespace mcpfuzz::oracles_detail
