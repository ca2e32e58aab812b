#pragma once
// `mcpfuzz minimize`: libFuzzer's crash minimisation around a finding of the request fuzz
// targets (refserver_handler, live_target), with the minimal case written as a case file into
// the regression corpus.

#include <ostream>
#include <string>
#include <vector>

namespace mcpfuzz::cli {

/// The text of `mcpfuzz help minimize`.
std::string MinimizeHelp();

/// `args` are minimize's own arguments (after the command name). Returns 0 (the case file was
/// written), 1 (the input does not fail: nothing to minimise) or 2 (could not run).
int RunMinimize(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace mcpfuzz::cli
