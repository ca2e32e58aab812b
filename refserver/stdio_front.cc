// The stdio front: one JSON-RPC message per line in, one per line out, logs elsewhere.

#include <cstdlib>
#include <istream>
#include <ostream>
#include <string>

#include "refserver/refserver.h"

namespace mcpfuzz::refserver {

int ServeStdio(ReferenceServer& server, std::istream& in, std::ostream& out, std::ostream& log) {
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
    for (const std::string& reply_line : reply.lines) out << reply_line << '\n';
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
