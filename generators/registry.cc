#include "generators/registry.h"

#include <rapidcheck.h>

#include <array>
#include <utility>

#include "generators/detail/families.h"
#include "generators/detail/values.h"

namespace mcpfuzz::gen {
namespace {

bool Always(const GenContext&) { return true; }
bool Stateless(const GenContext& context) { return context.stateless(); }
bool StatelessHttp(const GenContext& context) { return context.stateless() && context.http(); }
// Sessions exist in Streamable HTTP of the handshake era (2025-03-26 … 2025-11-25).
bool HandshakeSession(const GenContext& context) {
  return !context.stateless() && context.http() && HasStreamableHttp(context.revision) &&
         context.session_assigned;
}
bool StreamableHttp(const GenContext& context) {
  return context.http() && HasStreamableHttp(context.revision);
}
bool HandshakeHttp(const GenContext& context) {
  return !context.stateless() && StreamableHttp(context);
}
bool HasNamedFeature(const GenContext& context) {
  return context.Declares("tools") || context.Declares("prompts") || context.Declares("resources");
}
// Over HTTP, sequences live in the session initialize opens: Streamable HTTP with sessions. In
// 2026-07-28 only the stdio connection has an era to lock, with a list the target declared.
bool SequenceLane(const GenContext& context) {
  if (context.stateless()) return context.stdio() && HasNamedFeature(context);
  return context.stdio() || HandshakeSession(context);
}
bool HasTools(const GenContext& context) { return !context.tools.empty(); }
bool DeclaresLogging(const GenContext& context) { return context.Declares("logging"); }

constexpr std::array<FamilyInfo, 17> kFamilies = {{
    {"malformed-json", "bytes that are not JSON, and JSON at a parser's limits", false, 4, Always,
     MalformedJson},
    {"invalid-request", "JSON that is not a valid JSON-RPC request", false, 3, Always,
     InvalidRequest},
    {"unknown-method", "methods the target does not have", false, 2, Always, UnknownMethod},
    {"unknown-names", "tools, prompts and resources the target does not have", false, 3,
     HasNamedFeature, UnknownNames},
    {"meta", "2026-07-28 _meta fields missing, mistyped or unsupported", false, 2, Stateless,
     MetaEnvelope},
    {"headers", "2026-07-28 HTTP headers that disagree with the body", false, 3, StatelessHttp,
     HeaderMismatch},
    {"sessions", "handshake-era HTTP requests without or with an unknown session", false, 1,
     HandshakeSession, SessionHeaders},
    {"origin", "HTTP requests from a foreign Origin", false, 1, StreamableHttp, ForeignOrigins},
    {"initialize", "handshake-era initialize asking for an unsupported version", false, 1,
     HandshakeHttp, InitializeVersions},
    {"tool-arguments", "arguments breaking one rule of a real tool's inputSchema", true, 2,
     HasTools, ToolArguments},
    {"notifications", "notifications, known and unknown", false, 1, Always, Notifications},
    {"batches", "JSON-RPC batches", false, 1, Always, Batches},
    {"pagination", "*/list with garbage cursors", false, 1, HasNamedFeature, PaginationCursors},
    {"log-levels", "log levels that are not levels", false, 1, DeclaresLogging, LogLevels},
    {"limits",
     "valid JSON 10,000-100,000 levels deep, bodies of 1-16 MiB, ids, names, _meta keys and "
     "header values of up to 1 MiB",
     false, 1, Always, Limits},
    // Off by default (calls_real_tools is false, but DefaultFamilies leaves it out): each case
    // opens a connection of its own.
    {"sequences", "requests in order on one fresh connection: the handshake, sessions", false, 1,
     SequenceLane, Sequences},
    {"subscriptions", "2026-07-28 subscriptions/listen for what the target cannot deliver", false,
     1, Stateless, Subscriptions},
}};

}  // namespace

std::span<const FamilyInfo> AllFamilies() { return kFamilies; }

const FamilyInfo* FindFamily(std::string_view name) {
  for (const FamilyInfo& family : kFamilies) {
    if (family.name == name) return &family;
  }
  return nullptr;
}

std::set<std::string> DefaultFamilies() {
  std::set<std::string> names;
  for (const FamilyInfo& family : kFamilies) {
    if (!family.calls_real_tools && family.name != "sequences") names.emplace(family.name);
  }
  return names;
}

std::vector<const FamilyInfo*> ApplicableFamilies(const GenContext& context,
                                                  const std::set<std::string>& names) {
  const std::set<std::string> wanted = names.empty() ? DefaultFamilies() : names;
  std::vector<const FamilyInfo*> families;
  for (const FamilyInfo& family : kFamilies) {
    if (!wanted.contains(std::string(family.name)) || !family.applies(context)) continue;
    if (family.calls_real_tools && !context.call_real_tools) continue;
    families.push_back(&family);
  }
  return families;
}

rc::Gen<GeneratedCase> AnyCase(const GenContext& context, const std::set<std::string>& names) {
  std::vector<std::pair<int, rc::Gen<GeneratedCase>>> choices;
  for (const FamilyInfo* family : ApplicableFamilies(context, names)) {
    // Named, so RapidCheck's own reports say which family a counterexample came from.
    choices.emplace_back(family->weight, family->generator(context).as(std::string(family->name)));
  }
  return detail::Pick(std::move(choices));
}

}  // namespace mcpfuzz::gen
