// Methods the target does not have: names no MCP revision defines, the methods 2026-07-28
// removed, and the methods of capabilities the target did not declare.

#include <rapidcheck.h>

#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "model/methods.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "unknown-method";

const std::vector<std::string>& CurrentMethods() {
  static const std::vector<std::string> kMethods = {
      "tools/list",       "tools/call",     "prompts/list",
      "prompts/get",      "resources/list", "resources/read",
      "logging/setLevel", "initialize",     "completion/complete",
      "server/discover",  "ping",           "resources/templates/list"};
  return kMethods;
}

// Over 2026-07-28 HTTP the method is mirrored verbatim in the Mcp-Method header, so it must be
// a header-safe value: visible ASCII, not empty, nothing a server would strip.
bool HeaderBound(const GenContext& context) { return context.stateless() && context.http(); }

// A method name no revision defines. Collisions with real methods are renamed, not filtered.
rc::Gen<std::pair<std::string, std::string>> UnknownName(const GenContext& context) {
  const bool header_bound = HeaderBound(context);
  const int long_max = header_bound ? 1000 : 4000;
  auto named = [](std::string label) {
    return [label](std::string name) { return std::pair{std::move(name), label}; };
  };
  return rc::gen::mapcat(
      rc::gen::inRange(0, header_bound ? 6 : 8),
      [=](int kind) -> rc::Gen<std::pair<std::string, std::string>> {
        switch (kind) {
          case 0:
            return rc::gen::map(detail::Token(1, 30), [](const std::string& token) {
              return std::pair{"mcpfuzz/" + token, std::string("a made-up method")};
            });
          case 1:
            return rc::gen::map(rc::gen::pair(detail::Token(1, 20), detail::Token(1, 20)),
                                [](const std::pair<std::string, std::string>& parts) {
                                  return std::pair{parts.first + "/" + parts.second,
                                                   std::string("a made-up namespaced method")};
                                });
          case 2:
            return rc::gen::mapcat(
                rc::gen::inRange(0, static_cast<int>(CurrentMethods().size())), [named](int index) {
                  return rc::gen::map(
                      detail::CaseVariantOf(CurrentMethods()[static_cast<std::size_t>(index)]),
                      named("a real method in other letter case"));
                });
          case 3:
            return rc::gen::apply(
                [](int index, int affix) {
                  static const std::vector<std::string> kSuffixes = {"2",  "/", "_",  ".",
                                                                     "/x", "s", "-v2"};
                  return std::pair{CurrentMethods()[static_cast<std::size_t>(index)] +
                                       kSuffixes[static_cast<std::size_t>(affix)],
                                   std::string("a real method with a suffix")};
                },
                rc::gen::inRange(0, static_cast<int>(CurrentMethods().size())),
                rc::gen::inRange(0, 7));
          case 4:
            return rc::gen::map(detail::LongText("x", 200, long_max), named("a very long method"));
          case 5:
            return header_bound
                       ? rc::gen::map(detail::VisibleAscii(1, 60),
                                      named("a method of visible ASCII"))
                       : rc::gen::map(detail::Utf8Text(1, 40, true), named("a unicode method"));
          case 6:
            return rc::gen::map(detail::Utf8Text(1, 40, false), named("a unicode method"));
          default:
            return rc::gen::just(std::pair<std::string, std::string>{"", "an empty method"});
        }
      });
}

std::string Unknown(std::string name) {
  // JSON-RPC reserves rpc.* for extensions a server may implement (rpc.discover).
  if (name.starts_with("rpc.")) name = "x" + name;
  while (IsKnownMethod(name)) name += "-mcpfuzz";
  return name;
}

rc::Gen<GeneratedCase> MadeUpMethod(const GenContext& context) {
  return rc::gen::apply(
      [context](const std::pair<std::string, std::string>& drawn, const boost::json::value& id,
                const boost::json::object& params) {
        const std::string method = Unknown(drawn.first);
        Request request = context.Make(method, params, id);
        return MakeCase(kFamily, check::kUnknownMethod, request,
                        drawn.second + " " + detail::Quote(method), request);
      },
      UnknownName(context), detail::RequestIdValue(), detail::SmallObject());
}

// 2026-07-28 removed these (tables V6): a stateless request for one gets -32601 (HTTP 404).
rc::Gen<GeneratedCase> RemovedMethod(const GenContext& context) {
  static const std::vector<std::string> kRemoved = {"ping", "initialize", "logging/setLevel",
                                                    "resources/subscribe", "resources/unsubscribe"};
  return rc::gen::apply(
      [context](int index, const boost::json::value& id) {
        const std::string& method = kRemoved[static_cast<std::size_t>(index)];
        boost::json::object params;
        if (method == "logging/setLevel") params["level"] = "info";
        if (method.starts_with("resources/")) params["uri"] = "mcpfuzz://no-such-resource";
        Request request = context.Make(method, params, id);
        return MakeCase(kFamily, check::kRemovedMethod, request,
                        "a method 2026-07-28 removed: " + method, request);
      },
      rc::gen::inRange(0, static_cast<int>(kRemoved.size())), detail::RequestIdValue());
}

struct Unadvertised {
  std::string method;
  boost::json::object params;
};

// The harmless method of each server capability the target did not declare.
std::vector<Unadvertised> UnadvertisedMethods(const GenContext& context) {
  std::vector<Unadvertised> methods;
  if (!context.Declares("tools")) methods.push_back({"tools/list", {}});
  if (!context.Declares("prompts")) methods.push_back({"prompts/list", {}});
  if (!context.Declares("resources")) methods.push_back({"resources/list", {}});
  // Completions became a capability in 2025-03-26.
  if (!context.Declares("completions") && context.revision >= Revision::k2025_03_26) {
    methods.push_back({"completion/complete",
                       {{"ref", {{"type", "ref/prompt"}, {"name", "mcpfuzz_no_such_prompt"}}},
                        {"argument", {{"name", "a"}, {"value", ""}}}}});
  }
  if (!context.Declares("logging") && !context.stateless()) {
    methods.push_back({"logging/setLevel", {{"level", "info"}}});
  }
  return methods;
}

rc::Gen<GeneratedCase> UnadvertisedCapability(const GenContext& context) {
  const std::vector<Unadvertised> methods = UnadvertisedMethods(context);
  const int count = static_cast<int>(methods.size());
  return rc::gen::apply(
      [context, methods](int index, const boost::json::value& id) {
        const Unadvertised& chosen = methods[static_cast<std::size_t>(index)];
        Request request = context.Make(chosen.method, chosen.params, id);
        JudgeContext judge;
        judge.capability_declared = false;
        return MakeCase(kFamily, check::kCapabilityUnadvertised, request,
                        chosen.method + " without its capability", request, judge);
      },
      rc::gen::inRange(0, std::max(count, 1)), detail::RequestIdValue());
}

}  // namespace

rc::Gen<GeneratedCase> UnknownMethod(const GenContext& context) {
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> variants = {
      {8, MadeUpMethod(context)},
      {context.stateless() ? 2 : 0, RemovedMethod(context)},
      {UnadvertisedMethods(context).empty() ? 0 : 2, UnadvertisedCapability(context)},
  };
  return detail::Pick(std::move(variants));
}

}  // namespace mcpfuzz::gen
