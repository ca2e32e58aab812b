#pragma once
// The coverage agent written out for one run (`fuzz --coverage`): a private folder holding the
// agent the server loads, removed when the run ends.

#include <filesystem>

#include "model/result.h"

namespace mcpfuzz::cli {

class AgentFile {
 public:
  /// Writes coverage::NodeAgentSource() into a new folder of its own under the system's
  /// temporary folder, readable by this user only.
  static Result<AgentFile> Write();
  AgentFile(AgentFile&& other) noexcept : folder_(std::move(other.folder_)) {
    other.folder_.clear();
  }
  AgentFile& operator=(AgentFile&&) = delete;
  AgentFile(const AgentFile&) = delete;
  AgentFile& operator=(const AgentFile&) = delete;
  ~AgentFile();

  std::filesystem::path path() const;

 private:
  explicit AgentFile(std::filesystem::path folder) : folder_(std::move(folder)) {}
  std::filesystem::path folder_;
};

}  // namespace mcpfuzz::cli
