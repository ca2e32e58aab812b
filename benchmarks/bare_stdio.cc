// The bare stdio client: the server started once per recorded connection, each recorded body
// written as one line, and replies read until a line arrives. After a message that needs no
// reply it listens for the quiet window, as mcpfuzz must (a server may answer a notification
// anyway, and only listening shows it): that wait is the protocol's cost, not mcpfuzz's.

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json/value.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/e2e.h"

extern char** environ;

namespace mcpfuzz::bench {
namespace {

using Clock = std::chrono::steady_clock;

bool IsNotification(const boost::json::value& value) {
  const auto* object = value.if_object();
  return object != nullptr && object->contains("method") && !object->contains("id");
}

// A notification, a batch of only notifications, or a response sent to the server: nothing
// comes back.
bool NeedsNoReply(const Request& request) {
  const std::optional<boost::json::value> body = request.BodyJson();
  if (!body) return false;
  if (const auto* array = body->if_array(); array != nullptr && !array->empty()) {
    for (const auto& item : *array) {
      if (!IsNotification(item)) return false;
    }
    return true;
  }
  const auto* object = body->if_object();
  if (object != nullptr && !object->contains("method") &&
      (object->contains("result") || object->contains("error"))) {
    return true;
  }
  return IsNotification(*body);
}

class Server {
 public:
  explicit Server(const std::vector<std::string>& argv) {
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
    const int spawned = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    to_server_ = in[1];
    from_server_ = out[0];
    if (spawned != 0) throw std::runtime_error("cannot start " + argv[0]);
  }
  ~Server() {
    close(to_server_);  // end of input: the server exits
    close(from_server_);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  void Exchange(const Request& request, std::chrono::milliseconds quiet_window) {
    std::string line = request.WireBody();
    line += '\n';
    for (std::size_t written = 0; written < line.size();) {
      const ssize_t n = write(to_server_, line.data() + written, line.size() - written);
      if (n <= 0) throw std::runtime_error("the server stopped reading");
      written += static_cast<std::size_t>(n);
    }
    const bool wait_for_line = !NeedsNoReply(request);
    // Lines already read past the previous reply answer this request.
    if (wait_for_line && TakeLine()) return;
    auto quiet_since = Clock::now();
    while (true) {
      const auto quiet_for = Clock::now() - quiet_since;
      if (quiet_for >= quiet_window) return;
      pollfd poll_fd{from_server_, POLLIN, 0};
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(quiet_window - quiet_for);
      if (poll(&poll_fd, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[65536];
      const ssize_t n = read(from_server_, chunk, sizeof chunk);
      if (n <= 0) throw std::runtime_error("the server closed stdout");
      pending_.append(chunk, static_cast<std::size_t>(n));
      quiet_since = Clock::now();
      if (wait_for_line && TakeLine()) return;
    }
  }

 private:
  bool TakeLine() {
    const std::size_t end = pending_.find('\n');
    if (end == std::string::npos) return false;
    pending_.erase(0, end + 1);
    return true;
  }

  pid_t pid_ = -1;
  int to_server_ = -1;
  int from_server_ = -1;
  std::string pending_;
};

}  // namespace

double BareStdio(const std::vector<std::string>& argv, const Recording& recording,
                 std::chrono::milliseconds quiet_window) {
  const auto start = Clock::now();
  {
    std::map<std::size_t, std::unique_ptr<Server>> servers;
    for (const SentRequest& sent : recording.sent) {
      auto& server = servers[sent.connection];
      if (!server) server = std::make_unique<Server>(argv);
      server->Exchange(sent.request, quiet_window);
    }
  }
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace mcpfuzz::bench
