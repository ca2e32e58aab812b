#pragma once
// `mcpfuzz completion bash`: a bash completion script made from the flag table (cli/flags.h),
// so a new flag completes without anyone editing a script. The build writes it once and
// `cmake --install` puts it where bash-completion looks (share/bash-completion/completions).

#include <ostream>
#include <string>
#include <vector>

namespace mcpfuzz::cli {

/// The bash completion script of `mcpfuzz`.
std::string BashCompletion();

/// `mcpfuzz completion SHELL` (args without the word `completion`): prints the script for
/// bash; 2 for any other shell.
int RunCompletion(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace mcpfuzz::cli
