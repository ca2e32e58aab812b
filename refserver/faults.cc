#include "refserver/faults.h"

#include <array>

namespace mcpfuzz::refserver {
namespace {

constexpr std::array<FaultInfo, 48> kFaults = {{
    {Fault::kUnknownToolIsError, "unknown-tool-is-error",
     "an unknown tool gets an isError:true result instead of JSON-RPC error -32602"},
    {Fault::kUnknownToolPlainSuccess, "unknown-tool-plain-success",
     "an unknown tool gets a result without isError, text \"Unknown tool: NAME\", instead of "
     "-32602"},
    {Fault::kUnknownToolHtml, "unknown-tool-html",
     "an unknown tool gets an HTTP 500 text/html page (stdio: a plain-text line) instead of "
     "-32602"},
    {Fault::kUnknownToolWrongCode, "unknown-tool-wrong-code",
     "an unknown tool gets error code -32601 instead of -32602"},
    {Fault::kHangOnUnknownTool, "hang-on-unknown-tool",
     "a call to an unknown tool is never answered"},
    {Fault::kInputValidationAsProtocolError, "input-validation-as-protocol-error",
     "tool arguments that fail the input schema get -32602 instead of an isError:true result"},
    {Fault::kParseErrorWrongId, "parse-error-wrong-id",
     "the -32700 parse error carries id 0 instead of id null"},
    {Fault::kInvalidRequestAccepted, "invalid-request-accepted",
     "a message whose jsonrpc member is missing or not \"2.0\" is served instead of -32600"},
    {Fault::kNotificationAnswered, "notification-answered",
     "notifications get a JSON-RPC response (HTTP 200 with a body instead of 202)"},
    {Fault::kErrorLeaksInternals, "error-leaks-internals",
     "JSON-RPC error messages carry a stack trace, a /srv/app/... path and an internal host name"},
    {Fault::kCrashOnDeepNesting, "crash-on-deep-nesting",
     "JSON nested deeper than 64 levels aborts the process"},
    {Fault::kExitAfterInitialize, "exit-after-initialize",
     "the server ends (HTTP: stops serving) right after answering initialize, or the first "
     "2026-07-28 request that passes validation"},
    {Fault::kLogsOnStdout, "logs-on-stdout",
     "stdio: a plain-text log line is written to stdout before each reply"},
    {Fault::kUnsupportedVersionEchoed, "unsupported-version-echoed",
     "initialize with an unsupported protocolVersion echoes it instead of answering 2025-11-25"},
    {Fault::kPingMethodNotFound, "ping-method-not-found",
     "handshake-era ping gets -32601 instead of an empty result"},
    {Fault::kSessionNotEnforced, "session-not-enforced",
     "HTTP: handshake-era requests without Mcp-Session-Id are served instead of 400"},
    {Fault::kStaleSessionServed, "stale-session-served",
     "HTTP: requests with an unknown or deleted Mcp-Session-Id are served instead of 404"},
    {Fault::kBatchRejectedIn2025_03_26, "batch-rejected-in-2025-03-26",
     "JSON-RPC batches in 2025-03-26 sessions are rejected with -32600 instead of processed"},
    {Fault::kOriginNotChecked, "origin-not-checked",
     "HTTP: a foreign Origin or Host header is served instead of 403"},
    {Fault::kMissingMetaServed, "missing-meta-served",
     "2026-07-28 requests lacking _meta protocolVersion/clientCapabilities are served instead "
     "of 400/-32602"},
    {Fault::kHeaderMismatchServed, "header-mismatch-served",
     "2026-07-28 header values that disagree with the body (MCP-Protocol-Version, Mcp-Method, "
     "Mcp-Name) are ignored instead of 400/-32020"},
    {Fault::kMethodHeaderCaseInsensitive, "method-header-case-insensitive",
     "2026-07-28 Mcp-Method is compared case-insensitively (TOOLS/LIST accepted)"},
    {Fault::kUnsupportedVersionNoData, "unsupported-version-no-data",
     "2026-07-28 error -32022 carries no data (no supported/requested)"},
    {Fault::kUnknownMethod200, "unknown-method-200",
     "HTTP 2026-07-28: an unknown method gets -32601 with status 200 instead of 404"},
    {Fault::kMissingResultType, "missing-result-type", "2026-07-28 results carry no resultType"},
    {Fault::kResourceNotFoundLegacyCode, "resource-not-found-legacy-code",
     "2026-07-28: an unknown resource gets -32002 instead of -32602"},
    {Fault::kEraLockIgnored, "era-lock-ignored",
     "dual-era (implies --dual-era), stdio: after an enveloped request locked the connection to "
     "2026-07-28, an envelope-less request is served as legacy instead of refused"},
    {Fault::kValidatorDumpInErrors, "validator-dump-in-errors",
     "a tools/call without a string name, or with arguments failing the input schema, gets "
     "-32603 whose message is the validator's raw issue list (zod's \"code\": \"invalid_type\", "
     "\"path\": [...])"},
    {Fault::kRemovedMethodsServed, "removed-methods-served",
     "2026-07-28: initialize, ping, logging/setLevel and resources/subscribe/unsubscribe are "
     "served instead of -32601 (HTTP 404)"},
    {Fault::kPrettyPrintedStdio, "pretty-printed-stdio",
     "stdio: each reply is written indented across several lines (as json.dumps(indent=2) "
     "does) instead of one line"},
    {Fault::kPrototypeNameLookup, "prototype-name-lookup",
     "tools and prompts are looked up through a plain object: a name of Object.prototype "
     "(__proto__, constructor, toString) gets -32602 \"Tool NAME disabled\" instead of the "
     "unknown-name message"},
    {Fault::kDeafAfterBigLine, "deaf-after-big-line",
     "stdio: after a line over 10 MiB the server reads on but never answers again"},
    {Fault::k500OnDeepNesting, "500-on-deep-nesting",
     "HTTP: valid JSON nested deeper than 1024 levels gets HTTP 500 with -32603 instead of a "
     "parse error"},
    {Fault::kDeletedSessionServed, "deleted-session-served",
     "HTTP: DELETE of a session is answered 200 but the session goes on being served instead "
     "of 404 (unknown session ids still get 404)"},
    {Fault::kCursorAcrossLists, "cursor-across-lists",
     "a list request with the nextCursor another list method handed out is served instead of "
     "-32602 (a cursor is bound to the list it came from)"},
    {Fault::kCancelledRequestAnswered, "cancelled-request-answered",
     "stdio: a request whose notifications/cancelled was read with it (still in flight) is "
     "answered anyway, late, after the messages read with it, instead of not at all"},
    {Fault::kListenUnacknowledged, "listen-unacknowledged",
     "2026-07-28: subscriptions/listen gets its closing result without the "
     "notifications/subscriptions/acknowledged that must come first"},
    {Fault::kLogLevelIgnored, "log-level-ignored",
     "2026-07-28: every served request's reply carries an info notifications/message, whatever "
     "_meta logLevel asked for (none asked: none may come)"},
    {Fault::kProgressUnrequested, "progress-unrequested",
     "2026-07-28: a served request that gave no progressToken gets a notifications/progress "
     "anyway, with a token of the server's own"},
    {Fault::kInitializeRelocksEra, "initialize-relocks-era",
     "stdio: on a connection a served enveloped request locked to 2026-07-28, an envelope-less "
     "initialize is served (and locks the connection to the handshake era) instead of refused; "
     "other envelope-less requests are still refused"},
    {Fault::kEraSwitchAfterInitialize, "era-switch-after-initialize",
     "stdio: on a connection initialize locked to the handshake era, an enveloped request is "
     "served as 2026-07-28 (a result with resultType) instead of -32600"},
    {Fault::kDeleteEndsAllSessions, "delete-ends-all-sessions",
     "HTTP: a DELETE of one session ends every session, so a request in another one gets 404 "
     "instead of being served (sessions are isolated)"},
    {Fault::kSetLevelIgnored, "set-level-ignored",
     "handshake era: once logging/setLevel set a session's level, every request served in it is "
     "logged at info, even when the level set is above info"},
    {Fault::kUnsubscribeIgnored, "unsubscribe-ignored",
     "handshake era: resources/unsubscribe is answered with a result but the subscription stays, "
     "so later replies in the session still carry notifications/resources/updated for it"},
    {Fault::kCursorSingleUse, "cursor-single-use",
     "handshake era: a cursor a list request of the session already carried is refused with "
     "-32602 \"Invalid cursor\" instead of answered again (cursors are stable)"},
    {Fault::kProgressAfterResponse, "progress-after-response",
     "handshake era: the reply to the next request served repeats the notifications/progress of "
     "the last one that gave a progressToken, after that request was answered"},
    {Fault::kErrorAnsweredTwice, "error-answered-twice",
     "stdio: every error response to a request with an id is written twice, one line after the "
     "other (JSON-RPC 2.0 owes one response per request)"},
    {Fault::kCrashOnLongId, "crash-on-long-id",
     "a request whose id is a string of more than 4,096 bytes aborts the process"},
}};

}  // namespace

std::span<const FaultInfo> AllFaults() { return kFaults; }

std::optional<Fault> FaultFromName(std::string_view name) {
  for (const FaultInfo& info : kFaults) {
    if (info.name == name) return info.fault;
  }
  return std::nullopt;
}

std::string_view ToString(Fault fault) {
  for (const FaultInfo& info : kFaults) {
    if (info.fault == fault) return info.name;
  }
  return "unknown-fault";
}

}  // namespace mcpfuzz::refserver
