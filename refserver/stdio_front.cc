// The stdio front: one JSON-RPC message per line in, one per line out, logs elsewhere.
//
// It reads ahead, as the asynchronous SDKs do: every line already written is read before the
// first of them is answered. A request whose notifications/cancelled is among the lines read
// with it was still in flight when its cancellation arrived, so it gets no response (tables
// §4a L9: the receiver SHOULD NOT answer a cancelled request; §8 S5 in 2026-07-28: MUST NOT);
// with the fault cancelled-request-answered its reply is written anyway, after the replies to
// the lines read with it.

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "model/pretty_json.h"
#include "model/request.h"
#include "model/sequence.h"
#include "refserver/refserver.h"

namespace mcpfuzz::refserver {

namespace {

// Fault error-answered-twice: whether `line` is an error response naming a request.
bool ErrorWithId(const std::string& line) {
  const auto json = ParseJson(line);
  if (!json || !json->is_object()) return false;
  const auto* id = json->as_object().if_contains("id");
  return json->as_object().contains("error") && id != nullptr && !id->is_null();
}

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

// A line as the request model holds it, so the rule of what cancels what is the model's.
Request AsRequest(const std::string& line) {
  Request request;
  request.transport = TransportKind::kStdio;
  request.body = RawBody{line};
  return request;
}

// Whether the request `line` holds is cancelled by a line read with it. The substring test
// spares parsing every line read ahead for every reply.
bool CancelledInFlight(const std::string& line, const std::deque<std::string>& read_with_it) {
  const Request request = AsRequest(line);
  if (!request.RpcMethod()) return false;  // a response, or no JSON-RPC at all
  return std::any_of(read_with_it.begin(), read_with_it.end(), [&](const std::string& later) {
    return later.find("notifications/cancelled") != std::string::npos &&
           Cancels(AsRequest(later), request);
  });
}

}  // namespace

int ServeStdio(ReferenceServer& server, std::istream& in, std::ostream& out, std::ostream& log) {
  const bool pretty = server.options().faults.contains(Fault::kPrettyPrintedStdio);
  const bool answer_cancelled = server.options().faults.contains(Fault::kCancelledRequestAnswered);
  const bool errors_twice = server.options().faults.contains(Fault::kErrorAnsweredTwice);
  std::deque<std::string> unread;
  // Replies to cancelled requests (fault cancelled-request-answered), written once the lines
  // read with them are answered.
  std::vector<std::string> late;
  std::string line;
  for (;;) {
    if (unread.empty()) {
      if (!std::getline(in, line)) break;
      unread.push_back(std::move(line));
    }
    while (in.rdbuf()->in_avail() > 0 && std::getline(in, line)) unread.push_back(std::move(line));
    const std::string current = std::move(unread.front());
    unread.pop_front();
    StdioReply reply = server.HandleStdioLine(current);
    if (reply.action == Action::kCrash) {
      log << "mcpfuzz-refserver: aborting (fault crash-on-deep-nesting or crash-on-long-id)"
          << std::endl;
      std::abort();
    }
    if (reply.action == Action::kHang) {
      log << "mcpfuzz-refserver: leaving a request unanswered (fault hang-on-unknown-tool)"
          << std::endl;
      continue;
    }
    if (!reply.lines.empty() && CancelledInFlight(current, unread)) {
      if (answer_cancelled) late.insert(late.end(), reply.lines.begin(), reply.lines.end());
      reply.lines.clear();
    }
    for (const std::string& reply_line : reply.lines) {
      WriteLine(out, reply_line, pretty);
      if (errors_twice && ErrorWithId(reply_line)) WriteLine(out, reply_line, pretty);
    }
    if (unread.empty()) {
      for (const std::string& reply_line : late) WriteLine(out, reply_line, pretty);
      late.clear();
    }
    out.flush();
    if (reply.action == Action::kExit) {
      log << "mcpfuzz-refserver: exiting after the first request (fault exit-after-initialize)"
          << std::endl;
      return 0;
    }
  }
  for (const std::string& reply_line : late) WriteLine(out, reply_line, pretty);
  out.flush();
  return 0;
}

}  // namespace mcpfuzz::refserver
