#include "cli/coverage_agent.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "coverage/agent.h"
#include "transport/transport.h"

namespace mcpfuzz::cli {
namespace {

// The transport loads the agents by these names from the folder a run writes.
static_assert(coverage::kNodeAgentFileName == kCoverageAgentNodeFile);
static_assert(coverage::kPythonAgentFileName == kCoverageAgentPythonFile);

bool WriteFile(const std::filesystem::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  return static_cast<bool>(out.flush());
}

}  // namespace

Result<AgentFile> AgentFile::Write() {
  std::error_code error;
  const std::filesystem::path temporary = std::filesystem::temp_directory_path(error);
  if (error) return Error{"no temporary folder for the coverage agent: " + error.message()};
  std::string pattern = (temporary / "mcpfuzz-coverage-XXXXXX").string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  // mkdtemp makes the folder 0700: the agents are code the server runs, so nobody else writes
  // them (the Python one is imported from a folder on PYTHONPATH).
  if (::mkdtemp(name.data()) == nullptr) {
    return Error{"could not make a folder for the coverage agent under " + temporary.string()};
  }
  AgentFile file{std::filesystem::path(name.data())};
  for (const auto& [file_name, source] :
       {std::pair{coverage::kNodeAgentFileName, coverage::NodeAgentSource()},
        std::pair{coverage::kPythonAgentFileName, coverage::PythonAgentSource()}}) {
    const std::filesystem::path path = file.folder() / std::string(file_name);
    if (!WriteFile(path, source)) {
      return Error{"could not write the coverage agent to " + path.string()};
    }
  }
  return file;
}

AgentFile::~AgentFile() {
  if (folder_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
}

}  // namespace mcpfuzz::cli
