#pragma once
// 2026-07-28's subscriptions/listen (tables §10 X22, §4b V17): one request opens a long-lived
// stream of notifications, the first of which acknowledges it, each stamped with the listen
// request's id. Transports use this to attribute a stream's notifications and to stop
// listening once it is acknowledged and quiet; the oracles to judge it.

#include <boost/json/value.hpp>
#include <string_view>

#include "model/request.h"

namespace mcpfuzz {

inline constexpr std::string_view kListenMethod = "subscriptions/listen";
inline constexpr std::string_view kAcknowledgedMethod = "notifications/subscriptions/acknowledged";
/// The `_meta` key stamping a notification (or the closing result) with its subscription.
inline constexpr std::string_view kMetaSubscriptionId = "io.modelcontextprotocol/subscriptionId";

/// Whether `request` is a subscriptions/listen request (a JSON body with that method and an id).
bool IsListen(const Request& request);

/// The subscription id `message` is stamped with: params._meta[kMetaSubscriptionId] of a
/// notification, result._meta[kMetaSubscriptionId] of a response; null when none.
const boost::json::value* SubscriptionIdOf(const boost::json::value& message);

/// Whether `message` is a notifications/subscriptions/acknowledged.
bool IsAcknowledgement(const boost::json::value& message);

/// Whether `message` is the acknowledgement of the listen request whose id is `id`: stamped
/// with it, or (a server that forgot the stamp still acknowledged) not stamped at all.
bool AcknowledgesListen(const boost::json::value& message, const boost::json::value& id);

}  // namespace mcpfuzz
