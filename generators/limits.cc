// Requests at the limits parsers set: valid JSON nested 10,000 to 100,000 levels deep inside
// `arguments` or `_meta`, bodies at and just above the common size limits (1, 4, 10 and
// 16 MiB), and ids, method names, tool names, _meta keys (long ones and many) and header values
// of up to 1 MiB. Any JSON-RPC answer or refusal is fine; a 5xx, a reply that is not JSON-RPC,
// a crash or a server that stops answering afterwards is not.
//
// All are raw bodies built as text: mcpfuzz's own JSON library would recurse once per level
// (and refuses past 32 levels by default), so the nesting never becomes a JSON value here, and
// a megabyte value is measured and sent without being serialised again.

#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <cstdint>
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

constexpr std::string_view kFamily = "limits";
constexpr std::string_view kPlaceholder = "\"mcpfuzz-nesting-placeholder\"";
constexpr std::size_t kMiB = std::size_t{1} << 20;

std::string Nested(int depth, bool objects) {
  const auto levels = static_cast<std::size_t>(depth);
  std::string text;
  text.reserve(levels * (objects ? 6 : 2) + 1);
  for (std::size_t level = 0; level < levels; ++level) text += objects ? "{\"a\":" : "[";
  text += "1";
  text.append(levels, objects ? '}' : ']');
  return text;
}

rc::Gen<std::pair<int, bool>> Nesting() {
  return rc::gen::pair(rc::gen::inRange(10000, 100001), rc::gen::arbitrary<bool>());
}

std::string Describe(const std::pair<int, bool>& nesting, std::string_view where) {
  return std::to_string(nesting.first) + (nesting.second ? " objects" : " arrays") + " nested in " +
         std::string(where);
}

// tools/call of a tool that cannot exist, its arguments nested: no tool runs whatever the
// server makes of them.
rc::Gen<GeneratedCase> DeepArguments(const GenContext& context) {
  return rc::gen::apply(
      [context](const std::pair<int, bool>& nesting, const boost::json::value& id) {
        const Request well_formed =
            context.Make("tools/call",
                         {{"name", "mcpfuzz_no_such_tool_4f1c9a"},
                          {"arguments", boost::json::object{{"mcpfuzz_nested", 1}}}},
                         id);
        Request request = context.Make(
            "tools/call",
            {{"name", "mcpfuzz_no_such_tool_4f1c9a"},
             {"arguments", boost::json::object{{"mcpfuzz_nested", "mcpfuzz-nesting-placeholder"}}}},
            id);
        std::string body = request.WireBody();
        body.replace(body.find(kPlaceholder), kPlaceholder.size(),
                     Nested(nesting.first, nesting.second));
        request.body = RawBody{std::move(body)};
        return MakeCase(kFamily, check::kDeepNesting, std::move(request),
                        Describe(nesting, "arguments"), well_formed);
      },
      Nesting(), detail::RequestIdValue());
}

rc::Gen<GeneratedCase> DeepMeta(const GenContext& context) {
  return rc::gen::apply(
      [](const Request& well_formed, const std::pair<int, bool>& nesting) {
        Request request = well_formed;
        request.body =
            RawBody{detail::WithMetaValue(well_formed, Nested(nesting.first, nesting.second))};
        return MakeCase(kFamily, check::kDeepNesting, std::move(request),
                        Describe(nesting, "_meta"), well_formed);
      },
      detail::HarmlessRequest(context), Nesting());
}

// At each common limit and one byte past it, up to max_request_bytes.
std::vector<std::size_t> Sizes(std::size_t max_request_bytes) {
  std::vector<std::size_t> sizes;
  for (std::size_t limit : {1 * kMiB, 4 * kMiB, 10 * kMiB, 16 * kMiB}) {
    for (std::size_t size : {limit, limit + 1}) {
      if (size <= max_request_bytes) sizes.push_back(size);
    }
  }
  return sizes;
}

rc::Gen<GeneratedCase> Oversized(const GenContext& context) {
  return rc::gen::apply(
      [unwritten = context.big_bodies_unwritten](const Request& well_formed, std::size_t size) {
        const std::size_t base = detail::WithMetaValue(well_formed, "\"\"").size();
        const std::size_t padding = size > base ? size - base : 0;
        const std::size_t bytes = detail::WithMetaPaddingSize(well_formed, padding);
        Request request = well_formed;
        request.body =
            RawBody{unwritten ? std::string() : detail::WithMetaPadding(well_formed, padding)};
        const std::string label = "a " + std::to_string(bytes) + "-byte body (_meta padding)";
        GeneratedCase generated =
            MakeCase(kFamily, check::kOversizedRequest, std::move(request), label, well_formed);
        if (unwritten) generated.unwritten_bytes = bytes;
        return generated;
      },
      detail::HarmlessRequest(context), rc::gen::elementOf(Sizes(context.max_request_bytes)));
}

// --- sizes along an axis --------------------------------------------------------------------

// A length is drawn on a scale of sizes: a ceiling, then a length between the ceiling below it
// and this one, so a kilobyte is drawn as often as a megabyte. A value sent in an HTTP header
// stops at 512 KiB: libcurl (7.88) refuses a request whose header section passes 1 MiB before
// sending anything, and servers refuse far less (8 or 16 KiB, answering 431 or 400).
constexpr std::size_t kKiB = std::size_t{1} << 10;
constexpr std::array<std::size_t, 4> kCeilings = {kKiB, 10 * kKiB, 100 * kKiB, kMiB};
constexpr std::array<std::size_t, 4> kHeaderCeilings = {kKiB, 10 * kKiB, 100 * kKiB, 512 * kKiB};

// The ceilings up to max_request_bytes: none below 1 KiB.
std::vector<std::size_t> Ceilings(std::size_t max_request_bytes, bool in_header) {
  std::vector<std::size_t> ceilings;
  for (std::size_t ceiling : in_header ? kHeaderCeilings : kCeilings) {
    if (ceiling <= max_request_bytes) ceilings.push_back(ceiling);
  }
  return ceilings;
}

// Only the length shrinks, toward `shortest` whatever the ceiling was, so a finding ends at the
// shortest value that still fails; the ceiling only spreads the drawn lengths.
rc::Gen<std::size_t> Length(std::vector<std::size_t> ceilings, std::size_t shortest) {
  return rc::Gen<std::size_t>([ceilings, shortest](const rc::Random& random, int /*size*/) {
    rc::Random rest(random);
    const std::size_t step = rest.split().next() % ceilings.size();
    const std::size_t floor = step == 0 ? shortest : ceilings[step - 1] + 1;
    const std::size_t length = floor + rest.next() % (ceilings[step] - floor + 1);
    return rc::shrinkable::shrinkRecur(
        length, [shortest](std::size_t from) { return rc::shrink::towards(from, shortest); });
  });
}

// One axis a harmless request grows along: a value of `length` units put in `well_formed`.
struct Axis {
  std::function<Request(const Request& well_formed, std::size_t length)> grow;
  std::string_view check_id = check::kOversizedRequest;
  // Shrinking stops here at the latest.
  std::size_t shortest = 1;
  // The body bytes one unit adds, by which max_request_bytes bounds the length; 0 for a value
  // only a header carries.
  std::size_t unit_bytes = 1;
  // A value sent in an HTTP header (kHeaderCeilings).
  bool in_header = false;
  // The variant: `before` the length `after`.
  std::string before;
  std::string after;
};

// Cases of `well_formed` grown along `axis`, none past max_request_bytes.
rc::Gen<GeneratedCase> Grown(const GenContext& context, rc::Gen<Request> well_formed, Axis axis) {
  const std::size_t max_request_bytes = context.max_request_bytes;
  // Without a ceiling the axis is weighed 0 and never drawn. A length of members of several
  // bytes each is a count: its ceilings are the counts that fill as many bytes.
  std::vector<std::size_t> ceilings = Ceilings(max_request_bytes, axis.in_header);
  if (axis.unit_bytes > 1) {
    for (std::size_t& ceiling : ceilings) ceiling /= axis.unit_bytes;
  }
  const std::size_t shortest = axis.shortest;
  return rc::gen::apply(
      [max_request_bytes, axis](const Request& base, std::size_t drawn) {
        std::size_t length = drawn;
        if (axis.unit_bytes > 0) {
          const std::size_t fixed =
              axis.grow(base, axis.shortest).WireBody().size() - axis.shortest * axis.unit_bytes;
          const std::size_t room =
              max_request_bytes > fixed ? (max_request_bytes - fixed) / axis.unit_bytes : 0;
          length = std::max(axis.shortest, std::min(drawn, room));
        }
        return MakeCase(kFamily, axis.check_id, axis.grow(base, length),
                        axis.before + std::to_string(length) + axis.after, base);
      },
      std::move(well_formed), Length(ceilings, shortest));
}

// `request` with its body as the bytes it serialises to: a megabyte is then measured and sent
// without being serialised again.
Request Raw(Request request) {
  request.body = RawBody{request.WireBody()};
  return request;
}

constexpr std::string_view kIdPlaceholder = "mcpfuzz-id-placeholder";

// `well_formed` with `raw_id` (JSON text) as its id.
Request WithRawId(const Request& well_formed, std::string_view raw_id) {
  Request request = well_formed;
  BodyObject(request)["id"] = kIdPlaceholder;
  std::string body = request.WireBody();
  const std::string quoted = "\"" + std::string(kIdPlaceholder) + "\"";
  body.replace(body.find(quoted), quoted.size(), raw_id);
  request.body = RawBody{std::move(body)};
  return request;
}

// A string id is a valid RequestId of any length: the reply must carry it back unchanged (the
// envelope rule every check applies), and a refusal is as fine as for any large request
// (tables §15 Z2), so limits.oversized-request judges it.
rc::Gen<GeneratedCase> LongStringId(const GenContext& context) {
  return Grown(context, detail::HarmlessRequest(context),
               {.grow =
                    [](const Request& well_formed, std::size_t length) {
                      return WithRawId(well_formed, "\"" + std::string(length, 'a') + "\"");
                    },
                .before = "a string id of ",
                .after = " characters"});
}

// An integer past 2^64-1 is no id any implementation must hold (RFC 8259 §9 lets a parser
// limit the range of numbers), so what it owes back is unknown: only the process's survival
// is certain, which stdio.no-early-exit judges, over stdio only (as the malformed-json
// family's huge numbers in _meta). Its shortest is 10^20, the shortest integer past uint64's
// 20 digits.
rc::Gen<GeneratedCase> LongNumberId(const GenContext& context) {
  return Grown(context, detail::HarmlessRequest(context),
               {.grow =
                    [](const Request& well_formed, std::size_t digits) {
                      return WithRawId(well_formed, "1" + std::string(digits - 1, '0'));
                    },
                .check_id = check::kNoEarlyExit,
                .shortest = 21,
                .before = "an integer id of ",
                .after = " digits"});
}

// Names, keys and header values that grow, in requests that are otherwise harmless: a method
// no revision defines, a tool that cannot exist, _meta (open to extra keys in every revision),
// a header no server reads. A server may refuse any of them as it may refuse any long string
// (RFC 8259 §9; an HTTP 4xx, 431 for a header), answer it as it answers a short one, or fail:
// only failing breaks a rule for certain, so limits.oversized-request judges them all (tables
// §15 Z2), as it judges a long id. Over 2026-07-28 HTTP the method and the tool's name are
// mirrored in Mcp-Method and Mcp-Name, so they grow in a header too. Each is one name plus 'a's,
// never a real method or tool.
constexpr std::string_view kMethodPrefix = "mcpfuzz/";
constexpr std::string_view kToolPrefix = "mcpfuzz_no_such_tool_";
constexpr std::string_view kMetaKeyPrefix = "mcpfuzz/";
constexpr std::string_view kPaddingHeader = "X-Mcpfuzz-Padding";
// The most a member "mcpfuzz/<n>":0, adds with its comma while n has at most 7 digits: the
// length of the many-keys axis is a count of them.
constexpr std::size_t kKeyMemberBytes = 20;

std::string Named(std::string_view prefix, std::size_t length) {
  std::string name(prefix);
  name.append(length > prefix.size() ? length - prefix.size() : 1, 'a');
  return name;
}

bool HeaderBound(const GenContext& context) { return context.stateless() && context.http(); }

rc::Gen<GeneratedCase> LongMethod(const GenContext& context) {
  return Grown(
      context, detail::HarmlessRequest(context),
      {.grow =
           [context](const Request& well_formed, std::size_t length) {
             return Raw(context.Make(Named(kMethodPrefix, length), {}, *well_formed.RpcId()));
           },
       .shortest = kMethodPrefix.size() + 1,
       .in_header = HeaderBound(context),
       .before = "a method name of ",
       .after = " characters"});
}

rc::Gen<GeneratedCase> LongToolName(const GenContext& context) {
  const auto call = [context](std::string name, const boost::json::value& id) {
    return context.Make("tools/call",
                        {{"name", std::move(name)}, {"arguments", boost::json::object{}}}, id);
  };
  return Grown(context,
               rc::gen::map(detail::RequestIdValue(),
                            [call](const boost::json::value& id) {
                              return call(Named(kToolPrefix, kToolPrefix.size() + 6), id);
                            }),
               {.grow =
                    [call](const Request& well_formed, std::size_t length) {
                      return Raw(call(Named(kToolPrefix, length), *well_formed.RpcId()));
                    },
                .shortest = kToolPrefix.size() + 1,
                .in_header = HeaderBound(context),
                .before = "a tool name of ",
                .after = " characters"});
}

rc::Gen<GeneratedCase> LongMetaKey(const GenContext& context) {
  return Grown(context, detail::HarmlessRequest(context),
               {.grow =
                    [](const Request& well_formed, std::size_t length) {
                      Request request = well_formed;
                      request.body = RawBody{detail::WithMetaMembers(
                          well_formed, "\"" + Named(kMetaKeyPrefix, length) + "\":0")};
                      return request;
                    },
                .shortest = kMetaKeyPrefix.size() + 1,
                .before = "a _meta key of ",
                .after = " characters"});
}

rc::Gen<GeneratedCase> ManyMetaKeys(const GenContext& context) {
  return Grown(context, detail::HarmlessRequest(context),
               {.grow =
                    [](const Request& well_formed, std::size_t count) {
                      std::string members;
                      members.reserve(count * kKeyMemberBytes);
                      for (std::size_t key = 0; key < count; ++key) {
                        if (key > 0) members += ',';
                        members +=
                            "\"" + std::string(kMetaKeyPrefix) + std::to_string(key) + "\":0";
                      }
                      Request request = well_formed;
                      request.body = RawBody{detail::WithMetaMembers(well_formed, members)};
                      return request;
                    },
                .unit_bytes = kKeyMemberBytes,
                .before = "a _meta object of ",
                .after = " keys"});
}

rc::Gen<GeneratedCase> LongHeaderValue(const GenContext& context) {
  return Grown(context, detail::HarmlessRequest(context),
               {.grow =
                    [](const Request& well_formed, std::size_t length) {
                      Request request = well_formed;
                      SetHeader(request.headers, kPaddingHeader, std::string(length, 'a'));
                      return request;
                    },
                .unit_bytes = 0,
                .in_header = true,
                .before = "a header value of ",
                .after = " characters (" + std::string(kPaddingHeader) + ")"});
}

// `added` in `added_weight` of `total_weight` draws, `kept` otherwise, given the random it would
// have had alone: the ticket is the `ticket`-th value read from the undivided random, which Pick
// and every generator under it only read through split copies. So a case `kept` still draws is
// the case it drew before `added` existed, and the findings a seed gave stay at their case
// indices (the limits family's megabyte bodies are held back by size class: a reshuffle can
// hide a fault a seed found at once). Nested, each Beside reads a ticket of its own.
rc::Gen<GeneratedCase> Beside(rc::Gen<GeneratedCase> kept, rc::Gen<GeneratedCase> added,
                              int added_weight, int total_weight, int ticket) {
  return rc::Gen<GeneratedCase>([=](const rc::Random& random, int size) {
    rc::Random values(random);
    std::uint64_t value = values.next();
    for (int skipped = 0; skipped < ticket; ++skipped) value = values.next();
    const auto drawn = static_cast<int>(value % static_cast<std::uint64_t>(total_weight));
    return drawn < added_weight ? added(random, size) : kept(random, size);
  });
}

}  // namespace

rc::Gen<GeneratedCase> Limits(const GenContext& context) {
  const bool oversized = !Sizes(context.max_request_bytes).empty();
  // A body of megabytes costs its size on every send, and what it shows (a server that dies
  // or goes deaf at a size) shows the first time: it is drawn a ninth as often as a nesting.
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> variants = {
      {context.Declares("tools") ? 4 : 0, DeepArguments(context)},
      {4, DeepMeta(context)},
      {oversized ? 1 : 0, oversized ? Oversized(context) : DeepMeta(context)},
  };
  const bool long_values = !Ceilings(context.max_request_bytes, false).empty();
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> ids = {
      {2, LongStringId(context)},
      {context.stdio() ? 1 : 0, LongNumberId(context)},
  };
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> names = {
      {long_values ? 1 : 0, LongMethod(context)},
      {long_values && context.Declares("tools") ? 1 : 0, LongToolName(context)},
      {long_values ? 1 : 0, LongMetaKey(context)},
      {long_values ? 1 : 0, ManyMetaKeys(context)},
      {long_values && context.http() ? 1 : 0, LongHeaderValue(context)},
  };
  // Long values are one case in four: a third of them ids, the rest the other axes, so the deep
  // and big bodies stay the cases they were (their first of a size class is the one sent). Half
  // of each axis's lengths are 10 KiB or less, which no budget holds back.
  return Beside(detail::Pick(std::move(variants)),
                Beside(detail::Pick(std::move(ids)), detail::Pick(std::move(names)), 2, 3,
                       /*ticket=*/1),
                long_values ? 1 : 0, 4, /*ticket=*/0);
}

}  // namespace mcpfuzz::gen
