#pragma once
// Internal: the notifications an HTTP reply stream carries about its request (tables §10 X4):
// log messages (§4b V11, V11a, §7 G4) and progress (§4a L10).

#include <optional>
#include <string>
#include <vector>

#include "model/observation.h"
#include "model/request.h"
#include "oracles/verdict.h"

namespace mcpfuzz::oracles_detail {

/// Over HTTP, where the response stream is the request's own: in 2026-07-28 a
/// notifications/message for a request without `_meta` logLevel breaks a MUST NOT (V11), and one
/// below the level it asked for is only tolerated (V11a, a lowercase "should"); in every revision
/// a notifications/progress must carry the progressToken the request gave (none given: none may
/// come), and its progress must increase (L10). Over stdio nothing ties a notification to a
/// request, so nothing of that is judged there. In the handshake era `session_level`, the level a
/// served logging/setLevel set for the session, is judged on both transports (over stdio the
/// connection is the session): a log message below it is only tolerated (§7 G4).
std::vector<Finding> CheckRelatedNotifications(const Request& request,
                                               const Observation& observation,
                                               const std::optional<std::string>& session_level);

}  // namespace mcpfuzz::oracles_detail
