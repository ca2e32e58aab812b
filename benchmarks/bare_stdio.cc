// The bare stdio client: the server started once per recorded connection, each recorded body
// written as one line, and replies read until a line arrives. After a message that needs no
// reply it listens for the quiet window, as mcpfuzz must (a server may answer a notification
// anyway, and only listening shows it): that wait is the protocol's cost, not mcpfuzz's.

#include <boost/json/value.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/e2e.h"
#include "benchmarks/stdio_child.h"

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
  explicit Server(const std::vector<std::string>& argv) : child_(argv) {}

  void Exchange(const Request& request, std::chrono::milliseconds quiet_window) {
    child_.Write(request.WireBody() + '\n');
    const bool wait_for_line = !NeedsNoReply(request);
    // Lines already read past the previous reply answer this request.
    if (wait_for_line && TakeLine()) return;
    auto quiet_since = Clock::now();
    while (true) {
      const auto quiet_for = Clock::now() - quiet_since;
      if (quiet_for >= quiet_window) return;
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(quiet_window - quiet_for);
      if (!child_.ReadSome(pending_, left)) continue;
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

  StdioChild child_;
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
