// McpClient keeps what a server announces itself as (serverInfo), in both eras, as capped data.

#include "transport/client.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>

#include "support/reference_server.h"

namespace mcpfuzz::test_support {
namespace {

namespace json = boost::json;

std::optional<ServerInfo> OpenAndKeep(Revision revision, const std::string& announced) {
  const RefTarget target =
      StartRefServer(TransportKind::kStdio, {},
                     ReferenceServerLimits(std::chrono::seconds(10), std::chrono::milliseconds(20)),
                     std::chrono::milliseconds(300), {"--server-info", announced});
  auto transport = target.connect();
  if (!transport.ok()) {
    ADD_FAILURE() << transport.error().message;
    return std::nullopt;
  }
  McpClient client(**transport, revision);
  EXPECT_FALSE(client.server_info()) << "nothing is known before Open";
  auto opened = client.Open();
  EXPECT_TRUE(opened.ok()) << ToString(revision) << ": " << opened.error().message;
  return client.server_info();
}

class McpClientServerInfo : public ::testing::TestWithParam<Revision> {};

TEST_P(McpClientServerInfo, IsKeptFromTheOpeningReply) {
  const auto info = OpenAndKeep(GetParam(), "@acme/mcp-sdk/2.1.0");
  ASSERT_TRUE(info);
  // Split at the last slash: package names have one of their own.
  EXPECT_EQ(info->name, "@acme/mcp-sdk");
  EXPECT_EQ(info->version, "2.1.0");
  EXPECT_EQ(info->title, "");
}

TEST_P(McpClientServerInfo, AnOverLongNameIsCappedAtACharacterBoundary) {
  // 199 bytes, then a two-byte character that would end past the cap.
  const std::string name = std::string(199, 'n') + "\xC3\xA9" + std::string(300, 'x');
  const auto info = OpenAndKeep(GetParam(), name + "/9.9.9");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->name, std::string(199, 'n'));
  EXPECT_EQ(info->version, "9.9.9");
}

INSTANTIATE_TEST_SUITE_P(BothEras, McpClientServerInfo,
                         ::testing::Values(Revision::k2025_11_25, Revision::k2026_07_28),
                         [](const auto& param_info) {
                           return EraOf(param_info.param) == Era::kHandshake ? "Handshake"
                                                                             : "Stateless";
                         });

TEST(ServerInfoOf, ReadsWhereEachEraPutsItAndOnlyStrings) {
  const json::object handshake =
      json::parse(R"({"serverInfo":{"name":"s","version":"1","title":"S"}})").as_object();
  EXPECT_EQ(ServerInfoOf(handshake, Era::kHandshake), (ServerInfo{"s", "1", "S"}));
  // The handshake era's member is not where 2026-07-28 looks, and the reverse.
  EXPECT_FALSE(ServerInfoOf(handshake, Era::kStateless));
  const json::object stateless =
      json::parse(R"({"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":7}}})")
          .as_object();
  EXPECT_EQ(ServerInfoOf(stateless, Era::kStateless), (ServerInfo{"s", "", ""}));
  EXPECT_FALSE(ServerInfoOf(stateless, Era::kHandshake));
  EXPECT_FALSE(ServerInfoOf(json::parse(R"({"serverInfo":"s 1"})").as_object(), Era::kHandshake));
  EXPECT_FALSE(ServerInfoOf(json::parse(R"({"serverInfo":{"name":1,"version":[]}})").as_object(),
                            Era::kHandshake));
  json::object long_version{{"serverInfo", {{"name", "s"}, {"version", std::string(5000, 'v')}}}};
  EXPECT_EQ(ServerInfoOf(long_version, Era::kHandshake)->version.size(), kServerInfoCap);
}

}  // namespace
}  // namespace mcpfuzz::test_support
