#pragma once
// Internal: the generator families, one per file. Each builds valid-except-one-rule requests from
// the context's well-formed template, names the check whose rule the request breaks, and
// shrinks toward simpler requests of the SAME check: the variant (and so the check id)
// is chosen once and never changes while shrinking; names, bodies and depths get smaller.

#include <rapidcheck/Gen.h>

#include "generators/generated_case.h"

namespace mcpfuzz::gen {

/// Bytes that are not JSON (truncation, invalid UTF-8, raw control characters, unbalanced deep
/// nesting, malformed or huge invalid numbers, unterminated strings, trailing garbage, two
/// messages on one line, JSON5-isms, an empty body) → jsonrpc.parse-error. A BOM or duplicate
/// keys are only ever added on top of one of those breaks: RFC 8259 lets a parser accept both.
/// Valid but unusual JSON around an unknown method (leading or trailing whitespace, escapes)
/// → methods.unknown. Valid JSON at the limits a parser MAY refuse (deep nesting, huge numbers,
/// long strings, a lone BOM, duplicate keys) → stdio.no-early-exit, over stdio only: the only
/// rule such a message surely tests is that the process survives it.
rc::Gen<GeneratedCase> MalformedJson(const GenContext& context);

/// Valid JSON nested 10,000 to 100,000 levels deep in tools/call `arguments` (of a tool that
/// cannot exist) or in `_meta` → limits.deep-nesting; a harmless request padded to 1, 4, 10 or
/// 16 MiB, or one byte more, up to GenContext::max_request_bytes → limits.oversized-request; a
/// harmless request whose id is a string of up to 1 KiB, 10 KiB, 100 KiB or 1 MiB (as
/// max_request_bytes allows) → limits.oversized-request, or, over stdio, an integer of as many
/// digits, past 2^64-1 → stdio.no-early-exit; on the same scale a method name, a tool name
/// (tools/call of a tool that cannot exist), a _meta key, a number of _meta keys, or over HTTP
/// the value of a header no server reads (a value in a header: at most 512 KiB)
/// → limits.oversized-request. Only the length (the count of keys) shrinks, toward the shortest.
rc::Gen<GeneratedCase> Limits(const GenContext& context);

/// Valid JSON that is not a valid request, differing from the template in exactly one member
/// (or, for jsonrpc.not-an-object, a scalar instead of the object): jsonrpc missing or not
/// "2.0", method missing or not a string, id null, fractional, boolean, object or array, params
/// not an object → jsonrpc.invalid-request.*, jsonrpc.not-an-object, jsonrpc.params-not-object.
rc::Gen<GeneratedCase> InvalidRequest(const GenContext& context);

/// A request for a method no MCP revision defines (random, case variants of real methods,
/// unicode, very long) → methods.unknown; one 2026-07-28 removed → methods.removed. The method
/// of a capability the target did not declare → capabilities.unadvertised.
rc::Gen<GeneratedCase> UnknownMethod(const GenContext& context);

/// tools/call, prompts/get and resources/read naming nothing the target has (__proto__,
/// constructor, toString, case variants, unicode, very long, empty) → tools.unknown-name,
/// prompts.unknown, resources.unknown; tools/call without a string name → tools.missing-name;
/// with non-object arguments (to an unknown tool) → tools.arguments-not-object. No real tool,
/// prompt or resource is ever named.
rc::Gen<GeneratedCase> UnknownNames(const GenContext& context);

/// 2026-07-28 `_meta`: missing → meta.missing; without protocolVersion or
/// clientCapabilities, or clientCapabilities not an object → meta.partial; an unsupported
/// protocolVersion (header agreeing) → version.unsupported; no clientInfo → meta.client-info-
/// optional.
rc::Gen<GeneratedCase> MetaEnvelope(const GenContext& context);

/// 2026-07-28 over HTTP: one header that disagrees with the body or is missing
/// (MCP-Protocol-Version, Mcp-Method, Mcp-Name, including case variants and invalid Base64)
/// → headers.*-mismatch / -missing / -invalid / method-case; an Mcp-Name in Base64 form or
/// with surrounding whitespace, which must be accepted → headers.name-base64 / name-whitespace.
/// Header NAMES are re-cased at random: they are case-insensitive.
rc::Gen<GeneratedCase> HeaderMismatch(const GenContext& context);

/// Handshake era over HTTP: no Mcp-Session-Id → sessions.missing; an unknown one
/// → sessions.unknown.
rc::Gen<GeneratedCase> SessionHeaders(const GenContext& context);

/// Streamable HTTP: a harmless request with an Origin header naming a foreign host
/// → http.origin-invalid.
rc::Gen<GeneratedCase> ForeignOrigins(const GenContext& context);

/// Handshake era over Streamable HTTP: initialize, without a session, asking for a version no
/// revision is named by → version.initialize-unsupported.
rc::Gen<GeneratedCase> InitializeVersions(const GenContext& context);

/// Arguments derived from each listed tool's inputSchema, valid except for one property
/// (required one missing, wrong type, out of range, extra property where none is allowed)
/// → tools.bad-arguments (naming the property); arguments an array, string, number or null
/// → tools.arguments-not-object. Calls REAL tools: off unless the caller enables it.
rc::Gen<GeneratedCase> ToolArguments(const GenContext& context);

/// Notifications, known and unknown → notifications.no-reply.
rc::Gen<GeneratedCase> Notifications(const GenContext& context);

/// 2026-07-28 subscriptions/listen opting into nothing, or only into notification types the
/// target did not declare it can deliver → subscriptions.acknowledged.
rc::Gen<GeneratedCase> Subscriptions(const GenContext& context);

/// JSON-RPC batches of harmless requests and notifications → batch.accepted (2025-03-26) or
/// batch.rejected (every other revision).
rc::Gen<GeneratedCase> Batches(const GenContext& context);

/// */list with a garbage cursor → pagination.invalid-cursor.
rc::Gen<GeneratedCase> PaginationCursors(const GenContext& context);

/// logging/setLevel (handshake era) or _meta logLevel (2026-07-28) that is not one of the
/// eight levels → logging.invalid-level.
rc::Gen<GeneratedCase> LogLevels(const GenContext& context);

/// Requests in order on one fresh connection, each step judged by the rule of its state
/// (oracles/sequence.h): in the handshake era the handshake, sessions, lists, cancellations and
/// the other operations of detail/sequence_ops.h → lifecycle.*, sessions.*, notifications.no-reply
/// and more; in 2026-07-28 over stdio the connection's era lock → era.initialize-after-lock.
rc::Gen<GeneratedCase> Sequences(const GenContext& context);

}  // namespace mcpfuzz::gen
