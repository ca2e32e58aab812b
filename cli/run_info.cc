#include "cli/run_info.h"

#include <ctime>

// Written by the build (cmake/GitCommit.cmake), not by people.
#include "git_commit.h"

namespace mcpfuzz::cli {

// Only this file includes git_commit.h, so a new commit recompiles nothing else.
const char* BuildCommit() { return MCPFUZZ_GIT_COMMIT; }

std::string UtcNow() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

reports::RunInfo StartRunInfo(const Target& target) {
  reports::RunInfo info;
  info.tool_version = kToolVersion;
  info.target = target.Describe();
  info.stable_target = target.StableName();
  info.reproducer_target = target.ReproduceAt();
  info.started_at = UtcNow();
  return info;
}

}  // namespace mcpfuzz::cli
