#include "cli/coverage_agent.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "coverage/agent.h"

namespace mcpfuzz::cli {

Result<AgentFile> AgentFile::Write() {
  std::error_code error;
  const std::filesystem::path temporary = std::filesystem::temp_directory_path(error);
  if (error) return Error{"no temporary folder for the coverage agent: " + error.message()};
  std::string pattern = (temporary / "mcpfuzz-coverage-XXXXXX").string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  // mkdtemp makes the folder 0700: the agent is code the server runs, so nobody else writes it.
  if (::mkdtemp(name.data()) == nullptr) {
    return Error{"could not make a folder for the coverage agent under " + temporary.string()};
  }
  AgentFile file{std::filesystem::path(name.data())};
  std::ofstream out(file.path(), std::ios::binary);
  const std::string_view source = coverage::NodeAgentSource();
  out.write(source.data(), static_cast<std::streamsize>(source.size()));
  if (!out.flush()) return Error{"could not write the coverage agent to " + file.path().string()};
  return file;
}

AgentFile::~AgentFile() {
  if (folder_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
}

std::filesystem::path AgentFile::path() const {
  return folder_ / std::string(coverage::kNodeAgentFileName);
}

}  // namespace mcpfuzz::cli
