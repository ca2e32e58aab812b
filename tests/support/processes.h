#pragma once
// Running the built mcpfuzz binary (and other commands) from a test, and scratch directories.

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>

#include "model/reproducer.h"

namespace mcpfuzz::test_support {

struct ProcessRun {
  int exit_code = -1;
  /// stdout and stderr together.
  std::string output;
};

/// Runs `command` with sh; -1 as the exit code when it could not run or was killed.
inline ProcessRun RunShell(const std::string& command) {
  ProcessRun run;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) {
    run.output.append(buffer.data(), n);
  }
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

/// This process's children still in the process table (running or not yet reaped).
inline std::size_t ChildProcesses() {
  std::size_t children = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 1));
    std::string state;
    long parent = 0;
    rest >> state >> parent;
    if (parent == static_cast<long>(::getpid())) ++children;
  }
  return children;
}

/// Processes whose environment names `text` (a run's private folder, in PYTHONPATH or
/// NODE_OPTIONS): the servers a run started with it, and whatever they started.
inline std::size_t ProcessesWhoseEnvironmentNames(const std::string& text) {
  std::size_t found = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const int fd = ::open((entry.path() / "environ").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    std::string environment;
    std::array<char, 4096> chunk{};
    ssize_t got = 0;
    while ((got = ::read(fd, chunk.data(), chunk.size())) > 0) {
      environment.append(chunk.data(), static_cast<std::size_t>(got));
    }
    ::close(fd);
    if (environment.find(text) != std::string::npos) ++found;
  }
  return found;
}

inline const std::string& McpfuzzBinary() {
  static const std::string binary = std::string(MCPFUZZ_BINARY_DIR) + "/cli/mcpfuzz";
  return binary;
}

/// The built binary with `arguments` (already shell-quoted where needed).
inline ProcessRun Mcpfuzz(const std::string& arguments) {
  return RunShell(ShellQuote(McpfuzzBinary()) + " " + arguments);
}

/// The same with stdin at its end, killed after `seconds` (exit 124, or 137 after a grace), so
/// that a hang fails a test instead of hanging it.
inline ProcessRun McpfuzzWithin(int seconds, const std::string& arguments) {
  return RunShell("timeout -k 5 " + std::to_string(seconds) + " " + ShellQuote(McpfuzzBinary()) +
                  " " + arguments + " </dev/null");
}

/// An empty directory of its own under the temporary directory, removed again at the end.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(std::string_view name)
      : path_(std::filesystem::temp_directory_path() /
              ("mcpfuzz-test-" + std::to_string(::getpid()) + "-" + std::string(name))) {
    std::filesystem::remove_all(path_);
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace mcpfuzz::test_support
