#pragma once
// Log levels and progress (tables §4b V11, V11a, §4a L10): the eight syslog severities MCP names,
// least severe first, and the `_meta` keys a request opts into log messages and progress with.

#include <array>
#include <optional>
#include <string_view>

namespace mcpfuzz {

inline constexpr std::array<std::string_view, 8> kLogLevels = {
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};

/// 2026-07-28: the level a request wants log messages at; without it, none.
inline constexpr std::string_view kMetaLogLevel = "io.modelcontextprotocol/logLevel";
/// Every revision: the token a request wants notifications/progress for.
inline constexpr std::string_view kMetaProgressToken = "progressToken";

/// The position of `level` in kLogLevels (0 = debug), or nothing for a name that is no level.
/// Levels are lowercase and case-sensitive.
constexpr std::optional<std::size_t> LogLevelRank(std::string_view level) {
  for (std::size_t i = 0; i < kLogLevels.size(); ++i) {
    if (kLogLevels[i] == level) return i;
  }
  return std::nullopt;
}

}  // namespace mcpfuzz
