// The bare stdio session client: the server started once with pipes, initialized, then one
// request written at a time and lines read until the one answering it arrives. Lines with
// another id or none (the server's notifications, its own requests) are skipped, as any
// client must; a reply that is an error, or none within the timeout, counts as an error.

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/real.h"
#include "benchmarks/stdio_child.h"

namespace mcpfuzz::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kReplyTimeout{5000};

class Server {
 public:
  explicit Server(const std::vector<std::string>& argv) : child_(argv) {}

  void WriteLine(const std::string& line) { child_.Write(line + '\n'); }

  /// The next line whose "id" is `id`; empty when none came within the timeout.
  std::string AwaitReply(long id) {
    const auto deadline = Clock::now() + kReplyTimeout;
    while (true) {
      for (std::size_t end = pending_.find('\n'); end != std::string::npos;
           end = pending_.find('\n')) {
        std::string line = pending_.substr(0, end);
        pending_.erase(0, end + 1);
        if (Answers(line, id)) return line;
      }
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return "";
      child_.ReadSome(pending_, left);
    }
  }

 private:
  static bool Answers(const std::string& line, long id) {
    boost::system::error_code error;
    const boost::json::value message = boost::json::parse(line, error);
    const auto* object = error ? nullptr : message.if_object();
    const auto* reply_id = object == nullptr ? nullptr : object->if_contains("id");
    return reply_id != nullptr && reply_id->is_int64() && reply_id->as_int64() == id &&
           !object->contains("method");
  }

  StdioChild child_;
  std::string pending_;
};

bool IsResult(const std::string& line) {
  return !line.empty() && boost::json::parse(line).as_object().contains("result");
}

}  // namespace

BareSessionRun BareSessionStdio(const std::vector<std::string>& argv, const std::string& method,
                                std::size_t requests) {
  Server server(argv);
  server.WriteLine(
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" +
      std::string(kBareRevision) +
      R"(","capabilities":{},"clientInfo":{"name":"mcpfuzz-bench-real","version":"1"}}})");
  const std::string opened = server.AwaitReply(0);
  if (!IsResult(opened)) throw std::runtime_error("bare client: initialize got '" + opened + "'");
  server.WriteLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  BareSessionRun run;
  run.requests = requests;
  const auto start = Clock::now();
  for (std::size_t i = 1; i <= requests; ++i) {
    const long id = static_cast<long>(i);
    server.WriteLine(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method +
                     "\"}");
    const std::string reply = server.AwaitReply(id);
    if (IsResult(reply)) continue;
    if (run.errors++ == 0) {
      run.first_error = method + ": " + (reply.empty() ? "no reply" : reply.substr(0, 200));
    }
  }
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return run;
}

}  // namespace mcpfuzz::bench
