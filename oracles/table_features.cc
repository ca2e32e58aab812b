// The expectation table, part 3: methods, tools, resources, prompts, pagination and logging
// (tables §5, §6, §7).

#include <utility>

#include "oracles/detail/table.h"

namespace mcpfuzz::oracles_detail {

void AddFeatureRows(std::vector<Expectation>& rows) {
  rows.push_back({
      .id = check::kUnknownMethod,
      .revisions = kHandshakeEra,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
      // "JRPC / R5 M": JRPC defines -32601 for exactly this.
      .code = {.conformant = {kMethodNotFoundCode}, .strength = Strength::kMust},
      .reference = "JRPC §5.1; tables §5 M1",
      .summary = "An unknown method gets -32601; the HTTP status is unspecified",
  });
  rows.push_back({
      .id = check::kUnknownMethod,
      .revisions = kStatelessEra,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
      .code = {.conformant = {kMethodNotFoundCode}, .strength = Strength::kMust},
      .http_status = {.conformant = {kHttp404}, .strength = Strength::kMust},
      .reference = "R5 streamable-http \"Protocol Version Header\"; SEP-2575; R5:changelog.mdx #4, "
                   "#5; CONF server-stateless §5; tables §5 M1, §4b V6, §10 X9",
      .summary = "An unknown or removed method (initialize, ping, logging/setLevel, "
                 "resources/(un)subscribe) gets -32601 (HTTP 404)",
  });
  // V6 names the removed methods; its ambiguity is only tasks/*, which stays out of this row
  // (served when the tasks extension is implemented).
  rows.push_back({
      .id = check::kRemovedMethod,
      .revisions = kStatelessEra,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
      .code = {.conformant = {kMethodNotFoundCode}, .strength = Strength::kMust},
      .http_status = {.conformant = {kHttp404}, .strength = Strength::kMust},
      .reference = "R5:changelog.mdx #4, #5; R5 streamable-http \"Protocol Version Header\"; CONF "
                   "server-stateless §5; tables §4b V6, §7 G3, §10 X9",
      .summary = "2026-07-28 removed initialize, ping, logging/setLevel and "
                 "resources/(un)subscribe: each gets -32601 (HTTP 404)",
  });
  // The removed initialize over stdio is the situation era.initialize-after-lock judges: a
  // dual-era server's connection pinned to 2026-07-28 refuses the handshake-era claim with the
  // codes of V16 (the TS and Python SDKs answer -32022). One rule for both checks: V16a's.
  rows.push_back({
      .id = check::kRemovedMethod,
      .revisions = kStatelessEra,
      .transports = TransportScope::kStdio,
      .condition = RequestCondition::kInitializeRequest,
      .channel = RefusedAfterEraLock(),
      .code = RefusedAfterEraLockCode(),
      .reference = "R5:changelog.mdx #4; R5:basic/transports/stdio.mdx \"Backward "
                   "Compatibility\"; python-sdk #3152; TS serveStdio; tables §4b V6, V16, V16a",
      .summary = "stdio: the removed initialize is refused as era.initialize-after-lock refuses it "
                 "(-32601, -32602, -32600 or -32022)",
  });

  rows.push_back({
      .id = check::kUnknownTool,
      .revisions = kEveryRevision,
      .capability = CapabilityRequirement::kDeclared,
      // The tools page lists an unknown tool as a protocol error in every revision (desc); a
      // result, even with isError, tells the client a tool by that name exists and ran, so the
      // channel is held to MUST. The code -32602 is only shown by example: a different one warns.
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
      .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kShould},
      .reference = "<rev>:server/tools.mdx \"Error Handling\"; TS R5 InvalidParamsError; "
                   "EX:InvalidParamsError/unknown-tool; tables §6 T1, §12.8",
      .summary = "tools/call of an unknown tool is a protocol error (-32602), not a result",
  });
  // A call that fails the CallToolRequest schema is a protocol error (R4+ names it; R1–R3 list
  // "Invalid arguments" there): no tool can run, so a result is wrong (MUST); the code is the
  // schema-violation convention, not spelled out (SHOULD).
  const ChannelRule schema_violation = {.conformant = {kProtocolError},
                                        .strength = Strength::kMust};
  const std::string_view schema_reference =
      "R4/R5:server/tools.mdx \"Error Handling\"; TS CallToolRequestParams; tables §6 T2, T3";
  rows.push_back({
      .id = check::kToolArgumentsNotObject,
      .revisions = kEveryRevision,
      .capability = CapabilityRequirement::kDeclared,
      .channel = schema_violation,
      .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kShould},
      .reference = schema_reference,
      .summary = "tools/call with non-object arguments gets -32602",
  });
  for (auto [revisions, transports] : {std::pair{kHandshakeEra, TransportScope::kBoth},
                                       std::pair{kStatelessEra, TransportScope::kStdio}}) {
    rows.push_back({
        .id = check::kToolMissingName,
        .revisions = revisions,
        .transports = transports,
        .capability = CapabilityRequirement::kDeclared,
        .channel = schema_violation,
        .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kShould},
        .reference = schema_reference,
        .summary = "tools/call without a string name gets -32602",
    });
  }
  // 2026-07-28 over HTTP, Mcp-Name mirrors params.name (X11). A name that is absent, null or a
  // container has no value the header could carry, so the request cannot keep X11 either, and
  // a server that validates headers before dispatch (§10 step 6) answers 400/-32020.
  rows.push_back({
      .id = check::kToolMissingName,
      .revisions = kStatelessEra,
      .transports = TransportScope::kHttp,
      .capability = CapabilityRequirement::kDeclared,
      .channel = schema_violation,
      .code = {.conformant = {kInvalidParamsCode, kHeaderMismatchCode},
               .strength = Strength::kShould},
      .reference = "R5:server/tools.mdx \"Error Handling\"; R5 streamable-http \"Server "
                   "Validation\"; TS CallToolRequestParams; tables §6 T2, §10 X11, step 6",
      .summary = "tools/call without a string name gets -32602, or -32020 when the server checks "
                 "Mcp-Name (which cannot mirror a missing name) first",
  });
  // Tool input validation (§12.1). Every revision's tools page says servers MUST validate all
  // tool inputs, so a success result for invalid arguments fails. The error text SHOULD be
  // actionable, which for a bad argument means naming it.
  rows.push_back({
      .id = check::kToolBadArguments,
      .revisions = {kR1, kR3},
      .capability = CapabilityRequirement::kDeclared,
      .channel = {.conformant = {kProtocolError, kExecutionError}, .strength = Strength::kMust},
      .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kShould},
      .shape = ShapeCheck::kNamesArgument,
      .shape_strength = Strength::kShould,
      .reference = "<rev>:server/tools.mdx \"Error Handling\", \"Security Considerations\"; "
                   "SEP-1303; tables §6 T4, §12.1",
      .summary = "Arguments failing the inputSchema get -32602 or an isError result (both "
                 "conformant), naming the argument",
  });
  rows.push_back({
      .id = check::kToolBadArguments,
      .revisions = {kR4, kR5},
      .capability = CapabilityRequirement::kDeclared,
      // The tools page moved input validation to isError (no RFC keyword), while the R5 schema
      // still shows -32602: -32602 is a SHOULD-level deviation only.
      .channel = {.conformant = {kExecutionError},
                  .tolerated = {kProtocolError},
                  .strength = Strength::kMust},
      .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kShould},
      .shape = ShapeCheck::kNamesArgument,
      .shape_strength = Strength::kShould,
      .reference = "R4/R5:server/tools.mdx \"Error Handling\", \"Security Considerations\"; "
                   "SEP-1303; EX:InvalidParamsError/invalid-tool-arguments; "
                   "EX:CallToolResult/invalid-tool-input-error; tables §6 T4, §12.1",
      .summary = "Arguments failing the inputSchema get an isError result naming the argument; "
                 "-32602 is tolerated",
  });

  rows.push_back({
      .id = check::kUnknownResource,
      .revisions = kHandshakeEra,
      .capability = CapabilityRequirement::kDeclared,
      // §12.10: the page says -32002 (SHOULD) but TSSDK answers -32602 on every revision: both
      // are conformant. data.uri is shown by example only, so it is not required.
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kShould},
      .code = {.conformant = {kResourceNotFoundCode, kInvalidParamsCode},
               .strength = Strength::kShould},
      .reference = "<rev>:server/resources.mdx \"Error Handling\"; tables §7 R1r, §12.10",
      .summary = "resources/read of an unknown URI gets -32002 or -32602",
  });
  rows.push_back({
      .id = check::kUnknownResource,
      .revisions = kStatelessEra,
      .capability = CapabilityRequirement::kDeclared,
      // An empty contents array is a success result, so the MUST channel rule fails it.
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kMust},
      .code = {.conformant = {kInvalidParamsCode},
               .forbidden = {kResourceNotFoundCode},
               .strength = Strength::kMust},
      .reference = "R5:server/resources.mdx; R5:basic/index.mdx \"Error Codes\"; CONF "
                   "sep-2164-resource-not-found; tables §7 R2r, §12.10",
      .summary = "resources/read of an unknown URI gets -32602, never -32002 or empty contents",
  });
  rows.push_back({
      .id = check::kUnknownPrompt,
      .revisions = kEveryRevision,
      .capability = CapabilityRequirement::kDeclared,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kShould},
      .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kShould},
      .reference = "<rev>:server/prompts.mdx \"Error Handling\"; EX:InvalidParamsError/"
                   "unknown-prompt; tables §7 P1",
      .summary = "prompts/get of an unknown prompt gets -32602",
  });
  rows.push_back({
      .id = check::kPromptMissingArguments,
      .revisions = kEveryRevision,
      .capability = CapabilityRequirement::kDeclared,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kShould},
      .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kShould},
      .reference = "<rev>:server/prompts.mdx \"Error Handling\"; tables §7 P2",
      .summary = "prompts/get without a required argument of the prompt gets -32602",
  });
  rows.push_back({
      .id = check::kInvalidCursor,
      .revisions = kEveryRevision,
      .capability = CapabilityRequirement::kDeclared,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kShould},
      .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kShould},
      .reference = "<rev>:server/utilities/pagination.mdx \"Error Handling\"; "
                   "EX:InvalidParamsError/invalid-cursor; tables §7 C1",
      .summary = "A */list request with an invalid cursor gets -32602",
  });
  // A cursor used again (a sequence, or the checklist): stable cursors are a SHOULD.
  rows.push_back({
      .id = check::kCursorReused,
      .revisions = kEveryRevision,
      .capability = CapabilityRequirement::kDeclared,
      .channel = {.conformant = {kSuccess}, .strength = Strength::kShould},
      .http_status = {.conformant = {kHttp2xx}, .strength = Strength::kShould},
      .reference = "<rev>:server/utilities/pagination.mdx \"Implementation Guidelines\" "
                   "(\"Servers SHOULD: Provide stable cursors\"); tables §7 C2",
      .summary = "A */list request with a cursor the same list handed out, used once already, "
                 "gets a result again",
  });
  rows.push_back({
      .id = check::kInvalidLogLevel,
      .revisions = kHandshakeEra,
      .capability = CapabilityRequirement::kDeclared,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kShould},
      .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kShould},
      .reference = "<rev>:server/utilities/logging.mdx \"Error Handling\"; tables §7 G2",
      .summary = "logging/setLevel with an unknown level gets -32602",
  });
  rows.push_back({
      .id = check::kInvalidLogLevel,
      .revisions = kStatelessEra,
      .capability = CapabilityRequirement::kDeclared,
      .channel = {.conformant = {kProtocolError}, .strength = Strength::kShould},
      .code = {.conformant = {kInvalidParamsCode}, .strength = Strength::kShould},
      .reference = "R5:server/utilities/logging.mdx; TS R5 RequestMetaObject; tables §4b V12",
      .summary = "A request whose _meta logLevel is not a level gets -32602; the HTTP status is "
                 "unspecified",
  });
  // resources/unsubscribe of a URI this session subscribed to, and a ping after it (a sequence):
  // each answered with an empty result, and no update of that URI after the unsubscribe's answer
  // (judged with the reply's related notifications). The schema's words carry no RFC keyword.
  rows.push_back({
      .id = check::kUnsubscribe,
      .revisions = kHandshakeEra,
      .capability = CapabilityRequirement::kDeclared,
      .channel = {.conformant = {kSuccess}, .strength = Strength::kShould},
      .http_status = {.conformant = {kHttp2xx}, .strength = Strength::kShould},
      .shape = ShapeCheck::kEmptyResult,
      .shape_strength = Strength::kShould,
      .reference = "TS UnsubscribeRequest (\"request cancellation of resources/updated "
                   "notifications\"; \"should follow a previous resources/subscribe request\"), "
                   "EmptyResult; <rev>:server/resources.mdx \"Subscriptions\"; tables §7 R4s",
      .summary = "resources/unsubscribe after resources/subscribe gets an empty result, and no "
                 "update of that resource comes after it",
  });
  // A ping in a session whose level logging/setLevel set (a sequence): answered as any ping
  // (L6a), and its log messages judged by the level (tables §7 G4, in the reply envelope's
  // related notifications: below the level is a lowercase "should", so a WARN).
  rows.push_back({
      .id = check::kSessionLogLevel,
      .revisions = kHandshakeEra,
      .capability = CapabilityRequirement::kDeclared,
      .channel = {.conformant = {kSuccess}, .strength = Strength::kMust},
      .http_status = {.conformant = {kHttp2xx}, .strength = Strength::kMust},
      .shape = ShapeCheck::kEmptyResult,
      .shape_strength = Strength::kMust,
      .reference = "<rev>:server/utilities/logging.mdx \"Setting Log Level\"; TS "
                   "SetLevelRequestParams.level (\"should send all logs at this level and "
                   "higher\"); <rev>:basic/utilities/ping.mdx; tables §7 G4, §4a L6a",
      .summary = "After logging/setLevel, a ping gets an empty result and no log message below "
                 "the level set",
  });
}

}  // namespace mcpfuzz::oracles_detail
