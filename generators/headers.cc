// 2026-07-28 over HTTP: the standard headers against the body. Each case alters exactly one
// header of a well-formed request (its value, its presence, and at random its name's letter
// case, which never matters); the body and every other header stay as they were.

#include <rapidcheck.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "model/request_builder.h"
#include "model/text.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "headers";

std::string Lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The header's name as written: unchanged, lowercase, uppercase or mixed.
rc::Gen<std::string> NameCasing(std::string_view name) {
  const std::string original(name);
  return rc::gen::mapcat(rc::gen::inRange(0, 4), [original](int kind) -> rc::Gen<std::string> {
    if (kind == 0) return rc::gen::just(original);
    if (kind == 1) return rc::gen::just(Lowercase(original));
    if (kind == 2) {
      std::string upper = original;
      std::transform(upper.begin(), upper.end(), upper.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      return rc::gen::just(upper);
    }
    return detail::CaseVariantOf(original);
  });
}

/// The new value of one header (nothing: the header is removed) and a label.
struct HeaderChange {
  std::optional<std::string> value;
  std::string label;
};

rc::Gen<GeneratedCase> ChangeHeader(std::string_view check_id, rc::Gen<Request> templates,
                                    std::string_view header,
                                    std::function<rc::Gen<HeaderChange>(const Request&)> change) {
  const std::string name(header);
  return rc::gen::mapcat(
      std::move(templates), [check_id, name, change](const Request& well_formed) {
        return rc::gen::apply(
            [check_id, name, well_formed](const HeaderChange& drawn, const std::string& written) {
              Request request = well_formed;
              if (drawn.value) {
                SetHeader(request.headers, written, *drawn.value);
              } else {
                RemoveHeader(request.headers, name);
              }
              std::string label = drawn.label;
              if (drawn.value && written != name) label += " (header name written " + written + ")";
              return MakeCase(kFamily, check_id, std::move(request), std::move(label), well_formed);
            },
            change(well_formed), NameCasing(name));
      });
}

rc::Gen<HeaderChange> Removed(std::string label) {
  return rc::gen::just(HeaderChange{std::nullopt, std::move(label)});
}

// --- MCP-Protocol-Version ------------------------------------------------------------------------

rc::Gen<HeaderChange> OtherRevision(const Request&) {
  std::vector<std::string> others;
  for (Revision revision : kAllRevisions) {
    if (revision != Revision::k2026_07_28) others.emplace_back(ToString(revision));
  }
  others.emplace_back("2099-01-01");
  return rc::gen::map(rc::gen::inRange(0, static_cast<int>(others.size())), [others](int index) {
    const std::string& value = others[static_cast<std::size_t>(index)];
    return HeaderChange{value, "MCP-Protocol-Version " + value + ", _meta 2026-07-28"};
  });
}

rc::Gen<HeaderChange> MalformedVersion(const Request&) {
  static const std::vector<std::string> kValues = {
      "mcpfuzz-not-a-version", "2026/07/28", "20260728",  "2026-07-28x",
      "v2026-07-28",           "2026-07",    "2026-13-45"};
  return rc::gen::mapcat(rc::gen::inRange(0, 2), [](int kind) -> rc::Gen<HeaderChange> {
    if (kind == 0) {
      return rc::gen::map(rc::gen::inRange(0, static_cast<int>(kValues.size())), [](int index) {
        const std::string& value = kValues[static_cast<std::size_t>(index)];
        return HeaderChange{value, "MCP-Protocol-Version " + detail::Quote(value)};
      });
    }
    return rc::gen::map(detail::VisibleAscii(1, 30), [](std::string value) {
      if (ParseRevision(value)) value += "x";
      return HeaderChange{value, "MCP-Protocol-Version " + detail::Quote(value)};
    });
  });
}

// CONF: the header names the supported version, _meta an unsupported one: still a mismatch,
// judged before version support.
rc::Gen<GeneratedCase> UnsupportedMetaVersion(rc::Gen<Request> templates) {
  return rc::gen::apply(
      [](const Request& well_formed, int index) {
        static const std::vector<std::string> kVersions = {"v999.0.0", "1900-01-01", "2025-11-25"};
        const std::string& version = kVersions[static_cast<std::size_t>(index)];
        Request request = well_formed;
        Meta(request)[kMetaProtocolVersion] = version;
        return MakeCase(kFamily, check::kProtocolVersionHeaderMismatch, std::move(request),
                        "_meta protocolVersion " + version + ", MCP-Protocol-Version 2026-07-28",
                        well_formed);
      },
      std::move(templates), rc::gen::inRange(0, 3));
}

// --- Mcp-Method ----------------------------------------------------------------------------------

rc::Gen<HeaderChange> OtherMethod(const Request& well_formed) {
  const std::string method = well_formed.RpcMethod().value_or("");
  static const std::vector<std::string> kMethods = {
      "tools/list",     "server/discover", "prompts/list", "tools/call",
      "resources/read", "resources/list",  "initialize"};
  std::vector<std::string> others;
  for (const std::string& other : kMethods) {
    if (Lowercase(other) != Lowercase(method)) others.push_back(other);
  }
  return rc::gen::mapcat(
      rc::gen::inRange(0, 2), [others, method](int kind) -> rc::Gen<HeaderChange> {
        if (kind == 0) {
          return rc::gen::map(rc::gen::inRange(0, static_cast<int>(others.size())),
                              [others](int i) {
                                const std::string& value = others[static_cast<std::size_t>(i)];
                                return HeaderChange{value, "Mcp-Method " + value};
                              });
        }
        return rc::gen::map(detail::Token(1, 20), [method](const std::string& token) {
          std::string value = "mcpfuzz/" + token;
          return HeaderChange{value, "Mcp-Method " + value + " for " + method};
        });
      });
}

rc::Gen<HeaderChange> MethodInOtherCase(const Request& well_formed) {
  const std::string method = well_formed.RpcMethod().value_or("server/discover");
  return rc::gen::map(detail::CaseVariantOf(method), [](const std::string& value) {
    return HeaderChange{value, "Mcp-Method " + value};
  });
}

// --- Mcp-Name ------------------------------------------------------------------------------------

// A call that carries Mcp-Name and reaches nothing real: tools/call of an unknown tool (or
// prompts/get, or resources/read, by what the target declared). With `plain_names`, only names
// a header carries verbatim (so the well-formed Mcp-Name is not already in Base64 form).
rc::Gen<Request> NamedCall(const GenContext& context, bool plain_names) {
  std::vector<std::string> taken;
  for (const ToolInfo& tool : context.tools) taken.push_back(tool.name);
  for (const std::string& prompt : context.prompts) taken.push_back(prompt);
  for (const std::string& uri : context.resource_uris) taken.push_back(uri);
  auto name = rc::gen::mapcat(
      rc::gen::inRange(0, plain_names ? 1 : 2), [](int kind) -> rc::Gen<std::string> {
        if (kind == 0) {
          return rc::gen::map(detail::Token(1, 30),
                              [](const std::string& token) { return "mcpfuzz_" + token; });
        }
        // Names that need the Base64 form.
        return rc::gen::map(detail::Utf8Text(1, 30, true),
                            [](const std::string& text) { return "mcpfuzz_" + text; });
      });
  return rc::gen::apply(
      [context, taken](std::string chosen, const boost::json::value& id) {
        while (std::find(taken.begin(), taken.end(), chosen) != taken.end()) chosen += "_x";
        if (!context.Declares("tools") && context.Declares("prompts")) {
          return context.Make("prompts/get", {{"name", chosen}}, id);
        }
        if (!context.Declares("tools") && context.Declares("resources")) {
          return context.Make("resources/read", {{"uri", "mcpfuzz://" + chosen}}, id);
        }
        return context.Make("tools/call", {{"name", chosen}, {"arguments", boost::json::object{}}},
                            id);
      },
      name, detail::RequestIdValue());
}

std::string BodyName(const Request& request) {
  const auto body = request.BodyJson();
  const std::string method = request.RpcMethod().value_or("");
  const auto* params = body ? body->as_object().if_contains("params") : nullptr;
  const auto* name = params != nullptr && params->is_object()
                         ? params->as_object().if_contains(NameParamFor(method))
                         : nullptr;
  return name != nullptr && name->is_string() ? std::string(name->as_string()) : std::string();
}

rc::Gen<HeaderChange> OtherName(const Request& well_formed) {
  const std::string name = BodyName(well_formed);
  return rc::gen::mapcat(rc::gen::inRange(0, 2), [name](int kind) -> rc::Gen<HeaderChange> {
    if (kind == 0) {
      return rc::gen::map(detail::Utf8Text(1, 30, true), [name](std::string other) {
        if (other == name) other += "_x";
        return HeaderChange{EncodeHeaderValue(other), "Mcp-Name naming " + detail::Quote(other)};
      });
    }
    // Not valid Base64: whether a server reads it as a literal name or fails to decode it, it
    // does not name what the body names.
    static const std::vector<std::string> kBroken = {"=?base64?!!!?=", "=?base64?Zm9v",
                                                     "=?base64?####?="};
    return rc::gen::map(rc::gen::inRange(0, 3), [](int index) {
      const std::string& value = kBroken[static_cast<std::size_t>(index)];
      return HeaderChange{value, "Mcp-Name " + value + " (invalid Base64)"};
    });
  });
}

rc::Gen<HeaderChange> NameInBase64(const Request& well_formed) {
  const std::string value = "=?base64?" + Base64Encode(BodyName(well_formed)) + "?=";
  return rc::gen::just(HeaderChange{value, "Mcp-Name in =?base64?…?= form"});
}

rc::Gen<HeaderChange> NameWithWhitespace(const Request& well_formed) {
  const std::string value(FindHeader(well_formed.headers, kHeaderName).value_or(""));
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 4), rc::gen::inRange(0, 4)),
                      [value](const std::pair<int, int>& blanks) {
                        static const std::vector<std::string> kBlanks = {" ", "  ", "\t", " \t "};
                        return HeaderChange{kBlanks[static_cast<std::size_t>(blanks.first)] +
                                                value +
                                                kBlanks[static_cast<std::size_t>(blanks.second)],
                                            "Mcp-Name with surrounding whitespace"};
                      });
}

}  // namespace

rc::Gen<GeneratedCase> HeaderMismatch(const GenContext& context) {
  const rc::Gen<Request> harmless = detail::HarmlessRequest(context);
  const rc::Gen<Request> named = NamedCall(context, /*plain_names=*/false);
  const rc::Gen<Request> plainly_named = NamedCall(context, /*plain_names=*/true);
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> variants = {
      {2, ChangeHeader(check::kProtocolVersionHeaderMismatch, harmless, kHeaderProtocolVersion,
                       OtherRevision)},
      {1, UnsupportedMetaVersion(harmless)},
      {2, ChangeHeader(check::kProtocolVersionHeaderInvalid, harmless, kHeaderProtocolVersion,
                       MalformedVersion)},
      {2, ChangeHeader(check::kProtocolVersionHeaderMissing, harmless, kHeaderProtocolVersion,
                       [](const Request&) { return Removed("no MCP-Protocol-Version"); })},
      {2, ChangeHeader(check::kMethodHeaderMissing, harmless, kHeaderMethod,
                       [](const Request&) { return Removed("no Mcp-Method"); })},
      {2, ChangeHeader(check::kMethodHeaderMismatch, harmless, kHeaderMethod, OtherMethod)},
      {2, ChangeHeader(check::kMethodHeaderCase, harmless, kHeaderMethod, MethodInOtherCase)},
      {2, ChangeHeader(check::kNameHeaderMissing, named, kHeaderName,
                       [](const Request&) { return Removed("no Mcp-Name"); })},
      {2, ChangeHeader(check::kNameHeaderMismatch, named, kHeaderName, OtherName)},
      {2, ChangeHeader(check::kNameHeaderBase64, plainly_named, kHeaderName, NameInBase64)},
      {2, ChangeHeader(check::kNameHeaderWhitespace, named, kHeaderName, NameWithWhitespace)},
  };
  return detail::Pick(std::move(variants));
}

}  // namespace mcpfuzz::gen
