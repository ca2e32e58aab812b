// The report files of the mcpfuzz binary: one check, fuzz or replay run writes all five
// formats at once; a file that cannot be written is named, the others are still written, and
// the run says so with exit code 2.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <boost/json.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "model/reproducer.h"
#include "support/files.h"
#include "support/processes.h"

namespace mcpfuzz::test_support {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

class ReportFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mcpfuzz-report-files-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  std::string AllFive() const {
    std::string flags;
    for (const char* file :
         {"json=r.json", "junit=r.xml", "sarif=r.sarif", "markdown=r.md", "html=r.html"}) {
      const std::string spec(file);
      const auto equals = spec.find('=');
      flags += " --report " + spec.substr(0, equals + 1) +
               ShellQuote((dir_ / spec.substr(equals + 1)).string());
    }
    return flags;
  }
  // Every file there, and no temporary file left behind.
  void ExpectAllFive(std::string_view json_format) const {
    const json::value report = json::parse(ReadFile(dir_ / "r.json"));
    EXPECT_EQ(report.at("format").as_string(), json_format);
    const json::value sarif = json::parse(ReadFile(dir_ / "r.sarif"));
    EXPECT_FALSE(sarif.at("runs").at(0).at("results").as_array().empty());
    EXPECT_NE(ReadFile(dir_ / "r.xml").find("<failure "), std::string::npos);
    EXPECT_NE(ReadFile(dir_ / "r.md").find("### Findings"), std::string::npos);
    // A check report charts its verdicts; a fuzz report counts cases per family instead.
    const std::string html = ReadFile(dir_ / "r.html");
    EXPECT_NE(html.find(json_format == "mcpfuzz-fuzz-report" ? "<th>cases sent</th>" : "<svg"),
              std::string::npos);
    for (const auto& entry : fs::directory_iterator(dir_)) {
      EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << entry.path();
    }
  }
  fs::path dir_;
};

TEST_F(ReportFiles, OneCheckRunWritesAllFiveFormats) {
  const ProcessRun run = Mcpfuzz(
      "check --builtin --fault unknown-tool-is-error --only tools.unknown-name" + AllFive());
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ExpectAllFive("mcpfuzz-check-report");
  EXPECT_NE(run.output.find("report: html "), std::string::npos) << run.output;
}

TEST_F(ReportFiles, OneFuzzRunWritesAllFiveFormats) {
  const ProcessRun run = Mcpfuzz(
      "fuzz --builtin --fault unknown-method-200 --families unknown-method --seed 1 --cases 200" +
      AllFive());
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ExpectAllFive("mcpfuzz-fuzz-report");
}

TEST_F(ReportFiles, ReplayWritesAllFiveFormats) {
  const std::string corpus =
      std::string(MCPFUZZ_SOURCE_DIR) + "/corpus/regression/refserver-unknown-tool-is-error";
  const ProcessRun run = Mcpfuzz("replay " + ShellQuote(corpus) +
                                 " --builtin --fault unknown-tool-is-error" + AllFive());
  EXPECT_EQ(run.exit_code, 1) << run.output;
  ExpectAllFive("mcpfuzz-replay-report");
  EXPECT_GE(json::parse(ReadFile(dir_ / "r.json")).at("still_failing").as_int64(), 1);
}

// Found out before the run, not after an hour of fuzzing: nothing is sent, nothing written.
TEST_F(ReportFiles, AnUnwritableFileIsRefusedBeforeTheRun) {
  const std::string missing = (dir_ / "no-such-folder" / "r.json").string();
  for (const std::string command : {"check --builtin --only tools.unknown-name",
                                    "fuzz --builtin --cases 5", "replay x.json --builtin"}) {
    const ProcessRun run = Mcpfuzz(command + " --report json=" + ShellQuote(missing) +
                                   " --report markdown=" + ShellQuote((dir_ / "r.md").string()));
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find("cannot write " + missing), std::string::npos) << run.output;
    EXPECT_EQ(run.output.find("target:"), std::string::npos) << "the run started: " << run.output;
    EXPECT_FALSE(fs::exists(dir_ / "r.md"));
  }
  const std::string file = (dir_ / "a-file").string();
  std::ofstream(file) << "x";
  const ProcessRun corpus = Mcpfuzz("fuzz --builtin --cases 5 --corpus " + ShellQuote(file));
  EXPECT_EQ(corpus.exit_code, 2) << corpus.output;
  EXPECT_NE(corpus.output.find("cannot write " + file), std::string::npos) << corpus.output;
  const ProcessRun baseline =
      Mcpfuzz("check --builtin --only tools.unknown-name --write-baseline " +
              ShellQuote((dir_ / "nope" / "b.json").string()));
  EXPECT_EQ(baseline.exit_code, 2) << baseline.output;
  // The probe file is gone again.
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().filename().string().find(".mcpfuzz-write-test"), std::string::npos);
  }
}

TEST_F(ReportFiles, BadReportOptionsAreRefusedBeforeRunning) {
  for (const char* flags : {"--report pdf=x.pdf", "--report json",
                            "--report json=", "--report json=a --report html=a"}) {
    const ProcessRun run = Mcpfuzz(std::string("check --builtin ") + flags);
    EXPECT_EQ(run.exit_code, 2) << flags;
    EXPECT_NE(run.output.find("--report"), std::string::npos) << run.output;
  }
}

}  // namespace
}  // namespace mcpfuzz::test_support
