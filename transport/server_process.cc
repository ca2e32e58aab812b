#include "transport/server_process.h"

#include <poll.h>

#include <csignal>
#include <thread>

#include "transport/detail/child_process.h"
#include "transport/detail/pipe_io.h"

namespace mcpfuzz {
namespace {

constexpr std::string_view kMarker = "listening on ";

std::optional<std::string> ListeningUrl(const std::string& output) {
  auto at = output.find(kMarker);
  if (at == std::string::npos) return std::nullopt;
  auto newline = output.find('\n', at);
  if (newline == std::string::npos) return std::nullopt;
  std::string url = output.substr(at + kMarker.size(), newline - at - kMarker.size());
  if (!url.empty() && url.back() == '\r') url.pop_back();
  return url;
}

}  // namespace

Result<HttpServerProcess> HttpServerProcess::Start(const std::vector<std::string>& argv,
                                                   std::chrono::milliseconds timeout) {
  auto spawned = detail::ChildProcess::Spawn(argv, {});
  if (!spawned) return spawned.error();
  auto child = std::make_unique<detail::ChildProcess>(std::move(*spawned));
  std::string output;
  std::string errors;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  constexpr std::size_t kKeep = 64 * 1024;
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto url = ListeningUrl(output)) return HttpServerProcess(std::move(child), *url);
    pollfd descriptors[] = {{child->stdout_fd(), POLLIN, 0}, {child->stderr_fd(), POLLIN, 0}};
    ::poll(descriptors, 2, 50);
    if (errors.size() < kKeep) detail::ReadSome(child->stderr_fd(), errors, kKeep - errors.size());
    auto status = detail::ReadSome(child->stdout_fd(), output, kKeep);
    if (status == detail::ReadStatus::kEof || output.size() >= kKeep) break;
  }
  std::string message = "the server did not print `listening on URL`";
  if (!output.empty()) message += "; stdout: " + output.substr(0, 2000);
  if (!errors.empty()) message += "; stderr: " + errors.substr(0, 2000);
  return Error{message};
}

HttpServerProcess::HttpServerProcess(std::unique_ptr<detail::ChildProcess> process, std::string url)
    : process_(std::move(process)), url_(std::move(url)) {}

HttpServerProcess::HttpServerProcess(HttpServerProcess&&) noexcept = default;
HttpServerProcess& HttpServerProcess::operator=(HttpServerProcess&&) noexcept = default;

HttpServerProcess::~HttpServerProcess() {
  if (!process_) return;
  // A graceful stop first, so servers flush and free their port; Reap() SIGKILLs the rest.
  if (process_->SignalGroup(SIGTERM)) {
    for (int i = 0; i < 20 && !process_->PollExit(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  process_->Reap();
}

bool HttpServerProcess::Alive() { return process_ && !process_->PollExit(); }

}  // namespace mcpfuzz
