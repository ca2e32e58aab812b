#include "transport/server_process.h"

#include <poll.h>

#include <atomic>
#include <csignal>
#include <mutex>
#include <thread>

#include "transport/detail/child_process.h"
#include "transport/detail/pipe_io.h"

namespace mcpfuzz {
namespace transport_detail {

// Reads and discards a running server's stdout, keeping a tail of its stderr. Its own thread,
// because the server writes whenever it likes and a full pipe would stall it.
class OutputDrain {
 public:
  OutputDrain(int stdout_fd, int stderr_fd, std::string stderr_so_far)
      : stderr_tail_(std::move(stderr_so_far)) {
    Trim();
    thread_ = std::thread([this, stdout_fd, stderr_fd] { Run(stdout_fd, stderr_fd); });
  }
  OutputDrain(const OutputDrain&) = delete;
  OutputDrain& operator=(const OutputDrain&) = delete;
  ~OutputDrain() {
    stop_ = true;
    thread_.join();
  }

  std::string StderrTail() const {
    std::lock_guard lock(mutex_);
    return stderr_tail_;
  }

 private:
  static constexpr std::size_t kTailBytes = 8 * 1024;
  static constexpr std::size_t kChunk = 64 * 1024;

  void Run(int stdout_fd, int stderr_fd) {
    bool stdout_open = true;
    bool stderr_open = true;
    while (!stop_ && (stdout_open || stderr_open)) {
      pollfd descriptors[] = {{stdout_open ? stdout_fd : -1, POLLIN, 0},
                              {stderr_open ? stderr_fd : -1, POLLIN, 0}};
      // The timeout bounds how long the destructor waits for this thread.
      ::poll(descriptors, 2, 50);
      std::string discarded;
      if (stdout_open) stdout_open = ReadSome(stdout_fd, discarded, kChunk) != ReadStatus::kEof;
      std::string errors;
      if (stderr_open) stderr_open = ReadSome(stderr_fd, errors, kChunk) != ReadStatus::kEof;
      if (!errors.empty()) {
        std::lock_guard lock(mutex_);
        stderr_tail_ += errors;
        Trim();
      }
    }
  }

  void Trim() {
    if (stderr_tail_.size() > kTailBytes) {
      stderr_tail_.erase(0, stderr_tail_.size() - kTailBytes);
    }
  }

  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  std::string stderr_tail_;
  std::thread thread_;
};

}  // namespace transport_detail

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
  auto spawned = transport_detail::ChildProcess::Spawn(argv, {});
  if (!spawned) return spawned.error();
  auto child = std::make_unique<transport_detail::ChildProcess>(std::move(*spawned));
  std::string output;
  std::string errors;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  constexpr std::size_t kKeep = 64 * 1024;
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto url = ListeningUrl(output)) {
      return HttpServerProcess(std::move(child), *url, std::move(errors));
    }
    pollfd descriptors[] = {{child->stdout_fd(), POLLIN, 0}, {child->stderr_fd(), POLLIN, 0}};
    ::poll(descriptors, 2, 50);
    if (errors.size() < kKeep)
      transport_detail::ReadSome(child->stderr_fd(), errors, kKeep - errors.size());
    auto status = transport_detail::ReadSome(child->stdout_fd(), output, kKeep);
    if (status == transport_detail::ReadStatus::kEof || output.size() >= kKeep) break;
  }
  std::string message = "the server did not print `listening on URL`";
  if (!output.empty()) message += "; stdout: " + output.substr(0, 2000);
  if (!errors.empty()) message += "; stderr: " + errors.substr(0, 2000);
  return Error{message};
}

HttpServerProcess::HttpServerProcess(std::unique_ptr<transport_detail::ChildProcess> process,
                                     std::string url, std::string stderr_so_far)
    : process_(std::move(process)),
      drain_(std::make_unique<transport_detail::OutputDrain>(
          process_->stdout_fd(), process_->stderr_fd(), std::move(stderr_so_far))),
      url_(std::move(url)) {}

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
  // Only now: the drain must outlive the server's last write, and the pipes it reads are
  // closed by the process object after it.
  drain_.reset();
}

bool HttpServerProcess::Alive() { return process_ && !process_->PollExit(); }

std::string HttpServerProcess::StderrTail() const { return drain_ ? drain_->StderrTail() : ""; }

}  // namespace mcpfuzz
