#pragma once
// A server started by the bare stdio clients: stdin and stdout are pipes to this process,
// stderr goes to /dev/null. Ending it closes its stdin, which makes a stdio server exit.

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace mcpfuzz::bench {

class StdioChild {
 public:
  /// `argv[0]` is a path or a name looked up on PATH.
  explicit StdioChild(const std::vector<std::string>& argv);
  ~StdioChild();
  StdioChild(const StdioChild&) = delete;
  StdioChild& operator=(const StdioChild&) = delete;

  /// Writes all of `bytes`; throws when the child stopped reading.
  void Write(std::string_view bytes);
  /// Waits up to `timeout` for output and appends what one read gets to `into`. False when
  /// nothing came in time; throws when the child closed its stdout.
  bool ReadSome(std::string& into, std::chrono::milliseconds timeout);

 private:
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
};

}  // namespace mcpfuzz::bench
