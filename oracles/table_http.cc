// The expectation table, part 4: Streamable HTTP headers, sessions and endpoint rules
// (tables §9, §10, §12.9, §12.11, §12.16).

#include "oracles/detail/table.h"

namespace mcpfuzz::oracles_detail {
namespace {

constexpr RevisionRange kStreamableHandshake{kR2, kR4};
constexpr RevisionRange kStreamableHttp{kR2, kR5};

}  // namespace

void AddHttpRows(std::vector<Expectation>& rows) {
  const ChannelRule header_mismatch_error = {.conformant = {kProtocolError},
                                             .strength = Strength::kMust};
  const CodeRule header_mismatch_code = {.conformant = {kHeaderMismatchCode},
                                         .strength = Strength::kMust};
  const StatusRule bad_request = {.conformant = {kHttp400}, .strength = Strength::kMust};

  rows.push_back({
      .id = check::kProtocolVersionHeaderMismatch,
      .revisions = kStatelessEra,
      .transports = TransportScope::kHttp,
      .channel = header_mismatch_error,
      .code = header_mismatch_code,
      .http_status = bad_request,
      .reference = "R5 streamable-http \"Protocol Version Header\", \"Server Validation\"; CONF "
                   "sep-2575-http-server-header-mismatch-400; tables §10 X7, step 3",
      .summary = "MCP-Protocol-Version disagreeing with _meta protocolVersion gets -32020 (HTTP "
                 "400), even when _meta names an unsupported version",
  });
  // In 2026-07-28 a malformed header value necessarily disagrees with the body's _meta.
  rows.push_back({
      .id = check::kProtocolVersionHeaderInvalid,
      .revisions = kStatelessEra,
      .transports = TransportScope::kHttp,
      .channel = header_mismatch_error,
      .code = header_mismatch_code,
      .http_status = bad_request,
      .reference = "R5 streamable-http \"Protocol Version Header\", \"Server Validation\"; tables "
                   "§10 X6, X7",
      .summary = "A malformed MCP-Protocol-Version value gets -32020 (HTTP 400)",
  });
  rows.push_back({
      .id = check::kProtocolVersionHeaderInvalid,
      .revisions = {kR3, kR4},
      .transports = TransportScope::kHttp,
      // The body of this rejection is unspecified (§12.16): only the status is asserted.
      .http_status = bad_request,
      .reference = "R3/R4:basic/transports.mdx \"Protocol Version Header\"; tables §9b H15, §12.16",
      .summary = "An invalid or unsupported MCP-Protocol-Version header gets HTTP 400",
  });
  rows.push_back({
      .id = check::kProtocolVersionHeaderMissing,
      .revisions = {kR3, kR4},
      .transports = TransportScope::kHttp,
      // The server SHOULD fall back on the negotiated version (or 2025-03-26) and serve it.
      .http_status = {.conformant = {kHttp2xx}, .strength = Strength::kShould},
      .reference = "R3/R4:basic/transports.mdx \"Protocol Version Header\"; tables §9b H16",
      .summary = "A request without MCP-Protocol-Version is served as the negotiated version (or "
                 "2025-03-26)",
  });
  rows.push_back({
      .id = check::kProtocolVersionHeaderMissing,
      .revisions = kStatelessEra,
      .transports = TransportScope::kHttp,
      // §12.6: "MAY treat as 2025-03-26" collides with "MUST reject with -32020": the rejection
      // is conformant, serving the request is tolerated.
      .channel = {.conformant = {kProtocolError},
                  .tolerated = {kSuccess},
                  .strength = Strength::kMust},
      .code = header_mismatch_code,
      .http_status = {.conformant = {kHttp400},
                      .tolerated = {kHttp2xx},
                      .strength = Strength::kMust},
      .reference = "R5 streamable-http \"Protocol Version Header\", \"Server Validation\"; tables "
                   "§10 X6, §12.6",
      .summary = "A request without MCP-Protocol-Version gets -32020 (HTTP 400); serving it is "
                 "tolerated",
  });

  // Standard request headers (X10, X11). The page says MUST for both the 400 and -32020, but
  // CONF scores the JSON-RPC error as SHOULD and the 400 as MUST (§12.9): a bare 400 warns.
  const ChannelRule standard_header_error = {.conformant = {kProtocolError},
                                             .strength = Strength::kShould,
                                             .http_rejection = HttpRejection::kTolerated};
  const CodeRule standard_header_code = {.conformant = {kHeaderMismatchCode},
                                         .strength = Strength::kShould};
  struct HeaderCheck {
    std::string_view id;
    std::string_view summary;
  };
  for (const HeaderCheck& check : {
           HeaderCheck{check::kMethodHeaderMissing, "A request without Mcp-Method gets 400"},
           HeaderCheck{check::kMethodHeaderMismatch,
                       "Mcp-Method disagreeing with the body's method gets 400"},
           HeaderCheck{check::kMethodHeaderCase,
                       "Mcp-Method differing from the method only in case (TOOLS/LIST) gets "
                       "400: values are case-sensitive"},
       }) {
    rows.push_back({
        .id = check.id,
        .revisions = kStatelessEra,
        .transports = TransportScope::kHttp,
        .channel = standard_header_error,
        .code = standard_header_code,
        .http_status = bad_request,
        .reference = "R5 streamable-http \"Standard Request Headers\", \"Case Sensitivity\", "
                     "\"Server Validation\"; SEP-2243; tables §10 X10, §12.9",
        .summary = check.summary,
    });
  }
  for (const HeaderCheck& check : {
           HeaderCheck{check::kNameHeaderMissing,
                       "tools/call, prompts/get or resources/read without Mcp-Name gets 400"},
           HeaderCheck{check::kNameHeaderMismatch,
                       "Mcp-Name disagreeing with params.name/uri after Base64 decoding gets "
                       "400"},
       }) {
    rows.push_back({
        .id = check.id,
        .revisions = kStatelessEra,
        .transports = TransportScope::kHttp,
        .channel = standard_header_error,
        .code = standard_header_code,
        .http_status = bad_request,
        .reference = "R5 streamable-http \"Standard Request Headers\", \"Server Validation\"; "
                     "EX:HeaderMismatchError; SEP-2243; tables §10 X11, §12.9",
        .summary = check.summary,
    });
  }
  // An accepted header: whatever the call itself answers, it must not be a header rejection.
  // The in-band status is unspecified (§12.8), so a non-2xx only warns.
  const ChannelRule any_answer = {.conformant = {kSuccess, kExecutionError, kProtocolError},
                                  .strength = Strength::kMust};
  const CodeRule not_a_header_rejection = {.forbidden = {kHeaderMismatchCode}};
  const StatusRule served = {.conformant = {kHttp2xx}, .strength = Strength::kShould};
  rows.push_back({
      .id = check::kNameHeaderBase64,
      .revisions = kStatelessEra,
      .transports = TransportScope::kHttp,
      .channel = any_answer,
      .code = not_a_header_rejection,
      .http_status = served,
      .reference = "R5 streamable-http \"Standard Request Headers\" (=?base64?…?=); SEP-2243; "
                   "tables §10 X11, §13",
      .summary = "Mcp-Name in the correct =?base64?…?= form is accepted",
  });
  rows.push_back({
      .id = check::kNameHeaderWhitespace,
      .revisions = kStatelessEra,
      .transports = TransportScope::kHttp,
      .channel = any_answer,
      .code = not_a_header_rejection,
      .http_status = served,
      .reference = "RFC 9110 §5.5 (optional whitespace); SEP-2243 edge cases; CONF; tables §10 X12",
      .summary = "Mcp-Name with surrounding whitespace is accepted (the whitespace is stripped)",
  });

  // Sessions, 2025-03-26 … 2025-11-25. Bodies of HTTP-level rejections are unspecified
  // (§12.16): only statuses are asserted.
  rows.push_back({
      .id = check::kSessionMissing,
      .revisions = kStreamableHandshake,
      .transports = TransportScope::kHttp,
      .capability = CapabilityRequirement::kDeclared,
      .http_status = {.conformant = {kHttp400}, .strength = Strength::kShould},
      .reference = "R2–R4:basic/transports.mdx \"Session Management\"; tables §9b H12, §12.16",
      .summary = "A request without Mcp-Session-Id at a server that assigned one gets HTTP 400",
  });
  rows.push_back({
      .id = check::kSessionUnknown,
      .revisions = kStreamableHandshake,
      .transports = TransportScope::kHttp,
      .capability = CapabilityRequirement::kDeclared,
      .http_status = {.conformant = {kHttp404}, .strength = Strength::kMust},
      .reference = "R2–R4:basic/transports.mdx \"Session Management\"; CONF "
                   "server-session-lifecycle; tables §9b H13, §12.16",
      .summary = "A request with a terminated or unknown session id gets HTTP 404",
  });
  rows.push_back({
      .id = check::kSessionDelete,
      .revisions = kStreamableHandshake,
      .transports = TransportScope::kHttp,
      .capability = CapabilityRequirement::kDeclared,
      // The success status is unspecified and 405 is a MAY; anything else means the server
      // neither ended the session nor declined to, which the page does not allow for but names
      // no keyword against: a SHOULD-level deviation.
      .http_status = {.conformant = {kHttp2xx, kHttp405}, .strength = Strength::kShould},
      .reference = "R2–R4:basic/transports.mdx \"Session Management\"; CONF; tables §9b H14",
      .summary = "DELETE with the session id ends the session (2xx) or is refused with 405",
  });
  rows.push_back({
      .id = check::kSessionDelete,
      .revisions = kStatelessEra,
      .transports = TransportScope::kHttp,
      .http_status = {.conformant = {kHttp405}, .strength = Strength::kShould},
      .reference = "R5 streamable-http \"Earlier Streamable HTTP Revisions\"; tables §10 X19, "
                   "step 1",
      .summary = "DELETE gets 405: the stateless era has no sessions",
  });
  rows.push_back({
      .id = check::kHttpGet,
      .revisions = kStreamableHandshake,
      .transports = TransportScope::kHttp,
      .http_status = {.conformant = {kHttp200, kHttp405}, .strength = Strength::kMust},
      .shape = ShapeCheck::kEventStreamOn200,
      .shape_strength = Strength::kMust,
      .reference = "R2–R4:basic/transports.mdx \"Listening for Messages from the Server\"; tables "
                   "§9b H7",
      .summary = "GET on the endpoint opens an SSE stream (200 text/event-stream) or gets 405",
  });
  rows.push_back({
      .id = check::kHttpGet,
      .revisions = kStatelessEra,
      .transports = TransportScope::kHttp,
      .http_status = {.conformant = {kHttp405}, .strength = Strength::kShould},
      .reference = "R5 streamable-http \"Earlier Streamable HTTP Revisions\"; tables §10 X19, "
                   "step 1",
      .summary = "GET gets 405: the stateless era has no standalone stream",
  });

  // No revision names a status for a missing Accept or a wrong Content-Type (§12.11); the SDKs
  // answer 406/415 or 400, so any 4xx is conformant and serving the request only warns.
  const StatusRule any_client_error = {.conformant = {kHttp4xx}, .strength = Strength::kShould};
  rows.push_back({
      .id = check::kAcceptMissing,
      .revisions = kStreamableHttp,
      .transports = TransportScope::kHttp,
      .http_status = any_client_error,
      .reference = "R2–R4:basic/transports.mdx §Sending 2; R5 streamable-http; TSSDK; GOSDK; "
                   "tables §9b H1, §12.11",
      .summary = "A POST whose Accept lacks application/json or text/event-stream gets a 4xx",
  });
  rows.push_back({
      .id = check::kContentTypeWrong,
      .revisions = kStreamableHttp,
      .transports = TransportScope::kHttp,
      .http_status = any_client_error,
      .reference = "TSSDK; GOSDK; tables §9b H2, §12.11",
      .summary = "A POST whose Content-Type is not application/json gets a 4xx",
  });
  rows.push_back({
      .id = check::kOriginInvalid,
      .revisions = {kR2, kR3},
      .transports = TransportScope::kHttp,
      // "MUST validate", no status named; CONF accepts any 4xx.
      .http_status = {.conformant = {kHttp403, kHttp4xx}, .strength = Strength::kMust},
      .reference =
          "R2/R3:basic/transports.mdx \"Security Warning\"; CONF dns-rebinding-protection; "
          "tables §9b H17",
      .summary = "A request with an invalid Origin is refused with a 4xx",
  });
  rows.push_back({
      .id = check::kOriginInvalid,
      .revisions = {kR4, kR5},
      .transports = TransportScope::kHttp,
      // 403 is named; CONF still accepts any 4xx, so another 4xx is tolerated.
      .http_status = {.conformant = {kHttp403},
                      .tolerated = {kHttp4xx},
                      .strength = Strength::kMust},
      .reference =
          "R4:changelog.mdx minor #3; R4:basic/transports.mdx; R5 streamable-http "
          "\"Security & Endpoint\"; CONF dns-rebinding-protection; tables §9b H17, §10 X18",
      .summary = "A request with an invalid Origin gets HTTP 403",
  });
}

}  // namespace mcpfuzz::oracles_detail
