// The bare stdio session client: the server started once with pipes, initialized, then one
// request written at a time and lines read until the one answering it arrives. Lines with
// another id or none (the server's notifications, its own requests) are skipped, as any
// client must; a reply that is an error, or none within the timeout, counts as an error.

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/real.h"

extern char** environ;

namespace mcpfuzz::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kReplyTimeout{5000};

class Child {
 public:
  explicit Child(const std::vector<std::string>& argv) {
    int in[2];
    int out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
      throw std::runtime_error("pipe failed");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    const int spawned = posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
    if (spawned != 0) throw std::runtime_error("cannot start " + argv[0]);
  }
  ~Child() {
    close(to_child_);  // end of input: a stdio server exits
    close(from_child_);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  void WriteLine(std::string line) {
    line += '\n';
    for (std::size_t written = 0; written < line.size();) {
      const ssize_t n = write(to_child_, line.data() + written, line.size() - written);
      if (n <= 0) throw std::runtime_error("the server stopped reading");
      written += static_cast<std::size_t>(n);
    }
  }

  /// The next line whose "id" is `id`; empty when none came within the timeout.
  std::string AwaitReply(long id) {
    const auto deadline = Clock::now() + kReplyTimeout;
    while (true) {
      for (std::size_t end = pending_.find('\n'); end != std::string::npos;
           end = pending_.find('\n')) {
        std::string line = pending_.substr(0, end);
        pending_.erase(0, end + 1);
        boost::system::error_code error;
        const boost::json::value message = boost::json::parse(line, error);
        const auto* object = error ? nullptr : message.if_object();
        const auto* reply_id = object == nullptr ? nullptr : object->if_contains("id");
        if (reply_id != nullptr && reply_id->is_int64() && reply_id->as_int64() == id &&
            !object->contains("method")) {
          return line;
        }
      }
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return "";
      pollfd readable{from_child_, POLLIN, 0};
      if (poll(&readable, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[65536];
      const ssize_t n = read(from_child_, chunk, sizeof chunk);
      if (n <= 0) throw std::runtime_error("the server closed stdout");
      pending_.append(chunk, static_cast<std::size_t>(n));
    }
  }

 private:
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string pending_;
};

bool IsResult(const std::string& line) {
  return !line.empty() && boost::json::parse(line).as_object().contains("result");
}

}  // namespace

BareSessionRun BareSessionStdio(const std::vector<std::string>& argv, const std::string& method,
                                std::size_t requests) {
  Child server(argv);
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
