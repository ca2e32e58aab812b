// HttpServerProcess: start-up, the output drain, and the stop; ServedHttpServer: started
// again after a request crashed it.

#include "transport/server_process.h"

#include <gtest/gtest.h>

#include <boost/json/value.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "model/request_builder.h"

namespace mcpfuzz {
namespace {

using std::chrono::milliseconds;

// Polls `StderrTail` until it contains `needle` or `timeout` passes.
bool StderrEventuallyContains(const HttpServerProcess& server, const std::string& needle,
                              milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (server.StderrTail().find(needle) != std::string::npos) return true;
    std::this_thread::sleep_for(milliseconds(20));
  }
  return false;
}

TEST(HttpServerProcess, ReadsTheUrlTheServerPrints) {
  auto server = HttpServerProcess::Start(
      {"sh", "-c", "echo 'listening on http://127.0.0.1:9/mcp'; exec sleep 30"},
      milliseconds(5000));
  ASSERT_TRUE(server) << server.error().message;
  EXPECT_EQ(server->url(), "http://127.0.0.1:9/mcp");
  EXPECT_TRUE(server->Alive());
}

TEST(HttpServerProcess, SaysWhatTheServerPrintedWhenItPrintsNoUrl) {
  auto server =
      HttpServerProcess::Start({"sh", "-c", "echo 'port in use' >&2; exit 3"}, milliseconds(5000));
  ASSERT_FALSE(server);
  EXPECT_NE(server.error().message.find("port in use"), std::string::npos);
}

// A server that logs far more than a pipe buffer (64 KiB) after start-up must not block on
// its writes: the marker it writes last is only reached if its output keeps being read.
TEST(HttpServerProcess, KeepsReadingAChattyServersOutput) {
  auto server = HttpServerProcess::Start(
      {"sh", "-c",
       "echo 'listening on http://127.0.0.1:9/mcp'; head -c 1048576 /dev/zero; "
       "head -c 300000 /dev/zero >&2; echo last-line-written >&2; exec sleep 30"},
      milliseconds(5000));
  ASSERT_TRUE(server) << server.error().message;
  EXPECT_TRUE(StderrEventuallyContains(*server, "last-line-written", milliseconds(10000)));
  // Only a tail is kept, however much the server wrote.
  EXPECT_LE(server->StderrTail().size(), 8u * 1024u);
}

// The connection that reached a server a request crashed says so once the request returns (no
// later exchange meets its closed port), and the next connection reaches a server started again
// on the port, whose coverage agent is numbered apart.
TEST(ServedHttpServer, AServerARequestCrashedIsStartedAgainOnItsPort) {
  const auto port = FreeLoopbackPort();
  ASSERT_TRUE(port) << port.error().message;
  ServerCommand command;
  command.shell_command = std::string("exec '") + MCPFUZZ_BINARY_DIR +
                          "/refserver/mcpfuzz-refserver' --http --fault crash-on-long-id --port " +
                          std::to_string(*port);
  command.port = *port;
  auto server = ServedHttpServer::Start(command);
  ASSERT_TRUE(server) << server.error().message;
  const HttpTarget target{"http://127.0.0.1:" + std::to_string(*port) + "/mcp", {}, false, {}};
  const auto ping = [](boost::json::value id) {
    return MakeRequest(Revision::k2026_07_28, TransportKind::kHttp, "server/discover", {},
                       std::move(id));
  };

  auto first = (*server)->Connect(target);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ((*first)->Send(ping(1)).outcome, Outcome::kOk);
  EXPECT_FALSE((*first)->server_ended());
  EXPECT_EQ((*first)->coverage_process(), 0U);

  const Observation crashed = (*first)->Send(ping(boost::json::value(std::string(5000, 'x'))));
  EXPECT_TRUE(crashed.outcome == Outcome::kConnectionReset ||
              crashed.outcome == Outcome::kConnectionRefused)
      << crashed.detail;
  EXPECT_TRUE((*first)->server_ended());

  auto second = (*server)->Connect(target);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ((*server)->restarts(), 1U);
  EXPECT_EQ((*second)->coverage_process(), 1U);
  EXPECT_FALSE((*second)->server_ended());
  EXPECT_EQ((*second)->Send(ping(2)).outcome, Outcome::kOk);
}

}  // namespace
}  // namespace mcpfuzz
