// The stdio front: one JSON-RPC message per line in, one per line out, logs elsewhere.

#include <cstdlib>
#include <istream>
#include <ostream>
#include <string>

#include "model/pretty_json.h"
#include "model/request.h"
#include "refserver/refserver.h"

namespace mcpfuzz::refserver {

namespace {

// Fault pretty-printed-stdio: a JSON line as a person would indent it, across several lines;
// anything else (a log line) as it is.
void WriteLine(std::ostream& out, const std::string& line, bool pretty) {
  if (pretty) {
    if (auto json = ParseJson(line)) {
      out << PrettyJson(*json);  // ends with its own newline
      return;
    }
  }
  out << line << '\n';
}

}  // namespace

int ServeStdio(ReferenceServer& server, std::istream& in, std::ostream& out, std::ostream& log) {
  const bool pretty = server.options().faults.contains(Fault::kPrettyPrintedStdio);
  std::string line;
  while (std::getline(in, line)) {
    StdioReply reply = server.HandleStdioLine(line);
    if (reply.action == Action::kCrash) {
      log << "mcpfuzz-refserver: aborting (fault crash-on-deep-nesting)" << std::endl;
      std::abort();
    }
    if (reply.action == Action::kHang) {
      log << "mcpfuzz-refserver: leaving a request unanswered (fault hang-on-unknown-tool)"
          << std::endl;
      continue;
    }
    for (const std::string& reply_line : reply.lines) WriteLine(out, reply_line, pretty);
    out.flush();
    if (reply.action == Action::kExit) {
      log << "mcpfuzz-refserver: exiting after the first request (fault exit-after-initialize)"
          << std::endl;
      return 0;
    }
  }
  return 0;
}

}  // namespace mcpfuzz::refserver
