// `mcpfuzz --version` and the bash completion generated from the flag table: the completion is
// loaded into a real bash and asked, as bash-completion would ask it, what follows the words
// typed so far.

#include "cli/completion.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "cli/flags.h"
#include "support/processes.h"

namespace mcpfuzz::test_support {
namespace {

class Completion : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(scratch_.path());
    std::ofstream(script_) << cli::BashCompletion();
    std::ofstream(scratch_.path() / "servers.txt") << "# one target a line\n";
  }

  // What the completion offers after `words` (the last one is the word being completed).
  std::string Complete(const std::string& words) {
    const std::string command = "cd " + ShellQuote(scratch_.path().string()) +
                                " && bash -c 'source \"$0\"; COMP_WORDS=(" + words +
                                "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _mcpfuzz; "
                                "printf \"%s\\n\" \"${COMPREPLY[@]}\"' " +
                                ShellQuote(script_.string());
    ProcessRun run = RunShell(command);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    return run.output;
  }

  ScratchDirectory scratch_{"completion"};
  std::filesystem::path script_ = scratch_.path() / "mcpfuzz.bash";
};

TEST_F(Completion, EveryFlagOfEveryCommandCompletesForThatCommandOnly) {
  for (const cli::CommandWord& command : cli::FlagCommands()) {
    const std::string offered = Complete("mcpfuzz " + std::string(command.word) + " --");
    for (const cli::Flag& flag : cli::Flags()) {
      const bool listed = offered.find(std::string(flag.name) + "\n") != std::string::npos;
      EXPECT_EQ(listed, cli::AppliesTo(flag, command.command))
          << command.word << " " << flag.name << "\n"
          << offered;
    }
  }
}

TEST_F(Completion, CompletesCommandsAndTheValuesOfFlags) {
  EXPECT_EQ(Complete("mcpfuzz ch"), "check\n");
  EXPECT_EQ(Complete("mcpfuzz fuzz --se"), "--server-cmd\n--seed\n--sequence-every\n");
  EXPECT_EQ(Complete("mcpfuzz check --builtin --revision 2025-1"), "2025-11-25\n");
  EXPECT_EQ(Complete("mcpfuzz check --targets serv"), "servers.txt\n");
  EXPECT_EQ(Complete("mcpfuzz fuzz --report ht"), "html=\n");
  // A number is typed, not offered; after `--` the stdio server's own words begin.
  EXPECT_EQ(Complete("mcpfuzz fuzz --cases \"\""), "\n");
  EXPECT_EQ(Complete("mcpfuzz check -- node --"), "\n");
}

TEST(Version, NamesTheVersionAndTheCommitItWasBuiltFrom) {
  const ProcessRun run = Mcpfuzz("--version");
  EXPECT_EQ(run.exit_code, 0);
  // The commit is whatever HEAD was at configure time, or "unknown" outside a checkout.
  EXPECT_TRUE(std::regex_match(run.output, std::regex(std::string("mcpfuzz ") + MCPFUZZ_VERSION +
                                                      R"( \(commit ([0-9a-f]{7,40}|unknown)\)\n)")))
      << run.output;
}

TEST(Version, TheBuildWroteTheCompletionTheBinaryPrints) {
  const ProcessRun run = Mcpfuzz("completion bash");
  ASSERT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.output, cli::BashCompletion());
  std::ifstream built(std::string(MCPFUZZ_BINARY_DIR) + "/cli/completion/mcpfuzz");
  std::ostringstream text;
  text << built.rdbuf();
  EXPECT_EQ(text.str(), cli::BashCompletion());
  EXPECT_EQ(Mcpfuzz("completion zsh").exit_code, 2);
}

}  // namespace
}  // namespace mcpfuzz::test_support
