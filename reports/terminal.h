#pragma once
// Text from a server is hostile until proven otherwise: it is escaped before it reaches a
// terminal, so escape sequences and control characters cannot rewrite what people see.

#include <cstddef>
#include <string>
#include <string_view>

namespace mcpfuzz::reports {

/// Control characters, DEL and bytes that are not valid UTF-8 become \xNN (newline \n, tab
/// \t); the result is cut at `max_chars` characters with "…".
std::string EscapeForTerminal(std::string_view text, std::size_t max_chars = 120);

/// `text` padded with spaces to `width` characters (UTF-8 aware, never cut).
std::string Pad(std::string_view text, std::size_t width);

}  // namespace mcpfuzz::reports
