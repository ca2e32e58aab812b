#pragma once
// The whole CLI as a function, so tests drive it without a process; main() only forwards.

#include <ostream>
#include <string>
#include <vector>

namespace mcpfuzz::cli {

/// Runs `mcpfuzz args...` and returns the exit code: 0 done, 1 findings (commands that judge),
/// 2 could not run. `self_executable` is the path of the mcpfuzz binary itself.
int Run(const std::vector<std::string>& args, const std::string& self_executable, std::ostream& out,
        std::ostream& err);

}  // namespace mcpfuzz::cli
