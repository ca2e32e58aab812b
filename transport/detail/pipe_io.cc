#include "transport/detail/pipe_io.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <ctime>

namespace mcpfuzz::transport_detail {

ReadStatus ReadSome(int fd, std::string& out, std::size_t max_bytes) {
  const std::size_t old_size = out.size();
  out.resize(old_size + max_bytes);
  ssize_t count = 0;
  do {
    count = ::read(fd, out.data() + old_size, max_bytes);
  } while (count < 0 && errno == EINTR);
  out.resize(old_size + (count > 0 ? static_cast<std::size_t>(count) : 0));
  if (count > 0) return ReadStatus::kData;
  if (count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return ReadStatus::kWouldBlock;
  return ReadStatus::kEof;
}

ssize_t WriteWithoutSigpipe(int fd, const char* data, std::size_t size) {
  const iovec buffer{const_cast<char*>(data), size};  // writev does not write through it
  return WritevWithoutSigpipe(fd, &buffer, 1);
}

ssize_t WritevWithoutSigpipe(int fd, const iovec* buffers, int count) {
  sigset_t sigpipe_only;
  sigemptyset(&sigpipe_only);
  sigaddset(&sigpipe_only, SIGPIPE);
  sigset_t old_mask;
  pthread_sigmask(SIG_BLOCK, &sigpipe_only, &old_mask);
  // A SIGPIPE that was already pending belongs to someone else and must stay pending.
  sigset_t pending;
  sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE) == 1;

  ssize_t written = 0;
  do {
    written = ::writev(fd, buffers, count);
  } while (written < 0 && errno == EINTR);
  const int saved_errno = errno;

  if (written < 0 && saved_errno == EPIPE && !was_pending) {
    const timespec no_wait{};
    while (sigtimedwait(&sigpipe_only, nullptr, &no_wait) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  errno = saved_errno;
  return written;
}

bool SetNonBlocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  return flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

}  // namespace mcpfuzz::transport_detail
