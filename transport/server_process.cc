#include "transport/server_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <mutex>
#include <thread>

#include "transport/detail/agent_channel.h"
#include "transport/detail/child_process.h"
#include "transport/detail/pipe_io.h"
#include "transport/detail/unique_fd.h"

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

sockaddr_in Loopback(std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

// Whether 127.0.0.1:`port` accepts a connection now (a loopback connect is answered at once).
bool Accepts(std::uint16_t port) {
  const transport_detail::UniqueFd socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (socket.get() < 0) return false;
  const sockaddr_in address = Loopback(port);
  // sockaddr_in is read by connect() as the sockaddr it begins with, as the socket API intends.
  return ::connect(socket.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
}

constexpr std::size_t kStartOutputKept = 64 * 1024;

// Waits up to `wait_ms` for a starting server to print, and keeps what it printed (up to
// kStartOutputKept of each stream) for the error if it never starts: read, so that a full pipe
// never stalls it. The status of the stdout read.
transport_detail::ReadStatus ReadWhileStarting(transport_detail::ChildProcess& child,
                                               std::string& output, std::string& errors,
                                               int wait_ms) {
  pollfd descriptors[] = {{child.stdout_fd(), POLLIN, 0}, {child.stderr_fd(), POLLIN, 0}};
  ::poll(descriptors, 2, wait_ms);
  if (errors.size() < kStartOutputKept) {
    transport_detail::ReadSome(child.stderr_fd(), errors, kStartOutputKept - errors.size());
  }
  if (output.size() >= kStartOutputKept) return transport_detail::ReadStatus::kWouldBlock;
  return transport_detail::ReadSome(child.stdout_fd(), output, kStartOutputKept - output.size());
}

std::string DescribeStartFailure(std::string_view what, const std::string& output,
                                 const std::string& errors) {
  std::string message(what);
  if (!output.empty()) message += "; stdout: " + output.substr(0, 2000);
  if (!errors.empty()) message += "; stderr: " + errors.substr(0, 2000);
  return message;
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
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto url = ListeningUrl(output)) {
      return HttpServerProcess(std::move(child), *url, std::move(errors));
    }
    const auto status = ReadWhileStarting(*child, output, errors, 50);
    if (status == transport_detail::ReadStatus::kEof || output.size() >= kStartOutputKept) break;
  }
  return Error{DescribeStartFailure("the server did not print `listening on URL`", output, errors)};
}

Result<std::uint16_t> FreeLoopbackPort() {
  const transport_detail::UniqueFd socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (socket.get() < 0) return Error{"could not open a socket to find a free port"};
  sockaddr_in address = Loopback(0);
  socklen_t size = sizeof address;
  if (::bind(socket.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(socket.get(), reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    return Error{"could not find a free port on 127.0.0.1"};
  }
  return static_cast<std::uint16_t>(ntohs(address.sin_port));
}

// The coverage agent of a server command: its lines on the side channel, read on the thread
// that asks, one question at a time.
struct HttpServerProcess::Agent {
  std::mutex mutex;
  transport_detail::LineSplitter lines{transport_detail::kAgentLineBytes};
  transport_detail::AgentLines agent;
  bool eof = false;

  void Read(int fd) { eof = eof || !transport_detail::ReadAgentLines(fd, lines); }
};

Result<HttpServerProcess> HttpServerProcess::Start(const ServerCommand& command) {
  const bool with_agent = command.coverage_agent.has_value();
  auto spawned = transport_detail::ChildProcess::Spawn(
      {"/bin/sh", "-c", command.shell_command},
      with_agent
          ? transport_detail::WithAgent(command.env, command.inherit_env, *command.coverage_agent)
          : command.env,
      command.inherit_env, with_agent);
  if (!spawned) return spawned.error();
  auto child = std::make_unique<transport_detail::ChildProcess>(std::move(*spawned));
  std::string output;
  std::string errors;
  const auto deadline = std::chrono::steady_clock::now() + command.startup_timeout;
  for (;;) {
    if (Accepts(command.port)) {
      HttpServerProcess server(std::move(child), "", std::move(errors));
      server.port_ = command.port;
      if (with_agent) server.agent_ = std::make_unique<Agent>();
      return server;
    }
    if (child->PollExit()) {
      ReadWhileStarting(*child, output, errors, 0);
      return Error{DescribeStartFailure(
          "the server command ended before it listened on port " + std::to_string(command.port),
          output, errors)};
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return Error{DescribeStartFailure("the server command did not listen on port " +
                                            std::to_string(command.port) + " within " +
                                            std::to_string(command.startup_timeout.count()) + " ms",
                                        output, errors)};
    }
    ReadWhileStarting(*child, output, errors, static_cast<int>(kPortRetry.count()));
  }
}

Result<std::string> HttpServerProcess::TakeCoverage(bool all, std::chrono::milliseconds timeout) {
  if (!agent_ || !process_ || process_->side_fd() < 0) {
    return Error{"the server was started without a coverage agent"};
  }
  const std::lock_guard lock(agent_->mutex);
  const int fd = process_->side_fd();
  agent_->Read(fd);
  // It listens, so it has started: an agent it loaded has greeted by now.
  if (auto not_greeted = agent_->agent.NotGreeted(agent_->lines, /*started=*/true)) {
    return *not_greeted;
  }
  // An ended server is asked nothing: its last take, written as it exited, answers for what ran
  // since the last one (awaited until the channel ends, which a descendant holding it open may
  // delay: the time limit bounds that).
  const bool ended = !Alive();
  if (!ended) {
    if (std::optional<Error> closed = transport_detail::AskForTake(fd, all)) return *closed;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto reply = transport_detail::AgentLines::Next(agent_->lines)) return std::move(*reply);
    if (agent_->eof) {
      return Error{ended ? "the server has ended, leaving no last take"
                         : "the coverage channel ended"};
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      return Error{"the coverage agent did not answer within " + std::to_string(timeout.count()) +
                   " ms"};
    }
    pollfd descriptor{fd, POLLIN, 0};
    ::poll(&descriptor, 1,
           static_cast<int>(
               std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1));
    agent_->Read(fd);
  }
}

namespace {

bool BrokeTheConnection(const Observation& observation) {
  return observation.outcome == Outcome::kConnectionRefused ||
         observation.outcome == Outcome::kConnectionReset;
}

// A connection to a server mcpfuzz started (ServedHttpServer).
class ServedHttpTransport final : public TransportDecorator {
 public:
  ServedHttpTransport(std::unique_ptr<Transport> inner, std::shared_ptr<HttpServerProcess> server,
                      std::size_t number, const Limits& limits)
      : TransportDecorator(std::move(inner)),
        server_(std::move(server)),
        number_(number),
        limits_(limits) {}
  // Before the next exchange of any session asks server_ended(), a server that a request
  // crashed has ended: otherwise that exchange would meet its closed port, and be judged so.
  Observation Send(const Request& request) override {
    Observation observation = inner().Send(request);
    if (BrokeTheConnection(observation)) server_->Ended(limits_.startup_timeout);
    return observation;
  }
  PipelineResult SendPipelined(const Pipeline& pipeline) override {
    PipelineResult result = inner().SendPipelined(pipeline);
    if (std::any_of(result.observations.begin(), result.observations.end(), BrokeTheConnection)) {
      server_->Ended(limits_.startup_timeout);
    }
    return result;
  }
  Result<std::string> TakeCoverage(bool all) override {
    if (!server_->has_agent()) return inner().TakeCoverage(all);
    return server_->TakeCoverage(all, limits_.timeout);
  }
  std::size_t coverage_process() const override { return number_; }
  bool server_ended() const override { return !server_->Alive(); }

 private:
  std::shared_ptr<HttpServerProcess> server_;
  std::size_t number_;
  Limits limits_;
};

}  // namespace

Result<std::unique_ptr<ServedHttpServer>> ServedHttpServer::Start(ServerCommand command) {
  auto first = HttpServerProcess::Start(command);
  if (!first) return first.error();
  return std::unique_ptr<ServedHttpServer>(
      new ServedHttpServer(std::move(command), std::move(*first)));
}

ServedHttpServer::ServedHttpServer(ServerCommand command, HttpServerProcess first)
    : command_(std::move(command)),
      server_(std::make_shared<HttpServerProcess>(std::move(first))) {}

Result<std::unique_ptr<Transport>> ServedHttpServer::Connect(HttpTarget target) {
  std::shared_ptr<HttpServerProcess> server;
  std::size_t number = 0;
  {
    const std::lock_guard lock(mutex_);
    if (server_->Ended(command_.startup_timeout)) {
      auto again = HttpServerProcess::Start(command_);
      if (!again)
        return Error{"the server ended, and could not be started again: " + again.error().message};
      server_ = std::make_shared<HttpServerProcess>(std::move(*again));
      ++restarts_;
    }
    server = server_;
    number = restarts_;
  }
  const Limits limits = target.limits;
  auto opened = OpenHttp(std::move(target));
  if (!opened) return opened.error();
  return std::unique_ptr<Transport>(
      std::make_unique<ServedHttpTransport>(std::move(*opened), std::move(server), number, limits));
}

std::size_t ServedHttpServer::restarts() const {
  const std::lock_guard lock(mutex_);
  return restarts_;
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

bool HttpServerProcess::Alive() {
  const std::lock_guard lock(*exit_mutex_);
  return process_ && !process_->PollExit();
}

bool HttpServerProcess::Ended(std::chrono::milliseconds wait) {
  if (!Alive()) return true;
  if (port_ == 0 || Accepts(port_)) return false;
  // No event says a child ended short of SIGCHLD, which the run's other children share.
  constexpr std::chrono::milliseconds kExitCheckInterval{5};
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!Alive()) return true;
    std::this_thread::sleep_for(kExitCheckInterval);
  }
  return !Alive();
}

std::string HttpServerProcess::StderrTail() const { return drain_ ? drain_->StderrTail() : ""; }

}  // namespace mcpfuzz
