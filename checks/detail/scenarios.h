#pragma once
// Internal: the scenarios of the checklist, one family per file. Each scenario sends what its
// checks need through the RevisionRun's connections and reports a result for every check id it
// covers that is pending (RevisionRun::Pending), in the order of AllChecks().

#include "checks/detail/run.h"

namespace mcpfuzz::checks::detail {

using Scenario = void (*)(RevisionRun& run);
/// What a scenario will do first on connections of its own (RevisionRun::FreshOpened,
/// FreshSending), given the checks it is to report (RevisionRun::Pending), so that the runner
/// has it done for every scenario at once (Connections::Prepare). It only adds to `steps`: a
/// step it names that its scenario ends up not taking costs a session opened and ended unseen,
/// and one it leaves out is taken when the scenario needs it, as before.
using Ahead = void (*)(const AheadView& run, FreshSteps& steps);
/// One connection of its own, opened: the Ahead of a scenario that always opens one.
void OneOpened(const AheadView& run, FreshSteps& steps);

// checks_jsonrpc.cc: JSON-RPC framing, notifications and batches.
void ParseError(RevisionRun& run);
void NotAnObject(RevisionRun& run);
void InvalidRequests(RevisionRun& run);
void ParamsNotObject(RevisionRun& run);
void NotificationNoReply(RevisionRun& run);
void Batches(RevisionRun& run);

// checks_lifecycle.cc: the handshake, version negotiation and requests before it.
void Initialize(RevisionRun& run);
void InitializeUnsupportedVersion(RevisionRun& run);
void InitializeUnsupportedVersionAhead(const AheadView& run, FreshSteps& steps);
void HandshakeControl(RevisionRun& run);
void HandshakeControlAhead(const AheadView& run, FreshSteps& steps);
void InitializedSession(RevisionRun& run);
void CancelledInFlight(RevisionRun& run);
void ProgressAfterResponse(RevisionRun& run);
void EraLockedConnection(RevisionRun& run);
void CapabilityUnadvertised(RevisionRun& run);
void ClientCapabilityRequired(RevisionRun& run);

// checks_stateless.cc: 2026-07-28's per-request _meta, version and server/discover.
void MetaMissing(RevisionRun& run);
void MetaPartial(RevisionRun& run);
void MetaClientInfoOptional(RevisionRun& run);
void VersionUnsupported(RevisionRun& run);
void DiscoverResult(RevisionRun& run);
void ListenAcknowledged(RevisionRun& run);

// checks_tools.cc: tools/call with an impossible name, malformed calls, the args probe.
void UnknownTool(RevisionRun& run);
void ToolMissingName(RevisionRun& run);
void ToolArgumentsNotObject(RevisionRun& run);
void ToolBadArguments(RevisionRun& run);
void UnknownNameConsistent(RevisionRun& run);

// checks_features.cc: unknown methods, resources, prompts, cursors and log levels.
void UnknownMethod(RevisionRun& run);
void UnknownResource(RevisionRun& run);
void UnknownPrompt(RevisionRun& run);
void PromptMissingArguments(RevisionRun& run);
void InvalidCursor(RevisionRun& run);
void CursorReused(RevisionRun& run);
void CursorReusedAhead(const AheadView& run, FreshSteps& steps);
void InvalidLogLevel(RevisionRun& run);
void SessionLogLevel(RevisionRun& run);
void SessionLogLevelAhead(const AheadView& run, FreshSteps& steps);
void Unsubscribe(RevisionRun& run);
void UnsubscribeAhead(const AheadView& run, FreshSteps& steps);

// checks_removed.cc: the methods 2026-07-28 removed.
void RemovedMethods(RevisionRun& run);

// checks_http.cc: Streamable HTTP headers, sessions and endpoint rules.
void ProtocolVersionHeaders(RevisionRun& run);
void MethodHeaders(RevisionRun& run);
void NameHeaders(RevisionRun& run);
void Sessions(RevisionRun& run);
void SessionsAhead(const AheadView& run, FreshSteps& steps);
void HttpEndpoint(RevisionRun& run);

/// discover.result for the era probe's server/discover that succeeded without listing the
/// revision it asked (EraAttempt::unlisted_discover): that revision is not judged, so this is
/// the one verdict the discover gets; nothing when there was no such discover.
std::optional<CheckResult> UnlistedDiscover(const EraReport& eras);

// checks_limits.cc: valid JSON nested 100,000 deep, a 100,000-character id, a body over 10 MiB.
void DeepNesting(RevisionRun& run);
void OversizedRequest(RevisionRun& run);
void OversizedRequestAhead(const AheadView& run, FreshSteps& steps);

// checks_stdio.cc: the stdio process and its stdout.
void KeepsAnswering(RevisionRun& run);
void NoEarlyExit(RevisionRun& run);
void StdoutOnlyJsonRpc(RevisionRun& run);
/// stdio.stdout-only-jsonrpc for a stdio target that speaks no revision, judged from what the
/// era probe's exchanges saw: its FAIL, or nothing when stdout broke no MUST (the run then
/// judged nothing, and says why).
std::optional<CheckResult> StdoutWithoutRevision(const EraReport& eras);

}  // namespace mcpfuzz::checks::detail
