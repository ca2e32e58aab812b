// mcpfuzz against real MCP servers that nobody here wrote: the official TypeScript SDK v1 and
// v2 and server-everything, installed from npm by scripts/bootstrap.sh and started on
// 127.0.0.1 by these tests. They assert that mcpfuzz reaches each server in every era it
// speaks; how the servers answer malformed requests is for the oracles to judge.

#include <gtest/gtest.h>

#include <filesystem>

#include "transport/client.h"
#include "transport/era_probe.h"
#include "transport/server_process.h"

namespace mcpfuzz {
namespace {

using ServerProcess = HttpServerProcess;

std::string RealServersDir() { return std::string(MCPFUZZ_SOURCE_DIR) + "/tests/servers"; }

constexpr std::chrono::milliseconds kStartTimeout{20000};

Limits TestLimits() {
  Limits limits;
  limits.timeout = std::chrono::milliseconds(10000);
  return limits;
}

std::vector<std::string> Node(const std::string& script, std::vector<std::string> args) {
  std::vector<std::string> argv = {"node", RealServersDir() + "/" + script};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

class RealServers : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(RealServersDir() + "/node_modules/@modelcontextprotocol"))
        << "the real servers are missing: run scripts/bootstrap.sh";
  }

  static TransportFactory HttpFactory(const std::string& url) {
    return [url]() -> Result<std::unique_ptr<Transport>> {
      return OpenHttp(HttpTarget{url, {}, false, TestLimits()});
    };
  }
  static TransportFactory StdioFactory(std::vector<std::string> argv) {
    return [argv]() -> Result<std::unique_ptr<Transport>> {
      StdioTarget target;
      target.argv = argv;
      target.limits = TestLimits();
      auto spawned = SpawnStdio(target);
      if (!spawned) return spawned.error();
      return std::unique_ptr<Transport>(std::move(*spawned));
    };
  }

  // Opens `revision` on a fresh connection and lists the tools; the list must name `tool`.
  static void ExpectToolsListed(const TransportFactory& connect, Revision revision,
                                const std::string& tool) {
    auto transport = connect();
    ASSERT_TRUE(transport.ok()) << transport.error().message;
    McpClient client(**transport, revision);
    auto opened = client.Open();
    ASSERT_TRUE(opened.ok()) << ToString(revision) << ": " << opened.error().message;
    EXPECT_EQ(client.revision(), revision);
    EXPECT_TRUE(client.Declares("tools"));

    Request list = client.Make("tools/list");
    Observation observation = client.Send(list);
    Reply reply = ClassifyReply(list, observation);
    ASSERT_EQ(reply.channel, Channel::kSuccess)
        << ToString(revision) << ": " << DescribeReply(reply, observation) << " "
        << observation.body;
    bool found = false;
    for (const auto& listed : reply.message->at("result").at("tools").as_array()) {
      found = found || listed.at("name") == boost::json::value(tool);
    }
    EXPECT_TRUE(found) << "tools/list did not name " << tool;
    client.Close();
  }

  static EraReport Eras(const TransportFactory& connect) { return DetectEras(connect); }
};

TEST_F(RealServers, SdkV1StatefulHttpSpeaksTheHandshakeEraWithSessions) {
  auto server = ServerProcess::Start(Node("sdk-v1.mjs", {"--http", "--stateful"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  auto connect = HttpFactory(server->url());
  EraReport eras = Eras(connect);
  EXPECT_TRUE(eras.Speaks(Revision::k2025_11_25));
  EXPECT_TRUE(eras.Speaks(Revision::k2025_03_26));
  EXPECT_FALSE(eras.Speaks(Revision::k2026_07_28));
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");

  // The session id must be what carries the session: without it the server refuses.
  auto transport = connect();
  ASSERT_TRUE(transport.ok());
  McpClient client(**transport, Revision::k2025_11_25);
  ASSERT_TRUE(client.Open().ok());
  EXPECT_FALSE((*transport)->session_id().empty());
  Request unbound = client.Make("tools/list");
  unbound.session = SessionBinding::kOmit;
  EXPECT_EQ(client.Send(unbound).http_status, 400);
  auto closed = client.Close();
  ASSERT_TRUE(closed.has_value());
  EXPECT_EQ(closed->http_status / 100, 2);
}

TEST_F(RealServers, SdkV1StatelessHttpServesHandshakeRequestsWithoutSessions) {
  auto server = ServerProcess::Start(Node("sdk-v1.mjs", {"--http", "--stateless"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  auto connect = HttpFactory(server->url());
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");
  ExpectToolsListed(connect, Revision::k2025_06_18, "echo");
}

TEST_F(RealServers, SdkV1Stdio) {
  auto connect = StdioFactory(Node("sdk-v1.mjs", {"--stdio"}));
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");
  ExpectToolsListed(connect, Revision::k2025_03_26, "echo");
}

TEST_F(RealServers, SdkV2HttpSpeaksBothErasOnOneEndpoint) {
  auto server = ServerProcess::Start(Node("sdk-v2.mjs", {"--http"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  auto connect = HttpFactory(server->url());
  EraReport eras = Eras(connect);
  EXPECT_TRUE(eras.Speaks(Revision::k2026_07_28));
  EXPECT_TRUE(eras.Speaks(Revision::k2025_11_25));
  ExpectToolsListed(connect, Revision::k2026_07_28, "echo");
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");
}

TEST_F(RealServers, SdkV2StdioSpeaksBothEras) {
  auto connect = StdioFactory(Node("sdk-v2.mjs", {"--stdio"}));
  ExpectToolsListed(connect, Revision::k2026_07_28, "echo");
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");
}

TEST_F(RealServers, ServerEverythingHttpOnLoopback) {
  auto server = ServerProcess::Start(Node("everything.mjs", {"--http"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  EXPECT_EQ(server->url().rfind("http://127.0.0.1:", 0), 0U) << server->url();
  auto connect = HttpFactory(server->url());
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");
  EXPECT_FALSE(Eras(connect).Speaks(Revision::k2026_07_28));
}

TEST_F(RealServers, ServerEverythingStdio) {
  ExpectToolsListed(StdioFactory(Node("everything.mjs", {"--stdio"})), Revision::k2025_11_25,
                    "echo");
}

}  // namespace
}  // namespace mcpfuzz
