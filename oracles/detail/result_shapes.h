#pragma once
// Shape checks for the results a few checks are about: ping's empty result, initialize's
// result, and server/discover's DiscoverResult.

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/request.h"
#include "oracles/verdict.h"

namespace mcpfuzz::oracles_detail {

/// The protocol version `request` asks for: `_meta` protocolVersion (2026-07-28), else
/// initialize's params.protocolVersion, else the MCP-Protocol-Version header.
std::optional<std::string> RequestedVersion(const Request& request);

/// ping's result is empty: no member but `_meta` (tables §4a L6).
std::vector<Finding> CheckEmptyResult(const boost::json::value& result, Strength strength);

/// An InitializeResult: protocolVersion, capabilities and serverInfo {name, version}. With
/// `requested` set and `same_version`, protocolVersion must equal it (L1); without
/// `same_version`, it must differ from it (L2: the requested one is unsupported).
/// A success to a second initialize in a session of `session`: a protocolVersion other than the
/// session's means the server re-negotiated the session (tables §4a L8a), unless the reply
/// opened a session of its own (`new_session`: an Mcp-Session-Id other than the request's).
std::vector<Finding> CheckSessionVersionKept(const boost::json::value& result, Revision session,
                                             const std::optional<std::string>& new_session,
                                             Strength strength);
/// A result to a 2026-07-28 request on a stdio connection `initialize` locked to the handshake
/// era: a resultType means the server switched the connection's era mid-way (tables §4b V16b).
std::vector<Finding> CheckHandshakeEraResult(const boost::json::value& result, Strength strength);
std::vector<Finding> CheckInitializeResult(const boost::json::value& result,
                                           const std::optional<std::string>& requested,
                                           bool same_version, Strength strength);

/// A DiscoverResult (tables §4b V5, V9): resultType "complete", a non-empty supportedVersions of
/// strings that lists `asked`, the revision the request asked (V3), a capabilities object, an
/// integer ttlMs >= 0, cacheScope "public" or "private", an optional string instructions. A
/// missing _meta serverInfo is a SHOULD-level finding.
std::vector<Finding> CheckDiscoverResult(const boost::json::value& result, Strength strength,
                                         Revision asked);

}  // namespace mcpfuzz::oracles_detail
