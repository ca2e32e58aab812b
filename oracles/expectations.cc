#include "oracles/expectations.h"

#include <algorithm>
#include <array>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <variant>

#include "model/text.h"
#include "oracles/detail/describe.h"
#include "oracles/detail/table.h"

namespace mcpfuzz {
namespace {

std::vector<Expectation> BuildTable() {
  std::vector<Expectation> rows;
  oracles_detail::AddJsonRpcRows(rows);
  oracles_detail::AddLifecycleRows(rows);
  oracles_detail::AddFeatureRows(rows);
  oracles_detail::AddHttpRows(rows);
  oracles_detail::AddStdioRows(rows);
  oracles_detail::AddLimitRows(rows);
  return rows;
}

bool InvalidUtf8InString(const Request& request) {
  const auto* raw = std::get_if<RawBody>(&request.body);
  if (raw == nullptr || IsValidUtf8(raw->bytes)) return false;
  // RFC 8259 §8.1 lets a parser ignore a byte order mark, so one in front changes nothing.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  std::string_view bytes = raw->bytes;
  if (bytes.starts_with(kBom)) bytes.remove_prefix(kBom.size());
  return ParseJson(ToValidUtf8(bytes)).has_value();
}

bool ConditionHolds(RequestCondition condition, const Request& request) {
  switch (condition) {
    case RequestCondition::kAny:
      return true;
    case RequestCondition::kNoProtocolVersionHeader:
      return request.transport == TransportKind::kHttp &&
             !FindHeader(request.headers, "MCP-Protocol-Version");
    case RequestCondition::kInvalidUtf8InString:
      return InvalidUtf8InString(request);
    case RequestCondition::kInitializeRequest:
      return request.RpcMethod() == "initialize";
  }
  return false;
}

// "protocol_error -32602 data{uri}": codes and data belong to the protocol-error channel.
std::string DescribeChannels(const std::vector<Channel>& channels, const ExpectedAnswer& expected) {
  std::string error_details;
  if (!expected.codes.empty()) error_details += " " + oracles_detail::JoinCodes(expected.codes);
  if (!expected.data_members.empty()) {
    std::string members;
    for (const std::string& member : expected.data_members) {
      members += (members.empty() ? "" : ",") + member;
    }
    error_details += " data{" + members + "}";
  }
  std::string text;
  for (Channel channel : channels) {
    text += (text.empty() ? "" : " or ") + std::string(ToString(channel));
    if (channel == Channel::kProtocolError) text += error_details;
  }
  return text;
}

std::string DescribeText(const ExpectedAnswer& expected, ShapeCheck shape) {
  std::string text = DescribeChannels(expected.channels, expected);
  if (!expected.http_statuses.empty()) {
    const std::string statuses = oracles_detail::JoinStatuses(expected.http_statuses);
    text += text.empty() ? "HTTP " + statuses : " (HTTP " + statuses + ")";
  }
  if (shape != ShapeCheck::kNone) {
    text += (text.empty() ? "" : " ") + std::string("[") + std::string(ToString(shape)) + "]";
  }
  std::string tolerated = DescribeChannels(expected.tolerated, expected);
  if (!expected.tolerated_http_statuses.empty()) {
    tolerated += (tolerated.empty() ? "HTTP " : ", HTTP ") +
                 oracles_detail::JoinStatuses(expected.tolerated_http_statuses);
  }
  if (!tolerated.empty()) text += "; tolerated: " + tolerated;
  return text;
}

}  // namespace

std::string_view ToString(TransportScope scope) {
  switch (scope) {
    case TransportScope::kHttp:
      return "http";
    case TransportScope::kStdio:
      return "stdio";
    case TransportScope::kBoth:
      return "both";
  }
  return "unknown";
}

bool Covers(TransportScope scope, TransportKind kind) {
  switch (scope) {
    case TransportScope::kBoth:
      return true;
    case TransportScope::kHttp:
      return kind == TransportKind::kHttp;
    case TransportScope::kStdio:
      return kind == TransportKind::kStdio;
  }
  return false;
}

std::string_view ToString(ShapeCheck shape) {
  switch (shape) {
    case ShapeCheck::kNone:
      return "none";
    case ShapeCheck::kEmptyResult:
      return "empty_result";
    case ShapeCheck::kInitializeResult:
      return "initialize_result";
    case ShapeCheck::kInitializeFallback:
      return "initialize_fallback_version";
    case ShapeCheck::kSessionVersionKept:
      return "session_version_kept";
    case ShapeCheck::kHandshakeEraResult:
      return "handshake_era_result";
    case ShapeCheck::kDiscoverResult:
      return "discover_result";
    case ShapeCheck::kNamesArgument:
      return "names_argument";
    case ShapeCheck::kBatchResponses:
      return "batch_responses";
    case ShapeCheck::kBatchProcessingTolerated:
      return "batch_processing_tolerated";
    case ShapeCheck::kEventStreamOn200:
      return "event_stream_on_200";
    case ShapeCheck::kStdoutOnlyJsonRpc:
      return "stdout_only_jsonrpc";
    case ShapeCheck::kProcessAlive:
      return "process_alive";
    case ShapeCheck::kSameAnswerAsRandomName:
      return "same_answer_as_a_random_name";
    case ShapeCheck::kListenStream:
      return "listen_stream";
  }
  return "unknown";
}

namespace {

std::string_view Phrase(ShapeCheck shape) {
  switch (shape) {
    case ShapeCheck::kNone:
      return "";
    case ShapeCheck::kEmptyResult:
      return "an empty result";
    case ShapeCheck::kInitializeResult:
      return "the protocolVersion asked, capabilities and serverInfo";
    case ShapeCheck::kInitializeFallback:
      return "another protocolVersion than the unsupported one asked";
    case ShapeCheck::kSessionVersionKept:
      return "the session's revision kept";
    case ShapeCheck::kHandshakeEraResult:
      return "no resultType: the connection stays in the handshake era";
    case ShapeCheck::kDiscoverResult:
      return "the members of a DiscoverResult";
    case ShapeCheck::kNamesArgument:
      return "an error text that names the argument";
    case ShapeCheck::kBatchResponses:
      return "a response for every request of the batch";
    case ShapeCheck::kBatchProcessingTolerated:
      return "a batch answered element by element only tolerated";
    case ShapeCheck::kEventStreamOn200:
      return "Content-Type text/event-stream on a 200";
    case ShapeCheck::kStdoutOnlyJsonRpc:
      return "one JSON-RPC message per stdout line";
    case ShapeCheck::kProcessAlive:
      return "the process still running";
    case ShapeCheck::kSameAnswerAsRandomName:
      return "the same answer as for a random name";
    case ShapeCheck::kListenStream:
      return "an acknowledged, stamped stream of the types opted into";
  }
  return "";
}

constexpr ShapeCheck kShapes[] = {ShapeCheck::kEmptyResult,
                                  ShapeCheck::kInitializeResult,
                                  ShapeCheck::kInitializeFallback,
                                  ShapeCheck::kSessionVersionKept,
                                  ShapeCheck::kHandshakeEraResult,
                                  ShapeCheck::kDiscoverResult,
                                  ShapeCheck::kNamesArgument,
                                  ShapeCheck::kBatchResponses,
                                  ShapeCheck::kBatchProcessingTolerated,
                                  ShapeCheck::kEventStreamOn200,
                                  ShapeCheck::kStdoutOnlyJsonRpc,
                                  ShapeCheck::kProcessAlive,
                                  ShapeCheck::kSameAnswerAsRandomName,
                                  ShapeCheck::kListenStream};

}  // namespace

std::string ForPeople(std::string_view text) {
  std::string out(text);
  for (ShapeCheck shape : kShapes) {
    const std::string token = "[" + std::string(ToString(shape)) + "]";
    for (std::size_t at = out.find(token); at != std::string::npos; at = out.find(token, at)) {
      // "success [x]" reads "success, with …"; a token alone reads "…".
      const bool after_words = at > 0 && out[at - 1] == ' ';
      const std::string words =
          (after_words ? std::string(", with ") : std::string()) + std::string(Phrase(shape));
      const std::size_t from = after_words ? at - 1 : at;
      out.replace(from, token.size() + (after_words ? 1 : 0), words);
      at = from + words.size();
    }
  }
  return out;
}

const std::vector<Expectation>& AllExpectations() {
  static const std::vector<Expectation> table = BuildTable();
  return table;
}

namespace {

// Every verdict looks its row up, so the rows of each check are found by hash, not by a
// scan of the whole table.
const std::vector<const Expectation*>& RowsOf(std::string_view check_id) {
  static const auto index = [] {
    std::unordered_map<std::string_view, std::vector<const Expectation*>> rows;
    for (const Expectation& row : AllExpectations()) rows[row.id].push_back(&row);
    return rows;
  }();
  static const std::vector<const Expectation*> none;
  const auto found = index.find(check_id);
  return found == index.end() ? none : found->second;
}

ExpectedAnswer Describe(const Expectation& row, TransportKind transport) {
  ExpectedAnswer expected;
  expected.channels = row.channel.conformant;
  expected.tolerated = row.channel.tolerated;
  expected.codes = row.code.conformant;
  expected.forbidden_codes = row.code.forbidden;
  if (transport == TransportKind::kHttp) {
    expected.http_statuses = row.http_status.conformant;
    expected.tolerated_http_statuses = row.http_status.tolerated;
  }
  for (const DataMember& member : row.data.members) {
    expected.data_members.emplace_back(member.name);
  }
  expected.text = DescribeText(expected, row.shape);
  return expected;
}

}  // namespace

std::vector<const Expectation*> ExpectationsFor(std::string_view check_id) {
  return RowsOf(check_id);
}

bool Matches(const Expectation& row, const Request& request) {
  return row.revisions.Contains(request.revision) && Covers(row.transports, request.transport) &&
         ConditionHolds(row.condition, request);
}

const Expectation* FindExpectation(std::string_view check_id, const Request& request) {
  const Expectation* unconditional = nullptr;
  for (const Expectation* row : RowsOf(check_id)) {
    if (!Matches(*row, request)) continue;
    if (row->condition != RequestCondition::kAny) return row;
    if (unconditional == nullptr) unconditional = row;
  }
  return unconditional;
}

const ExpectedAnswer* oracles_detail::TableRowExpected(const Expectation& row,
                                                       TransportKind transport) {
  // The table's rows are described once per transport: every verdict carries its row's.
  static const auto described = [] {
    std::vector<std::array<ExpectedAnswer, 2>> all;
    for (const Expectation& one : AllExpectations()) {
      all.push_back({Describe(one, TransportKind::kHttp), Describe(one, TransportKind::kStdio)});
    }
    return all;
  }();
  const std::vector<Expectation>& table = AllExpectations();
  const std::less<const Expectation*> before;
  if (before(&row, table.data()) || !before(&row, table.data() + table.size())) return nullptr;
  const auto index = static_cast<std::size_t>(&row - table.data());
  return &described[index][transport == TransportKind::kHttp ? 0 : 1];
}

ExpectedAnswer DescribeExpected(const Expectation& row, TransportKind transport) {
  const ExpectedAnswer* described = oracles_detail::TableRowExpected(row, transport);
  return described != nullptr ? *described : Describe(row, transport);
}

}  // namespace mcpfuzz
