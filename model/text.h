#pragma once
// Byte-level text helpers: ASCII case, whitespace, base64, UTF-8 validity.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcpfuzz {

/// `text` with ASCII letters lowercased (HTTP names and schemes are ASCII-case-insensitive).
std::string AsciiLowercase(std::string_view text);
/// `text` without leading and trailing spaces, tabs, CRs and LFs.
std::string_view TrimWhitespace(std::string_view text);

/// Standard base64 (RFC 4648 §4) with padding.
std::string Base64Encode(std::string_view bytes);
/// Strict decoding: nothing for a wrong length, a stray character or misplaced padding.
std::optional<std::string> Base64Decode(std::string_view text);
/// True when `bytes` is well-formed UTF-8 (no overlongs, no surrogates, nothing past U+10FFFF).
bool IsValidUtf8(std::string_view bytes);
/// `bytes` with every byte that is not part of a well-formed UTF-8 sequence replaced by U+FFFD.
std::string ToValidUtf8(std::string_view bytes);
/// The first `limit` bytes of `text` at most, backed up over UTF-8 continuation bytes so the cut
/// never splits a character.
std::string_view Utf8Prefix(std::string_view text, std::size_t limit);

}  // namespace mcpfuzz
