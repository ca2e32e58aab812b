#pragma once
// The stable ids of every check the oracles judge. Reports, corpus files and the check runner
// name checks by these strings, so an id never changes meaning once published.

#include <array>
#include <string_view>

namespace mcpfuzz::check {

// JSON-RPC framing (tables §3).
inline constexpr std::string_view kParseError = "jsonrpc.parse-error";
inline constexpr std::string_view kNotAnObject = "jsonrpc.not-an-object";
inline constexpr std::string_view kMissingJsonrpc = "jsonrpc.invalid-request.missing-jsonrpc";
inline constexpr std::string_view kWrongJsonrpc = "jsonrpc.invalid-request.wrong-jsonrpc";
inline constexpr std::string_view kMissingMethod = "jsonrpc.invalid-request.missing-method";
inline constexpr std::string_view kIdNull = "jsonrpc.invalid-request.id-null";
inline constexpr std::string_view kIdFloat = "jsonrpc.invalid-request.id-float";
inline constexpr std::string_view kIdBool = "jsonrpc.invalid-request.id-bool";
inline constexpr std::string_view kIdObject = "jsonrpc.invalid-request.id-object";
inline constexpr std::string_view kParamsNotObject = "jsonrpc.params-not-object";
inline constexpr std::string_view kNotificationNoReply = "notifications.no-reply";
inline constexpr std::string_view kBatchAccepted = "batch.accepted";
inline constexpr std::string_view kBatchRejected = "batch.rejected";
inline constexpr std::string_view kBatchEmpty = "batch.empty";

// Lifecycle, version negotiation and per-request metadata (tables §4).
inline constexpr std::string_view kInitialize = "lifecycle.initialize";
inline constexpr std::string_view kInitializeUnsupportedVersion = "version.initialize-unsupported";
inline constexpr std::string_view kPingBeforeInit = "lifecycle.ping-before-init";
inline constexpr std::string_view kRequestBeforeInit = "lifecycle.request-before-init";
// Sequences (tables §4a L6a, L8a): ping once initialized, and a second initialize.
inline constexpr std::string_view kPing = "lifecycle.ping";
inline constexpr std::string_view kReinitialize = "lifecycle.reinitialize";
// Sequences over stdio (tables §4a L9, §8 S5): a request cancelled while in flight.
inline constexpr std::string_view kCancelledNoReply = "cancellation.no-reply";
// Sequences over stdio (tables §4a L10a): progress for a request already answered.
inline constexpr std::string_view kProgressAfterResponse = "progress.after-response";
// Sequences over stdio at a server speaking both eras (tables §4b V16a, V16b): a request of the
// other era on a connection whose era the first served request locked.
inline constexpr std::string_view kInitializeAfterEraLock = "era.initialize-after-lock";
inline constexpr std::string_view kEnvelopeAfterInitialize = "era.envelope-after-initialize";
inline constexpr std::string_view kMetaMissing = "meta.missing";
inline constexpr std::string_view kMetaPartial = "meta.partial";
inline constexpr std::string_view kMetaClientInfoOptional = "meta.client-info-optional";
inline constexpr std::string_view kVersionUnsupported = "version.unsupported";
inline constexpr std::string_view kDiscoverResult = "discover.result";
// 2026-07-28 subscriptions/listen (tables §4b V17, §10 X22).
inline constexpr std::string_view kListenAcknowledged = "subscriptions.acknowledged";
inline constexpr std::string_view kCapabilityUnadvertised = "capabilities.unadvertised";
inline constexpr std::string_view kClientCapabilityRequired = "capabilities.client-required";

// Methods and server features (tables §5–§7).
inline constexpr std::string_view kUnknownMethod = "methods.unknown";
inline constexpr std::string_view kRemovedMethod = "methods.removed";
inline constexpr std::string_view kUnknownTool = "tools.unknown-name";
inline constexpr std::string_view kToolMissingName = "tools.missing-name";
inline constexpr std::string_view kToolArgumentsNotObject = "tools.arguments-not-object";
inline constexpr std::string_view kToolBadArguments = "tools.bad-arguments";
inline constexpr std::string_view kUnknownResource = "resources.unknown";
inline constexpr std::string_view kUnsubscribe = "resources.unsubscribe";
inline constexpr std::string_view kUnknownPrompt = "prompts.unknown";
inline constexpr std::string_view kPromptMissingArguments = "prompts.missing-arguments";
inline constexpr std::string_view kInvalidCursor = "pagination.invalid-cursor";
inline constexpr std::string_view kCursorReused = "pagination.cursor-reused";
inline constexpr std::string_view kInvalidLogLevel = "logging.invalid-level";
inline constexpr std::string_view kSessionLogLevel = "logging.session-level";

// Streamable HTTP (tables §9, §10).
inline constexpr std::string_view kProtocolVersionHeaderMismatch =
    "headers.protocol-version-mismatch";
inline constexpr std::string_view kProtocolVersionHeaderInvalid =
    "headers.protocol-version-invalid";
inline constexpr std::string_view kProtocolVersionHeaderMissing =
    "headers.protocol-version-missing";
inline constexpr std::string_view kMethodHeaderMissing = "headers.method-missing";
inline constexpr std::string_view kMethodHeaderMismatch = "headers.method-mismatch";
inline constexpr std::string_view kMethodHeaderCase = "headers.method-case";
inline constexpr std::string_view kNameHeaderMissing = "headers.name-missing";
inline constexpr std::string_view kNameHeaderMismatch = "headers.name-mismatch";
inline constexpr std::string_view kNameHeaderBase64 = "headers.name-base64";
inline constexpr std::string_view kNameHeaderWhitespace = "headers.name-whitespace";
inline constexpr std::string_view kSessionMissing = "sessions.missing";
inline constexpr std::string_view kSessionUnknown = "sessions.unknown";
inline constexpr std::string_view kSessionDelete = "sessions.delete";
inline constexpr std::string_view kAcceptMissing = "http.accept-missing";
inline constexpr std::string_view kContentTypeWrong = "http.content-type-wrong";
inline constexpr std::string_view kHttpGet = "http.get";
inline constexpr std::string_view kOriginInvalid = "http.origin-invalid";

// mcpfuzz's own rows (tables §15): names that reach an object's prototype, and requests at
// the size and depth limits of parsers.
inline constexpr std::string_view kUnknownNameConsistent = "names.unknown-consistent";
inline constexpr std::string_view kDeepNesting = "limits.deep-nesting";
inline constexpr std::string_view kOversizedRequest = "limits.oversized-request";

// stdio (tables §8). These judge the process and its stdout, not one reply.
inline constexpr std::string_view kStdoutOnlyJsonRpc = "stdio.stdout-only-jsonrpc";
inline constexpr std::string_view kNoEarlyExit = "stdio.no-early-exit";
inline constexpr std::string_view kKeepsAnswering = "stdio.keeps-answering";

/// Every check id, in the order reports list them. The expectation table names no other id.
inline constexpr std::array kAll = {
    kParseError,
    kNotAnObject,
    kMissingJsonrpc,
    kWrongJsonrpc,
    kMissingMethod,
    kIdNull,
    kIdFloat,
    kIdBool,
    kIdObject,
    kParamsNotObject,
    kNotificationNoReply,
    kBatchAccepted,
    kBatchRejected,
    kBatchEmpty,
    kInitialize,
    kInitializeUnsupportedVersion,
    kPingBeforeInit,
    kRequestBeforeInit,
    kPing,
    kReinitialize,
    kCancelledNoReply,
    kProgressAfterResponse,
    kInitializeAfterEraLock,
    kEnvelopeAfterInitialize,
    kMetaMissing,
    kMetaPartial,
    kMetaClientInfoOptional,
    kVersionUnsupported,
    kDiscoverResult,
    kListenAcknowledged,
    kCapabilityUnadvertised,
    kClientCapabilityRequired,
    kUnknownMethod,
    kRemovedMethod,
    kUnknownTool,
    kToolMissingName,
    kToolArgumentsNotObject,
    kToolBadArguments,
    kUnknownResource,
    kUnsubscribe,
    kUnknownPrompt,
    kPromptMissingArguments,
    kInvalidCursor,
    kCursorReused,
    kInvalidLogLevel,
    kSessionLogLevel,
    kProtocolVersionHeaderMismatch,
    kProtocolVersionHeaderInvalid,
    kProtocolVersionHeaderMissing,
    kMethodHeaderMissing,
    kMethodHeaderMismatch,
    kMethodHeaderCase,
    kNameHeaderMissing,
    kNameHeaderMismatch,
    kNameHeaderBase64,
    kNameHeaderWhitespace,
    kSessionMissing,
    kSessionUnknown,
    kSessionDelete,
    kAcceptMissing,
    kContentTypeWrong,
    kHttpGet,
    kOriginInvalid,
    kStdoutOnlyJsonRpc,
    kNoEarlyExit,
    kKeepsAnswering,
    kUnknownNameConsistent,
    kDeepNesting,
    kOversizedRequest,
};

/// True when `id` is one of kAll.
constexpr bool IsKnown(std::string_view id) {
  for (std::string_view known : kAll) {
    if (known == id) return true;
  }
  return false;
}

}  // namespace mcpfuzz::check
