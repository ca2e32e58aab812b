#include "transport/client.h"

#include "model/text.h"

namespace mcpfuzz {
namespace {

const boost::json::object* ResultObject(const Reply& reply) {
  if (reply.channel != Channel::kSuccess || !reply.message) return nullptr;
  const auto* result = reply.message->as_object().if_contains("result");
  return result != nullptr && result->is_object() ? &result->as_object() : nullptr;
}

// At most kServerInfoCap bytes of the string member `key`, never ending inside a character.
std::string CappedMember(const boost::json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  return value != nullptr && value->is_string()
             ? std::string(Utf8Prefix(value->as_string(), kServerInfoCap))
             : std::string();
}

}  // namespace

std::optional<ServerInfo> ServerInfoOf(const boost::json::object& result, Era era) {
  const boost::json::value* info = nullptr;
  if (era == Era::kHandshake) {
    info = result.if_contains("serverInfo");
  } else if (const auto* meta = result.if_contains("_meta"); meta != nullptr && meta->is_object()) {
    info = meta->as_object().if_contains(kMetaServerInfo);
  }
  if (info == nullptr || !info->is_object()) return std::nullopt;
  const boost::json::object& object = info->as_object();
  ServerInfo kept{CappedMember(object, "name"), CappedMember(object, "version"),
                  CappedMember(object, "title")};
  if (kept.name.empty() && kept.version.empty()) return std::nullopt;
  return kept;
}

McpClient::McpClient(Transport& transport, Revision revision, ClientInfo client)
    : transport_(transport), revision_(revision), client_(std::move(client)) {}

Result<OpenOutcome> McpClient::Open() {
  return EraOf(revision_) == Era::kHandshake ? OpenHandshake() : OpenStateless();
}

void McpClient::ContinueFrom(const McpClient& opener) {
  revision_ = opener.revision_;
  client_ = opener.client_;
  next_id_ = opener.next_id_;
  capabilities_ = opener.capabilities_;
  last_open_ = opener.last_open_;
  server_info_ = opener.server_info_;
  era_locked_ = opener.era_locked_;
}

Result<OpenOutcome> McpClient::OpenAsAsked() {
  const Revision asked = revision_;
  Result<OpenOutcome> outcome = Open();
  if (outcome.ok() && revision_ != asked) {
    return Error{"initialize answered " + std::string(ToString(revision_)) + " instead of " +
                 std::string(ToString(asked))};
  }
  return outcome;
}

Result<OpenOutcome> McpClient::OpenHandshake() {
  OpenOutcome outcome;
  outcome.request = MakeInitialize(revision_, transport_.kind(), next_id_++, client_);
  outcome.observation = transport_.Send(outcome.request);
  outcome.reply = ClassifyReply(outcome.request, outcome.observation);
  last_open_ = outcome;
  server_info_.reset();

  const boost::json::object* result = ResultObject(outcome.reply);
  if (result == nullptr) {
    return Error{"initialize answered " + DescribeReply(outcome.reply, outcome.observation)};
  }
  const auto* version = result->if_contains("protocolVersion");
  auto negotiated = version != nullptr && version->is_string()
                        ? ParseRevision(std::string_view(version->as_string()))
                        : std::nullopt;
  if (!negotiated || EraOf(*negotiated) != Era::kHandshake) {
    return Error{"initialize answered a protocolVersion mcpfuzz does not speak"};
  }
  revision_ = *negotiated;
  if (const auto* capabilities = result->if_contains("capabilities");
      capabilities != nullptr && capabilities->is_object()) {
    capabilities_ = capabilities->as_object();
  }
  server_info_ = ServerInfoOf(*result, Era::kHandshake);
  if (auto session = FindHeader(outcome.observation.http_headers, kHeaderSessionId)) {
    transport_.set_session_id(std::string(*session));
  }
  transport_.Send(MakeNotification("notifications/initialized"));
  return outcome;
}

Result<OpenOutcome> McpClient::OpenStateless() {
  OpenOutcome outcome;
  outcome.request = Make("server/discover");
  outcome.observation = transport_.Send(outcome.request);
  outcome.reply = ClassifyReply(outcome.request, outcome.observation);
  last_open_ = outcome;
  server_info_.reset();

  const boost::json::object* result = ResultObject(outcome.reply);
  if (result == nullptr) {
    return Error{"server/discover answered " + DescribeReply(outcome.reply, outcome.observation)};
  }
  if (const auto* capabilities = result->if_contains("capabilities");
      capabilities != nullptr && capabilities->is_object()) {
    capabilities_ = capabilities->as_object();
  }
  server_info_ = ServerInfoOf(*result, Era::kStateless);
  if (transport_.kind() == TransportKind::kStdio) LockStatelessEra();
  return outcome;
}

void McpClient::LockStatelessEra() {
  // A stdio server speaking both eras locks the connection's era with the first
  // era-distinctive request it serves, and answers server/discover without locking (tables §4b
  // V16). Unlocked, an envelope-less request would open a legacy connection and be served as
  // legacy; locked, it must be refused, which is what V1 asks. A list method the server
  // declared is served by any 2026-07-28 server, so it locks without side effects.
  for (std::string_view capability : {"tools", "prompts", "resources"}) {
    if (!Declares(capability)) continue;
    const Request request = Make(std::string(capability) + "/list");
    const Observation observation = transport_.Send(request);
    era_locked_ = ClassifyReply(request, observation).channel == Channel::kSuccess;
    return;
  }
}

Request McpClient::Make(std::string_view method, boost::json::object params) {
  return MakeRequest(revision_, transport_.kind(), method, std::move(params), next_id_++, client_);
}

Request McpClient::MakeNotification(std::string_view method, boost::json::object params) const {
  return mcpfuzz::MakeNotification(revision_, transport_.kind(), method, std::move(params),
                                   client_);
}

std::optional<Observation> McpClient::Close() {
  if (transport_.kind() != TransportKind::kHttp || transport_.session_id().empty()) {
    return std::nullopt;
  }
  Observation observation = transport_.Send(MakeBodyless(revision_, "DELETE"));
  transport_.set_session_id("");
  return observation;
}

ListedFeatures ListFeatures(McpClient& client) {
  ListedFeatures listed;
  // result[key] of a successful reply to `method`, or nothing.
  auto list = [&client](std::string_view method, std::string_view key) -> boost::json::array {
    const Request request = client.Make(method);
    const Observation observation = client.Send(request);
    const Reply reply = ClassifyReply(request, observation);
    const boost::json::object* result = ResultObject(reply);
    const auto* items = result != nullptr ? result->if_contains(key) : nullptr;
    return items != nullptr && items->is_array() ? items->as_array() : boost::json::array{};
  };
  auto strings = [](const boost::json::array& items, std::string_view member,
                    std::vector<std::string>& out) {
    for (const auto& item : items) {
      const auto* object = item.if_object();
      const auto* value = object != nullptr ? object->if_contains(member) : nullptr;
      if (value != nullptr && value->is_string()) out.emplace_back(value->as_string());
    }
  };
  if (client.Declares("tools")) {
    for (const auto& item : list("tools/list", "tools")) {
      const auto* tool = item.if_object();
      const auto* name = tool != nullptr ? tool->if_contains("name") : nullptr;
      if (name == nullptr || !name->is_string()) continue;
      ListedFeatures::Tool info;
      info.name = std::string(name->as_string());
      if (const auto* schema = tool->if_contains("inputSchema");
          schema != nullptr && schema->is_object()) {
        info.input_schema = schema->as_object();
      }
      listed.tools.push_back(std::move(info));
    }
  }
  if (client.Declares("prompts")) strings(list("prompts/list", "prompts"), "name", listed.prompts);
  if (client.Declares("resources")) {
    strings(list("resources/list", "resources"), "uri", listed.resource_uris);
  }
  return listed;
}

}  // namespace mcpfuzz
