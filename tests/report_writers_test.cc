// Every report writer against hostile server text: nothing a server sent may become markup,
// close a block, break a table, smuggle a control character or invalid UTF-8 into the file,
// or reveal a credential. Also: the structure CI systems read from JUnit, and the members the
// SARIF 2.1.0 schema requires.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <boost/json.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model/reproducer.h"
#include "model/text.h"
#include "reports/escape.h"
#include "reports/writers.h"
#include "support/report_fixtures.h"

namespace mcpfuzz::test_support {
namespace {

namespace json = boost::json;
using reports::Format;

constexpr Format kFormats[] = {Format::kJson, Format::kJunit, Format::kSarif, Format::kMarkdown,
                               Format::kHtml};

std::string Written(Format format, const reports::Report& report) {
  std::ostringstream out;
  reports::Write(format, report, out);
  return out.str();
}

// Markdown outside fenced code blocks: inside them text is shown verbatim, never rendered,
// so a reproducer may quote the server's bytes there.
std::string OutsideCodeBlocks(const std::string& markdown) {
  std::istringstream lines(markdown);
  std::string out;
  std::string fence;
  for (std::string line; std::getline(lines, line);) {
    if (fence.empty() && line.starts_with("```")) {
      fence = line.substr(0, line.find_first_not_of('`'));
    } else if (!fence.empty() && line == fence) {
      fence.clear();
    } else if (fence.empty()) {
      out += line + "\n";
    }
  }
  return out;
}

std::vector<reports::Report> HostileReports() {
  return {HostileCheckReport(), HostileFuzzReport(), HostileReplayReport(), HostileSurveyReport()};
}

TEST(ReportWriters, HostileTextStaysDataInEveryFormat) {
  for (const auto& report : HostileReports()) {
    for (Format format : kFormats) {
      SCOPED_TRACE(std::string(reports::ToString(format)) + " of a " +
                   std::string(reports::ToString(report.kind)) + " report");
      const std::string written = Written(format, report);
      ASSERT_FALSE(written.empty());
      const std::string text = format == Format::kMarkdown ? OutsideCodeBlocks(written) : written;
      EXPECT_TRUE(IsValidUtf8(written));
      for (char c : written) {
        const auto byte = static_cast<unsigned char>(c);
        ASSERT_FALSE((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7F)
            << "raw control byte " << static_cast<int>(byte);
      }
      EXPECT_EQ(written.find("hunter2"), std::string::npos) << "a credential leaked";
      EXPECT_EQ(written.find("secret-cookie"), std::string::npos) << "a credential leaked";
      if (format == Format::kJson || format == Format::kSarif) {
        EXPECT_NO_THROW((void)json::parse(written));
        continue;
      }
      // Markup formats: the server's tag and CDATA end never appear raw, nor a C1 control
      // (JSON may carry U+009B as data: every JSON reader decodes it as a string).
      EXPECT_EQ(text.find("\xC2\x9B"), std::string::npos) << "raw C1 control";
      EXPECT_EQ(text.find("<script>alert"), std::string::npos);
      EXPECT_EQ(text.find("]]>"), std::string::npos);
      EXPECT_EQ(text.find("\xEF\xBF\xBF"), std::string::npos) << "U+FFFF is not XML";
    }
  }
}

TEST(ReportWriters, HtmlHasOnlyItsOwnScriptAndLoadsNothing) {
  const std::string html = Written(Format::kHtml, HostileCheckReport());
  std::size_t scripts = 0;
  for (auto at = html.find("<script"); at != std::string::npos; at = html.find("<script", at + 1)) {
    ++scripts;
  }
  EXPECT_EQ(scripts, 1U);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
  for (const char* external : {"src=\"http", "href=\"http", "@import", "url("}) {
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  }
  EXPECT_NE(html.find("<svg"), std::string::npos);
}

TEST(ReportWriters, MarkdownKeepsTablesAndFencesClosed) {
  const std::string md = Written(Format::kMarkdown, HostileCheckReport());
  // Each table row is one line with its cells intact: a server's | is escaped.
  std::istringstream lines(md);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("| ")) continue;
    std::size_t pipes = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++pipes;
    }
    EXPECT_EQ(pipes, 8U) << line;  // 7 cells
  }
  const std::string block = reports::MarkdownCodeBlock("a ```` b");
  EXPECT_TRUE(block.starts_with("`````\n")) << block;
  EXPECT_NE(md.find("&lt;script&gt;"), std::string::npos);
}

TEST(ReportWriters, EscapersWriteControlsVisibly) {
  EXPECT_EQ(reports::Visible("a\x1b[1m\x7F\xC2\x9B\xFFz"), "a\\x1B[1m\\x7F\\u009B\xEF\xBF\xBDz");
  EXPECT_EQ(reports::EscapeMarkup("<a href='x'>&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(reports::EscapeMarkdownInline("*a*|<b>\nc"), "\\*a\\*\\|&lt;b&gt; c");
}

// JUnit XML through a real XML parser (Python's expat), checked for what GitHub, GitLab and
// Jenkins read: testsuites > testsuite[name,tests,failures,errors,skipped,time] >
// testcase[name,classname,time] with failure[message,type] or skipped children, and counts
// that add up.
TEST(ReportWriters, JunitHasTheStructureCiSystemsRead) {
  if (std::system("python3 -c 'import xml.etree.ElementTree' 2>/dev/null") != 0) {
    GTEST_SKIP() << "python3 is needed to parse the XML (scripts/bootstrap.sh installs it)";
  }
  const auto path = std::filesystem::temp_directory_path() /
                    ("mcpfuzz-junit-" + std::to_string(::getpid()) + ".xml");
  for (const auto& report : HostileReports()) {
    std::ofstream(path) << Written(Format::kJunit, report);
    const std::string script = R"(
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == 'testsuites', root.tag
total = {k: 0 for k in ('tests', 'failures', 'errors', 'skipped')}
for suite in root:
    assert suite.tag == 'testsuite', suite.tag
    for key in ('name', 'tests', 'failures', 'errors', 'skipped', 'time', 'timestamp'):
        assert key in suite.attrib, key
    cases = suite.findall('testcase')
    assert int(suite.get('tests')) == len(cases)
    assert int(suite.get('failures')) == sum(1 for c in cases if c.find('failure') is not None)
    assert int(suite.get('errors')) == sum(1 for c in cases if c.find('error') is not None)
    assert int(suite.get('skipped')) == sum(1 for c in cases if c.find('skipped') is not None)
    float(suite.get('time'))
    for case in cases:
        assert case.get('name') and case.get('classname'), case.attrib
        float(case.get('time'))
        failure = case.find('failure')
        if failure is not None:
            assert failure.get('message') and failure.get('type'), failure.attrib
    for key in total:
        total[key] += int(suite.get(key))
for key in total:
    assert int(root.get(key)) == total[key], key
print(total['tests'], total['failures'], total['skipped'])
)";
    const std::string command =
        "python3 -c " + ShellQuote(script) + " " + ShellQuote(path.string()) + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char buffer[4096];
    std::string output;
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
    const int status = ::pclose(pipe);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
    if (report.kind == reports::ReportKind::kCheck) {
      // 5 results: the FAIL fails, UNVERIFIED and NOT_APPLICABLE are skipped.
      EXPECT_EQ(output, "5 1 2\n");
    }
  }
  std::filesystem::remove(path);
}

const json::value& Member(const json::value& object, std::string_view name) {
  const auto* found = object.as_object().if_contains(name);
  if (found == nullptr) throw std::runtime_error("required member missing: " + std::string(name));
  return *found;
}

// The members the SARIF 2.1.0 schema requires (sarifLog, run, tool, toolComponent, result,
// message, reportingDescriptor, location parts), the enums it restricts, and the references
// between results and rules.
TEST(ReportWriters, SarifHasEveryMemberItsSchemaRequires) {
  for (const auto& report : HostileReports()) {
    const json::value log = json::parse(Written(Format::kSarif, report));
    EXPECT_EQ(Member(log, "version"), "2.1.0");
    const auto& runs = Member(log, "runs").as_array();
    ASSERT_EQ(runs.size(), 1U);
    const json::value& driver = Member(Member(runs[0], "tool"), "driver");
    EXPECT_EQ(Member(driver, "name"), "mcpfuzz");
    const auto& rules = Member(driver, "rules").as_array();
    for (const auto& rule : rules) EXPECT_TRUE(Member(rule, "id").is_string());
    const auto& results = Member(runs[0], "results").as_array();
    // Every failing item, and the WARN of the check run (in the survey too).
    const bool has_warn =
        report.kind == reports::ReportKind::kCheck || report.kind == reports::ReportKind::kSurvey;
    EXPECT_EQ(results.size(), reports::FailingCount(report) + (has_warn ? 1 : 0));
    for (const auto& result : results) {
      EXPECT_FALSE(Member(Member(result, "message"), "text").as_string().empty());
      const std::string level(Member(result, "level").as_string());
      EXPECT_TRUE(level == "error" || level == "warning" || level == "note") << level;
      const auto index = static_cast<std::size_t>(Member(result, "ruleIndex").as_int64());
      ASSERT_LT(index, rules.size());
      EXPECT_EQ(Member(rules[index], "id"), Member(result, "ruleId"));
      for (const auto& location : Member(result, "locations").as_array()) {
        const auto& physical = Member(location, "physicalLocation");
        EXPECT_FALSE(Member(Member(physical, "artifactLocation"), "uri").as_string().empty());
        EXPECT_GE(Member(Member(physical, "region"), "startLine").as_int64(), 1);
      }
    }
  }
}

TEST(ReportWriters, JsonKeepsTheVersionOneMembersOfEachKind) {
  const json::value check = json::parse(Written(Format::kJson, HostileCheckReport()));
  EXPECT_EQ(check.at("format"), "mcpfuzz-check-report");
  EXPECT_EQ(check.at("version"), 1);
  EXPECT_EQ(check.at("summary").at("fail"), 1);
  EXPECT_EQ(check.at("summary").at("warn"), 1);
  EXPECT_EQ(check.at("duration_seconds"), 1.5);
  bool redacted = false;
  for (const auto& header :
       check.at("checks").at(0).at("exchanges").at(0).at("request").at("headers").as_array()) {
    if (header.at(0) == "Authorization") redacted = header.at(1) == "<redacted>";
  }
  EXPECT_TRUE(redacted);
  const json::value fuzz = json::parse(Written(Format::kJson, HostileFuzzReport()));
  EXPECT_EQ(fuzz.at("format"), "mcpfuzz-fuzz-report");
  EXPECT_EQ(fuzz.at("seed"), 42);
  EXPECT_EQ(fuzz.at("findings").at(0).at("check_id"), "methods.unknown");
  const json::value replay = json::parse(Written(Format::kJson, HostileReplayReport()));
  EXPECT_EQ(replay.at("format"), "mcpfuzz-replay-report");
  EXPECT_EQ(replay.at("still_failing"), 1);
  EXPECT_EQ(replay.at("cases").at(1).at("replay"), "error");
  const json::value survey = json::parse(Written(Format::kJson, HostileSurveyReport()));
  EXPECT_EQ(survey.at("format"), "mcpfuzz-survey-report");
  EXPECT_EQ(survey.at("unknown_tool").at("verified"), 0);
  EXPECT_EQ(survey.at("unknown_tool").at("observed_risk"), 2);
  EXPECT_EQ(survey.at("unknown_tool").at("observed_risk_shapes").at("is_error_result"), 1);
  EXPECT_EQ(survey.at("unknown_tool").at("observed_risk_shapes").at("result_without_is_error"), 1);
  EXPECT_EQ(survey.at("unknown_tool").at("not_checked"), 1);
  EXPECT_EQ(survey.at("targets").at(2).at("error"), "could not be reached");
}

// What a target announced is its own text: shown in the header of every format of the fuzz
// and diff reports (the JSON member, a JUnit property, a SARIF run property, never the
// driver, which is mcpfuzz), and escaped there as any server text is.
struct Announced {
  reports::Report report;
  std::string name;             // the hostile serverInfo name, as the server sent it
  std::string version;          // the first word of its version
  std::size_t target;           // its index among the report's targets
  std::string junit_property;   // the name of its JUnit property
  std::string markdown_prefix;  // what precedes it in Markdown
  std::string html_prefix;      // what precedes it in HTML
};

// fuzz --revision probes nothing: the header names what was fuzzed, not "no revision".
TEST(ReportWriters, AFuzzRunThatProbedNothingSaysWhatItFuzzed) {
  reports::Report report = HostileFuzzReport();
  report.targets.at(0).eras.speaks.clear();
  report.fuzz->revisions = {"2025-11-25", "2025-11-25"};
  auto terminal = [&report] {
    std::ostringstream out;
    reports::WriteTerminal(report, out);
    return out.str();
  };
  for (const std::string& text : {terminal(), Written(Format::kHtml, report)}) {
    EXPECT_NE(text.find("speaks: not probed; fuzzed in 2025-11-25"), std::string::npos) << text;
    EXPECT_EQ(text.find("fuzzed in 2025-11-25, 2025-11-25"), std::string::npos) << text;
    EXPECT_EQ(text.find("no revision mcpfuzz knows"), std::string::npos);
  }
  report.fuzz->revisions.clear();
  EXPECT_NE(terminal().find("speaks: no revision mcpfuzz knows"), std::string::npos);
}

// A fuzz finding whose channel and status were as expected (a log message below the level, a
// leak) says what broke only in its findings: the terminal shows each, escaped.
TEST(ReportWriters, TheFuzzTerminalShowsWhatEachFindingSays) {
  reports::Report report = HostileFuzzReport();
  Verdict& verdict = report.targets.at(0).items.at(0).verdict;
  verdict.findings = {{Aspect::kEnvelope, Strength::kShould, "a log message " + kHostile}};
  std::ostringstream out;
  reports::WriteTerminal(report, out);
  EXPECT_NE(out.str().find("  - SHOULD: a log message <script>"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find('\x1B'), std::string::npos) << "escaped as any server text";
}

TEST(ReportWriters, ServerInfoIsShownEscapedInEveryFormatOfFuzzAndDiff) {
  const std::string markup =
      "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; ]]&gt; &amp; &quot;q&quot;";
  const std::string markdown = "&lt;script&gt;alert('x')&lt;/script&gt; \\]\\]&gt; &amp; \"q\"";
  for (const Announced& c : {Announced{HostileFuzzReport(), "fuzzed " + kHostile, "2.0 ", 0,
                                       "server_info", "Announces: ", "announces: "},
                             Announced{HostileDiffReport(), "sdk " + kHostile, "1.0 ", 1,
                                       "server_info.2", " | ", "<br>announces: "}}) {
    const std::string word = c.name.substr(0, c.name.find(' ') + 1);  // "fuzzed " or "sdk "
    SCOPED_TRACE(std::string(reports::ToString(c.report.kind)) + " report");
    const json::value json = json::parse(Written(Format::kJson, c.report));
    const json::value& info = c.report.kind == reports::ReportKind::kDiff
                                  ? json.at("targets").at(c.target).at("server_info")
                                  : json.at("server_info");
    EXPECT_EQ(info.at("name").as_string(), ToValidUtf8(c.name));
    EXPECT_EQ(info.at("title").as_string(), ToValidUtf8(kHostile));
    if (c.report.kind == reports::ReportKind::kDiff) {
      EXPECT_TRUE(json.at("targets").at(0).at("server_info").is_null());
    }

    const std::string junit = Written(Format::kJunit, c.report);
    EXPECT_NE(junit.find("<property name=\"" + c.junit_property + "\" value=\"" + word + markup),
              std::string::npos)
        << junit;
    EXPECT_NE(junit.find(" " + c.version + markup), std::string::npos) << "the version too";

    const json::value sarif = json::parse(Written(Format::kSarif, c.report));
    const json::value& run = sarif.at("runs").at(0);
    EXPECT_EQ(
        run.at("properties").at("targets").at(c.target).at("serverInfo").at("name").as_string(),
        ToValidUtf8(c.name));
    EXPECT_EQ(json::serialize(run.at("tool").at("driver")).find(word + "<script>"),
              std::string::npos)
        << "the driver is mcpfuzz, not the server";

    const std::string md = OutsideCodeBlocks(Written(Format::kMarkdown, c.report));
    EXPECT_NE(md.find(c.markdown_prefix + word + markdown), std::string::npos) << md;
    EXPECT_NE(md.find(" " + c.version + markdown), std::string::npos) << md;

    const std::string html = Written(Format::kHtml, c.report);
    EXPECT_NE(html.find(c.html_prefix + word + markup), std::string::npos);
    EXPECT_NE(html.find(" " + c.version + markup), std::string::npos);

    std::ostringstream terminal;
    reports::WriteTerminal(c.report, terminal);
    EXPECT_NE(terminal.str().find("announces: " + word +
                                  "<script>alert('x')</script> ]]> & \"q\" | `tick` "
                                  "```fence``` \\x1B[2J"),
              std::string::npos)
        << terminal.str();
    EXPECT_NE(terminal.str().find(" " + c.version + "<script>"), std::string::npos)
        << terminal.str();

    // Nothing raw in any of them: the checks of HostileTextStaysDataInEveryFormat, for the diff
    // report too.
    for (Format format : kFormats) {
      const std::string written = Written(format, c.report);
      EXPECT_TRUE(IsValidUtf8(written));
      for (char ch : written) {
        const auto byte = static_cast<unsigned char>(ch);
        ASSERT_FALSE((byte < 0x20 && ch != '\n' && ch != '\t') || byte == 0x7F)
            << reports::ToString(format) << ": raw control byte " << static_cast<int>(byte);
      }
      if (format == Format::kJson || format == Format::kSarif) continue;
      const std::string text = format == Format::kMarkdown ? OutsideCodeBlocks(written) : written;
      EXPECT_EQ(text.find("<script>alert"), std::string::npos) << reports::ToString(format);
      EXPECT_EQ(text.find("]]>"), std::string::npos) << reports::ToString(format);
    }
    EXPECT_EQ(terminal.str().find('\x1b'), std::string::npos);
  }
}

std::string Terminal(const reports::Report& report) {
  std::ostringstream out;
  reports::WriteTerminal(report, out);
  return out.str();
}

std::size_t Occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

// A run a signal stopped is marked in every format of every kind of report, where people and
// tools look first; a run that ended by itself is marked nowhere.
TEST(ReportWriters, AStoppedRunIsMarkedInEveryFormatAndOnlyThen) {
  const std::string sentence =
      "Stopped early by SIGTERM: this report covers only what ran before it";
  std::vector<reports::Report> reports = HostileReports();
  reports.push_back(HostileDiffReport());
  for (reports::Report report : reports) {
    SCOPED_TRACE(std::string(reports::ToString(report.kind)) + " report");
    for (Format format : kFormats) {
      const std::string written = Written(format, report);
      for (const char* mark : {"stopped_early", "stoppedEarly", "Stopped early", "stopped_by"}) {
        EXPECT_EQ(written.find(mark), std::string::npos)
            << reports::ToString(format) << ": " << mark;
      }
    }
    EXPECT_EQ(Terminal(report).find("Stopped early"), std::string::npos);
    EXPECT_EQ(json::parse(Written(Format::kSarif, report))
                  .at("runs")
                  .at(0)
                  .at("invocations")
                  .at(0)
                  .at("executionSuccessful"),
              true);

    report.stopped_by = "SIGTERM";
    const json::value report_json = json::parse(Written(Format::kJson, report));
    EXPECT_EQ(report_json.at("stopped_early"), true);
    EXPECT_EQ(report_json.at("stopped_by"), "SIGTERM");

    const std::string junit = Written(Format::kJunit, report);
    const std::size_t suites = Occurrences(junit, "<testsuite ");
    ASSERT_GT(suites, 0U);
    EXPECT_EQ(Occurrences(junit, "<property name=\"stopped_early\" value=\"true\"/>"), suites);
    EXPECT_EQ(Occurrences(junit, "<property name=\"stopped_by\" value=\"SIGTERM\"/>"), suites);

    const json::value run = json::parse(Written(Format::kSarif, report)).at("runs").at(0);
    EXPECT_EQ(run.at("properties").at("stoppedEarly"), true);
    EXPECT_EQ(run.at("properties").at("stoppedBy"), "SIGTERM");
    const json::value& invocation = run.at("invocations").at(0);
    EXPECT_EQ(invocation.at("executionSuccessful"), false);
    EXPECT_EQ(invocation.at("exitSignalName"), "SIGTERM");
    EXPECT_EQ(invocation.at("toolExecutionNotifications").at(0).at("message").at("text"),
              json::value(sentence));

    // The banner is the first paragraph under the heading.
    const std::string md = Written(Format::kMarkdown, report);
    const std::size_t heading_end = md.find("\n\n");
    ASSERT_NE(heading_end, std::string::npos);
    EXPECT_EQ(md.substr(0, 2), "##");
    EXPECT_EQ(md.substr(heading_end + 2, sentence.size() + 6), "> **" + sentence + ".*") << md;

    const std::string html = Written(Format::kHtml, report);
    const std::size_t banner = html.find("<p class=\"stopped\" role=\"alert\"");
    ASSERT_NE(banner, std::string::npos);
    EXPECT_LT(html.find("</h1>"), banner);
    EXPECT_LT(banner, html.find("<p class=\"meta\""));
    EXPECT_NE(html.find(sentence + ".</p>", banner), std::string::npos);

    const std::string terminal = Terminal(report);
    EXPECT_EQ(terminal.substr(0, terminal.find('\n')), sentence) << terminal;
  }
}

// What stopped a run comes back from a JSON report `mcpfuzz merge` reads, which anyone may
// have written: escaped as server text is.
TEST(ReportWriters, WhatStoppedARunIsEscapedAsServerTextIs) {
  for (reports::Report report : {HostileCheckReport(), HostileDiffReport()}) {
    report.stopped_by = kHostile;
    for (Format format : {Format::kJunit, Format::kMarkdown, Format::kHtml}) {
      const std::string written = Written(format, report);
      EXPECT_TRUE(IsValidUtf8(written));
      const std::string text = format == Format::kMarkdown ? OutsideCodeBlocks(written) : written;
      EXPECT_EQ(text.find("<script>alert"), std::string::npos) << reports::ToString(format);
      EXPECT_EQ(written.find('\x1B'), std::string::npos) << reports::ToString(format);
    }
    EXPECT_EQ(json::parse(Written(Format::kJson, report)).at("stopped_by"),
              json::value(ToValidUtf8(kHostile)));
    EXPECT_EQ(Terminal(report).find('\x1B'), std::string::npos);
  }
}

// The terminal speaks sentences: no token of the oracle tables ("[session_version_kept]") nor
// of the JSON report ("rejects_pre_init=no (not_refused)") reaches it.
TEST(ReportWriters, TheTerminalWritesInternalTokensAsWords) {
  reports::Report report = HostileCheckReport();
  reports::ReportItem& item = report.targets.at(0).items.at(0);
  item.verdict.kind = VerdictKind::kFail;
  item.verdict.expected.text = "success [session_version_kept]";
  report.targets.at(0).handshake_controls = {
      {Revision::k2025_11_25, {RejectsPreInit::kNo, RefusalGrounds::kNotRefused, "served"}},
      {Revision::k2025_06_18, {RejectsPreInit::kYes, RefusalGrounds::kOrdering, "-32600"}}};
  const std::string terminal = Terminal(report);
  for (const char* token :
       {"[session_version_kept]", "rejects_pre_init", "not_refused", "(ordering)"}) {
    EXPECT_EQ(terminal.find(token), std::string::npos) << token << "\n" << terminal;
  }
  EXPECT_NE(terminal.find("expected: success, with the session's revision kept"), std::string::npos)
      << terminal;
  EXPECT_NE(terminal.find("2025-11-25: a request sent before initialize was served (served)"),
            std::string::npos)
      << terminal;
  EXPECT_NE(terminal.find("refused for coming before the handshake"), std::string::npos)
      << terminal;
  // The JSON report keeps the tokens: signatures and readers depend on them.
  EXPECT_NE(Written(Format::kJson, report).find("[session_version_kept]"), std::string::npos);
}

// Every SARIF log the writers make, for every kind of report, stopped or not, placed at the
// root or at a --sarif-root, validates against the SARIF 2.1.0 schema (the npm package
// @microsoft/jest-sarif ships it) and has what GitHub code scanning needs: each result at a path
// relative to the repository.
TEST(ReportWriters, EverySarifLogValidatesAgainstTheSchemaAndGitHubsNeeds) {
  std::vector<reports::Report> reports = HostileReports();
  reports.push_back(HostileDiffReport());
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mcpfuzz-sarif-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string files;
  int index = 0;
  for (reports::Report report : reports) {
    for (const char* stopped_by : {"", "SIGINT"}) {
      report.stopped_by = stopped_by;
      for (const char* root : {"", "src/server.ts"}) {
        const std::filesystem::path path = dir / (std::to_string(index++) + ".sarif");
        std::ofstream file(path);
        reports::WriteSarif(report, file, reports::SarifOptions{root});
        files += " " + path.string();
      }
    }
  }
  const std::string command =
      "python3 " MCPFUZZ_SOURCE_DIR "/tests/support/validate_sarif.py " MCPFUZZ_SOURCE_DIR
      "/tests/servers/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json" +
      files + " 2>&1";
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = ::pclose(pipe);
  std::filesystem::remove_all(dir);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  EXPECT_NE(output.find(std::to_string(index) + " SARIF logs, 0 problems"), std::string::npos)
      << output;
}

// A result is placed at its case file when that lies inside the repository (a relative path,
// as a committed corpus is given), else at --sarif-root; the target is a property, not a place.
TEST(ReportWriters, SarifPlacesAResultAtARepositoryFileAndNamesTheTargetInItsProperties) {
  auto place = [](const std::string& case_file, const std::string& root) {
    reports::Report report = HostileReplayReport();
    report.targets.at(0).items.at(0).case_file = case_file;
    std::ostringstream out;
    reports::WriteSarif(report, out, reports::SarifOptions{root});
    const json::value result = json::parse(out.str()).at("runs").at(0).at("results").at(0);
    EXPECT_EQ(result.at("properties").at("target"), "http://127.0.0.1:8931/mcp");
    const json::value& artifact =
        result.at("locations").at(0).at("physicalLocation").at("artifactLocation");
    EXPECT_EQ(artifact.at("uriBaseId"), "%SRCROOT%");
    return json::value_to<std::string>(artifact.at("uri"));
  };
  EXPECT_EQ(place("mcp-corpus/fuzz-a.json", ""), "mcp-corpus/fuzz-a.json");
  EXPECT_EQ(place("./mcp-corpus//fuzz-a.json", "src/server.ts"), "mcp-corpus/fuzz-a.json");
  EXPECT_EQ(place("/tmp/runner/findings/fuzz-a.json", "src/server.ts"), "src/server.ts");
  EXPECT_EQ(place("../elsewhere/fuzz-a.json", ""), ".");
  EXPECT_EQ(place("", "./src/my server.ts"), "src/my%20server.ts");
  EXPECT_EQ(place("a:b.json", ""), "a%3Ab.json");
}

}  // namespace
}  // namespace mcpfuzz::test_support
