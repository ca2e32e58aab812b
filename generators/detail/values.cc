#include "generators/detail/values.h"

#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <boost/json/serialize.hpp>
#include <cctype>
#include <cstdint>
#include <functional>

#include "model/request_builder.h"
#include "oracles/verdict.h"

namespace mcpfuzz::gen::detail {
namespace {

// Ranges of code points, simplest first: shrinking moves toward lowercase ASCII.
struct CodePointRange {
  char32_t first;
  char32_t last;
};
constexpr std::array<CodePointRange, 11> kRanges = {{
    {U'a', U'z'},
    {0x20, 0x7E},        // printable ASCII
    {0xA0, 0xFF},        // Latin-1
    {0x370, 0x4FF},      // Greek, Cyrillic
    {0x590, 0x6FF},      // Hebrew, Arabic: right to left
    {0x300, 0x36F},      // combining marks
    {0x4E00, 0x9FFF},    // CJK
    {0x1F300, 0x1FAFF},  // emoji, outside the BMP
    {0x2000, 0x2BFF},    // punctuation incl. zero-width and bidi controls
    {0xFFF0, 0xFFFF},    // specials and noncharacters
    {0x00, 0x1F},        // C0 controls: last, and only when asked for
}};

rc::Gen<char32_t> CodePoint(bool controls) {
  const int kinds = static_cast<int>(kRanges.size()) - (controls ? 0 : 1);
  // ASCII three times as often as anything else.
  return rc::gen::mapcat(rc::gen::inRange(0, kinds + 2), [](int kind) {
    const CodePointRange range = kRanges[static_cast<std::size_t>(std::max(0, kind - 2))];
    return rc::gen::map(rc::gen::inRange<std::uint32_t>(range.first, range.last + 1),
                        [](std::uint32_t value) { return static_cast<char32_t>(value); });
  });
}

rc::Gen<int> Length(int min, int max) {
  return rc::gen::withSize([min, max](int size) {
    const int high = min + (max - min) * std::clamp(size, 0, 100) / 100;
    return rc::gen::inRange(min, high + 1);
  });
}

rc::Gen<std::string> FromAlphabet(std::string alphabet, int min, int max) {
  const int letters = static_cast<int>(alphabet.size());
  auto character = rc::gen::map(rc::gen::inRange(0, letters), [alphabet](int index) {
    return alphabet[static_cast<std::size_t>(index)];
  });
  return rc::gen::mapcat(Length(min, max), [character](int length) {
    return rc::gen::container<std::string>(static_cast<std::size_t>(length), character);
  });
}

}  // namespace

std::string EncodeUtf8(char32_t code_point) {
  std::string out;
  const auto value = static_cast<std::uint32_t>(code_point);
  auto byte = [](std::uint32_t bits) {
    return static_cast<char>(static_cast<unsigned char>(bits));
  };
  if (value < 0x80) {
    out += byte(value);
  } else if (value < 0x800) {
    out += byte(0xC0U | (value >> 6U));
    out += byte(0x80U | (value & 0x3FU));
  } else if (value < 0x10000) {
    out += byte(0xE0U | (value >> 12U));
    out += byte(0x80U | ((value >> 6U) & 0x3FU));
    out += byte(0x80U | (value & 0x3FU));
  } else {
    out += byte(0xF0U | (value >> 18U));
    out += byte(0x80U | ((value >> 12U) & 0x3FU));
    out += byte(0x80U | ((value >> 6U) & 0x3FU));
    out += byte(0x80U | (value & 0x3FU));
  }
  return out;
}

rc::Gen<std::string> Token(int min, int max) {
  return FromAlphabet("abcdefghijklmnopqrstuvwxyz0123456789_", min, max);
}

rc::Gen<std::string> VisibleAscii(int min, int max) {
  std::string alphabet;
  // Letters first, so shrinking ends on plain letters.
  for (char c = 'a'; c <= 'z'; ++c) alphabet += c;
  for (char c = '!'; c <= '~'; ++c) {
    if (c < 'a' || c > 'z') alphabet += c;
  }
  return FromAlphabet(alphabet, min, max);
}

rc::Gen<std::string> Utf8Text(int min, int max, bool controls) {
  return rc::gen::mapcat(Length(min, max), [controls](int length) {
    return rc::gen::map(rc::gen::container<std::vector<char32_t>>(static_cast<std::size_t>(length),
                                                                  CodePoint(controls)),
                        [](const std::vector<char32_t>& code_points) {
                          std::string text;
                          for (char32_t code_point : code_points) text += EncodeUtf8(code_point);
                          return text;
                        });
  });
}

rc::Gen<std::string> CaseVariantOf(std::string text) {
  std::vector<std::size_t> letters;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (std::isalpha(static_cast<unsigned char>(text[i]))) letters.push_back(i);
  }
  return rc::gen::map(
      rc::gen::container<std::vector<bool>>(letters.size(), rc::gen::arbitrary<bool>()),
      [text, letters](const std::vector<bool>& flips) {
        std::string out = text;
        bool flipped = false;
        for (std::size_t i = 0; i < letters.size(); ++i) {
          if (!flips[i]) continue;
          char& c = out[letters[i]];
          c = std::isupper(static_cast<unsigned char>(c))
                  ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                  : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
          flipped = true;
        }
        if (!flipped && !letters.empty()) {
          char& c = out[letters.front()];
          c = std::isupper(static_cast<unsigned char>(c))
                  ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                  : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        return out;
      });
}

rc::Gen<std::string> LongText(std::string unit, int min, int max) {
  return rc::gen::map(rc::gen::inRange(min, max + 1), [unit](int length) {
    std::string text;
    text.reserve(static_cast<std::size_t>(length) + unit.size());
    while (text.size() < static_cast<std::size_t>(length)) text += unit;
    return text;
  });
}

rc::Gen<boost::json::value> RequestIdValue() {
  // Simplest first. Integers stay below 2^53, which every JSON implementation (JavaScript
  // included) echoes exactly; larger ones are valid but would turn precision loss into
  // findings under every check.
  constexpr std::int64_t kSafeInteger = (std::int64_t{1} << 53) - 1;
  return rc::gen::mapcat(rc::gen::inRange(0, 8), [](int kind) -> rc::Gen<boost::json::value> {
    switch (kind) {
      case 0:
      case 1:
      case 2:
        return rc::gen::map(rc::gen::inRange<std::int64_t>(1, 1000),
                            [](std::int64_t id) { return boost::json::value(id); });
      case 3:
        return rc::gen::map(rc::gen::inRange<std::int64_t>(0, kSafeInteger),
                            [](std::int64_t id) { return boost::json::value(id); });
      case 4:
        return rc::gen::map(rc::gen::inRange<std::int64_t>(-kSafeInteger, 0),
                            [](std::int64_t id) { return boost::json::value(id); });
      case 5:
        return rc::gen::map(Token(1, 40),
                            [](const std::string& id) { return boost::json::value(id); });
      default:
        return rc::gen::map(Utf8Text(0, 20, true),
                            [](const std::string& id) { return boost::json::value(id); });
    }
  });
}

rc::Gen<boost::json::value> ScalarJson() {
  return rc::gen::mapcat(rc::gen::inRange(0, 4), [](int kind) -> rc::Gen<boost::json::value> {
    switch (kind) {
      case 0:
        return rc::gen::just(boost::json::value(nullptr));
      case 1:
        return rc::gen::map(rc::gen::arbitrary<bool>(),
                            [](bool flag) { return boost::json::value(flag); });
      case 2:
        return rc::gen::map(rc::gen::inRange<std::int64_t>(-1000, 1000),
                            [](std::int64_t number) { return boost::json::value(number); });
      default:
        return rc::gen::map(Utf8Text(0, 12, false),
                            [](const std::string& text) { return boost::json::value(text); });
    }
  });
}

rc::Gen<boost::json::object> SmallObject() {
  return rc::gen::mapcat(rc::gen::inRange(0, 4), [](int members) {
    return rc::gen::map(
        rc::gen::container<std::vector<std::pair<std::string, boost::json::value>>>(
            static_cast<std::size_t>(members), rc::gen::pair(Token(1, 8), ScalarJson())),
        [](const std::vector<std::pair<std::string, boost::json::value>>& pairs) {
          boost::json::object object;
          for (const auto& [key, value] : pairs) object[key] = value;
          return object;
        });
  });
}

std::vector<std::string> HarmlessMethods(const GenContext& context) {
  std::vector<std::string> methods = {std::string(HarmlessMethod(context.revision))};
  if (context.Declares("tools")) methods.emplace_back("tools/list");
  if (context.Declares("prompts")) methods.emplace_back("prompts/list");
  if (context.Declares("resources")) {
    methods.emplace_back("resources/list");
    methods.emplace_back("resources/templates/list");
  }
  return methods;
}

rc::Gen<Request> HarmlessRequest(const GenContext& context) {
  const std::vector<std::string> methods = HarmlessMethods(context);
  const int count = static_cast<int>(methods.size());
  return rc::gen::apply(
      [context, methods](int index, const boost::json::value& id) {
        return context.Make(methods[static_cast<std::size_t>(index)], {}, id);
      },
      rc::gen::inRange(0, count), RequestIdValue());
}

void DropEmptyParams(Request& request) {
  boost::json::object& body = BodyObject(request);
  const auto* params = body.if_contains("params");
  if (params != nullptr && params->is_object() && params->as_object().empty()) {
    body.erase("params");
  }
}

namespace {

constexpr std::string_view kRiderKey = "\"mcpfuzz/rider\":";

// `request`'s wire body with a placeholder member in params._meta, and where that member is:
// what goes there is written in place of it. Without a place (npos) the body stays as it is.
struct MetaSlot {
  std::string wire;
  std::size_t at = std::string::npos;
  std::size_t length = 0;
};

MetaSlot FindMetaSlot(const Request& request) {
  constexpr std::string_view kPlaceholderKey = "mcpfuzz/rider";
  constexpr std::string_view kPlaceholderValue = "mcpfuzz-rider-placeholder-5d1e";
  Request copy = request;
  Meta(copy)[kPlaceholderKey] = kPlaceholderValue;
  MetaSlot slot{copy.WireBody()};
  const std::string member =
      "\"" + std::string(kPlaceholderKey) + "\":\"" + std::string(kPlaceholderValue) + "\"";
  slot.at = slot.wire.find(member);
  slot.length = member.size();
  return slot;
}

// `request`'s wire body with the members `write` appends (`size` bytes) in params._meta. The
// body is made in one buffer of its final size: a megabyte member is written once, where it
// stays, not copied from one temporary to the next.
std::string WithMetaWritten(const Request& request, std::size_t size,
                            const std::function<void(std::string&)>& write) {
  const MetaSlot slot = FindMetaSlot(request);
  if (slot.at == std::string::npos) return slot.wire;
  std::string body;
  body.reserve(slot.wire.size() - slot.length + size);
  body.append(slot.wire, 0, slot.at);
  write(body);
  body.append(slot.wire, slot.at + slot.length);
  return body;
}

std::size_t PaddingMemberBytes(std::size_t length) { return kRiderKey.size() + length + 2; }

}  // namespace

std::string WithMetaMembers(const Request& request, std::string_view raw_members) {
  return WithMetaWritten(request, raw_members.size(),
                         [raw_members](std::string& body) { body += raw_members; });
}

std::string WithMetaValue(const Request& request, std::string_view raw_value) {
  return WithMetaWritten(
      request, kRiderKey.size() + raw_value.size(),
      [raw_value](std::string& body) { body.append(kRiderKey).append(raw_value); });
}

std::string WithMetaPadding(const Request& request, std::size_t length) {
  return WithMetaWritten(request, PaddingMemberBytes(length), [length](std::string& body) {
    body.append(kRiderKey).append(1, '"').append(length, 'a').append(1, '"');
  });
}

std::size_t WithMetaPaddingSize(const Request& request, std::size_t length) {
  const MetaSlot slot = FindMetaSlot(request);
  if (slot.at == std::string::npos) return slot.wire.size();
  return slot.wire.size() - slot.length + PaddingMemberBytes(length);
}

GeneratedCase MakeCase(std::string_view family, std::string_view check_id, Request request,
                       std::string variant, const Request& well_formed, JudgeContext context) {
  GeneratedCase generated;
  generated.request = std::move(request);
  generated.family = std::string(family);
  generated.check_id = std::string(check_id);
  generated.context = std::move(context);
  generated.variant = std::move(variant);
  generated.well_formed = well_formed;
  return generated;
}

std::string Quote(std::string_view text) {
  return boost::json::serialize(boost::json::string(Excerpt(text, 40)));
}

}  // namespace mcpfuzz::gen::detail
