#include "reports/terminal.h"

#include <cstdio>

namespace mcpfuzz::reports {
namespace {

// Length of the UTF-8 sequence starting at text[i], or 0 when it is malformed.
std::size_t Utf8Length(std::string_view text, std::size_t i) {
  auto lead = static_cast<unsigned char>(text[i]);
  std::size_t length = lead < 0x80              ? 1
                       : (lead & 0xE0U) == 0xC0 ? 2
                       : (lead & 0xF0U) == 0xE0 ? 3
                       : (lead & 0xF8U) == 0xF0 ? 4
                                                : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0U) != 0x80) return 0;
  }
  return length;
}

std::size_t CountChars(std::string_view text) {
  std::size_t count = 0;
  for (char c : text) count += (static_cast<unsigned char>(c) & 0xC0U) != 0x80 ? 1 : 0;
  return count;
}

}  // namespace

std::string EscapeForTerminal(std::string_view text, std::size_t max_chars) {
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (chars >= max_chars) {
      out += "…";
      break;
    }
    auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = Utf8Length(text, i);
    if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\t') {
      out += "\\t";
    } else if (length == 0 || byte < 0x20 || byte == 0x7F) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
      out += escaped;
      length = 1;
    } else if (length == 2 && byte == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
      // C1 controls (U+0080..U+009F) include CSI, which terminals obey like ESC [.
      out += "\\u00";
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%02X", static_cast<unsigned char>(text[i + 1]));
      out += escaped;
    } else {
      out.append(text.substr(i, length));
    }
    i += length == 0 ? 1 : length;
    ++chars;
  }
  return out;
}

std::string Pad(std::string_view text, std::size_t width) {
  std::string out(text);
  for (std::size_t n = CountChars(text); n < width; ++n) out += ' ';
  return out;
}

}  // namespace mcpfuzz::reports
