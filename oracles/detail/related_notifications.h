#pragma once
// Internal: the notifications a reply carries about its request (tables §10 X4) or its session:
// log messages (§4b V11, V11a, §7 G4), progress (§4a L10) and resource updates (§7 R4s).

#include <vector>

#include "model/observation.h"
#include "model/request.h"
#include "oracles/oracle.h"
#include "oracles/verdict.h"

namespace mcpfuzz::oracles_detail {

/// Over HTTP, where the response stream is the request's own: in 2026-07-28 a
/// notifications/message for a request without `_meta` logLevel breaks a MUST NOT (V11), and one
/// below the level it asked for is only tolerated (V11a, a lowercase "should"); in every revision
/// a notifications/progress must carry the progressToken the request gave (none given: none may
/// come), and its progress must increase (L10). Over stdio nothing ties a notification to a
/// request, so nothing of that is judged there. In the handshake era what a sequence knows of the
/// session (`context`) is judged on both transports (over stdio the connection is the session):
/// a log message below the level a served logging/setLevel set (§7 G4), and an update of a
/// resource whose subscription a served resources/unsubscribe ended (§7 R4s), are only tolerated;
/// over stdio a progress notification for a request already answered breaks a MUST (§4a L10a).
std::vector<Finding> CheckRelatedNotifications(const Request& request,
                                               const Observation& observation,
                                               const JudgeContext& context);

}  // namespace mcpfuzz::oracles_detail
