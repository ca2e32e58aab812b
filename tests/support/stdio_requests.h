#pragma once
// The requests the stdio transport tests write to their scripted servers.

#include <boost/json/value.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "model/request.h"
#include "model/request_builder.h"

namespace mcpfuzz::test_support {

/// A well-formed handshake-era request with `id`.
inline Request Call(boost::json::value id, std::string_view method = "tools/list") {
  return MakeRequest(kLatestHandshakeRevision, TransportKind::kStdio, method, {}, std::move(id));
}

/// A line of exactly these bytes.
inline Request Raw(std::string bytes) {
  Request request;
  request.transport = TransportKind::kStdio;
  request.body = RawBody{std::move(bytes)};
  return request;
}

inline Request Notification() {
  return MakeNotification(kLatestHandshakeRevision, TransportKind::kStdio,
                          "notifications/initialized");
}

}  // namespace mcpfuzz::test_support
