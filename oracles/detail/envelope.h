#pragma once
// Rules every reply obeys whatever the check: the JSON-RPC envelope, the revision's result
// shape, the code-range policy, the HTTP content type, and no internal details in error text.
// Judge applies them to every reply it judges; MUST problems fail a verdict, SHOULD ones warn.

#include <boost/json/value.hpp>
#include <string>
#include <vector>

#include "model/channel.h"
#include "model/observation.h"
#include "model/request.h"
#include "oracles/verdict.h"

namespace mcpfuzz::oracles_detail {

/// True when the server could read the request's id: the body is a JSON-RPC request object
/// (jsonrpc "2.0", a string method) whose id is a string or an integer. Only then must a reply
/// echo it; otherwise JSON-RPC wants id null (tables §12.3).
bool RequestIdReadable(const Request& request);

/// The JSON-RPC envelope of `message` as the answer to `request`:
/// - an object with `jsonrpc: "2.0"` and exactly one of `result` / `error` (MUST);
/// - `id` echoes the request's id. When the id could not be read, null or the request's own id
///   is fine, and an absent id is fine from 2025-11-25 on; before that it is tolerated (WARN,
///   tables §12.3);
/// - `error` is an object with an integer `code` and a string `message` (MUST);
/// - 2026-07-28: no undefined code in -32020..-32099, never -32002 (MUST NOT); no other code in
///   the legacy range -32000..-32019 (SHOULD NOT);
/// - 2026-07-28: `result.resultType` is "complete" or "input_required" (MUST); input_required
///   only on tools/call, prompts/get and resources/read, with inputRequests or requestState;
/// - tools/call: a complete result has a `content` array and a boolean `isError` if any (MUST).
std::vector<Finding> CheckEnvelope(const Request& request, const boost::json::value& message);

/// The one-response rule broken (JSON-RPC 2.0 §5): `responses` responses carry `id`.
Finding ResponsesToOneIdFinding(const boost::json::value& id, std::size_t responses);

/// Every text in an error reply that a client may show: error.message, strings inside
/// error.data, and the text content of an isError result.
std::vector<std::string> ErrorTexts(const boost::json::value& message);

/// Stack traces, file paths and internal hosts in ErrorTexts(message), as SHOULD findings.
std::vector<Finding> CheckLeaks(const boost::json::value& message);
/// The same, for what came back that is not JSON (an HTML or plain-text error page, a log line
/// on stdout): a stack trace there gives away as much as in an error's text (tables §3 F16).
std::vector<Finding> CheckNonJsonLeaks(const Observation& observation);

/// Everything above for the reply ClassifyReply chose, plus the HTTP rule that a JSON-RPC reply
/// with a 2xx status comes as application/json or text/event-stream (MUST). Nothing when there
/// is no message.
std::vector<Finding> CheckReplyEnvelope(const Request& request, const Observation& observation,
                                        const Reply& reply);

}  // namespace mcpfuzz::oracles_detail
