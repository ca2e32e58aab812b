// Every case breaks exactly one rule (issue #13, item 4). For every request the checklist sends,
// every generator family's cases (fixed seed, bounded count) and the libFuzzer case spec's
// rules, the rule the case names (its check id) is repaired, and nothing else; the conformant
// reference server must then serve the repaired request, which must carry only JSON-RPC's
// members. A case whose repaired form is still refused broke a second rule, and a server
// answering that second rule would be misjudged as answering the first.
//
// Header rule of the repair: a header that mirrors a body member (Mcp-Method, Mcp-Name) is
// updated only when the case sent it; a case that left it out broke that rule too. The one
// exception is a tools/call whose name has no text (absent, null, an array, an object) in
// 2026-07-28 over HTTP: no Mcp-Name could have mirrored it (tables X11), so the repair adds it.

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <boost/json.hpp>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "checks/checks.h"
#include "fuzz-targets/harness.h"
#include "generators/generators.h"
#include "model/json_depth.h"
#include "model/model.h"
#include "model/request_edit.h"
#include "model/text.h"
#include "oracles/check_ids.h"
#include "refserver/refserver.h"
#include "support/reference_server.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;

// What the reference server has (refserver/detail/catalog.cc).
constexpr std::string_view kRealTool = "fail_upstream";  // takes {}: its answer is always a result
constexpr std::string_view kRealPrompt = "greeting";
constexpr std::string_view kRealUri = "mcpfuzz://readme";

// Checks whose one rule no mechanical repair undoes, and why. Their cases are counted under
// the reason and printed, not silently dropped.
const std::map<std::string_view, std::string_view>& Unrepairable() {
  static const std::map<std::string_view, std::string_view> reasons = {
      {check::kNotAnObject, "the whole message is a scalar: nothing of the request is left"},
      {check::kBatchAccepted, "the batch is the subject: no one member of it is broken"},
      {check::kBatchRejected, "the batch is the subject: no one member of it is broken"},
      {check::kBatchEmpty, "the batch is the subject: no one member of it is broken"},
      {check::kToolArgumentsNotObject,
       "sent to a tool that cannot exist so that no real tool runs (read-only by design); an "
       "unknown tool and non-object arguments both get -32602 (tables T1, T3), so the second "
       "rule cannot change the expected answer"},
      {check::kInitialize, "about the handshake itself: a fresh session, not a request on one"},
      {check::kPingBeforeInit, "about the handshake's order: several requests on a new session"},
      {check::kRequestBeforeInit, "about the handshake's order: several requests on a new session"},
      {check::kPing, "a well-formed ping: the session's state is the subject, nothing is broken"},
      {check::kProgressAfterResponse,
       "a well-formed ping after a request with a progressToken: the session's progress is the "
       "subject"},
      {check::kCursorReused,
       "a cursor the list handed out, sent again: the session's pagination is the subject"},
      {check::kUnsubscribe,
       "a well-formed unsubscribe after a subscribe: the session's subscriptions are the "
       "subject"},
      {check::kSessionLogLevel,
       "a well-formed ping after logging/setLevel: the session's level is the subject"},
      {check::kReinitialize, "about the handshake's order: a second initialize in a session"},
      {check::kSessionDelete, "the HTTP method DELETE is the subject, not a broken rule"},
      {check::kHttpGet, "the HTTP method GET is the subject, not a broken rule"},
      {check::kNoEarlyExit,
       "valid JSON at a parser's limits (RFC 8259 §9 lets it refuse): no rule to repair, only "
       "the process's survival is owed"},
      {check::kKeepsAnswering, "judges the process after hostile input, not one request"},
      {check::kStdoutOnlyJsonRpc, "judges everything stdout carried, not one request"},
  };
  return reasons;
}

constexpr std::string_view kBodiless =
    "a GET or DELETE a check sends (the event stream, ending a session): no request body, "
    "and the HTTP method is its subject";
// A parse-error case is repaired only when its bytes are JSON once the bytes that are not
// UTF-8 are read as U+FFFD; any other syntax break (a truncation, garbage, an open string, a
// raw control character) has no one way back, and is counted here.
constexpr std::string_view kUnrepairableSyntax =
    "a syntax break other than invalid UTF-8 has no mechanical inverse";

bool Stateless(const Request& request) { return EraOf(request.revision) == Era::kStateless; }
bool HeaderBound(const Request& request) {
  return Stateless(request) && request.transport == kHttp;
}

json::object* ParamsOf(Request& request) {
  auto* params = BodyObject(request).if_contains("params");
  return params != nullptr && params->is_object() ? &params->as_object() : nullptr;
}

void UpdateHeaderIfSent(Request& request, std::string_view name, std::string_view value) {
  if (request.transport == kHttp && FindHeader(request.headers, name)) {
    SetHeader(request.headers, name, value);
  }
}

// The method a harmless request of the era uses: it reads nothing and needs no params.
std::string HarmlessMethod(const Request& request) {
  return Stateless(request) ? "server/discover" : "ping";
}

void SetMethod(Request& request, const std::string& method) {
  BodyObject(request)["method"] = method;
  UpdateHeaderIfSent(request, kHeaderMethod, method);
}

// params with only what a request of the era needs: _meta in 2026-07-28.
void ResetParams(Request& request) {
  json::object& body = BodyObject(request);
  if (Stateless(request)) {
    body["params"] = json::object{{"_meta", StatelessMeta(request.revision)}};
  } else {
    body.erase("params");
  }
}

void SetNamed(Request& request, std::string_view member, std::string_view value) {
  Params(request)[member] = value;
  UpdateHeaderIfSent(request, kHeaderName, EncodeHeaderValue(value));
}

// Cases that break a second rule on purpose, each with the reason the attribution stays
// honest. They are repaired and sent like any other, counted under their reason.
constexpr std::string_view kImpossibleCarrier =
    "the Mcp-Name checks call a tool that cannot exist (read-only by design): the repaired "
    "request must pass the header step and reach dispatch, whose in-band -32602 (HTTP 200) "
    "cannot be taken for the header rule's 400/-32020";
constexpr std::string_view kImpossibleTool =
    "limits.deep-nesting in a tool's arguments calls a tool that cannot exist (read-only by "
    "design): with its nesting cut, the request must reach dispatch and get the unknown tool's "
    "-32602, which no parser limit gives";
constexpr std::string_view kImpossibleName =
    "limits.oversized-request's long method or tool name names a method or tool that cannot "
    "exist (read-only by design): cut to its shortest, the request must reach dispatch and get "
    "the unknown method's -32601 or the unknown tool's -32602, which no size limit gives";
constexpr std::string_view kNoVersionHeader =
    "meta.missing without MCP-Protocol-Version lacks X6's header too, on purpose: its row "
    "accepts the answer of either reading (tables §10 X6, §12.6), and the repair restores both";

// The request with the one rule of `check_id` repaired, or the reason it cannot be.
struct Repair {
  std::optional<Request> request;
  std::string_view unrepairable;
  /// Non-empty: the case breaks a second rule on purpose (kImpossibleCarrier, kImpossibleTool,
  /// kImpossibleName, kNoVersionHeader).
  std::string_view second_rule;
};

// Valid arguments of the reference server's tools, for tools.bad-arguments cases without a
// control request (the checklist's args probe).
json::object ValidArguments(std::string_view tool) {
  if (tool == "echo") return {{"message", "mcpfuzz"}};
  if (tool == "add") return {{"a", 1}, {"b", 2}};
  return {};
}

Repair RepairRule(std::string_view id, Request request) {
  if (auto reason = Unrepairable().find(id); reason != Unrepairable().end()) {
    return {std::nullopt, reason->second, {}};
  }
  if (id == check::kParseError) {
    const std::string bytes = request.WireBody();
    if (IsValidUtf8(bytes) || !ParseJson(ToValidUtf8(bytes)))
      return {std::nullopt, kUnrepairableSyntax, {}};
    request.body = RawBody{ToValidUtf8(bytes)};
    return {request, {}, {}};
  }
  if (id == check::kDeepNesting) {
    // The depth is the one rule: the same request with every value deeper than a parser's
    // usual limits cut to null.
    const std::optional<std::string> shallow = WithoutDeepNesting(request.WireBody(), 16);
    std::optional<json::value> value = shallow ? ParseJson(*shallow) : std::nullopt;
    if (!value) return {std::nullopt, "the nested text is not one JSON value", {}};
    request.body = std::move(*value);
    if (request.RpcMethod() == "tools/call") return {request, {}, kImpossibleTool};
    return {request, {}, {}};
  }
  // Unusual but valid JSON (blanks around the message, escapes) is the same message: edit it
  // as a value.
  if (std::holds_alternative<RawBody>(request.body)) {
    if (auto json = ParseJson(request.WireBody())) request.body = std::move(*json);
  }
  const std::optional<std::string> method = request.RpcMethod();
  if (id == check::kMissingJsonrpc || id == check::kWrongJsonrpc) {
    BodyObject(request)["jsonrpc"] = "2.0";
  } else if (id == check::kMissingMethod) {
    // Over 2026-07-28 HTTP the method still stands in Mcp-Method.
    const auto header = FindHeader(request.headers, kHeaderMethod);
    BodyObject(request)["method"] = header ? std::string(*header) : HarmlessMethod(request);
  } else if (id == check::kIdNull || id == check::kIdFloat || id == check::kIdBool ||
             id == check::kIdObject) {
    BodyObject(request)["id"] = 1;
  } else if (id == check::kParamsNotObject) {
    ResetParams(request);
  } else if (id == check::kUnknownMethod || id == check::kRemovedMethod ||
             id == check::kCapabilityUnadvertised) {
    SetMethod(request, HarmlessMethod(request));
    ResetParams(request);
  } else if (id == check::kOversizedRequest) {
    // The size is the one rule: every value the limits family grows is cut to its shortest (a
    // long id or _meta is served as it is).
    RemoveHeader(request.headers, "X-Mcpfuzz-Padding");
    if (method && method->starts_with("mcpfuzz/")) {
      SetMethod(request, "mcpfuzz/a");
      return {request, {}, kImpossibleName};
    }
    const json::object* params = ParamsOf(request);
    const json::value* name = params != nullptr ? params->if_contains("name") : nullptr;
    if (method == "tools/call" && name != nullptr && name->is_string()) {
      SetNamed(request, "name", "mcpfuzz_no_such_tool_a");
      return {request, {}, kImpossibleName};
    }
  } else if (id == check::kUnknownNameConsistent) {
    // A prototype-shaped or random name that no tool, prompt or resource has: the real one.
    if (method == "tools/call") {
      SetNamed(request, "name", kRealTool);
      Params(request)["arguments"] = json::object{};
    } else if (method == "prompts/get") {
      SetNamed(request, "name", kRealPrompt);
      Params(request)["arguments"] = json::object{{"name", "mcpfuzz"}};
    } else if (method == "resources/read") {
      SetNamed(request, "uri", kRealUri);
    }
  } else if (id == check::kUnknownTool) {
    // The arguments were meant for no tool: the real one takes {}.
    SetNamed(request, "name", kRealTool);
    Params(request)["arguments"] = json::object{};
  } else if (id == check::kToolMissingName) {
    const json::object* params = ParamsOf(request);
    const json::value* name = params != nullptr ? params->if_contains("name") : nullptr;
    // A number or a boolean has a text Mcp-Name can carry (X15), so a case that left the header
    // out broke X11 too; an absent, null or container name has none, so no header could have
    // been right and the repair adds it.
    const bool has_text = name != nullptr && (name->is_number() || name->is_bool());
    SetNamed(request, "name", kRealTool);
    if (HeaderBound(request) && !has_text) SetHeader(request.headers, kHeaderName, kRealTool);
  } else if (id == check::kToolBadArguments) {
    const json::object* params = ParamsOf(request);
    const json::value* tool = params != nullptr ? params->if_contains("name") : nullptr;
    Params(request)["arguments"] =
        ValidArguments(tool != nullptr && tool->is_string() ? tool->as_string() : "");
  } else if (id == check::kUnknownResource) {
    SetNamed(request, "uri", kRealUri);
  } else if (id == check::kUnknownPrompt || id == check::kPromptMissingArguments) {
    SetNamed(request, "name", kRealPrompt);
    Params(request)["arguments"] = json::object{{"name", "mcpfuzz"}};
  } else if (id == check::kInvalidCursor) {
    if (json::object* params = ParamsOf(request)) params->erase("cursor");
  } else if (id == check::kInvalidLogLevel) {
    if (method == "logging/setLevel") Params(request)["level"] = "info";
    if (Stateless(request)) Meta(request)["io.modelcontextprotocol/logLevel"] = "info";
  } else if (id == check::kMetaMissing || id == check::kMetaPartial ||
             id == check::kVersionUnsupported) {
    json::object meta = StatelessMeta(request.revision);
    Meta(request) = std::move(meta);
    UpdateHeaderIfSent(request, kHeaderProtocolVersion, ToString(request.revision));
    if (id == check::kMetaMissing && request.transport == kHttp &&
        !FindHeader(request.headers, kHeaderProtocolVersion)) {
      SetHeader(request.headers, kHeaderProtocolVersion, ToString(request.revision));
      return {request, {}, kNoVersionHeader};
    }
  } else if (id == check::kInitializeUnsupportedVersion) {
    // An initialize opens a session: it never carries one.
    Params(request)["protocolVersion"] = ToString(request.revision);
    RemoveHeader(request.headers, kHeaderSessionId);
    request.session = SessionBinding::kOmit;
  } else if (id == check::kProtocolVersionHeaderMismatch ||
             id == check::kProtocolVersionHeaderInvalid ||
             id == check::kProtocolVersionHeaderMissing) {
    // The rule is that header and body agree on a supported version: both say the revision.
    SetHeader(request.headers, kHeaderProtocolVersion, ToString(request.revision));
    if (Stateless(request)) Meta(request)[kMetaProtocolVersion] = ToString(request.revision);
  } else if (id == check::kMethodHeaderMissing || id == check::kMethodHeaderMismatch ||
             id == check::kMethodHeaderCase) {
    SetHeader(request.headers, kHeaderMethod, method.value_or(""));
  } else if (id == check::kNameHeaderMissing || id == check::kNameHeaderMismatch) {
    const json::object* params = ParamsOf(request);
    const std::string_view member = NameParamFor(method.value_or(""));
    const json::value* name = params != nullptr ? params->if_contains(member) : nullptr;
    if (name != nullptr && name->is_string()) {
      SetHeader(request.headers, kHeaderName, EncodeHeaderValue(name->as_string()));
    }
    return {request, {}, kImpossibleCarrier};
  } else if (id == check::kNameHeaderBase64 || id == check::kNameHeaderWhitespace) {
    return {request, {}, kImpossibleCarrier};
  } else if (id == check::kSessionMissing || id == check::kSessionUnknown) {
    RemoveHeader(request.headers, kHeaderSessionId);
    request.session = SessionBinding::kAttach;
  } else if (id == check::kOriginInvalid) {
    RemoveHeader(request.headers, "Origin");
    RemoveHeader(request.headers, "Host");
  } else if (id == check::kAcceptMissing) {
    SetHeader(request.headers, "Accept", "application/json, text/event-stream");
  } else if (id == check::kContentTypeWrong) {
    SetHeader(request.headers, "Content-Type", "application/json");
  }
  // The rest name a rule the request keeps (meta.client-info-optional, discover.result,
  // notifications.no-reply): served as it is.
  return {request, {}, {}};
}

// Served: a result (a tool's isError included, since the tool ran), or no reply for a
// notification. A request carried by an impossible name is served when it reaches dispatch.
bool Served(const Request& request, const Observation& observation, const Repair& repair) {
  const Reply reply = ClassifyReply(request, observation);
  if (request.IsNotification()) return reply.channel == Channel::kNoReply;
  if (repair.second_rule == kImpossibleTool) {
    return reply.channel == Channel::kProtocolError && reply.error_code == -32602;
  }
  if (repair.second_rule == kImpossibleName) {
    return reply.channel == Channel::kProtocolError &&
           reply.error_code == (request.RpcMethod() == "tools/call" ? -32602 : -32601);
  }
  if (repair.second_rule == kImpossibleCarrier) {
    return reply.channel == Channel::kProtocolError && reply.error_code == -32602 &&
           observation.http_status == 200;
  }
  return reply.channel == Channel::kSuccess || reply.channel == Channel::kExecutionError;
}

Observation FirstLineToFreshServer(const Request& request) {
  refserver::ReferenceServer fresh;
  Observation observation;
  for (const std::string& line : fresh.HandleStdioLine(request.WireBody()).lines) {
    observation.stdout_lines.push_back(line);
    if (auto json = ParseJson(line)) observation.messages.push_back(std::move(*json));
  }
  return observation;
}

struct Tally {
  int repaired = 0;
  std::map<std::string_view, int> unrepairable;  // reason → cases
  std::map<std::string_view, int> second_rule;   // reason → cases
  std::set<std::string> checks_seen;
};

// Repairs `broken` (judged as `check_id`) and sends the repair to the conformant reference
// server; `control` is the case's well-formed request, the only source of a valid value the
// request itself does not carry (tools.bad-arguments: the schema's).
void ExpectOneRule(fuzzing::InProcessServer& server, std::string_view check_id,
                   const Request& broken, const std::optional<Request>& control,
                   const std::string& label, Tally& tally) {
  tally.checks_seen.insert(std::string(check_id));
  Repair repair = RepairRule(check_id, broken);
  if (check_id == check::kToolBadArguments && control && repair.request) {
    Params(*repair.request)["arguments"] = control->BodyJson()->at("params").at("arguments");
  }
  if (!repair.request) {
    ++tally.unrepairable[repair.unrepairable];
    return;
  }
  if (!repair.second_rule.empty()) ++tally.second_rule[repair.second_rule];
  std::optional<Observation> observation;
  if (repair.request->transport == kStdio && repair.request->RpcMethod() == "initialize") {
    // A stdio initialize is a connection's first line: a fresh server gets it.
    observation = FirstLineToFreshServer(*repair.request);
  } else {
    fuzzing::FuzzCase sent;
    sent.request = *repair.request;
    sent.check_id = std::string(check::kDiscoverResult);
    std::optional<fuzzing::Judged> judged = server.Send(sent);
    ASSERT_TRUE(judged) << "no session opened for " << label;
    observation = std::move(judged->observation);
  }
  ++tally.repaired;
  // JSON-RPC 2.0 §4 gives a request four members; strict servers (the TypeScript SDK v2)
  // refuse any other with -32600, so an extra one is a second broken rule.
  if (const auto body = repair.request->BodyJson(); body && body->is_object()) {
    for (const auto& member : body->as_object()) {
      const std::string_view key = member.key();
      EXPECT_TRUE(key == "jsonrpc" || key == "id" || key == "method" || key == "params")
          << label << " [" << check_id << "] adds the top-level member \"" << key << "\"";
    }
  }
  EXPECT_TRUE(Served(*repair.request, *observation, repair))
      << label << " [" << check_id << "] still refused once its rule is repaired, so it breaks "
      << "another:\n  broken:   " << broken.WireBody().substr(0, 300)
      << "\n  repaired: " << repair.request->WireBody().substr(0, 300) << "\n  headers:  " <<
      [&] {
        std::string text;
        for (const Header& header : repair.request->headers) {
          text += header.name + ": " + header.value + "; ";
        }
        return text;
      }()
      << "\n  answer:   "
      << DescribeReply(ClassifyReply(*repair.request, *observation), *observation);
}

void Print(const Tally& tally) {
  std::cout << "  repaired and served: " << tally.repaired << " cases\n";
  for (const auto& [reason, count] : tally.unrepairable) {
    std::cout << "  not repaired (" << count << " cases): " << reason << "\n";
  }
  for (const auto& [reason, count] : tally.second_rule) {
    std::cout << "  a second rule by design (" << count << " cases): " << reason << "\n";
  }
}

// --- the generator families ------------------------------------------------------------------

GenContext ReferenceContext(Revision revision, TransportKind transport) {
  GenContext context;
  context.revision = revision;
  context.transport = transport;
  context.capabilities = {
      {"tools", json::object{}}, {"prompts", json::object{}}, {"resources", json::object{}}};
  if (EraOf(revision) == Era::kHandshake) context.capabilities["logging"] = json::object{};
  auto schema = [](const char* text) { return json::parse(text).as_object(); };
  context.tools = {
      {"echo", schema(R"({"type":"object","properties":{"message":{"type":"string"}},
                          "required":["message"]})")},
      {"add", schema(R"({"type":"object","properties":{"a":{"type":"number"},
                         "b":{"type":"number"}},"required":["a","b"]})")},
      {"fail_upstream", schema(R"({"type":"object","properties":{}})")},
  };
  context.prompts = {std::string(kRealPrompt)};
  context.resource_uris = {std::string(kRealUri)};
  context.session_assigned = transport == kHttp && EraOf(revision) == Era::kHandshake;
  context.call_real_tools = true;
  return context;
}

TEST(OneRule, EveryGeneratedCaseIsServedOnceItsRuleIsRepaired) {
  fuzzing::InProcessServer server;
  Tally tally;
  std::set<std::string> families;
  for (Revision revision : kAllRevisions) {
    for (TransportKind transport : {kHttp, kStdio}) {
      const GenContext context = ReferenceContext(revision, transport);
      std::set<std::string> names;
      for (const gen::FamilyInfo& family : gen::AllFamilies()) names.emplace(family.name);
      for (const gen::FamilyInfo* family : gen::ApplicableFamilies(context, names)) {
        families.emplace(family->name);
        // A sequence's steps are well-formed: the order is the subject (sequences_test).
        if (family->name == std::string_view("sequences")) continue;
        const rc::Gen<GeneratedCase> generator = family->generator(context);
        // The limits family's cases are megabytes each: fewer of them cover its variants.
        const int count = family->name == std::string_view("limits") ? 40 : 400;
        for (int k = 0; k < count; ++k) {
          GeneratedCase generated;
          try {
            generated = generator(rc::Random(1 + static_cast<std::uint64_t>(k)), k % 101).value();
          } catch (const std::exception& error) {
            ADD_FAILURE() << family->name << ": generation failed: " << error.what();
            continue;
          }
          std::ostringstream label;
          showValue(generated, label);
          ExpectOneRule(server, generated.check_id, generated.request, generated.well_formed,
                        label.str().substr(0, 200), tally);
        }
      }
    }
  }
  EXPECT_EQ(families.size(), gen::AllFamilies().size());
  EXPECT_GT(tally.repaired, 1000);
  Print(tally);
}

// --- the libFuzzer case spec ------------------------------------------------------------------

TEST(OneRule, EveryCaseSpecRuleIsServedOnceRepaired) {
  fuzzing::InProcessServer server;
  Tally tally;
  const fuzzing::KnownNames known{
      {"echo", "add", "fail_upstream"}, {std::string(kRealPrompt)}, {std::string(kRealUri)}};
  const std::vector<std::string> payloads = {"mcpfuzz_x", "{\"a\":", "Zq9", "\xC3\x28 tail",
                                             "notifications/mcpfuzz"};
  for (int rule = 0; rule < static_cast<int>(fuzzing::BrokenRule::kCount); ++rule) {
    for (std::size_t revision = 0; revision < kAllRevisions.size(); ++revision) {
      for (int transport : {0, 1}) {
        for (int variant = 0; variant < 4; ++variant) {
          for (const std::string& payload : payloads) {
            fuzzing::CaseSpec spec{
                static_cast<fuzzing::BrokenRule>(rule), static_cast<std::uint8_t>(revision),
                static_cast<std::uint8_t>(transport), static_cast<std::uint8_t>(variant), payload};
            const auto built = fuzzing::BuildCase(spec, fuzzing::SpecRevision(spec),
                                                  fuzzing::SpecTransport(spec), known);
            if (!built) continue;
            ExpectOneRule(server, built->check_id, built->request, std::nullopt,
                          std::string(fuzzing::ToString(spec.rule)) + " " + payload, tally);
          }
        }
      }
    }
  }
  EXPECT_GT(tally.repaired, 100);
  Print(tally);
}

// --- the checklist ---------------------------------------------------------------------------

TEST(OneRule, EveryCheckRequestIsServedOnceItsRuleIsRepaired) {
  fuzzing::InProcessServer server;
  Tally tally;
  for (TransportKind kind : {kHttp, kStdio}) {
    test_support::RefTarget target =
        test_support::StartRefServer(kind, {}, test_support::ReferenceServerLimits(3000ms, 50ms));
    checks::CheckOptions options;
    options.call_real_tools = true;
    const checks::CheckRun run = checks::RunChecks(target.connect, options);
    for (const checks::CheckResult& result : run.results) {
      for (const Exchange& exchange : result.exchanges) {
        if (exchange.request.http_method != "POST") {
          tally.checks_seen.insert(result.verdict.check_id);
          ++tally.unrepairable[kBodiless];
          continue;
        }
        // The listing before the args and prompt probes is well-formed: served as it is.
        const std::string& check_id = result.verdict.check_id;
        const std::optional<std::string> method = exchange.request.RpcMethod();
        const bool setup = (check_id == check::kToolBadArguments && method == "tools/list") ||
                           (check_id == check::kPromptMissingArguments && method == "prompts/list");
        const std::string id = setup ? std::string(check::kDiscoverResult) : check_id;
        ExpectOneRule(server, id, exchange.request, std::nullopt,
                      std::string(ToString(result.revision)) + " " + std::string(ToString(kind)) +
                          " " + result.verdict.check_id,
                      tally);
      }
    }
  }
  EXPECT_GT(tally.repaired, 40);
  // Every check's requests went through the repair, apart from the one that needs a client
  // capability this server never asks for (it sends nothing here).
  for (std::string_view id : check::kAll) {
    if (id == check::kClientCapabilityRequired) continue;
    EXPECT_TRUE(tally.checks_seen.contains(std::string(id))) << id << " sent nothing";
  }
  Print(tally);
}

}  // namespace
}  // namespace mcpfuzz
