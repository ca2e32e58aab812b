// The coverage agent for Python servers (coverage/agent/sitecustomize.py, issue #28): against
// tests/fixtures/conformant_stdio.py, a stdlib-only MCP server, started with `python3` as a
// user would, the agents' folder offered as every run offers it.

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "coverage/coverage_map.h"
#include "model/model.h"
#include "support/agent_session.h"
#include "support/files.h"
#include "support/processes.h"
#include "transport/client.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

const std::string kServer = std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures/conformant_stdio.py";

class PythonCoverageAgent : public test_support::AgentSession {
 protected:
  void Open(std::vector<std::pair<std::string, std::string>> env = {}) {
    AgentSession::Open({"python3", kServer}, std::move(env));
  }
};

// The agent greeted (TakeCoverage refuses a channel that did not begin with the greeting), and
// a take names the lines of the server that ran as blocks of one line, in file:// urls, leaving
// out the standard library the server imported (json, threading) and the agent itself.
TEST_F(PythonCoverageAgent, ReportsTheServersLinesAsBlocksOfOneLine) {
  Open();
  const std::string reply = TakeReply();
  const boost::json::object taken = boost::json::parse(reply).as_object();
  std::int64_t server_script = -1;
  for (const auto& script : taken.at("scripts").as_array()) {
    const std::string url(script.at(1).as_string());
    EXPECT_TRUE(url.starts_with("file:///")) << url;
    EXPECT_EQ(url.find("/json/"), std::string::npos) << url;
    EXPECT_FALSE(url.ends_with("/threading.py")) << url;
    EXPECT_FALSE(url.ends_with("/sitecustomize.py")) << url;
    if (url.ends_with("/tests/fixtures/conformant_stdio.py")) {
      server_script = script.at(0).to_number<std::int64_t>();
    }
  }
  ASSERT_GE(server_script, 0) << reply;
  std::size_t server_lines = 0;
  for (const auto& block : taken.at("blocks").as_array()) {
    const auto line = block.at(1).to_number<std::int64_t>();
    EXPECT_EQ(block.at(2).to_number<std::int64_t>(), line) << "a block is one line";
    EXPECT_GE(line, 1);
    if (block.at(0).to_number<std::int64_t>() == server_script) ++server_lines;
  }
  EXPECT_GT(server_lines, 0U) << reply;
  EXPECT_TRUE(taken.at("unrun").as_array().empty());
  EXPECT_TRUE(map_.Merge(reply).ok()) << "the map reads the reply as it reads the Node agent's";
}

// A server that crashes leaves the lines that ran up to the crash: the agent writes them as
// the interpreter exits. dies_on_unknown_tool.py raises on a tool it does not list.
TEST_F(PythonCoverageAgent, AServerThatCrashesLeavesWhatRanUpToTheCrash) {
  const std::string fixtures = std::string(MCPFUZZ_SOURCE_DIR) + "/tests/fixtures";
  // Not asked before the crash, so that the last take names the scripts too.
  AgentSession::Open({"python3", fixtures + "/dies_on_unknown_tool.py"});
  const Observation crashed =
      server_->Send(client_->Make("tools/call", {{"name", "mcpfuzz_absent"}}));
  ASSERT_EQ(crashed.outcome, Outcome::kExited) << crashed.detail;
  const std::string reply = TakeReply();
  ASSERT_FALSE(reply.empty());
  const std::string text = test_support::ReadFile(fixtures + "/dies_on_unknown_tool.py");
  const std::size_t raise = text.find("raise KeyError(name)");
  ASSERT_NE(raise, std::string::npos);
  EXPECT_TRUE(IsLastTake(reply)) << reply;
  EXPECT_TRUE(RanAt(reply, "/dies_on_unknown_tool.py", LineOf(text, raise))) << reply;
}

// A method not asked before runs lines of its own; the same method again runs none that are
// new; `take all` names again every line the method ran.
TEST_F(PythonCoverageAgent, ANewRequestReportsNewLinesARepeatNoneAndTakeAllNamesThemAgain) {
  Open();
  EXPECT_GT(Take().blocks, 0U);
  ASSERT_EQ(Call("tools/list").outcome, Outcome::kOk);
  const coverage::CoverageGain listed = Take();
  EXPECT_GT(listed.blocks, 0U) << "tools/list runs lines initialize did not";
  ASSERT_EQ(Call("tools/list").outcome, Outcome::kOk);
  EXPECT_EQ(Take().blocks, 0U) << "the same request again runs nothing new";
  EXPECT_EQ(Take().blocks, 0U) << "nor does asking twice";

  ASSERT_EQ(Call("tools/list").outcome, Outcome::kOk);
  auto all = map_.MergeAll(TakeReply(/*all=*/true));
  ASSERT_TRUE(all.ok()) << all.error().message;
  for (const coverage::BlockKey key : listed.keys) {
    EXPECT_NE(std::find(all->begin(), all->end(), key), all->end())
        << "every line tools/list ran first ran again";
  }
}

TEST_F(PythonCoverageAgent, NeverWritesToTheServersStdout) {
  Open();
  for (const char* method : {"tools/list", "ping", "prompts/list", "tools/list"}) {
    Take();
    const Observation observation = Call(method);
    EXPECT_TRUE(observation.non_json.empty()) << method << ": " << observation.non_json.front();
    EXPECT_EQ(observation.messages.size(), 1U) << method;
    EXPECT_TRUE(observation.messages.at(0).as_object().contains("jsonrpc")) << method;
  }
}

// The agent's thread does not keep the server alive: it ends with its stdin, as without it.
TEST_F(PythonCoverageAgent, TheServerEndsWhenItsStdinCloses) {
  Open();
  Take();
  ASSERT_EQ(Call("tools/list").outcome, Outcome::kOk);
  const ProcessExit exit = server_->Shutdown();
  EXPECT_FALSE(exit.killed_by_mcpfuzz) << exit.stderr_tail;
  EXPECT_EQ(exit.exit_code, 0) << exit.stderr_tail;
}

// A sitecustomize the environment had (further down PYTHONPATH) still runs, and what the
// server's children would inherit names neither the channel nor an agent.
TEST_F(PythonCoverageAgent, TheEnvironmentsOwnSitecustomizeRunsAndChildrenGetNoAgent) {
  test_support::ScratchDirectory scratch("python-sitecustomize");
  std::filesystem::create_directories(scratch.path());
  {
    std::ofstream own(scratch.path() / "sitecustomize.py");
    own << "import json, os\n"
           "names = ('MCPFUZZ_COVERAGE_FD', 'PYTHONPATH', 'NODE_OPTIONS')\n"
           "with open(os.path.join(os.path.dirname(__file__), 'seen.json'), 'w') as out:\n"
           "    json.dump({name: os.environ.get(name) for name in names}, out)\n";
  }
  Open({{"PYTHONPATH", scratch.path().string()}, {"NODE_OPTIONS", "--no-warnings"}});
  EXPECT_GT(Take().blocks, 0U);
  const boost::json::object seen = test_support::ReadJson(scratch.path() / "seen.json").as_object();
  EXPECT_TRUE(seen.at("MCPFUZZ_COVERAGE_FD").is_null()) << seen;
  EXPECT_EQ(seen.at("PYTHONPATH"), boost::json::value(scratch.path().string())) << seen;
  EXPECT_EQ(seen.at("NODE_OPTIONS"), boost::json::value("--no-warnings")) << seen;
}

// `fuzz --coverage` end to end against a Python server: the binary writes the agents it
// carries, the server loads its own, the report counts its lines, and nothing outlives the run.
TEST_F(PythonCoverageAgent, FuzzReportsThePythonServersCoverage) {
  test_support::ScratchDirectory scratch("fuzz-coverage-python");
  const auto [run, temporary, report] =
      FuzzWithOwnTmp(scratch.path(), "--coverage --cases 60 --seed 1 --progress never",
                     "python3 " + ShellQuote(kServer));
  ASSERT_NE(run.exit_code, 2) << run.output;
  const boost::json::object coverage = test_support::ReadJson(report).at("coverage").as_object();
  ASSERT_FALSE(coverage.contains("off")) << coverage;
  EXPECT_GT(coverage.at("blocks").to_number<std::size_t>(), 0U);
  bool server_script = false;
  for (const auto& script : coverage.at("scripts").as_array()) {
    if (script.at("url").as_string().ends_with("/tests/fixtures/conformant_stdio.py")) {
      server_script = script.at("blocks").to_number<std::size_t>() > 0;
    }
  }
  EXPECT_TRUE(server_script) << coverage;
  EXPECT_TRUE(std::filesystem::is_empty(temporary)) << "the agents' folder outlived the run";
  EXPECT_EQ(test_support::ProcessesWhoseEnvironmentNames(temporary.string()), 0U)
      << "a server with the agent outlived the run";
}

}  // namespace
}  // namespace mcpfuzz
