// The expectation table, part 2: the handshake, version negotiation, per-request `_meta`,
// server/discover and capabilities (tables §4, §5 M2).

#include "oracles/detail/table.h"

namespace mcpfuzz::oracles_detail {

void AddLifecycleRows(std::vector<Expectation>& rows) {
  rows.push_back({
      .id = check::kInitialize,
      .revisions = kHandshakeEra,
      .channel = {.conformant = {kSuccess}, .strength = Strength::kMust},
      .http_status = {.conformant = {kHttp2xx}, .strength = Strength::kMust},
      .shape = ShapeCheck::kInitializeResult,
      .shape_strength = Strength::kMust,
      .reference = "<rev>:basic/lifecycle.mdx \"Version Negotiation\"; TS InitializeResult; "
                   "tables §4a L1",
      .summary = "initialize with a supported version gets a result with that version, "
                 "capabilities and serverInfo",
  });
  rows.push_back({
      .id = check::kInitializeUnsupportedVersion,
      .revisions = kHandshakeEra,
      // §12.2: the text says answer with another supported version (L2, MUST); the page's own
      // example shows -32602 with data (L2'). Prefer success, tolerate exactly that error.
      .channel = {.conformant = {kSuccess},
                  .tolerated = {kProtocolError},
                  .strength = Strength::kMust},
      // Only the documented -32602 is tolerated; any other error just breaks L2.
      .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kMust},
      // L2' is an example ("ex"): its HTTP column says 200, but an error's status is
      // unspecified (H19), so the status is only a SHOULD.
      .http_status = {.conformant = {kHttp2xx}, .strength = Strength::kShould},
      // The example's data members are "ex" only, so missing ones warn.
      .data = {.members = {{"supported", DataKind::kNonEmptyStringArray},
                           {"requested", DataKind::kRequestedVersion}},
               .strength = Strength::kShould},
      .shape = ShapeCheck::kInitializeFallback,
      .shape_strength = Strength::kMust,
      .reference = "<rev>:basic/lifecycle.mdx \"Version Negotiation\", \"Error Handling\"; "
                   "tables §4a L2, L2', §12.2",
      .summary = "initialize with an unsupported version gets success with another supported "
                 "version; -32602 with data is tolerated",
  });
  rows.push_back({
      .id = check::kPingBeforeInit,
      .revisions = kHandshakeEra,
      // Over HTTP a server that needs sessions SHOULD refuse a request without one with 400
      // (H12), which collides with L6 "ping any time": the 400 is tolerated.
      .channel = {.conformant = {kSuccess},
                  .strength = Strength::kMust,
                  .http_rejection = HttpRejection::kTolerated},
      .http_status = {.conformant = {kHttp2xx},
                      .tolerated = {kHttp400},
                      .strength = Strength::kMust},
      .shape = ShapeCheck::kEmptyResult,
      .shape_strength = Strength::kMust,
      .reference = "<rev>:basic/utilities/ping.mdx; <rev>:basic/lifecycle.mdx; tables §4a L6, "
                   "§12.4; §9b H12",
      .summary = "ping works at any time, before initialize too, with an empty result",
  });
  rows.push_back({
      .id = check::kRequestBeforeInit,
      .revisions = kHandshakeEra,
      // §12.4: no reaction or code is defined, so any JSON-RPC answer passes; only a crash, a
      // hang or a reply that is not JSON-RPC fails. Silence owes JRPC a reply, so it warns.
      .judges_transport_failure = true,
      .channel = {.conformant = {kProtocolError, kSuccess, kExecutionError},
                  .tolerated = {kNoReply},
                  .strength = Strength::kMust,
                  .http_rejection = HttpRejection::kConformant},
      .reference = "<rev>:basic/lifecycle.mdx \"Initialization\"; tables §4a L4, §12.4",
      .summary = "A request before initialize may be served or refused with any code, but the "
                 "server must not crash or hang",
  });

  // Sequences on one connection (tables §4a L6a, L8a).
  rows.push_back({
      .id = check::kPing,
      .revisions = kHandshakeEra,
      .channel = {.conformant = {kSuccess}, .strength = Strength::kMust},
      .http_status = {.conformant = {kHttp2xx}, .strength = Strength::kMust},
      .shape = ShapeCheck::kEmptyResult,
      .shape_strength = Strength::kMust,
      .reference = "<rev>:basic/utilities/ping.mdx; <rev>:basic/lifecycle.mdx; tables §4a L6, "
                   "L6a",
      .summary = "ping in an initialized session gets an empty result",
  });
  rows.push_back({
      .id = check::kReinitialize,
      .revisions = kHandshakeEra,
      // L8: the answer is unspecified, so any JSON-RPC answer passes; only a crash, a hang or a
      // reply that is not JSON-RPC fails. An HTTP 4xx is a refusal whose body the spec leaves
      // open (§12.16): the TS SDK's 400 -32600 "Server already initialized" with id null is
      // the practice L8 names, so its envelope is not judged.
      .judges_transport_failure = true,
      .channel = {.conformant = {kSuccess, kProtocolError, kExecutionError},
                  .tolerated = {kNoReply},
                  .strength = Strength::kMust,
                  .http_rejection = HttpRejection::kStatusOnly},
      // The request's revision is the session's; a success naming another version changed it,
      // unless it opened a new session. No text forbids either (L8a), so it is recorded only.
      .shape = ShapeCheck::kSessionVersionKept,
      .shape_strength = Strength::kMay,
      .reference = "<rev>:basic/lifecycle.mdx \"Operation\", \"Version Negotiation\"; tables §4a "
                   "L7, L8, L8a",
      .summary = "A second initialize in a session may be answered any way; a changed version is "
                 "recorded",
  });

  // A request with its notifications/cancelled written right behind it, over stdio (over HTTP
  // the cancellation would need a second connection while the POST is open). The caller judges
  // only a reply that came after the answer to a request written after the cancellation: the
  // server had read the cancellation when it wrote it. A reply before that may have been
  // finished first, which the receiver MAY answer; it is not judged (oracles/sequence.h).
  rows.push_back({
      .id = check::kCancelledNoReply,
      .revisions = kHandshakeEra,
      .transports = TransportScope::kStdio,
      .channel = {.conformant = {kNoReply}, .strength = Strength::kShould},
      .reference = "<rev>:basic/utilities/cancellation.mdx; tables §4a L9, L9a",
      .summary = "A request cancelled while in flight gets no response after the cancellation "
                 "was read",
  });
  rows.push_back({
      .id = check::kCancelledNoReply,
      .revisions = kStatelessEra,
      .transports = TransportScope::kStdio,
      .channel = {.conformant = {kNoReply}, .strength = Strength::kMust},
      .reference = "R5:basic/transports/stdio.mdx; R5:basic/utilities/cancellation.mdx; tables "
                   "§8 S5, §4a L9, L9a",
      .summary = "2026-07-28 stdio: after notifications/cancelled the server sends no further "
                 "message for that request",
  });

  // A ping over stdio after a request that gave a progressToken was answered: answered as any
  // ping (L6a), and no progress for that token may come any more (L10a, judged with the reply's
  // related notifications). Over HTTP a later stream is judged by L10 already.
  rows.push_back({
      .id = check::kProgressAfterResponse,
      .revisions = kHandshakeEra,
      .transports = TransportScope::kStdio,
      .channel = {.conformant = {kSuccess}, .strength = Strength::kMust},
      .shape = ShapeCheck::kEmptyResult,
      .shape_strength = Strength::kMust,
      .reference = "<rev>:basic/utilities/progress.mdx (\"Progress notifications MUST only "
                   "reference tokens that were provided in an active request\"); "
                   "<rev>:basic/utilities/ping.mdx; tables §4a L10a, L6a",
      .summary = "stdio: after a request that gave a progressToken was answered, a ping gets an "
                 "empty result and no progress for that token comes",
  });

  // The era of a stdio connection at a server speaking both eras (tables §4b V16): sequences on
  // one connection, the request of the other era after the first served request locked it.
  // An envelope-less initialize on a connection an enveloped request locked to 2026-07-28: a
  // 2026-07-28 request lacking _meta (V1, MUST) of a method 2026-07-28 removed (V6, MUST), or
  // the conflicting era claim the dual-era SDKs refuse (-32600, -32022). Serving it breaks V1
  // and V6. Another code still refuses it, which is what matters; V7 leaves a legacy
  // initialize's code to the implementation, so it only warns.
  rows.push_back({
      .id = check::kInitializeAfterEraLock,
      .revisions = kStatelessEra,
      .transports = TransportScope::kStdio,
      .channel = RefusedAfterEraLock(),
      .code = RefusedAfterEraLockCode(),
      .reference = "R5:basic/index.mdx \"Per-request protocol fields\"; R5 changelog #4; "
                   "R5:basic/transports/stdio.mdx \"Backward Compatibility\"; python-sdk #3038, "
                   "#3152; TS serveStdio; tables §4b V1, V6, V7, V16, V16a",
      .summary = "stdio: initialize on a connection an enveloped request locked to 2026-07-28 is "
                 "refused (-32601, -32602, -32600 or -32022)",
  });
  // The reverse: an enveloped request once initialize locked the connection to the handshake
  // era. The dual-era SDKs answer -32600, but the lock is SDK practice, not a MUST: a handshake
  // server MAY ignore the _meta keys it does not know, so any JSON-RPC answer passes. Switching
  // the connection to 2026-07-28 (a result with resultType) breaks no sentence either, but a
  // client of the handshake era would then read results of another era: a WARN, never a FAIL.
  // The reply is judged by the handshake era's envelope rules (the connection's era).
  rows.push_back({
      .id = check::kEnvelopeAfterInitialize,
      .revisions = kStatelessEra,
      .transports = TransportScope::kStdio,
      .legacy_request = true,
      .channel = {.conformant = {kSuccess, kProtocolError, kExecutionError},
                  .strength = Strength::kShould},
      .shape = ShapeCheck::kHandshakeEraResult,
      .shape_strength = Strength::kShould,
      .reference = "R5:basic/transports/stdio.mdx \"Backward Compatibility\"; python-sdk #3152; "
                   "ruby-sdk #478; TS serveStdio; <rev>:basic/index.mdx \"_meta\"; tables §4b "
                   "V16, V16b",
      .summary = "stdio: an enveloped request after initialize is refused (-32600) or served in "
                 "the handshake era's shape; switching the connection to 2026-07-28 warns",
  });

  // 2026-07-28: every request carries its own protocol fields (tables §4b).
  // Over HTTP a request with neither _meta nor MCP-Protocol-Version carries no modern marker:
  // it is a legacy request (§10 X6: a server that supports older clients MAY treat it as
  // 2025-03-26), so the handshake-era rows judge it. Before initialize no reaction or code is
  // defined (§4a L4, §12.4), a server with sessions SHOULD refuse it with 400 (§9b H12), and a
  // modern-only server refuses it (§4b V7, §12.6: 400 with -32602, -32020 or -32022). Any
  // JSON-RPC answer passes, and so does any 4xx: the body of an HTTP-level refusal is
  // unspecified (§12.16; SDK v2's legacy leg sends -32000 "Server not initialized" with id
  // null). A crash, a hang, a 5xx or a 2xx reply that is not JSON-RPC does not pass.
  rows.push_back({
      .id = check::kMetaMissing,
      .revisions = kStatelessEra,
      .transports = TransportScope::kHttp,
      .condition = RequestCondition::kNoProtocolVersionHeader,
      .judges_transport_failure = true,
      .legacy_request = true,
      .channel = {.conformant = {kProtocolError, kSuccess, kExecutionError},
                  .tolerated = {kNoReply},
                  .strength = Strength::kMust,
                  .http_rejection = HttpRejection::kStatusOnly},
      .reference = "R5 streamable-http \"Protocol Version Header\"; R3/R4:basic/transports.mdx "
                   "\"Protocol Version Header\"; R5:basic/versioning.mdx; tables §10 X6, §9b H12, "
                   "H16, §4a L4, §4b V7, §12.4, §12.6, §12.16",
      .summary = "A request with neither _meta nor MCP-Protocol-Version is a legacy request: any "
                 "JSON-RPC answer (served as 2025-03-26, or refused) passes",
  });
  struct MetaCheck {
    std::string_view id;
    std::string_view summary;
    std::string_view stdio_summary;
  };
  for (const MetaCheck& check : {
           MetaCheck{check::kMetaMissing, "A request without params._meta gets -32602 (HTTP 400)",
                     "On a stdio connection locked to 2026-07-28, a request without "
                     "params._meta is refused (-32602, -32600 or -32022)"},
           MetaCheck{check::kMetaPartial,
                     "A request whose _meta lacks clientCapabilities (or protocolVersion) gets "
                     "-32602 (HTTP 400)",
                     "On a stdio connection locked to 2026-07-28, a request whose _meta lacks "
                     "clientCapabilities (or protocolVersion) is refused (-32602, -32600 or "
                     "-32022)"},
       }) {
    // Over HTTP the request carries MCP-Protocol-Version 2026-07-28, so it claims the modern
    // era unambiguously and lacks a field that era requires.
    rows.push_back({
        .id = check.id,
        .revisions = kStatelessEra,
        .transports = TransportScope::kHttp,
        .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
        .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kMust},
        .http_status = {.conformant = {kHttp400}, .strength = Strength::kMust},
        .reference = "R5:basic/index.mdx \"Per-request protocol fields\"; CONF server-stateless "
                     "(ids 101, 102, 104); tables §4b V1, §10 X16",
        .summary = check.summary,
    });
    // Over stdio mcpfuzz sends it on a connection a served enveloped request has locked to
    // 2026-07-28 (§4b V16): the era is the connection's, and the request makes a conflicting
    // (or incomplete) claim. V1 names -32602; the dual-era SDKs refuse the conflict as an
    // invalid request (-32600) or as an unsupported version (-32022). Any of the three passes.
    rows.push_back({
        .id = check.id,
        .revisions = kStatelessEra,
        .transports = TransportScope::kStdio,
        .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
        .code = {.conformant = {kInvalidParamsCode, kInvalidRequestCode,
                                kUnsupportedProtocolVersionCode},
                 .strength = Strength::kMust},
        .reference = "R5:basic/index.mdx \"Per-request protocol fields\"; R5:basic/transports/"
                     "stdio.mdx \"Backward Compatibility\"; python-sdk #3038, #3040, #3152; "
                     "ruby-sdk #478; TS serveStdio; tables §4b V1, V16",
        .summary = check.stdio_summary,
    });
  }
  rows.push_back({
      .id = check::kMetaClientInfoOptional,
      .revisions = kStatelessEra,
      // The final spec makes clientInfo a client SHOULD (§12.7), so a request without it is
      // valid and refusing it breaks the request's validity; CONF asserts 200.
      .channel = {.conformant = {kSuccess}, .strength = Strength::kMust},
      .http_status = {.conformant = {kHttp2xx}, .strength = Strength::kMust},
      .reference = "R5:basic/index.mdx; CONF sep-2575-request-meta-client-info-optional; tables "
                   "§4b V2, §12.7",
      .summary = "A request without _meta clientInfo is served normally",
  });
  rows.push_back({
      .id = check::kVersionUnsupported,
      .revisions = kStatelessEra,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
      .code = {.conformant = {kUnsupportedProtocolVersionCode}, .strength = Strength::kMust},
      .http_status = {.conformant = {kHttp400}, .strength = Strength::kMust},
      .data = {.members = {{"supported", DataKind::kNonEmptyStringArray},
                           {"requested", DataKind::kRequestedVersion}},
               .strength = Strength::kMust},
      .reference = "R5:basic/versioning.mdx; R5 streamable-http \"Protocol Version Header\"; TS "
                   "R5 UnsupportedProtocolVersionError; EX:UnsupportedProtocolVersionError; "
                   "tables §4b V3, §10 X8",
      .summary = "An unsupported protocolVersion gets -32022 with data.supported and "
                 "data.requested (HTTP 400)",
  });
  rows.push_back({
      .id = check::kDiscoverResult,
      .revisions = kStatelessEra,
      .channel = {.conformant = {kSuccess}, .strength = Strength::kMust},
      .http_status = {.conformant = {kHttp2xx}, .strength = Strength::kMust},
      .shape = ShapeCheck::kDiscoverResult,
      .shape_strength = Strength::kMust,
      .reference = "R5:server/discover.mdx; TS R5 DiscoverResult, CacheableResult; R5:server/"
                   "utilities/caching.mdx; tables §4b V5, V9",
      .summary = "server/discover returns resultType, supportedVersions, capabilities, ttlMs and "
                 "cacheScope",
  });
  // A server that offers no subscriptions may refuse the listen request: the spec names no
  // code for it, so a refusal is not judged. What it must hold to is the stream it opens.
  rows.push_back({
      .id = check::kListenAcknowledged,
      .revisions = kStatelessEra,
      .channel = {.conformant = {kSuccess, kNoReply, kProtocolError}, .strength = Strength::kMust},
      .shape = ShapeCheck::kListenStream,
      .shape_strength = Strength::kMust,
      .reference = "TS R5 SubscriptionsAcknowledgedNotification, SubscriptionFilter, "
                   "SubscriptionsListenResultMetaObject; R5:basic/patterns/subscriptions.mdx; "
                   "tables §4b V17, §10 X22",
      .summary = "subscriptions/listen is acknowledged first, stamped with its id, and carries "
                 "only the notification types opted into",
  });
  rows.push_back({
      .id = check::kCapabilityUnadvertised,
      .revisions = kHandshakeEra,
      .capability = CapabilityRequirement::kUndeclared,
      // §12.15: before 2026-07-28 only completion names -32601 (SHOULD); serving the method
      // anyway breaks nothing the server is bound by, so it is tolerated.
      .channel = {.conformant = {kProtocolError},
                  .tolerated = {kSuccess},
                  .strength = Strength::kShould},
      .code = {.conformant = {kMethodNotFoundCode}, .strength = Strength::kShould},
      .reference = "R2+:server/utilities/completion.mdx; R3:changelog.mdx #9; tables §5 M2, §4a "
                   "L7, §12.15",
      .summary = "A method of a capability the server did not advertise gets -32601",
  });
  rows.push_back({
      .id = check::kCapabilityUnadvertised,
      .revisions = kStatelessEra,
      .capability = CapabilityRequirement::kUndeclared,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
      .code = {.conformant = {kMethodNotFoundCode}, .strength = Strength::kMust},
      // The 404 follows only by inference ("not implemented"), §12.15.
      .http_status = {.conformant = {kHttp404}, .strength = Strength::kShould},
      .reference = "TS R5 MethodNotFoundError; EX:MethodNotFoundError/prompts-not-supported; R5 "
                   "streamable-http; CONF; tables §5 M2, §12.15",
      .summary = "A method of an unadvertised capability gets -32601 (HTTP 404)",
  });
  rows.push_back({
      .id = check::kClientCapabilityRequired,
      .revisions = kStatelessEra,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
      .code = {.conformant = {kMissingClientCapabilityCode}, .strength = Strength::kMust},
      .http_status = {.conformant = {kHttp400}, .strength = Strength::kMust},
      .data = {.members = {{"requiredCapabilities", DataKind::kObject}},
               .strength = Strength::kMust},
      .reference = "R5:basic/index.mdx; TS R5 MissingRequiredClientCapabilityError; "
                   "EX:MissingRequiredClientCapabilityError; CONF; tables §4b V4, §10 X17",
      .summary = "A request needing an undeclared client capability gets -32021 with "
                 "data.requiredCapabilities (HTTP 400)",
  });
}

}  // namespace mcpfuzz::oracles_detail
