#include "cli/coverage_report.h"

#include <fstream>
#include <sstream>
#include <string>

#include "coverage/lcov.h"

namespace mcpfuzz::cli {
namespace {

// A server's script larger than this is not read: none of a Node or Python server's is, and
// the report must stay bounded whatever the server loads.
constexpr std::uintmax_t kMaxSourceBytes = std::uintmax_t{32} << 20;

std::optional<std::string> ReadSource(const std::string& path) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error || size > kMaxSourceBytes) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

Result<std::size_t> WriteLcov(const std::vector<coverage::ScriptCoverage>& scripts,
                              const std::filesystem::path& path) {
  std::string tracefile;
  std::size_t written = 0;
  for (const coverage::ScriptCoverage& script : scripts) {
    const std::optional<std::string> source_path = coverage::ScriptPath(script.url);
    if (!source_path) continue;
    const std::optional<std::string> source = ReadSource(*source_path);
    if (!source) continue;
    tracefile += coverage::LcovRecord(*source_path, *source, script);
    ++written;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << tracefile;
  out.close();
  if (!out) return Error{"could not write the LCOV report " + path.string()};
  return written;
}

}  // namespace mcpfuzz::cli
