#pragma once
// Internal: HTTP-level rules that do not depend on the era (oracle tables §9b H1, H2, H17,
// §10 X18, §12.11).

#include <string_view>
#include <vector>

#include "model/request.h"

namespace mcpfuzz::refserver::detail {

/// `text` without leading and trailing spaces and tabs (HTTP optional whitespace).
std::string_view TrimOws(std::string_view text);

/// Every value of the headers named `name` (case-insensitively), trimmed, in order.
std::vector<std::string_view> HeaderValues(const Headers& headers, std::string_view name);

/// False when an Origin header names a non-loopback origin (or "null"), or a Host header names
/// a host other than localhost, 127.0.0.1 or [::1]: the DNS-rebinding defence that gets 403.
bool OriginAndHostAllowed(const Headers& headers);

/// Whether a header value, as the HTTP front hands it over, carries `sent`: the front's library
/// (cpp-httplib 0.11) percent-decodes header values, which MCP never encodes, so a value the
/// client sent verbatim may arrive decoded.
bool HeaderCarries(std::string_view received, std::string_view sent);

/// True when Accept admits application/json (also via */* or application/*). A missing Accept
/// does not: clients must send one (H1), and the answer then is 406.
bool AcceptsJson(const Headers& headers);

/// True when Content-Type is application/json, parameters such as charset allowed (else 415).
bool IsJsonContentType(const Headers& headers);

}  // namespace mcpfuzz::refserver::detail
