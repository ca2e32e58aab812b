#pragma once
// McpClient speaks MCP in one revision over any Transport: the initialize handshake and
// session of the handshake era, or the per-request envelope of the stateless era. It builds
// well-formed requests; generators then break them one rule at a time.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/channel.h"
#include "model/request_builder.h"
#include "model/result.h"
#include "transport/transport.h"

namespace mcpfuzz {

/// What a server says it is: `serverInfo` of the initialize result (handshake era) or
/// `_meta["io.modelcontextprotocol/serverInfo"]` of the server/discover result (2026-07-28).
/// Self-reported and untrusted: each string is kept as data, at most kServerInfoCap bytes (cut
/// at a UTF-8 boundary), so a server cannot make reports grow with it; a member that is not a
/// string is left empty.
struct ServerInfo {
  std::string name;
  std::string version;
  /// Optional in the spec's Implementation; empty when not given.
  std::string title;
  bool operator==(const ServerInfo&) const = default;
};
inline constexpr std::size_t kServerInfoCap = 200;

/// The ServerInfo in the `result` of a successful initialize or server/discover in `era`;
/// nothing when the server announced none (no object where the era puts it, or one with neither
/// a string name nor a string version).
std::optional<ServerInfo> ServerInfoOf(const boost::json::object& result, Era era);

/// What opening a client observed: the reply to `initialize` or `server/discover`.
struct OpenOutcome {
  Request request;
  Observation observation;
  Reply reply;
};

class McpClient {
 public:
  /// `transport` must outlive the client.
  McpClient(Transport& transport, Revision revision, ClientInfo client = {});

  /// Handshake era: `initialize` asking for the revision, then `notifications/initialized`;
  /// the negotiated revision, the session id and the server's capabilities are kept.
  /// Stateless era: `server/discover`; capabilities are kept when it succeeds. Over stdio one
  /// list request the server declared follows, so that a server speaking both eras locks the
  /// connection to 2026-07-28 (era_locked()).
  /// An error says why the target did not open, with the outcome still readable through
  /// last_open().
  Result<OpenOutcome> Open();
  /// Open(), failing as well when initialize settled on another revision than the one asked
  /// (the server fell back): a run testing one revision must not go on in another.
  Result<OpenOutcome> OpenAsAsked();

  /// Goes on with the session `opener` opened on the same connection (this client's transport
  /// is, or wraps, the one `opener` spoke through): its revision, declarations and ids, as if
  /// this client had opened it.
  void ContinueFrom(const McpClient& opener);

  /// A well-formed request in the negotiated revision with a fresh integer id.
  Request Make(std::string_view method, boost::json::object params = {});
  /// A well-formed notification in the negotiated revision.
  Request MakeNotification(std::string_view method, boost::json::object params = {}) const;

  Observation Send(const Request& request) { return transport_.Send(request); }
  Observation Call(std::string_view method, boost::json::object params = {}) {
    return Send(Make(method, std::move(params)));
  }

  /// Ends an HTTP session with DELETE, as the handshake era asks; nothing otherwise.
  std::optional<Observation> Close();

  Revision revision() const { return revision_; }
  /// The `capabilities` the server declared; empty before Open() succeeds.
  const boost::json::object& server_capabilities() const { return capabilities_; }
  /// True when the server declared `capability` (for example "tools").
  bool Declares(std::string_view capability) const { return capabilities_.contains(capability); }
  const std::optional<OpenOutcome>& last_open() const { return last_open_; }
  /// What the server announced when Open() last succeeded (ServerInfoOf); nothing before, or
  /// when it announced none.
  const std::optional<ServerInfo>& server_info() const { return server_info_; }
  /// The server assigned an Mcp-Session-Id when it opened (handshake era over HTTP), and the
  /// session has not been closed since.
  bool session_assigned() const { return !transport_.session_id().empty(); }
  /// Stateless era over stdio: a well-formed enveloped request was served after
  /// server/discover, so the connection's era is 2026-07-28 even at a dual-era server.
  bool era_locked() const { return era_locked_; }

 private:
  Result<OpenOutcome> OpenHandshake();
  Result<OpenOutcome> OpenStateless();
  void LockStatelessEra();

  Transport& transport_;
  Revision revision_;
  ClientInfo client_;
  std::int64_t next_id_ = 1;
  boost::json::object capabilities_;
  std::optional<OpenOutcome> last_open_;
  std::optional<ServerInfo> server_info_;
  bool era_locked_ = false;
};

/// What a server's list methods named on an open session (first page only).
struct ListedFeatures {
  struct Tool {
    std::string name;
    boost::json::object input_schema;
  };
  std::vector<Tool> tools;
  std::vector<std::string> prompts;
  std::vector<std::string> resource_uris;
};

/// Sends tools/list, prompts/list and resources/list on `client`, each only when the server
/// declared its capability, and keeps the names (and tools' inputSchema) of successful replies.
ListedFeatures ListFeatures(McpClient& client);

}  // namespace mcpfuzz
