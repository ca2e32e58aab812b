#include "oracles/detail/listen.h"

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "model/channel.h"
#include "model/request_edit.h"
#include "model/subscription.h"

namespace mcpfuzz::oracles_detail {
namespace {

namespace json = boost::json;

// The boolean opt-ins of a SubscriptionFilter and the notification each one lets through.
struct OptIn {
  std::string_view flag;
  std::string_view method;
};
constexpr OptIn kOptIns[] = {
    {"toolsListChanged", "notifications/tools/list_changed"},
    {"promptsListChanged", "notifications/prompts/list_changed"},
    {"resourcesListChanged", "notifications/resources/list_changed"},
};
constexpr std::string_view kResourceSubscriptions = "resourceSubscriptions";
constexpr std::string_view kResourceUpdated = "notifications/resources/updated";

std::string Text(const json::value& value) { return Excerpt(json::serialize(value), 80); }

std::string_view MethodOf(const json::value& message) {
  const json::value* method =
      message.is_object() ? message.get_object().if_contains("method") : nullptr;
  return method != nullptr && method->is_string() ? std::string_view(method->get_string())
                                                  : std::string_view{};
}

// The filter the request sent (params.notifications); empty when it sent none.
json::object RequestedFilter(const Request& request) {
  std::optional<json::value> body = request.BodyJson();
  if (!body || !body->is_object()) return {};
  const json::object* params = ObjectMember(body->get_object(), "params");
  const json::object* filter = params != nullptr ? ObjectMember(*params, "notifications") : nullptr;
  return filter != nullptr ? *filter : json::object{};
}

bool OptedInto(const json::object& filter, std::string_view flag) {
  const json::value* value = filter.if_contains(flag);
  return value != nullptr && value->is_bool() && value->get_bool();
}

bool Subscribed(const json::object& filter, const json::value& uri) {
  const json::value* uris = filter.if_contains(kResourceSubscriptions);
  if (uris == nullptr || !uris->is_array()) return false;
  for (const json::value& each : uris->get_array()) {
    if (each == uri) return true;
  }
  return false;
}

// Whether a notification of `method` (about `uri` for resources/updated) was opted into.
bool Allowed(const json::object& filter, std::string_view method, const json::value* uri) {
  for (const OptIn& opt_in : kOptIns) {
    if (method == opt_in.method) return OptedInto(filter, opt_in.flag);
  }
  if (method == kResourceUpdated) return uri != nullptr && Subscribed(filter, *uri);
  return false;
}

// The acknowledgement names what the server agreed to honor: a subset of what was requested.
void CheckAcknowledged(const json::value& ack, const json::object& requested, Strength strength,
                       std::vector<Finding>& findings) {
  const json::object* params = ack.is_object() ? ObjectMember(ack.get_object(), "params") : nullptr;
  const json::object* honored =
      params != nullptr ? ObjectMember(*params, "notifications") : nullptr;
  if (honored == nullptr) {
    findings.push_back({Aspect::kShape, strength,
                        "the acknowledgement has no params.notifications object (the subset of "
                        "the request's notification types the server honors)"});
    return;
  }
  for (const OptIn& opt_in : kOptIns) {
    if (OptedInto(*honored, opt_in.flag) && !OptedInto(requested, opt_in.flag)) {
      findings.push_back({Aspect::kShape, strength,
                          "the acknowledgement honors " + std::string(opt_in.flag) +
                              ", which the request did not opt into"});
    }
  }
  const json::value* uris = honored->if_contains(kResourceSubscriptions);
  if (uris == nullptr || !uris->is_array()) return;
  for (const json::value& uri : uris->get_array()) {
    if (!Subscribed(requested, uri)) {
      findings.push_back(
          {Aspect::kShape, strength,
           "the acknowledgement subscribes to " + Text(uri) + ", which the request did not name"});
    }
  }
}

void CheckStamp(const json::value& message, const json::value& id, std::string_view what,
                Strength strength, std::vector<Finding>& findings) {
  const json::value* stamp = SubscriptionIdOf(message);
  if (stamp == nullptr) {
    findings.push_back(
        {Aspect::kShape, strength,
         std::string(what) + " carries no _meta \"" + std::string(kMetaSubscriptionId) + "\""});
  } else if (*stamp != id) {
    findings.push_back({Aspect::kShape, strength,
                        std::string(what) + " is stamped " + Text(*stamp) +
                            ", not the listen request's id " + Text(id)});
  }
}

}  // namespace

std::vector<Finding> CheckListenStream(const Request& request, const Observation& observation,
                                       Strength strength, std::vector<std::string>& notes) {
  std::vector<Finding> findings;
  const std::optional<json::value> id = request.RpcId();
  if (!id) return findings;
  const bool http = request.transport == TransportKind::kHttp;
  std::vector<const json::value*> stream;
  for (const json::value& message : observation.messages) {
    const bool response = IsResponseShaped(message);
    const json::value* stamp = SubscriptionIdOf(message);
    const json::value* answers = response ? message.get_object().if_contains("id") : nullptr;
    const bool own = http || AcknowledgesListen(message, *id) ||
                     (stamp != nullptr && *stamp == *id) || (answers != nullptr && *answers == *id);
    if (!own) continue;
    if (response && message.get_object().contains("error")) return findings;  // refused
    stream.push_back(&message);
  }
  if (stream.empty()) {
    if (http) {
      findings.push_back({Aspect::kShape, strength,
                          "the listen request got no notifications/subscriptions/acknowledged"});
    } else {
      notes.push_back(
          "nothing of the subscription was seen before the later request's reply; "
          "over stdio its acknowledgement may still come, so it is not judged");
    }
    return findings;
  }
  if (!IsAcknowledgement(*stream.front())) {
    const std::string_view method = MethodOf(*stream.front());
    findings.push_back({Aspect::kShape, strength,
                        "the subscription's first message is " +
                            (method.empty() ? std::string("its response") : std::string(method)) +
                            ", not notifications/subscriptions/acknowledged"});
  }
  const json::object requested = RequestedFilter(request);
  for (const json::value* message : stream) {
    if (IsResponseShaped(*message)) {
      CheckStamp(*message, *id, "the closing result", strength, findings);
      continue;
    }
    const std::string_view method = MethodOf(*message);
    if (IsAcknowledgement(*message)) {
      CheckStamp(*message, *id, "the acknowledgement", strength, findings);
      CheckAcknowledged(*message, requested, strength, findings);
      continue;
    }
    if (http)
      CheckStamp(*message, *id, "the notification " + std::string(method), strength, findings);
    const json::object* params =
        message->is_object() ? ObjectMember(message->get_object(), "params") : nullptr;
    const json::value* uri = params != nullptr ? params->if_contains("uri") : nullptr;
    if (!method.empty() && !Allowed(requested, method, uri)) {
      findings.push_back({Aspect::kShape, strength,
                          "the subscription carried " + std::string(method) +
                              ", a notification type the request did not opt into"});
    }
  }
  return findings;
}

}  // namespace mcpfuzz::oracles_detail
