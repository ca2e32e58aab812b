// The expectation table, part 5: the stdio transport (tables §8). These rows judge the process
// and everything it wrote, so a failed exchange is the server's own answer.

#include "oracles/detail/table.h"

namespace mcpfuzz::oracles_detail {

void AddStdioRows(std::vector<Expectation>& rows) {
  rows.push_back({
      .id = check::kStdoutOnlyJsonRpc,
      .revisions = kEveryRevision,
      .transports = TransportScope::kStdio,
      .judges_transport_failure = true,
      .shape = ShapeCheck::kStdoutOnlyJsonRpc,
      .shape_strength = Strength::kMust,
      .reference = "<rev>:basic/transports.mdx \"stdio\"; R5:basic/transports/stdio.mdx; "
                   "R4:basic/transports.mdx (UTF-8); tables §8 S1, S3, S4",
      .summary = "stdout carries only newline-delimited JSON-RPC messages; logs go to stderr",
  });
  rows.push_back({
      .id = check::kNoEarlyExit,
      .revisions = kEveryRevision,
      .transports = TransportScope::kStdio,
      .judges_transport_failure = true,
      // A server MAY end the connection by closing stdout and exiting; dying on an input (a
      // signal or a failure exit code) leaves a request unanswered, which JRPC forbids (MUST).
      // A clean exit (code 0) is judged as that MAY-level shutdown and only warns.
      .shape = ShapeCheck::kProcessAlive,
      .shape_strength = Strength::kMust,
      .reference = "<rev>:basic/lifecycle.mdx \"Shutdown\"; R5:basic/transports/stdio.mdx; "
                   "JRPC §4; tables §8 S6",
      .summary = "The server process survives any input; only the client ends the session",
  });
  rows.push_back({
      .id = check::kKeepsAnswering,
      .revisions = kEveryRevision,
      .transports = TransportScope::kStdio,
      .judges_transport_failure = true,
      // Observed on a well-formed request sent after a hostile one: it is owed a response.
      .channel = {.conformant = {kProtocolError, kSuccess, kExecutionError},
                  .strength = Strength::kMust},
      .reference = "JRPC §4 (a request MUST get a response); <rev>:basic/transports.mdx "
                   "\"stdio\"; tables §8, §12.4",
      .summary = "After a hostile input, the next well-formed request still gets a response",
  });
}

}  // namespace mcpfuzz::oracles_detail
