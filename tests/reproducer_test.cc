// Reproducers are run here for real: with bash and curl against the reference server, and
// with `cat` standing in for a stdio server to prove the bytes arrive exactly.

#include "model/reproducer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>

#include "model/request_builder.h"
#include "transport/server_process.h"

namespace mcpfuzz {
namespace {

const std::string kRefserver = std::string(MCPFUZZ_BINARY_DIR) + "/refserver/mcpfuzz-refserver";

std::string RunShell(const std::string& command) {
  std::string script = "set -o pipefail; " + command;
  std::string quoted = ShellQuote(script);
  FILE* pipe = ::popen(("bash -c " + quoted + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return "popen failed";
  std::string output;
  std::array<char, 4096> buffer{};
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) {
    output.append(buffer.data(), n);
  }
  ::pclose(pipe);
  return output;
}

Request UnknownTool(Revision revision, TransportKind transport) {
  return MakeRequest(revision, transport, "tools/call",
                     {{"name", "no such tool"}, {"arguments", boost::json::object{}}}, 7);
}

TEST(ShellQuote, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(ShellQuote("plain-word_1.2/x"), "plain-word_1.2/x");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellQuote(""), "''");
  EXPECT_EQ(RunShell("printf '%s' " + ShellQuote("$HOME `x` \"y\" 'z'")), "$HOME `x` \"y\" 'z'");
}

TEST(Reproducer, SecretsAreRedacted) {
  Request request = UnknownTool(Revision::k2026_07_28, TransportKind::kHttp);
  request.headers.push_back({"Authorization", "Bearer hunter2"});
  request.headers.push_back({"X-Api-Key", "k-123"});
  std::string line = Reproducer(request, {TransportKind::kHttp, "http://127.0.0.1:1/mcp", {}, {}});
  EXPECT_EQ(line.find("hunter2"), std::string::npos) << line;
  EXPECT_EQ(line.find("k-123"), std::string::npos) << line;
  EXPECT_NE(line.find("Authorization: <redacted>"), std::string::npos) << line;
  EXPECT_TRUE(IsSecretHeader("cookie"));
  EXPECT_FALSE(IsSecretHeader("Mcp-Method"));
}

TEST(Reproducer, StdioBytesArriveExactlyEvenWhenNotUtf8) {
  Request request;
  request.transport = TransportKind::kStdio;
  request.revision = Revision::k2026_07_28;
  const std::string bytes("{\"a\":\"%s\\n\" \x01\xFF\xC0 '\"", 17);
  request.body = RawBody{bytes};
  request.session = SessionBinding::kOmit;
  std::string line = Reproducer(request, {TransportKind::kStdio, "", {"cat"}, {}});
  EXPECT_EQ(RunShell(line), bytes + "\n");
}

TEST(Reproducer, StdioStatelessRequestOnAnOpenConnectionFollowsServerDiscoverAndTheLock) {
  // As the campaign's connection began, and after each answer: some servers pin the era on
  // the first message, and a dual-era server locks the connection with the served tools/list.
  Request request = UnknownTool(Revision::k2026_07_28, TransportKind::kStdio);
  const std::string output =
      RunShell(Reproducer(request, {TransportKind::kStdio, "", {"cat"}, {}}));
  const std::string discover =
      MakeRequest(Revision::k2026_07_28, TransportKind::kStdio, "server/discover", {}, 0)
          .WireBody();
  const std::string lock =
      MakeRequest(Revision::k2026_07_28, TransportKind::kStdio, "tools/list", {}, "mcpfuzz-lock")
          .WireBody();
  EXPECT_EQ(output, discover + "\n" + lock + "\n" + request.WireBody() + "\n");
}

// Without the lock line, an envelope-less request after server/discover would open a legacy
// connection on a dual-era server and be served whatever the fault.
TEST(Reproducer, StdioEnvelopeLessRequestReproducesTheEraLockFaultOnly) {
  Request request = MakeRequest(Revision::k2026_07_28, TransportKind::kStdio, "tools/list", {}, 9);
  std::get<boost::json::value>(request.body).as_object().erase("params");
  const std::string faulty = RunShell(Reproducer(
      request,
      {TransportKind::kStdio, "", {kRefserver, "--stdio", "--fault", "era-lock-ignored"}, {}}));
  EXPECT_NE(faulty.find("\"id\":9,\"result\""), std::string::npos) << faulty;
  const std::string conformant = RunShell(
      Reproducer(request, {TransportKind::kStdio, "", {kRefserver, "--stdio", "--dual-era"}, {}}));
  EXPECT_NE(conformant.find("\"id\":9,\"error\":{\"code\":-32602"), std::string::npos)
      << conformant;
}

TEST(Reproducer, StdioHandshakeRequestIsSentInsideASessionAndReproduces) {
  Request request = UnknownTool(Revision::k2025_11_25, TransportKind::kStdio);
  std::string output =
      RunShell(Reproducer(request, {TransportKind::kStdio, "", {kRefserver, "--stdio"}, {}}));
  EXPECT_NE(output.find("\"protocolVersion\":\"2025-11-25\""), std::string::npos) << output;
  EXPECT_NE(output.find("\"id\":7,\"error\":{\"code\":-32602"), std::string::npos) << output;
}

class HttpReproducer : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = HttpServerProcess::Start({kRefserver, "--http"}, std::chrono::seconds(10));
    ASSERT_TRUE(server.ok()) << server.error().message;
    server_.emplace(std::move(*server));
  }
  std::string Run(const Request& request) {
    return RunShell(Reproducer(request, {TransportKind::kHttp, server_->url(), {}, {}}));
  }
  std::optional<HttpServerProcess> server_;
};

// The built-in server of a finished run is gone: its reproducers start one of their own.
TEST(HttpReproducerWithStart, StartsTheServerItNeedsAndStopsIt) {
  const Request request = UnknownTool(Revision::k2026_07_28, TransportKind::kHttp);
  // A port from the pid, below the kernel's ephemeral range (32768 and up), where the other
  // tests' servers and every outgoing connection get theirs.
  const std::string port = std::to_string(20000 + ::getpid() % 10000);
  ReproducerTarget target{TransportKind::kHttp, "http://127.0.0.1:" + port + "/mcp", {}, {}};
  target.start = {kRefserver, "--http", "--port", port, "--fault", "unknown-tool-is-error"};
  const std::string output = RunShell(Reproducer(request, target));
  EXPECT_NE(output.find("HTTP/1.1 200"), std::string::npos) << output;
  EXPECT_NE(output.find("\"isError\":true"), std::string::npos) << output;
  // And it stopped the server again (SIGTERM: the server finishes in its own time).
  const std::string gone =
      RunShell("for i in $(seq 100); do curl -s --max-time 1 -o /dev/null " + target.url +
               " || { echo gone; exit; }; sleep 0.1; done; echo still-there");
  EXPECT_EQ(gone, "gone\n");
}

TEST_F(HttpReproducer, StatelessRequestReproducesStatusAndCode) {
  std::string output = Run(UnknownTool(Revision::k2026_07_28, TransportKind::kHttp));
  EXPECT_NE(output.find("HTTP/1.1 200"), std::string::npos) << output;
  EXPECT_NE(output.find("-32602"), std::string::npos) << output;

  Request unknown_method =
      MakeRequest(Revision::k2026_07_28, TransportKind::kHttp, "no/such", {}, 1);
  EXPECT_NE(Run(unknown_method).find("HTTP/1.1 404"), std::string::npos);
}

TEST_F(HttpReproducer, HandshakeRequestOpensItsOwnSession) {
  std::string output = Run(UnknownTool(Revision::k2025_11_25, TransportKind::kHttp));
  EXPECT_NE(output.find("HTTP/1.1 200"), std::string::npos) << output;
  EXPECT_NE(output.find("-32602"), std::string::npos) << output;

  Request no_session = UnknownTool(Revision::k2025_11_25, TransportKind::kHttp);
  no_session.session = SessionBinding::kOmit;
  EXPECT_NE(Run(no_session).find("HTTP/1.1 400"), std::string::npos);
}

// Requests that went on one connection are sent in one session, opened first: a DELETE of it
// and a request after it, which the conformant server no longer serves.
TEST_F(HttpReproducer, HistoryIsSentInOneSessionOpenedFirst) {
  const Request ping = MakeRequest(Revision::k2025_11_25, TransportKind::kHttp, "ping", {}, 1);
  const std::string output = RunShell(
      Reproducer(std::vector<Request>{ping, MakeBodyless(Revision::k2025_11_25, "DELETE"), ping},
                 {TransportKind::kHttp, server_->url(), {}, {}}));
  // initialize, notifications/initialized, ping, DELETE, ping: the last refused as unknown.
  std::vector<std::string> statuses;
  for (std::size_t at = output.find("HTTP/1.1 "); at != std::string::npos;
       at = output.find("HTTP/1.1 ", at + 1)) {
    statuses.push_back(output.substr(at + 9, 3));
  }
  EXPECT_EQ(statuses, (std::vector<std::string>{"200", "202", "200", "200", "404"})) << output;
}

TEST_F(HttpReproducer, MalformedBodyIsSentAsBuilt) {
  Request request = MakeRequest(Revision::k2026_07_28, TransportKind::kHttp, "tools/list", {}, 1);
  std::string body = request.WireBody();
  request.body = RawBody{body.substr(0, body.size() - 1) + "\xFF"};
  std::string output = Run(request);
  EXPECT_NE(output.find("HTTP/1.1 400"), std::string::npos) << output;
  EXPECT_NE(output.find("-32700"), std::string::npos) << output;
}

}  // namespace
}  // namespace mcpfuzz
