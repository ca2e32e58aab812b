// tools/call, prompts/get and resources/read naming nothing the target has. Names are made
// unknown by construction (a colliding name gets a suffix), never by filtering.

#include <rapidcheck.h>

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "unknown-names";

using Labelled = std::pair<std::string, std::string>;  // name, label

const std::vector<std::string>& SpecialNames() {
  // Property names every JavaScript object has, and strings that trip naive lookups.
  static const std::vector<std::string> kNames = {
      "__proto__",
      "constructor",
      "toString",
      "valueOf",
      "hasOwnProperty",
      "prototype",
      "__defineGetter__",
      "isPrototypeOf",
      "toLocaleString",
      "propertyIsEnumerable",
      "null",
      "undefined",
      "NaN",
      "0",
      "-1",
      "*",
      ".",
      " ",
      "tools/call",
      "%00",
      "${jndi:ldap://127.0.0.1:1/a}",
      "<script>alert(1)</script>",
      "'; DROP TABLE tools;--",
      "../../etc/passwd",
  };
  return kNames;
}

bool HeaderBound(const GenContext& context) { return context.stateless() && context.http(); }

// Names derived from `real` ones (case variants, affixes): lenient servers may resolve them to
// the real thing, so for tools they are only drawn when real tools may run.
rc::Gen<Labelled> DerivedName(std::vector<std::string> real) {
  return rc::gen::mapcat(
      rc::gen::pair(rc::gen::inRange(0, static_cast<int>(real.size())), rc::gen::inRange(0, 3)),
      [real](const std::pair<int, int>& drawn) -> rc::Gen<Labelled> {
        const std::string& base = real[static_cast<std::size_t>(drawn.first)];
        const bool has_letter = std::any_of(base.begin(), base.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        });
        if (drawn.second == 0 && has_letter) {
          return rc::gen::map(detail::CaseVariantOf(base), [](std::string name) {
            return Labelled{std::move(name), "a real name in other letter case"};
          });
        }
        static const std::vector<std::string> kAffixes = {"_", "2", " ", "\t", "-x", "."};
        return rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 6), rc::gen::arbitrary<bool>()),
                            [base](const std::pair<int, bool>& affix) {
                              const std::string& text =
                                  kAffixes[static_cast<std::size_t>(affix.first)];
                              return Labelled{affix.second ? text + base : base + text,
                                              "a real name with an affix"};
                            });
      });
}

// A tool or prompt name that is probably unknown; Unknown() makes sure of it.
rc::Gen<Labelled> CandidateName(const GenContext& context, std::vector<std::string> derive_from) {
  const bool header_bound = HeaderBound(context);
  const bool derive = !derive_from.empty();
  return rc::gen::mapcat(
      rc::gen::inRange(0, 7), [header_bound, derive, derive_from](int kind) -> rc::Gen<Labelled> {
        switch (kind) {
          case 0:
            return rc::gen::map(detail::Token(1, 30), [](std::string name) {
              return Labelled{std::move(name), "a made-up name"};
            });
          case 1:
            return rc::gen::map(rc::gen::inRange(0, static_cast<int>(SpecialNames().size())),
                                [](int index) {
                                  return Labelled{SpecialNames()[static_cast<std::size_t>(index)],
                                                  "a special name"};
                                });
          case 2:
            return rc::gen::map(detail::Utf8Text(1, 40, true), [](std::string name) {
              return Labelled{std::move(name), "a unicode name"};
            });
          case 3:
            // Base64 in a header inflates by a third; header lines stay well below 8 KiB.
            return rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 3),
                                              rc::gen::inRange(200, header_bound ? 1500 : 5000)),
                                [](const std::pair<int, int>& drawn) {
                                  static const std::vector<std::string> kUnits = {
                                      "a", "\xC3\xA9", "\xF0\x9F\x98\x80"};
                                  const std::string& unit =
                                      kUnits[static_cast<std::size_t>(drawn.first)];
                                  std::string name;
                                  while (name.size() < static_cast<std::size_t>(drawn.second)) {
                                    name += unit;
                                  }
                                  return Labelled{name, "a very long name"};
                                });
          case 4:
            if (derive) return DerivedName(derive_from);
            return rc::gen::map(detail::Token(1, 30), [](std::string name) {
              return Labelled{"x" + name, "a made-up name"};
            });
          case 5:
            // An empty header value is too easily read as a missing header: HTTP 2026-07-28
            // gets a made-up name instead.
            if (header_bound) {
              return rc::gen::map(detail::VisibleAscii(1, 30), [](std::string name) {
                return Labelled{std::move(name), "a name of visible ASCII"};
              });
            }
            return rc::gen::just(Labelled{"", "the empty name"});
          default:
            return rc::gen::map(detail::VisibleAscii(1, 30), [](std::string name) {
              return Labelled{std::move(name), "a name of visible ASCII"};
            });
        }
      });
}

std::string Unknown(std::string name, const std::vector<std::string>& known) {
  while (std::find(known.begin(), known.end(), name) != known.end()) name += "_mcpfuzz";
  return name;
}

std::vector<std::string> ToolNames(const GenContext& context) {
  std::vector<std::string> names;
  for (const ToolInfo& tool : context.tools) names.push_back(tool.name);
  return names;
}

JudgeContext Declared(const GenContext& context, std::string_view capability) {
  JudgeContext judge;
  judge.capability_declared = context.Declares(capability);
  return judge;
}

rc::Gen<GeneratedCase> UnknownTool(const GenContext& context) {
  const std::vector<std::string> known = ToolNames(context);
  auto arguments = rc::gen::mapcat(rc::gen::inRange(0, 3), [](int kind) {
    return rc::gen::map(detail::SmallObject(), [kind](const boost::json::object& object) {
      return std::pair{kind, object};
    });
  });
  return rc::gen::apply(
      [context, known](const Labelled& drawn, const boost::json::value& id,
                       const std::pair<int, boost::json::object>& args) {
        const std::string name = Unknown(drawn.first, known);
        boost::json::object params{{"name", name}};
        // {} as the checks send it, none at all, or a few members: none may matter.
        if (args.first == 0) params["arguments"] = boost::json::object{};
        if (args.first == 2) params["arguments"] = args.second;
        Request request = context.Make("tools/call", params, id);
        return MakeCase(kFamily, check::kUnknownTool, request,
                        drawn.second + " " + detail::Quote(name), request,
                        Declared(context, "tools"));
      },
      CandidateName(context, context.call_real_tools ? known : std::vector<std::string>{}),
      detail::RequestIdValue(), arguments);
}

rc::Gen<GeneratedCase> UnknownPrompt(const GenContext& context) {
  // prompts/get reads only, so names derived from real prompts are always fair.
  const std::vector<std::string> known = context.prompts;
  return rc::gen::apply(
      [context, known](const Labelled& drawn, const boost::json::value& id) {
        const std::string name = Unknown(drawn.first, known);
        Request request = context.Make("prompts/get", {{"name", name}}, id);
        return MakeCase(kFamily, check::kUnknownPrompt, request,
                        drawn.second + " " + detail::Quote(name), request,
                        Declared(context, "prompts"));
      },
      CandidateName(context, known), detail::RequestIdValue());
}

rc::Gen<Labelled> CandidateUri(const GenContext& context) {
  const std::vector<std::string> known = context.resource_uris;
  const bool header_bound = HeaderBound(context);
  // Always a scheme of mcpfuzz's own or a file path that does not exist: resources/read of an
  // arbitrary http URL could make a server fetch it.
  return rc::gen::mapcat(
      rc::gen::inRange(0, known.empty() ? 5 : 6),
      [known, header_bound](int kind) -> rc::Gen<Labelled> {
        switch (kind) {
          case 0:
            return rc::gen::map(detail::Token(1, 30), [](const std::string& token) {
              return Labelled{"mcpfuzz://no-such-resource/" + token, "a made-up URI"};
            });
          case 1:
            return rc::gen::map(detail::Token(1, 30), [](const std::string& token) {
              return Labelled{"file:///mcpfuzz-nonexistent/" + token, "a file that does not exist"};
            });
          case 2:
            return rc::gen::map(detail::Utf8Text(1, 40, !header_bound),
                                [](const std::string& text) {
                                  return Labelled{"mcpfuzz:" + text, "a unicode URI"};
                                });
          case 3:
            return rc::gen::map(detail::LongText("a", 200, header_bound ? 1500 : 5000),
                                [](const std::string& text) {
                                  return Labelled{"mcpfuzz://" + text, "a very long URI"};
                                });
          case 4:
            if (header_bound) {
              return rc::gen::map(detail::Token(1, 10), [](const std::string& token) {
                return Labelled{"mcpfuzz:" + token, "a made-up URI"};
              });
            }
            return rc::gen::just(Labelled{"", "the empty URI"});
          default:
            return rc::gen::mapcat(
                rc::gen::inRange(0, static_cast<int>(known.size())), [known](int index) {
                  const std::string& real = known[static_cast<std::size_t>(index)];
                  return rc::gen::map(rc::gen::inRange(0, 2), [real](int suffix) {
                    return Labelled{real + (suffix == 0 ? "-mcpfuzz" : "/mcpfuzz"),
                                    "a real URI with a suffix"};
                  });
                });
        }
      });
}

rc::Gen<GeneratedCase> UnknownResource(const GenContext& context) {
  const std::vector<std::string> known = context.resource_uris;
  return rc::gen::apply(
      [context, known](const Labelled& drawn, const boost::json::value& id) {
        const std::string uri = Unknown(drawn.first, known);
        Request request = context.Make("resources/read", {{"uri", uri}}, id);
        return MakeCase(kFamily, check::kUnknownResource, request,
                        drawn.second + " " + detail::Quote(uri), request,
                        Declared(context, "resources"));
      },
      CandidateUri(context), detail::RequestIdValue());
}

// tools/call without a string name. Never a value a lenient server could coerce into a real
// tool's name (["echo"] is "echo" in JavaScript).
rc::Gen<GeneratedCase> MissingName(const GenContext& context) {
  static const std::vector<boost::json::value> kNames = {
      nullptr, 42, true, boost::json::array{1}, boost::json::object{{"n", 1}}, 1.5};
  return rc::gen::apply(
      [context](int kind, const boost::json::value& id) {
        boost::json::object params{{"arguments", boost::json::object{}}};
        std::string label = "no name";
        if (kind > 0) {
          const boost::json::value& name = kNames[static_cast<std::size_t>(kind - 1)];
          params["name"] = name;
          label = "name " + boost::json::serialize(name);
        }
        const Request well_formed = context.Make(
            "tools/call", {{"name", "mcpfuzz_tool"}, {"arguments", boost::json::object{}}}, id);
        Request request = context.Make("tools/call", params, id);
        // 2026-07-28 over HTTP, Mcp-Name mirrors params.name (X11): a number or a boolean has
        // a text the header can carry (X15 compares numbers numerically), so it is sent and
        // only the name's type is wrong. Absent, null, an array or an object have none.
        const auto* name = params.if_contains("name");
        if (HeaderBound(context) && name != nullptr && (name->is_number() || name->is_bool())) {
          SetHeader(request.headers, kHeaderName, boost::json::serialize(*name));
        }
        return MakeCase(kFamily, check::kToolMissingName, std::move(request), label, well_formed,
                        Declared(context, "tools"));
      },
      rc::gen::inRange(0, static_cast<int>(kNames.size()) + 1), detail::RequestIdValue());
}

// Non-object arguments to a tool that does not exist: both are -32602, and no tool runs.
rc::Gen<GeneratedCase> ArgumentsNotObject(const GenContext& context) {
  static const std::vector<boost::json::value> kArguments = {
      boost::json::array{"not", "an", "object"}, "x", 42, true, nullptr, boost::json::array{}};
  const std::vector<std::string> known = ToolNames(context);
  return rc::gen::apply(
      [context, known](int kind, const std::string& token, const boost::json::value& id) {
        const std::string name = Unknown("mcpfuzz_" + token, known);
        const boost::json::value& arguments = kArguments[static_cast<std::size_t>(kind)];
        const Request well_formed =
            context.Make("tools/call", {{"name", name}, {"arguments", boost::json::object{}}}, id);
        return MakeCase(kFamily, check::kToolArgumentsNotObject,
                        context.Make("tools/call", {{"name", name}, {"arguments", arguments}}, id),
                        "arguments " + boost::json::serialize(arguments) + " to an unknown tool",
                        well_formed, Declared(context, "tools"));
      },
      rc::gen::inRange(0, static_cast<int>(kArguments.size())), detail::Token(1, 20),
      detail::RequestIdValue());
}

// Property names every JavaScript object has: a server that looks names up in a plain object
// finds a function there instead of nothing, and answers as if the name existed.
const std::vector<std::string>& PrototypeNames() {
  static const std::vector<std::string> kNames = {
      "__proto__",
      "constructor",
      "toString",
      "valueOf",
      "hasOwnProperty",
      "isPrototypeOf",
      "propertyIsEnumerable",
      "toLocaleString",
      "__defineGetter__",
      "__lookupGetter__",
  };
  return kNames;
}

std::vector<std::string> KnownNames(const GenContext& context, const std::string& method) {
  if (method == "tools/call") return ToolNames(context);
  if (method == "prompts/get") return context.prompts;
  return context.resource_uris;
}

// An impossible name answered as a random one was (GenContext::random_name_answers), judged by
// names.unknown-consistent: its own finding, apart from the row the answer itself breaks.
rc::Gen<GeneratedCase> PrototypeName(const GenContext& context) {
  const std::vector<NameAnswer> references = context.random_name_answers;
  return rc::gen::apply(
      [context, references](int which, int index, const boost::json::value& id) {
        const NameAnswer& reference = references[static_cast<std::size_t>(which)];
        const std::string name = Unknown(PrototypeNames()[static_cast<std::size_t>(index)],
                                         KnownNames(context, reference.method));
        Request request = context.Make(reference.method, NameParams(reference.method, name), id);
        const Request well_formed =
            context.Make(reference.method, NameParams(reference.method, reference.name), id);
        JudgeContext judge;
        judge.random_name_answer = reference;
        return MakeCase(kFamily, check::kUnknownNameConsistent, std::move(request),
                        "a prototype name " + detail::Quote(name) + " in " + reference.method,
                        well_formed, std::move(judge));
      },
      rc::gen::inRange(0, static_cast<int>(std::max<std::size_t>(references.size(), 1))),
      rc::gen::inRange(0, static_cast<int>(PrototypeNames().size())), detail::RequestIdValue());
}

}  // namespace

rc::Gen<GeneratedCase> UnknownNames(const GenContext& context) {
  const bool tools = context.Declares("tools");
  const bool prompts = context.Declares("prompts");
  const bool resources = context.Declares("resources");
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> variants = {
      // Without any of the three, tools/call is still drawn: the oracle says NOT_APPLICABLE.
      {tools || (!prompts && !resources) ? 6 : 0, UnknownTool(context)},
      {prompts ? 3 : 0, UnknownPrompt(context)},
      {resources ? 3 : 0, UnknownResource(context)},
      {tools ? 1 : 0, MissingName(context)},
      {tools ? 1 : 0, ArgumentsNotObject(context)},
      {context.random_name_answers.empty() ? 0 : 2, PrototypeName(context)},
  };
  return detail::Pick(std::move(variants));
}

}  // namespace mcpfuzz::gen
