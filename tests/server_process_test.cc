// HttpServerProcess: start-up, the output drain, and the stop.

#include "transport/server_process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

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

}  // namespace
}  // namespace mcpfuzz
