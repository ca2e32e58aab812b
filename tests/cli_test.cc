#include <gtest/gtest.h>

#include "cli/options.h"
#include "cli/terminal.h"

namespace mcpfuzz::cli {
namespace {

TEST(Options, ParsesAnHttpTargetWithHeadersAndLimits) {
  auto options = ParseOptions({"probe", "http://127.0.0.1:3000/mcp", "--header",
                               "Authorization: Bearer x", "--timeout-ms", "250"});
  ASSERT_TRUE(options.ok()) << options.error().message;
  EXPECT_EQ(options->command, Command::kProbe);
  EXPECT_EQ(options->target.kind, TargetSpec::Kind::kHttpUrl);
  ASSERT_EQ(options->target.extra_headers.size(), 1U);
  EXPECT_EQ(options->target.extra_headers[0], (Header{"Authorization", "Bearer x"}));
  EXPECT_EQ(options->target.limits.timeout.count(), 250);
}

TEST(Options, EverythingAfterDoubleDashIsTheStdioCommand) {
  auto options = ParseOptions({"probe", "--timeout-ms", "100", "--", "node", "s.js", "--http"});
  ASSERT_TRUE(options.ok()) << options.error().message;
  EXPECT_EQ(options->target.kind, TargetSpec::Kind::kStdioCommand);
  EXPECT_EQ(options->target.argv, (std::vector<std::string>{"node", "s.js", "--http"}));
}

TEST(Options, BadInputIsAnErrorThatSaysWhatIsWrong) {
  struct Case {
    std::vector<std::string> args;
    std::string mentions;
  };
  for (const Case& c :
       std::vector<Case>{{{"frobnicate"}, "unknown command"},
                         {{"probe"}, "needs a TARGET"},
                         {{"probe", "--builtin", "http://127.0.0.1/mcp"}, "exactly one TARGET"},
                         {{"probe", "--builtin", "--timeout-ms", "soon"}, "positive whole number"},
                         {{"probe", "--builtin", "--header", "no-colon"}, "Name: value"},
                         {{"probe", "http://127.0.0.1/mcp", "--fault", "x"}, "--builtin"},
                         {{"probe", "--builtin", "--"}, "followed by"},
                         {{"send", "--builtin"}, "CASE.json"},
                         {{"probe", "--bogus"}, "unknown option"}}) {
    auto options = ParseOptions(c.args);
    ASSERT_FALSE(options.ok()) << c.args[0];
    EXPECT_NE(options.error().message.find(c.mentions), std::string::npos)
        << options.error().message;
  }
}

TEST(Options, HelpIsAvailablePerCommand) {
  auto options = ParseOptions({"probe", "--help"});
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->command, Command::kHelp);
  EXPECT_NE(HelpText(options->help_topic).find("server/discover"), std::string::npos);
  EXPECT_NE(HelpText("").find("Examples"), std::string::npos);
}

TEST(Terminal, EscapesControlCharactersEscapeSequencesAndInvalidUtf8) {
  EXPECT_EQ(EscapeForTerminal("ok é"), "ok é");
  EXPECT_EQ(EscapeForTerminal("\x1b[2Jboom"), "\\x1B[2Jboom");
  EXPECT_EQ(EscapeForTerminal("a\nb\tc\r"), "a\\nb\\tc\\x0D");
  EXPECT_EQ(EscapeForTerminal(std::string("\xFF\xC3", 2)), "\\xFF\\xC3");
  EXPECT_EQ(EscapeForTerminal("\xC2\x9B"
                              "31m"),
            "\\u009B31m");
  EXPECT_EQ(EscapeForTerminal("abcdef", 3), "abc…");
}

}  // namespace
}  // namespace mcpfuzz::cli
