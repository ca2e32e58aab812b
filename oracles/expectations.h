#pragma once
// The table of expectations: for each check, revision range and transport, how a conformant
// server answers, how strongly the spec asks for each aspect of that answer, and where it says
// so. It is compiled in (table_*.cc, one file per topic) and encodes the MCP oracle tables
// (mcp-oracle-tables.md, "the tables"); each row cites the tables' keys.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/channel.h"
#include "model/request.h"
#include "model/revision.h"
#include "oracles/verdict.h"

namespace mcpfuzz {

/// An inclusive range of revisions, oldest first.
struct RevisionRange {
  Revision first = Revision::k2024_11_05;
  Revision last = kLatestRevision;
  bool Contains(Revision revision) const { return revision >= first && revision <= last; }
};

/// The transports a row applies to.
enum class TransportScope { kHttp, kStdio, kBoth };
std::string_view ToString(TransportScope scope);
/// True when a row scoped to `scope` applies to requests over `kind`.
bool Covers(TransportScope scope, TransportKind kind);

/// What the target must have declared for the check to apply at all.
enum class CapabilityRequirement {
  kNone,
  /// The check exercises a capability (tools, prompts, sessions…): NOT_APPLICABLE when the
  /// caller says the target never declared it.
  kDeclared,
  /// The check is about a capability the target did NOT declare: NOT_APPLICABLE when it did.
  kUndeclared,
};

/// A property of the request that selects between rows of the same check.
enum class RequestCondition {
  kAny,
  /// HTTP request without MCP-Protocol-Version: tables §12.6 widens the accepted codes.
  kNoProtocolVersionHeader,
  /// A body that is JSON once its bytes that are not UTF-8 (all inside strings) are read as
  /// U+FFFD, a leading BOM aside: RFC 8259 lets a parser accept it, so the UTF-8 is the one
  /// thing wrong and parse-error judges it by its own row.
  kInvalidUtf8InString,
  /// The request is `initialize`. In 2026-07-28 over stdio it is a handshake-era claim on a
  /// connection the era lock may have made 2026-07-28's (tables §4b V16): refused as such.
  kInitializeRequest,
};

/// How an HTTP 4xx whose body is not one of the row's channels (plain text, an empty body, an
/// error of another shape) is judged. Only the body is judged here; StatusRule still applies.
enum class HttpRejection {
  kNotAnAnswer,  ///< Judged like any other wrong channel.
  kTolerated,    ///< WARN: the server refused at the HTTP level instead of answering in JSON-RPC.
  kConformant,   ///< PASS: the spec lets the server refuse with any 4xx here.
  /// PASS for any 4xx, whatever its body, and the body's envelope is not judged either: the
  /// refusal is an HTTP-level one whose body the spec leaves open (tables §12.16), such as the
  /// 400 a server with sessions sends a request without one (§9b H12).
  kStatusOnly,
};

/// Which channels answer the check, and how strongly the spec asks for them.
struct ChannelRule {
  /// Fully conformant channels; empty means the channel is not asserted.
  std::vector<Channel> conformant{};
  /// Accepted with a WARN (tables §12 "tolerate").
  std::vector<Channel> tolerated{};
  /// The strength for any other channel. A reply that is not JSON-RPC at all always breaks a
  /// MUST, whatever this says, unless the HTTP rejection rule accepts it.
  Strength strength = Strength::kMust;
  HttpRejection http_rejection = HttpRejection::kNotAnAnswer;
};

/// Checked only when the reply is a protocol error that the channel rule accepted.
struct CodeRule {
  /// Conformant codes; empty means any code is fine.
  std::vector<std::int64_t> conformant{};
  /// Codes the spec forbids here (always MUST NOT).
  std::vector<std::int64_t> forbidden{};
  /// The strength for a code that is neither conformant nor forbidden.
  Strength strength = Strength::kShould;
};

/// Checked on HTTP only; stdio has no status.
struct StatusRule {
  /// Conformant statuses; empty means the spec pins none.
  std::vector<StatusRange> conformant{};
  std::vector<StatusRange> tolerated{};
  Strength strength = Strength::kMust;
};

/// What a required member of error.data must hold.
enum class DataKind {
  kString,
  kNonEmptyStringArray,
  kObject,
  /// A string equal to the protocol version the request asked for.
  kRequestedVersion,
};

/// One required member of error.data.
struct DataMember {
  std::string_view name{};
  DataKind kind = DataKind::kString;
};

/// Members error.data must carry; checked on a protocol error the channel rule accepted.
struct DataRule {
  std::vector<DataMember> members{};
  Strength strength = Strength::kMust;
};

/// A judgement beyond channel, code, status and data, specific to a few checks.
enum class ShapeCheck {
  kNone,
  kEmptyResult,               ///< ping: `{}` (only `_meta` allowed).
  kInitializeResult,          ///< Same protocolVersion as asked, capabilities, serverInfo.
  kInitializeFallback,        ///< Another protocolVersion than the unsupported one asked.
  kSessionVersionKept,        ///< A second initialize's result keeps the request's revision.
  kHandshakeEraResult,        ///< No resultType: the connection stayed in the handshake era.
  kDiscoverResult,            ///< server/discover: DiscoverResult fields.
  kNamesArgument,             ///< The error text names JudgeContext::argument_name.
  kBatchResponses,            ///< A response for every request of the batch.
  kBatchProcessingTolerated,  ///< A batch answered element by element is only tolerated.
  kEventStreamOn200,          ///< GET answered 200 carries Content-Type text/event-stream.
  kStdoutOnlyJsonRpc,         ///< Every stdout line is one JSON-RPC message.
  kProcessAlive,              ///< The process did not exit on its own.
  /// Channel, code and message as JudgeContext::random_name_answer, up to the name.
  kSameAnswerAsRandomName,
  /// subscriptions/listen: acknowledged first, stamped, only the types opted into.
  kListenStream,
};
std::string_view ToString(ShapeCheck shape);

/// `text` (an expected answer's text, a verdict's summary) for a terminal: each "[shape]" token
/// it carries, as ToString(ShapeCheck) spells it, written as words ("success, with the
/// session's revision kept"). The tokens stay in the text itself, which signatures and the
/// JSON reports are made of.
std::string ForPeople(std::string_view text);

/// One row: a check over a revision range and a transport scope.
struct Expectation {
  std::string_view id{};
  RevisionRange revisions{};
  TransportScope transports = TransportScope::kBoth;
  RequestCondition condition = RequestCondition::kAny;
  CapabilityRequirement capability = CapabilityRequirement::kNone;
  /// The check is about the process or the connection itself (a crash, silence), so a
  /// failed exchange is the server's answer, not an UNVERIFIED.
  bool judges_transport_failure = false;
  /// HTTP: a connection the server closed without any response (Outcome::kConnectionReset,
  /// no status) is its answer, judged at this strength, where the row names the answers a
  /// refusal owes (tables §15 Z2); without it, such an exchange is UNVERIFIED.
  std::optional<Strength> closed_without_answer{};
  /// The request carries no modern marker, so it is a legacy request whatever revision mcpfuzz
  /// built it in: a reply is judged by 2025-03-26's envelope rules, the revision a server that
  /// supports older clients may read it as (tables §10 X6).
  bool legacy_request = false;
  ChannelRule channel{};
  CodeRule code{};
  StatusRule http_status{};
  DataRule data{};
  ShapeCheck shape = ShapeCheck::kNone;
  Strength shape_strength = Strength::kMust;
  /// The tables' keys: "R4:server/tools.mdx; TS R5 InvalidParamsError; tables §6 T1".
  std::string_view reference{};
  std::string_view summary{};
};

/// Every row of the table.
const std::vector<Expectation>& AllExpectations();

/// The rows of one check, in table order.
std::vector<const Expectation*> ExpectationsFor(std::string_view check_id);

/// True when `row` covers `revision` over `transport` and its condition holds for `request`.
bool Matches(const Expectation& row, const Request& request);

/// The row that judges `request` for `check_id`, or nullptr when the check does not exist
/// in that revision or over that transport. Rows with a condition win over kAny rows.
const Expectation* FindExpectation(std::string_view check_id, const Request& request);

/// The row's expectation as carried by a verdict, for `transport` (HTTP statuses only on HTTP).
ExpectedAnswer DescribeExpected(const Expectation& row, TransportKind transport);

}  // namespace mcpfuzz
