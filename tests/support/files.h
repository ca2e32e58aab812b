#pragma once
// Reading back what a test had mcpfuzz write: a whole file as bytes, or as JSON.

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace mcpfuzz::test_support
