#pragma once
// Internal: the stateless era (2026-07-28). No state: every request carries its version and
// capabilities in params._meta, and over HTTP mirrors them in headers.
//
// HTTP validation order (oracle tables §10; the first failure decides):
//   1. not POST → 405                         (the router's job)
//      Accept without application/json → 406, Content-Type not application/json → 415
//   2. invalid JSON → 400/-32700 id null      (the router's job)
//      batch, response, or a framing error → 400/-32600 (-32602 for non-object params)
//   3. MCP-Protocol-Version ≠ _meta protocolVersion, or missing while _meta has one → 400/-32020
//   4. version not 2026-07-28 → 400/-32022 with data.supported and data.requested
//   5. _meta, its protocolVersion or clientCapabilities missing, or logLevel invalid → 400/-32602
//      (notifications stop here: 202)
//   6. Mcp-Method missing or ≠ method (case-sensitive); Mcp-Name missing or ≠ params.name /
//      params.uri after trimming and =?base64?…?= decoding → 400/-32020
//   7, 8. nothing to check: no method needs a client capability, no tool declares x-mcp-header
//   9. unknown method → 404/-32601 (initialize, ping, logging/setLevel, resources/subscribe …);
//      handler errors in-band with 200.
// stdio runs 2, 4, 5 and 9 with no statuses; responses and notifications are never answered.
// Every result carries resultType "complete" and _meta serverInfo; cacheable results (lists,
// resources/read, server/discover) carry ttlMs and cacheScope.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "model/request.h"
#include "refserver/detail/jsonrpc.h"
#include "refserver/faults.h"

namespace mcpfuzz::refserver::detail {

/// Every revision the server speaks, newest first (server/discover, -32022 data.supported).
boost::json::array SupportedVersions();

/// A POST routed to the stateless era, after the router's steps; `body` is the parsed JSON.
/// `server_info` is what every result's _meta announces.
Answer HandleStatelessHttp(const FaultSet& faults, const boost::json::object& server_info,
                           const Headers& headers, const boost::json::value& body);

/// One parsed stdio line routed to the stateless era.
Answer HandleStatelessStdio(const FaultSet& faults, const boost::json::object& server_info,
                            const boost::json::value& message);

}  // namespace mcpfuzz::refserver::detail
