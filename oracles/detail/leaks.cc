#include "oracles/detail/leaks.h"

#include <array>
#include <optional>
#include <span>
#include <string>

#include "oracles/verdict.h"

namespace mcpfuzz::oracles_detail {
namespace {

constexpr std::size_t kScanLimit = 16 * 1024;
constexpr std::size_t kEvidenceLimit = 80;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsHostChar(char c) { return IsAlpha(c) || IsDigit(c) || c == '-'; }

std::string_view LineAround(std::string_view text, std::size_t position) {
  const std::size_t start = text.rfind('\n', position);
  const std::size_t begin = start == std::string_view::npos ? 0 : start + 1;
  const std::size_t end = text.find('\n', position);
  return text.substr(begin, end == std::string_view::npos ? text.size() - begin : end - begin);
}

Leak MakeLeak(LeakKind kind, std::string_view evidence) {
  return Leak{kind, Excerpt(evidence, kEvidenceLimit)};
}

// ":12)" or ":12:34": the position part of a stack frame.
bool HasFramePosition(std::string_view line) {
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    if (line[i] != ':' || !IsDigit(line[i + 1])) continue;
    std::size_t j = i + 1;
    while (j < line.size() && IsDigit(line[j])) ++j;
    if (j < line.size() &&
        (line[j] == ')' || (line[j] == ':' && j + 1 < line.size() && IsDigit(line[j + 1])))) {
      return true;
    }
  }
  return false;
}

std::optional<Leak> FindStackTrace(std::string_view text) {
  for (std::string_view marker :
       {std::string_view("Traceback (most recent call last)"), std::string_view("goroutine ")}) {
    if (const std::size_t at = text.find(marker); at != std::string_view::npos) {
      if (marker == "goroutine " && text.find("[running]", at) == std::string_view::npos) continue;
      return MakeLeak(LeakKind::kStackTrace, LineAround(text, at));
    }
  }
  // Python frames: File "/x/y.py", line 12
  if (const std::size_t at = text.find(".py\", line "); at != std::string_view::npos) {
    return MakeLeak(LeakKind::kStackTrace, LineAround(text, at));
  }
  // JavaScript, Java and .NET frames: an indented line "at name (file:line:col)".
  for (std::size_t at = text.find("at "); at != std::string_view::npos;
       at = text.find("at ", at + 1)) {
    std::size_t begin = at;
    while (begin > 0 && (text[begin - 1] == ' ' || text[begin - 1] == '\t')) --begin;
    const bool indented = begin < at && (begin == 0 || text[begin - 1] == '\n');
    if (indented && HasFramePosition(LineAround(text, at))) {
      return MakeLeak(LeakKind::kStackTrace, LineAround(text, at));
    }
  }
  return std::nullopt;
}

std::optional<Leak> FindFilePath(std::string_view text) {
  static constexpr std::array<std::string_view, 9> kPrefixes = {
      "/home/", "/srv/",   "/usr/src/",     "/usr/lib/python", "/var/www/",
      "/root/", "/Users/", "node_modules/", "site-packages/"};
  // Most error texts have no slash at all; every prefix has one.
  const bool slash = text.find('/') != std::string_view::npos;
  for (std::string_view prefix : slash ? std::span(kPrefixes) : std::span(kPrefixes).first(0)) {
    for (std::size_t at = text.find(prefix); at != std::string_view::npos;
         at = text.find(prefix, at + 1)) {
      // "https://example.com/home/" is a URL path, not a server path.
      const bool starts_path = at == 0 || !(IsHostChar(text[at - 1]) || text[at - 1] == '.');
      if (starts_path || prefix.front() != '/') {
        return MakeLeak(LeakKind::kFilePath, text.substr(at, kEvidenceLimit));
      }
    }
  }
  // A Windows drive path: C:\… The letter sits right before the first ":\\", if any.
  const std::size_t colon = text.find(":\\");
  const std::size_t start =
      colon == std::string_view::npos ? text.size() : (colon == 0 ? 0 : colon - 1);
  for (std::size_t at = start; at + 3 < text.size(); ++at) {
    const bool drive = IsAlpha(text[at]) && text[at + 1] == ':' && text[at + 2] == '\\' &&
                       (at == 0 || !IsHostChar(text[at - 1]));
    if (drive) return MakeLeak(LeakKind::kFilePath, text.substr(at, kEvidenceLimit));
  }
  return std::nullopt;
}

// The dotted quad starting at `at`, if any, with its length.
std::optional<std::array<int, 4>> ReadIpv4(std::string_view text, std::size_t at,
                                           std::size_t& length) {
  std::array<int, 4> octets{};
  std::size_t i = at;
  for (std::size_t part = 0; part < 4; ++part) {
    if (part > 0) {
      if (i >= text.size() || text[i] != '.') return std::nullopt;
      ++i;
    }
    const std::size_t digits_begin = i;
    int value = 0;
    while (i < text.size() && IsDigit(text[i]) && i - digits_begin < 3) {
      value = value * 10 + (text[i] - '0');
      ++i;
    }
    if (i == digits_begin || value > 255) return std::nullopt;
    octets[part] = value;
  }
  if (i < text.size() &&
      (IsDigit(text[i]) || (text[i] == '.' && i + 1 < text.size() && IsDigit(text[i + 1])))) {
    return std::nullopt;
  }
  length = i - at;
  return octets;
}

bool IsPrivateIpv4(const std::array<int, 4>& octets) {
  return octets[0] == 10 || (octets[0] == 192 && octets[1] == 168) ||
         (octets[0] == 172 && octets[1] >= 16 && octets[1] <= 31);
}

std::optional<Leak> FindInternalHost(std::string_view text) {
  // Host names and dotted quads alike need a dot.
  if (text.find('.') == std::string_view::npos) return std::nullopt;
  for (std::string_view suffix :
       {std::string_view(".internal"), std::string_view(".local"), std::string_view(".corp")}) {
    for (std::size_t at = text.find(suffix); at != std::string_view::npos;
         at = text.find(suffix, at + 1)) {
      const std::size_t end = at + suffix.size();
      const bool whole_label = end == text.size() || !IsHostChar(text[end]);
      if (at == 0 || !IsHostChar(text[at - 1]) || !whole_label) continue;
      std::size_t begin = at;
      while (begin > 0 && (IsHostChar(text[begin - 1]) || text[begin - 1] == '.')) --begin;
      return MakeLeak(LeakKind::kInternalHost, text.substr(begin, end - begin));
    }
  }
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (!IsDigit(text[at]) ||
        (at > 0 && (IsDigit(text[at - 1]) || text[at - 1] == '.' || IsAlpha(text[at - 1])))) {
      continue;
    }
    std::size_t length = 0;
    const auto octets = ReadIpv4(text, at, length);
    if (octets && IsPrivateIpv4(*octets)) {
      return MakeLeak(LeakKind::kInternalHost, text.substr(at, length));
    }
  }
  return std::nullopt;
}

// Where the value of the JSON member "key" starts (after the colon and any blanks), searching
// from `from`; npos when there is none.
std::size_t MemberValue(std::string_view text, std::string_view key, std::size_t from = 0) {
  const std::string quoted = "\"" + std::string(key) + "\"";
  for (std::size_t at = text.find(quoted, from); at != std::string_view::npos;
       at = text.find(quoted, at + 1)) {
    std::size_t i = at + quoted.size();
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    if (i >= text.size() || text[i] != ':') continue;
    ++i;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    return i;
  }
  return std::string_view::npos;
}

// A validator's issue list: what zod (and so the TypeScript SDK v1) puts in an error message
// when a request fails its schema. One marker alone is ordinary text ("expected a string"); a
// "path" array beside an issue code, or beside both "expected" and "received", is the dump.
std::optional<Leak> FindValidatorDump(std::string_view text) {
  const std::size_t path = MemberValue(text, "path");
  if (path == std::string_view::npos || path >= text.size() || text[path] != '[') {
    return std::nullopt;
  }
  static constexpr std::array<std::string_view, 12> kIssueCodes = {
      "\"invalid_type\"",      "\"invalid_literal\"",
      "\"invalid_union\"",     "\"invalid_enum_value\"",
      "\"unrecognized_keys\"", "\"invalid_string\"",
      "\"invalid_value\"",     "\"invalid_format\"",
      "\"too_small\"",         "\"too_big\"",
      "\"invalid_arguments\"", "\"invalid_union_discriminator\""};
  for (std::size_t code = MemberValue(text, "code"); code != std::string_view::npos;
       code = MemberValue(text, "code", code)) {
    for (std::string_view issue : kIssueCodes) {
      if (text.substr(code).starts_with(issue)) {
        return MakeLeak(LeakKind::kValidatorDump, LineAround(text, code));
      }
    }
  }
  const std::size_t expected = MemberValue(text, "expected");
  if (expected != std::string_view::npos &&
      MemberValue(text, "received") != std::string_view::npos) {
    return MakeLeak(LeakKind::kValidatorDump, LineAround(text, expected));
  }
  return std::nullopt;
}

// JavaScript engine errors that only a bug in the server produces. The error class must stand
// as a word and be followed by its colon, so a tool named "TypeError" is not one.
std::optional<Leak> FindEngineMessage(std::string_view text) {
  if (const std::size_t at = text.find("Maximum call stack size exceeded");
      at != std::string_view::npos) {
    return MakeLeak(LeakKind::kEngineMessage, LineAround(text, at));
  }
  for (std::string_view marker :
       {std::string_view("RangeError: "), std::string_view("TypeError: Cannot read propert"),
        std::string_view("TypeError: Cannot set propert"),
        std::string_view("TypeError: Cannot destructure"), std::string_view("ReferenceError: ")}) {
    for (std::size_t at = text.find(marker); at != std::string_view::npos;
         at = text.find(marker, at + 1)) {
      if (at > 0 && (IsHostChar(text[at - 1]) || text[at - 1] == '_')) continue;
      return MakeLeak(LeakKind::kEngineMessage, LineAround(text, at));
    }
  }
  return std::nullopt;
}

}  // namespace

std::string_view ToString(LeakKind kind) {
  switch (kind) {
    case LeakKind::kStackTrace:
      return "stack_trace";
    case LeakKind::kFilePath:
      return "file_path";
    case LeakKind::kInternalHost:
      return "internal_host";
    case LeakKind::kValidatorDump:
      return "validator_dump";
    case LeakKind::kEngineMessage:
      return "engine_message";
  }
  return "unknown";
}

std::vector<Leak> FindLeaks(std::string_view text) {
  text = text.substr(0, kScanLimit);
  std::vector<Leak> leaks;
  for (auto* finder : {&FindStackTrace, &FindFilePath, &FindInternalHost, &FindValidatorDump,
                       &FindEngineMessage}) {
    if (std::optional<Leak> leak = finder(text)) leaks.push_back(std::move(*leak));
  }
  return leaks;
}

}  // namespace mcpfuzz::oracles_detail
