// Issue #27: a newcomer copies the help's examples first. Every example command line of the
// overview and of each command's help is parsed as the shell gives it to mcpfuzz, and the ones
// that need no server of the reader's own (--builtin, --builtin-stdio, builtin targets) are run,
// in order, in a folder of their own: each must judge something (exit 0 or 1), never fail to
// run (2).

#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cli/options.h"
#include "model/reproducer.h"
#include "support/files.h"
#include "support/processes.h"

namespace mcpfuzz::cli {
namespace {

// The lines of the "Examples:" block of `help` up to its blank line, each continuation
// ("\" at a line's end) joined to its line and a trailing "# comment" cut.
std::vector<std::string> Examples(const std::string& help) {
  std::vector<std::string> examples;
  const std::size_t block = help.find("\nExamples:\n");
  if (block == std::string::npos) return examples;
  std::size_t at = block + 11;
  std::string pending;
  while (at < help.size()) {
    const std::size_t end = help.find('\n', at);
    std::string line = help.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? help.size() : end + 1;
    if (line.empty()) break;
    line.erase(0, line.find_first_not_of(' '));
    if (const std::size_t comment = line.find("   #"); comment != std::string::npos) {
      line.erase(comment);
    }
    const bool continued = line.ends_with("\\");
    if (continued) line.pop_back();
    pending += line;
    if (continued) continue;
    examples.push_back(pending);
    pending.clear();
  }
  return examples;
}

// The words the shell makes of `command_line` (quotes removed, variables expanded).
std::vector<std::string> ShellWords(const std::string& command_line) {
  const test_support::ProcessRun run =
      test_support::RunShell("set -- " + command_line + "; printf '%s\\n' \"$@\"");
  std::vector<std::string> words;
  std::size_t at = 0;
  while (at < run.output.size()) {
    const std::size_t end = run.output.find('\n', at);
    words.push_back(run.output.substr(at, end - at));
    at = end + 1;
  }
  return words;
}

bool NeedsNoServerOfTheReaders(const std::string& example) {
  return example.find("--builtin") != std::string::npos ||
         example.starts_with("mcpfuzz diff builtin ");
}

TEST(HelpExamples, EveryExampleParsesAndTheBuiltinOnesRun) {
  const test_support::ScratchDirectory scratch("help-examples");
  std::filesystem::create_directories(scratch.path());
  // The examples name case files under corpus/ as a reader in the repository would.
  std::filesystem::create_directory_symlink(std::string(MCPFUZZ_SOURCE_DIR) + "/corpus",
                                            scratch.path() / "corpus");
  std::size_t parsed = 0;
  std::size_t ran = 0;
  for (const char* topic : {"", "check", "fuzz", "replay", "diff", "merge", "send", "probe"}) {
    for (const std::string& example : Examples(HelpText(topic))) {
      ASSERT_TRUE(example.starts_with("mcpfuzz ")) << example;
      std::vector<std::string> words = ShellWords(example);
      ASSERT_FALSE(words.empty()) << example;
      words.erase(words.begin());
      const auto options = ParseOptions(words);
      EXPECT_TRUE(options.ok()) << example << ": " << options.error().message;
      ++parsed;
      if (!NeedsNoServerOfTheReaders(example)) continue;
      const test_support::ProcessRun run = test_support::RunShell(
          "cd " + ShellQuote(scratch.path().string()) + " && timeout -k 5 300 " +
          ShellQuote(test_support::McpfuzzBinary()) + " " + example.substr(8) + " </dev/null");
      EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1)
          << example << " exited " << run.exit_code << ":\n"
          << run.output.substr(0, 2000);
      ++ran;
    }
  }
  EXPECT_GE(parsed, 10U);
  EXPECT_GE(ran, 6U);
}

// The README's "Using it" block, as a reader adapts it: URL stands for a server's address, and
// a pipe after the command is the reader's own. Each line must parse.
TEST(HelpExamples, EveryCommandLineOfTheReadmesUsingItParses) {
  const std::string readme = test_support::ReadFile(std::string(MCPFUZZ_SOURCE_DIR) + "/README.md");
  const std::size_t section = readme.find("\n## Using it\n");
  ASSERT_NE(section, std::string::npos);
  const std::size_t open = readme.find("```sh\n", section);
  const std::size_t close = readme.find("\n```", open + 6);
  ASSERT_NE(close, std::string::npos);
  std::size_t parsed = 0;
  std::string pending;
  std::size_t at = open + 6;
  while (at < close) {
    const std::size_t end = readme.find('\n', at);
    std::string line = readme.substr(at, end - at);
    at = end + 1;
    for (const char* cut : {"   #", "  #", " | "}) {
      if (const std::size_t from = line.find(cut); from != std::string::npos) line.erase(from);
    }
    const bool continued = line.ends_with("\\");
    if (continued) line.pop_back();
    pending += line;
    if (continued) continue;
    std::string example = std::exchange(pending, "");
    if (!example.starts_with("mcpfuzz ")) continue;
    for (std::size_t url = example.find(" URL "); url != std::string::npos;
         url = example.find(" URL ")) {
      example.replace(url, 5, " http://127.0.0.1:3000/mcp ");
    }
    std::vector<std::string> words = ShellWords(example);
    ASSERT_FALSE(words.empty()) << example;
    words.erase(words.begin());
    // The reference server is its own program behind `mcpfuzz refserver`, not a command here.
    if (!words.empty() && words.front() == "refserver") continue;
    const auto options = ParseOptions(words);
    EXPECT_TRUE(options.ok()) << example << ": " << options.error().message;
    ++parsed;
  }
  EXPECT_GE(parsed, 20U);
}

}  // namespace
}  // namespace mcpfuzz::cli
