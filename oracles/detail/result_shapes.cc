#include "oracles/detail/result_shapes.h"

#include <algorithm>
#include <boost/json.hpp>

#include "model/request_builder.h"
#include "model/request_edit.h"
#include "oracles/verdict.h"

namespace mcpfuzz::oracles_detail {
namespace {

Finding ShapeFinding(Strength strength, std::string text) {
  return Finding{Aspect::kShape, strength, std::move(text)};
}

bool IsNonEmptyStringArray(const boost::json::value* value) {
  if (value == nullptr || !value->is_array() || value->as_array().empty()) return false;
  for (const auto& item : value->as_array()) {
    if (!item.is_string()) return false;
  }
  return true;
}

bool IsStringMember(const boost::json::object& object, std::string_view key) {
  const auto* member = object.if_contains(key);
  return member != nullptr && member->is_string();
}

}  // namespace

std::optional<std::string> RequestedVersion(const Request& request) {
  if (auto body = request.BodyJson(); body && body->is_object()) {
    if (const auto* params = ObjectMember(body->as_object(), "params")) {
      if (const auto* meta = ObjectMember(*params, "_meta")) {
        const auto* version = meta->if_contains(kMetaProtocolVersion);
        if (version != nullptr && version->is_string()) return std::string(version->as_string());
      }
      const auto* version = params->if_contains("protocolVersion");
      if (version != nullptr && version->is_string()) return std::string(version->as_string());
    }
  }
  if (auto header = FindHeader(request.headers, kHeaderProtocolVersion)) {
    return std::string(*header);
  }
  return std::nullopt;
}

std::vector<Finding> CheckEmptyResult(const boost::json::value& result, Strength strength) {
  std::vector<Finding> findings;
  if (!result.is_object()) {
    findings.push_back(ShapeFinding(strength, "the result is not an object"));
    return findings;
  }
  for (const auto& member : result.as_object()) {
    if (member.key() != "_meta") {
      findings.push_back(ShapeFinding(
          strength, "the result should be empty but has \"" + std::string(member.key()) + "\""));
    }
  }
  return findings;
}

std::vector<Finding> CheckSessionVersionKept(const boost::json::value& result, Revision session,
                                             const std::optional<std::string>& new_session,
                                             Strength strength) {
  std::vector<Finding> findings;
  const auto* object = result.if_object();
  const auto* version = object != nullptr ? object->if_contains("protocolVersion") : nullptr;
  if (version == nullptr || !version->is_string() || version->as_string() == ToString(session)) {
    return findings;
  }
  const std::string negotiated = "protocolVersion \"" + std::string(version->as_string()) + "\"";
  if (new_session) {
    findings.push_back(
        ShapeFinding(strength, "a second initialize opened a new session (Mcp-Session-Id \"" +
                                   Excerpt(*new_session, 80) + "\") with " + negotiated +
                                   "; the session it was sent in keeps \"" +
                                   std::string(ToString(session)) + "\""));
  } else {
    findings.push_back(ShapeFinding(
        strength, "a second initialize re-negotiated the session: " + negotiated +
                      " replaces the session's \"" + std::string(ToString(session)) + "\""));
  }
  return findings;
}

std::vector<Finding> CheckHandshakeEraResult(const boost::json::value& result, Strength strength) {
  std::vector<Finding> findings;
  const auto* object = result.if_object();
  if (object != nullptr && object->contains("resultType")) {
    findings.push_back(ShapeFinding(
        strength,
        "served as 2026-07-28 (the result carries resultType) on a connection initialize locked "
        "to the handshake era: the server switched the connection's era mid-way"));
  }
  return findings;
}

std::vector<Finding> CheckInitializeResult(const boost::json::value& result,
                                           const std::optional<std::string>& requested,
                                           bool same_version, Strength strength) {
  std::vector<Finding> findings;
  if (!result.is_object()) {
    findings.push_back(ShapeFinding(strength, "the initialize result is not an object"));
    return findings;
  }
  const auto& object = result.as_object();
  const auto* version = object.if_contains("protocolVersion");
  if (version == nullptr || !version->is_string()) {
    findings.push_back(ShapeFinding(strength, "protocolVersion is missing or not a string"));
  } else if (requested && same_version && version->as_string() != *requested) {
    findings.push_back(ShapeFinding(
        strength, "protocolVersion \"" + std::string(version->as_string()) +
                      "\" is not the supported version asked for, \"" + *requested + "\""));
  } else if (requested && !same_version && version->as_string() == *requested) {
    findings.push_back(ShapeFinding(strength, "protocolVersion echoes the unsupported version \"" +
                                                  *requested +
                                                  "\" instead of naming one the server supports"));
  }
  if (ObjectMember(object, "capabilities") == nullptr) {
    findings.push_back(ShapeFinding(strength, "capabilities is missing or not an object"));
  }
  const auto* server_info = ObjectMember(object, "serverInfo");
  if (server_info == nullptr) {
    findings.push_back(ShapeFinding(strength, "serverInfo is missing or not an object"));
  } else if (!IsStringMember(*server_info, "name") || !IsStringMember(*server_info, "version")) {
    findings.push_back(ShapeFinding(strength, "serverInfo lacks a string name and version"));
  }
  return findings;
}

std::vector<Finding> CheckDiscoverResult(const boost::json::value& result, Strength strength,
                                         Revision asked) {
  std::vector<Finding> findings;
  if (!result.is_object()) {
    findings.push_back(ShapeFinding(strength, "the discover result is not an object"));
    return findings;
  }
  const auto& object = result.as_object();
  const auto* result_type = object.if_contains("resultType");
  if (result_type == nullptr || !result_type->is_string() ||
      result_type->as_string() != "complete") {
    findings.push_back(ShapeFinding(strength, "resultType is not \"complete\""));
  }
  const auto* versions = object.if_contains("supportedVersions");
  if (!IsNonEmptyStringArray(versions)) {
    findings.push_back(
        ShapeFinding(strength, "supportedVersions is not a non-empty array of strings"));
  } else if (const std::string_view revision = ToString(asked);
             std::none_of(versions->as_array().begin(), versions->as_array().end(),
                          [&](const boost::json::value& version) {
                            return version.as_string() == revision;
                          })) {
    // Either rule may be the one broken, and both are MUSTs: a revision the server does not
    // speak is refused with -32022 (V3); one it serves is among those it lists (V5).
    findings.push_back(ShapeFinding(
        strength, "supportedVersions does not list " + std::string(revision) +
                      ", the revision the request asked, yet the request was served: a revision "
                      "not spoken is refused with -32022 (V3), one served is listed (V5)"));
  }
  if (ObjectMember(object, "capabilities") == nullptr) {
    findings.push_back(ShapeFinding(strength, "capabilities is missing or not an object"));
  }
  const auto* ttl = object.if_contains("ttlMs");
  const bool ttl_ok =
      ttl != nullptr && ((ttl->is_int64() && ttl->as_int64() >= 0) || ttl->is_uint64());
  if (!ttl_ok) {
    findings.push_back(ShapeFinding(strength, "ttlMs is missing or not an integer >= 0"));
  }
  const auto* scope = object.if_contains("cacheScope");
  if (scope == nullptr || !scope->is_string() ||
      (scope->as_string() != "public" && scope->as_string() != "private")) {
    findings.push_back(ShapeFinding(strength, "cacheScope is not \"public\" or \"private\""));
  }
  if (const auto* instructions = object.if_contains("instructions");
      instructions != nullptr && !instructions->is_string()) {
    findings.push_back(ShapeFinding(strength, "instructions is not a string"));
  }
  const auto* meta = ObjectMember(object, "_meta");
  if (meta == nullptr || ObjectMember(*meta, kMetaServerInfo) == nullptr) {
    findings.push_back(
        ShapeFinding(Strength::kShould, "_meta lacks io.modelcontextprotocol/serverInfo"));
  }
  return findings;
}

}  // namespace mcpfuzz::oracles_detail
