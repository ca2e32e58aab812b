#pragma once
// Well-formed requests for a revision: the starting point every generator breaks one rule of.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/request.h"

namespace mcpfuzz {

/// Who mcpfuzz says it is, in `clientInfo`.
struct ClientInfo {
  std::string name = "mcpfuzz";
  std::string version = "0.1.0";
};

/// `_meta` keys of the 2026-07-28 revision.
inline constexpr std::string_view kMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view kMetaClientCapabilities =
    "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view kMetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view kMetaServerInfo = "io.modelcontextprotocol/serverInfo";

/// Header names, spelled as the spec spells them.
inline constexpr std::string_view kHeaderProtocolVersion = "MCP-Protocol-Version";
inline constexpr std::string_view kHeaderSessionId = "Mcp-Session-Id";
inline constexpr std::string_view kHeaderMethod = "Mcp-Method";
inline constexpr std::string_view kHeaderName = "Mcp-Name";

/// The `_meta` object a 2026-07-28 request carries.
boost::json::object StatelessMeta(Revision revision, const ClientInfo& client = {});

/// The Mcp-Name value for a tool, prompt or resource name: the name itself, or
/// `=?base64?…?=` when it holds bytes a header cannot carry verbatim (non-ASCII, control
/// characters, leading or trailing whitespace).
std::string EncodeHeaderValue(std::string_view value);
/// The inverse of EncodeHeaderValue; nothing when the base64 form is malformed.
std::optional<std::string> DecodeHeaderValue(std::string_view value);

/// The parameter that Mcp-Name mirrors for `method` (`name` or `uri`), or "" when none.
std::string_view NameParamFor(std::string_view method);

/// A well-formed JSON-RPC request for `revision` over `transport`:
/// - the body {"jsonrpc":"2.0","id":id,"method":method,"params":params};
/// - 2026-07-28: `_meta` added to params, and Mcp-Method / Mcp-Name headers;
/// - HTTP: Content-Type, Accept, and MCP-Protocol-Version from 2025-06-18 on (except on
///   `initialize`, which precedes the negotiated version).
Request MakeRequest(Revision revision, TransportKind transport, std::string_view method,
                    boost::json::object params, boost::json::value id,
                    const ClientInfo& client = {});

/// A well-formed notification (no id); otherwise as MakeRequest.
Request MakeNotification(Revision revision, TransportKind transport, std::string_view method,
                         boost::json::object params = {}, const ClientInfo& client = {});

/// The `initialize` request of the handshake era, asking for `revision`.
Request MakeInitialize(Revision revision, TransportKind transport, boost::json::value id,
                       const ClientInfo& client = {});

/// What opens a handshake-era HTTP session in a replayed sequence: `initialize`, sent in no
/// session yet, and `notifications/initialized` in the session it opened.
std::vector<Request> MakeHttpOpening(Revision revision);

/// An HTTP request with no body (GET or DELETE on the endpoint).
Request MakeBodyless(Revision revision, std::string_view http_method);

/// The method of the harmless request: one every server of `revision` answers without side
/// effects, ping in the handshake era and server/discover in 2026-07-28 (which has no ping).
std::string_view HarmlessMethod(Revision revision);
/// The harmless request with `id`, well-formed as MakeRequest builds it.
Request MakeHarmless(Revision revision, TransportKind transport, boost::json::value id);

/// The sentinel: the harmless request written behind one owed no reply on stdio, so its reply
/// shows the server read past that request (a silence is then a drop, learnt in one round trip
/// instead of a timeout). Its id, "mcpfuzz-sentinel-<serial>", is a string no generated case
/// uses, so no reply to a case can be taken for its reply.
Request MakeSentinel(Revision revision, TransportKind transport, std::size_t serial);
/// True when `id` is a sentinel's.
bool IsSentinelId(const boost::json::value& id);
/// A sentinel numbered past every sentinel among `requests`: one sent after them, so that no id
/// is sent twice on a connection.
Request SentinelAfter(const std::vector<Request>& requests, Revision revision,
                      TransportKind transport);

}  // namespace mcpfuzz
