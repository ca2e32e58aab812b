#pragma once
// A stdio server started with mcpfuzz's coverage agents offered, a 2025-11-25 session opened on
// it, and the map its takes merge into: what the Node and the Python agent's tests share.

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "coverage/coverage_map.h"
#include "model/model.h"
#include "support/processes.h"
#include "transport/client.h"
#include "transport/transport.h"

namespace mcpfuzz::test_support {

/// The agents' folder in the source tree, laid out as a run writes it.
inline const std::string kAgentFolder = std::string(MCPFUZZ_SOURCE_DIR) + "/coverage/agent";

class AgentSession : public ::testing::Test {
 protected:
  // Starts `argv` with the agents offered and opens a session in 2025-11-25 on it.
  void Open(std::vector<std::string> argv,
            std::vector<std::pair<std::string, std::string>> env = {}) {
    StdioTarget target;
    target.argv = std::move(argv);
    target.env = std::move(env);
    target.coverage_agent = kAgentFolder;
    auto spawned = SpawnStdio(std::move(target));
    ASSERT_TRUE(spawned.ok()) << spawned.error().message;
    server_ = std::move(*spawned);
    client_ = std::make_unique<McpClient>(*server_, Revision::k2025_11_25);
    ASSERT_TRUE(client_->Open().ok());
  }

  std::string TakeReply(bool all = false) {
    auto reply = server_->TakeCoverage(all);
    EXPECT_TRUE(reply.ok()) << reply.error().message;
    return reply.ok() ? *reply : std::string();
  }

  coverage::CoverageGain Take() {
    auto gain = map_.Merge(TakeReply());
    EXPECT_TRUE(gain.ok()) << gain.error().message;
    return gain.ok() ? *gain : coverage::CoverageGain{};
  }

  Observation Call(const std::string& method) { return server_->Send(client_->Make(method)); }

  /// Whether a take's `reply` names a block of the script whose url ends with `script` around
  /// `position` (an offset in a Node script, a line in a Python one).
  static bool RanAt(const std::string& reply, const std::string& script, std::int64_t position) {
    const boost::json::object taken = boost::json::parse(reply).as_object();
    std::int64_t id = -1;
    for (const auto& named : taken.at("scripts").as_array()) {
      if (std::string_view(named.at(1).as_string()).ends_with(script)) {
        id = named.at(0).to_number<std::int64_t>();
      }
    }
    const auto& blocks = taken.at("blocks").as_array();
    return std::any_of(blocks.begin(), blocks.end(), [&](const boost::json::value& block) {
      return block.at(0).to_number<std::int64_t>() == id &&
             block.at(1).to_number<std::int64_t>() <= position &&
             position <= block.at(2).to_number<std::int64_t>();
    });
  }

  /// The 1-based line of `text` that `offset` falls on (a Python block is a line).
  static std::int64_t LineOf(const std::string& text, std::size_t offset) {
    return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
  }

  /// `mcpfuzz fuzz ARGUMENTS --report json=REPORT -- SERVER` with TMPDIR a folder of its own
  /// under `scratch` (where the run writes its agents), so a test can tell that the folder and
  /// every server that loaded from it are gone after the run.
  struct FuzzRun {
    ProcessRun run;
    std::filesystem::path temporary;
    std::filesystem::path report;
  };
  static FuzzRun FuzzWithOwnTmp(const std::filesystem::path& scratch, const std::string& arguments,
                                const std::string& server) {
    FuzzRun fuzz;
    fuzz.temporary = scratch / "tmp";
    std::filesystem::create_directories(fuzz.temporary);
    fuzz.report = scratch / "report.json";
    fuzz.run = RunShell("TMPDIR=" + ShellQuote(fuzz.temporary.string()) + " timeout -k 5 300 " +
                        ShellQuote(McpfuzzBinary()) + " fuzz " + arguments + " --report json=" +
                        ShellQuote(fuzz.report.string()) + " -- " + server + " </dev/null");
    return fuzz;
  }

  std::unique_ptr<StdioTransport> server_;
  std::unique_ptr<McpClient> client_;
  coverage::CoverageMap map_;
};

}  // namespace mcpfuzz::test_support
