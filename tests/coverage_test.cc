// The coverage agent for Node servers and the map its replies merge into: against the real SDK
// server over stdio (issue #28), and the map alone.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "coverage/coverage_map.h"
#include "model/model.h"
#include "transport/client.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

using std::chrono::milliseconds;

const std::string kAgent =
    std::string(MCPFUZZ_SOURCE_DIR) + "/coverage/agent/mcpfuzz-coverage-agent.cjs";
const std::string kServers = std::string(MCPFUZZ_SOURCE_DIR) + "/tests/servers";

TEST(CoverageMap, CountsEachBlockOnceAcrossReplies) {
  coverage::CoverageMap map;
  auto first = map.Merge(
      R"({"scripts":[[0,"file:///srv/server.js"],[1,"file:///srv/node_modules/sdk/index.js"]],)"
      R"("blocks":[[0,0,100],[0,10,20],[1,5,9]]})");
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->blocks, 3U);
  EXPECT_EQ(first->in_node_modules, 1U);
  // Script ids named before stay known; a block seen before is not new.
  auto second = map.Merge(R"({"scripts":[],"blocks":[[0,10,20],[0,30,40]]})");
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->blocks, 1U);
  EXPECT_EQ(map.blocks(), 4U);
  EXPECT_EQ(map.blocks_in_node_modules(), 1U);
  const std::vector<coverage::ScriptCoverage> scripts = map.Scripts();
  ASSERT_EQ(scripts.size(), 2U);
  EXPECT_EQ(scripts[0].url, "file:///srv/node_modules/sdk/index.js");
  EXPECT_TRUE(scripts[0].in_node_modules);
  EXPECT_EQ(scripts[1].blocks, 3U);
}

TEST(CoverageMap, AnotherProcessNumbersItsScriptsAfreshButSeenBlocksStaySeen) {
  coverage::CoverageMap map;
  ASSERT_TRUE(map.Merge(R"({"scripts":[[0,"file:///a.js"]],"blocks":[[0,1,2]]})").ok());
  map.ForgetScriptIds();
  EXPECT_FALSE(map.Merge(R"({"scripts":[],"blocks":[[0,1,2]]})").ok()) << "id 0 is forgotten";
  auto again = map.Merge(R"({"scripts":[[0,"file:///b.js"],[1,"file:///a.js"]],)"
                         R"("blocks":[[1,1,2],[0,1,2]]})");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->blocks, 1U) << "a.js's block was seen from the first process";
}

TEST(CoverageMap, AMalformedReplyIsAnErrorAndChangesNothing) {
  coverage::CoverageMap map;
  for (const char* reply :
       {"", "[]", R"({"scripts":[]})", R"({"scripts":[[0,"file:///a.js"]],"blocks":[[0,1]]})",
        R"({"scripts":[[0,"file:///a.js"]],"blocks":[[0,1,2],[7,1,2]]})",
        R"({"error":"Profiler is not enabled"})"}) {
    EXPECT_FALSE(map.Merge(reply).ok()) << reply;
  }
  EXPECT_EQ(map.blocks(), 0U);
  EXPECT_TRUE(map.Scripts().empty());
}

class CoverageAgent : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(kServers + "/node_modules/@modelcontextprotocol"))
        << "the real servers are missing: run scripts/bootstrap.sh";
  }

  // Starts `argv` with the agent and opens a session in 2025-11-25 on it.
  void Open(std::vector<std::string> argv) {
    StdioTarget target;
    target.argv = std::move(argv);
    target.coverage_agent = kAgent;
    auto spawned = SpawnStdio(std::move(target));
    ASSERT_TRUE(spawned.ok()) << spawned.error().message;
    server_ = std::move(*spawned);
    client_ = std::make_unique<McpClient>(*server_, Revision::k2025_11_25);
    ASSERT_TRUE(client_->Open().ok());
  }

  coverage::CoverageGain Take() {
    auto reply = server_->TakeCoverage();
    EXPECT_TRUE(reply.ok()) << reply.error().message;
    if (!reply.ok()) return {};
    auto gain = map_.Merge(*reply);
    EXPECT_TRUE(gain.ok()) << gain.error().message;
    return gain.ok() ? *gain : coverage::CoverageGain{};
  }

  Observation Call(const std::string& method) { return server_->Send(client_->Make(method)); }

  std::unique_ptr<StdioTransport> server_;
  std::unique_ptr<McpClient> client_;
  coverage::CoverageMap map_;
};

// What a request ran is reported once: a method not asked before runs blocks of its own, the
// same method again runs none that are new. The SDK's code lies under node_modules.
TEST_F(CoverageAgent, ReportsTheBlocksANewRequestRanAndNothingForARepeat) {
  Open({"node", kServers + "/sdk-v1.mjs", "--stdio"});
  const coverage::CoverageGain opened = Take();
  EXPECT_GT(opened.blocks, 0U);
  EXPECT_GT(opened.in_node_modules, 0U) << "the SDK's own code is covered";
  EXPECT_GT(opened.blocks - opened.in_node_modules, 0U) << "and the server's";

  ASSERT_EQ(Call("tools/list").outcome, Outcome::kOk);
  EXPECT_GT(Take().blocks, 0U) << "tools/list runs code initialize did not";
  ASSERT_EQ(Call("tools/list").outcome, Outcome::kOk);
  EXPECT_EQ(Take().blocks, 0U) << "the same request again runs nothing new";
  EXPECT_EQ(Take().blocks, 0U) << "nor does asking twice";

  // The agent does not keep the server alive: it ends with its stdin, as without the agent.
  const ProcessExit exit = server_->Shutdown();
  EXPECT_FALSE(exit.killed_by_mcpfuzz) << exit.stderr_tail;
  EXPECT_EQ(exit.exit_code, 0) << exit.stderr_tail;
}

TEST_F(CoverageAgent, NeverWritesToTheServersStdout) {
  Open({"node", kServers + "/sdk-v1.mjs", "--stdio"});
  for (const char* method : {"tools/list", "prompts/list", "resources/list", "ping"}) {
    Take();
    const Observation observation = Call(method);
    EXPECT_EQ(observation.outcome, Outcome::kOk) << method << ": " << observation.detail;
    EXPECT_TRUE(observation.non_json.empty()) << method << ": " << observation.non_json.front();
    EXPECT_EQ(observation.messages.size(), 1U) << method;
  }
}

// A server that does not load the agent (not a Node process) is still served; coverage is off
// and the error says why, decided by its first reply, not by a wait.
TEST_F(CoverageAgent, AServerWithoutTheAgentWorksAndCoverageSaysWhyItIsOff) {
  Open({"python3", std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/conformant_stdio.py"});
  auto taken = server_->TakeCoverage();
  ASSERT_FALSE(taken.ok());
  EXPECT_NE(taken.error().message.find("did not load it"), std::string::npos)
      << taken.error().message;
  EXPECT_EQ(Call("ping").outcome, Outcome::kOk);

  StdioTarget plain;
  plain.argv = {"node", kServers + "/sdk-v1.mjs", "--stdio"};
  auto without = SpawnStdio(std::move(plain));
  ASSERT_TRUE(without.ok());
  auto none = (*without)->TakeCoverage();
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("without a coverage agent"), std::string::npos)
      << none.error().message;
}

}  // namespace
}  // namespace mcpfuzz
