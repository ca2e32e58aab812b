// SendPipelined against a real stdio server nobody here wrote: the TypeScript SDK v1 (installed
// by scripts/bootstrap.sh), which drops a line it cannot parse, and a request it cannot
// validate, without a word. The sentinel tells that in one round trip instead of a timeout.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <string>

#include "model/model.h"
#include "transport/client.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

std::string RealServersDir() { return std::string(MCPFUZZ_SOURCE_DIR) + "/tests/servers"; }

Request Raw(std::string bytes) {
  Request request;
  request.transport = TransportKind::kStdio;
  request.body = RawBody{std::move(bytes)};
  return request;
}

TEST(StdioPipelineRealServer, SdkV1DropsWhatItCannotParseAndAnswersTheRest) {
  ASSERT_TRUE(std::filesystem::exists(RealServersDir() + "/node_modules/@modelcontextprotocol"))
      << "the real servers are missing: run scripts/bootstrap.sh";
  StdioTarget target;
  target.argv = {"node", RealServersDir() + "/sdk-v1.mjs", "--stdio"};
  // Long enough for node to start on a loaded machine.
  target.limits.timeout = std::chrono::milliseconds(5000);
  auto transport = SpawnStdio(target);
  ASSERT_TRUE(transport.ok()) << transport.error().message;
  McpClient client(**transport, Revision::k2025_11_25);
  auto opened = client.Open();
  ASSERT_TRUE(opened.ok()) << opened.error().message;

  auto with_sentinel = [&client](Request request) {
    Pipeline pipeline;
    pipeline.requests = {std::move(request)};
    pipeline.sentinel = client.Make("ping");
    return pipeline;
  };

  const Request unparseable = Raw("this is not json");
  PipelineResult result = (*transport)->SendPipelined(with_sentinel(unparseable));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kDropped) << result.observations[0].detail;
  EXPECT_EQ(ClassifyReply(unparseable, result.observations[0]).channel, Channel::kNoReply);
  EXPECT_EQ(result.sentinel.outcome, Outcome::kOk) << result.sentinel.detail;
  EXPECT_FALSE(result.ambiguous);

  // An id the server could echo, on a request whose params it cannot validate.
  result = (*transport)
               ->SendPipelined(with_sentinel(Raw(
                   R"({"jsonrpc":"2.0","id":"bad-params","method":"tools/call","params":"x"})")));
  EXPECT_EQ(result.observations[0].outcome, Outcome::kDropped) << result.observations[0].detail;
  EXPECT_EQ(result.sentinel.outcome, Outcome::kOk) << result.sentinel.detail;

  const Request list = client.Make("tools/list");
  result = (*transport)->SendPipelined(with_sentinel(list));
  ASSERT_EQ(result.observations[0].outcome, Outcome::kOk) << result.observations[0].detail;
  Reply reply = ClassifyReply(list, result.observations[0]);
  ASSERT_EQ(reply.channel, Channel::kSuccess) << DescribeReply(reply, result.observations[0]);
  bool echo_listed = false;
  for (const auto& tool : reply.message->at("result").at("tools").as_array()) {
    echo_listed = echo_listed || tool.at("name") == boost::json::value("echo");
  }
  EXPECT_TRUE(echo_listed);
  EXPECT_EQ(result.sentinel.outcome, Outcome::kOk) << result.sentinel.detail;
  EXPECT_FALSE(result.ambiguous);
  EXPECT_TRUE(result.sentinel.late_replies.empty());
  (*transport)->Shutdown();
}

}  // namespace
}  // namespace mcpfuzz
