#include "refserver/refserver.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "model/model.h"
#include "model/text.h"

namespace mcpfuzz::refserver {
namespace {

namespace json = boost::json;

constexpr Revision kR2 = Revision::k2025_03_26;
constexpr Revision kR4 = Revision::k2025_11_25;
constexpr Revision kR5 = Revision::k2026_07_28;
constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;

json::value Json(std::string_view text) { return json::parse(text); }

std::int64_t CodeOf(const json::value& message) {
  return message.at("error").at("code").as_int64();
}

const json::object& ResultOf(const json::value& message) {
  return message.at("result").as_object();
}

std::string FirstText(const json::value& message) {
  return std::string(ResultOf(message).at("content").at(0).at("text").as_string());
}

// A reference server plus the bookkeeping a client would do (the HTTP session id).
class Client {
 public:
  explicit Client(FaultSet faults = {}) : server_(ServerOptions{std::move(faults)}) {}
  explicit Client(ServerOptions options) : server_(std::move(options)) {}

  ReferenceServer& server() { return server_; }

  StdioReply Stdio(std::string_view line) { return server_.HandleStdioLine(line); }
  StdioReply Stdio(const Request& request) { return Stdio(request.WireBody()); }
  // The single reply line of `request`, parsed.
  json::value StdioJson(const Request& request) {
    StdioReply reply = Stdio(request);
    EXPECT_EQ(reply.lines.size(), 1U) << request.WireBody();
    return reply.lines.empty() ? json::value() : Json(reply.lines.back());
  }
  json::value StdioJson(std::string_view line) {
    StdioReply reply = Stdio(line);
    EXPECT_EQ(reply.lines.size(), 1U) << line;
    return reply.lines.empty() ? json::value() : Json(reply.lines.back());
  }

  HttpReply Http(const Request& request) {
    refserver::HttpRequest exchange;
    exchange.method = request.http_method;
    exchange.headers = request.headers;
    exchange.body = request.WireBody();
    if (request.session == SessionBinding::kAttach && !session_.empty() &&
        !FindHeader(exchange.headers, kHeaderSessionId)) {
      exchange.headers.push_back({std::string(kHeaderSessionId), session_});
    }
    return server_.HandleHttp(exchange);
  }

  // Initializes over HTTP and keeps the session id for later requests.
  void OpenSession(Revision revision) {
    HttpReply reply = Http(MakeInitialize(revision, kHttp, 1));
    ASSERT_EQ(reply.status, 200) << reply.body;
    auto id = FindHeader(reply.headers, kHeaderSessionId);
    ASSERT_TRUE(id.has_value());
    session_ = std::string(*id);
  }
  const std::string& session() const { return session_; }

 private:
  ReferenceServer server_;
  std::string session_;
};

json::value BodyOf(const HttpReply& reply) { return Json(reply.body); }

Request Stateless(TransportKind transport, std::string_view method, json::object params = {},
                  json::value id = 7) {
  return MakeRequest(kR5, transport, method, std::move(params), std::move(id));
}

Request Handshake(Revision revision, TransportKind transport, std::string_view method,
                  json::object params = {}, json::value id = 7) {
  return MakeRequest(revision, transport, method, std::move(params), std::move(id));
}

Request CallTool(Revision revision, TransportKind transport, std::string_view name,
                 json::object arguments = {}) {
  json::object params{{"name", name}, {"arguments", std::move(arguments)}};
  return MakeRequest(revision, transport, "tools/call", std::move(params), 7);
}

// A stateless request whose _meta is edited after building.
Request WithMeta(Request request, const std::function<void(json::object&)>& edit) {
  auto& params = std::get<json::value>(request.body).as_object()["params"].as_object();
  edit(params["_meta"].as_object());
  return request;
}

Request WithBody(Request request, std::string text) {
  request.body = RawBody{std::move(text)};
  return request;
}

// ---------------------------------------------------------------------------------------------
// Fault table

TEST(Faults, NamesAreUniqueKebabCaseAndRoundTrip) {
  std::set<std::string_view> names;
  ASSERT_GE(AllFaults().size(), 16U);
  for (const FaultInfo& info : AllFaults()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_EQ(info.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-"),
              std::string_view::npos)
        << info.name;
    EXPECT_FALSE(info.description.empty());
    EXPECT_EQ(FaultFromName(info.name), info.fault);
    EXPECT_EQ(ToString(info.fault), info.name);
  }
  EXPECT_FALSE(FaultFromName("Unknown-Tool-Is-Error").has_value());
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC framing, both transports

TEST(Framing, InvalidJsonIsAParseErrorWithNullId) {
  Client client;
  json::value reply = client.StdioJson("{\"jsonrpc\":\"2.0\",");
  EXPECT_EQ(CodeOf(reply), -32700);
  EXPECT_TRUE(reply.at("id").is_null());

  HttpReply http = client.Http(WithBody(Stateless(kHttp, "tools/list"), "{oops"));
  EXPECT_EQ(http.status, 400);
  EXPECT_EQ(CodeOf(BodyOf(http)), -32700);
  EXPECT_TRUE(BodyOf(http).at("id").is_null());
}

TEST(Framing, NonObjectsAndBadMembersAreInvalidRequests) {
  Client client;
  for (std::string_view line : {"42", "\"x\"", "null"}) {
    json::value reply = client.StdioJson(line);
    EXPECT_EQ(CodeOf(reply), -32600) << line;
    EXPECT_TRUE(reply.at("id").is_null()) << line;
  }
  json::value no_version = client.StdioJson(R"({"id":3,"method":"ping"})");
  EXPECT_EQ(CodeOf(no_version), -32600);
  EXPECT_EQ(no_version.at("id"), json::value(3));
  EXPECT_EQ(CodeOf(client.StdioJson(R"({"jsonrpc":"1.0","id":3,"method":"ping"})")), -32600);
  EXPECT_EQ(CodeOf(client.StdioJson(R"({"jsonrpc":"2.0","id":"a","method":5})")), -32600);
  for (std::string_view id : {"null", "1.5", "true", "{}", "[]"}) {
    json::value reply =
        client.StdioJson(R"({"jsonrpc":"2.0","method":"ping","id":)" + std::string(id) + "}");
    EXPECT_EQ(CodeOf(reply), -32600) << id;
    EXPECT_TRUE(reply.at("id").is_null()) << id;
  }
  json::value params = client.StdioJson(R"({"jsonrpc":"2.0","id":4,"method":"ping","params":[]})");
  EXPECT_EQ(CodeOf(params), -32602);
  EXPECT_EQ(params.at("id"), json::value(4));
}

TEST(Framing, NestingUpToTheLimitIsServedAndBeyondIsAParseError) {
  Client client;
  client.Stdio(MakeInitialize(kR4, kStdio, 1).WireBody());
  std::string deep = std::string(200, '[') + std::string(200, ']');
  json::value served = client.StdioJson(
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":)" +
      deep + "}}}");
  EXPECT_EQ(ResultOf(served).at("isError"), json::value(true));
  std::string too_deep = std::string(2000, '[') + std::string(2000, ']');
  EXPECT_EQ(CodeOf(client.StdioJson(too_deep)), -32700);
}

TEST(Framing, BlankStdioLinesAreIgnored) {
  Client client;
  EXPECT_TRUE(client.Stdio("").lines.empty());
  EXPECT_TRUE(client.Stdio("  \r").lines.empty());
}

// ---------------------------------------------------------------------------------------------
// Handshake era

TEST(Handshake, InitializeAnswersTheRequestedSupportedRevision) {
  for (Revision revision : {Revision::k2024_11_05, kR2, Revision::k2025_06_18, kR4}) {
    Client client;
    json::value reply = client.StdioJson(MakeInitialize(revision, kStdio, 1));
    const json::object& result = ResultOf(reply);
    EXPECT_EQ(result.at("protocolVersion"), json::value(ToString(revision)));
    EXPECT_TRUE(result.at("capabilities").as_object().contains("tools"));
    EXPECT_TRUE(result.at("capabilities").as_object().contains("logging"));
    EXPECT_EQ(result.at("serverInfo").at("name"), json::value("mcpfuzz-refserver"));
    EXPECT_EQ(result.contains("instructions"), revision != Revision::k2024_11_05);
  }
}

TEST(Handshake, InitializeWithAnUnsupportedRevisionAnswersTheLatest) {
  for (std::string_view asked : {"1900-01-01", "1.0.0", "2026-07-28"}) {
    Client client;
    Request request = MakeInitialize(kR4, kStdio, 1);
    std::get<json::value>(request.body).as_object()["params"].as_object()["protocolVersion"] =
        asked;
    EXPECT_EQ(ResultOf(client.StdioJson(request)).at("protocolVersion"), json::value("2025-11-25"))
        << asked;
  }
}

TEST(Handshake, PingWorksBeforeInitializeAndASecondInitializeIsRejected) {
  Client client;
  EXPECT_EQ(ResultOf(client.StdioJson(Handshake(kR4, kStdio, "ping"))), json::object{});
  // Before initialize and without _meta: no code is defined; this server asks for _meta.
  EXPECT_EQ(CodeOf(client.StdioJson(Handshake(kR4, kStdio, "tools/list"))), -32602);
  client.StdioJson(MakeInitialize(kR4, kStdio, 1));
  EXPECT_EQ(CodeOf(client.StdioJson(MakeInitialize(kR4, kStdio, 2))), -32600);
  EXPECT_TRUE(
      client.Stdio(MakeNotification(kR4, kStdio, "notifications/initialized")).lines.empty());
  EXPECT_EQ(ResultOf(client.StdioJson(Handshake(kR4, kStdio, "tools/list")))
                .at("tools")
                .as_array()
                .size(),
            3U);
}

TEST(Handshake, MethodLevelAnswers) {
  Client client;
  client.StdioJson(MakeInitialize(kR4, kStdio, 1));
  json::value unknown_tool = client.StdioJson(CallTool(kR4, kStdio, "no_such_tool"));
  EXPECT_EQ(CodeOf(unknown_tool), -32602);
  EXPECT_EQ(unknown_tool.at("error").at("message"), json::value("Unknown tool: no_such_tool"));
  EXPECT_EQ(CodeOf(client.StdioJson(Handshake(kR4, kStdio, "no/such_method"))), -32601);
  // A subscription (tables §7 R4s), ended at once: the requests after it carry no update.
  EXPECT_EQ(ResultOf(client.StdioJson(
                Handshake(kR4, kStdio, "resources/subscribe", {{"uri", "mcpfuzz://readme"}}))),
            json::object{});
  EXPECT_EQ(ResultOf(client.StdioJson(
                Handshake(kR4, kStdio, "resources/unsubscribe", {{"uri", "mcpfuzz://readme"}}))),
            json::object{});
  EXPECT_EQ(CodeOf(client.StdioJson(Handshake(kR4, kStdio, "tools/list", {{"cursor", "x"}}))),
            -32602);
  EXPECT_EQ(ResultOf(client.StdioJson(
                Handshake(kR4, kStdio, "logging/setLevel", {{"level", "warning"}}))),
            json::object{});
  EXPECT_EQ(
      CodeOf(client.StdioJson(Handshake(kR4, kStdio, "logging/setLevel", {{"level", "loud"}}))),
      -32602);
  json::value missing_resource =
      client.StdioJson(Handshake(kR4, kStdio, "resources/read", {{"uri", "mcpfuzz://nope"}}));
  EXPECT_EQ(CodeOf(missing_resource), -32002);
  EXPECT_EQ(missing_resource.at("error").at("data").at("uri"), json::value("mcpfuzz://nope"));
}

TEST(Handshake, ToolsPromptAndResource) {
  Client client;
  client.StdioJson(MakeInitialize(kR4, kStdio, 1));
  json::value echo = client.StdioJson(CallTool(kR4, kStdio, "echo", {{"message", "hi"}}));
  EXPECT_EQ(FirstText(echo), "hi");
  EXPECT_FALSE(ResultOf(echo).contains("isError"));
  EXPECT_EQ(FirstText(client.StdioJson(CallTool(kR4, kStdio, "add", {{"a", 2}, {"b", 40}}))), "42");
  json::value upstream = client.StdioJson(CallTool(kR4, kStdio, "fail_upstream"));
  EXPECT_EQ(ResultOf(upstream).at("isError"), json::value(true));
  EXPECT_EQ(FirstText(upstream), "upstream API timed out, retry in 30 seconds");

  json::value missing = client.StdioJson(CallTool(kR4, kStdio, "echo"));
  EXPECT_EQ(ResultOf(missing).at("isError"), json::value(true));
  EXPECT_NE(FirstText(missing).find("message"), std::string::npos);
  json::value wrong_type = client.StdioJson(CallTool(kR4, kStdio, "add", {{"a", "2"}, {"b", 1}}));
  EXPECT_EQ(ResultOf(wrong_type).at("isError"), json::value(true));
  EXPECT_NE(FirstText(wrong_type).find("'a'"), std::string::npos);
  EXPECT_EQ(CodeOf(client.StdioJson(
                Handshake(kR4, kStdio, "tools/call", {{"name", "echo"}, {"arguments", "x"}}))),
            -32602);

  json::value prompt = client.StdioJson(Handshake(
      kR4, kStdio, "prompts/get", {{"name", "greeting"}, {"arguments", {{"name", "Ada"}}}}));
  EXPECT_NE(json::serialize(ResultOf(prompt).at("messages")).find("Ada"), std::string::npos);
  EXPECT_EQ(CodeOf(client.StdioJson(Handshake(kR4, kStdio, "prompts/get", {{"name", "greeting"}}))),
            -32602);
  EXPECT_EQ(CodeOf(client.StdioJson(Handshake(kR4, kStdio, "prompts/get", {{"name", "nope"}}))),
            -32602);
  json::value readme =
      client.StdioJson(Handshake(kR4, kStdio, "resources/read", {{"uri", "mcpfuzz://readme"}}));
  EXPECT_EQ(ResultOf(readme).at("contents").at(0).at("mimeType"), json::value("text/plain"));
}

TEST(HandshakeHttp, SessionLifecycle) {
  Client client;
  client.OpenSession(kR4);
  for (char c : client.session()) EXPECT_TRUE(c >= 0x21 && c <= 0x7E);
  EXPECT_EQ(client.Http(MakeNotification(kR4, kHttp, "notifications/initialized")).status, 202);
  HttpReply ping = client.Http(Handshake(kR4, kHttp, "ping"));
  EXPECT_EQ(ping.status, 200);
  EXPECT_EQ(FindHeader(ping.headers, "Content-Type"), "application/json");

  Request without_session = Handshake(kR4, kHttp, "ping");
  without_session.session = SessionBinding::kOmit;
  EXPECT_EQ(client.Http(without_session).status, 400);
  Request wrong_session = Handshake(kR4, kHttp, "ping");
  wrong_session.headers.push_back({"Mcp-Session-Id", "not-a-session"});
  HttpReply not_found = client.Http(wrong_session);
  EXPECT_EQ(not_found.status, 404);
  EXPECT_EQ(CodeOf(BodyOf(not_found)), -32001);

  EXPECT_EQ(client.Http(MakeBodyless(kR4, "GET")).status, 405);
  EXPECT_EQ(client.Http(MakeBodyless(kR4, "PUT")).status, 405);
  EXPECT_EQ(client.Http(MakeBodyless(kR4, "DELETE")).status, 200);
  EXPECT_EQ(client.Http(Handshake(kR4, kHttp, "ping")).status, 404);
}

TEST(HandshakeHttp, RewindRestoresTheSessionsOfTheCheckpoint) {
  Client client;
  client.OpenSession(kR4);
  const std::string kept = client.session();
  client.server().Checkpoint();

  // What later requests can change: a new session, and the end of the kept one.
  Request another = MakeInitialize(Revision::k2025_06_18, kHttp, 2);
  another.session = SessionBinding::kOmit;
  const HttpReply opened = client.Http(another);
  ASSERT_EQ(opened.status, 200) << opened.body;
  const std::string added(FindHeader(opened.headers, kHeaderSessionId).value_or(""));
  ASSERT_FALSE(added.empty());
  ASSERT_NE(added, kept);
  Request end_kept = MakeBodyless(kR4, "DELETE");
  end_kept.headers.push_back({"Mcp-Session-Id", kept});
  ASSERT_EQ(client.Http(end_kept).status, 200);
  Request on_kept = Handshake(kR4, kHttp, "ping");
  on_kept.headers.push_back({"Mcp-Session-Id", kept});
  ASSERT_EQ(client.Http(on_kept).status, 404);

  client.server().Rewind();
  EXPECT_EQ(client.Http(on_kept).status, 200);
  Request on_added = Handshake(kR4, kHttp, "ping");
  on_added.headers.push_back({"Mcp-Session-Id", added});
  EXPECT_EQ(client.Http(on_added).status, 404);
  // A rewind keeps the checkpoint: the same state comes back every time.
  ASSERT_EQ(client.Http(end_kept).status, 200);
  client.server().Rewind();
  EXPECT_EQ(client.Http(on_kept).status, 200);
}

TEST(HandshakeStdio, RewindWithoutCheckpointForgetsInitialize) {
  Client client;
  // Before initialize a message without _meta gets the stateless era's -32602.
  EXPECT_EQ(CodeOf(client.StdioJson(Handshake(kR4, kStdio, "tools/list"))), -32602);
  ASSERT_TRUE(client.StdioJson(MakeInitialize(kR4, kStdio, 1)).as_object().contains("result"));
  EXPECT_TRUE(
      client.StdioJson(Handshake(kR4, kStdio, "tools/list")).as_object().contains("result"));
  client.server().Rewind();
  EXPECT_EQ(CodeOf(client.StdioJson(Handshake(kR4, kStdio, "tools/list"))), -32602);
  // And initialize is accepted again, as by a new server.
  EXPECT_TRUE(client.StdioJson(MakeInitialize(kR4, kStdio, 1)).as_object().contains("result"));
}

TEST(HandshakeHttp, HeaderRules) {
  Client client;
  client.OpenSession(kR4);
  HttpReply in_band = client.Http(CallTool(kR4, kHttp, "nope"));
  EXPECT_EQ(in_band.status, 200);
  EXPECT_EQ(CodeOf(BodyOf(in_band)), -32602);
  for (std::string_view version : {"2099-01-01", "garbage", "2026-07-28"}) {
    Request request = Handshake(kR4, kHttp, "ping");
    SetHeader(request.headers, kHeaderProtocolVersion, version);
    EXPECT_EQ(client.Http(request).status, 400) << version;
  }
  Request no_accept = Handshake(kR4, kHttp, "ping");
  SetHeader(no_accept.headers, "Accept", "text/html");
  EXPECT_EQ(client.Http(no_accept).status, 406);
  Request text_body = Handshake(kR4, kHttp, "ping");
  SetHeader(text_body.headers, "Content-Type", "text/plain");
  EXPECT_EQ(client.Http(text_body).status, 415);
  Request foreign = Handshake(kR4, kHttp, "ping");
  foreign.headers.push_back({"Origin", "http://evil.example"});
  EXPECT_EQ(client.Http(foreign).status, 403);
  Request local = Handshake(kR4, kHttp, "ping");
  local.headers.push_back({"Origin", "http://localhost:3000"});
  EXPECT_EQ(client.Http(local).status, 200);
  refserver::HttpRequest elsewhere{"POST", "/other", {}, "{}"};
  EXPECT_EQ(client.server().HandleHttp(elsewhere).status, 404);
}

Request Batch(Revision revision, std::string text) {
  Request request = Handshake(revision, kHttp, "ping");
  request.body = RawBody{std::move(text)};
  return request;
}

TEST(HandshakeHttp, BatchesOnlyIn2025_03_26) {
  Client r2;
  r2.OpenSession(kR2);
  HttpReply batch = r2.Http(Batch(kR2, R"([{"jsonrpc":"2.0","id":1,"method":"ping"},
      {"jsonrpc":"2.0","method":"notifications/initialized"},
      {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope"}}])"));
  EXPECT_EQ(batch.status, 200);
  ASSERT_TRUE(BodyOf(batch).is_array());
  ASSERT_EQ(BodyOf(batch).as_array().size(), 2U);
  EXPECT_EQ(CodeOf(BodyOf(batch).at(1)), -32602);
  EXPECT_EQ(
      r2.Http(Batch(kR2, R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])")).status,
      202);
  EXPECT_EQ(r2.Http(Batch(kR2, "[]")).status, 400);

  Client r4;
  r4.OpenSession(kR4);
  HttpReply rejected = r4.Http(Batch(kR4, R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"));
  EXPECT_EQ(rejected.status, 400);
  EXPECT_EQ(CodeOf(BodyOf(rejected)), -32600);
}

// ---------------------------------------------------------------------------------------------
// Stateless era: the validation ladder of section 10, step by step

TEST(StatelessHttp, Step1OnlyPost) {
  Client client;
  for (std::string_view method : {"GET", "DELETE", "PUT"}) {
    HttpReply reply = client.Http(MakeBodyless(kR5, method));
    EXPECT_EQ(reply.status, 405) << method;
    EXPECT_EQ(FindHeader(reply.headers, "Allow"), "POST");
  }
}

TEST(StatelessHttp, Step2Shape) {
  Client client;
  EXPECT_EQ(client.Http(WithBody(Stateless(kHttp, "tools/list"), "[1")).status, 400);
  for (std::string body : {std::string("[") + Stateless(kHttp, "tools/list").WireBody() + "]",
                           std::string(R"({"jsonrpc":"2.0","id":1,"result":{}})")}) {
    HttpReply reply = client.Http(WithBody(Stateless(kHttp, "tools/list"), body));
    EXPECT_EQ(reply.status, 400) << body;
    EXPECT_EQ(CodeOf(BodyOf(reply)), -32600) << body;
  }
}

TEST(StatelessHttp, Step3HeaderAgainstBody) {
  Client client;
  Request mismatch = WithMeta(Stateless(kHttp, "tools/list"),
                              [](json::object& meta) { meta[kMetaProtocolVersion] = "v999.0.0"; });
  HttpReply reply = client.Http(mismatch);
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(CodeOf(BodyOf(reply)), -32020);
  EXPECT_EQ(BodyOf(reply).at("id"), json::value(7));

  Request no_header = Stateless(kHttp, "tools/list");
  RemoveHeader(no_header.headers, kHeaderProtocolVersion);
  EXPECT_EQ(CodeOf(BodyOf(client.Http(no_header))), -32020);
}

// The HTTP front percent-decodes header values (`%aa` arrives as the byte 0xAA); the errors that
// quote a header must still be valid UTF-8, or the reply is not JSON-RPC at all.
TEST(StatelessHttp, ErrorsQuotingAHeaderStayValidJson) {
  Client client;
  const std::string undecodable = "aaaaaa\xAA";
  Request version = Stateless(kHttp, "tools/list");
  SetHeader(version.headers, kHeaderProtocolVersion, undecodable);
  Request method = Stateless(kHttp, "tools/list");
  SetHeader(method.headers, kHeaderMethod, undecodable);
  for (const Request& request : {version, method}) {
    HttpReply reply = client.Http(request);
    EXPECT_TRUE(IsValidUtf8(reply.body)) << reply.body;
    EXPECT_EQ(CodeOf(BodyOf(reply)), -32020) << reply.body;
  }
  Request handshake = Handshake(kR4, kHttp, "ping");
  SetHeader(handshake.headers, kHeaderProtocolVersion, undecodable);
  client.OpenSession(kR4);
  HttpReply reply = client.Http(handshake);
  EXPECT_EQ(reply.status, 400);
  EXPECT_TRUE(IsValidUtf8(reply.body)) << reply.body;
}

TEST(StatelessHttp, Step4UnsupportedVersion) {
  Client client;
  Request request = WithMeta(Stateless(kHttp, "tools/list"),
                             [](json::object& meta) { meta[kMetaProtocolVersion] = "1900-01-01"; });
  SetHeader(request.headers, kHeaderProtocolVersion, "1900-01-01");
  HttpReply reply = client.Http(request);
  EXPECT_EQ(reply.status, 400);
  json::value body = BodyOf(reply);
  EXPECT_EQ(CodeOf(body), -32022);
  EXPECT_FALSE(body.at("error").at("data").at("supported").as_array().empty());
  EXPECT_EQ(body.at("error").at("data").at("requested"), json::value("1900-01-01"));
}

TEST(StatelessHttp, Step5MetaEnvelope) {
  Client client;
  std::vector<Request> broken = {
      WithMeta(Stateless(kHttp, "tools/list"),
               [](json::object& meta) { meta.erase(kMetaProtocolVersion); }),
      WithMeta(Stateless(kHttp, "tools/list"),
               [](json::object& meta) { meta.erase(kMetaClientCapabilities); }),
      WithMeta(Stateless(kHttp, "tools/list"),
               [](json::object& meta) { meta["io.modelcontextprotocol/logLevel"] = "loud"; }),
  };
  Request no_meta = Stateless(kHttp, "tools/list");
  std::get<json::value>(no_meta.body).as_object()["params"].as_object().erase("_meta");
  broken.push_back(no_meta);
  for (const Request& request : broken) {
    HttpReply reply = client.Http(request);
    EXPECT_EQ(reply.status, 400) << request.WireBody();
    EXPECT_EQ(CodeOf(BodyOf(reply)), -32602) << request.WireBody();
  }
  Request no_client_info = WithMeta(Stateless(kHttp, "tools/list"),
                                    [](json::object& meta) { meta.erase(kMetaClientInfo); });
  EXPECT_EQ(client.Http(no_client_info).status, 200);
}

TEST(StatelessHttp, Step6StandardHeaders) {
  Client client;
  auto code_of = [&](Request request) {
    HttpReply reply = client.Http(request);
    return std::pair(reply.status, CodeOf(BodyOf(reply)));
  };
  Request no_method = Stateless(kHttp, "tools/list");
  RemoveHeader(no_method.headers, kHeaderMethod);
  EXPECT_EQ(code_of(no_method), std::pair(400, std::int64_t{-32020}));
  Request upper = Stateless(kHttp, "tools/list");
  SetHeader(upper.headers, kHeaderMethod, "TOOLS/LIST");
  EXPECT_EQ(code_of(upper), std::pair(400, std::int64_t{-32020}));
  Request other_name = CallTool(kR5, kHttp, "echo", {{"message", "x"}});
  SetHeader(other_name.headers, kHeaderName, "add");
  EXPECT_EQ(code_of(other_name), std::pair(400, std::int64_t{-32020}));
  Request no_name = CallTool(kR5, kHttp, "echo", {{"message", "x"}});
  RemoveHeader(no_name.headers, kHeaderName);
  EXPECT_EQ(code_of(no_name), std::pair(400, std::int64_t{-32020}));
  Request bad_base64 = CallTool(kR5, kHttp, "echo", {{"message", "x"}});
  SetHeader(bad_base64.headers, kHeaderName, "=?base64?!!!?=");
  EXPECT_EQ(code_of(bad_base64), std::pair(400, std::int64_t{-32020}));

  Request padded = CallTool(kR5, kHttp, "echo", {{"message", "x"}});
  SetHeader(padded.headers, kHeaderName, "  echo\t");
  EXPECT_EQ(client.Http(padded).status, 200);
  Request encoded = CallTool(kR5, kHttp, "echo", {{"message", "x"}});
  SetHeader(encoded.headers, kHeaderName, "=?base64?ZWNobw==?=");
  EXPECT_EQ(client.Http(encoded).status, 200);
  Request uri = Stateless(kHttp, "resources/read", {{"uri", "mcpfuzz://readme"}});
  SetHeader(uri.headers, kHeaderName, "mcpfuzz://other");
  EXPECT_EQ(code_of(uri), std::pair(400, std::int64_t{-32020}));
}

TEST(StatelessHttp, Step9UnknownMethodsAre404AndHandlerErrorsStayInBand) {
  Client client;
  for (std::string_view method : {"initialize", "ping", "logging/setLevel", "resources/subscribe",
                                  "resources/unsubscribe", "no/such_method"}) {
    Request request = Stateless(kHttp, method);
    // MakeRequest leaves MCP-Protocol-Version off every initialize, 2026-07-28 included.
    SetHeader(request.headers, kHeaderProtocolVersion, "2026-07-28");
    HttpReply reply = client.Http(request);
    EXPECT_EQ(reply.status, 404) << method;
    EXPECT_EQ(CodeOf(BodyOf(reply)), -32601) << method;
  }
  HttpReply unknown_tool = client.Http(CallTool(kR5, kHttp, "no_such_tool"));
  EXPECT_EQ(unknown_tool.status, 200);
  EXPECT_EQ(CodeOf(BodyOf(unknown_tool)), -32602);
  HttpReply cursor = client.Http(Stateless(kHttp, "prompts/list", {{"cursor", "abc"}}));
  EXPECT_EQ(cursor.status, 200);
  EXPECT_EQ(CodeOf(BodyOf(cursor)), -32602);
  HttpReply resource = client.Http(Stateless(kHttp, "resources/read", {{"uri", "mcpfuzz://x"}}));
  EXPECT_EQ(resource.status, 200);
  EXPECT_EQ(CodeOf(BodyOf(resource)), -32602);
  EXPECT_EQ(BodyOf(resource).at("error").at("data").at("uri"), json::value("mcpfuzz://x"));
}

TEST(StatelessHttp, TheFirstFailingStepDecides) {
  Client client;
  // Header mismatch (step 3) wins over a missing clientCapabilities (step 5).
  Request both = WithMeta(Stateless(kHttp, "tools/list"), [](json::object& meta) {
    meta[kMetaProtocolVersion] = "v999.0.0";
    meta.erase(kMetaClientCapabilities);
  });
  EXPECT_EQ(CodeOf(BodyOf(client.Http(both))), -32020);
  // Unsupported version (step 4) wins over a missing Mcp-Method (step 6).
  Request old = WithMeta(Stateless(kHttp, "tools/list"),
                         [](json::object& meta) { meta[kMetaProtocolVersion] = "2025-11-25"; });
  SetHeader(old.headers, kHeaderProtocolVersion, "2025-11-25");
  RemoveHeader(old.headers, kHeaderMethod);
  EXPECT_EQ(CodeOf(BodyOf(client.Http(old))), -32022);
  // Missing _meta (step 5) wins over an unknown method (step 9).
  Request unknown = WithMeta(Stateless(kHttp, "ping"),
                             [](json::object& meta) { meta.erase(kMetaClientCapabilities); });
  EXPECT_EQ(CodeOf(BodyOf(client.Http(unknown))), -32602);
}

TEST(StatelessHttp, NotificationsAre202AndSessionsAreIgnored) {
  Client client;
  HttpReply reply = client.Http(MakeNotification(kR5, kHttp, "notifications/cancelled"));
  EXPECT_EQ(reply.status, 202);
  EXPECT_TRUE(reply.body.empty());
  Request with_session = Stateless(kHttp, "tools/list");
  with_session.headers.push_back({"Mcp-Session-Id", "whatever"});
  HttpReply served = client.Http(with_session);
  EXPECT_EQ(served.status, 200);
  EXPECT_FALSE(FindHeader(served.headers, kHeaderSessionId).has_value());
}

// --server-info: what every place that names the server says, in both eras.
TEST(ServerInfoOption, IsAnnouncedByInitializeAndEveryStatelessResult) {
  ServerOptions options;
  options.server_name = "@acme/mcp-sdk";
  options.server_version = "2.1.0";
  options.faults = {Fault::kRemovedMethodsServed};
  Client client(options);
  const json::value announced = json::parse(R"({"name":"@acme/mcp-sdk","version":"2.1.0"})");
  const json::value initialized = client.StdioJson(MakeInitialize(kR4, kStdio, 1));
  EXPECT_EQ(ResultOf(initialized).at("serverInfo"), announced);
  Client stateless(options);
  for (std::string_view method : {"server/discover", "tools/list", "initialize"}) {
    const json::value reply = stateless.StdioJson(Stateless(kStdio, method));
    const json::object& result = ResultOf(reply);
    const json::value& info = method == "initialize"
                                  ? result.at("serverInfo")
                                  : result.at("_meta").at("io.modelcontextprotocol/serverInfo");
    EXPECT_EQ(info, announced) << method;
  }
}

TEST(ServerInfoOption, TheCommandLineSplitsAtTheLastSlashAndRefusesNoVersion) {
  for (const char* bad : {"no-slash", "name/", "/1.0"}) {
    std::istringstream in;
    std::ostringstream out, err;
    EXPECT_EQ(RunCommandLine({"--server-info", bad}, in, out, err), 2) << bad;
    EXPECT_NE(err.str().find("--server-info needs NAME/VERSION"), std::string::npos) << err.str();
  }
  std::istringstream in(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
      "\n");
  std::ostringstream out, err;
  EXPECT_EQ(RunCommandLine({"--server-info", "@scope/pkg/0.6.3"}, in, out, err), 0) << err.str();
  EXPECT_NE(out.str().find(R"("serverInfo":{"name":"@scope/pkg","version":"0.6.3"})"),
            std::string::npos)
      << out.str();
}

TEST(Stateless, DiscoverAndResultShapes) {
  Client client;
  json::value discover = client.StdioJson(Stateless(kStdio, "server/discover"));
  const json::object& result = ResultOf(discover);
  EXPECT_EQ(result.begin()->key(), "resultType");
  EXPECT_EQ(result.at("resultType"), json::value("complete"));
  EXPECT_EQ(result.at("supportedVersions").as_array().size(), 5U);
  EXPECT_TRUE(result.at("capabilities").as_object().contains("tools"));
  EXPECT_FALSE(result.at("capabilities").as_object().contains("logging"));
  EXPECT_GE(result.at("ttlMs").as_int64(), 0);
  EXPECT_EQ(result.at("cacheScope"), json::value("public"));
  EXPECT_EQ(result.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name"),
            json::value("mcpfuzz-refserver"));

  for (std::string_view method :
       {"tools/list", "prompts/list", "resources/list", "resources/templates/list"}) {
    json::value reply = client.StdioJson(Stateless(kStdio, method));
    const json::object& list = ResultOf(reply);
    EXPECT_EQ(list.at("resultType"), json::value("complete")) << method;
    EXPECT_TRUE(list.contains("ttlMs") && list.contains("cacheScope")) << method;
  }
  json::value call_reply = client.StdioJson(CallTool(kR5, kStdio, "fail_upstream"));
  const json::object& call = ResultOf(call_reply);
  EXPECT_EQ(call.at("resultType"), json::value("complete"));
  EXPECT_EQ(call.at("isError"), json::value(true));
  EXPECT_FALSE(call.contains("ttlMs"));
}

TEST(StatelessStdio, LadderWithoutHttp) {
  Client client;
  Request no_meta = Stateless(kStdio, "tools/list");
  std::get<json::value>(no_meta.body).as_object().erase("params");
  EXPECT_EQ(CodeOf(client.StdioJson(no_meta)), -32602);
  Request old = WithMeta(Stateless(kStdio, "tools/list"),
                         [](json::object& meta) { meta[kMetaProtocolVersion] = "1900-01-01"; });
  EXPECT_EQ(CodeOf(client.StdioJson(old)), -32022);
  EXPECT_EQ(CodeOf(client.StdioJson(Stateless(kStdio, "ping"))), -32601);
  EXPECT_EQ(CodeOf(client.StdioJson(Stateless(kStdio, "initialize"))), -32601);
  EXPECT_TRUE(client.Stdio(MakeNotification(kR5, kStdio, "notifications/cancelled")).lines.empty());
  EXPECT_EQ(CodeOf(client.StdioJson(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")), -32600);
}

// ---------------------------------------------------------------------------------------------
// Fault switches: each makes exactly its one deviation; without it the answer is conformant.

// The reply to an unknown tool over stdio, after initialize.
StdioReply UnknownToolOverStdio(FaultSet faults) {
  Client client(std::move(faults));
  client.StdioJson(MakeInitialize(kR4, kStdio, 1));
  return client.Stdio(CallTool(kR4, kStdio, "nope"));
}

json::value OnlyLine(const StdioReply& reply) {
  EXPECT_EQ(reply.lines.size(), 1U);
  return reply.lines.empty() ? json::value() : Json(reply.lines.front());
}

TEST(FaultUnknownTool, EachSwitchChangesOnlyTheChannel) {
  EXPECT_EQ(CodeOf(OnlyLine(UnknownToolOverStdio({}))), -32602);

  json::value is_error = OnlyLine(UnknownToolOverStdio({Fault::kUnknownToolIsError}));
  EXPECT_EQ(ResultOf(is_error).at("isError"), json::value(true));

  json::value plain = OnlyLine(UnknownToolOverStdio({Fault::kUnknownToolPlainSuccess}));
  EXPECT_FALSE(ResultOf(plain).contains("isError"));
  EXPECT_EQ(FirstText(plain), "Unknown tool: nope");

  EXPECT_EQ(CodeOf(OnlyLine(UnknownToolOverStdio({Fault::kUnknownToolWrongCode}))), -32601);

  StdioReply html = UnknownToolOverStdio({Fault::kUnknownToolHtml});
  ASSERT_EQ(html.lines.size(), 1U);
  EXPECT_FALSE(ParseJson(html.lines.front()).has_value());

  StdioReply hang = UnknownToolOverStdio({Fault::kHangOnUnknownTool});
  EXPECT_TRUE(hang.lines.empty());
  EXPECT_EQ(hang.action, Action::kHang);
}

TEST(FaultUnknownTool, HtmlAndHangOverHttp) {
  Client html({Fault::kUnknownToolHtml});
  html.OpenSession(kR4);
  HttpReply page = html.Http(CallTool(kR4, kHttp, "nope"));
  EXPECT_EQ(page.status, 500);
  EXPECT_EQ(FindHeader(page.headers, "Content-Type")->substr(0, 9), "text/html");
  EXPECT_EQ(html.Http(CallTool(kR4, kHttp, "echo", {{"message", "ok"}})).status, 200);

  Client hang({Fault::kHangOnUnknownTool});
  EXPECT_EQ(hang.Http(CallTool(kR5, kHttp, "nope")).action, Action::kHang);
  EXPECT_EQ(hang.Http(CallTool(kR5, kHttp, "echo", {{"message", "ok"}})).action, Action::kNone);
}

TEST(FaultUnknownTool, WrongCodeKeepsStatus200InTheStatelessEra) {
  HttpReply reply = Client({Fault::kUnknownToolWrongCode}).Http(CallTool(kR5, kHttp, "nope"));
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(CodeOf(BodyOf(reply)), -32601);
}

TEST(Fault, InputValidationAsProtocolError) {
  for (Revision revision : {kR4, kR5}) {
    Client conformant;
    Client faulty({Fault::kInputValidationAsProtocolError});
    // A stdio connection initialize locked to the handshake era refuses enveloped requests
    // (tables §4b V16b): a 2026-07-28 call goes on a connection of its own.
    if (revision == kR4) {
      conformant.StdioJson(MakeInitialize(kR4, kStdio, 1));
      faulty.StdioJson(MakeInitialize(kR4, kStdio, 1));
    }
    EXPECT_EQ(ResultOf(conformant.StdioJson(CallTool(revision, kStdio, "echo"))).at("isError"),
              json::value(true));
    json::value error = faulty.StdioJson(CallTool(revision, kStdio, "echo"));
    EXPECT_EQ(CodeOf(error), -32602);
    EXPECT_NE(json::serialize(error).find("message"), std::string::npos);
  }
}

TEST(Fault, ParseErrorWrongId) {
  EXPECT_TRUE(Client().StdioJson("{").at("id").is_null());
  EXPECT_EQ(Client({Fault::kParseErrorWrongId}).StdioJson("{").at("id"), json::value(0));
}

TEST(Fault, InvalidRequestAccepted) {
  std::string_view line = R"({"id":3,"method":"ping"})";
  EXPECT_EQ(CodeOf(Client().StdioJson(line)), -32600);
  EXPECT_EQ(ResultOf(Client({Fault::kInvalidRequestAccepted}).StdioJson(line)), json::object{});
}

TEST(Fault, NotificationAnswered) {
  Request notification = MakeNotification(kR5, kHttp, "notifications/cancelled");
  EXPECT_EQ(Client().Http(notification).status, 202);
  HttpReply answered = Client({Fault::kNotificationAnswered}).Http(notification);
  EXPECT_EQ(answered.status, 200);
  EXPECT_TRUE(BodyOf(answered).as_object().contains("result"));

  Client stdio({Fault::kNotificationAnswered});
  stdio.StdioJson(MakeInitialize(kR4, kStdio, 1));
  EXPECT_EQ(stdio.Stdio(MakeNotification(kR4, kStdio, "notifications/initialized")).lines.size(),
            1U);
}

TEST(Fault, ErrorLeaksInternals) {
  std::string conformant = Client().Stdio(CallTool(kR5, kStdio, "nope")).lines.at(0);
  std::string leaky =
      Client({Fault::kErrorLeaksInternals}).Stdio(CallTool(kR5, kStdio, "nope")).lines.at(0);
  EXPECT_EQ(conformant.find("/srv/app/"), std::string::npos);
  EXPECT_NE(leaky.find("/srv/app/"), std::string::npos);
  EXPECT_NE(leaky.find(".internal."), std::string::npos);
  EXPECT_NE(leaky.find("    at "), std::string::npos);
  EXPECT_EQ(CodeOf(Json(leaky)), -32602);
}

TEST(Fault, CrashOnDeepNesting) {
  std::string deep = std::string(100, '[') + std::string(100, ']');
  EXPECT_EQ(CodeOf(Client().StdioJson(deep)), -32600);
  EXPECT_EQ(Client({Fault::kCrashOnDeepNesting}).Stdio(deep).action, Action::kCrash);
  EXPECT_EQ(Client({Fault::kCrashOnDeepNesting}).Stdio("[[1]]").action, Action::kNone);
  EXPECT_EQ(Client({Fault::kCrashOnDeepNesting}).Http(WithBody(Stateless(kHttp, "x"), deep)).action,
            Action::kCrash);
}

TEST(Fault, CrashOnLongId) {
  const json::value longest = json::string(4096, 'a');
  const json::value too_long = json::string(4097, 'a');
  // The conformant server echoes an id of any length.
  EXPECT_EQ(Client().StdioJson(Stateless(kStdio, "tools/list", {}, too_long)).at("id"), too_long);
  Client stdio({Fault::kCrashOnLongId});
  EXPECT_EQ(stdio.Stdio(Stateless(kStdio, "tools/list", {}, too_long)).action, Action::kCrash);
  EXPECT_EQ(stdio.StdioJson(Stateless(kStdio, "tools/list", {}, longest)).at("id"), longest);
  // A long integer is no string id: answered (whatever the answer), not a crash.
  const std::string digits = "1" + std::string(5000, '0');
  const std::string number_id = "{\"jsonrpc\":\"2.0\",\"id\":" + digits + ",\"method\":\"ping\"}";
  EXPECT_EQ(stdio.Stdio(number_id).action, Action::kNone);
  EXPECT_EQ(
      stdio.Stdio("[" + Stateless(kStdio, "tools/list", {}, too_long).WireBody() + "]").action,
      Action::kCrash);
  Client http({Fault::kCrashOnLongId});
  EXPECT_EQ(http.Http(Stateless(kHttp, "tools/list", {}, too_long)).action, Action::kCrash);
  EXPECT_EQ(http.Http(Stateless(kHttp, "tools/list", {}, longest)).status, 200);
}

TEST(Fault, ExitAfterInitialize) {
  EXPECT_EQ(Client().Stdio(MakeInitialize(kR4, kStdio, 1)).action, Action::kNone);
  Client stdio({Fault::kExitAfterInitialize});
  EXPECT_EQ(stdio.Stdio(Handshake(kR4, kStdio, "ping")).action, Action::kNone);
  StdioReply initialized = stdio.Stdio(MakeInitialize(kR4, kStdio, 1));
  EXPECT_EQ(initialized.action, Action::kExit);
  EXPECT_EQ(initialized.lines.size(), 1U);
  EXPECT_EQ(Client({Fault::kExitAfterInitialize}).Http(MakeInitialize(kR4, kHttp, 1)).action,
            Action::kExit);
  EXPECT_EQ(Client({Fault::kExitAfterInitialize}).Http(Stateless(kHttp, "server/discover")).action,
            Action::kExit);
}

TEST(Fault, LogsOnStdout) {
  EXPECT_EQ(Client().Stdio(Handshake(kR4, kStdio, "ping")).lines.size(), 1U);
  StdioReply reply = Client({Fault::kLogsOnStdout}).Stdio(Handshake(kR4, kStdio, "ping"));
  ASSERT_EQ(reply.lines.size(), 2U);
  EXPECT_FALSE(ParseJson(reply.lines[0]).has_value());
  EXPECT_TRUE(ParseJson(reply.lines[1]).has_value());
}

TEST(Fault, UnsupportedVersionEchoed) {
  Request request = MakeInitialize(kR4, kStdio, 1);
  std::get<json::value>(request.body).as_object()["params"].as_object()["protocolVersion"] =
      "1900-01-01";
  EXPECT_EQ(ResultOf(Client().StdioJson(request)).at("protocolVersion"), json::value("2025-11-25"));
  EXPECT_EQ(
      ResultOf(Client({Fault::kUnsupportedVersionEchoed}).StdioJson(request)).at("protocolVersion"),
      json::value("1900-01-01"));
}

TEST(Fault, PingMethodNotFound) {
  EXPECT_EQ(CodeOf(Client({Fault::kPingMethodNotFound}).StdioJson(Handshake(kR4, kStdio, "ping"))),
            -32601);
  Client http({Fault::kPingMethodNotFound});
  http.OpenSession(kR4);
  EXPECT_EQ(CodeOf(BodyOf(http.Http(Handshake(kR4, kHttp, "ping")))), -32601);
}

TEST(Fault, SessionNotEnforced) {
  for (Revision revision : {kR2, kR4}) {
    Request request = Handshake(revision, kHttp, "tools/list");
    EXPECT_EQ(Client().Http(request).status, 400);
    HttpReply served = Client({Fault::kSessionNotEnforced}).Http(request);
    EXPECT_EQ(served.status, 200);
    EXPECT_TRUE(ResultOf(BodyOf(served)).contains("tools"));
  }
}

TEST(Fault, StaleSessionServed) {
  Request request = Handshake(kR4, kHttp, "tools/list");
  request.headers.push_back({"Mcp-Session-Id", "deleted-session"});
  EXPECT_EQ(Client().Http(request).status, 404);
  EXPECT_EQ(Client({Fault::kStaleSessionServed}).Http(request).status, 200);
}

TEST(Fault, BatchRejectedIn2025_03_26) {
  Client faulty({Fault::kBatchRejectedIn2025_03_26});
  faulty.OpenSession(kR2);
  HttpReply reply = faulty.Http(Batch(kR2, R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"));
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(CodeOf(BodyOf(reply)), -32600);
}

TEST(Fault, OriginNotChecked) {
  Request request = Stateless(kHttp, "tools/list");
  request.headers.push_back({"Origin", "https://attacker.example"});
  EXPECT_EQ(Client().Http(request).status, 403);
  EXPECT_EQ(Client({Fault::kOriginNotChecked}).Http(request).status, 200);
}

TEST(Fault, MissingMetaServed) {
  Request request = WithMeta(Stateless(kHttp, "tools/list"),
                             [](json::object& meta) { meta.erase(kMetaClientCapabilities); });
  EXPECT_EQ(Client().Http(request).status, 400);
  EXPECT_EQ(Client({Fault::kMissingMetaServed}).Http(request).status, 200);
  Request bare = Stateless(kStdio, "tools/list");
  std::get<json::value>(bare.body).as_object().erase("params");
  EXPECT_EQ(ResultOf(Client({Fault::kMissingMetaServed}).StdioJson(bare)).at("resultType"),
            json::value("complete"));
}

TEST(Fault, HeaderMismatchServed) {
  Client faulty({Fault::kHeaderMismatchServed});
  Request version = WithMeta(Stateless(kHttp, "tools/list"),
                             [](json::object& meta) { meta[kMetaProtocolVersion] = "v999.0.0"; });
  EXPECT_EQ(CodeOf(BodyOf(faulty.Http(version))), -32022);
  Request name = CallTool(kR5, kHttp, "echo", {{"message", "x"}});
  SetHeader(name.headers, kHeaderName, "add");
  EXPECT_EQ(faulty.Http(name).status, 200);
  Request method = Stateless(kHttp, "tools/list");
  SetHeader(method.headers, kHeaderMethod, "prompts/list");
  EXPECT_EQ(faulty.Http(method).status, 200);
  RemoveHeader(method.headers, kHeaderMethod);
  EXPECT_EQ(CodeOf(BodyOf(faulty.Http(method))), -32020);
}

TEST(Fault, MethodHeaderCaseInsensitive) {
  Request request = Stateless(kHttp, "tools/list");
  SetHeader(request.headers, kHeaderMethod, "TOOLS/LIST");
  EXPECT_EQ(Client().Http(request).status, 400);
  EXPECT_EQ(Client({Fault::kMethodHeaderCaseInsensitive}).Http(request).status, 200);
}

TEST(Fault, UnsupportedVersionNoData) {
  Request request = WithMeta(Stateless(kStdio, "tools/list"),
                             [](json::object& meta) { meta[kMetaProtocolVersion] = "1900-01-01"; });
  json::value error = Client({Fault::kUnsupportedVersionNoData}).StdioJson(request);
  EXPECT_EQ(CodeOf(error), -32022);
  EXPECT_FALSE(error.at("error").as_object().contains("data"));
}

TEST(Fault, UnknownMethod200) {
  HttpReply reply = Client({Fault::kUnknownMethod200}).Http(Stateless(kHttp, "ping"));
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(CodeOf(BodyOf(reply)), -32601);
}

TEST(Fault, MissingResultType) {
  json::value reply =
      Client({Fault::kMissingResultType}).StdioJson(Stateless(kStdio, "tools/list"));
  EXPECT_FALSE(ResultOf(reply).contains("resultType"));
  EXPECT_TRUE(ResultOf(reply).contains("tools"));
}

TEST(Fault, ResourceNotFoundLegacyCode) {
  Request request = Stateless(kStdio, "resources/read", {{"uri", "mcpfuzz://nope"}});
  EXPECT_EQ(CodeOf(Client({Fault::kResourceNotFoundLegacyCode}).StdioJson(request)), -32002);
}

TEST(Fault, EraLockIgnored) {
  Client faulty({Fault::kEraLockIgnored});
  ASSERT_TRUE(ResultOf(faulty.StdioJson(Stateless(kStdio, "tools/list"))).contains("tools"));
  Request bare = Stateless(kStdio, "tools/list");
  std::get<json::value>(bare.body).as_object().erase("params");
  // Locked to 2026-07-28, yet served as a legacy request.
  EXPECT_TRUE(ResultOf(faulty.StdioJson(bare)).contains("tools"));
}

// ---------------------------------------------------------------------------------------------
// The dual-era front (--dual-era)

ServerOptions DualEra() {
  ServerOptions options;
  options.dual_era = true;
  return options;
}

Request EnvelopeLess(TransportKind transport, std::string_view method) {
  Request request = Stateless(transport, method);
  std::get<json::value>(request.body).as_object().erase("params");
  return request;
}

TEST(DualEraStdio, DiscoverDoesNotLockAndAnEnvelopeLessRequestOpensALegacyConnection) {
  Client client(DualEra());
  EXPECT_TRUE(ResultOf(client.StdioJson(Stateless(kStdio, "server/discover")))
                  .contains("supportedVersions"));
  EXPECT_TRUE(ResultOf(client.StdioJson(EnvelopeLess(kStdio, "tools/list"))).contains("tools"));
  // Locked to the handshake era now: an enveloped request is a conflicting claim.
  EXPECT_EQ(CodeOf(client.StdioJson(Stateless(kStdio, "tools/list"))), -32600);
  EXPECT_TRUE(client.Stdio(MakeNotification(kR5, kStdio, "notifications/cancelled")).lines.empty());
}

TEST(DualEraStdio, AServedEnvelopedRequestLocksTheModernEra) {
  Client client(DualEra());
  // A refused enveloped request locks nothing: the client may still fall back.
  Request old = WithMeta(Stateless(kStdio, "tools/list"),
                         [](json::object& meta) { meta[kMetaProtocolVersion] = "1900-01-01"; });
  EXPECT_EQ(CodeOf(client.StdioJson(old)), -32022);
  ASSERT_TRUE(ResultOf(client.StdioJson(Stateless(kStdio, "tools/list"))).contains("tools"));
  EXPECT_EQ(CodeOf(client.StdioJson(EnvelopeLess(kStdio, "tools/list"))), -32602);
  Request partial = WithMeta(Stateless(kStdio, "tools/list"),
                             [](json::object& meta) { meta.erase(kMetaClientCapabilities); });
  EXPECT_EQ(CodeOf(client.StdioJson(partial)), -32602);
  // initialize is no 2026-07-28 method (V6), and without an envelope it lacks _meta first (V1).
  EXPECT_EQ(CodeOf(client.StdioJson(Stateless(kStdio, "initialize"))), -32601);
  EXPECT_EQ(CodeOf(client.StdioJson(MakeInitialize(kR4, kStdio, 3))), -32602);
}

TEST(DualEraStdio, InitializeLocksTheHandshakeEraAndRewindUnlocks) {
  Client client(DualEra());
  client.server().Checkpoint();
  ASSERT_EQ(ResultOf(client.StdioJson(MakeInitialize(kR4, kStdio, 1))).at("protocolVersion"),
            json::value("2025-11-25"));
  EXPECT_EQ(CodeOf(client.StdioJson(Stateless(kStdio, "tools/list"))), -32600);
  client.server().Rewind();
  EXPECT_TRUE(ResultOf(client.StdioJson(Stateless(kStdio, "tools/list"))).contains("tools"));
}

// Without --dual-era each stdio message still goes to its own era, but a served enveloped
// request or initialize locks the connection against the other era (tables §4b V16a, V16b).
TEST(SplitEraStdio, AServedEnvelopedRequestRefusesALaterInitialize) {
  Client client;
  ASSERT_TRUE(ResultOf(client.StdioJson(Stateless(kStdio, "tools/list"))).contains("tools"));
  EXPECT_EQ(CodeOf(client.StdioJson(MakeInitialize(kR4, kStdio, 2))), -32602);
  // ping belongs to neither lock, and discover locks nothing.
  EXPECT_EQ(ResultOf(client.StdioJson(MakeRequest(kR4, kStdio, "ping", {}, 3))), json::object{});
  Client probed;
  ASSERT_TRUE(ResultOf(probed.StdioJson(Stateless(kStdio, "server/discover")))
                  .contains("supportedVersions"));
  EXPECT_EQ(ResultOf(probed.StdioJson(MakeInitialize(kR4, kStdio, 2))).at("protocolVersion"),
            json::value("2025-11-25"));
}

TEST(SplitEraStdio, InitializeRefusesALaterEnvelopedRequest) {
  Client client;
  ASSERT_TRUE(ResultOf(client.StdioJson(MakeInitialize(kR4, kStdio, 1))).contains("serverInfo"));
  EXPECT_EQ(CodeOf(client.StdioJson(Stateless(kStdio, "tools/list"))), -32600);
}

TEST(Fault, InitializeRelocksEra) {
  for (bool dual : {false, true}) {
    ServerOptions options = dual ? DualEra() : ServerOptions{};
    options.faults = {Fault::kInitializeRelocksEra};
    Client faulty(options);
    ASSERT_TRUE(ResultOf(faulty.StdioJson(Stateless(kStdio, "tools/list"))).contains("tools"));
    // Other envelope-less requests are still refused; initialize is served and re-locks.
    if (dual) {
      EXPECT_EQ(CodeOf(faulty.StdioJson(EnvelopeLess(kStdio, "tools/list"))), -32602);
    }
    EXPECT_TRUE(ResultOf(faulty.StdioJson(MakeInitialize(kR4, kStdio, 2))).contains("serverInfo"));
    EXPECT_EQ(CodeOf(faulty.StdioJson(Stateless(kStdio, "tools/list"))), -32600);
  }
}

TEST(Fault, EraSwitchAfterInitialize) {
  for (bool dual : {false, true}) {
    ServerOptions options = dual ? DualEra() : ServerOptions{};
    options.faults = {Fault::kEraSwitchAfterInitialize};
    Client faulty(options);
    ASSERT_TRUE(ResultOf(faulty.StdioJson(MakeInitialize(kR4, kStdio, 1))).contains("serverInfo"));
    EXPECT_EQ(ResultOf(faulty.StdioJson(Stateless(kStdio, "tools/list"))).at("resultType"),
              json::value("complete"));
  }
}

TEST(DualEraHttp, AnUnmarkedRequestGoesToTheLegacyLeg) {
  Request unmarked = EnvelopeLess(kHttp, "tools/list");
  RemoveHeader(unmarked.headers, kHeaderProtocolVersion);
  // Modern-only: refused for the missing envelope. Dual-era: the legacy leg, which wants a
  // session (H12).
  HttpReply modern_only = Client().Http(unmarked);
  EXPECT_EQ(modern_only.status, 400);
  EXPECT_EQ(CodeOf(BodyOf(modern_only)), -32602);
  HttpReply legacy = Client(DualEra()).Http(unmarked);
  EXPECT_EQ(legacy.status, 400);
  EXPECT_EQ(CodeOf(BodyOf(legacy)), -32000);
  Client session(DualEra());
  session.OpenSession(Revision::k2025_03_26);
  Request in_session = Handshake(Revision::k2025_03_26, kHttp, "tools/list");
  EXPECT_EQ(session.Http(in_session).status, 200);
  // A modern marker still decides: the header, or the envelope (then the header is missing).
  Request marked = EnvelopeLess(kHttp, "tools/list");
  EXPECT_EQ(CodeOf(BodyOf(Client(DualEra()).Http(marked))), -32602);
  Request enveloped = Stateless(kHttp, "tools/list");
  RemoveHeader(enveloped.headers, kHeaderProtocolVersion);
  EXPECT_EQ(CodeOf(BodyOf(Client(DualEra()).Http(enveloped))), -32020);
}

// ---------------------------------------------------------------------------------------------
// Fronts

TEST(ServeHttp, ServesOnLoopbackUntilStopped) {
  ReferenceServer server;
  auto handle = ServeHttp(server);
  ASSERT_TRUE(handle.ok()) << handle.error().message;
  EXPECT_GT(handle->port(), 0);
  EXPECT_EQ(handle->url(), "http://127.0.0.1:" + std::to_string(handle->port()) + "/mcp");

  httplib::Client http("127.0.0.1", handle->port());
  Request initialize = MakeInitialize(kR4, kHttp, 1);
  httplib::Headers headers = {{"Accept", "application/json, text/event-stream"}};
  auto reply = http.Post("/mcp", headers, initialize.WireBody(), "application/json");
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
  EXPECT_TRUE(reply->has_header("Mcp-Session-Id"));
  EXPECT_EQ(Json(reply->body).at("result").at("protocolVersion"), json::value("2025-11-25"));
  auto put = http.Put("/mcp", "", "application/json");
  ASSERT_TRUE(put);
  EXPECT_EQ(put->status, 405);

  handle->Stop();
  EXPECT_FALSE(handle->serving());
  EXPECT_FALSE(ServeHttp(server, "0.0.0.0").ok());
}

TEST(ServeHttp, StopReleasesAHangAndExitStopsServing) {
  ReferenceServer hang(ServerOptions{{Fault::kHangOnUnknownTool}});
  auto handle = ServeHttp(hang);
  ASSERT_TRUE(handle.ok());
  std::thread caller([port = handle->port()] {
    httplib::Client http("127.0.0.1", port);
    Request call = CallTool(kR5, kHttp, "nope");
    httplib::Headers headers;
    for (const Header& header : call.headers) {
      if (header.name != "Content-Type") headers.emplace(header.name, header.value);
    }
    http.Post("/mcp", headers, call.WireBody(), "application/json");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto started = std::chrono::steady_clock::now();
  handle->Stop();
  caller.join();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));

  ReferenceServer exiting(ServerOptions{{Fault::kExitAfterInitialize}});
  auto exit_handle = ServeHttp(exiting);
  ASSERT_TRUE(exit_handle.ok());
  httplib::Client http("127.0.0.1", exit_handle->port());
  auto reply = http.Post("/mcp", {{"Accept", "application/json"}},
                         MakeInitialize(kR4, kHttp, 1).WireBody(), "application/json");
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->status, 200);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (exit_handle->serving() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_FALSE(exit_handle->serving());
}

TEST(ServeStdio, AnswersLineByLineAndKeepsLogsOffStdout) {
  ReferenceServer server;
  std::istringstream in(MakeInitialize(kR4, kStdio, 1).WireBody() + "\n\n" +
                        MakeNotification(kR4, kStdio, "notifications/initialized").WireBody() +
                        "\n" + Handshake(kR4, kStdio, "tools/list").WireBody() + "\n");
  std::ostringstream out;
  std::ostringstream log;
  EXPECT_EQ(ServeStdio(server, in, out, log), 0);
  std::istringstream lines(out.str());
  std::string line;
  std::vector<json::value> replies;
  while (std::getline(lines, line)) replies.push_back(Json(line));
  ASSERT_EQ(replies.size(), 2U);
  EXPECT_EQ(replies[0].at("id"), json::value(1));
  EXPECT_EQ(replies[1].at("id"), json::value(7));
}

TEST(ServeStdio, ExitFaultStopsReadingAndHangSkipsTheRequest) {
  ReferenceServer exiting(ServerOptions{{Fault::kExitAfterInitialize}});
  std::istringstream in(MakeInitialize(kR4, kStdio, 1).WireBody() + "\n" +
                        Handshake(kR4, kStdio, "ping").WireBody() + "\n");
  std::ostringstream out;
  std::ostringstream log;
  EXPECT_EQ(ServeStdio(exiting, in, out, log), 0);
  std::string written = out.str();
  EXPECT_EQ(std::count(written.begin(), written.end(), '\n'), 1);
  EXPECT_FALSE(log.str().empty());

  ReferenceServer hanging(ServerOptions{{Fault::kHangOnUnknownTool}});
  std::istringstream calls(CallTool(kR5, kStdio, "nope").WireBody() + "\n" +
                           CallTool(kR5, kStdio, "echo", {{"message", "hi"}}).WireBody() + "\n");
  std::ostringstream answered;
  EXPECT_EQ(ServeStdio(hanging, calls, answered, log), 0);
  std::string replies = answered.str();
  EXPECT_EQ(std::count(replies.begin(), replies.end(), '\n'), 1);
  EXPECT_NE(replies.find("\"hi\""), std::string::npos);
}

TEST(ServeStdioDeathTest, CrashFaultAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ReferenceServer server(ServerOptions{{Fault::kCrashOnDeepNesting}});
  std::istringstream in(std::string(100, '[') + std::string(100, ']') + "\n");
  std::ostringstream out;
  std::ostringstream log;
  EXPECT_DEATH(ServeStdio(server, in, out, log), "");
}

}  // namespace
}  // namespace mcpfuzz::refserver
