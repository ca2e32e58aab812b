// The reference server reached through the real transports: the mcpfuzz-refserver program
// started as an HTTP server (libcurl transport) and as a stdio child process, in both eras.
// refserver_test.cc checks the handlers; this file checks that what they decide survives the
// trip through sockets, pipes and processes. Assertions are on raw observations (status,
// channel, error code, headers, outcome, exit status, stdout lines): judging them is for the
// oracles.
//
// Every fault switch has a scenario here, run once against a server started with the fault
// and once against a conformant one, so each deviation is seen to appear with its switch and
// only with it.

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <csignal>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "model/model.h"
#include "model/request_edit.h"
#include "model/sequence.h"
#include "oracles/oracles.h"
#include "refserver/faults.h"
#include "support/reference_server.h"
#include "transport/client.h"
#include "transport/server_process.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using refserver::AllFaults;
using refserver::Fault;
using refserver::FaultInfo;
using refserver::FaultSet;
using Clock = std::chrono::steady_clock;

constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;
constexpr Revision kStateless = Revision::k2026_07_28;
constexpr Revision kHandshake = Revision::k2025_11_25;
// The last revision with JSON-RPC batches.
constexpr Revision kBatchRevision = Revision::k2025_03_26;

// The reference server answers within milliseconds, so these only bound failures.
constexpr std::chrono::milliseconds kReplyTimeout{3000};
constexpr std::chrono::milliseconds kStartTimeout{5000};
// For scenarios where one request is never answered: short, so the run stays fast.
constexpr std::chrono::milliseconds kHangTimeout{300};
// Every notification over stdio (and so every handshake-era Open) waits out the whole quiet
// window; a short one keeps that cheap while leaving the server ample time to answer anyway.
constexpr std::chrono::milliseconds kQuietWindow{100};
// How long a dying server process may take to be gone after its connection dropped.
constexpr std::chrono::milliseconds kDeathTimeout{3000};

constexpr std::string_view kUnknownTool = "no_such_tool";
constexpr std::string_view kUnknownMethod = "no/such_method";
constexpr std::string_view kUnsupportedVersion = "1900-01-01";

Limits TestLimits(std::chrono::milliseconds timeout = kReplyTimeout) {
  return test_support::ReferenceServerLimits(timeout, kQuietWindow);
}

std::vector<std::string> RefServerArgv(TransportKind kind, const FaultSet& faults) {
  return test_support::RefServerArgv(kind, test_support::FaultNames(faults));
}

// One reference server process and a fresh transport to it.
struct Target {
  TransportKind kind = kHttp;
  // HTTP only. Declared before `transport` so the connection closes before the server stops.
  std::shared_ptr<HttpServerProcess> http_server;
  std::unique_ptr<Transport> transport;
  // Stdio only; the same object as `transport`.
  StdioTransport* stdio = nullptr;

  Observation Send(const Request& request) { return transport->Send(request); }
  bool ServerAlive() { return kind == kHttp ? http_server->Alive() : stdio->Alive(); }
};

Result<std::shared_ptr<HttpServerProcess>> StartHttpServer(const FaultSet& faults) {
  auto started = HttpServerProcess::Start(RefServerArgv(kHttp, faults), kStartTimeout);
  if (!started) return started.error();
  return std::make_shared<HttpServerProcess>(std::move(*started));
}

// The conformant HTTP server is shared by every test: sessions belong to clients, so tests
// cannot disturb one another, and it saves a process start and stop per test.
Result<std::shared_ptr<HttpServerProcess>> ConformantHttpServer() {
  static std::mutex mutex;
  static std::shared_ptr<HttpServerProcess> shared;
  std::lock_guard lock(mutex);
  if (!shared || !shared->Alive()) {
    auto started = StartHttpServer({});
    if (!started) return started.error();
    shared = *started;
  }
  return shared;
}

// Faulty HTTP servers stop together at the end of the fault tests: stopping one takes up to
// ~100 ms (its main loop polls for SIGTERM), far longer than a scenario spends using it.
class DeferredShutdown {
 public:
  void Keep(std::shared_ptr<HttpServerProcess> server) {
    std::lock_guard lock(mutex_);
    servers_.push_back(std::move(server));
  }
  // Stops every kept server whose last user is gone, all at once.
  void StopAll() {
    std::vector<std::shared_ptr<HttpServerProcess>> servers;
    {
      std::lock_guard lock(mutex_);
      servers.swap(servers_);
    }
    std::vector<std::thread> stops;
    for (auto& server : servers) {
      stops.emplace_back([stopping = std::move(server)]() mutable { stopping.reset(); });
    }
    for (std::thread& stop : stops) stop.join();
  }

 private:
  std::mutex mutex_;
  std::vector<std::shared_ptr<HttpServerProcess>> servers_;
};

DeferredShutdown& FaultyHttpServers() {
  static DeferredShutdown servers;
  return servers;
}

Result<Target> StartTarget(TransportKind kind, const FaultSet& faults,
                           Limits limits = TestLimits()) {
  Target target;
  target.kind = kind;
  if (kind == kHttp) {
    auto server = faults.empty() ? ConformantHttpServer() : StartHttpServer(faults);
    if (!server) return server.error();
    if (!faults.empty()) FaultyHttpServers().Keep(*server);
    target.http_server = std::move(*server);
    auto transport = OpenHttp(HttpTarget{target.http_server->url(), {}, false, limits});
    if (!transport) return transport.error();
    target.transport = std::move(*transport);
    return target;
  }
  StdioTarget stdio;
  stdio.argv = RefServerArgv(kStdio, faults);
  stdio.limits = limits;
  auto spawned = SpawnStdio(std::move(stdio));
  if (!spawned) return spawned.error();
  target.stdio = spawned->get();
  target.transport = std::move(*spawned);
  return target;
}

// Opens `revision` as every mcpfuzz run does. A failure is reported, and the client is still
// returned so the caller's own assertions say what went wrong next.
std::unique_ptr<McpClient> OpenClient(Target& target, Revision revision) {
  auto client = std::make_unique<McpClient>(*target.transport, revision);
  auto opened = client->Open();
  EXPECT_TRUE(opened.ok()) << ToString(revision) << " over " << ToString(target.kind) << ": "
                           << opened.error().message;
  return client;
}

// The whole observation, for failure messages.
std::string Show(const Observation& observation) {
  return json::serialize(ObservationToJson(observation));
}

Reply ExpectChannel(const Request& request, const Observation& observation, Channel channel) {
  Reply reply = ClassifyReply(request, observation);
  EXPECT_EQ(reply.channel, channel)
      << "expected " << ToString(channel) << ", got " << DescribeReply(reply, observation) << "\n"
      << Show(observation);
  return reply;
}

Reply ExpectProtocolError(const Request& request, const Observation& observation,
                          std::int64_t code) {
  Reply reply = ExpectChannel(request, observation, Channel::kProtocolError);
  EXPECT_EQ(reply.error_code.value_or(0), code) << Show(observation);
  return reply;
}

// HTTP status only means something over HTTP; stdio has none.
void ExpectHttpStatus(const Target& target, const Observation& observation, int status) {
  if (target.kind == kHttp) {
    EXPECT_EQ(observation.http_status, status) << Show(observation);
  }
}

// Both throw, failing the test, when the reply lacks what the caller expected.
const json::object& ResultOf(const Reply& reply) {
  return reply.message.value().as_object().at("result").as_object();
}

const json::object& ErrorOf(const Reply& reply) {
  return reply.message.value().as_object().at("error").as_object();
}

json::object& BodyOf(Request& request) { return std::get<json::value>(request.body).as_object(); }
json::object& ParamsOf(Request& request) { return BodyOf(request)["params"].as_object(); }
json::object& MetaOf(Request& request) { return ParamsOf(request)["_meta"].as_object(); }

// Waits for a server process that lost its connection to be gone: it ends asynchronously.
bool EndsWithin(Target& target, std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  while (target.ServerAlive()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// One request and what came back.
struct Exchange {
  Request request;
  Observation observation;
};

Exchange SendOne(McpClient& client, Request request) {
  Observation observation = client.Send(request);
  return {std::move(request), std::move(observation)};
}

Exchange CallTool(McpClient& client, std::string_view tool, json::object arguments = {}) {
  return SendOne(client, client.Make("tools/call", {{"name", tool}, {"arguments", arguments}}));
}

// The first half of a well-formed request's bytes: JSON that ends in the middle.
Request Truncated(Request request) {
  const std::string wire = request.WireBody();
  request.body = RawBody{wire.substr(0, wire.size() / 2)};
  return request;
}

// A request of the stateless era that names an unsupported revision in _meta and, over HTTP,
// in MCP-Protocol-Version too, so the two agree and only the version itself is wrong.
Request WithUnsupportedVersion(Request request) {
  MetaOf(request)[kMetaProtocolVersion] = kUnsupportedVersion;
  if (request.transport == kHttp) {
    SetHeader(request.headers, kHeaderProtocolVersion, kUnsupportedVersion);
  }
  return request;
}

// A 2025-03-26 batch: a ping and a call of an unknown tool, on the negotiated session.
Request Batch(McpClient& client) {
  Request request = client.Make("ping");
  request.body = json::parse(R"([{"jsonrpc":"2.0","id":101,"method":"ping"},
      {"jsonrpc":"2.0","id":102,"method":"tools/call","params":{"name":"no_such_tool"}}])");
  return request;
}

// The one JSON value of a reply that must be a processed batch: both responses, in order.
void ExpectBatchAnswered(const Observation& observation) {
  ASSERT_EQ(observation.outcome, Outcome::kOk) << Show(observation);
  ASSERT_EQ(observation.messages.size(), 1U) << Show(observation);
  ASSERT_TRUE(observation.messages[0].is_array()) << Show(observation);
  const json::array& replies = observation.messages[0].as_array();
  ASSERT_EQ(replies.size(), 2U) << Show(observation);
  EXPECT_EQ(replies[0].at("id"), json::value(101));
  EXPECT_EQ(ClassifyMessage(replies[0]).channel, Channel::kSuccess);
  EXPECT_EQ(replies[1].at("id"), json::value(102));
  EXPECT_EQ(ClassifyMessage(replies[1]).error_code.value_or(0), -32602);
}

std::vector<std::string> ToolNames(const Reply& reply) {
  std::vector<std::string> names;
  for (const json::value& tool : ResultOf(reply).at("tools").as_array()) {
    names.emplace_back(tool.at("name").as_string());
  }
  return names;
}

// =============================================================================================
// The conformant server, both transports, both eras

class ConformantServer : public ::testing::TestWithParam<std::tuple<TransportKind, Revision>> {
 protected:
  TransportKind transport() const { return std::get<0>(GetParam()); }
  Revision revision() const { return std::get<1>(GetParam()); }
  bool http() const { return transport() == kHttp; }
  bool stateless() const { return EraOf(revision()) == Era::kStateless; }

  void SetUp() override {
    auto started = StartTarget(transport(), {});
    ASSERT_TRUE(started.ok()) << started.error().message;
    target_ = std::move(*started);
    client_ = OpenClient(*target_, revision());
    ASSERT_FALSE(HasFailure());
  }

  Target& target() { return *target_; }
  McpClient& client() { return *client_; }

 private:
  std::optional<Target> target_;
  std::unique_ptr<McpClient> client_;
};

TEST_P(ConformantServer, OpensInTheRequestedRevision) {
  EXPECT_EQ(client().revision(), revision());
  EXPECT_TRUE(client().Declares("tools"));
  const OpenOutcome& opened = *client().last_open();
  EXPECT_EQ(opened.reply.channel, Channel::kSuccess);
  EXPECT_EQ(opened.request.RpcMethod(), stateless() ? "server/discover" : "initialize");
  // Only a handshake over HTTP has a session; the client must have picked up its id.
  EXPECT_EQ(target().transport->session_id().empty(), stateless() || !http());
  if (http() && !stateless()) {
    EXPECT_EQ(FindHeader(opened.observation.http_headers, kHeaderSessionId),
              target().transport->session_id());
  }
}

TEST_P(ConformantServer, ToolsListSucceeds) {
  auto [request, observation] = SendOne(client(), client().Make("tools/list"));
  Reply reply = ExpectChannel(request, observation, Channel::kSuccess);
  ASSERT_TRUE(reply.message.has_value());
  EXPECT_EQ(ToolNames(reply), (std::vector<std::string>{"echo", "add", "fail_upstream"}));
  EXPECT_EQ(ResultOf(reply).contains("resultType"), stateless());
  ExpectHttpStatus(target(), observation, 200);
  if (http()) {
    EXPECT_EQ(observation.content_type, "application/json");
  } else {
    EXPECT_EQ(observation.stdout_lines.size(), 1U) << Show(observation);
  }
}

TEST_P(ConformantServer, UnknownToolIsInvalidParams) {
  auto [request, observation] = CallTool(client(), kUnknownTool);
  ExpectProtocolError(request, observation, -32602);
  ExpectHttpStatus(target(), observation, 200);
}

TEST_P(ConformantServer, UnknownMethodIsMethodNotFound) {
  auto [request, observation] = SendOne(client(), client().Make(kUnknownMethod));
  ExpectProtocolError(request, observation, -32601);
  // The stateless era routes by method, so an unknown one is a 404; sessions answer in band.
  ExpectHttpStatus(target(), observation, stateless() ? 404 : 200);
}

TEST_P(ConformantServer, TruncatedBodyIsAParseErrorWithoutAnId) {
  auto [request, observation] = SendOne(client(), Truncated(client().Make("tools/list")));
  Reply reply = ExpectProtocolError(request, observation, -32700);
  ASSERT_TRUE(reply.message.has_value());
  const json::value* id = reply.message->as_object().if_contains("id");
  EXPECT_TRUE(id == nullptr || id->is_null()) << Show(observation);
  ExpectHttpStatus(target(), observation, 400);
}

TEST_P(ConformantServer, NotificationGetsNoReply) {
  Request notification =
      client().MakeNotification("notifications/cancelled", {{"requestId", 999}, {"reason", "x"}});
  Observation observation = client().Send(notification);
  EXPECT_EQ(observation.outcome, Outcome::kOk) << Show(observation);
  ExpectChannel(notification, observation, Channel::kNoReply);
  ExpectHttpStatus(target(), observation, 202);
  EXPECT_TRUE(observation.body.empty()) << Show(observation);
  EXPECT_TRUE(observation.stdout_lines.empty()) << Show(observation);
}

std::string EraTransportName(
    const ::testing::TestParamInfo<std::tuple<TransportKind, Revision>>& info) {
  std::string name = std::string(ToString(std::get<0>(info.param))) + "_" +
                     std::string(ToString(std::get<1>(info.param)));
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(BothErasBothTransports, ConformantServer,
                         ::testing::Combine(::testing::Values(kHttp, kStdio),
                                            ::testing::Values(kStateless, kHandshake)),
                         EraTransportName);

TEST(ConformantHttpHandshake, SessionIdIsRequiredCheckedAndEndedByDelete) {
  auto target = StartTarget(kHttp, {});
  ASSERT_TRUE(target.ok()) << target.error().message;
  auto client = OpenClient(*target, kHandshake);
  const std::string session = target->transport->session_id();
  ASSERT_FALSE(session.empty());

  Observation bound = client->Call("tools/list");
  EXPECT_EQ(bound.http_status, 200) << Show(bound);

  Request unbound = client->Make("tools/list");
  unbound.session = SessionBinding::kOmit;
  Observation without_session = client->Send(unbound);
  EXPECT_EQ(without_session.http_status, 400) << Show(without_session);

  Request wrong = client->Make("tools/list");
  wrong.headers.push_back({std::string(kHeaderSessionId), "0123456789abcdef-not-a-session"});
  Observation wrong_session = client->Send(wrong);
  EXPECT_EQ(wrong_session.http_status, 404) << Show(wrong_session);

  std::optional<Observation> deleted = client->Close();
  ASSERT_TRUE(deleted.has_value());
  EXPECT_EQ(deleted->outcome, Outcome::kOk) << Show(*deleted);
  EXPECT_EQ(deleted->http_status / 100, 2) << Show(*deleted);

  Request stale = client->Make("tools/list");
  stale.headers.push_back({std::string(kHeaderSessionId), session});
  Observation stale_session = client->Send(stale);
  EXPECT_EQ(stale_session.http_status, 404) << Show(stale_session);
}

class ConformantHttpStateless : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = StartTarget(kHttp, {});
    ASSERT_TRUE(started.ok()) << started.error().message;
    target_ = std::move(*started);
    client_ = OpenClient(*target_, kStateless);
  }

  McpClient& client() { return *client_; }

 private:
  std::optional<Target> target_;
  std::unique_ptr<McpClient> client_;
};

TEST_F(ConformantHttpStateless, MissingMetaIsInvalidParams) {
  Request request = client().Make("tools/list");
  ParamsOf(request).erase("_meta");
  Observation observation = client().Send(request);
  EXPECT_EQ(observation.http_status, 400) << Show(observation);
  ExpectProtocolError(request, observation, -32602);
}

TEST_F(ConformantHttpStateless, MethodHeaderDisagreeingWithTheBodyIsAHeaderMismatch) {
  Request request = client().Make("tools/list");
  SetHeader(request.headers, kHeaderMethod, "prompts/list");
  Observation observation = client().Send(request);
  EXPECT_EQ(observation.http_status, 400) << Show(observation);
  ExpectProtocolError(request, observation, -32020);
}

// A header line past what the HTTP front reads (8 KiB) is refused before the body is read, and
// the refusal closes the connection: the next request is read on a new one, not from that body.
TEST_F(ConformantHttpStateless, AHeaderTooLongToReadIsRefusedAndTheNextRequestServed) {
  const std::string method = "mcpfuzz/" + std::string(20000, 'a');
  Request request = client().Make(method);
  ASSERT_EQ(FindHeader(request.headers, kHeaderMethod), method);
  const Observation refused = client().Send(request);
  EXPECT_EQ(refused.http_status, 400) << Show(refused);
  const Request next = client().Make("tools/list");
  const Observation served = client().Send(next);
  EXPECT_EQ(served.http_status, 200) << Show(served);
  ExpectChannel(next, served, Channel::kSuccess);
}

TEST_F(ConformantHttpStateless, UnsupportedVersionNamesTheSupportedOnes) {
  Request request = WithUnsupportedVersion(client().Make("tools/list"));
  Observation observation = client().Send(request);
  EXPECT_EQ(observation.http_status, 400) << Show(observation);
  Reply reply = ExpectProtocolError(request, observation, -32022);
  ASSERT_TRUE(reply.message.has_value());
  const json::value* data = ErrorOf(reply).if_contains("data");
  ASSERT_NE(data, nullptr) << Show(observation);
  const json::array& supported = data->at("supported").as_array();
  EXPECT_NE(std::find(supported.begin(), supported.end(), json::value("2026-07-28")),
            supported.end())
      << Show(observation);
}

TEST(ConformantHttpBatch, ProcessedIn2025_03_26AndRejectedAfterwards) {
  auto target = StartTarget(kHttp, {});
  ASSERT_TRUE(target.ok()) << target.error().message;
  auto client = OpenClient(*target, kBatchRevision);
  ASSERT_EQ(client->revision(), kBatchRevision);
  Observation batch = client->Send(Batch(*client));
  EXPECT_EQ(batch.http_status, 200) << Show(batch);
  ExpectBatchAnswered(batch);

  // Batching was removed in 2025-06-18: the same batch on a 2025-11-25 session is refused.
  auto later_target = StartTarget(kHttp, {});
  ASSERT_TRUE(later_target.ok()) << later_target.error().message;
  auto later = OpenClient(*later_target, kHandshake);
  Request refused_batch = Batch(*later);
  Observation refused = later->Send(refused_batch);
  EXPECT_EQ(refused.http_status, 400) << Show(refused);
  ExpectProtocolError(refused_batch, refused, -32600);
}

// =============================================================================================
// Every fault switch through the transports

// How one fault shows through the transports: `check` drives the trigger against a server
// started with the fault (`faulty`) or without it, and asserts the deviating observation or
// the conformant one.
struct FaultScenario {
  std::vector<TransportKind> transports;
  std::chrono::milliseconds timeout = kReplyTimeout;
  std::function<void(Target& target, bool faulty)> check;
};

const std::vector<TransportKind> kBoth = {kHttp, kStdio};
const std::vector<TransportKind> kHttpOnly = {kHttp};
const std::vector<TransportKind> kStdioOnly = {kStdio};

// The conformant answer to an unknown tool, which several faults replace.
void ExpectUnknownToolRejected(const Target& target, const Exchange& call) {
  ExpectProtocolError(call.request, call.observation, -32602);
  ExpectHttpStatus(target, call.observation, 200);
}

FaultScenario UnknownToolScenario(Revision revision,
                                  std::function<void(Target&, const Exchange&)> deviation,
                                  std::chrono::milliseconds timeout = kReplyTimeout) {
  return {kBoth, timeout, [revision, deviation](Target& target, bool faulty) {
            auto client = OpenClient(target, revision);
            Exchange call = CallTool(*client, kUnknownTool);
            if (faulty) {
              deviation(target, call);
            } else {
              ExpectUnknownToolRejected(target, call);
            }
          }};
}

// A request whose conformant answer is `conformant_status`/`conformant_code` and which the
// faulty server serves as a success instead.
FaultScenario ServedInsteadOfRejected(std::vector<TransportKind> transports,
                                      std::function<Request(McpClient&)> make,
                                      int conformant_status, std::int64_t conformant_code,
                                      Revision revision = kStateless) {
  return {std::move(transports), kReplyTimeout,
          [make, conformant_status, conformant_code, revision](Target& target, bool faulty) {
            auto client = OpenClient(target, revision);
            Request request = make(*client);
            Observation observation = client->Send(request);
            if (faulty) {
              ExpectChannel(request, observation, Channel::kSuccess);
              ExpectHttpStatus(target, observation, 200);
            } else {
              ExpectProtocolError(request, observation, conformant_code);
              ExpectHttpStatus(target, observation, conformant_status);
            }
          }};
}

std::map<Fault, FaultScenario> MakeFaultScenarios() {
  std::map<Fault, FaultScenario> table;

  table[Fault::kUnknownToolIsError] =
      UnknownToolScenario(kHandshake, [](Target& target, const Exchange& call) {
        ExpectChannel(call.request, call.observation, Channel::kExecutionError);
        ExpectHttpStatus(target, call.observation, 200);
      });

  table[Fault::kUnknownToolPlainSuccess] =
      UnknownToolScenario(kHandshake, [](Target& target, const Exchange& call) {
        Reply reply = ExpectChannel(call.request, call.observation, Channel::kSuccess);
        ASSERT_TRUE(reply.message.has_value());
        EXPECT_FALSE(ResultOf(reply).contains("isError"));
        EXPECT_EQ(ResultOf(reply).at("content").at(0).at("text"),
                  json::value("Unknown tool: no_such_tool"));
        ExpectHttpStatus(target, call.observation, 200);
      });

  // Over stdio a plain-text line is not the awaited response, so the transport keeps waiting
  // until the time limit; hence the short one.
  table[Fault::kUnknownToolHtml] = UnknownToolScenario(
      kStateless,
      [](Target& target, const Exchange& call) {
        const Observation& observation = call.observation;
        ASSERT_EQ(observation.non_json.size(), 1U) << Show(observation);
        EXPECT_TRUE(observation.messages.empty()) << Show(observation);
        if (target.kind == kHttp) {
          ExpectChannel(call.request, observation, Channel::kNotJsonRpc);
          EXPECT_EQ(observation.http_status, 500);
          EXPECT_EQ(observation.content_type.rfind("text/html", 0), 0U) << Show(observation);
          EXPECT_NE(observation.body.find("<html>"), std::string::npos);
        } else {
          EXPECT_EQ(observation.outcome, Outcome::kAliveButDeaf) << Show(observation);
          ASSERT_EQ(observation.stdout_lines.size(), 1U) << Show(observation);
          EXPECT_EQ(observation.stdout_lines[0],
                    "Internal Server Error: no handler for tool no_such_tool");
        }
      },
      kHangTimeout);

  table[Fault::kUnknownToolWrongCode] =
      UnknownToolScenario(kStateless, [](Target& target, const Exchange& call) {
        ExpectProtocolError(call.request, call.observation, -32601);
        // Still the tool handler's answer, so still in band: not the 404 of an unknown method.
        ExpectHttpStatus(target, call.observation, 200);
      });

  table[Fault::kHangOnUnknownTool] = UnknownToolScenario(
      kStateless,
      [](Target& target, const Exchange& call) {
        const Observation& observation = call.observation;
        EXPECT_EQ(observation.outcome,
                  target.kind == kHttp ? Outcome::kTimeout : Outcome::kAliveButDeaf)
            << Show(observation);
        EXPECT_EQ(observation.http_status, 0) << Show(observation);
        EXPECT_TRUE(observation.stdout_lines.empty()) << Show(observation);
        // It waited out the time limit rather than failing fast; curl's timer may fire a
        // fraction of a millisecond early, hence the margin.
        EXPECT_GE(observation.elapsed, kHangTimeout / 2) << Show(observation);
        // Only that request hangs: the server stays up and answers the next one.
        EXPECT_TRUE(target.ServerAlive());
        McpClient next(*target.transport, kStateless);
        Exchange echo = CallTool(next, "echo", {{"message", "still here"}});
        ExpectChannel(echo.request, echo.observation, Channel::kSuccess);
      },
      kHangTimeout);

  table[Fault::kInputValidationAsProtocolError] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        auto [request, observation] = CallTool(*client, "echo");  // lacks `message`
        if (faulty) {
          ExpectProtocolError(request, observation, -32602);
        } else {
          ExpectChannel(request, observation, Channel::kExecutionError);
        }
        ExpectHttpStatus(target, observation, 200);
      }};

  table[Fault::kParseErrorWrongId] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        auto [request, observation] = SendOne(*client, Truncated(client->Make("tools/list")));
        Reply reply = ExpectProtocolError(request, observation, -32700);
        ASSERT_TRUE(reply.message.has_value());
        EXPECT_EQ(reply.message->at("id"), faulty ? json::value(0) : json::value(nullptr))
            << Show(observation);
        ExpectHttpStatus(target, observation, 400);
      }};

  table[Fault::kInvalidRequestAccepted] = ServedInsteadOfRejected(
      kBoth,
      [](McpClient& client) {
        Request request = client.Make("tools/list");
        BodyOf(request).erase("jsonrpc");
        return request;
      },
      400, -32600);

  table[Fault::kNotificationAnswered] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        Request notification = client->MakeNotification("notifications/cancelled",
                                                        {{"requestId", 999}, {"reason", "x"}});
        Observation observation = client->Send(notification);
        EXPECT_EQ(observation.outcome, Outcome::kOk) << Show(observation);
        if (faulty) {
          ExpectChannel(notification, observation, Channel::kSuccess);
          ExpectHttpStatus(target, observation, 200);
          if (target.kind == kStdio) {
            EXPECT_EQ(observation.stdout_lines.size(), 1U) << Show(observation);
          }
        } else {
          ExpectChannel(notification, observation, Channel::kNoReply);
          ExpectHttpStatus(target, observation, 202);
          EXPECT_TRUE(observation.body.empty());
          EXPECT_TRUE(observation.stdout_lines.empty());
        }
      }};

  table[Fault::kErrorLeaksInternals] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        Exchange call = CallTool(*client, kUnknownTool);
        ExpectUnknownToolRejected(target, call);
        Reply reply = ClassifyReply(call.request, call.observation);
        ASSERT_TRUE(reply.message.has_value());
        const std::string message(ErrorOf(reply).at("message").as_string());
        EXPECT_EQ(message.find("/srv/app/") != std::string::npos, faulty) << message;
        EXPECT_EQ(message.find(".internal.") != std::string::npos, faulty) << message;
      }};

  table[Fault::kCrashOnDeepNesting] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        // 100 arrays inside body, params and arguments: past the fault's 64 levels, well
        // within what a conformant parser accepts.
        json::value nested = json::array();
        for (int level = 1; level < 100; ++level) {
          json::array outer;
          outer.push_back(std::move(nested));
          nested = std::move(outer);
        }
        auto [request, observation] = CallTool(*client, "echo", {{"message", nested}});
        if (!faulty) {
          // A message that is not a string is the tool's input error, not the server's end.
          ExpectChannel(request, observation, Channel::kExecutionError);
          ExpectHttpStatus(target, observation, 200);
          EXPECT_TRUE(target.ServerAlive());
          return;
        }
        if (target.kind == kStdio) {
          EXPECT_EQ(observation.outcome, Outcome::kExited) << Show(observation);
          EXPECT_EQ(observation.exit_signal, SIGABRT) << Show(observation);
          EXPECT_FALSE(observation.exit_code.has_value()) << Show(observation);
          EXPECT_FALSE(observation.killed_by_mcpfuzz);
          EXPECT_FALSE(target.ServerAlive());
          return;
        }
        // The connection drops without a response, the process is gone, and so is the port.
        // libcurl re-sends a request whose reused keep-alive connection closed without a
        // response; the transport still reports the crash as a reset, not as "nothing listens".
        EXPECT_EQ(observation.outcome, Outcome::kConnectionReset) << Show(observation);
        EXPECT_EQ(observation.http_status, 0);
        EXPECT_TRUE(EndsWithin(target, kDeathTimeout));
        Observation next = client->Call("tools/list");
        EXPECT_EQ(next.outcome, Outcome::kConnectionRefused) << Show(next);
      }};

  table[Fault::kCrashOnLongId] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        // One byte past the fault's 4,096: an id any conformant server echoes.
        Request request = client->Make("tools/list");
        BodyObject(request)["id"] = std::string(4097, 'i');
        auto [sent, observation] = SendOne(*client, request);
        if (!faulty) {
          const Reply reply = ExpectChannel(sent, observation, Channel::kSuccess);
          ASSERT_TRUE(reply.message.has_value());
          EXPECT_EQ(reply.message->at("id"), BodyObject(sent).at("id"));
          EXPECT_TRUE(target.ServerAlive());
          return;
        }
        if (target.kind == kStdio) {
          EXPECT_EQ(observation.outcome, Outcome::kExited) << Show(observation);
          EXPECT_EQ(observation.exit_signal, SIGABRT) << Show(observation);
          EXPECT_FALSE(observation.killed_by_mcpfuzz);
          EXPECT_FALSE(target.ServerAlive());
          return;
        }
        EXPECT_EQ(observation.outcome, Outcome::kConnectionReset) << Show(observation);
        EXPECT_TRUE(EndsWithin(target, kDeathTimeout));
      }};

  table[Fault::kExitAfterInitialize] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        // initialize itself is answered, so the client opens either way.
        auto client = OpenClient(target, kHandshake);
        auto [request, observation] = SendOne(*client, client->Make("tools/list"));
        if (!faulty) {
          ExpectChannel(request, observation, Channel::kSuccess);
          EXPECT_TRUE(target.ServerAlive());
          return;
        }
        ExpectChannel(request, observation, Channel::kTransportFailure);
        if (target.kind == kStdio) {
          EXPECT_EQ(observation.outcome, Outcome::kExited) << Show(observation);
          EXPECT_EQ(observation.exit_code, 0) << Show(observation);
          EXPECT_FALSE(observation.exit_signal.has_value()) << Show(observation);
          EXPECT_FALSE(observation.killed_by_mcpfuzz);
        } else {
          // The listening socket closed before the initialize reply was written.
          EXPECT_TRUE(observation.outcome == Outcome::kConnectionRefused ||
                      observation.outcome == Outcome::kConnectionReset)
              << Show(observation);
          EXPECT_EQ(observation.http_status, 0);
        }
        EXPECT_TRUE(EndsWithin(target, kDeathTimeout));
      }};

  table[Fault::kLogsOnStdout] = {
      kStdioOnly, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        auto [request, observation] = SendOne(*client, client->Make("tools/list"));
        // The log line is noise on the channel; the reply itself still arrives.
        ExpectChannel(request, observation, Channel::kSuccess);
        if (faulty) {
          ASSERT_EQ(observation.stdout_lines.size(), 2U) << Show(observation);
          EXPECT_EQ(observation.non_json,
                    std::vector<std::string>{"[INFO] mcpfuzz-refserver: handling message"});
          EXPECT_EQ(observation.non_json.front(), observation.stdout_lines.front());
        } else {
          EXPECT_EQ(observation.stdout_lines.size(), 1U) << Show(observation);
          EXPECT_TRUE(observation.non_json.empty()) << Show(observation);
        }
      }};

  table[Fault::kUnsupportedVersionEchoed] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        Request initialize = MakeInitialize(kHandshake, target.kind, 1);
        ParamsOf(initialize)["protocolVersion"] = kUnsupportedVersion;
        Observation observation = target.Send(initialize);
        Reply reply = ExpectChannel(initialize, observation, Channel::kSuccess);
        ASSERT_TRUE(reply.message.has_value());
        EXPECT_EQ(ResultOf(reply).at("protocolVersion"),
                  json::value(faulty ? kUnsupportedVersion : "2025-11-25"));
        ExpectHttpStatus(target, observation, 200);
      }};

  table[Fault::kPingMethodNotFound] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        auto [request, observation] = SendOne(*client, client->Make("ping"));
        if (faulty) {
          ExpectProtocolError(request, observation, -32601);
        } else {
          Reply reply = ExpectChannel(request, observation, Channel::kSuccess);
          if (reply.message) {
            EXPECT_TRUE(ResultOf(reply).empty()) << Show(observation);
          }
        }
        ExpectHttpStatus(target, observation, 200);
      }};

  table[Fault::kSessionNotEnforced] = ServedInsteadOfRejected(
      kHttpOnly,
      [](McpClient& client) {
        Request request = client.Make("tools/list");
        request.session = SessionBinding::kOmit;
        return request;
      },
      400, -32000, kHandshake);

  table[Fault::kStaleSessionServed] = {
      kHttpOnly, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        const std::string session = target.transport->session_id();
        std::optional<Observation> deleted = client->Close();
        ASSERT_TRUE(deleted.has_value());
        EXPECT_EQ(deleted->http_status / 100, 2) << Show(*deleted);
        Request request = client->Make("tools/list");
        request.headers.push_back({std::string(kHeaderSessionId), session});
        Observation observation = client->Send(request);
        if (faulty) {
          ExpectChannel(request, observation, Channel::kSuccess);
          EXPECT_EQ(observation.http_status, 200) << Show(observation);
        } else {
          EXPECT_EQ(observation.http_status, 404) << Show(observation);
        }
      }};

  table[Fault::kDeletedSessionServed] = {
      kHttpOnly, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        const std::string session = target.transport->session_id();
        std::optional<Observation> deleted = client->Close();
        ASSERT_TRUE(deleted.has_value());
        EXPECT_EQ(deleted->http_status / 100, 2) << Show(*deleted);
        Request request = client->Make("ping");
        request.headers.push_back({std::string(kHeaderSessionId), session});
        Observation observation = client->Send(request);
        EXPECT_EQ(observation.http_status, faulty ? 200 : 404) << Show(observation);
        // An id that never existed is refused either way.
        Request unknown = client->Make("ping");
        unknown.headers.push_back({std::string(kHeaderSessionId), "mcpfuzz-never-issued"});
        EXPECT_EQ(client->Send(unknown).http_status, 404);
      }};

  // Two sessions on one connection: the second initialize goes without a session id.
  table[Fault::kDeleteEndsAllSessions] = {
      kHttpOnly, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        Request second = MakeInitialize(kHandshake, kHttp, "second");
        second.session = SessionBinding::kOmit;
        const Observation opened = client->Send(second);
        const auto other = FindHeader(opened.http_headers, kHeaderSessionId);
        ASSERT_TRUE(other.has_value()) << Show(opened);
        ASSERT_NE(*other, target.transport->session_id());
        Request end = MakeBodyless(kHandshake, "DELETE");
        end.headers.push_back({std::string(kHeaderSessionId), std::string(*other)});
        EXPECT_EQ(client->Send(end).http_status / 100, 2);
        const Observation ping = client->Send(client->Make("ping"));
        EXPECT_EQ(ping.http_status, faulty ? 404 : 200) << Show(ping);
      }};

  // A session's level (tables §7 G4): each request served after logging/setLevel is logged at
  // info when info is at the level set or above; the fault logs it whatever the level.
  table[Fault::kSetLevelIgnored] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        const Observation before = client->Send(client->Make("ping"));
        EXPECT_EQ(before.messages.size(), 1U) << Show(before);
        auto log_messages_after = [&](std::string_view level) {
          const Request set = client->Make("logging/setLevel", {{"level", level}});
          ExpectChannel(set, client->Send(set), Channel::kSuccess);
          const Request ping = client->Make("ping");
          const Observation observation = client->Send(ping);
          ExpectChannel(ping, observation, Channel::kSuccess);
          std::size_t logged = 0;
          for (const json::value& message : observation.messages) {
            if (message.as_object().if_contains("method") != nullptr &&
                message.at("method") == "notifications/message") {
              EXPECT_EQ(message.at("params").at("level"), "info") << Show(observation);
              ++logged;
            }
          }
          return logged;
        };
        EXPECT_EQ(log_messages_after("debug"), 1U);
        EXPECT_EQ(log_messages_after("error"), faulty ? 1U : 0U);
      }};

  // A resource's subscription (tables §7 R4s): each request served while the session is
  // subscribed carries an update of the resource; after the unsubscribe none does, unless the
  // fault keeps the subscription.
  table[Fault::kUnsubscribeIgnored] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        auto updates_in = [](const Observation& observation) {
          std::size_t updates = 0;
          for (const json::value& message : observation.messages) {
            const json::value* method = message.as_object().if_contains("method");
            if (method != nullptr && *method == "notifications/resources/updated") {
              EXPECT_EQ(message.at("params").at("uri"), "mcpfuzz://readme");
              ++updates;
            }
          }
          return updates;
        };
        const Request unknown =
            client->Make("resources/subscribe", {{"uri", "mcpfuzz://no-such-resource"}});
        const Reply refused =
            ExpectChannel(unknown, client->Send(unknown), Channel::kProtocolError);
        EXPECT_EQ(refused.error_code, -32002);
        const Request subscribe =
            client->Make("resources/subscribe", {{"uri", "mcpfuzz://readme"}});
        ExpectChannel(subscribe, client->Send(subscribe), Channel::kSuccess);
        EXPECT_EQ(updates_in(client->Send(client->Make("ping"))), 1U);
        const Request unsubscribe =
            client->Make("resources/unsubscribe", {{"uri", "mcpfuzz://readme"}});
        ExpectChannel(unsubscribe, client->Send(unsubscribe), Channel::kSuccess);
        EXPECT_EQ(updates_in(client->Send(client->Make("ping"))), faulty ? 1U : 0U);
      }};

  // A cursor sent back twice (tables §7 C2): the last page both times, unless the fault refuses
  // a cursor the session sent before.
  table[Fault::kCursorSingleUse] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        const Request first = client->Make("resources/templates/list");
        const Reply listed = ExpectChannel(first, client->Send(first), Channel::kSuccess);
        ASSERT_TRUE(listed.message.has_value());
        const json::value cursor = listed.message->at("result").at("nextCursor");
        const Request next = client->Make("resources/templates/list", {{"cursor", cursor}});
        ExpectChannel(next, client->Send(next), Channel::kSuccess);
        const Request again = client->Make("resources/templates/list", {{"cursor", cursor}});
        const Reply reply = ExpectChannel(again, client->Send(again),
                                          faulty ? Channel::kProtocolError : Channel::kSuccess);
        if (faulty) {
          EXPECT_EQ(reply.error_code, -32602);
        }
      }};

  // One response per request (JSON-RPC 2.0 §5): an unknown method's error, with a ping written
  // behind it, so the window holds everything the server wrote for the request.
  table[Fault::kErrorAnsweredTwice] = {
      kStdioOnly, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        const Request unknown = client->Make("nope/nope");
        const PipelineResult result =
            target.transport->SendPipelined(Pipeline{{unknown}, client->Make("ping")});
        ASSERT_EQ(result.observations.size(), 1U);
        const std::vector<json::value>& messages = result.observations[0].messages;
        const auto errors = std::count_if(messages.begin(), messages.end(), [&](const auto& m) {
          return m.is_object() && m.as_object().contains("error") && m.at("id") == *unknown.RpcId();
        });
        EXPECT_EQ(errors, faulty ? 2 : 1);
      }};

  // Progress (tables §4a L10, L10a): a request with a progressToken gets one progress for it
  // before its result; the fault repeats it in the next reply, after that request was answered.
  table[Fault::kProgressAfterResponse] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        auto progress_in = [](const Observation& observation) {
          std::vector<json::value> tokens;
          for (const json::value& message : observation.messages) {
            const json::value* method = message.as_object().if_contains("method");
            if (method != nullptr && *method == "notifications/progress") {
              tokens.push_back(message.at("params").at("progressToken"));
            }
          }
          return tokens;
        };
        Request tokened = client->Make("ping");
        Meta(tokened)[kMetaProgressToken] = "mcpfuzz-progress";
        EXPECT_EQ(progress_in(client->Send(tokened)),
                  std::vector<json::value>{json::value("mcpfuzz-progress")});
        const std::vector<json::value> after = progress_in(client->Send(client->Make("ping")));
        EXPECT_EQ(after.size(), faulty ? 1U : 0U);
      }};

  table[Fault::kCancelledRequestAnswered] = {
      kStdioOnly, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        // The request and its cancellation are read together: it is still in flight.
        const Request ping = client->Make("ping");
        const Request after = client->Make("ping");
        const PipelineResult result =
            target.transport->SendPipelined(Pipeline{{ping, CancellationOf(ping)}, after});
        ASSERT_EQ(result.observations.size(), 2U);
        ASSERT_EQ(result.answered_after_sentinel.size(), 2U);
        ExpectChannel(after, result.sentinel, Channel::kSuccess);
        if (faulty) {
          // Answered anyway, after the ping written behind the cancellation.
          ExpectChannel(ping, result.observations[0], Channel::kSuccess);
          EXPECT_TRUE(result.answered_after_sentinel[0]);
        } else {
          EXPECT_EQ(result.observations[0].outcome, Outcome::kDropped)
              << Show(result.observations[0]);
          EXPECT_FALSE(result.answered_after_sentinel[0]);
        }
        // A request read alone is answered as ever.
        const Request alone = client->Make("ping");
        ExpectChannel(alone, target.Send(alone), Channel::kSuccess);
      }};

  table[Fault::kListenUnacknowledged] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        const Request listen = client->Make(kListenMethod, {{"notifications", json::object{}}});
        const Observation observation = client->Send(listen);
        // Nothing can be delivered, so the subscription ends at once: the closing result,
        // stamped, after the acknowledgement unless the fault leaves it out.
        const Reply reply = ExpectChannel(listen, observation, Channel::kSuccess);
        ASSERT_TRUE(reply.message.has_value());
        EXPECT_EQ(*SubscriptionIdOf(*reply.message), json::value(listen.RpcId().value()));
        ASSERT_EQ(observation.messages.size(), faulty ? 1U : 2U) << Show(observation);
        EXPECT_EQ(IsAcknowledgement(observation.messages.front()), !faulty);
      }};

  table[Fault::kLogLevelIgnored] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        // The stream carries a log message when asked for one at info or below, progress when
        // given a token; the fault sends the message to a request that asked for none.
        Request asked = client->Make("server/discover");
        MetaOf(asked)[kMetaLogLevel] = "debug";
        MetaOf(asked)[kMetaProgressToken] = "mcpfuzz-progress";
        Observation observation = client->Send(asked);
        ExpectChannel(asked, observation, Channel::kSuccess);
        ASSERT_EQ(observation.messages.size(), 3U) << Show(observation);
        EXPECT_EQ(observation.messages[0].at("method"), "notifications/message");
        EXPECT_EQ(observation.messages[1].at("params").at(kMetaProgressToken), "mcpfuzz-progress");
        // What was asked for is what the oracles accept (tables §4b V11a, §4a L10).
        const Verdict verdict = Judge(check::kDiscoverResult, asked, observation);
        EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Summarize(verdict);
        const Request plain = client->Make("tools/list");
        observation = client->Send(plain);
        ExpectChannel(plain, observation, Channel::kSuccess);
        EXPECT_EQ(observation.messages.size(), faulty ? 2U : 1U) << Show(observation);
      }};

  table[Fault::kProgressUnrequested] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        const Request plain = client->Make("tools/list");
        const Observation observation = client->Send(plain);
        ExpectChannel(plain, observation, Channel::kSuccess);
        ASSERT_EQ(observation.messages.size(), faulty ? 2U : 1U) << Show(observation);
        if (faulty) {
          EXPECT_EQ(observation.messages[0].at("method"), "notifications/progress");
        }
      }};

  table[Fault::kCursorAcrossLists] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kHandshake);
        Request templates = client->Make("resources/templates/list");
        Reply first = ExpectChannel(templates, client->Send(templates), Channel::kSuccess);
        ASSERT_TRUE(first.message.has_value());
        const json::value cursor = ResultOf(first).at("nextCursor");
        ASSERT_TRUE(cursor.is_string());
        // Its own list takes it either way; another list only with the fault.
        Request own = client->Make("resources/templates/list", {{"cursor", cursor}});
        Reply last = ExpectChannel(own, client->Send(own), Channel::kSuccess);
        EXPECT_FALSE(ResultOf(last).contains("nextCursor"));
        Request foreign = client->Make("tools/list", {{"cursor", cursor}});
        Observation observation = client->Send(foreign);
        if (faulty) {
          ExpectChannel(foreign, observation, Channel::kSuccess);
        } else {
          ExpectProtocolError(foreign, observation, -32602);
        }
      }};

  // Batches are framing, not HTTP: a 2025-03-26 session over stdio takes them too.
  table[Fault::kBatchRejectedIn2025_03_26] = {kBoth, kReplyTimeout,
                                              [](Target& target, bool faulty) {
                                                auto client = OpenClient(target, kBatchRevision);
                                                ASSERT_EQ(client->revision(), kBatchRevision);
                                                Request batch = Batch(*client);
                                                Observation observation = client->Send(batch);
                                                if (faulty) {
                                                  ExpectProtocolError(batch, observation, -32600);
                                                  ExpectHttpStatus(target, observation, 400);
                                                } else {
                                                  ExpectBatchAnswered(observation);
                                                  ExpectHttpStatus(target, observation, 200);
                                                }
                                              }};

  table[Fault::kOriginNotChecked] = ServedInsteadOfRejected(
      kHttpOnly,
      [](McpClient& client) {
        Request request = client.Make("tools/list");
        request.headers.push_back({"Origin", "https://attacker.example"});
        return request;
      },
      403, -32600);

  table[Fault::kMissingMetaServed] = ServedInsteadOfRejected(
      kBoth,
      [](McpClient& client) {
        Request request = client.Make("tools/list");
        ParamsOf(request).erase("_meta");
        return request;
      },
      400, -32602);

  table[Fault::kHeaderMismatchServed] = ServedInsteadOfRejected(
      kHttpOnly,
      [](McpClient& client) {
        Request request = client.Make("tools/list");
        SetHeader(request.headers, kHeaderMethod, "prompts/list");
        return request;
      },
      400, -32020);

  table[Fault::kMethodHeaderCaseInsensitive] = ServedInsteadOfRejected(
      kHttpOnly,
      [](McpClient& client) {
        Request request = client.Make("tools/list");
        SetHeader(request.headers, kHeaderMethod, "TOOLS/LIST");
        return request;
      },
      400, -32020);

  table[Fault::kUnsupportedVersionNoData] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        auto [request, observation] =
            SendOne(*client, WithUnsupportedVersion(client->Make("tools/list")));
        Reply reply = ExpectProtocolError(request, observation, -32022);
        ExpectHttpStatus(target, observation, 400);
        ASSERT_TRUE(reply.message.has_value());
        const json::value* data = ErrorOf(reply).if_contains("data");
        if (faulty) {
          EXPECT_EQ(data, nullptr) << Show(observation);
        } else {
          ASSERT_NE(data, nullptr) << Show(observation);
          EXPECT_FALSE(data->at("supported").as_array().empty());
          EXPECT_EQ(data->at("requested"), json::value(kUnsupportedVersion));
        }
      }};

  table[Fault::kUnknownMethod200] = {
      kHttpOnly, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        auto [request, observation] = SendOne(*client, client->Make(kUnknownMethod));
        ExpectProtocolError(request, observation, -32601);
        EXPECT_EQ(observation.http_status, faulty ? 200 : 404) << Show(observation);
      }};

  table[Fault::kMissingResultType] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        auto [request, observation] = SendOne(*client, client->Make("tools/list"));
        Reply reply = ExpectChannel(request, observation, Channel::kSuccess);
        ASSERT_TRUE(reply.message.has_value());
        const json::value* result_type = ResultOf(reply).if_contains("resultType");
        if (faulty) {
          EXPECT_EQ(result_type, nullptr) << Show(observation);
        } else {
          ASSERT_NE(result_type, nullptr) << Show(observation);
          EXPECT_EQ(*result_type, json::value("complete"));
        }
        ExpectHttpStatus(target, observation, 200);
      }};

  table[Fault::kResourceNotFoundLegacyCode] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        auto [request, observation] =
            SendOne(*client, client->Make("resources/read", {{"uri", "mcpfuzz://nope"}}));
        ExpectProtocolError(request, observation, faulty ? -32002 : -32602);
        ExpectHttpStatus(target, observation, 200);
      }};

  // Opening a 2026-07-28 client over stdio locks the connection (server/discover, then a served
  // tools/list); the dual-era front with the fault then serves an envelope-less request.
  table[Fault::kEraLockIgnored] = ServedInsteadOfRejected(
      kStdioOnly,
      [](McpClient& client) {
        EXPECT_TRUE(client.era_locked());
        Request request = client.Make("tools/list");
        std::get<json::value>(request.body).as_object().erase("params");
        return request;
      },
      400, -32602);
  // A stdio connection a served enveloped request locked to 2026-07-28 (OpenClient sends
  // server/discover, then tools/list): the fault serves an envelope-less initialize on it.
  table[Fault::kInitializeRelocksEra] = ServedInsteadOfRejected(
      kStdioOnly,
      [](McpClient& client) {
        EXPECT_TRUE(client.era_locked());
        return MakeInitialize(kHandshake, TransportKind::kStdio, "relock");
      },
      400, -32602);
  // A stdio connection initialize locked to the handshake era: the fault serves an enveloped
  // request as 2026-07-28 instead of -32600.
  table[Fault::kEraSwitchAfterInitialize] = ServedInsteadOfRejected(
      kStdioOnly,
      [](McpClient&) {
        return MakeRequest(kStateless, TransportKind::kStdio, "tools/list", {}, "switch");
      },
      400, -32600, kHandshake);
  table[Fault::kValidatorDumpInErrors] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        auto [request, observation] =
            SendOne(*client, client->Make("tools/call", {{"arguments", json::object{}}}));
        Reply reply = ExpectProtocolError(request, observation, faulty ? -32603 : -32602);
        ASSERT_TRUE(reply.message.has_value());
        const std::string message(ErrorOf(reply).at("message").as_string());
        EXPECT_EQ(message.find("\"code\": \"invalid_type\"") != std::string::npos, faulty)
            << message;
        ExpectHttpStatus(target, observation, 200);
      }};

  table[Fault::kRemovedMethodsServed] = {kBoth, kReplyTimeout, [](Target& target, bool faulty) {
                                           auto client = OpenClient(target, kStateless);
                                           auto [request, observation] =
                                               SendOne(*client, client->Make("ping"));
                                           if (faulty) {
                                             ExpectChannel(request, observation, Channel::kSuccess);
                                             ExpectHttpStatus(target, observation, 200);
                                           } else {
                                             ExpectProtocolError(request, observation, -32601);
                                             ExpectHttpStatus(target, observation, 404);
                                           }
                                         }};

  table[Fault::kPrettyPrintedStdio] = {
      kStdioOnly, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        auto [request, observation] = SendOne(*client, client->Make("tools/list"));
        // The reply spans several lines; the transport still reads it as the reply.
        ExpectChannel(request, observation, Channel::kSuccess);
        EXPECT_TRUE(observation.non_json.empty()) << Show(observation);
        if (faulty) {
          EXPECT_GT(observation.stdout_lines.size(), 1U) << Show(observation);
          EXPECT_EQ(observation.multi_line_messages.size(), 1U) << Show(observation);
        } else {
          EXPECT_EQ(observation.stdout_lines.size(), 1U) << Show(observation);
          EXPECT_TRUE(observation.multi_line_messages.empty()) << Show(observation);
        }
      }};

  table[Fault::kPrototypeNameLookup] = {
      kBoth, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        for (std::string_view name : {"__proto__", "constructor"}) {
          Exchange call = CallTool(*client, name);
          ExpectUnknownToolRejected(target, call);
          Reply reply = ClassifyReply(call.request, call.observation);
          ASSERT_TRUE(reply.message.has_value());
          EXPECT_EQ(ErrorOf(reply).at("message"),
                    json::value(faulty ? "Tool " + std::string(name) + " disabled"
                                       : "Unknown tool: " + std::string(name)));
        }
        // A name Object.prototype does not have is unknown either way.
        Exchange other = CallTool(*client, kUnknownTool);
        ExpectUnknownToolRejected(target, other);
        EXPECT_EQ(ErrorOf(ClassifyReply(other.request, other.observation)).at("message"),
                  json::value("Unknown tool: " + std::string(kUnknownTool)));
      }};

  table[Fault::kDeafAfterBigLine] = {
      kStdioOnly, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        Request big = client->Make("server/discover");
        Meta(big)["mcpfuzz/padding"] = "placeholder";
        std::string body = big.WireBody();
        body.replace(body.find("\"placeholder\""), 13,
                     "\"" + std::string((std::size_t{10} << 20) + 1, 'a') + "\"");
        big.body = RawBody{std::move(body)};
        const Observation answered = client->Send(big);
        auto [request, after] = SendOne(*client, client->Make("tools/list"));
        if (faulty) {
          EXPECT_EQ(answered.outcome, Outcome::kAliveButDeaf) << Show(answered);
          EXPECT_EQ(after.outcome, Outcome::kAliveButDeaf) << Show(after);
          EXPECT_TRUE(target.ServerAlive());
        } else {
          ExpectChannel(big, answered, Channel::kSuccess);
          ExpectChannel(request, after, Channel::kSuccess);
        }
      }};

  table[Fault::k500OnDeepNesting] = {
      kHttpOnly, kReplyTimeout, [](Target& target, bool faulty) {
        auto client = OpenClient(target, kStateless);
        Request deep = client->Make(
            "tools/call", {{"name", kUnknownTool}, {"arguments", {{"x", "placeholder"}}}});
        std::string body = deep.WireBody();
        body.replace(body.find("\"placeholder\""), 13,
                     std::string(5000, '[') + std::string(5000, ']'));
        deep.body = RawBody{std::move(body)};
        const Observation observation = client->Send(deep);
        // Past the server's parser depth (1024): refused as unreadable, or failed with a 500.
        ExpectProtocolError(deep, observation, faulty ? -32603 : -32700);
        EXPECT_EQ(observation.http_status, faulty ? 500 : 400) << Show(observation);
        // Nesting the parser reads is unaffected.
        Exchange shallow = CallTool(*client, kUnknownTool, {{"x", json::array{json::array{}}}});
        ExpectUnknownToolRejected(target, shallow);
      }};

  return table;
}

const std::map<Fault, FaultScenario>& FaultScenarios() {
  static const std::map<Fault, FaultScenario> table = MakeFaultScenarios();
  return table;
}

TEST(FaultScenarioTable, CoversEveryFaultAndNothingElse) {
  std::set<Fault> declared;
  for (const FaultInfo& info : AllFaults()) {
    declared.insert(info.fault);
    EXPECT_TRUE(FaultScenarios().contains(info.fault))
        << "fault " << info.name << " has no transport scenario";
  }
  for (const auto& [fault, scenario] : FaultScenarios()) {
    EXPECT_TRUE(declared.contains(fault)) << refserver::ToString(fault);
    EXPECT_FALSE(scenario.transports.empty()) << refserver::ToString(fault);
  }
}

class EveryFault : public ::testing::TestWithParam<Fault> {
 protected:
  static void TearDownTestSuite() { FaultyHttpServers().StopAll(); }
};

TEST_P(EveryFault, DeviatesThroughTheTransportsOnlyWithItsSwitch) {
  const Fault fault = GetParam();
  auto found = FaultScenarios().find(fault);
  ASSERT_NE(found, FaultScenarios().end())
      << "fault " << refserver::ToString(fault) << " has no scenario in MakeFaultScenarios()";
  const FaultScenario& scenario = found->second;
  // Each run has its own server process, so the runs go in parallel; most of their time is
  // waiting (quiet windows, timeouts, process shutdown).
  std::vector<std::thread> runs;
  for (TransportKind transport : scenario.transports) {
    for (bool faulty : {true, false}) {
      runs.emplace_back([&scenario, fault, transport, faulty] {
        SCOPED_TRACE(std::string(ToString(transport)) + ", server started " +
                     (faulty ? "with" : "without") + " --fault " +
                     std::string(refserver::ToString(fault)));
        auto target = StartTarget(transport, faulty ? FaultSet{fault} : FaultSet{},
                                  TestLimits(scenario.timeout));
        ASSERT_TRUE(target.ok()) << target.error().message;
        // gtest catches exceptions on the test's own thread only; here one would terminate.
        try {
          scenario.check(*target, faulty);
        } catch (const std::exception& error) {
          ADD_FAILURE() << "exception: " << error.what();
        }
      });
    }
  }
  for (std::thread& run : runs) run.join();
}

std::vector<Fault> DeclaredFaults() {
  std::vector<Fault> faults;
  for (const FaultInfo& info : AllFaults()) faults.push_back(info.fault);
  return faults;
}

// "unknown-tool-is-error" → "UnknownToolIsError".
std::string TestNameOf(const ::testing::TestParamInfo<Fault>& info) {
  std::string name;
  bool capitalize = true;
  for (char c : refserver::ToString(info.param)) {
    if (c == '-') {
      capitalize = true;
    } else {
      name.push_back(capitalize && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
      capitalize = false;
    }
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllFaults, EveryFault, ::testing::ValuesIn(DeclaredFaults()), TestNameOf);

}  // namespace
}  // namespace mcpfuzz
