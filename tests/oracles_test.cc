// The oracles on hand-written answers: each check's key answers, spelled out as the server
// would send them, with the verdict the tables give.

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <set>
#include <sstream>

#include "model/request_edit.h"
#include "oracles/detail/envelope.h"
#include "oracles/detail/leaks.h"
#include "support/deterministic_property.h"
#include "tests/oracle_test_support.h"

namespace mcpfuzz {
// These tests reach the oracles' aspects (envelope, leaks, result shapes) directly.
using namespace oracles_detail;
namespace {

template <typename Property>
void CheckDeterministically(Property property) {
  mcpfuzz::test_support::CheckDeterministically(std::move(property), 0x0AC1E5, 300);
}

using test_support::Broken;
using test_support::ErrorReply;
using test_support::ErrorReplyWithoutId;
using test_support::HasFinding;
using test_support::NotJson;
using test_support::Replied;
using test_support::ResultReply;
using test_support::Show;
using test_support::Silent;
using test_support::ToolResult;
namespace json = boost::json;

constexpr Revision kR1 = Revision::k2024_11_05;
constexpr Revision kR2 = Revision::k2025_03_26;
constexpr Revision kR3 = Revision::k2025_06_18;
constexpr Revision kR4 = Revision::k2025_11_25;
constexpr Revision kR5 = Revision::k2026_07_28;
constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;

Request CallTool(Revision revision, TransportKind transport, std::string_view name, int id = 3) {
  return MakeRequest(revision, transport, "tools/call",
                     {{"name", name}, {"arguments", json::object{}}}, id);
}

VerdictKind KindOf(std::string_view check_id, const Request& request,
                   const Observation& observation, const JudgeContext& context = {}) {
  const Verdict verdict = Judge(check_id, request, observation, context);
  return verdict.kind;
}

// --- tools.unknown-name -----------------------------------------------------------------------

TEST(UnknownTool, AJsonRpcErrorPassesInEveryRevisionOverBothTransports) {
  for (Revision revision : kAllRevisions) {
    for (TransportKind transport : {kHttp, kStdio}) {
      const Request request = CallTool(revision, transport, "no_such_tool");
      const Verdict verdict =
          Judge(check::kUnknownTool, request,
                Replied(request, json::parse(R"({"jsonrpc":"2.0","id":3,"error":{
                    "code":-32602,"message":"Unknown tool: no_such_tool"}})")));
      EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Show(verdict);
      EXPECT_EQ(verdict.observed.channel, Channel::kProtocolError);
      EXPECT_EQ(verdict.observed.code, -32602);
      EXPECT_EQ(verdict.observed.excerpt, "Unknown tool: no_such_tool");
    }
  }
}

TEST(UnknownTool, TheThreeWrongShapesEachFail) {
  const Request request = CallTool(kR4, kHttp, "no_such_tool");
  const Verdict is_error =
      Judge(check::kUnknownTool, request,
            Replied(request, json::parse(R"({"jsonrpc":"2.0","id":3,"result":{"content":[
          {"type":"text","text":"Tool no_such_tool not found"}],"isError":true}})")));
  EXPECT_EQ(is_error.kind, VerdictKind::kFail);
  EXPECT_EQ(is_error.strength, Strength::kMust);
  EXPECT_EQ(is_error.observed.channel, Channel::kExecutionError);

  const Verdict success =
      Judge(check::kUnknownTool, request,
            Replied(request, json::parse(R"({"jsonrpc":"2.0","id":3,"result":{"content":[
          {"type":"text","text":"Unknown tool: no_such_tool"}]}})")));
  EXPECT_EQ(success.kind, VerdictKind::kFail);
  EXPECT_EQ(success.observed.channel, Channel::kSuccess);

  const Verdict html = Judge(check::kUnknownTool, request,
                             NotJson(request, "<!DOCTYPE html><h1>Oops</h1>", 200, "text/html"));
  EXPECT_EQ(html.kind, VerdictKind::kFail);
  EXPECT_EQ(html.observed.channel, Channel::kNotJsonRpc);
  EXPECT_EQ(html.observed.excerpt, "<!DOCTYPE html><h1>Oops</h1>");
}

TEST(UnknownTool, AnotherCodeOnlyWarnsBecauseTheCodeIsShownByExample) {
  const Request request = CallTool(kR5, kHttp, "no_such_tool");
  const Verdict verdict =
      Judge(check::kUnknownTool, request, Replied(request, ErrorReply(3, -32601, "nope")));
  EXPECT_EQ(verdict.kind, VerdictKind::kWarn);
  EXPECT_TRUE(HasFinding(verdict, Aspect::kCode, Strength::kShould));
  EXPECT_EQ(verdict.expected.text, "protocol_error -32602");
}

TEST(UnknownTool, AuthAndRateLimitsAreUnverifiedNotFailed) {
  const Request request = CallTool(kR4, kHttp, "no_such_tool");
  for (int status : {401, 403}) {
    const Verdict verdict =
        Judge(check::kUnknownTool, request, NotJson(request, "Unauthorized", status, "text/plain"));
    EXPECT_EQ(verdict.kind, VerdictKind::kUnverified);
    EXPECT_EQ(verdict.unverified_reason, UnverifiedReason::kCredentialRequired);
  }
  for (int status : {429, 503}) {
    const Verdict verdict =
        Judge(check::kUnknownTool, request, Replied(request, ErrorReply(3, -32000), status));
    EXPECT_EQ(verdict.unverified_reason, UnverifiedReason::kRateLimited);
  }
  const Verdict timeout = Judge(check::kUnknownTool, request, Broken(Outcome::kTimeout));
  EXPECT_EQ(timeout.unverified_reason, UnverifiedReason::kTransportError);
}

TEST(UnknownTool, NotApplicableWithoutTheToolsCapability) {
  const Request request = CallTool(kR4, kStdio, "no_such_tool");
  JudgeContext context;
  context.capability_declared = false;
  EXPECT_EQ(KindOf(check::kUnknownTool, request, Silent(request), context),
            VerdictKind::kNotApplicable);
}

TEST(UnknownTool, ALeakyErrorMessageWarns) {
  const Request request = CallTool(kR3, kStdio, "no_such_tool");
  const Verdict verdict = Judge(
      check::kUnknownTool, request,
      Replied(request, ErrorReply(3, -32602,
                                  "Traceback (most recent call last):\n  File "
                                  "\"/srv/app/server.py\", line 12, in call\nKeyError: 'x'")));
  EXPECT_EQ(verdict.kind, VerdictKind::kWarn);
  EXPECT_TRUE(HasFinding(verdict, Aspect::kLeak, Strength::kShould));
}

TEST(ToolMissingName, Over20260728HttpAHeaderRefusalIsConformant) {
  // Mcp-Name mirrors params.name (X11): no header can mirror a missing name, so a server that
  // checks the standard headers first (§10 step 6) answers 400/-32020. Over stdio there are no
  // headers, and -32020 is only another code.
  const Request http = MakeRequest(kR5, kHttp, "tools/call", {{"arguments", json::object{}}}, 3);
  EXPECT_EQ(KindOf(check::kToolMissingName, http, Replied(http, ErrorReply(3, -32020), 400)),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kToolMissingName, http, Replied(http, ErrorReply(3, -32602))),
            VerdictKind::kPass);
  const Request stdio = MakeRequest(kR5, kStdio, "tools/call", {{"arguments", json::object{}}}, 3);
  EXPECT_EQ(KindOf(check::kToolMissingName, stdio, Replied(stdio, ErrorReply(3, -32020))),
            VerdictKind::kWarn);
  const Request legacy = MakeRequest(kR4, kHttp, "tools/call", {{"arguments", json::object{}}}, 3);
  EXPECT_EQ(KindOf(check::kToolMissingName, legacy, Replied(legacy, ErrorReply(3, -32020))),
            VerdictKind::kWarn);
}

// --- tools.bad-arguments ----------------------------------------------------------------------

Observation ToolError(const Request& request, std::string text) {
  return Replied(request, ResultReply(3, ToolResult(request.revision, std::move(text), true)));
}

TEST(BadArguments, EitherChannelIsConformantUpTo20250618) {
  JudgeContext context;
  context.argument_name = "city";
  for (Revision revision : {kR1, kR2, kR3}) {
    const Request request = CallTool(revision, kHttp, "weather");
    EXPECT_EQ(KindOf(check::kToolBadArguments, request,
                     Replied(request, ErrorReply(3, -32602, "Missing required property 'city'")),
                     context),
              VerdictKind::kPass);
    EXPECT_EQ(KindOf(check::kToolBadArguments, request, ToolError(request, "city must be a string"),
                     context),
              VerdictKind::kPass);
  }
}

TEST(BadArguments, From20251125AnExecutionErrorIsPreferredAndMinus32602Warns) {
  JudgeContext context;
  context.argument_name = "city";
  for (Revision revision : {kR4, kR5}) {
    const Request request = CallTool(revision, kStdio, "weather");
    EXPECT_EQ(KindOf(check::kToolBadArguments, request, ToolError(request, "city must be a string"),
                     context),
              VerdictKind::kPass);
    const Verdict protocol_error =
        Judge(check::kToolBadArguments, request,
              Replied(request, ErrorReply(3, -32602, "Invalid arguments: city")), context);
    EXPECT_EQ(protocol_error.kind, VerdictKind::kWarn);
    EXPECT_TRUE(HasFinding(protocol_error, Aspect::kChannel, Strength::kShould));
  }
}

TEST(BadArguments, AnErrorThatDoesNotNameTheArgumentWarnsAndSuccessFails) {
  JudgeContext context;
  context.argument_name = "city";
  const Request request = CallTool(kR4, kHttp, "weather");
  const Verdict vague =
      Judge(check::kToolBadArguments, request, ToolError(request, "Invalid input"), context);
  EXPECT_EQ(vague.kind, VerdictKind::kWarn);
  EXPECT_TRUE(HasFinding(vague, Aspect::kShape, Strength::kShould));
  const Verdict served =
      Judge(check::kToolBadArguments, request,
            Replied(request, ResultReply(3, ToolResult(kR4, "Sunny in undefined", std::nullopt))),
            context);
  EXPECT_EQ(served.kind, VerdictKind::kFail);
}

// --- resources.unknown ------------------------------------------------------------------------

Request ReadResource(Revision revision) {
  return MakeRequest(revision, kHttp, "resources/read", {{"uri", "file:///nonexistent.txt"}}, 3);
}

TEST(UnknownResource, Minus32002AndMinus32602AreBothConformantBefore20260728) {
  const Request request = ReadResource(kR4);
  for (int code : {-32002, -32602}) {
    const json::value data = json::object{{"uri", "file:///nonexistent.txt"}};
    EXPECT_EQ(KindOf(check::kUnknownResource, request,
                     Replied(request, ErrorReply(3, code, "Resource not found", data))),
              VerdictKind::kPass)
        << code;
  }
}

TEST(UnknownResource, In20260728OnlyMinus32602AndNeverEmptyContents) {
  const Request request = ReadResource(kR5);
  EXPECT_EQ(KindOf(check::kUnknownResource, request,
                   Replied(request, ErrorReply(3, -32602, "Resource not found"))),
            VerdictKind::kPass);
  const Verdict retired = Judge(check::kUnknownResource, request,
                                Replied(request, ErrorReply(3, -32002, "Resource not found")));
  EXPECT_EQ(retired.kind, VerdictKind::kFail);
  EXPECT_TRUE(HasFinding(retired, Aspect::kCode, Strength::kMust));
  const Verdict empty = Judge(
      check::kUnknownResource, request,
      Replied(request, ResultReply(3, {{"resultType", "complete"}, {"contents", json::array{}}})));
  EXPECT_EQ(empty.kind, VerdictKind::kFail);
}

// --- version negotiation ----------------------------------------------------------------------

Request StatelessWithVersion(std::string_view version) {
  Request request = MakeRequest(kR5, kHttp, "tools/list", {}, 1);
  json::object body = request.BodyJson()->as_object();
  body["params"].as_object()["_meta"].as_object()[kMetaProtocolVersion] = version;
  request.body = json::value(std::move(body));
  SetHeader(request.headers, kHeaderProtocolVersion, version);
  return request;
}

TEST(UnsupportedVersion, Minus32022WithSupportedAndRequestedAnd400Passes) {
  const Request request = StatelessWithVersion("1900-01-01");
  const json::value good = json::parse(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32022,
      "message":"Unsupported protocol version",
      "data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}})");
  EXPECT_EQ(KindOf(check::kVersionUnsupported, request, Replied(request, good, 400)),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kVersionUnsupported, request, Replied(request, good, 200)),
            VerdictKind::kFail);

  json::value wrong_echo = good;
  wrong_echo.at("error").at("data").as_object()["requested"] = "2026-07-28";
  const Verdict echo =
      Judge(check::kVersionUnsupported, request, Replied(request, wrong_echo, 400));
  EXPECT_EQ(echo.kind, VerdictKind::kFail);
  EXPECT_TRUE(HasFinding(echo, Aspect::kData, Strength::kMust));

  json::value no_supported = good;
  no_supported.at("error").at("data").as_object().erase("supported");
  EXPECT_EQ(KindOf(check::kVersionUnsupported, request, Replied(request, no_supported, 400)),
            VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kVersionUnsupported, request,
                   Replied(request, ErrorReply(1, -32602, "bad version"), 400)),
            VerdictKind::kFail);
}

TEST(InitializeUnsupportedVersion, SuccessWithAnotherVersionPassesTheErrorExampleWarns) {
  Request request = MakeInitialize(kR3, kStdio, 1);
  json::object body = request.BodyJson()->as_object();
  body["params"].as_object()["protocolVersion"] = "1.0.0";
  request.body = json::value(std::move(body));
  const json::object result = json::parse(R"({"protocolVersion":"2025-06-18","capabilities":{},
      "serverInfo":{"name":"s","version":"1"}})")
                                  .as_object();
  EXPECT_EQ(KindOf(check::kInitializeUnsupportedVersion, request,
                   Replied(request, ResultReply(1, result))),
            VerdictKind::kPass);
  json::object echoed = result;
  echoed["protocolVersion"] = "1.0.0";
  EXPECT_EQ(KindOf(check::kInitializeUnsupportedVersion, request,
                   Replied(request, ResultReply(1, echoed))),
            VerdictKind::kFail);
  const json::value example = json::parse(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,
      "message":"Unsupported protocol version",
      "data":{"supported":["2024-11-05"],"requested":"1.0.0"}}})");
  EXPECT_EQ(KindOf(check::kInitializeUnsupportedVersion, request, Replied(request, example)),
            VerdictKind::kWarn);
  EXPECT_EQ(KindOf(check::kInitializeUnsupportedVersion, request,
                   Replied(request, ErrorReply(1, -32603, "boom"))),
            VerdictKind::kFail);
}

// --- 2026-07-28 metadata and headers ----------------------------------------------------------

// No _meta and no MCP-Protocol-Version: no modern marker, so a legacy request (tables §10 X6).
// A dual-era server serves it as 2025-03-26, a modern-only one refuses it; both are fine.
TEST(MetaMissing, WithoutTheVersionHeaderItIsALegacyRequestAndAnyJsonRpcAnswerPasses) {
  Request request = MakeRequest(kR5, kHttp, "tools/list", {}, 1);
  request.body = json::parse(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  RemoveHeader(request.headers, kHeaderProtocolVersion);
  for (int code : {-32602, -32020, -32022, -32000}) {
    EXPECT_EQ(KindOf(check::kMetaMissing, request, Replied(request, ErrorReply(1, code), 400)),
              VerdictKind::kPass)
        << code;
  }
  // The legacy leg's refusal for want of a session (H12): its body is unspecified (§12.16).
  EXPECT_EQ(KindOf(check::kMetaMissing, request,
                   Replied(request, ErrorReply(nullptr, -32000, "Server not initialized"), 400)),
            VerdictKind::kPass);
  const json::value served = ResultReply(1, {{"tools", json::array{}}});
  EXPECT_EQ(KindOf(check::kMetaMissing, request, Replied(request, served)), VerdictKind::kPass);
  // Served, the reply is the server's answer and must echo the id.
  EXPECT_EQ(KindOf(check::kMetaMissing, request,
                   Replied(request, ResultReply(2, {{"tools", json::array{}}}))),
            VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kMetaMissing, request, NotJson(request, "<html>boom</html>", 500)),
            VerdictKind::kFail);

  // With the header the request claims 2026-07-28 unambiguously: V1 asks -32602 with 400.
  SetHeader(request.headers, kHeaderProtocolVersion, "2026-07-28");
  EXPECT_EQ(KindOf(check::kMetaMissing, request, Replied(request, served)), VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kMetaMissing, request, Replied(request, ErrorReply(1, -32020), 400)),
            VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kMetaMissing, request, Replied(request, ErrorReply(1, -32602), 400)),
            VerdictKind::kPass);
}

// Over stdio the request goes on a connection locked to 2026-07-28 (tables §4b V16): -32602,
// -32600 and -32022 are the refusals the tables allow; serving it, or another code, fails.
TEST(MetaMissing, OnALockedStdioConnectionTheThreeRefusalsPass) {
  for (std::string_view id : {check::kMetaMissing, check::kMetaPartial}) {
    Request request = MakeRequest(kR5, kStdio, "tools/list", {}, 1);
    request.body = json::parse(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    for (int code : {-32602, -32600, -32022}) {
      EXPECT_EQ(KindOf(id, request, Replied(request, ErrorReply(1, code))), VerdictKind::kPass)
          << id << " " << code;
    }
    EXPECT_EQ(KindOf(id, request, Replied(request, ErrorReply(1, -32601))), VerdictKind::kFail)
        << id;
    EXPECT_EQ(KindOf(id, request, Replied(request, ResultReply(1, {{"tools", json::array{}}}))),
              VerdictKind::kFail)
        << id;
  }
}

TEST(StandardHeaders, A400WithMinus32020PassesABare400WarnsServingFails) {
  Request request = MakeRequest(kR5, kHttp, "tools/list", {}, 1);
  SetHeader(request.headers, kHeaderMethod, "TOOLS/LIST");
  EXPECT_EQ(KindOf(check::kMethodHeaderCase, request,
                   Replied(request, ErrorReply(1, -32020, "Header mismatch"), 400)),
            VerdictKind::kPass);
  EXPECT_EQ(
      KindOf(check::kMethodHeaderCase, request, NotJson(request, "Bad Request", 400, "text/plain")),
      VerdictKind::kWarn);
  EXPECT_EQ(KindOf(check::kMethodHeaderCase, request,
                   Replied(request,
                           ResultReply(1, {{"resultType", "complete"}, {"tools", json::array{}}}))),
            VerdictKind::kFail);
}

TEST(NameHeaderBase64, TheEncodedFormIsAcceptedAndAHeaderRejectionFails) {
  Request request = CallTool(kR5, kHttp, "météo", 1);
  EXPECT_EQ(FindHeader(request.headers, kHeaderName), EncodeHeaderValue("météo"));
  EXPECT_EQ(KindOf(check::kNameHeaderBase64, request,
                   Replied(request, ErrorReply(1, -32602, "Unknown tool: météo"))),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kNameHeaderBase64, request,
                   Replied(request, ErrorReply(1, -32020, "Header mismatch"), 400)),
            VerdictKind::kFail);
}

TEST(UnknownMethod, In20260728TheErrorComesWith404) {
  const Request request = MakeRequest(kR5, kHttp, "ping", {}, 1);
  EXPECT_EQ(KindOf(check::kUnknownMethod, request, Replied(request, ErrorReply(1, -32601), 404)),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kUnknownMethod, request, Replied(request, ErrorReply(1, -32601), 200)),
            VerdictKind::kFail);
  // A plain 404 means a legacy or absent endpoint, not an unknown method (X9).
  EXPECT_EQ(
      KindOf(check::kUnknownMethod, request, NotJson(request, "Not Found", 404, "text/plain")),
      VerdictKind::kFail);
  const Request legacy = MakeRequest(kR4, kHttp, "nope/nope", {}, 1);
  EXPECT_EQ(KindOf(check::kUnknownMethod, legacy, Replied(legacy, ErrorReply(1, -32601), 200)),
            VerdictKind::kPass);
}

TEST(CapabilityUnadvertised, Minus32601PassesAndDeclaredIsNotApplicable) {
  const Request request = MakeRequest(kR5, kHttp, "prompts/list", {}, 1);
  JudgeContext undeclared;
  undeclared.capability_declared = false;
  EXPECT_EQ(KindOf(check::kCapabilityUnadvertised, request,
                   Replied(request, ErrorReply(1, -32601), 404), undeclared),
            VerdictKind::kPass);
  EXPECT_EQ(
      KindOf(check::kCapabilityUnadvertised, request, Replied(request, ErrorReply(1, -32601), 404)),
      VerdictKind::kNotApplicable);
  const Request legacy = MakeRequest(kR3, kStdio, "prompts/list", {}, 1);
  EXPECT_EQ(KindOf(check::kCapabilityUnadvertised, legacy,
                   Replied(legacy, ResultReply(1, {{"prompts", json::array{}}})), undeclared),
            VerdictKind::kWarn);
}

TEST(DiscoverResult, TheFullShapePassesAndEachBrokenFieldIsReported) {
  const Request request = MakeRequest(kR5, kStdio, "server/discover", {}, 1);
  const json::object good = json::parse(R"({"resultType":"complete",
      "supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":60000,"cacheScope":"public",
      "_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}})")
                                .as_object();
  EXPECT_EQ(KindOf(check::kDiscoverResult, request, Replied(request, ResultReply(1, good))),
            VerdictKind::kPass);
  for (auto [key, value] : {std::pair<std::string_view, json::value>{"ttlMs", -5},
                            {"cacheScope", "shared"},
                            {"supportedVersions", json::array{}},
                            // Served in 2026-07-28 without listing it (tables §4b V3, V5).
                            {"supportedVersions", json::array{"2025-11-25"}},
                            {"capabilities", "all"}}) {
    json::object broken = good;
    broken[key] = value;
    EXPECT_EQ(KindOf(check::kDiscoverResult, request, Replied(request, ResultReply(1, broken))),
              VerdictKind::kFail)
        << key;
  }
  json::object anonymous = good;
  anonymous.erase("_meta");
  EXPECT_EQ(KindOf(check::kDiscoverResult, request, Replied(request, ResultReply(1, anonymous))),
            VerdictKind::kWarn);
}

// --- JSON-RPC framing -------------------------------------------------------------------------

Request Unparseable(Revision revision, TransportKind transport) {
  Request request = MakeRequest(revision, transport, "tools/list", {}, 1);
  request.body = RawBody{"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\""};
  return request;
}

TEST(ParseError, EchoingAnIdReadThroughInvalidUtf8IsNotAnEnvelopeError) {
  // JavaScript servers decode such bytes as U+FFFD and can read the id; echoing it is fine,
  // inventing another is not.
  Request request = MakeRequest(kR4, kHttp, "tools/list", {}, 3);
  std::string bytes = request.WireBody();
  request.body = RawBody{bytes.substr(0, bytes.size() - 1) + ",\"x\":\"\xFF\"}"};
  const Verdict echoed =
      Judge(check::kParseError, request, Replied(request, ErrorReply(3, -32700)));
  EXPECT_FALSE(HasFinding(echoed, Aspect::kEnvelope, Strength::kMust)) << Summarize(echoed);
  const Verdict invented =
      Judge(check::kParseError, request, Replied(request, ErrorReply(4, -32700)));
  EXPECT_TRUE(HasFinding(invented, Aspect::kEnvelope, Strength::kMust)) << Summarize(invented);
}

// tools/list whose params._meta holds a string with bytes that are not UTF-8: JSON apart from
// them, as the check and the malformed-json family send it.
Request InvalidUtf8InString(Revision revision, TransportKind transport, std::string_view bad) {
  Request request = MakeRequest(revision, transport, "tools/list", {}, 3);
  Meta(request)["x/y"] = "SLOT";
  std::string bytes = request.WireBody();
  bytes.replace(bytes.find("SLOT"), 4, bad);
  request.body = RawBody{bytes};
  return request;
}

TEST(ParseError, ServingInvalidUtf8InAStringIsToleratedNotFailed) {
  // RFC 8259 §8.1's UTF-8 MUST binds the sender and §9 lets a parser accept extensions, so a
  // server that decodes the bytes as U+FFFD and serves the request breaks no MUST (tables F1a).
  for (Revision revision : {kR1, kR4, kR5}) {
    for (TransportKind transport : {kHttp, kStdio}) {
      for (std::string_view bad : {"\xC3\x28", "\xFF", "\xED\xA0\x80", "\xEF\xBB\xBF\x80"}) {
        const Request request = InvalidUtf8InString(revision, transport, bad);
        json::object result{{"tools", json::array{}}};
        if (revision == kR5) {
          result["resultType"] = "complete";
          result["ttlMs"] = 0;
          result["cacheScope"] = "public";
        }
        const Verdict served =
            Judge(check::kParseError, request, Replied(request, ResultReply(3, result)));
        EXPECT_EQ(served.kind, VerdictKind::kWarn)
            << ToString(revision) << " " << ToString(transport) << ": " << Summarize(served);
        EXPECT_TRUE(HasFinding(served, Aspect::kChannel, Strength::kShould)) << Summarize(served);
        const Verdict refused =
            Judge(check::kParseError, request, Replied(request, ErrorReply(nullptr, -32700)));
        EXPECT_EQ(refused.kind, VerdictKind::kPass) << Summarize(refused);
      }
    }
  }
}

TEST(ParseError, ServingInvalidUtf8AfterABomEchoesTheIdItRead) {
  // A lenient decoder skips the BOM too (RFC 8259 §8.1), so echoing the id is no envelope error.
  Request request = InvalidUtf8InString(kR5, kHttp, "\xFF");
  request.body = RawBody{"\xEF\xBB\xBF" + request.WireBody()};
  json::object result{
      {"resultType", "complete"}, {"tools", json::array{}}, {"ttlMs", 0}, {"cacheScope", "public"}};
  const Verdict served =
      Judge(check::kParseError, request, Replied(request, ResultReply(3, result)));
  EXPECT_EQ(served.kind, VerdictKind::kWarn) << Summarize(served);
}

TEST(ParseError, InvalidUtf8BesideABrokenGrammarIsStillAParseError) {
  // Only bytes that leave valid JSON once decoded leniently get the tolerant row: with the
  // grammar broken as well, serving the request still fails.
  Request request = InvalidUtf8InString(kR4, kStdio, "\xC3\x28");
  std::string bytes = request.WireBody();
  request.body = RawBody{bytes.substr(0, bytes.size() - 1)};
  const Verdict served =
      Judge(check::kParseError, request,
            Replied(request, ResultReply(3, json::object{{"tools", json::array{}}})));
  EXPECT_EQ(served.kind, VerdictKind::kFail) << Summarize(served);
}

TEST(ParseError, NullOrAbsentIdAsTheRevisionAllows) {
  const Request r3 = Unparseable(kR3, kStdio);
  const Request r4 = Unparseable(kR4, kStdio);
  EXPECT_EQ(KindOf(check::kParseError, r3, Replied(r3, ErrorReply(nullptr, -32700))),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kParseError, r4, Replied(r4, ErrorReplyWithoutId(-32700))),
            VerdictKind::kPass);
  // Before 2025-11-25 no valid id exists for this reply (§12.3): null and absent are accepted.
  EXPECT_EQ(KindOf(check::kParseError, r3, Replied(r3, ErrorReplyWithoutId(-32700))),
            VerdictKind::kPass);
  const Verdict invented = Judge(check::kParseError, r4, Replied(r4, ErrorReply(1, -32700)));
  EXPECT_EQ(invented.kind, VerdictKind::kFail);
  EXPECT_TRUE(HasFinding(invented, Aspect::kEnvelope, Strength::kMust));
}

TEST(ParseError, TheWrongCodeFailsSilenceAndABare400Warn) {
  const Request stdio = Unparseable(kR4, kStdio);
  EXPECT_EQ(KindOf(check::kParseError, stdio, Replied(stdio, ErrorReply(nullptr, -32600))),
            VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kParseError, stdio, Silent(stdio)), VerdictKind::kWarn);
  const Request http = Unparseable(kR4, kHttp);
  EXPECT_EQ(KindOf(check::kParseError, http, NotJson(http, "invalid JSON", 400, "text/plain")),
            VerdictKind::kWarn);
  EXPECT_EQ(KindOf(check::kParseError, http, Replied(http, ErrorReply(nullptr, -32700), 400)),
            VerdictKind::kPass);
}

TEST(InvalidRequest, ServingARequestWithoutJsonrpcFails) {
  Request request = MakeRequest(kR4, kStdio, "tools/list", {}, 5);
  request.body = json::parse(R"({"id":5,"method":"tools/list"})");
  EXPECT_EQ(KindOf(check::kMissingJsonrpc, request, Replied(request, ErrorReply(nullptr, -32600))),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kMissingJsonrpc, request, Replied(request, ErrorReply(5, -32600))),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kMissingJsonrpc, request,
                   Replied(request, ResultReply(5, {{"tools", json::array{}}}))),
            VerdictKind::kFail);
}

TEST(InvalidRequest, AFractionalIdMayBeServedButAnObjectIdMayNot) {
  Request request = MakeRequest(kR4, kStdio, "tools/list", {}, 1);
  request.body = json::parse(R"({"jsonrpc":"2.0","id":1.5,"method":"tools/list"})");
  EXPECT_EQ(KindOf(check::kIdFloat, request,
                   Replied(request, ResultReply(1.5, {{"tools", json::array{}}}))),
            VerdictKind::kWarn);
  request.body = json::parse(R"({"jsonrpc":"2.0","id":{"n":1},"method":"tools/list"})");
  EXPECT_EQ(
      KindOf(check::kIdObject, request,
             Replied(request, ResultReply(json::object{{"n", 1}}, {{"tools", json::array{}}}))),
      VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kIdObject, request, Replied(request, ErrorReply(nullptr, -32600))),
            VerdictKind::kPass);
}

TEST(Notifications, NoReplyPassesAnyReplyFails) {
  const Request http = MakeNotification(kR4, kHttp, "notifications/initialized");
  EXPECT_EQ(KindOf(check::kNotificationNoReply, http, Silent(http, 202)), VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kNotificationNoReply, http, Silent(http, 200)), VerdictKind::kFail);
  // Refusing with a 4xx is allowed, and the body MAY be an error without id (H5).
  EXPECT_EQ(
      KindOf(check::kNotificationNoReply, http, Replied(http, ErrorReplyWithoutId(-32600), 400)),
      VerdictKind::kPass);
  const Request stdio = MakeNotification(kR1, kStdio, "notifications/unknown");
  EXPECT_EQ(KindOf(check::kNotificationNoReply, stdio, Silent(stdio)), VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kNotificationNoReply, stdio, Replied(stdio, ErrorReply(nullptr, -32601))),
            VerdictKind::kFail);
}

Request BatchOf(Revision revision, std::string_view json_text) {
  Request request = MakeRequest(revision, kHttp, "tools/list", {}, 1);
  request.body = json::parse(json_text);
  return request;
}

TEST(Batch, In20250326EveryRequestOfABatchGetsItsResponse) {
  const Request request = BatchOf(kR2, R"([{"jsonrpc":"2.0","id":1,"method":"ping"},
      {"jsonrpc":"2.0","id":2,"method":"ping"}])");
  const json::value both = json::parse(R"([{"jsonrpc":"2.0","id":2,"result":{}},
      {"jsonrpc":"2.0","id":1,"result":{}}])");
  EXPECT_EQ(KindOf(check::kBatchAccepted, request, Replied(request, both)), VerdictKind::kPass);
  const json::value one = json::parse(R"([{"jsonrpc":"2.0","id":1,"result":{}}])");
  EXPECT_EQ(KindOf(check::kBatchAccepted, request, Replied(request, one)), VerdictKind::kFail);
  EXPECT_EQ(
      KindOf(check::kBatchAccepted, request, Replied(request, ErrorReply(nullptr, -32600), 400)),
      VerdictKind::kFail);
  const Request notifications = BatchOf(kR2, R"([{"jsonrpc":"2.0","method":"notifications/x"}])");
  EXPECT_EQ(KindOf(check::kBatchAccepted, notifications, Silent(notifications, 202)),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kBatchAccepted, notifications, Silent(notifications, 200)),
            VerdictKind::kFail);
}

TEST(Batch, AnEmptyBatchGetsOneInvalidRequestErrorNotAnArray) {
  const Request stdio = BatchOf(kR2, "[]");
  EXPECT_EQ(KindOf(check::kBatchEmpty, stdio, Replied(stdio, ErrorReply(nullptr, -32600))),
            VerdictKind::kPass);
  // An empty array back is no response at all: JRPC asks for a single error object.
  EXPECT_EQ(KindOf(check::kBatchEmpty, stdio, Replied(stdio, json::array{})), VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kBatchEmpty, stdio, Replied(stdio, ErrorReply(nullptr, -32602))),
            VerdictKind::kWarn);
  // Outside 2025-03-26 the tables name no expectation for it.
  const Request modern = BatchOf(kR4, "[]");
  EXPECT_EQ(KindOf(check::kBatchEmpty, modern, Replied(modern, ErrorReply(nullptr, -32600))),
            VerdictKind::kNotApplicable);
}

TEST(Batch, ElsewhereRefusingPassesAndProcessingIsTolerated) {
  const Request request = BatchOf(kR4, R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  EXPECT_EQ(
      KindOf(check::kBatchRejected, request, Replied(request, ErrorReply(nullptr, -32600), 400)),
      VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kBatchRejected, request,
                   NotJson(request, "batches are not supported", 400, "text/plain")),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kBatchRejected, request,
                   Replied(request, json::parse(R"([{"jsonrpc":"2.0","id":1,"result":{}}])"))),
            VerdictKind::kWarn);
  EXPECT_EQ(KindOf(check::kBatchRejected, request, NotJson(request, "<html>", 200)),
            VerdictKind::kFail);
}

// --- envelope ---------------------------------------------------------------------------------

TEST(Envelope, BrokenFramingIsAMustFinding) {
  const Request request = MakeRequest(kR4, kStdio, "tools/list", {}, 1);
  for (std::string_view reply : {
           R"({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}})",
           R"({"jsonrpc":"1.0","id":1,"result":{}})",
           R"({"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}})",
           R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":7}})",
           R"({"jsonrpc":"2.0","id":2,"result":{}})",
           R"({"jsonrpc":"2.0","result":{}})",
       }) {
    const std::vector<Finding> findings = CheckEnvelope(request, json::parse(reply));
    EXPECT_TRUE(std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
      return f.strength == Strength::kMust;
    })) << reply;
  }
  EXPECT_TRUE(
      CheckEnvelope(request, json::parse(R"({"jsonrpc":"2.0","id":1,"result":{}})")).empty());
}

TEST(Envelope, The20260728ResultAndCodeRules) {
  const Request call = CallTool(kR5, kHttp, "x", 1);
  auto findings = [&call](std::string_view reply) {
    return CheckEnvelope(call, json::parse(reply));
  };
  EXPECT_TRUE(findings(R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",
      "content":[]}})")
                  .empty());
  EXPECT_FALSE(findings(R"({"jsonrpc":"2.0","id":1,"result":{"content":[]}})").empty());
  EXPECT_FALSE(findings(R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"done",
      "content":[]}})")
                   .empty());
  EXPECT_FALSE(findings(R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}})").empty());
  EXPECT_FALSE(
      findings(R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}})").empty());
  EXPECT_TRUE(findings(R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required",
      "requestState":"abc"}})")
                  .empty());
  const Request list = MakeRequest(kR5, kHttp, "tools/list", {}, 1);
  EXPECT_FALSE(CheckEnvelope(list, json::parse(R"({"jsonrpc":"2.0","id":1,"result":{
      "resultType":"input_required","requestState":"abc"}})"))
                   .empty());
  for (int code : {-32050, -32042, -32002}) {
    const auto found = findings(json::serialize(ErrorReply(1, code)));
    ASSERT_EQ(found.size(), 1U) << code;
    EXPECT_EQ(found.front().strength, Strength::kMust) << code;
  }
  const auto legacy = findings(json::serialize(ErrorReply(1, -32001)));
  ASSERT_EQ(legacy.size(), 1U);
  EXPECT_EQ(legacy.front().strength, Strength::kShould);
  // The range policy exists only from 2026-07-28 on.
  EXPECT_TRUE(CheckEnvelope(CallTool(kR4, kHttp, "x", 1), ErrorReply(1, -32050)).empty());
}

TEST(Envelope, AJsonRpcReplyOverHttpNeedsAJsonOrEventStreamContentType) {
  const Request request = CallTool(kR4, kHttp, "no_such_tool");
  const Verdict verdict =
      Judge(check::kUnknownTool, request,
            Replied(request, ErrorReply(3, -32602, "Unknown tool"), 200, "text/html"));
  EXPECT_EQ(verdict.kind, VerdictKind::kFail);
  EXPECT_TRUE(HasFinding(verdict, Aspect::kEnvelope, Strength::kMust));
  EXPECT_EQ(KindOf(check::kUnknownTool, request,
                   Replied(request, ErrorReply(3, -32602), 200, "text/event-stream")),
            VerdictKind::kPass);
  // The body of an HTTP-level refusal is unspecified, so its content type is too.
  Request mismatch = MakeRequest(kR5, kHttp, "tools/list", {}, 1);
  SetHeader(mismatch.headers, kHeaderMethod, "prompts/list");
  EXPECT_EQ(KindOf(check::kMethodHeaderMismatch, mismatch,
                   Replied(mismatch, ErrorReply(1, -32020), 400, "text/plain")),
            VerdictKind::kPass);
}

// --- leaks ------------------------------------------------------------------------------------

TEST(Leaks, FindsStackTracesPathsAndInternalHosts) {
  auto kinds = [](std::string_view text) {
    std::vector<LeakKind> found;
    for (const Leak& leak : FindLeaks(text)) found.push_back(leak.kind);
    return found;
  };
  using K = LeakKind;
  EXPECT_EQ(kinds("Traceback (most recent call last):"), std::vector<K>{K::kStackTrace});
  EXPECT_EQ(kinds("Error: boom\n    at call (server.js:10:5)"), std::vector<K>{K::kStackTrace});
  EXPECT_EQ(kinds("  File \"app.py\", line 3"), std::vector<K>{K::kStackTrace});
  EXPECT_EQ(kinds("cannot open /home/alice/secrets.txt"), std::vector<K>{K::kFilePath});
  EXPECT_EQ(kinds("see /usr/src/app/index.js"), std::vector<K>{K::kFilePath});
  EXPECT_EQ(kinds("in C:\\srv\\app.cs"), std::vector<K>{K::kFilePath});
  EXPECT_EQ(kinds("from node_modules/express/lib/router.js"), std::vector<K>{K::kFilePath});
  EXPECT_EQ(kinds("connect db.prod.internal:5432 failed"), std::vector<K>{K::kInternalHost});
  EXPECT_EQ(kinds("host printer.local is down"), std::vector<K>{K::kInternalHost});
  EXPECT_EQ(kinds("upstream 10.1.2.3 refused"), std::vector<K>{K::kInternalHost});
  EXPECT_EQ(kinds("upstream 172.20.0.4 refused"), std::vector<K>{K::kInternalHost});
  EXPECT_EQ(kinds("upstream 192.168.1.10 refused"), std::vector<K>{K::kInternalHost});
}

TEST(Leaks, FindsValidatorDumpsAndEngineMessages) {
  auto kinds = [](std::string_view text) {
    std::vector<LeakKind> found;
    for (const Leak& leak : FindLeaks(text)) found.push_back(leak.kind);
    return found;
  };
  using K = LeakKind;
  // What the TypeScript SDK v1 answers a nameless tools/call with (zod's issue list).
  const std::string_view sdk_v1 =
      "MCP error -32603: [\n  {\n    \"code\": \"invalid_type\",\n    \"expected\": \"string\",\n"
      "    \"received\": \"undefined\",\n    \"path\": [\n      \"name\"\n    ],\n"
      "    \"message\": \"Required\"\n  }\n]";
  EXPECT_EQ(kinds(sdk_v1), std::vector<K>{K::kValidatorDump});
  EXPECT_EQ(kinds(R"([{"code":"too_big","maximum":3,"path":["a"],"message":"x"}])"),
            std::vector<K>{K::kValidatorDump});
  EXPECT_EQ(kinds(R"({"expected":"number","received":"string","path": ["b", 0]})"),
            std::vector<K>{K::kValidatorDump});
  EXPECT_EQ(kinds("RangeError: Maximum call stack size exceeded"),
            std::vector<K>{K::kEngineMessage});
  EXPECT_EQ(kinds("Internal error: Maximum call stack size exceeded"),
            std::vector<K>{K::kEngineMessage});
  EXPECT_EQ(kinds("RangeError: Invalid array length"), std::vector<K>{K::kEngineMessage});
  EXPECT_EQ(kinds("TypeError: Cannot read properties of undefined (reading 'name')"),
            std::vector<K>{K::kEngineMessage});
}

TEST(Leaks, ValidatorWordsAndErrorClassNamesAloneAreNotDumps) {
  for (std::string_view text : {
           "Invalid arguments",
           "Invalid arguments for tool echo: missing required property 'message'",
           "Unknown tool: TypeError",
           "Unknown tool: RangeError",
           "Tool TypeError not found",
           "expected a string, received a number",
           R"(invalid_type: "name" must be a string)",
           R"({"path": ["name"], "message": "Required"})",
           R"({"code": "invalid_type"})",
           "MyTypeError: Cannot read properties of nothing",
       }) {
    EXPECT_TRUE(FindLeaks(text).empty()) << text;
  }
}

TEST(Leaks, AValidatorDumpInAnErrorWarns) {
  const Request request = MakeRequest(kR4, kHttp, "tools/call", {{"arguments", json::object{}}}, 3);
  const Verdict verdict =
      Judge(check::kToolMissingName, request,
            Replied(request, ErrorReply(3, -32602,
                                        R"([{"code":"invalid_type","expected":"string",)"
                                        R"("received":"undefined","path":["name"]}])")));
  EXPECT_EQ(verdict.kind, VerdictKind::kWarn) << Summarize(verdict);
  EXPECT_TRUE(HasFinding(verdict, Aspect::kLeak, Strength::kShould)) << Summarize(verdict);
  const Verdict plain = Judge(check::kToolMissingName, request,
                              Replied(request, ErrorReply(3, -32602, "Invalid arguments")));
  EXPECT_EQ(plain.kind, VerdictKind::kPass) << Summarize(plain);
}

TEST(Leaks, LeavesOrdinaryTextAlone) {
  for (std::string_view text : {
           "Unknown tool: invalid_tool_name",
           "see https://example.com/home/docs for help",
           "connect to localhost failed",
           "version 10.2.3 is not supported",
           "upstream 8.8.8.8 refused",
           "upstream 172.32.0.1 refused",
           "meet me at 5",
           "Invalid departure date: must be in the future. Current date is 08/08/2025.",
       }) {
    EXPECT_TRUE(FindLeaks(text).empty()) << text;
  }
}

// --- handshake era lifecycle ------------------------------------------------------------------

TEST(PingBeforeInit, AnEmptyResultPassesASessionRefusalIsTolerated) {
  const Request stdio = MakeRequest(kR2, kStdio, "ping", {}, 1);
  EXPECT_EQ(KindOf(check::kPingBeforeInit, stdio, Replied(stdio, ResultReply(1, {}))),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kPingBeforeInit, stdio, Replied(stdio, ResultReply(1, {{"pong", true}}))),
            VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kPingBeforeInit, stdio,
                   Replied(stdio, ErrorReply(1, -32002, "not initialized"))),
            VerdictKind::kFail);
  const Request http = MakeRequest(kR4, kHttp, "ping", {}, 1);
  EXPECT_EQ(KindOf(check::kPingBeforeInit, http,
                   NotJson(http, "Bad Request: no session", 400, "text/plain")),
            VerdictKind::kWarn);
}

TEST(RequestBeforeInit, AnyJsonRpcAnswerPassesACrashOrHangFails) {
  const Request request = MakeRequest(kR3, kStdio, "tools/list", {}, 1);
  for (const json::value& reply :
       {ErrorReply(1, -32000, "Server not initialized"), ErrorReply(1, -32601),
        ResultReply(1, {{"tools", json::array{}}})}) {
    EXPECT_EQ(KindOf(check::kRequestBeforeInit, request, Replied(request, reply)),
              VerdictKind::kPass);
  }
  EXPECT_EQ(KindOf(check::kRequestBeforeInit, request, Broken(Outcome::kExited)),
            VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kRequestBeforeInit, request, Broken(Outcome::kAliveButDeaf)),
            VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kRequestBeforeInit, request, Broken(Outcome::kTransportError)),
            VerdictKind::kUnverified);
  const Request http = MakeRequest(kR3, kHttp, "tools/list", {}, 1);
  EXPECT_EQ(KindOf(check::kRequestBeforeInit, http, NotJson(http, "no session", 400, "text/plain")),
            VerdictKind::kPass);
}

TEST(PreInit, TellsARefusalForOrderingFromOneForTheName) {
  const Request request = MakeRequest(kR4, kStdio, "tools/list", {}, 1);
  const Observation served = Replied(request, ResultReply(1, {{"tools", json::array{}}}));
  const Observation not_found = Replied(request, ErrorReply(1, -32601, "Method not found"));
  const Observation not_initialized =
      Replied(request, ErrorReply(1, -32000, "Server not initialized"));

  PreInitClassification result = ClassifyPreInit(request, served);
  EXPECT_EQ(result.rejects, RejectsPreInit::kNo);
  EXPECT_EQ(result.grounds, RefusalGrounds::kNotRefused);

  result = ClassifyPreInit(request, not_found);
  EXPECT_EQ(result.rejects, RejectsPreInit::kIndeterminate);
  EXPECT_EQ(result.grounds, RefusalGrounds::kName);

  result = ClassifyPreInit(request, not_found, &served);
  EXPECT_EQ(result.rejects, RejectsPreInit::kYes);
  EXPECT_EQ(result.grounds, RefusalGrounds::kOrdering);

  result = ClassifyPreInit(request, not_found, &not_found);
  EXPECT_EQ(result.rejects, RejectsPreInit::kIndeterminate);
  EXPECT_EQ(result.grounds, RefusalGrounds::kName);

  result = ClassifyPreInit(request, not_initialized);
  EXPECT_EQ(result.rejects, RejectsPreInit::kYes);
  EXPECT_EQ(result.grounds, RefusalGrounds::kOrdering);
  EXPECT_NE(result.reason.find("-32000"), std::string::npos);

  result = ClassifyPreInit(request, Broken(Outcome::kAliveButDeaf));
  EXPECT_EQ(result.rejects, RejectsPreInit::kIndeterminate);
  EXPECT_EQ(result.grounds, RefusalGrounds::kUnclear);

  const Request http = MakeRequest(kR4, kHttp, "tools/list", {}, 1);
  result = ClassifyPreInit(http, NotJson(http, "Bad Request", 400, "text/plain"));
  EXPECT_EQ(result.rejects, RejectsPreInit::kYes);
}

// --- HTTP endpoint rules ----------------------------------------------------------------------

TEST(Sessions, StatusesAsTheTransportPageSays) {
  const Request request = MakeRequest(kR3, kHttp, "tools/list", {}, 1);
  EXPECT_EQ(KindOf(check::kSessionUnknown, request, Silent(request, 404)), VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kSessionUnknown, request, Silent(request, 400)), VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kSessionMissing, request, Silent(request, 400)), VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kSessionMissing, request, Silent(request, 404)), VerdictKind::kWarn);
  const Request del = MakeBodyless(kR3, "DELETE");
  for (int status : {200, 204, 405}) {
    EXPECT_EQ(KindOf(check::kSessionDelete, del, Silent(del, status)), VerdictKind::kPass);
  }
  EXPECT_EQ(KindOf(check::kSessionDelete, del, Silent(del, 500)), VerdictKind::kWarn);
  JudgeContext no_session;
  no_session.capability_declared = false;
  EXPECT_EQ(KindOf(check::kSessionUnknown, request, Silent(request, 200), no_session),
            VerdictKind::kNotApplicable);
  EXPECT_EQ(KindOf(check::kSessionUnknown, MakeRequest(kR5, kHttp, "tools/list", {}, 1),
                   Silent(request, 404)),
            VerdictKind::kNotApplicable);
}

TEST(HttpGet, AStreamOr405BeforeAnd405In20260728) {
  const Request get = MakeBodyless(kR4, "GET");
  Observation stream = Silent(get, 200);
  stream.content_type = "text/event-stream";
  EXPECT_EQ(KindOf(check::kHttpGet, get, stream), VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kHttpGet, get, Silent(get, 405)), VerdictKind::kPass);
  stream.content_type = "application/json";
  EXPECT_EQ(KindOf(check::kHttpGet, get, stream), VerdictKind::kFail);
  const Request stateless = MakeBodyless(kR5, "GET");
  EXPECT_EQ(KindOf(check::kHttpGet, stateless, Silent(stateless, 405)), VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kHttpGet, stateless, Silent(stateless, 200)), VerdictKind::kWarn);
}

TEST(HttpHeaders, AnyClientErrorForAMissingAcceptAnd403ForABadOrigin) {
  Request request = MakeRequest(kR4, kHttp, "tools/list", {}, 1);
  RemoveHeader(request.headers, "Accept");
  for (int status : {400, 406}) {
    EXPECT_EQ(KindOf(check::kAcceptMissing, request, Silent(request, status)), VerdictKind::kPass);
  }
  EXPECT_EQ(KindOf(check::kAcceptMissing, request,
                   Replied(request, ResultReply(1, {{"tools", json::array{}}}))),
            VerdictKind::kWarn);
  SetHeader(request.headers, "Origin", "https://evil.example");
  EXPECT_EQ(KindOf(check::kOriginInvalid, request, Silent(request, 403)), VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kOriginInvalid, request, Silent(request, 400)), VerdictKind::kWarn);
  EXPECT_EQ(KindOf(check::kOriginInvalid, request, Silent(request, 200)), VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kOriginInvalid, request, Silent(request, 401)), VerdictKind::kUnverified);
}

// --- stdio ------------------------------------------------------------------------------------

TEST(Stdio, StdoutCarriesOnlyJsonRpcMessages) {
  const Request request = MakeRequest(kR3, kStdio, "tools/list", {}, 1);
  Observation clean = Replied(request, ResultReply(1, {{"tools", json::array{}}}));
  EXPECT_EQ(KindOf(check::kStdoutOnlyJsonRpc, request, clean), VerdictKind::kPass);
  Observation logged = clean;
  logged.non_json.push_back("Server listening on stdio");
  EXPECT_EQ(KindOf(check::kStdoutOnlyJsonRpc, request, logged), VerdictKind::kFail);
  Observation blank = clean;
  blank.non_json.push_back("");
  EXPECT_EQ(KindOf(check::kStdoutOnlyJsonRpc, request, blank), VerdictKind::kWarn);
  Observation stray = clean;
  stray.messages.push_back(json::parse(R"({"level":"info","msg":"ready"})"));
  EXPECT_EQ(KindOf(check::kStdoutOnlyJsonRpc, request, stray), VerdictKind::kFail);

  const json::value batch = json::parse(R"([{"jsonrpc":"2.0","id":1,"result":{}}])");
  const Request r2 = MakeRequest(kR2, kStdio, "tools/list", {}, 1);
  EXPECT_EQ(KindOf(check::kStdoutOnlyJsonRpc, r2, Replied(r2, batch)), VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kStdoutOnlyJsonRpc, request, Replied(request, batch)),
            VerdictKind::kFail);
}

TEST(Stdio, TheProcessMustNotDieOnAnInput) {
  const Request request = MakeRequest(kR4, kStdio, "tools/list", {}, 1);
  EXPECT_EQ(KindOf(check::kNoEarlyExit, request, Silent(request)), VerdictKind::kPass);
  Observation crashed = Broken(Outcome::kExited);
  crashed.exit_signal = 11;
  EXPECT_EQ(KindOf(check::kNoEarlyExit, request, crashed), VerdictKind::kFail);
  Observation failed = Broken(Outcome::kExited);
  failed.exit_code = 1;
  EXPECT_EQ(KindOf(check::kNoEarlyExit, request, failed), VerdictKind::kFail);
  Observation clean_exit = Broken(Outcome::kExited);
  clean_exit.exit_code = 0;
  EXPECT_EQ(KindOf(check::kNoEarlyExit, request, clean_exit), VerdictKind::kWarn);
  Observation ended_by_us = Silent(request);
  ended_by_us.exit_signal = 15;
  ended_by_us.killed_by_mcpfuzz = true;
  EXPECT_EQ(KindOf(check::kNoEarlyExit, request, ended_by_us), VerdictKind::kPass);
}

TEST(Stdio, TheNextRequestStillGetsAnAnswer) {
  const Request request = MakeRequest(kR5, kStdio, "server/discover", {}, 9);
  EXPECT_EQ(KindOf(check::kKeepsAnswering, request, Replied(request, ErrorReply(9, -32601))),
            VerdictKind::kPass);
  EXPECT_EQ(KindOf(check::kKeepsAnswering, request, Broken(Outcome::kAliveButDeaf)),
            VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kKeepsAnswering, request, Broken(Outcome::kExited)), VerdictKind::kFail);
  EXPECT_EQ(KindOf(check::kKeepsAnswering, MakeRequest(kR5, kHttp, "server/discover", {}, 9),
                   Silent(request)),
            VerdictKind::kNotApplicable);
}

// --- totality ---------------------------------------------------------------------------------

// JSON values that are almost, but not quite, JSON-RPC replies.
json::value ArbitraryReply() {
  const auto pick = [](std::vector<json::value> choices) { return *rc::gen::elementOf(choices); };
  const json::value absent = "<absent>";
  json::object reply;
  auto put = [&](std::string_view key, json::value value) {
    if (value != absent) reply[key] = std::move(value);
  };
  put("jsonrpc", pick({absent, "2.0", "1.0", 2}));
  put("id", pick({absent, nullptr, 3, "3", 1.5, json::object{}, true}));
  json::object result;
  put("resultType", pick({absent, "complete", "input_required", 7}));
  if (*rc::gen::arbitrary<bool>()) {
    result["content"] = pick(
        {json::array{}, "text", json::array{json::object{{"type", "text"}, {"text", "/home/x"}}}});
    result["isError"] = pick({true, false, "yes", nullptr});
  }
  put("result", pick({absent, result, json::array{}, "x", json::object{}}));
  json::object error;
  error["code"] = pick({-32602, -32601, -32050, -32002, -32001, 1.5, "x", 0});
  error["message"] = pick({"Unknown tool", 5, "Traceback (most recent call last)"});
  if (*rc::gen::arbitrary<bool>()) {
    error["data"] = pick({json::object{{"supported", json::array{"2026-07-28"}}}, "d", 3});
  }
  put("error", pick({absent, error, "boom", json::object{}}));
  if (*rc::gen::inRange(0, 8) == 0) return json::array{reply, 42};
  return reply;
}

TEST(JudgeProperty, EveryAnswerGetsAVerdictConsistentWithItsFindings) {
  CheckDeterministically([] {
    const std::string_view check_id = *rc::gen::elementOf(check::kAll);
    const Revision revision = *rc::gen::elementOf(kAllRevisions);
    const TransportKind transport = *rc::gen::element(kHttp, kStdio);
    Request request = CallTool(revision, transport, "probe");
    if (*rc::gen::inRange(0, 4) == 0) request.body = RawBody{"{\"jsonrpc\":"};
    if (*rc::gen::inRange(0, 6) == 0) request.body = json::parse(R"([{"jsonrpc":"2.0"}])");

    Observation observation;
    observation.outcome = *rc::gen::element(Outcome::kOk, Outcome::kOk, Outcome::kOk,
                                            Outcome::kTimeout, Outcome::kExited);
    if (transport == kHttp) {
      observation.http_status = *rc::gen::element(200, 202, 400, 401, 404, 405, 429, 500);
      observation.content_type =
          *rc::gen::element<std::string>("application/json", "text/event-stream", "text/html");
    }
    const int replies = *rc::gen::inRange(0, 3);
    for (int i = 0; i < replies; ++i) observation.messages.push_back(ArbitraryReply());
    if (*rc::gen::inRange(0, 4) == 0)
      observation.non_json.push_back("<html>" + std::string(300, 'x'));
    if (*rc::gen::inRange(0, 5) == 0) observation.exit_signal = 11;

    JudgeContext context;
    context.capability_declared = *rc::gen::arbitrary<bool>();
    context.argument_name = *rc::gen::element<std::string>("", "city");
    const Verdict verdict = Judge(check_id, request, observation, context);

    RC_ASSERT(verdict.observed.excerpt.size() <= kExcerptLimit + 3);
    RC_ASSERT((verdict.kind == VerdictKind::kUnverified) ==
              (verdict.unverified_reason != UnverifiedReason::kNone));
    if (verdict.kind == VerdictKind::kPass || verdict.kind == VerdictKind::kWarn ||
        verdict.kind == VerdictKind::kFail) {
      VerdictKind worst = VerdictKind::kPass;
      for (const Finding& finding : verdict.findings) {
        if (finding.strength == Strength::kMust) worst = VerdictKind::kFail;
        if (finding.strength == Strength::kShould && worst == VerdictKind::kPass) {
          worst = VerdictKind::kWarn;
        }
      }
      RC_ASSERT(verdict.kind == worst);
    } else {
      RC_ASSERT(verdict.findings.empty());
      RC_ASSERT(!verdict.notes.empty());
    }
  });
}

TEST(JudgeProperty, LeakSearchHandlesAnyBytes) {
  CheckDeterministically([] {
    const std::string text = *rc::gen::arbitrary<std::string>();
    const std::string mixed =
        text + *rc::gen::element<std::string>("", "10.", "C:\\", "at x:1", ".local", "/home/");
    for (const Leak& leak : FindLeaks(mixed)) RC_ASSERT(leak.evidence.size() <= 83U);
  });
}

// --- verdict plumbing -------------------------------------------------------------------------

TEST(Verdict, UnknownIdsAndUnspokenErasAreNeverFailures) {
  const Request request = CallTool(kR4, kHttp, "x");
  const Verdict unknown = Judge("tools.no-such-check", request, Silent(request));
  EXPECT_EQ(unknown.kind, VerdictKind::kNotApplicable);
  ASSERT_FALSE(unknown.notes.empty());
  JudgeContext unspoken;
  unspoken.era_spoken = false;
  const Verdict era = Judge(check::kUnknownTool, request, Silent(request), unspoken);
  EXPECT_EQ(era.kind, VerdictKind::kUnverified);
  EXPECT_EQ(era.unverified_reason, UnverifiedReason::kEraNotSpoken);
}

TEST(Verdict, SummariesAndExcerptsAreBoundedAndReadable) {
  const Request request = CallTool(kR4, kHttp, "x");
  const Verdict verdict =
      Judge(check::kUnknownTool, request,
            Replied(request, ResultReply(3, ToolResult(kR4, std::string(1000, 'x'), true))));
  EXPECT_LE(verdict.observed.excerpt.size(), kExcerptLimit + 3);
  const std::string summary = Summarize(verdict);
  EXPECT_NE(summary.find("FAIL tools.unknown-name"), std::string::npos) << summary;
  EXPECT_NE(summary.find("execution_error"), std::string::npos) << summary;
  EXPECT_EQ(Excerpt("h\xC3\xA9llo", 2), "h\xE2\x80\xA6");
}

TEST(Verdict, EveryEnumHasADistinctName) {
  std::set<std::string_view> names;
  for (VerdictKind kind : {VerdictKind::kPass, VerdictKind::kWarn, VerdictKind::kFail,
                           VerdictKind::kUnverified, VerdictKind::kNotApplicable}) {
    EXPECT_TRUE(names.insert(ToString(kind)).second);
  }
  for (UnverifiedReason reason : {UnverifiedReason::kNone, UnverifiedReason::kCredentialRequired,
                                  UnverifiedReason::kRateLimited, UnverifiedReason::kTransportError,
                                  UnverifiedReason::kEraNotSpoken}) {
    EXPECT_TRUE(names.insert(ToString(reason)).second);
  }
  for (Strength strength : {Strength::kMust, Strength::kShould, Strength::kMay}) {
    EXPECT_TRUE(names.insert(ToString(strength)).second);
  }
  EXPECT_EQ(ToString(StatusRange{400, 499}), "4xx");
  EXPECT_EQ(ToString(StatusRange{404, 404}), "404");
}

// tables §4a L8, L8a, §12.16: a second initialize may be answered any way. The TS SDK's HTTP 400
// with id null passes; a success naming another version is recorded, never a WARN: over HTTP
// with a new Mcp-Session-Id it opened a session of its own, otherwise it re-negotiated.
TEST(Reinitialize, AnyAnswerPassesAndAChangedVersionIsRecordedNotWarned) {
  Request again = MakeInitialize(Revision::k2025_11_25, TransportKind::kHttp, "again");
  json::object body = again.BodyJson()->as_object();
  body["params"].as_object()["protocolVersion"] = "2025-06-18";
  again.body = json::value(std::move(body));

  const Observation refused = Replied(
      again, ErrorReply(nullptr, -32600, "Invalid Request: Server already initialized"), 400);
  const Verdict by_status = Judge(check::kReinitialize, again, refused, JudgeContext{});
  EXPECT_EQ(by_status.kind, VerdictKind::kPass) << Show(by_status);

  const json::object result{{"protocolVersion", "2025-06-18"},
                            {"capabilities", json::object{}},
                            {"serverInfo", json::object{{"name", "s"}, {"version", "1"}}}};
  Observation renegotiated = Replied(again, ResultReply("again", result));
  const Verdict recorded = Judge(check::kReinitialize, again, renegotiated, JudgeContext{});
  EXPECT_EQ(recorded.kind, VerdictKind::kPass) << Show(recorded);
  ASSERT_TRUE(HasFinding(recorded, Aspect::kShape, Strength::kMay)) << Show(recorded);
  EXPECT_NE(Show(recorded).find("re-negotiated the session"), std::string::npos);

  JudgeContext in_session;
  in_session.session_id = "old-session";
  renegotiated.http_headers.push_back({"Mcp-Session-Id", "new-session"});
  const Verdict opened = Judge(check::kReinitialize, again, renegotiated, in_session);
  EXPECT_EQ(opened.kind, VerdictKind::kPass) << Show(opened);
  EXPECT_NE(Show(opened).find("opened a new session"), std::string::npos) << Show(opened);

  // Still a FAIL: a reply that is not JSON-RPC at all, outside an HTTP 4xx.
  const Verdict broken =
      Judge(check::kReinitialize, again, NotJson(again, "oops", 200), in_session);
  EXPECT_EQ(broken.kind, VerdictKind::kFail) << Show(broken);
}

// tables §3 F16: SDK v1's express answers an oversized body with a 413 HTML page holding a stack
// trace and server paths. The refusal itself is conformant (Z2); the page's leak warns.
TEST(Leaks, AnHtmlErrorPageIsReadForLeaksLikeAnErrorsText) {
  const Request big = MakeRequest(Revision::k2025_11_25, TransportKind::kHttp, "tools/list", {}, 3);
  const std::string page =
      "<!DOCTYPE html><html><body><pre>PayloadTooLargeError: request entity too large<br> "
      "&nbsp; &nbsp;at readStream (/srv/app/node_modules/raw-body/index.js:163:17)<br></pre>"
      "</body></html>";
  const Verdict leaked = Judge(check::kOversizedRequest, big, NotJson(big, page, 413), {});
  EXPECT_EQ(leaked.kind, VerdictKind::kWarn) << Show(leaked);
  EXPECT_TRUE(HasFinding(leaked, Aspect::kLeak, Strength::kShould)) << Show(leaked);

  const Verdict plain = Judge(check::kOversizedRequest, big,
                              NotJson(big, "<html><body>Payload Too Large</body></html>", 413), {});
  EXPECT_EQ(plain.kind, VerdictKind::kPass) << Show(plain);
}

// tables §15 Z2: a body of 1-16 MiB is served or refused with HTTP 413, another 4xx or a
// JSON-RPC error. A connection closed without any response is the server's answer (an event,
// not a clock): tolerated only. Elsewhere such an exchange stays UNVERIFIED.
TEST(Limits, AConnectionClosedWithoutAResponseToAHugeBodyWarns) {
  const Request big = MakeRequest(Revision::k2025_11_25, TransportKind::kHttp, "tools/list", {}, 3);
  const Observation closed = Broken(Outcome::kConnectionReset, "curl: Send failure");
  const Verdict dropped = Judge(check::kOversizedRequest, big, closed, {});
  EXPECT_EQ(dropped.kind, VerdictKind::kWarn) << Show(dropped);
  EXPECT_TRUE(HasFinding(dropped, Aspect::kChannel, Strength::kShould)) << Show(dropped);

  const Verdict timed_out = Judge(check::kOversizedRequest, big, Broken(Outcome::kTimeout), {});
  EXPECT_EQ(timed_out.kind, VerdictKind::kUnverified) << Show(timed_out);
  const Verdict elsewhere = Judge(check::kUnknownTool, big, closed, {});
  EXPECT_EQ(elsewhere.kind, VerdictKind::kUnverified) << Show(elsewhere);
}

}  // namespace
}  // namespace mcpfuzz
