#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>
#include <set>
#include <sstream>

#include "checks/checks.h"
#include "cli/check.h"
#include "cli/diff.h"
#include "cli/flags.h"
#include "cli/fuzz.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/run_reports.h"
#include "cli/targets_file.h"

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

// One reading of an HTTP target's URL wherever a target is typed: the scheme in any case, as
// RFC 3986 reads it (HTTP://, Https:// were refused or taken for a file before).
TEST(TargetWords, AnHttpSchemeIsReadInAnyCaseOnTheCommandLineInTargetsFilesAndDiffs) {
  for (const std::string url : {"HTTP://127.0.0.1:3000/mcp", "Https://localhost/mcp"}) {
    SCOPED_TRACE(url);
    auto options = ParseOptions({"check", url});
    ASSERT_TRUE(options.ok()) << options.error().message;
    EXPECT_EQ(options->target.kind, TargetSpec::Kind::kHttpUrl);
    EXPECT_EQ(options->target.url, url);
    auto file = ParseTargetsFile(url + "\nstdio: node  s.js\n", TargetSpec{});
    ASSERT_TRUE(file.ok()) << file.error().message;
    EXPECT_EQ(file->at(0).kind, TargetSpec::Kind::kHttpUrl);
    EXPECT_EQ(file->at(1).argv, (std::vector<std::string>{"node", "s.js"}));
    auto diff = ParseDiffTarget(url, TargetSpec{});
    ASSERT_TRUE(diff.ok()) << diff.error().message;
    EXPECT_EQ(diff->kind, TargetSpec::Kind::kHttpUrl);
  }
  EXPECT_FALSE(IsHttpUrl("httpx://127.0.0.1/mcp"));
  EXPECT_FALSE(IsHttpUrl("HTTP:/127.0.0.1/mcp"));
  EXPECT_FALSE(ParseOptions({"check", "ftp://127.0.0.1/mcp"}).ok());
}

// --env KEY=VALUE (repeatable) and --env-clear reach the stdio server's spec.
TEST(Options, EnvAndEnvClearAreForStdioServers) {
  auto options =
      ParseOptions({"check", "--env", "A=1", "--env=B=x=y", "--env-clear", "--", "node", "s.js"});
  ASSERT_TRUE(options.ok()) << options.error().message;
  EXPECT_EQ(options->target.env,
            (std::vector<std::pair<std::string, std::string>>{{"A", "1"}, {"B", "x=y"}}));
  EXPECT_TRUE(options->target.env_clear);
  EXPECT_FALSE(ParseOptions({"check", "--", "node"}).value().target.env_clear);
}

// --server-cmd starts the HTTP server at its URL, http://127.0.0.1:{port}/mcp unless one is
// given; the environment flags reach it as they reach a stdio server.
TEST(Options, AServerCommandIsAnHttpTargetWithADefaultUrlAndAnEnvironment) {
  auto options = ParseOptions({"fuzz", "--server-cmd", "node s.js --port {port}", "--env", "A=1"});
  ASSERT_TRUE(options.ok()) << options.error().message;
  EXPECT_EQ(options->target.kind, TargetSpec::Kind::kHttpUrl);
  EXPECT_EQ(options->target.url, "http://127.0.0.1:{port}/mcp");
  EXPECT_EQ(options->target.server_command, "node s.js --port {port}");
  EXPECT_EQ(options->target.env.size(), 1U);
  options = ParseOptions({"check", "http://localhost:{port}/rpc", "--server-cmd", "s {port}"});
  ASSERT_TRUE(options.ok()) << options.error().message;
  EXPECT_EQ(options->target.url, "http://localhost:{port}/rpc");
}

// What would be ignored in silence, or written where nobody can read it, is refused.
TEST(Options, OptionsThatCouldNotApplyAreRefused) {
  struct Case {
    std::vector<std::string> args;
    std::string mentions;
  };
  for (const Case& c : std::vector<Case>{
           {{"check", "--header", "A: b", "--", "node", "s.js"}, "a stdio target has no HTTP"},
           {{"check", "--header", "A: b", "--builtin-stdio"}, "a stdio target has no HTTP"},
           {{"check", "--env", "A=b", "http://127.0.0.1/mcp"}, "set the environment of a server"},
           {{"check", "--env-clear", "--builtin"}, "set the environment of a server"},
           {{"check", "--server-cmd", "s {port}", "--builtin"}, "no other TARGET than its URL"},
           {{"check", "--server-cmd", "s {port}", "--", "s"}, "no other TARGET than its URL"},
           {{"check", "--server-cmd", "s {port}", "--targets", "t.txt"}, "not with --targets"},
           {{"check", "--env", "=b", "--", "x"}, "KEY=VALUE"},
           {{"check", "--env", "AB", "--", "x"}, "KEY=VALUE"},
           {{"check", "--builtin", "--report", "json=-", "--report", "sarif=-"},
            "only one --report can go to standard output"},
           {{"check", "--builtin", "--sarif-root", "src/s.ts"}, "with --report sarif=PATH"},
           {{"check", "--builtin", "--report", "sarif=o", "--sarif-root", "/src/s.ts"},
            "inside the repository"},
           {{"check", "--builtin", "--report", "sarif=o", "--sarif-root", "a/../../s.ts"},
            "inside the repository"},
       }) {
    auto options = ParseOptions(c.args);
    ASSERT_FALSE(options.ok()) << c.args.at(1);
    EXPECT_NE(options.error().message.find(c.mentions), std::string::npos)
        << options.error().message;
  }
  auto sarif = ParseOptions({"fuzz", "--builtin", "--sarif-root", "src/s.ts", "--report", "sarif=-",
                             "--report", "json=r.json"});
  ASSERT_TRUE(sarif.ok()) << sarif.error().message;
  EXPECT_EQ(sarif->fuzz.reports.at(0).sarif_root, "src/s.ts");
  EXPECT_EQ(sarif->fuzz.reports.at(1).sarif_root, "");
}

TEST(Options, BadInputIsAnErrorThatSaysWhatIsWrong) {
  struct Case {
    std::vector<std::string> args;
    std::string mentions;
  };
  for (const Case& c : std::vector<Case>{
           {{"frobnicate"}, "unknown command"},
           {{"probe"}, "needs a TARGET"},
           {{"probe", "--builtin", "http://127.0.0.1/mcp"}, "exactly one TARGET"},
           {{"probe", "--builtin", "--timeout-ms", "soon"}, "whole number above 0"},
           {{"probe", "--builtin", "--header", "no-colon"}, "Name: value"},
           {{"probe", "http://127.0.0.1/mcp", "--fault", "x"}, "--builtin"},
           {{"probe", "--builtin", "--"}, "followed by"},
           {{"send", "--builtin"}, "CASE.json"},
           {{"probe", "--bogus"}, "unknown option"},
           {{"help", "nosuch"}, "no help on 'nosuch'"},
           {{"probe", "--builtin=yes"}, "takes no value"},
           {{"probe", "--builtin", "--timeout-ms="}, "whole number above 0"},
           {{"probe", "--builtin", "--header", "X-A: b\r\nX-Injected: 1"},
            "must not contain CR, LF or NUL: X-A: b\\r\\nX-Injected: 1"},
           {{"probe", "--builtin", "--header", "X-A: b\nc"}, "CR, LF or NUL"},
           {{"probe", "--builtin", "--header", std::string("X-A: b\0c", 8)}, "CR, LF or NUL"},
           // An empty list named nothing and so filtered nothing: every check ran.
           {{"check", "--builtin", "--only", ""}, "--only takes at least one name"},
           {{"fuzz", "--builtin", "--families", ","}, "--families takes at least one name"}}) {
    auto options = ParseOptions(c.args);
    ASSERT_FALSE(options.ok()) << c.args[0];
    EXPECT_NE(options.error().message.find(c.mentions), std::string::npos)
        << options.error().message;
  }
}

// A newcomer copies the examples first: a case file they name must be there, and a shell
// variable in them must be in double quotes, where it expands.
TEST(Help, TheOverviewsExamplesNameFilesThatExistAndExpandTheirVariables) {
  const std::string help = HelpText("");
  std::size_t named = 0;
  for (std::size_t at = help.find("corpus/"); at != std::string::npos;
       at = help.find("corpus/", at + 1)) {
    const std::string path = help.substr(at, help.find_first_of(" \n", at) - at);
    if (!path.ends_with(".json")) continue;
    ++named;
    EXPECT_TRUE(std::filesystem::exists(std::string(MCPFUZZ_SOURCE_DIR) + "/" + path)) << path;
  }
  EXPECT_GT(named, 0U);
  for (std::size_t at = help.find('$'); at != std::string::npos; at = help.find('$', at + 1)) {
    const std::size_t line = help.rfind('\n', at) + 1;
    const std::string before = help.substr(line, at - line);
    EXPECT_EQ(std::count(before.begin(), before.end(), '\''), 0)
        << "in single quotes, so never expanded: " << help.substr(line, help.find('\n', at) - line);
  }
}

TEST(Options, CheckTakesSelectionsReportsAndBaselines) {
  auto options = ParseOptions({"check", "--builtin", "--only", "tools,headers.", "--skip",
                               "headers.method-case", "--revision", "2025-06-18", "--report",
                               "json=out.json", "--baseline", "known.json", "--call-real-tools"});
  ASSERT_TRUE(options.ok()) << options.error().message;
  EXPECT_EQ(options->command, Command::kCheck);
  EXPECT_EQ(options->check.only, (std::set<std::string>{"tools", "headers."}));
  EXPECT_EQ(options->check.skip, (std::set<std::string>{"headers.method-case"}));
  EXPECT_EQ(options->check.revision, Revision::k2025_06_18);
  EXPECT_EQ(options->check.reports,
            (std::vector<ReportFile>{{reports::Format::kJson, "out.json", ""}}));
  EXPECT_EQ(options->policy.baseline, "known.json");
  EXPECT_TRUE(options->check.call_real_tools);
  // Its old name, which `mcpfuzz help check` still names.
  auto old_name = ParseOptions({"check", "--builtin", "--args-probe"});
  ASSERT_TRUE(old_name.ok()) << old_name.error().message;
  EXPECT_TRUE(old_name->check.call_real_tools);
  EXPECT_NE(HelpText("check").find("also spelled --args-probe"), std::string::npos);

  auto listed = ParseOptions({"check", "--list"});
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  EXPECT_TRUE(listed->check.list);

  for (const auto& bad :
       std::vector<std::vector<std::string>>{{"check", "--builtin", "--report", "pdf=x"},
                                             {"check", "--builtin", "--revision", "2099-01-01"},
                                             {"check", "--builtin", "--only"}}) {
    EXPECT_FALSE(ParseOptions(bad).ok()) << bad[3];
  }
}

TEST(Options, FuzzTakesSeedCasesFamiliesAndCorpus) {
  auto options = ParseOptions({"fuzz", "--builtin-stdio", "--seed", "0", "--cases", "2000",
                               "--time", "60", "--families", "meta,headers", "--corpus", "out",
                               "--resends", "5", "--report", "json=f.json"});
  ASSERT_TRUE(options.ok()) << options.error().message;
  EXPECT_EQ(options->command, Command::kFuzz);
  EXPECT_EQ(options->fuzz.seed, 0U);
  EXPECT_EQ(options->fuzz.cases, 2000U);
  EXPECT_EQ(options->fuzz.seconds, 60U);
  EXPECT_EQ(options->fuzz.families, (std::set<std::string>{"meta", "headers"}));
  EXPECT_EQ(options->fuzz.corpus_dir, "out");
  EXPECT_EQ(options->fuzz.resends, 5);
  EXPECT_EQ(options->fuzz.reports,
            (std::vector<ReportFile>{{reports::Format::kJson, "f.json", ""}}));
  // Fuzzing listens 50 ms after a notification unless told otherwise; checks listen longer.
  EXPECT_EQ(options->target.limits.quiet_window.count(), 50);
  auto slower = ParseOptions({"fuzz", "--builtin", "--quiet-ms", "300"});
  ASSERT_TRUE(slower.ok());
  EXPECT_EQ(slower->target.limits.quiet_window.count(), 300);
  EXPECT_EQ(ParseOptions({"check", "--builtin"})->target.limits.quiet_window.count(), 250);

  EXPECT_FALSE(ParseOptions({"fuzz", "--builtin", "--cases", "0"}).ok());
  EXPECT_FALSE(ParseOptions({"fuzz", "--builtin", "--seed", "x"}).ok());
  EXPECT_FALSE(ParseOptions({"replay", "--builtin"}).ok());
  auto replay = ParseOptions({"replay", "corpus/regression", "--builtin"});
  ASSERT_TRUE(replay.ok()) << replay.error().message;
  EXPECT_EQ(replay->replay_path, "corpus/regression");
}

TEST(Options, EveryFlagTakesItsValueAfterAnEqualsSign) {
  auto options = ParseOptions({"fuzz", "--cases=10", "--seed=7", "--families=meta,headers",
                               "--report=json=f.json", "--timeout-ms=250",
                               "--header=Authorization: Bearer a=b", "--builtin"});
  ASSERT_TRUE(options.ok()) << options.error().message;
  EXPECT_EQ(options->fuzz.cases, 10U);
  EXPECT_EQ(options->fuzz.seed, 7U);
  EXPECT_EQ(options->fuzz.families, (std::set<std::string>{"meta", "headers"}));
  EXPECT_EQ(options->fuzz.reports,
            (std::vector<ReportFile>{{reports::Format::kJson, "f.json", ""}}));
  EXPECT_EQ(options->target.limits.timeout.count(), 250);
  EXPECT_EQ(options->target.extra_headers[0], (Header{"Authorization", "Bearer a=b"}));
  // After `--`, the words are the server's own.
  auto stdio = ParseOptions({"check", "--only=tools", "--", "node", "s.js", "--port=3"});
  ASSERT_TRUE(stdio.ok()) << stdio.error().message;
  EXPECT_EQ(stdio->check.only, (std::set<std::string>{"tools"}));
  EXPECT_EQ(stdio->target.argv, (std::vector<std::string>{"node", "s.js", "--port=3"}));
}

bool Refused(const std::string& selector) {
  CheckSettings settings;
  settings.only = {selector};
  auto options = ToCheckOptions(settings);
  return !options.ok() &&
         options.error().message.find("no check is named '" + selector + "'") != std::string::npos;
}

// `--only tool` used to pass the CLI (a plain prefix of "tools.…") and then select nothing.
TEST(CheckSelectors, ASelectorIsRefusedWhenItSelectsNoCheck) {
  EXPECT_TRUE(Refused("tool"));
  EXPECT_TRUE(Refused("tools.unknown"));
  EXPECT_TRUE(Refused("jsonrpc.invalid-request.id"));
  EXPECT_FALSE(Refused("tools"));
  EXPECT_FALSE(Refused("tools."));
  EXPECT_FALSE(Refused("tools.unknown-name"));
  CheckSettings skipped;
  skipped.skip = {"header"};
  EXPECT_FALSE(ToCheckOptions(skipped).ok()) << "--skip is validated the same way";
}

// Every prefix of every check id, as a selector: refused by the CLI exactly when the runner
// would select no check with it.
TEST(CheckSelectors, TheCliRefusesExactlyWhatTheRunnerSelectsNothingWith) {
  std::set<std::string> selectors;
  for (const checks::CheckInfo& info : checks::AllChecks()) {
    for (std::size_t length = 1; length <= info.id.size(); ++length) {
      selectors.insert(std::string(info.id.substr(0, length)));
    }
  }
  for (const std::string& selector : selectors) {
    checks::CheckOptions options;
    options.only = {selector};
    bool selects_any = false;
    for (const checks::CheckInfo& info : checks::AllChecks()) {
      selects_any = selects_any || checks::Selected(info.id, options);
    }
    EXPECT_EQ(Refused(selector), !selects_any) << selector;
  }
}

TEST(FuzzOptions, TimeAloneRunsForThatLongAndBothStopAtWhicheverComesFirst) {
  FuzzSettings time_only;
  time_only.seconds = 30;
  const CampaignOptions timed = ToCampaignOptions(time_only, {});
  EXPECT_EQ(timed.max_cases, std::numeric_limits<std::size_t>::max());
  EXPECT_EQ(timed.duration, std::chrono::milliseconds(30000));

  FuzzSettings both = time_only;
  both.cases = 500;
  const CampaignOptions bounded = ToCampaignOptions(both, {});
  EXPECT_EQ(bounded.max_cases, 500U);
  EXPECT_EQ(bounded.duration, std::chrono::milliseconds(30000));

  EXPECT_EQ(ToCampaignOptions(FuzzSettings{}, {}).max_cases, CampaignOptions{}.max_cases);
  EXPECT_FALSE(ToCampaignOptions(FuzzSettings{}, {}).duration);
}

TEST(FuzzOptions, EachRunDrawsAFreshSeedUnlessOneIsGiven) {
  // Two 32-bit draws collide once in four billion runs.
  EXPECT_NE(ToCampaignOptions(FuzzSettings{}, {}).seed, ToCampaignOptions(FuzzSettings{}, {}).seed);
  FuzzSettings given;
  given.seed = 0;
  EXPECT_EQ(ToCampaignOptions(given, {}).seed, 0U);
}

// A fuzz report's finding, FAIL or WARN, re-sent `resends` times and seen again `reproduced`.
reports::ReportItem Finding(VerdictKind kind, int resends, int reproduced) {
  reports::ReportItem item;
  item.id = "tools.unknown-name";
  item.verdict.kind = kind;
  item.signature = std::string("tools.unknown-name | ") + std::string(ToString(kind));
  item.record = boost::json::object{{"resends", resends}, {"reproduced", reproduced}};
  return item;
}

reports::Report FuzzReportOf(std::vector<reports::ReportItem> items) {
  reports::Report report;
  report.kind = reports::ReportKind::kFuzz;
  report.targets.emplace_back().items = std::move(items);
  return report;
}

int ExitCodeUnder(reports::Report report, reports::FailOn fail_on,
                  const reports::Baseline* baseline = nullptr) {
  ApplyExitPolicy(report, fail_on, baseline);
  return FindingsExitCode(report);
}

TEST(FuzzOptions, OnlyFindingsSeenAgainFailTheRun) {
  using reports::FailOn;
  EXPECT_EQ(ExitCodeUnder(FuzzReportOf({}), FailOn::kFail), 0);
  const auto flaky = Finding(VerdictKind::kFail, 3, 0);
  EXPECT_EQ(ExitCodeUnder(FuzzReportOf({flaky}), FailOn::kFail), 0);
  EXPECT_EQ(ExitCodeUnder(FuzzReportOf({flaky, Finding(VerdictKind::kFail, 3, 1)}), FailOn::kFail),
            1);
  // --resends 0: nothing to tell it by, so it counts.
  EXPECT_EQ(ExitCodeUnder(FuzzReportOf({Finding(VerdictKind::kFail, 0, 0)}), FailOn::kFail), 1);
}

// One rule for every command: a WARN alone is listed and exits 0, unless --fail-on warn; never
// fails on nothing.
TEST(ExitPolicy, AWarnFailsTheRunOnlyUnderFailOnWarn) {
  using reports::FailOn;
  const auto warns = FuzzReportOf({Finding(VerdictKind::kWarn, 3, 3)});
  EXPECT_EQ(ExitCodeUnder(warns, FailOn::kFail), 0);
  EXPECT_EQ(ExitCodeUnder(warns, FailOn::kWarn), 1);
  EXPECT_EQ(ExitCodeUnder(warns, FailOn::kNever), 0);
  const auto fails = FuzzReportOf({Finding(VerdictKind::kFail, 3, 3)});
  EXPECT_EQ(ExitCodeUnder(fails, FailOn::kFail), 1);
  EXPECT_EQ(ExitCodeUnder(fails, FailOn::kNever), 0);
  EXPECT_EQ(ParseOptions({"fuzz", "--builtin", "--fail-on", "warn"})->policy.fail_on,
            FailOn::kWarn);
  EXPECT_EQ(ParseOptions({"check", "--builtin"})->policy.fail_on, FailOn::kFail);
  EXPECT_FALSE(ParseOptions({"check", "--builtin", "--fail-on", "none"}));
}

// A baseline keys findings by signature: a listed one does not fail the run, a new one does,
// and one listed but not seen is stale (reported, not failing).
TEST(ExitPolicy, AFindingsBaselineKnowsBySignatureAndReportsStaleEntries) {
  using reports::FailOn;
  auto known = Finding(VerdictKind::kFail, 3, 3);
  reports::Report report = FuzzReportOf({known});
  ApplyExitPolicy(report, FailOn::kFail, nullptr);
  reports::Baseline baseline = FindingsBaselineOf(report);
  ASSERT_EQ(baseline.known_findings.size(), 1U);
  reports::BaselineEntry gone;
  gone.id = "other.check";
  gone.signature = "other.check | FAIL | gone";
  baseline.known_findings.push_back(gone);

  reports::Report again = FuzzReportOf({known});
  ApplyExitPolicy(again, FailOn::kFail, &baseline);
  EXPECT_EQ(FindingsExitCode(again), 0);
  EXPECT_TRUE(again.targets[0].items[0].known);
  ASSERT_TRUE(again.baseline);
  EXPECT_EQ(again.baseline->still_failing.size(), 1U);
  ASSERT_EQ(again.baseline->stale.size(), 1U);
  EXPECT_EQ(again.baseline->stale[0], gone);

  auto fresh = Finding(VerdictKind::kFail, 3, 3);
  fresh.signature = "methods.unknown | FAIL | new";
  reports::Report newer = FuzzReportOf({known, fresh});
  ApplyExitPolicy(newer, FailOn::kFail, &baseline);
  EXPECT_EQ(FindingsExitCode(newer), 1);
  ASSERT_EQ(newer.baseline->new_failures.size(), 1U);
  EXPECT_EQ(newer.baseline->new_failures[0].signature, fresh.signature);
}

TEST(Progress, EachModeParsesAndAnythingElseIsRefused) {
  EXPECT_EQ(ParseOptions({"fuzz", "--builtin"})->fuzz.progress, ProgressMode::kAuto);
  EXPECT_EQ(ParseOptions({"fuzz", "--builtin", "--progress", "always"})->fuzz.progress,
            ProgressMode::kAlways);
  EXPECT_EQ(ParseOptions({"check", "--builtin", "--progress=never"})->check.progress,
            ProgressMode::kNever);
  auto bad = ParseOptions({"fuzz", "--builtin", "--progress", "sometimes"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("auto, always or never"), std::string::npos);
}

TEST(Progress, TheTimeLeftIsTheSoonerOfTheTimeAndTheCasesAtTheRateSoFar) {
  CampaignProgress now;
  now.cases = 500;
  now.cases_per_second = 100;
  now.elapsed = std::chrono::seconds(5);
  EXPECT_FALSE(EstimatedTimeLeft(now)) << "no budget, no estimate";
  now.planned_cases = 2000;
  EXPECT_EQ(EstimatedTimeLeft(now), std::chrono::seconds(15));
  now.duration = std::chrono::seconds(12);
  EXPECT_EQ(EstimatedTimeLeft(now), std::chrono::seconds(7));
  now.duration = std::chrono::seconds(3);  // overrun while the case in flight ends
  EXPECT_EQ(EstimatedTimeLeft(now), std::chrono::seconds(0));
  EXPECT_EQ(DescribeProgress(now),
            "500/2000 cases, 100 cases/s, 0 findings, 5 s elapsed, about 0 s left");
  now.planned_cases.reset();
  now.duration.reset();
  now.findings = 1;
  now.elapsed = std::chrono::seconds(3725);
  EXPECT_EQ(DescribeProgress(now), "500 cases, 100 cases/s, 1 finding, 1 h 2 min elapsed");
}

TEST(Progress, ALogGetsALineEveryTenSecondsAndATerminalEveryUpdate) {
  using Clock = ProgressLine::Clock;
  const Clock::time_point start = Clock::now();
  std::ostringstream log;
  ProgressLine in_log(ProgressMode::kAuto, /*terminal=*/false, log);
  for (int second = 0; second <= 25; ++second) {
    in_log.Show("at " + std::to_string(second), start + std::chrono::seconds(second));
  }
  in_log.Finish();
  // The constructor's clock reading is a little after `start`: the first line comes at 10 or
  // 11 s, the next ten seconds after it.
  const std::string text = log.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos) << "no terminal codes in a log";

  std::ostringstream terminal;
  ProgressLine redrawn(ProgressMode::kAuto, /*terminal=*/true, terminal);
  redrawn.Show("one");
  redrawn.Show("two");
  redrawn.Finish();
  EXPECT_EQ(terminal.str(), "\r\033[Kone\r\033[Ktwo\r\033[K");

  std::ostringstream always;
  ProgressLine plain(ProgressMode::kAlways, /*terminal=*/true, always);
  plain.Show("soon", Clock::now());
  plain.Show("later", Clock::now() + std::chrono::seconds(11));
  EXPECT_EQ(always.str(), "mcpfuzz: later\n");

  std::ostringstream silent;
  ProgressLine never(ProgressMode::kNever, /*terminal=*/true, silent);
  never.Show("x", Clock::now() + std::chrono::hours(1));
  never.Finish();
  EXPECT_EQ(silent.str(), "");
}

// --- the flag table ---

TEST(FlagTable, NoNameIsListedTwice) {
  std::multiset<std::string_view> names;
  for (const Flag& flag : Flags()) {
    names.insert(flag.name);
    if (!flag.alias.empty()) names.insert(flag.alias);
    EXPECT_TRUE(flag.name.starts_with("--")) << flag.name;
    EXPECT_NE(flag.commands, 0U) << flag.name << " applies to no command";
    EXPECT_EQ(flag.value == ValueKind::kNone, flag.value_name.empty()) << flag.name;
  }
  for (std::string_view name : names) EXPECT_EQ(names.count(name), 1U) << name;
  for (const Flag& flag : Flags()) {
    EXPECT_EQ(FindFlag(flag.name), &flag);
    if (!flag.alias.empty()) {
      EXPECT_EQ(FindFlag(flag.alias), &flag);
    }
  }
}

// A value each kind of flag takes.
std::string SampleValue(const Flag& flag) {
  if (flag.name == "--shard") return "1/2";
  if (flag.name == "--progress") return "never";
  if (flag.name == "--fail-on") return "warn";
  if (flag.name == "--env") return "SAMPLE=1";
  if (flag.name == "--coverage-report") return "lcov=sample.info";
  switch (flag.value) {
    case ValueKind::kNone:
      return "";
    case ValueKind::kNumber:
      return "1";
    case ValueKind::kText:
      return "X-Sample: 1";
    case ValueKind::kPath:
      return "sample-path";
    case ValueKind::kList:
      return "tools";
    case ValueKind::kRevision:
      return "2025-06-18";
    case ValueKind::kReport:
      return "json=sample.json";
  }
  return "";
}

// `command flag [value]`, with what the command needs besides (a TARGET, a case file).
std::vector<std::string> ArgsWith(const CommandWord& command, std::string_view given,
                                  const Flag& flag) {
  std::vector<std::string> args{std::string(command.word), std::string(given)};
  if (flag.value != ValueKind::kNone) args.push_back(SampleValue(flag));
  // --sarif-root places the results of a SARIF report, which it is refused without.
  if (flag.name == "--sarif-root") args.insert(args.end(), {"--report", "sarif=sample.sarif"});
  if (command.command == Command::kSend) args.emplace_back("case.json");
  if (command.command == Command::kReplay) args.emplace_back("cases");
  // diff names its targets as words (and takes no --builtin); merge takes reports, no target.
  if (command.command == Command::kDiff) {
    args.insert(args.end(), {"builtin", "builtin:unknown-tool-is-error"});
    return args;
  }
  if (command.command == Command::kMerge) {
    args.emplace_back("shard.json");
    return args;
  }
  // check splits only a survey's targets.
  if (command.command == Command::kCheck && flag.name == "--shard") {
    args.insert(args.end(), {"--targets", "sample-path"});
    return args;
  }
  const bool names_the_targets = flag.group == FlagGroup::kTarget || flag.name == "--targets";
  // The environment is a stdio server's, refused for an HTTP target.
  const bool stdio = flag.name == "--env" || flag.name == "--env-clear";
  if (!names_the_targets) args.emplace_back(stdio ? "--builtin-stdio" : "--builtin");
  return args;
}

TEST(FlagTable, EveryFlagParsesForTheCommandsItNamesAndIsRefusedForTheOthers) {
  for (const Flag& flag : Flags()) {
    for (std::string_view given : {flag.name, flag.alias}) {
      if (given.empty()) continue;
      for (const CommandWord& command : FlagCommands()) {
        const std::vector<std::string> args = ArgsWith(command, given, flag);
        auto options = ParseOptions(args);
        if (AppliesTo(flag, command.command)) {
          EXPECT_TRUE(options.ok())
              << command.word << " " << given << ": " << options.error().message;
        } else {
          ASSERT_FALSE(options.ok()) << command.word << " " << given;
          EXPECT_NE(options.error().message.find("unknown option '" + std::string(given) + "'"),
                    std::string::npos)
              << options.error().message;
        }
      }
    }
  }
}

TEST(FlagTable, TheHelpListsEveryFlagWhereItApplies) {
  for (const Flag& flag : Flags()) {
    const std::string line = "\n  " + std::string(flag.name) + " ";
    switch (flag.group) {
      case FlagGroup::kTarget:
      case FlagGroup::kTargetOption:
        EXPECT_NE(HelpText("").find(line), std::string::npos) << flag.name;
        break;
      case FlagGroup::kCommand:
      case FlagGroup::kSurvey:
        for (const CommandWord& command : FlagCommands()) {
          const bool listed = HelpText(std::string(command.word)).find(line) != std::string::npos;
          EXPECT_EQ(listed, AppliesTo(flag, command.command)) << command.word << " " << flag.name;
        }
        break;
      case FlagGroup::kUnlisted:
        break;
    }
  }
  // The table's help text, wrapped where it wraps.
  EXPECT_NE(HelpText("fuzz").find("  --concurrency N       send cases over N connections (HTTP) "
                                  "or N server processes (stdio)\n"
                                  "                        at once per revision (default 1, at "
                                  "most 64)."),
            std::string::npos)
      << HelpText("fuzz");
}

TEST(Options, HelpIsAvailablePerCommand) {
  auto options = ParseOptions({"probe", "--help"});
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->command, Command::kHelp);
  EXPECT_NE(HelpText(options->help_topic).find("server/discover"), std::string::npos);
  EXPECT_NE(HelpText("").find("Examples"), std::string::npos);
}

}  // namespace
}  // namespace mcpfuzz::cli
