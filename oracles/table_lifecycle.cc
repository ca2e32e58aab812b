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

  // 2026-07-28: every request carries its own protocol fields (tables §4b).
  // §12.6: with neither _meta nor MCP-Protocol-Version, -32602 (missing _meta), -32020 (missing
  // header) and -32022 (TSSDK: no envelope) are all conformant, with 400.
  rows.push_back({
      .id = check::kMetaMissing,
      .revisions = kStatelessEra,
      .transports = TransportScope::kHttp,
      .condition = RequestCondition::kNoProtocolVersionHeader,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
      .code = {.conformant = {kInvalidParamsCode, kHeaderMismatchCode,
                              kUnsupportedProtocolVersionCode},
               .strength = Strength::kMust},
      .http_status = {.conformant = {kHttp400}, .strength = Strength::kMust},
      .reference = "R5:basic/index.mdx \"Per-request protocol fields\"; R5 streamable-http "
                   "\"Protocol Version Header\"; tables §4b V1, §10 X6, §12.6",
      .summary = "A request with neither _meta nor MCP-Protocol-Version gets 400 with -32602, "
                 "-32020 or -32022",
  });
  struct MetaCheck {
    std::string_view id;
    std::string_view summary;
  };
  for (const MetaCheck& check : {
           MetaCheck{check::kMetaMissing, "A request without params._meta gets -32602 (HTTP 400)"},
           MetaCheck{check::kMetaPartial,
                     "A request whose _meta lacks clientCapabilities (or protocolVersion) gets "
                     "-32602 (HTTP 400)"},
       }) {
    rows.push_back({
        .id = check.id,
        .revisions = kStatelessEra,
        .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
        .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kMust},
        .http_status = {.conformant = {kHttp400}, .strength = Strength::kMust},
        .reference = "R5:basic/index.mdx \"Per-request protocol fields\"; CONF server-stateless "
                     "(ids 101, 102, 104); tables §4b V1, §10 X16",
        .summary = check.summary,
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
