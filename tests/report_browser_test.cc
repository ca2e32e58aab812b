// The HTML report rendered by a real browser: headless Chromium loads it from a file:// URL
// with networking disabled, dumps the DOM it built (so the key figures must be there after
// parsing, not just in the bytes) and takes a screenshot that must not be blank.
//
// Chromium comes from scripts/bootstrap.sh (Debian packages chromium, chromium-driver); the
// test skips, saying so, only when no chromium is installed.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/reproducer.h"
#include "reports/writers.h"
#include "support/report_fixtures.h"

namespace mcpfuzz::test_support {
namespace {

namespace fs = std::filesystem;

std::string FindChromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    for (const char* dir : {"/usr/bin/", "/usr/local/bin/", "/snap/bin/"}) {
      const std::string path = std::string(dir) + name;
      if (::access(path.c_str(), X_OK) == 0) return path;
    }
  }
  return "";
}

struct Rendered {
  int exit_code = -1;
  std::string output;
};

// Runs chromium with the flags that keep it offline and unprivileged; `what` is --dump-dom or
// --screenshot=FILE.
Rendered RunChromium(const std::string& chromium, const fs::path& profile, const std::string& what,
                     const std::string& url) {
  const std::string command =
      "timeout 90 " + ShellQuote(chromium) +
      " --headless --no-sandbox --disable-gpu --disable-background-networking"
      " --no-first-run --disable-extensions --disable-sync --hide-scrollbars"
      " --host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir=" +
      ShellQuote(profile.string()) + " --window-size=1280,1600 " + what + " " + ShellQuote(url) +
      " 2>/dev/null";
  Rendered rendered;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return rendered;
  char buffer[8192];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) {
    rendered.output.append(buffer, n);
  }
  const int status = ::pclose(pipe);
  rendered.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return rendered;
}

class ReportBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = FindChromium();
    if (chromium_.empty()) {
      GTEST_SKIP() << "chromium is not installed; scripts/bootstrap.sh installs the Debian "
                      "packages chromium and chromium-driver";
    }
    dir_ = fs::temp_directory_path() / ("mcpfuzz-browser-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
  }

  std::string chromium_;
  fs::path dir_;
};

TEST_F(ReportBrowser, RendersTheReportWithItsKeyFigures) {
  const reports::Report report = HostileCheckReport();
  const fs::path page = dir_ / "report.html";
  {
    std::ofstream file(page);
    reports::WriteHtml(report, file);
  }
  const std::string url = "file://" + page.string();

  const Rendered dom = RunChromium(chromium_, dir_ / "profile", "--dump-dom", url);
  ASSERT_EQ(dom.exit_code, 0) << dom.output.substr(0, 2000);
  const reports::VerdictCounts counts = reports::Count(report);
  // The figures as the browser's DOM holds them after parsing the page.
  for (VerdictKind kind : reports::kVerdictOrder) {
    const std::string figure = "data-figure=\"t0-" + std::string(ToString(kind)) + "\">" +
                               std::to_string(counts.Of(kind)) + "</b>";
    EXPECT_NE(dom.output.find(figure), std::string::npos) << figure;
  }
  EXPECT_NE(dom.output.find("Checks × revisions"), std::string::npos);
  EXPECT_NE(dom.output.find("<svg"), std::string::npos);
  EXPECT_NE(dom.output.find("tools.unknown-name — 2025-11-25/http"), std::string::npos);
  // The hostile excerpt is text in the DOM, not an element: no script ran, none was added.
  EXPECT_NE(dom.output.find("&lt;script&gt;alert("), std::string::npos);
  EXPECT_EQ(dom.output.find("<script>alert("), std::string::npos);

  const fs::path shot = dir_ / "report.png";
  const Rendered screenshot =
      RunChromium(chromium_, dir_ / "profile", "--screenshot=" + shot.string(), url);
  ASSERT_EQ(screenshot.exit_code, 0);
  ASSERT_TRUE(fs::exists(shot));
  // A blank page of the same size compresses to a few kilobytes; the report, with its charts,
  // tables and text, to many times that.
  const fs::path blank_page = dir_ / "blank.html";
  std::ofstream(blank_page) << "<!DOCTYPE html><html><body></body></html>";
  const fs::path blank = dir_ / "blank.png";
  ASSERT_EQ(RunChromium(chromium_, dir_ / "profile", "--screenshot=" + blank.string(),
                        "file://" + blank_page.string())
                .exit_code,
            0);
  std::ifstream png(shot, std::ios::binary);
  char signature[8] = {};
  png.read(signature, sizeof signature);
  EXPECT_EQ(std::string(signature, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_GT(fs::file_size(shot), 20000U);
  EXPECT_GT(fs::file_size(shot), 4 * fs::file_size(blank))
      << "the screenshot is hardly bigger than one of a blank page";
}

}  // namespace
}  // namespace mcpfuzz::test_support
