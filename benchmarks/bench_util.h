#pragma once
// Small pieces the benchmark programs share: their flags' numbers and the session id read off
// an HTTP response's header lines.

#include <cctype>
#include <charconv>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcpfuzz::bench {

/// A whole non-negative number, or an exception naming the text.
inline std::size_t Number(const std::string& text) {
  std::size_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw std::runtime_error("not a number: " + text);
  }
  return value;
}

/// The value of an `Mcp-Session-Id` header line (any casing), trimmed; nothing for another line.
inline std::optional<std::string> SessionIdOfHeaderLine(std::string_view line) {
  constexpr std::string_view kName = "mcp-session-id:";
  if (line.size() <= kName.size()) return std::nullopt;
  std::string lower(line.substr(0, kName.size()));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower != kName) return std::nullopt;
  std::string value(line.substr(kName.size()));
  value.erase(0, value.find_first_not_of(" \t"));
  value.erase(value.find_last_not_of(" \t\r\n") + 1);
  return value;
}

}  // namespace mcpfuzz::bench
