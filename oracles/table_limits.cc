// The expectation table, part 6: mcpfuzz's own rows (tables §15). No page of the spec names
// them; each follows from rules that do (T1, P1, R1 answer an unknown name whatever it is; JRPC
// answers every request; RFC 8259 §9 lets a parser refuse what is too deep or too large).

#include "oracles/detail/table.h"

namespace mcpfuzz::oracles_detail {

void AddLimitRows(std::vector<Expectation>& rows) {
  rows.push_back({
      .id = check::kUnknownNameConsistent,
      .revisions = kEveryRevision,
      .capability = CapabilityRequirement::kDeclared,
      // `__proto__`, `constructor`, `toString` name no tool either: T1/P1/R1 owe them the answer
      // a random name gets. Another channel or code breaks the row the random name keeps (MUST);
      // another message ("Tool __proto__ disabled") tells the client something exists that does
      // not (SHOULD: F15 asks only for a concise message).
      .channel = {.strength = Strength::kMust},
      .shape = ShapeCheck::kSameAnswerAsRandomName,
      .shape_strength = Strength::kShould,
      .reference = "<rev>:server/tools.mdx, prompts.mdx, resources.mdx \"Error Handling\"; "
                   "tables §6 T1, §7 P1, R1, §3 F15, §15 N1",
      .summary = "A name that reaches an object's prototype (__proto__, constructor) gets the "
                 "answer a random unknown name gets, up to the name",
  });
  // Valid JSON 10,000 to 100,000 levels deep in `arguments` or `_meta`. RFC 8259 §9 lets the
  // parser refuse it, and the refusal is a JSON-RPC error (-32700, -32600) or an HTTP 4xx; what
  // it may not do is fail: a 5xx (SHOULD: RFC 9110 §15.6.1 keeps 500 for unexpected
  // conditions), a body that is not JSON-RPC or none (MUST, JRPC §5), a dead process (checked
  // by stdio.no-early-exit and stdio.keeps-answering).
  for (TransportScope scope : {TransportScope::kHttp, TransportScope::kStdio}) {
    const bool stdio = scope == TransportScope::kStdio;
    // Both rows: answered or refused, never failed. Over stdio a line the parser refused may
    // be dropped like any unreadable line (F1 "silent").
    const ChannelRule channel{
        .conformant =
            stdio ? std::vector<Channel>{kProtocolError, kExecutionError, kSuccess, kNoReply}
                  : std::vector<Channel>{kProtocolError, kExecutionError, kSuccess},
        .strength = Strength::kMust,
        .http_rejection = HttpRejection::kConformant};
    const StatusRule http_status =
        stdio ? StatusRule{}
              : StatusRule{.conformant = {kHttp2xx, kHttp4xx}, .strength = Strength::kShould};
    rows.push_back({
        .id = check::kDeepNesting,
        .revisions = kEveryRevision,
        .transports = scope,
        .channel = channel,
        .http_status = http_status,
        .reference = "RFC 8259 §9; JRPC §5; RFC 9110 §15.6.1; tables §3 F1, §15 Z1",
        .summary = "Valid JSON nested 10,000-100,000 deep is answered or refused, never "
                   "failed with a 5xx or a crash",
    });
    rows.push_back({
        .id = check::kOversizedRequest,
        .revisions = kEveryRevision,
        .transports = scope,
        // A connection closed without a response answers nothing Z2 names: tolerated only.
        .closed_without_answer = stdio ? std::nullopt : std::optional<Strength>(Strength::kShould),
        // A body at or above a common limit (1, 4, 10, 16 MiB), or an id, a method name, a tool
        // name, a _meta key, many _meta keys or a header value that grows (Z2): served, or
        // refused with a JSON-RPC error or an HTTP 4xx (413 is RFC 9110's, 431 RFC 6585's for a
        // header); over stdio also dropped. A long id comes back unchanged, as every reply's id
        // must (the envelope). The server must keep answering afterwards: stdio.keeps-answering
        // judges the sentinel.
        .channel = channel,
        .http_status = http_status,
        .reference = "RFC 8259 §9; RFC 9110 §15.5.14 (413), §15.6.1; RFC 6585 §5 (431); JRPC §5; "
                     "tables §8 S1, §15 Z2",
        .summary = "A request of 1 to 16 MiB, or with a string id, method name, tool name, "
                   "_meta key or header value of up to 1 MiB, is served or refused (HTTP 413, "
                   "431 or a JSON-RPC error), and the server keeps answering",
    });
  }
}

}  // namespace mcpfuzz::oracles_detail
