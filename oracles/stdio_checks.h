#pragma once
// Judgements about a stdio server's output stream and process rather than one reply.

#include <boost/json/value.hpp>
#include <optional>
#include <vector>

#include "model/observation.h"
#include "model/revision.h"
#include "oracles/verdict.h"

namespace mcpfuzz {

/// Every stdout line is one JSON-RPC message (tables §8 S1, S3, S4): non-JSON lines (logs,
/// invalid UTF-8, a message split by an embedded newline), a message pretty-printed across
/// several lines (Observation::multi_line_messages) and JSON that is not a JSON-RPC
/// message break a MUST NOT; an array line is a message only in 2025-03-26 (S2). A blank line
/// carries nothing but is still not a message: a SHOULD-level finding.
std::vector<Finding> CheckStdout(const Observation& observation, Revision revision);

/// The process is still running, or was ended by mcpfuzz (tables §8 S6). Death by a signal or a
/// failure exit code is a MUST finding; a clean exit on its own is a SHOULD finding.
std::vector<Finding> CheckProcessAlive(const Observation& observation);

/// A response carrying the id of `answered`, which had its response, arriving in a later
/// exchange on the same process (Observation::repeated_replies): JSON-RPC 2.0 owes one
/// response per request (§5), a MUST finding, as for a repeat within the request's own
/// exchange. Nothing for a batch, a notification or a null id.
std::optional<Finding> CheckRepeatedResponse(const Request& answered,
                                             const boost::json::value& repeat);

}  // namespace mcpfuzz
