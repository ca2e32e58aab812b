#pragma once
// The coverage agents written out for one run (`fuzz --coverage`): a private folder holding the
// Node and the Python agent, which the server loads, removed when the run ends.

#include <filesystem>

#include "model/result.h"

namespace mcpfuzz::cli {

class AgentFile {
 public:
  /// Writes coverage::NodeAgentSource() and coverage::PythonAgentSource() into a new folder of
  /// their own under the system's temporary folder, readable by this user only.
  static Result<AgentFile> Write();
  AgentFile(AgentFile&& other) noexcept : folder_(std::move(other.folder_)) {
    other.folder_.clear();
  }
  AgentFile& operator=(AgentFile&&) = delete;
  AgentFile(const AgentFile&) = delete;
  AgentFile& operator=(const AgentFile&) = delete;
  ~AgentFile();

  /// The folder, as StdioTarget::coverage_agent takes it.
  const std::filesystem::path& folder() const { return folder_; }

 private:
  explicit AgentFile(std::filesystem::path folder) : folder_(std::move(folder)) {}
  std::filesystem::path folder_;
};

}  // namespace mcpfuzz::cli
