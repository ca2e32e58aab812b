// Malformed JSON bytes. Every jsonrpc.parse-error case breaks the JSON grammar of RFC 8259 for
// certain; what a parser MAY accept (a BOM, duplicate keys) or MAY refuse (deep nesting, huge
// numbers, long strings) is never the only thing wrong with a parse-error case.

#include <rapidcheck.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "malformed-json";
constexpr std::string_view kBom = "\xEF\xBB\xBF";

/// Broken bytes and what broke them.
struct Broken {
  std::string bytes;
  std::string label;
};

/// The template's (decorated) wire bytes, twice: as they are, and with a slot in params._meta
/// for a broken value. A break placed there leaves a parser lenient enough to accept it (NaN,
/// trailing commas, invalid UTF-8 replaced by U+FFFD) with an otherwise valid request, so the
/// parse rule is the only one broken.
struct Wire {
  std::string plain;
  std::string slotted;
  /// `slotted` with `raw` in the slot.
  std::string With(std::string_view raw) const {
    std::string bytes = slotted;
    const std::size_t at = bytes.find(kSlot);
    if (at != std::string::npos) bytes.replace(at, kSlot.size(), raw);
    return bytes;
  }
  static constexpr std::string_view kSlot = "\"mcpfuzz-slot-2b7e\"";
};
/// Breaks well-formed (possibly decorated) wire bytes for certain.
using Breaker = std::function<rc::Gen<Broken>(const Wire& wire)>;

// Something a parser may or may not accept, added on top of a definite break.
std::string Decorate(std::string wire, int decoration) {
  if (decoration == 4) return std::string(kBom) + wire;
  if (decoration == 5 && wire.starts_with("{")) return "{\"jsonrpc\":\"2.0\"," + wire.substr(1);
  return wire;
}

std::string DecorationLabel(int decoration) {
  if (decoration == 4) return "BOM, ";
  if (decoration == 5) return "duplicate jsonrpc member, ";
  return "";
}

rc::Gen<GeneratedCase> BreakJson(const GenContext& context, Breaker breaker) {
  return rc::gen::mapcat(
      rc::gen::pair(detail::HarmlessRequest(context), rc::gen::inRange(0, 6)),
      [breaker](const std::pair<Request, int>& drawn) {
        const Request& well_formed = drawn.first;
        const Wire wire{Decorate(well_formed.WireBody(), drawn.second),
                        Decorate(detail::WithMetaValue(well_formed, Wire::kSlot), drawn.second)};
        const std::string decoration = DecorationLabel(drawn.second);
        return rc::gen::map(breaker(wire), [well_formed, decoration](const Broken& broken) {
          Request request = well_formed;
          request.body = RawBody{broken.bytes};
          return MakeCase(kFamily, check::kParseError, std::move(request),
                          decoration + broken.label, well_formed);
        });
      });
}

// Any proper, non-empty prefix of an object's text is unfinished.
rc::Gen<Broken> Truncated(const Wire& decorated) {
  const std::string wire = decorated.plain;
  const int length = static_cast<int>(wire.size());
  return rc::gen::map(rc::gen::inRange(1, std::max(2, length)), [wire, length](int kept) {
    return Broken{
        wire.substr(0, static_cast<std::size_t>(kept)),
        "truncated to " + std::to_string(kept) + " of " + std::to_string(length) + " bytes"};
  });
}

// In the _meta slot the body is JSON once the bad bytes are read as U+FFFD, so the oracles judge
// it by tables F1a: -32700 preferred, serving it tolerated (the UTF-8 MUST binds the sender).
rc::Gen<Broken> InvalidUtf8(const Wire& wire) {
  static const std::vector<std::pair<std::string, std::string>> kSequences = {
      {"\xC3\x28", "a lead byte without continuation"},
      {"\xFF", "byte 0xFF"},
      {"\x80", "a lone continuation byte"},
      {"\xC0\xAF", "an overlong encoding"},
      {"\xED\xA0\x80", "an encoded surrogate"},
      {"\xF4\x90\x80\x80", "a code point past U+10FFFF"},
      {"\xE2\x82", "a truncated sequence"},
      {"\xFE\xFF", "bytes 0xFE 0xFF"},
  };
  return rc::gen::apply(
      [wire](int index, const std::string& before) {
        const auto& [bytes, what] = kSequences[static_cast<std::size_t>(index)];
        return Broken{wire.With("\"" + before + bytes + "\""), "invalid UTF-8: " + what};
      },
      rc::gen::inRange(0, static_cast<int>(kSequences.size())), detail::Token(0, 12));
}

// An unescaped control character inside a string. Over stdio never CR or LF, which would
// split the line.
Breaker RawControlCharacter(bool stdio) {
  return [stdio](const Wire& wire) {
    return rc::gen::map(rc::gen::inRange(0, 32), [wire, stdio](int code) {
      if (stdio && (code == '\n' || code == '\r')) code = 0x1F;
      return Broken{wire.With("\"a" + std::string(1, static_cast<char>(code)) + "b\""),
                    "a raw control character " + std::to_string(code) + " in a string"};
    });
  };
}

rc::Gen<Broken> NulByte(const Wire& decorated) {
  const std::string wire = decorated.plain;
  const int length = static_cast<int>(wire.size());
  return rc::gen::map(rc::gen::inRange(0, length + 1), [wire](int at) {
    std::string bytes = wire;
    bytes.insert(static_cast<std::size_t>(at), 1, '\0');
    return Broken{bytes, "a NUL byte at offset " + std::to_string(at)};
  });
}

// `depth` containers opened and one fewer closed: deep, and unbalanced for certain.
rc::Gen<Broken> UnbalancedNesting(const Wire& wire) {
  return rc::gen::apply(
      [wire](int depth, bool objects) {
        std::string open = objects ? "{\"a\":" : "[";
        std::string close = objects ? "}" : "]";
        std::string nested;
        nested.reserve(static_cast<std::size_t>(depth) * (open.size() + 1) + 1);
        for (int level = 0; level < depth; ++level) nested += open;
        nested += "1";
        for (int level = 1; level < depth; ++level) nested += close;
        return Broken{
            wire.With(nested),
            std::to_string(depth) + (objects ? " objects" : " arrays") + " nested, one left open"};
      },
      rc::gen::inRange(1, 5001), rc::gen::arbitrary<bool>());
}

rc::Gen<Broken> InvalidNumber(const Wire& wire) {
  static const std::vector<std::string> kNumbers = {"0123",        "1.",       ".5",        "1e",
                                                    "1e+",         "+1",       "-",         "0x1F",
                                                    "NaN",         "Infinity", "-Infinity", "1_000",
                                                    "01.5",        "--1",      "1.2.3",     "1e5.5",
                                                    "\xEF\xBC\x91"};  // the last: a full-width 1
  return rc::gen::mapcat(rc::gen::inRange(0, 3), [wire](int kind) -> rc::Gen<Broken> {
    if (kind == 0) {
      return rc::gen::map(rc::gen::inRange(0, static_cast<int>(kNumbers.size())),
                          [wire](int index) {
                            const std::string& number = kNumbers[static_cast<std::size_t>(index)];
                            return Broken{wire.With(number), "the number " + number};
                          });
    }
    // Huge, and invalid: a leading zero, or a trailing dot.
    const bool leading_zero = kind == 1;
    return rc::gen::map(detail::LongText("9", 1, 60000), [wire, leading_zero](std::string digits) {
      const std::size_t count = digits.size();
      std::string number = leading_zero ? "0" + digits : "1" + digits + ".";
      return Broken{wire.With(number), "a " + std::to_string(count + 1) + "-digit number with " +
                                           (leading_zero ? "a leading zero" : "a trailing dot")};
    });
  });
}

// The closing braces end up inside a string that never closes. Huge bodies stay below the
// 100 KB that common HTTP stacks accept (express), so the answer is the parser's, not a 413.
rc::Gen<Broken> UnterminatedString(const Wire& wire) {
  return rc::gen::map(detail::LongText("a", 0, 60000), [wire](const std::string& text) {
    return Broken{wire.With("\"" + text),
                  "a string of " + std::to_string(text.size()) + " bytes never closed"};
  });
}

rc::Gen<Broken> TrailingGarbage(const Wire& decorated) {
  const std::string wire = decorated.plain;
  static const std::vector<std::string> kGarbage = {"x", "}",    "]",  ",",  "\"", "{",
                                                    "0", "null", "[]", "\\", "/",  "#"};
  return rc::gen::mapcat(rc::gen::inRange(0, 2), [wire](int kind) -> rc::Gen<Broken> {
    if (kind == 0) {
      return rc::gen::map(rc::gen::inRange(0, static_cast<int>(kGarbage.size())),
                          [wire](int index) {
                            const std::string& garbage = kGarbage[static_cast<std::size_t>(index)];
                            return Broken{wire + garbage, "trailing " + detail::Quote(garbage)};
                          });
    }
    // Any run of visible characters: never JSON whitespace, so never valid after the object.
    return rc::gen::map(detail::VisibleAscii(1, 40), [wire](const std::string& garbage) {
      return Broken{wire + garbage, "trailing " + detail::Quote(garbage)};
    });
  });
}

// What JSON5 and lenient parsers accept. The slot is the last member of _meta, so "1," leaves
// a trailing comma before its closing brace.
rc::Gen<Broken> Json5isms(const Wire& wire) {
  return rc::gen::map(rc::gen::inRange(0, 5), [wire](int kind) {
    switch (kind) {
      case 0:
        return Broken{wire.With("1,"), "a trailing comma"};
      case 1: {
        std::string bytes = wire.plain;
        for (char& c : bytes) {
          if (c == '"') c = '\'';
        }
        return Broken{bytes, "single quotes"};
      }
      case 2:
        return Broken{wire.With("/* mcpfuzz */1"), "a block comment"};
      case 3:
        return Broken{wire.With("1,mcpfuzz:1"), "an unquoted key"};
      default:
        return Broken{wire.plain + "//", "a line comment"};
    }
  });
}

rc::Gen<GeneratedCase> TwoMessagesOnOneLine(const GenContext& context) {
  return rc::gen::apply(
      [](const Request& first, const Request& second, int separator) {
        static const std::vector<std::string> kSeparators = {"", " ", ",", "\t"};
        const std::string& between = kSeparators[static_cast<std::size_t>(separator)];
        Request request = first;
        request.body = RawBody{first.WireBody() + between + second.WireBody()};
        return MakeCase(kFamily, check::kParseError, std::move(request),
                        "two messages on one line, separated by " + detail::Quote(between), first);
      },
      detail::HarmlessRequest(context), detail::HarmlessRequest(context), rc::gen::inRange(0, 4));
}

// HTTP only: a blank stdio line is no message at all (servers skip it).
rc::Gen<GeneratedCase> EmptyBody(const GenContext& context) {
  return rc::gen::apply(
      [](const Request& well_formed, int kind) {
        static const std::vector<std::string> kBodies = {"", " ", "\t", "\r\n", "\n\n"};
        Request request = well_formed;
        const std::string& bytes = kBodies[static_cast<std::size_t>(kind)];
        request.body = RawBody{bytes};
        return MakeCase(kFamily, check::kParseError, std::move(request),
                        bytes.empty() ? "an empty body" : "a body of whitespace only", well_formed);
      },
      detail::HarmlessRequest(context), rc::gen::inRange(0, 5));
}

// An unknown method (so the answer is pinned: -32601) in valid but unusual JSON.
rc::Gen<GeneratedCase> UnusualButValid(const GenContext& context) {
  const bool stdio = context.stdio();
  auto unknown_method = rc::gen::apply(
      [context](const std::string& suffix, const boost::json::value& id) {
        return context.Make("mcpfuzz/" + suffix, {}, id);
      },
      detail::Token(1, 20), detail::RequestIdValue());
  auto whitespace =
      rc::gen::map(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, stdio ? 2 : 4)),
                   [](const std::vector<int>& picks) {
                     static const std::vector<std::string> kBlanks = {" ", "\t", "\n", "\r\n"};
                     std::string text;
                     for (int pick : picks) text += kBlanks[static_cast<std::size_t>(pick)];
                     return text;
                   });
  static const std::vector<std::string> kEscapes = {
      "a",   "\\u0000", "\\u001f", "\\ud83d\\ude00", "\\\"",    "\\\\",   "\\/", "\\b", "\\f",
      "\\n", "\\r",     "\\t",     "\\u00e9",        "\\uFFFF", "\\u2028"};
  auto escapes = rc::gen::map(
      rc::gen::container<std::vector<int>>(rc::gen::inRange(0, static_cast<int>(kEscapes.size()))),
      [](const std::vector<int>& picks) {
        std::string text = "\"";
        for (int pick : picks) text += kEscapes[static_cast<std::size_t>(pick)];
        return text + "\"";
      });
  return rc::gen::apply(
      [](const Request& well_formed, int kind, const std::string& before, const std::string& after,
         const std::string& escaped) {
        Request request = well_formed;
        std::string label;
        if (kind == 0) {
          // At least one blank, so the case is not the template itself.
          const std::string trailing = before.empty() && after.empty() ? " " : after;
          request.body = RawBody{before + well_formed.WireBody() + trailing};
          label = "whitespace around the message";
        } else {
          request.body = RawBody{detail::WithMetaValue(well_formed, escaped)};
          label = "escapes in a _meta string: " + escaped.substr(0, 60);
        }
        return MakeCase(kFamily, check::kUnknownMethod, std::move(request), std::move(label),
                        well_formed);
      },
      unknown_method, rc::gen::inRange(0, 2), whitespace, whitespace, escapes);
}

// Valid JSON a parser MAY refuse (RFC 8259 §9 lets it limit depth, number range and string
// length; §8.1 lets it ignore a BOM; §4 leaves duplicate names unpredictable). Only the
// process's survival is certain to be owed: stdio.no-early-exit.
struct Rider {
  enum class Kind { kMetaValue, kByteOrderMark, kDuplicateKeys };
  Kind kind = Kind::kMetaValue;
  std::string raw;  ///< kMetaValue: the JSON text of a _meta value.
  std::string label;
};

rc::Gen<Rider> LimitRider() {
  using Kind = Rider::Kind;
  return rc::gen::mapcat(rc::gen::inRange(0, 6), [](int kind) -> rc::Gen<Rider> {
    switch (kind) {
      case 0:
        return rc::gen::map(rc::gen::inRange(1, 5001), [](int depth) {
          std::string nested(static_cast<std::size_t>(depth), '[');
          nested += std::string(static_cast<std::size_t>(depth), ']');
          return Rider{Kind::kMetaValue, nested, std::to_string(depth) + " arrays nested in _meta"};
        });
      case 1:
        return rc::gen::map(detail::LongText("0", 20, 100000), [](const std::string& zeros) {
          return Rider{Kind::kMetaValue, "1" + zeros,
                       "a " + std::to_string(zeros.size() + 1) + "-digit integer"};
        });
      case 2:
        return rc::gen::map(rc::gen::inRange(309, 1000000), [](int exponent) {
          const std::string number = "1e" + std::to_string(exponent);
          return Rider{Kind::kMetaValue, number, "the number " + number};
        });
      case 3:
        return rc::gen::map(detail::LongText("\xC3\xA9", 1000, 262144),
                            [](const std::string& text) {
                              return Rider{Kind::kMetaValue, "\"" + text + "\"",
                                           "a " + std::to_string(text.size()) + "-byte string"};
                            });
      case 4:
        return rc::gen::just(Rider{Kind::kByteOrderMark, "", "a BOM before the message"});
      default:
        return rc::gen::just(Rider{Kind::kDuplicateKeys, "", "a _meta key given twice"});
    }
  });
}

rc::Gen<GeneratedCase> AtTheLimits(const GenContext& context) {
  return rc::gen::apply(
      [](const Request& well_formed, const Rider& rider) {
        Request request = well_formed;
        switch (rider.kind) {
          case Rider::Kind::kByteOrderMark:
            request.body = RawBody{std::string(kBom) + well_formed.WireBody()};
            break;
          case Rider::Kind::kDuplicateKeys:
            request.body = RawBody{
                detail::WithMetaMembers(well_formed, "\"mcpfuzz/dup\":1,\"mcpfuzz/dup\":2")};
            break;
          case Rider::Kind::kMetaValue:
            request.body = RawBody{detail::WithMetaValue(well_formed, rider.raw)};
            break;
        }
        return MakeCase(kFamily, check::kNoEarlyExit, std::move(request), rider.label, well_formed);
      },
      detail::HarmlessRequest(context), LimitRider());
}

}  // namespace

rc::Gen<GeneratedCase> MalformedJson(const GenContext& context) {
  const bool http = context.http();
  const bool stdio = context.stdio();
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> variants = {
      {4, BreakJson(context, Truncated)},
      {2, BreakJson(context, InvalidUtf8)},
      {1, BreakJson(context, RawControlCharacter(stdio))},
      {1, BreakJson(context, NulByte)},
      {2, BreakJson(context, UnbalancedNesting)},
      {2, BreakJson(context, InvalidNumber)},
      {1, BreakJson(context, UnterminatedString)},
      {2, BreakJson(context, TrailingGarbage)},
      {1, BreakJson(context, Json5isms)},
      {1, TwoMessagesOnOneLine(context)},
      {http ? 1 : 0, EmptyBody(context)},
      {2, UnusualButValid(context)},
      {stdio ? 3 : 0, AtTheLimits(context)},
  };
  return detail::Pick(std::move(variants));
}

}  // namespace mcpfuzz::gen
