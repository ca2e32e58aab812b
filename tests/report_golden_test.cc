// Golden files for every writer: the fixture reports (fixed version, start time and duration)
// written in each format must match tests/data/golden/ byte for byte.
//
// After an intended change of a format, regenerate them and review the diff:
//   MCPFUZZ_UPDATE_GOLDEN=1 ctest --preset ci -R ReportGolden

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/writers.h"
#include "support/files.h"
#include "support/report_fixtures.h"

namespace mcpfuzz::test_support {
namespace {

using reports::Format;

const std::filesystem::path kGoldenDir =
    std::filesystem::path(MCPFUZZ_SOURCE_DIR) / "tests" / "data" / "golden";

std::string Extension(Format format) {
  switch (format) {
    case Format::kJson:
      return "json";
    case Format::kJunit:
      return "junit.xml";
    case Format::kSarif:
      return "sarif";
    case Format::kMarkdown:
      return "md";
    case Format::kHtml:
      return "html";
  }
  return "txt";
}

// Files NAME.EXTENSION, NAME the report's kind unless given.
void ExpectGolden(const reports::Report& report, std::string name = "") {
  if (name.empty()) name = reports::ToString(report.kind);
  const bool update = std::getenv("MCPFUZZ_UPDATE_GOLDEN") != nullptr;
  for (Format format :
       {Format::kJson, Format::kJunit, Format::kSarif, Format::kMarkdown, Format::kHtml}) {
    const auto path = kGoldenDir / (name + "." + Extension(format));
    std::ostringstream written;
    reports::Write(format, report, written);
    if (update) {
      std::filesystem::create_directories(kGoldenDir);
      std::ofstream(path, std::ios::binary) << written.str();
      continue;
    }
    ASSERT_TRUE(std::filesystem::exists(path))
        << path << " is missing; MCPFUZZ_UPDATE_GOLDEN=1 writes it";
    EXPECT_EQ(written.str(), ReadFile(path))
        << path << " differs; if the change is intended, regenerate with MCPFUZZ_UPDATE_GOLDEN=1";
  }
}

TEST(ReportGolden, Check) { ExpectGolden(HostileCheckReport()); }
TEST(ReportGolden, Fuzz) { ExpectGolden(HostileFuzzReport()); }
TEST(ReportGolden, Replay) { ExpectGolden(HostileReplayReport()); }
TEST(ReportGolden, Survey) { ExpectGolden(HostileSurveyReport()); }
// A run SIGTERM stopped: every format marks it (docs/report-format.md).
TEST(ReportGolden, FuzzStoppedBySigterm) {
  reports::Report report = HostileFuzzReport();
  report.stopped_by = "SIGTERM";
  ExpectGolden(report, "fuzz-stopped");
}

}  // namespace
}  // namespace mcpfuzz::test_support
