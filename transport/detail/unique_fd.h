#pragma once
// An owned file descriptor, closed exactly once.

#include <unistd.h>

#include <utility>

namespace mcpfuzz::transport_detail {

/// Owns one file descriptor; -1 means none. Move-only.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) Reset(std::exchange(other.fd_, -1));
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { Reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  /// Closes the current descriptor (if any) and owns `fd` instead.
  void Reset(int fd = -1) {
    // close() is not retried on EINTR: on Linux the descriptor is released either way.
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace mcpfuzz::transport_detail
