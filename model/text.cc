#include "model/text.h"

#include <cstdint>
#include <cstring>

namespace mcpfuzz {
namespace {

constexpr std::string_view kBase64Alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

std::string AsciiLowercase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

std::string_view TrimWhitespace(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    unsigned n = (unsigned{static_cast<unsigned char>(bytes[i])} << 16U) |
                 (unsigned{static_cast<unsigned char>(bytes[i + 1])} << 8U) |
                 unsigned{static_cast<unsigned char>(bytes[i + 2])};
    for (int shift = 18; shift >= 0; shift -= 6) out += kBase64Alphabet[(n >> shift) & 63U];
  }
  if (std::size_t rest = bytes.size() - i; rest > 0) {
    unsigned n = static_cast<unsigned>(static_cast<unsigned char>(bytes[i]) << 16U);
    if (rest == 2) n |= static_cast<unsigned>(static_cast<unsigned char>(bytes[i + 1]) << 8U);
    out += kBase64Alphabet[(n >> 18U) & 63U];
    out += kBase64Alphabet[(n >> 12U) & 63U];
    out += rest == 2 ? kBase64Alphabet[(n >> 6U) & 63U] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  std::size_t padding = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '=') {
      // Padding may only close the last quantum.
      if (i + 2 < text.size()) return std::nullopt;
      ++padding;
      continue;
    }
    if (padding > 0) return std::nullopt;
    auto index = kBase64Alphabet.find(c);
    if (index == std::string_view::npos) return std::nullopt;
    buffer = (buffer << 6U) | static_cast<unsigned>(index);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> static_cast<unsigned>(bits)) & 0xFFU);
    }
  }
  return out;
}

namespace {

// The length of the well-formed UTF-8 sequence at bytes[i], or 0 when there is none.
std::size_t SequenceLength(std::string_view bytes, std::size_t i) {
  auto lead = static_cast<unsigned char>(bytes[i]);
  std::size_t length = 0;
  unsigned code_point = 0;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0U) == 0xC0) {
    length = 2;
    code_point = lead & 0x1FU;
  } else if ((lead & 0xF0U) == 0xE0) {
    length = 3;
    code_point = lead & 0x0FU;
  } else if ((lead & 0xF8U) == 0xF0) {
    length = 4;
    code_point = lead & 0x07U;
  } else {
    return 0;
  }
  if (i + length > bytes.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    auto continuation = static_cast<unsigned char>(bytes[i + k]);
    if ((continuation & 0xC0U) != 0x80) return 0;
    code_point = (code_point << 6U) | (continuation & 0x3FU);
  }
  constexpr unsigned kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code_point < kSmallest[length] || code_point > 0x10FFFF ||
      (code_point >= 0xD800 && code_point <= 0xDFFF)) {
    return 0;
  }
  return length;
}

}  // namespace

bool IsValidUtf8(std::string_view bytes) {
  constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
  for (std::size_t i = 0; i < bytes.size();) {
    // ASCII eight bytes at a time: a megabyte body's padding is read for every judgement.
    while (i + sizeof(std::uint64_t) <= bytes.size()) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes.data() + i, sizeof word);
      if ((word & kHighBits) != 0) break;
      i += sizeof word;
    }
    if (i == bytes.size()) break;
    std::size_t length = SequenceLength(bytes, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string ToValidUtf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    std::size_t length = SequenceLength(bytes, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(bytes.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::string_view Utf8Prefix(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;
  return text.substr(0, cut);
}

}  // namespace mcpfuzz
