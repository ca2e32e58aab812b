#include "reports/escape.h"

#include <algorithm>

#include "model/text.h"

namespace mcpfuzz::reports {
namespace {

// "\x1B" or "\u009B": the prefix, then two hex digits.
std::string Hex(std::string_view prefix, unsigned value) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out(prefix);
  out += kDigits[(value >> 4U) & 0xFU];
  out += kDigits[value & 0xFU];
  return out;
}

}  // namespace

std::string Visible(std::string_view text) {
  const std::string valid = ToValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const auto byte = static_cast<unsigned char>(valid[i]);
    if (byte == '\n' || byte == '\t') {
      out += static_cast<char>(byte);
    } else if (byte < 0x20 || byte == 0x7F) {
      out += Hex("\\x", byte);
    } else if (byte == 0xC2 && i + 1 < valid.size() &&
               static_cast<unsigned char>(valid[i + 1]) < 0xA0) {
      // C1 controls (U+0080..U+009F): CSI among them.
      out += Hex("\\u00", static_cast<unsigned char>(valid[++i]));
    } else if (byte == 0xEF && i + 2 < valid.size() && valid[i + 1] == '\xBF' &&
               (valid[i + 2] == '\xBE' || valid[i + 2] == '\xBF')) {
      out += valid[i + 2] == '\xBE' ? "\\uFFFE" : "\\uFFFF";
      i += 2;
    } else {
      out += static_cast<char>(byte);
    }
  }
  return out;
}

std::string EscapeMarkup(std::string_view text) {
  std::string out;
  for (char c : Visible(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string EscapeMarkdownInline(std::string_view text) {
  std::string out;
  for (char c : Visible(text)) {
    if (c == '\n' || c == '\t') {
      out += ' ';
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (std::string_view("\\`*_[]|~#").find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string MarkdownCodeBlock(std::string_view text, std::string_view language) {
  const std::string body = Visible(text);
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  std::string out = fence;
  out += language;
  out += '\n';
  out += body;
  if (!body.empty() && body.back() != '\n') out += '\n';
  out += fence;
  out += '\n';
  return out;
}

void MakeJsonStringsValidUtf8(boost::json::value& value) {
  if (auto* text = value.if_string()) {
    if (!IsValidUtf8(*text)) *text = ToValidUtf8(*text);
  } else if (auto* array = value.if_array()) {
    for (auto& element : *array) MakeJsonStringsValidUtf8(element);
  } else if (auto* object = value.if_object()) {
    for (auto& member : *object) MakeJsonStringsValidUtf8(member.value());
  }
}

std::vector<std::string_view> LastLines(std::string_view tail, std::size_t count) {
  std::vector<std::string_view> lines;
  while (!tail.empty()) {
    const std::size_t end = tail.find('\n');
    std::string_view line = tail.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) lines.push_back(line);
    tail = end == std::string_view::npos ? std::string_view() : tail.substr(end + 1);
  }
  if (lines.size() > count)
    lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(count));
  return lines;
}

}  // namespace mcpfuzz::reports
