// Requests at the limits parsers set: valid JSON nested 10,000 to 100,000 levels deep inside
// `arguments` or `_meta`, and bodies at and just above the common size limits (1, 4, 10 and
// 16 MiB). Any JSON-RPC answer or refusal is fine; a 5xx, a reply that is not JSON-RPC, a
// crash or a server that stops answering afterwards is not.
//
// Both are raw bodies built as text: mcpfuzz's own JSON library would recurse once per level
// (and refuses past 32 levels by default), so the nesting never becomes a JSON value here.

#include <rapidcheck.h>

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
  return detail::Pick(std::move(variants));
}

}  // namespace mcpfuzz::gen
