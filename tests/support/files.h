#pragma once
// Reading back what a test had mcpfuzz (or a fixture) write: a whole file as bytes, as JSON, a
// report, or the process ids a fixture recorded.

#include <sys/types.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace mcpfuzz::test_support {

/// The whole file, byte for byte; empty when it cannot be read.
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

/// The file parsed as JSON (throws on invalid JSON, which a test reports as a failure).
inline boost::json::value ReadJson(const std::filesystem::path& path) {
  return boost::json::parse(ReadFile(path));
}

/// A report mcpfuzz wrote, parsed; nothing when it was not written or is not JSON. A report
/// quotes the deeply nested requests some checks send, hence the depth.
inline std::optional<boost::json::value> ReadReport(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return std::nullopt;
  boost::json::parse_options options;
  options.max_depth = 100000;
  boost::system::error_code error;
  boost::json::value parsed = boost::json::parse(ReadFile(path), error, {}, options);
  if (error) return std::nullopt;
  return parsed;
}

/// The process ids a fixture wrote to `path`, one a line, in the order written.
inline std::vector<pid_t> ReadPids(const std::filesystem::path& path) {
  std::vector<pid_t> pids;
  std::istringstream in(ReadFile(path));
  for (pid_t pid = 0; in >> pid;) pids.push_back(pid);
  return pids;
}

}  // namespace mcpfuzz::test_support
