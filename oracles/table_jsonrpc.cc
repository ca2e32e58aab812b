// The expectation table, part 1: JSON-RPC framing, notifications and batches (tables §3).

#include "oracles/detail/table.h"

namespace mcpfuzz::oracles_detail {
namespace {

// A message that is not a valid request object owes a JSON-RPC error (JRPC §5: "the Server MUST
// reply with a Response"), but MCP itself names no reaction ("—" in the tables) and the SDKs
// refuse differently: the TypeScript SDK's stdio transport hands unparseable lines to onerror
// without replying, its HTTP transport answers 400 with an error, and bodies of HTTP refusals
// are often plain text (tables §12.16). So the JSON-RPC error is the conformant answer, silence
// and a bare 4xx are tolerated, and treating the message as a served request breaks JRPC (MUST).
ChannelRule RejectedAsMalformed(std::vector<Channel> also_tolerated = {},
                                Strength served = Strength::kMust) {
  std::vector<Channel> tolerated = {kNoReply};
  tolerated.insert(tolerated.end(), also_tolerated.begin(), also_tolerated.end());
  return {.conformant = {kProtocolError},
          .tolerated = std::move(tolerated),
          .strength = served,
          .http_rejection = HttpRejection::kTolerated};
}

// JRPC names -32600 for an invalid request object, but with no RFC keyword on which code to
// pick and no MCP text at all, a different code is a SHOULD-level deviation.
CodeRule InvalidRequestCode() {
  return {.conformant = {kInvalidRequestCode}, .strength = Strength::kShould};
}

}  // namespace

void AddJsonRpcRows(std::vector<Expectation>& rows) {
  rows.push_back({
      .id = check::kParseError,
      .revisions = kEveryRevision,
      .channel = RejectedAsMalformed(),
      // The tables give "— (JRPC M)": JRPC defines -32700 for exactly this case.
      .code = {.conformant = {kParseErrorCode}, .strength = Strength::kMust},
      .reference = "JRPC §5.1; R4/R5:basic/index.mdx (id may be omitted); tables §3 F1, §12.3",
      .summary = "Invalid JSON gets a -32700 error whose id is null (or absent from 2025-11-25)",
  });
  // Bytes that are not UTF-8 inside a string of otherwise valid JSON. RFC 8259 §8.1's UTF-8
  // MUST binds the sender (so does the tables' S4), §8.2 calls a receiver's behaviour
  // "unpredictable" and §9 lets a parser accept extensions: decoders that read such bytes as
  // U+FFFD (JavaScript's, so every SDK stack) then serve the request. No text names the
  // server's reaction, so -32700 is preferred and serving it is only tolerated (WARN).
  rows.push_back({
      .id = check::kParseError,
      .revisions = kEveryRevision,
      .condition = RequestCondition::kInvalidUtf8InString,
      .channel = RejectedAsMalformed({kSuccess, kExecutionError}),
      .code = {.conformant = {kParseErrorCode}, .strength = Strength::kShould},
      .reference = "RFC 8259 §8.1 (UTF-8 MUST, on the sender), §8.2, §9 (parsers MAY accept "
                   "extensions); R4:basic/transports.mdx (UTF-8); tables §3 F1a, §8 S4",
      .summary = "Invalid UTF-8 inside a string of otherwise valid JSON is best refused with "
                 "-32700; serving it as the request it decodes to is tolerated",
  });
  rows.push_back({
      .id = check::kNotAnObject,
      .revisions = kEveryRevision,
      .channel = RejectedAsMalformed(),
      .code = InvalidRequestCode(),
      .reference = "JRPC §5.1; tables §3 F2",
      .summary = "Valid JSON that is neither an object nor an array (42, \"x\") gets -32600",
  });
  for (std::string_view id :
       {check::kMissingJsonrpc, check::kWrongJsonrpc, check::kMissingMethod}) {
    rows.push_back({
        .id = id,
        .revisions = kEveryRevision,
        .channel = RejectedAsMalformed(),
        .code = InvalidRequestCode(),
        .reference = "TS R5 InvalidRequestError; JRPC §4, §5.1; tables §3 F3",
        .summary = "A request whose jsonrpc is missing or not \"2.0\", or whose method is missing "
                   "or not a string, gets -32600",
    });
  }
  rows.push_back({
      .id = check::kIdNull,
      .revisions = kEveryRevision,
      // Requesters MUST NOT send a null id, but the server's reaction is unspecified and JRPC
      // would serve it as a request: serving it (or staying silent) is tolerated.
      .channel = RejectedAsMalformed({kSuccess, kExecutionError}),
      .code = InvalidRequestCode(),
      .reference = "R1:basic/messages.mdx; R2+:basic/index.mdx; JRPC §4; tables §3 F4",
      .summary = "A request with id null is best refused with -32600; serving it is tolerated",
  });
  rows.push_back({
      .id = check::kIdFloat,
      .revisions = kEveryRevision,
      // schema.json types RequestId as string|integer but schema.ts as string|number (§12.14),
      // so serving a fractional id is tolerated.
      .channel = RejectedAsMalformed({kSuccess, kExecutionError}),
      .code = InvalidRequestCode(),
      .reference = "schema.json RequestId (all revisions); TS RequestId; tables §3 F5, §12.14",
      .summary = "A request with a fractional id (1.5) is best refused with -32600",
  });
  for (std::string_view id : {check::kIdBool, check::kIdObject}) {
    rows.push_back({
        .id = id,
        .revisions = kEveryRevision,
        .channel = RejectedAsMalformed(),
        .code = InvalidRequestCode(),
        .reference = "schema.json RequestId (all revisions); JRPC §4 id; tables §3 F5",
        .summary = "A request whose id is a boolean or an object is refused with -32600",
    });
  }
  rows.push_back({
      .id = check::kParamsNotObject,
      .revisions = kEveryRevision,
      // F6 carries no keyword: the MCP schema types params as an object, but nothing obliges
      // a server to refuse one that is not, so serving it leniently warns (issue #26).
      .channel = RejectedAsMalformed({}, Strength::kShould),
      // The table gives "-32602 (or -32600)": both codes are conformant.
      .code = {.conformant = {kInvalidParamsCode, kInvalidRequestCode},
               .strength = Strength::kShould},
      .reference = "TS (all revisions) Request.params; tables §3 F6",
      .summary = "A request whose params is not an object gets -32602 or -32600",
  });

  // JRPC: "The Server MUST NOT reply to a Notification"; 2024-11-05 only describes it.
  rows.push_back({
      .id = check::kNotificationNoReply,
      .revisions = {kR1, kR1},
      .channel = {.conformant = {kNoReply}, .strength = Strength::kMust},
      .reference = "JRPC §4.1; R1:basic/messages.mdx (desc); tables §3 F7, §5 M3",
      .summary = "A notification, known or unknown, gets no response",
  });
  rows.push_back({
      .id = check::kNotificationNoReply,
      .revisions = {kR2, kR5},
      // HTTP: 202 without a body, or a 4xx when not accepted, whose body MAY be an error.
      .channel = {.conformant = {kNoReply},
                  .strength = Strength::kMust,
                  .http_rejection = HttpRejection::kConformant},
      .http_status = {.conformant = {kHttp202, kHttp4xx}, .strength = Strength::kMust},
      .reference = "R2+:basic/index.mdx (receiver MUST NOT send a response); R2–R4:basic/"
                   "transports.mdx §Sending 4; R5 streamable-http §Sending 5; tables §3 F7, §9 "
                   "H4/H5, §10 X2",
      .summary = "A notification gets no response: HTTP 202 with no body, or a 4xx if refused",
  });

  rows.push_back({
      .id = check::kBatchAccepted,
      .revisions = {kR2, kR2},
      .shape = ShapeCheck::kBatchResponses,
      .shape_strength = Strength::kMust,
      .reference = "R2:basic/index.mdx \"Batching\"; TS R2 JSONRPCBatchRequest; R2:basic/"
                   "transports.mdx §Sending 3–5; tables §3 F11",
      .summary = "2025-03-26 servers MUST accept a batch: one response per request, or HTTP 202 "
                 "for a batch of notifications",
  });
  // An empty array is no batch at all: JRPC §6 answers it with one -32600 error, not an array.
  // Only 2025-03-26 speaks JSON-RPC batches; elsewhere `[]` falls under batch.rejected's
  // silence, so the tables name this check for 2025-03-26 alone.
  rows.push_back({
      .id = check::kBatchEmpty,
      .revisions = {kR2, kR2},
      .channel = RejectedAsMalformed(),
      .code = InvalidRequestCode(),
      .reference = "JRPC §6 (rpc call with an empty Array); tables §3 F12",
      .summary = "2025-03-26: an empty batch [] gets a single -32600 error with id null",
  });
  // Batches are not MCP messages outside 2025-03-26 but no reaction is defined (§12.12): SDKs
  // either refuse them (400/-32600) or still process them, so processing is tolerated.
  const ChannelRule batch_refused = {.conformant = {kProtocolError},
                                     .tolerated = {kNoReply},
                                     .strength = Strength::kMust,
                                     .http_rejection = HttpRejection::kConformant};
  for (RevisionRange revisions : {RevisionRange{kR1, kR1}, RevisionRange{kR3, kR5}}) {
    rows.push_back({
        .id = check::kBatchRejected,
        .revisions = revisions,
        .channel = batch_refused,
        .code = InvalidRequestCode(),
        .shape = ShapeCheck::kBatchProcessingTolerated,
        .shape_strength = Strength::kShould,
        .reference = "TS R1/R3/R4/R5 JSONRPCMessage (no batch); R3:changelog.mdx #1; R3/R4:basic/"
                     "transports.mdx; R5 streamable-http §Sending 4; tables §3 F14, §12.12",
        .summary = "A batch is not an MCP message here: refusing it (-32600 or a 4xx) is "
                   "conformant, processing it is tolerated",
    });
  }
}

}  // namespace mcpfuzz::oracles_detail
