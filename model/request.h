#pragma once
// The one request model. Generators, fuzz targets, corpus files and the CLI all produce a
// Request; transports send exactly its bytes and nothing downstream "fixes" it.

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/revision.h"

namespace mcpfuzz {

enum class TransportKind { kHttp, kStdio };
std::string_view ToString(TransportKind kind);

/// One HTTP header as written on the wire. Requests keep headers in order, may repeat a name
/// and may use any casing, because servers must be judged on exactly that.
struct Header {
  std::string name;
  std::string value;
  bool operator==(const Header&) const = default;
};
using Headers = std::vector<Header>;

/// The first header named `name`, compared case-insensitively as HTTP requires.
std::optional<std::string_view> FindHeader(const Headers& headers, std::string_view name);
/// Removes every header named `name` (case-insensitively); returns how many were removed.
std::size_t RemoveHeader(Headers& headers, std::string_view name);
/// Replaces every header named `name` by one `name: value` at the position of the first.
void SetHeader(Headers& headers, std::string_view name, std::string_view value);

/// A body sent byte for byte: truncated JSON, invalid UTF-8, a BOM, several lines.
struct RawBody {
  std::string bytes;
  bool operator==(const RawBody&) const = default;
};
/// No body at all, as on GET and DELETE.
struct NoBody {
  bool operator==(const NoBody&) const = default;
};
using Body = std::variant<NoBody, boost::json::value, RawBody>;

/// Whether the transport attaches the live session id (handshake era over HTTP).
/// kAttach adds `Mcp-Session-Id` only when the request carries none of its own, so a generator
/// can send a wrong id by writing the header, or no id at all with kOmit. kSecond names the
/// session a sequence's second initialize without a session opened (model/sequence.h): the
/// sequence runner writes that id; a transport attaches nothing.
enum class SessionBinding { kAttach, kOmit, kSecond };

struct Request {
  TransportKind transport = TransportKind::kHttp;
  Revision revision = kLatestRevision;
  /// HTTP only; stdio has no method.
  std::string http_method = "POST";
  /// HTTP only; stdio has no headers.
  Headers headers;
  Body body;
  SessionBinding session = SessionBinding::kAttach;

  /// The exact body bytes: a JSON value serialised compactly, raw bytes unchanged, or "".
  std::string WireBody() const;
  /// The same bytes without a copy of raw ones: a view of them, or of `scratch` holding the
  /// serialised JSON. Where a megabyte body is only written or measured, it is not copied.
  std::string_view WireView(std::string& scratch) const;
  std::size_t WireSize() const;
  /// The JSON value of the body, parsing raw bytes if they happen to be JSON.
  std::optional<boost::json::value> BodyJson() const;
  /// The JSON-RPC `id` member of an object body, if present (it may be null).
  std::optional<boost::json::value> RpcId() const;
  /// The JSON-RPC `method` of an object body, if it is a string.
  std::optional<std::string> RpcMethod() const;
  /// True for a JSON-RPC object with a method and no id member.
  bool IsNotification() const;

  bool operator==(const Request&) const = default;
};

/// Parses JSON without throwing. Accepts what Boost.JSON accepts (1e999 parses as infinity).
std::optional<boost::json::value> ParseJson(std::string_view text);

/// Raw bodies up to this size are parsed whole for their envelope; larger ones are read for
/// their id, method and jsonrpc alone (ParseRawEnvelope).
inline constexpr std::size_t kWholeParseBytes = std::size_t{64} << 10;

/// A raw body read for its envelope, as RpcId, RpcMethod and the oracles read it: a body up to
/// kWholeParseBytes whole (ParseJsonEnvelope); a larger one for its id, method and jsonrpc
/// alone (ParseRpcEnvelope), without the copy of its megabytes a whole parse makes.
std::optional<boost::json::value> ParseRawEnvelope(std::string_view bytes);

}  // namespace mcpfuzz
