#pragma once
// Internal: the stream a subscriptions/listen request opens (tables §4b V17, §10 X22).

#include <vector>

#include "model/observation.h"
#include "model/request.h"
#include "oracles/verdict.h"

namespace mcpfuzz::oracles_detail {

/// Judges the messages of the subscription `request` opened, as far as `observation` saw them:
/// over HTTP every message of the reply; over stdio those stamped with the request's id (the
/// acknowledgement, whether stamped or not, and the response with that id). The first must be
/// notifications/subscriptions/acknowledged, stamped with the id, naming no notification type
/// the request did not opt into; no notification of a type not opted into may follow; over HTTP
/// each carries the stamp; a closing result carries it too. A refusal (an error) is not judged
/// here. Nothing seen over stdio is not judged either: the pipe is shared, and the
/// acknowledgement may come after the reply a later request got.
std::vector<Finding> CheckListenStream(const Request& request, const Observation& observation,
                                       Strength strength, std::vector<std::string>& notes);

}  // namespace mcpfuzz::oracles_detail
