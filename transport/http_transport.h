#pragma once
// The Streamable HTTP transport is opened with OpenHttp() from transport/transport.h. Like
// every Transport it is used by one thread at a time; separate transports may run in parallel.

#include <string_view>

namespace mcpfuzz {

/// True for the hosts mcpfuzz reaches without HttpTarget::allow_remote: `localhost`, any
/// dotted-quad 127.x.y.z, and `[::1]` (bracketed, as in a URL).
bool IsLoopbackHost(std::string_view host);

}  // namespace mcpfuzz
