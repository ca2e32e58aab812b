#include "model/request_builder.h"

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

#include "model/text.h"

namespace mcpfuzz {
namespace {

constexpr std::string_view kBase64Prefix = "=?base64?";
constexpr std::string_view kBase64Suffix = "?=";

bool NeedsBase64(std::string_view value) {
  if (value.empty()) return false;
  auto is_blank = [](char c) { return c == ' ' || c == '\t'; };
  if (is_blank(value.front()) || is_blank(value.back())) return true;
  for (char c : value) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte > 0x7E) return true;
  }
  return false;
}

void AddHttpHeaders(Request& request, std::string_view method) {
  request.headers.push_back({"Content-Type", "application/json"});
  request.headers.push_back({"Accept", "application/json, text/event-stream"});
  // A handshake-era initialize precedes the negotiated version, so it carries no header.
  const bool negotiating = method == "initialize" && EraOf(request.revision) == Era::kHandshake;
  if (HasProtocolVersionHeader(request.revision) && !negotiating) {
    request.headers.push_back(
        {std::string(kHeaderProtocolVersion), std::string(ToString(request.revision))});
  }
}

Request MakeMessage(Revision revision, TransportKind transport, std::string_view method,
                    boost::json::object params, const boost::json::value* id,
                    const ClientInfo& client) {
  Request request;
  request.transport = transport;
  request.revision = revision;
  const bool stateless = EraOf(revision) == Era::kStateless;
  if (stateless) params["_meta"] = StatelessMeta(revision, client);

  boost::json::object body;
  body["jsonrpc"] = "2.0";
  if (id != nullptr) body["id"] = *id;
  body["method"] = method;
  if (!params.empty()) body["params"] = std::move(params);

  if (transport == TransportKind::kHttp) {
    AddHttpHeaders(request, method);
    if (stateless) {
      request.headers.push_back({std::string(kHeaderMethod), std::string(method)});
      std::string_view name_param = NameParamFor(method);
      const auto* params_object = body.if_contains("params");
      if (!name_param.empty() && params_object != nullptr) {
        const auto* name = params_object->as_object().if_contains(name_param);
        if (name != nullptr && name->is_string()) {
          request.headers.push_back(
              {std::string(kHeaderName), EncodeHeaderValue(name->as_string())});
        }
      }
    }
  }
  request.body = boost::json::value(std::move(body));
  return request;
}

}  // namespace

boost::json::object StatelessMeta(Revision revision, const ClientInfo& client) {
  boost::json::object meta;
  meta[kMetaProtocolVersion] = ToString(revision);
  meta[kMetaClientCapabilities] = boost::json::object{};
  meta[kMetaClientInfo] = {{"name", client.name}, {"version", client.version}};
  return meta;
}

std::string EncodeHeaderValue(std::string_view value) {
  if (!NeedsBase64(value)) return std::string(value);
  return std::string(kBase64Prefix) + Base64Encode(value) + std::string(kBase64Suffix);
}

std::optional<std::string> DecodeHeaderValue(std::string_view value) {
  if (!value.starts_with(kBase64Prefix)) return std::string(value);
  if (!value.ends_with(kBase64Suffix) ||
      value.size() < kBase64Prefix.size() + kBase64Suffix.size()) {
    return std::nullopt;
  }
  value.remove_prefix(kBase64Prefix.size());
  value.remove_suffix(kBase64Suffix.size());
  return Base64Decode(value);
}

std::string_view NameParamFor(std::string_view method) {
  if (method == "tools/call" || method == "prompts/get") return "name";
  if (method == "resources/read") return "uri";
  return "";
}

Request MakeRequest(Revision revision, TransportKind transport, std::string_view method,
                    boost::json::object params, boost::json::value id, const ClientInfo& client) {
  return MakeMessage(revision, transport, method, std::move(params), &id, client);
}

Request MakeNotification(Revision revision, TransportKind transport, std::string_view method,
                         boost::json::object params, const ClientInfo& client) {
  return MakeMessage(revision, transport, method, std::move(params), nullptr, client);
}

Request MakeInitialize(Revision revision, TransportKind transport, boost::json::value id,
                       const ClientInfo& client) {
  boost::json::object params;
  params["protocolVersion"] = ToString(revision);
  params["capabilities"] = boost::json::object{};
  params["clientInfo"] = {{"name", client.name}, {"version", client.version}};
  return MakeRequest(revision, transport, "initialize", std::move(params), std::move(id), client);
}

std::vector<Request> MakeHttpOpening(Revision revision) {
  Request open = MakeInitialize(revision, TransportKind::kHttp, 0);
  open.session = SessionBinding::kOmit;
  return {std::move(open),
          MakeNotification(revision, TransportKind::kHttp, "notifications/initialized")};
}

Request MakeBodyless(Revision revision, std::string_view http_method) {
  Request request;
  request.transport = TransportKind::kHttp;
  request.revision = revision;
  request.http_method = std::string(http_method);
  request.headers.push_back({"Accept", "text/event-stream"});
  if (HasProtocolVersionHeader(revision)) {
    request.headers.push_back(
        {std::string(kHeaderProtocolVersion), std::string(ToString(revision))});
  }
  return request;
}

std::string_view HarmlessMethod(Revision revision) {
  return EraOf(revision) == Era::kStateless ? "server/discover" : "ping";
}

Request MakeHarmless(Revision revision, TransportKind transport, boost::json::value id) {
  return MakeRequest(revision, transport, HarmlessMethod(revision), {}, std::move(id));
}

namespace {
constexpr std::string_view kSentinelPrefix = "mcpfuzz-sentinel-";
}  // namespace

Request MakeSentinel(Revision revision, TransportKind transport, std::size_t serial) {
  return MakeHarmless(revision, transport,
                      boost::json::string(std::string(kSentinelPrefix) + std::to_string(serial)));
}

bool IsSentinelId(const boost::json::value& id) {
  return id.is_string() && id.as_string().starts_with(kSentinelPrefix);
}

Request SentinelAfter(const std::vector<Request>& requests, Revision revision,
                      TransportKind transport) {
  std::size_t next = 1;
  for (const Request& request : requests) {
    const std::optional<boost::json::value> id = request.RpcId();
    if (!id || !IsSentinelId(*id)) continue;
    const std::string_view serial =
        std::string_view(id->as_string()).substr(kSentinelPrefix.size());
    std::size_t number = 0;
    const auto [end, error] = std::from_chars(serial.data(), serial.data() + serial.size(), number);
    if (error == std::errc() && end == serial.data() + serial.size() && number >= next) {
      next = number + 1;
    }
  }
  return MakeSentinel(revision, transport, next);
}

}  // namespace mcpfuzz
