#pragma once
// Non-blocking pipe reads and writes that survive EINTR and never raise SIGPIPE.

#include <sys/types.h>
#include <sys/uio.h>

#include <cstddef>
#include <string>

namespace mcpfuzz::transport_detail {

/// What one read from a non-blocking descriptor produced.
enum class ReadStatus {
  kData,        ///< Bytes were appended.
  kWouldBlock,  ///< Nothing available right now.
  kEof,         ///< The writer closed its end (or the descriptor failed).
};

/// Appends at most `max_bytes` read from `fd` to `out`, retrying on EINTR.
ReadStatus ReadSome(int fd, std::string& out, std::size_t max_bytes);

/// Writes as much of `data` as `fd` accepts now, retrying on EINTR. Returns the byte count, or
/// -1 with errno set (EAGAIN when the pipe is full, EPIPE when the reader is gone). A write to a
/// closed pipe raises no SIGPIPE: the signal is blocked in this thread during the write and
/// consumed if the write caused it, so the process-wide disposition is never touched.
ssize_t WriteWithoutSigpipe(int fd, const char* data, std::size_t size);
/// The same for `count` buffers written in order (writev).
ssize_t WritevWithoutSigpipe(int fd, const iovec* buffers, int count);

/// Sets O_NONBLOCK; returns false on failure.
bool SetNonBlocking(int fd);

}  // namespace mcpfuzz::transport_detail
