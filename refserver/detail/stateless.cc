#include "refserver/detail/stateless.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <utility>

#include "model/logging.h"
#include "model/request_builder.h"
#include "model/revision.h"
#include "model/subscription.h"
#include "model/text.h"
#include "refserver/detail/catalog.h"
#include "refserver/detail/http_rules.h"

namespace mcpfuzz::refserver::detail {
namespace {

constexpr std::string_view kStatelessVersion = "2026-07-28";
constexpr std::int64_t kCacheTtlMs = 60000;

// The ladder's working state for one message; `headers` is null on stdio.
struct Ladder {
  const FaultSet& faults;
  const Headers* headers;
  boost::json::value id;  // null until the message framed as a request

  Answer Fail(int status, std::int64_t code, std::string message,
              std::optional<boost::json::value> data = {}) const {
    return MessageAnswer(ErrorReply(id, RpcError{code, std::move(message), std::move(data)}),
                         status);
  }
  Answer HeaderMismatch(std::string detail) const {
    return Fail(400, -32020, "Header mismatch: " + detail);
  }
};

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// Header values arrive percent-decoded by the HTTP library, so they may hold any byte; a JSON
// reply must stay valid UTF-8 whatever it quotes.
std::string Quoted(std::string_view text) { return "'" + ToValidUtf8(text) + "'"; }

// Step 3: MCP-Protocol-Version against _meta.
std::optional<Answer> CheckVersionHeader(const Ladder& ladder, const boost::json::value* body) {
  std::vector<std::string_view> header = HeaderValues(*ladder.headers, kHeaderProtocolVersion);
  bool body_has_version = body != nullptr && body->is_string();
  if (header.empty()) {
    if (!body_has_version) return std::nullopt;
    return ladder.HeaderMismatch("required standard header MCP-Protocol-Version is missing");
  }
  if (ladder.faults.contains(Fault::kHeaderMismatchServed)) return std::nullopt;
  for (std::string_view value : header) {
    if (body_has_version && !HeaderCarries(value, body->get_string())) {
      return ladder.HeaderMismatch("MCP-Protocol-Version header value " + Quoted(value) +
                                   " does not match body value " + Quoted(body->get_string()));
    }
  }
  return std::nullopt;
}

// Step 4.
std::optional<Answer> CheckVersionSupported(const Ladder& ladder, const boost::json::value* body) {
  std::optional<std::string> requested;
  if (body != nullptr && body->is_string()) {
    requested = std::string(body->get_string());
  } else if (ladder.headers != nullptr) {
    auto header = HeaderValues(*ladder.headers, kHeaderProtocolVersion);
    if (!header.empty()) requested = ToValidUtf8(header.front());
  }
  if (!requested || *requested == kStatelessVersion) return std::nullopt;
  std::optional<boost::json::value> data;
  if (!ladder.faults.contains(Fault::kUnsupportedVersionNoData)) {
    data = boost::json::object{{"supported", SupportedVersions()}, {"requested", *requested}};
  }
  return ladder.Fail(400, -32022, "Unsupported protocol version", std::move(data));
}

// Step 5.
std::optional<Answer> CheckEnvelope(const Ladder& ladder, const boost::json::object& params) {
  const boost::json::value* meta_value = params.if_contains("_meta");
  const boost::json::object* meta = meta_value != nullptr ? meta_value->if_object() : nullptr;
  if (!ladder.faults.contains(Fault::kMissingMetaServed)) {
    // Naming the versions helps a handshake-era client that reached a stateless rule (V7).
    boost::json::object versions{{"supported", SupportedVersions()}};
    if (meta == nullptr) {
      return ladder.Fail(400, -32602,
                         "Invalid params: missing _meta with " + std::string(kMetaProtocolVersion),
                         versions);
    }
    const boost::json::value* version = meta->if_contains(kMetaProtocolVersion);
    if (version == nullptr || !version->is_string()) {
      return ladder.Fail(
          400, -32602, "Invalid params: _meta needs a string " + std::string(kMetaProtocolVersion),
          versions);
    }
    const boost::json::value* capabilities = meta->if_contains(kMetaClientCapabilities);
    if (capabilities == nullptr || !capabilities->is_object()) {
      return ladder.Fail(
          400, -32602,
          "Invalid params: _meta needs an object " + std::string(kMetaClientCapabilities));
    }
  }
  const boost::json::value* level = meta != nullptr ? meta->if_contains(kMetaLogLevel) : nullptr;
  if (level != nullptr && (!level->is_string() || !LogLevelRank(level->get_string()))) {
    return ladder.Fail(400, -32602, "Invalid params: unknown io.modelcontextprotocol/logLevel");
  }
  return std::nullopt;
}

// Step 6.
std::optional<Answer> CheckStandardHeaders(const Ladder& ladder, const Call& call) {
  const bool ignore_mismatch = ladder.faults.contains(Fault::kHeaderMismatchServed);
  auto methods = HeaderValues(*ladder.headers, kHeaderMethod);
  if (methods.empty()) {
    return ladder.HeaderMismatch("required standard header Mcp-Method is missing");
  }
  for (std::string_view value : methods) {
    bool same = ladder.faults.contains(Fault::kMethodHeaderCaseInsensitive)
                    ? EqualsIgnoringCase(value, call.method)
                    : HeaderCarries(value, call.method);
    if (!same && !ignore_mismatch) {
      return ladder.HeaderMismatch("Mcp-Method header value " + Quoted(value) +
                                   " does not match body value " + Quoted(call.method));
    }
  }
  std::string_view name_param = NameParamFor(call.method);
  const boost::json::value* body_name =
      name_param.empty() ? nullptr : call.params.if_contains(name_param);
  // A missing or non-string name is the handler's -32602, not a header problem.
  if (body_name == nullptr || !body_name->is_string()) return std::nullopt;
  auto names = HeaderValues(*ladder.headers, kHeaderName);
  if (names.empty()) return ladder.HeaderMismatch("required standard header Mcp-Name is missing");
  for (std::string_view value : names) {
    std::optional<std::string> decoded = DecodeHeaderValue(value);
    if (!decoded) {
      return ladder.HeaderMismatch("Mcp-Name header value " + Quoted(value) +
                                   " is not valid =?base64?...?= encoding");
    }
    if (!HeaderCarries(*decoded, body_name->get_string()) && !ignore_mismatch) {
      return ladder.HeaderMismatch("Mcp-Name header value " + Quoted(*decoded) +
                                   " does not match body value " + Quoted(body_name->get_string()));
    }
  }
  return std::nullopt;
}

bool IsCacheable(std::string_view method) {
  return method == "server/discover" || method == "resources/read" || method.ends_with("/list");
}

// resultType first, as the spec's examples put it.
boost::json::object Decorate(const FaultSet& faults, const boost::json::object& server_info,
                             std::string_view method, boost::json::object result) {
  boost::json::object decorated;
  if (!faults.contains(Fault::kMissingResultType)) decorated["resultType"] = "complete";
  for (auto& member : result) decorated[member.key()] = std::move(member.value());
  if (IsCacheable(method)) {
    decorated["ttlMs"] = kCacheTtlMs;
    decorated["cacheScope"] = "public";
  }
  decorated["_meta"] = boost::json::object{{kMetaServerInfo, server_info}};
  return decorated;
}

// Methods 2026-07-28 removed (tables §4b V6); removed-methods-served still answers them the
// way the handshake era did.
bool IsRemovedMethod(std::string_view method) {
  return method == "initialize" || method == "ping" || method == "logging/setLevel" ||
         method == "resources/subscribe" || method == "resources/unsubscribe";
}

MethodReply ServeRemoved(std::string_view method, const boost::json::object& server_info) {
  if (method != "initialize") return {boost::json::object{}};
  return {boost::json::object{{"protocolVersion", ToString(Revision::k2026_07_28)},
                              {"capabilities", ServerCapabilities(Era::kStateless)},
                              {"serverInfo", server_info}}};
}

MethodReply Discover() {
  return {boost::json::object{{"supportedVersions", SupportedVersions()},
                              {"capabilities", ServerCapabilities(Era::kStateless)},
                              {"instructions", ServerInstructions()}}};
}

// What a served request's stream carries before its result: a notifications/message at info when
// the request asked for log messages at info or below (tables §4b V11), and one
// notifications/progress when it gave a progressToken (§4a L10). log-level-ignored sends the
// message whatever the request asked for; progress-unrequested sends progress, with a token of
// its own, to a request that gave none.
std::vector<boost::json::value> RelatedNotifications(const FaultSet& faults, const Call& call) {
  std::vector<boost::json::value> notifications;
  const boost::json::value* meta_value = call.params.if_contains("_meta");
  const boost::json::object* meta = meta_value != nullptr ? meta_value->if_object() : nullptr;
  const boost::json::value* level = meta != nullptr ? meta->if_contains(kMetaLogLevel) : nullptr;
  const std::optional<std::size_t> wanted =
      level != nullptr && level->is_string() ? LogLevelRank(level->get_string()) : std::nullopt;
  if (faults.contains(Fault::kLogLevelIgnored) || (wanted && *wanted <= *LogLevelRank("info"))) {
    notifications.push_back(ServingLogMessage(call.method));
  }
  const std::optional<boost::json::value> token = ProgressTokenOf(call);
  if (token || faults.contains(Fault::kProgressUnrequested)) {
    notifications.push_back(
        ProgressNotification(token.value_or(boost::json::value("mcpfuzz-refserver"))));
  }
  return notifications;
}

// subscriptions/listen (tables §4b V17, §10 X22). This server declares no listChanged and no
// resources.subscribe, so it honors none of what a filter asks for: it acknowledges an empty
// subset, then ends the subscription at once with the closing result, as SDK v2 does when
// nothing is left to deliver.
Answer Listen(const FaultSet& faults, const boost::json::object& server_info, const Call& call) {
  const boost::json::value* filter = call.params.if_contains("notifications");
  if (filter == nullptr || !filter->is_object()) {
    return MessageAnswer(
        ToReply(*call.id, {RpcError{-32602,
                                    "Invalid params: notifications must be a SubscriptionFilter "
                                    "object",
                                    std::nullopt}}),
        200);
  }
  const boost::json::object stamp{{kMetaSubscriptionId, *call.id}};
  boost::json::object closing{{"_meta", boost::json::object{{kMetaSubscriptionId, *call.id},
                                                            {kMetaServerInfo, server_info}}}};
  if (!faults.contains(Fault::kMissingResultType)) closing.emplace("resultType", "complete");
  Answer answer = MessageAnswer(ToReply(*call.id, {std::move(closing)}), 200);
  if (!faults.contains(Fault::kListenUnacknowledged)) {
    answer.notifications.push_back(boost::json::object{
        {"jsonrpc", "2.0"},
        {"method", kAcknowledgedMethod},
        {"params",
         boost::json::object{{"notifications", boost::json::object{}}, {"_meta", stamp}}}});
  }
  return answer;
}

Answer Run(const FaultSet& faults, const boost::json::object& server_info, const Headers* headers,
           const boost::json::value& body) {
  Ladder ladder{faults, headers, nullptr};
  const bool http = headers != nullptr;
  // Step 2.
  if (body.is_array()) {
    return ladder.Fail(400, -32600, "Invalid Request: batches are not supported in 2026-07-28");
  }
  Framed framed = Frame(body, faults.contains(Fault::kInvalidRequestAccepted));
  if (framed.kind == Framed::Kind::kInvalid) return MessageAnswer(framed.error_reply, 400);
  if (framed.kind == Framed::Kind::kClientResponse) {
    if (!http) return Answer{};
    return ladder.Fail(400, -32600, "Invalid Request: clients send no responses in 2026-07-28");
  }
  const Call& call = framed.call;
  if (call.id) ladder.id = *call.id;
  const bool silent = call.is_notification() && !http;

  const boost::json::value* meta = call.params.if_contains("_meta");
  const boost::json::value* body_version =
      (meta != nullptr && meta->is_object()) ? meta->get_object().if_contains(kMetaProtocolVersion)
                                             : nullptr;
  std::optional<Answer> failure;
  if (http) failure = CheckVersionHeader(ladder, body_version);
  if (!failure) failure = CheckVersionSupported(ladder, body_version);
  if (!failure) failure = CheckEnvelope(ladder, call.params);
  if (failure) return silent ? Answer{} : *failure;

  if (call.is_notification()) return NotificationAnswer(faults, true);
  if (http) failure = CheckStandardHeaders(ladder, call);
  if (failure) return *failure;

  if (call.method == kListenMethod) return Listen(faults, server_info, call);
  MethodReply reply;
  if (call.method == "server/discover") {
    reply = Discover();
  } else if (IsCatalogMethod(call.method)) {
    reply = CallCatalog(faults, Revision::k2026_07_28, call.method, call.params);
  } else if (faults.contains(Fault::kRemovedMethodsServed) && IsRemovedMethod(call.method)) {
    reply = ServeRemoved(call.method, server_info);
  } else {
    int status = faults.contains(Fault::kUnknownMethod200) ? 200 : 404;
    Answer answer = ladder.Fail(status, -32601, "Method not found: " + call.method);
    if (faults.contains(Fault::kExitAfterInitialize)) answer.action = Action::kExit;
    return answer;
  }
  if (auto* result = std::get_if<boost::json::object>(&reply.reply)) {
    *result = Decorate(faults, server_info, call.method, std::move(*result));
  }
  Answer answer;
  if (const auto* page = std::get_if<RawPage>(&reply.reply)) {
    answer.raw = *page;
    answer.http_status = page->http_status;
  } else if (reply.action != Action::kHang) {
    answer = MessageAnswer(ToReply(*call.id, reply), 200);
    if (std::holds_alternative<boost::json::object>(reply.reply)) {
      answer.notifications = RelatedNotifications(faults, call);
    }
  }
  answer.action = reply.action;
  if (answer.action == Action::kNone && faults.contains(Fault::kExitAfterInitialize)) {
    answer.action = Action::kExit;
  }
  return answer;
}

}  // namespace

boost::json::array SupportedVersions() {
  boost::json::array versions;
  for (auto revision = kAllRevisions.rbegin(); revision != kAllRevisions.rend(); ++revision) {
    versions.emplace_back(ToString(*revision));
  }
  return versions;
}

Answer HandleStatelessHttp(const FaultSet& faults, const boost::json::object& server_info,
                           const Headers& headers, const boost::json::value& body) {
  return Run(faults, server_info, &headers, body);
}

Answer HandleStatelessStdio(const FaultSet& faults, const boost::json::object& server_info,
                            const boost::json::value& message) {
  return Run(faults, server_info, nullptr, message);
}

}  // namespace mcpfuzz::refserver::detail
