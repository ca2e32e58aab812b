#pragma once
// The targets file of `mcpfuzz check --targets FILE`: one target per line.
//
//   # comments start with #; blank lines are ignored
//   http://127.0.0.1:3000/mcp
//   stdio: node server.js --stdio
//
// A stdio command is split on spaces and tabs (no quoting). Every target gets the target
// options of the command line (--header, --timeout-ms, --allow-remote, …).

#include <optional>
#include <string_view>
#include <vector>

#include "cli/options.h"
#include "model/result.h"

namespace mcpfuzz::cli {

/// True when `word` is an HTTP target's URL: it starts with http:// or https://, the scheme in
/// any case (HTTP://, Https://), as RFC 3986 reads schemes. The one test of it for the command
/// line, targets files and `diff`.
bool IsHttpUrl(std::string_view word);

/// One target word as the command line, a targets file and `diff` spell it: an HTTP URL, or
/// `stdio: COMMAND ARGS` (split on spaces and tabs, no quoting), on top of `defaults`. Nothing
/// for any other word; a `stdio:` word without a command gives an empty argv.
std::optional<TargetSpec> ParseTargetWord(std::string_view word, const TargetSpec& defaults);

/// The targets in file order, each a copy of `defaults` with its kind, URL or argv set. An
/// error names the line.
Result<std::vector<TargetSpec>> ParseTargetsFile(std::string_view text, const TargetSpec& defaults);

}  // namespace mcpfuzz::cli
