#pragma once
// A server's coverage as LCOV tracefile records (`fuzz --coverage-report lcov=PATH`), for the
// tools people already read coverage with (genhtml, Codecov). Pure: the caller reads each
// script's source and passes it in.

#include <optional>
#include <string>
#include <string_view>

#include "coverage/coverage_map.h"

namespace mcpfuzz::coverage {

/// The local file a script URL names (file:///srv/a.js, or an absolute path); nothing for any
/// other (node:internal, a data: URL).
std::optional<std::string> ScriptPath(std::string_view url);

/// One LCOV record (SF … end_of_record) for `script`, whose source text is `source`. A line is
/// found when a block the agent named covers it, and hit when the innermost such block ran.
/// Node agents name blocks by offsets in UTF-16 code units (V8's), Python agents by line
/// (start = end = the line, in a .py script).
std::string LcovRecord(const std::string& path, std::string_view source,
                       const ScriptCoverage& script);

}  // namespace mcpfuzz::coverage
