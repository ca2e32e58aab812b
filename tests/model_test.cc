#include "model/model.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "model/text.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;

TEST(Request, RawBodyIsSentByteForByte) {
  Request request;
  request.body = RawBody{std::string("\xEF\xBB\xBF{\"jsonrpc\":\"2.0\"\n\xFF", 19)};
  EXPECT_EQ(request.WireBody(), std::get<RawBody>(request.body).bytes);
}

TEST(Request, JsonBodySerialisesCompactly) {
  Request request;
  request.body = json::parse(R"({"jsonrpc": "2.0", "id": 1, "method": "ping"})");
  EXPECT_EQ(request.WireBody(), R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  EXPECT_EQ(request.RpcMethod(), "ping");
  EXPECT_EQ(request.RpcId(), json::value(1));
  EXPECT_FALSE(request.IsNotification());
}

TEST(Request, HeadersKeepOrderDuplicatesAndCasing) {
  Headers headers = {{"mcp-method", "a"}, {"MCP-METHOD", "b"}, {"Accept", "x"}};
  EXPECT_EQ(FindHeader(headers, "Mcp-Method"), "a");
  SetHeader(headers, "Mcp-Method", "c");
  ASSERT_EQ(headers.size(), 2U);
  EXPECT_EQ(headers[0], (Header{"Mcp-Method", "c"}));
  EXPECT_EQ(RemoveHeader(headers, "accept"), 1U);
}

TEST(CaseFile, RoundTripsJsonRawUtf8AndRawBinaryBodies) {
  std::vector<Body> bodies = {NoBody{}, json::parse(R"({"a":[1,2]})"), RawBody{"{\"a\":[1,2]}"},
                              RawBody{std::string("\xFF\x00\xC0\x80", 4)}, RawBody{""}};
  for (const Body& body : bodies) {
    Request request;
    request.transport = TransportKind::kStdio;
    request.revision = Revision::k2025_03_26;
    request.headers = {{"X-A", "1"}, {"x-a", "2"}};
    request.body = body;
    request.session = SessionBinding::kOmit;
    auto decoded = RequestFromJson(json::parse(json::serialize(RequestToJson(request))));
    ASSERT_TRUE(decoded.ok()) << decoded.error().message;
    EXPECT_EQ(*decoded, request);
  }
}

TEST(CaseFile, RejectsMalformedCasesWithAReason) {
  auto decoded = RequestFromJson(json::parse(R"({"transport":"carrier-pigeon"})"));
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().message.find("transport"), std::string::npos);
  EXPECT_FALSE(RequestFromJson(json::parse(
                                   R"({"transport":"http","revision":"2025-11-25",
                                       "body_base64":"@@@"})"))
                   .ok());
}

TEST(RequestBuilder, StatelessRequestCarriesMetaAndMirrorHeaders) {
  Request request = MakeRequest(Revision::k2026_07_28, TransportKind::kHttp, "tools/call",
                                {{"name", "get weather"}, {"arguments", json::object{}}}, 7);
  const json::value body = *request.BodyJson();
  const auto& params = body.at("params").as_object();
  EXPECT_EQ(params.at("_meta").at(kMetaProtocolVersion), "2026-07-28");
  EXPECT_TRUE(params.at("_meta").at(kMetaClientCapabilities).is_object());
  EXPECT_EQ(FindHeader(request.headers, "mcp-method"), "tools/call");
  EXPECT_EQ(FindHeader(request.headers, "mcp-protocol-version"), "2026-07-28");
  EXPECT_EQ(FindHeader(request.headers, "mcp-name"), "get weather");
}

TEST(RequestBuilder, HandshakeInitializeHasNoVersionHeaderButLaterRequestsDo) {
  Request init = MakeInitialize(Revision::k2025_06_18, TransportKind::kHttp, 1);
  EXPECT_FALSE(FindHeader(init.headers, "MCP-Protocol-Version"));
  Request list = MakeRequest(Revision::k2025_06_18, TransportKind::kHttp, "tools/list", {}, 2);
  EXPECT_EQ(FindHeader(list.headers, "MCP-Protocol-Version"), "2025-06-18");
  EXPECT_FALSE(list.BodyJson()->as_object().contains("params"));
  Request old = MakeRequest(Revision::k2025_03_26, TransportKind::kHttp, "tools/list", {}, 2);
  EXPECT_FALSE(FindHeader(old.headers, "MCP-Protocol-Version"));
}

// A reproducer's sentinel goes after requests that may hold sentinels of their own (the one
// the run wrote behind a big line): it must not send an id twice.
TEST(RequestBuilder, TheSentinelAfterOthersIsNumberedPastThem) {
  constexpr Revision kRevision = Revision::k2025_11_25;
  constexpr TransportKind kStdio = TransportKind::kStdio;
  auto id_of = [](const Request& request) { return json::serialize(*request.RpcId()); };
  EXPECT_EQ(id_of(SentinelAfter({}, kRevision, kStdio)), R"("mcpfuzz-sentinel-1")");
  const std::vector<Request> requests = {
      MakeRequest(kRevision, kStdio, "ping", {}, 40), MakeSentinel(kRevision, kStdio, 7),
      MakeSentinel(kRevision, kStdio, 3),
      MakeHarmless(kRevision, kStdio, json::string("mcpfuzz-sentinel-x"))};
  const Request after = SentinelAfter(requests, kRevision, kStdio);
  EXPECT_EQ(id_of(after), R"("mcpfuzz-sentinel-8")");
  EXPECT_EQ(after.RpcMethod(), "ping");
}

TEST(HeaderValue, Base64FormRoundTripsAndRejectsGarbage) {
  EXPECT_EQ(EncodeHeaderValue("plain_name"), "plain_name");
  EXPECT_EQ(EncodeHeaderValue("Hello"), "Hello");
  EXPECT_EQ(EncodeHeaderValue(" Hello"), "=?base64?IEhlbGxv?=");
  EXPECT_EQ(EncodeHeaderValue("日本"), "=?base64?5pel5pys?=");
  for (std::string value : {"a", "ab", "abc", "\xE2\x82\xAC", " x ", "\n"}) {
    EXPECT_EQ(DecodeHeaderValue(EncodeHeaderValue(value)), value);
  }
  EXPECT_FALSE(DecodeHeaderValue("=?base64?SGVsbG8?="));  // length not a multiple of 4
  EXPECT_FALSE(DecodeHeaderValue("=?base64?SGVs!!!bG8=?="));
  EXPECT_EQ(DecodeHeaderValue("=?base64?SGVsbG8=?="), "Hello");
}

Observation WithMessages(std::initializer_list<const char*> texts) {
  Observation observation;
  for (const char* text : texts) observation.messages.push_back(json::parse(text));
  return observation;
}

TEST(Channel, ClassifiesTheThreeShapesOfAnUnknownToolAnswer) {
  Request request =
      MakeRequest(Revision::k2025_11_25, TransportKind::kHttp, "tools/call", {{"name", "nope"}}, 3);
  auto protocol = ClassifyReply(
      request, WithMessages({R"({"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"x"}})"}));
  EXPECT_EQ(protocol.channel, Channel::kProtocolError);
  EXPECT_EQ(protocol.error_code, -32602);
  auto execution = ClassifyReply(
      request,
      WithMessages({R"({"jsonrpc":"2.0","id":3,"result":{"content":[],"isError":true}})"}));
  EXPECT_EQ(execution.channel, Channel::kExecutionError);
  auto success =
      ClassifyReply(request, WithMessages({R"({"jsonrpc":"2.0","id":3,"result":{"content":[]}})"}));
  EXPECT_EQ(success.channel, Channel::kSuccess);
}

TEST(Channel, PicksTheResponseWithTheRequestIdOverNotificationsAndOtherIds) {
  Request request = MakeRequest(Revision::k2025_11_25, TransportKind::kStdio, "ping", {}, "b");
  auto reply = ClassifyReply(
      request,
      WithMessages({R"({"jsonrpc":"2.0","method":"notifications/message","params":{}})",
                    R"({"jsonrpc":"2.0","id":"a","result":{}})",
                    R"({"jsonrpc":"2.0","id":"b","error":{"code":-32601,"message":"m"}})"}));
  EXPECT_EQ(reply.channel, Channel::kProtocolError);
  EXPECT_EQ(reply.error_code, -32601);
}

TEST(Channel, MalformedEnvelopesAreNotJsonRpc) {
  Request request = MakeRequest(Revision::k2025_11_25, TransportKind::kStdio, "ping", {}, 1);
  for (const char* text :
       {R"({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}})",
        R"({"jsonrpc":"1.0","id":1,"result":{}})", R"({"jsonrpc":"2.0","id":1})",
        R"({"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}})",
        R"({"jsonrpc":"2.0","id":1,"error":{"code":-32600}})"}) {
    EXPECT_EQ(ClassifyReply(request, WithMessages({text})).channel, Channel::kNotJsonRpc) << text;
  }
  Observation html;
  html.http_status = 404;
  html.body = "<html>nope</html>";
  html.non_json.push_back(html.body);
  EXPECT_EQ(ClassifyReply(request, html).channel, Channel::kNotJsonRpc);
}

TEST(Channel, EmptyReplyIsNoReplyAndTransportFailuresStayApart) {
  Request request =
      MakeNotification(Revision::k2025_11_25, TransportKind::kHttp, "notifications/initialized");
  Observation accepted;
  accepted.http_status = 202;
  EXPECT_EQ(ClassifyReply(request, accepted).channel, Channel::kNoReply);
  Observation timed_out;
  timed_out.outcome = Outcome::kTimeout;
  EXPECT_EQ(ClassifyReply(request, timed_out).channel, Channel::kTransportFailure);
}

// A judged observation is kept at a constant cost: what is over the excerpt size is kept as its
// first bytes and its size, and each list keeps its first pieces.
TEST(KeptObservation, KeepsAnExcerptAndTheSizeOfWhatIsTooLarge) {
  Observation observation;
  observation.http_status = 200;
  observation.body = std::string(kExcerptBytes * 3, 'b');
  observation.messages.push_back(json::parse(R"({"jsonrpc":"2.0","id":1,"result":{}})"));
  json::object big{{"jsonrpc", "2.0"},
                   {"id", 2},
                   {"result", {{"padding", std::string(kExcerptBytes * 2, 'x')}}}};
  const std::size_t big_bytes = json::serialize(big).size();
  observation.messages.emplace_back(std::move(big));
  for (std::size_t i = 0; i < kKeptPieces + 5; ++i) observation.non_json.push_back("log line");
  observation.stdout_lines.assign(kKeptPieces + 1, std::string(kExcerptBytes + 10, 'l'));

  KeepExcerpts(observation);
  EXPECT_TRUE(observation.body.empty());
  ASSERT_EQ(observation.excerpts.size(), 2U);
  EXPECT_EQ(observation.excerpts[0].of, "body");
  EXPECT_EQ(observation.excerpts[0].bytes, kExcerptBytes * 3);
  EXPECT_EQ(observation.excerpts[0].text, std::string(kExcerptBytes, 'b'));
  EXPECT_EQ(observation.excerpts[1].of, "message");
  EXPECT_EQ(observation.excerpts[1].bytes, big_bytes);
  EXPECT_TRUE(observation.excerpts[1].text.starts_with(R"({"jsonrpc":"2.0","id":2,)"));
  ASSERT_EQ(observation.messages.size(), 1U);
  EXPECT_EQ(observation.non_json.size(), kKeptPieces);
  EXPECT_EQ(observation.left_out, 5U);
  EXPECT_EQ(observation.left_out_bytes, 5 * std::string("log line").size());
  EXPECT_EQ(observation.stdout_lines.size(), kKeptPieces);
  EXPECT_EQ(observation.stdout_lines.front().size(), kExcerptBytes);

  const json::object written = ObservationToJson(observation).as_object();
  EXPECT_FALSE(written.contains("body")) << "a body cut to an excerpt is not written as whole";
  EXPECT_EQ(written.at("excerpts").as_array().size(), 2U);
  EXPECT_EQ(written.at("excerpts").as_array()[0].at("bytes").to_number<std::size_t>(),
            kExcerptBytes * 3);
  EXPECT_EQ(written.at("left_out").at("pieces").to_number<std::size_t>(), 5U);
}

TEST(KeptObservation, CutsTextBeforeASplitCharacterAndKeepsSmallRepliesWhole) {
  Observation observation;
  // "é" is two bytes: placed across the cut, the excerpt ends before it.
  observation.non_json.push_back(std::string(kExcerptBytes - 1, 'a') + "\xC3\xA9" + "tail");
  observation.messages.push_back(json::parse(R"({"jsonrpc":"2.0","id":1,"result":{}})"));
  KeepExcerpts(observation);
  ASSERT_EQ(observation.excerpts.size(), 1U);
  EXPECT_EQ(observation.excerpts[0].text, std::string(kExcerptBytes - 1, 'a'));
  EXPECT_EQ(observation.excerpts[0].bytes, kExcerptBytes + 5);
  EXPECT_EQ(observation.messages.size(), 1U);
  EXPECT_EQ(observation.left_out, 0U);
  const json::object written = ObservationToJson(observation).as_object();
  EXPECT_TRUE(written.at("excerpts").as_array()[0].as_object().contains("text"))
      << "an excerpt cut at a character boundary stays text, not base64";
}

// "é" is two bytes: a cut after its first byte backs up to before it.
TEST(Utf8Prefix, NeverSplitsACharacter) {
  EXPECT_EQ(Utf8Prefix("ab", 5), "ab");
  EXPECT_EQ(Utf8Prefix("a\xC3\xA9", 3), "a\xC3\xA9");
  EXPECT_EQ(Utf8Prefix("a\xC3\xA9", 2), "a");
  EXPECT_EQ(Utf8Prefix("\xC3\xA9", 1), "");
}

// IsValidUtf8 reads ASCII eight bytes at a time: a sequence is judged the same wherever it
// falls against those eight-byte steps, and at the end of the text.
TEST(IsValidUtf8, JudgesASequenceAlikeAtEveryOffset) {
  const std::vector<std::pair<std::string, bool>> sequences = {
      {"\xC3\xA9", true},      {"\xE2\x82\xAC", true},  {"\xF0\x9F\x98\x80", true},
      {"\xFF", false},         {"\xC3", false},         {"\xC0\xAF", false},
      {"\xED\xA0\x80", false}, {"\xF0\x9F\x98", false}, {"\x80", false}};
  for (const auto& [sequence, valid] : sequences) {
    for (std::size_t before = 0; before <= 17; ++before) {
      for (std::size_t after : {0U, 1U, 7U, 8U, 9U}) {
        const std::string text = std::string(before, 'a') + sequence + std::string(after, 'b');
        EXPECT_EQ(IsValidUtf8(text), valid) << before << " bytes before, " << after << " after";
        // ToValidUtf8 reads byte by byte: it leaves exactly the valid texts as they are.
        EXPECT_EQ(IsValidUtf8(text), ToValidUtf8(text) == text);
      }
    }
  }
  EXPECT_TRUE(IsValidUtf8(std::string(1 << 20, 'a')));
  EXPECT_TRUE(IsValidUtf8(""));
}

}  // namespace
}  // namespace mcpfuzz
