#include "transport/detail/server_pipes.h"

#include <poll.h>

#include <algorithm>
#include <string_view>
#include <utility>

#include "transport/detail/pipe_io.h"

namespace mcpfuzz::transport_detail {
namespace {

constexpr std::size_t kReadChunkBytes = std::size_t{64} << 10U;

void AppendTail(std::string& tail, std::string_view bytes, std::size_t limit) {
  if (bytes.size() >= limit) {
    tail.assign(bytes.substr(bytes.size() - limit));
    return;
  }
  tail.append(bytes);
  if (tail.size() > limit) tail.erase(0, tail.size() - limit);
}

}  // namespace

ServerPipes::ServerPipes(ChildProcess process, std::size_t max_line_bytes,
                         std::size_t stderr_tail_bytes)
    : process_(std::move(process)),
      stdout_lines_(max_line_bytes),
      stderr_tail_bytes_(stderr_tail_bytes) {}

ServerPipes::PumpResult ServerPipes::Pump(Clock::duration wait, bool watch_stdin) {
  pollfd fds[4];
  nfds_t count = 0;
  auto watch = [&](int fd, short events) {
    if (fd < 0) return -1;
    fds[count] = {fd, events, 0};
    return static_cast<int>(count++);
  };
  const int stdout_slot = watch(process_.stdout_fd(), POLLIN);
  const int stderr_slot = watch(process_.stderr_fd(), POLLIN);
  const int stdin_slot = watch_stdin ? watch(process_.stdin_fd(), POLLOUT) : -1;
  const int side_slot = side_eof_ ? -1 : watch(process_.side_fd(), POLLIN);

  // Rounded up, so a wait shorter than a millisecond does not spin.
  const auto wait_ms =
      std::chrono::ceil<std::chrono::milliseconds>(std::max(wait, Clock::duration::zero()));
  const int ready = ::poll(fds, count, static_cast<int>(wait_ms.count()));
  PumpResult result;
  if (ready <= 0) return result;
  auto is_ready = [&](int slot) { return slot >= 0 && fds[slot].revents != 0; };
  if (is_ready(stdout_slot)) {
    ReadStdout();
    result.read_any = true;
  }
  if (is_ready(stderr_slot)) {
    ReadStderr();
    result.read_any = true;
  }
  if (is_ready(side_slot)) {
    ReadSide();
    result.read_any = true;
  }
  result.stdin_ready = is_ready(stdin_slot);
  return result;
}

void ServerPipes::Drain(std::size_t max_stdout_bytes) {
  // What an exited server wrote is at most a pipe's capacity, read in a few rounds; the bound
  // is for descendants still writing (to stdout, or to stderr, which counts rounds alike).
  const std::size_t start = stdout_bytes_read_;
  const std::size_t max_rounds = max_stdout_bytes / kReadChunkBytes + 4;
  for (std::size_t round = 0; round < max_rounds; ++round) {
    if (!Pump(Clock::duration::zero(), false).read_any) return;
    if (stdout_bytes_read_ - start >= max_stdout_bytes) return;
  }
}

bool ServerPipes::WaitForExit(Clock::duration wait) {
  const Clock::time_point deadline = Clock::now() + wait;
  for (;;) {
    if (process_.PollExit()) return true;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return false;
    Pump(std::min<Clock::duration>(deadline - now, kExitCheckInterval), false);
  }
}

void ServerPipes::ReadStdout() {
  std::string chunk;
  switch (ReadSome(process_.stdout_fd(), chunk, kReadChunkBytes)) {
    case ReadStatus::kData:
      stdout_bytes_read_ += chunk.size();
      if (!discard_stdout_) stdout_lines_.Feed(chunk);
      break;
    case ReadStatus::kWouldBlock:
      break;
    case ReadStatus::kEof:
      stdout_eof_ = true;
      process_.CloseStdout();
      break;
  }
}

void ServerPipes::ReadSide() {
  if (!ReadAgentLines(process_.side_fd(), side_lines_)) side_eof_ = true;
}

void ServerPipes::ReadStderr() {
  std::string chunk;
  switch (ReadSome(process_.stderr_fd(), chunk, kReadChunkBytes)) {
    case ReadStatus::kData:
      AppendTail(exchange_stderr_tail_, chunk, stderr_tail_bytes_);
      AppendTail(stderr_tail_, chunk, stderr_tail_bytes_);
      break;
    case ReadStatus::kWouldBlock:
      break;
    case ReadStatus::kEof:
      process_.CloseStderr();
      break;
  }
}

}  // namespace mcpfuzz::transport_detail
