// Issue #24's determinism check: `mcpfuzz check` run K times against the real SDK v1 and SDK v2
// stdio servers, at the default flags, speaks the same revisions and reaches the same verdict
// for every check each time. On a loaded machine (scripts/test-under-load.sh) slow starts and
// late replies used to change both from one run to the next; what a server answers does not.
//
// K is MCPFUZZ_DETERMINISM_RUNS (default 10). Label `load`: the plain CI pass leaves it out and
// scripts/test-under-load.sh runs it beside the CPU hog.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/reproducer.h"
#include "support/files.h"
#include "support/processes.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using test_support::ProcessRun;
using test_support::ScratchDirectory;

// A run that has not ended after this long is hung (one takes about half a minute, and about a
// minute beside the CPU hog).
constexpr int kRunBoundSeconds = 600;

int Runs() {
  const char* runs = std::getenv("MCPFUZZ_DETERMINISM_RUNS");
  const int parsed = runs != nullptr ? std::atoi(runs) : 0;
  return parsed > 0 ? parsed : 10;
}

std::string Text(const json::value& value) {
  return value.is_string() ? std::string(value.get_string()) : json::serialize(value);
}

// What must not change between runs: the revisions spoken and each check's verdict where it
// ran. Everything else (durations, ids, excerpts) may.
struct Outcome {
  int exit_code = -1;
  std::vector<std::string> speaks;
  std::map<std::string, std::string> verdicts;  // "id@revision/transport" -> verdict
  bool operator==(const Outcome&) const = default;
};

std::string Describe(const Outcome& outcome) {
  std::string text = "exit " + std::to_string(outcome.exit_code) + ", speaks";
  for (const std::string& revision : outcome.speaks) text += " " + revision;
  return text;
}

// The verdicts on which `a` and `b` differ, one a line.
std::string Differences(const Outcome& a, const Outcome& b) {
  std::set<std::string> keys;
  for (const auto& [key, verdict] : a.verdicts) keys.insert(key);
  for (const auto& [key, verdict] : b.verdicts) keys.insert(key);
  std::string text;
  for (const std::string& key : keys) {
    const auto in_a = a.verdicts.find(key);
    const auto in_b = b.verdicts.find(key);
    const std::string first = in_a == a.verdicts.end() ? "(not run)" : in_a->second;
    const std::string then = in_b == b.verdicts.end() ? "(not run)" : in_b->second;
    if (first != then) text += "  " + key + ": " + first + " -> " + then + "\n";
  }
  return text;
}

struct CheckRun {
  Outcome outcome;
  double seconds = 0;
  std::string output;
};

CheckRun RunCheck(const std::string& script, const std::filesystem::path& report) {
  std::filesystem::remove(report);
  const auto start = std::chrono::steady_clock::now();
  const ProcessRun run = test_support::McpfuzzWithin(
      kRunBoundSeconds,
      "check --report json=" + ShellQuote(report.string()) + " -- node " +
          ShellQuote(std::string(MCPFUZZ_SOURCE_DIR) + "/tests/servers/" + script) + " --stdio");
  CheckRun checked;
  checked.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  checked.output = run.output;
  checked.outcome.exit_code = run.exit_code;
  const std::optional<json::value> written = test_support::ReadReport(report);
  if (!written) return checked;
  for (const json::value& revision : written->at("eras").at("speaks").as_array()) {
    checked.outcome.speaks.push_back(Text(revision));
  }
  for (const json::value& check : written->at("checks").as_array()) {
    checked.outcome.verdicts[Text(check.at("id")) + "@" + Text(check.at("revision")) + "/" +
                             Text(check.at("transport"))] = Text(check.at("verdict"));
  }
  return checked;
}

void ExpectTheSameEveryTime(const std::string& script) {
  ASSERT_TRUE(std::filesystem::exists(std::string(MCPFUZZ_SOURCE_DIR) +
                                      "/tests/servers/node_modules/@modelcontextprotocol"))
      << "the real servers are missing: run scripts/bootstrap.sh";
  ScratchDirectory scratch("determinism-" + script);
  std::filesystem::create_directories(scratch.path());
  const int runs = Runs();
  const CheckRun first = RunCheck(script, scratch.path() / "report.json");
  std::cout << "[ determinism ] " << script << " run 1 of " << runs << ": " << first.seconds
            << " s, " << Describe(first.outcome) << "\n";
  ASSERT_TRUE(first.outcome.exit_code == 0 || first.outcome.exit_code == 1)
      << "the first run judged nothing (exit " << first.outcome.exit_code << ")\n"
      << first.output;
  ASSERT_FALSE(first.outcome.verdicts.empty()) << first.output;
  for (int run = 2; run <= runs; ++run) {
    const CheckRun again = RunCheck(script, scratch.path() / "report.json");
    std::cout << "[ determinism ] " << script << " run " << run << " of " << runs << ": "
              << again.seconds << " s, " << Describe(again.outcome) << "\n";
    EXPECT_EQ(again.outcome.speaks, first.outcome.speaks)
        << "run " << run << " speaks other revisions than run 1: " << Describe(again.outcome)
        << " against " << Describe(first.outcome) << "\n"
        << again.output;
    EXPECT_EQ(again.outcome.exit_code, first.outcome.exit_code) << again.output;
    EXPECT_TRUE(again.outcome.verdicts == first.outcome.verdicts)
        << "run " << run << " differs from run 1:\n"
        << Differences(first.outcome, again.outcome);
  }
}

TEST(Determinism, CheckAgainstSdkV1StdioIsTheSameEveryRun) { ExpectTheSameEveryTime("sdk-v1.mjs"); }

TEST(Determinism, CheckAgainstSdkV2StdioIsTheSameEveryRun) { ExpectTheSameEveryTime("sdk-v2.mjs"); }

}  // namespace
}  // namespace mcpfuzz
