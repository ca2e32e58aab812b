// Requests at the limits parsers set: valid JSON nested 10,000 to 100,000 levels deep inside
// `arguments` or `_meta`, bodies at and just above the common size limits (1, 4, 10 and
// 16 MiB), and ids of up to 1 MiB. Any JSON-RPC answer or refusal is fine; a 5xx, a reply that
// is not JSON-RPC, a crash or a server that stops answering afterwards is not.
//
// All are raw bodies built as text: mcpfuzz's own JSON library would recurse once per level
// (and refuses past 32 levels by default), so the nesting never becomes a JSON value here, and
// a megabyte id is measured and sent without being serialised again.

#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <cstdint>
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
      [](const Request& well_formed, std::size_t size) {
        const std::size_t base = detail::WithMetaValue(well_formed, "\"\"").size();
        const std::size_t padding = size > base ? size - base : 0;
        Request request = well_formed;
        request.body =
            RawBody{detail::WithMetaValue(well_formed, "\"" + std::string(padding, 'a') + "\"")};
        const std::string label =
            "a " + std::to_string(request.WireBody().size()) + "-byte body (_meta padding)";
        return MakeCase(kFamily, check::kOversizedRequest, std::move(request), label, well_formed);
      },
      detail::HarmlessRequest(context), rc::gen::elementOf(Sizes(context.max_request_bytes)));
}

// --- long ids --------------------------------------------------------------------------------

// An id's length is drawn on a scale of sizes: a ceiling, then a length between the ceiling
// below it and this one, so ids of a kilobyte are drawn as often as ids of a megabyte.
constexpr std::size_t kKiB = std::size_t{1} << 10;
constexpr std::array<std::size_t, 4> kIdCeilings = {kKiB, 10 * kKiB, 100 * kKiB, kMiB};
// Shrinking stops here at the latest: one character, and for numbers 10^20, the shortest
// integer past 2^64-1 (uint64's 20 digits).
constexpr std::size_t kShortestStringId = 1;
constexpr std::size_t kShortestNumberId = 21;
constexpr std::string_view kIdPlaceholder = "mcpfuzz-id-placeholder";

// The ceilings up to max_request_bytes: none below 1 KiB.
std::vector<std::size_t> IdCeilings(std::size_t max_request_bytes) {
  std::vector<std::size_t> ceilings;
  for (std::size_t ceiling : kIdCeilings) {
    if (ceiling <= max_request_bytes) ceilings.push_back(ceiling);
  }
  return ceilings;
}

// Only the length shrinks, toward `shortest` whatever the ceiling was, so a finding ends at the
// shortest id that still fails; the ceiling only spreads the drawn lengths.
rc::Gen<std::size_t> IdLength(std::vector<std::size_t> ceilings, std::size_t shortest) {
  return rc::Gen<std::size_t>([ceilings, shortest](const rc::Random& random, int /*size*/) {
    rc::Random rest(random);
    const std::size_t step = rest.split().next() % ceilings.size();
    const std::size_t floor = step == 0 ? shortest : ceilings[step - 1] + 1;
    const std::size_t length = floor + rest.next() % (ceilings[step] - floor + 1);
    return rc::shrinkable::shrinkRecur(
        length, [shortest](std::size_t from) { return rc::shrink::towards(from, shortest); });
  });
}

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

// The room the id has in a body of at most max_request_bytes: the body with an empty id, less.
std::size_t IdRoom(const Request& well_formed, std::size_t max_request_bytes, std::size_t quotes) {
  const std::size_t base = WithRawId(well_formed, "").WireBody().size() + quotes;
  return max_request_bytes > base ? max_request_bytes - base : 0;
}

// A string id is a valid RequestId of any length: the reply must carry it back unchanged (the
// envelope rule every check applies), and a refusal is as fine as for any large request
// (tables §15 Z2), so limits.oversized-request judges it.
rc::Gen<GeneratedCase> LongStringId(const GenContext& context) {
  const std::size_t max_request_bytes = context.max_request_bytes;
  return rc::gen::apply(
      [max_request_bytes](const Request& well_formed, std::size_t drawn) {
        const std::size_t length =
            std::max(kShortestStringId, std::min(drawn, IdRoom(well_formed, max_request_bytes, 2)));
        Request request = WithRawId(well_formed, "\"" + std::string(length, 'a') + "\"");
        return MakeCase(kFamily, check::kOversizedRequest, std::move(request),
                        "a string id of " + std::to_string(length) + " characters", well_formed);
      },
      detail::HarmlessRequest(context), IdLength(IdCeilings(max_request_bytes), kShortestStringId));
}

// An integer past 2^64-1 is no id any implementation must hold (RFC 8259 §9 lets a parser
// limit the range of numbers), so what it owes back is unknown: only the process's survival
// is certain, which stdio.no-early-exit judges, over stdio only (as the malformed-json
// family's huge numbers in _meta).
rc::Gen<GeneratedCase> LongNumberId(const GenContext& context) {
  const std::size_t max_request_bytes = context.max_request_bytes;
  return rc::gen::apply(
      [max_request_bytes](const Request& well_formed, std::size_t drawn) {
        const std::size_t digits =
            std::max(kShortestNumberId, std::min(drawn, IdRoom(well_formed, max_request_bytes, 0)));
        Request request = WithRawId(well_formed, "1" + std::string(digits - 1, '0'));
        return MakeCase(kFamily, check::kNoEarlyExit, std::move(request),
                        "an integer id of " + std::to_string(digits) + " digits", well_formed);
      },
      detail::HarmlessRequest(context), IdLength(IdCeilings(max_request_bytes), kShortestNumberId));
}

// `added` in `added_weight` of `total_weight` draws, `kept` otherwise, given the random it would
// have had alone: the ticket is read from the undivided random, which Pick and every generator
// under it only read through split copies. So a case `kept` still draws is the case it drew
// before `added` existed, and the findings a seed gave stay at their case indices (the limits
// family's megabyte bodies are held back by size class: a reshuffle can hide a fault a seed
// found at once).
rc::Gen<GeneratedCase> Beside(rc::Gen<GeneratedCase> kept, rc::Gen<GeneratedCase> added,
                              int added_weight, int total_weight) {
  return rc::Gen<GeneratedCase>([=](const rc::Random& random, int size) {
    rc::Random ticket(random);
    const auto drawn = static_cast<int>(ticket.next() % static_cast<std::uint64_t>(total_weight));
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
  const bool long_ids = !IdCeilings(context.max_request_bytes).empty();
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> ids = {
      {2, LongStringId(context)},
      {context.stdio() ? 1 : 0, LongNumberId(context)},
  };
  // Long ids are one case in four; half of them weigh 10 KiB or less.
  return Beside(detail::Pick(std::move(variants)), detail::Pick(std::move(ids)), long_ids ? 1 : 0,
                4);
}

}  // namespace mcpfuzz::gen
