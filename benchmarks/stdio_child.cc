#include "benchmarks/stdio_child.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>

extern char** environ;

namespace mcpfuzz::bench {

StdioChild::StdioChild(const std::vector<std::string>& argv) {
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
  if (spawned != 0) {
    close(to_child_);
    close(from_child_);
    throw std::runtime_error("cannot start " + argv[0]);
  }
}

StdioChild::~StdioChild() {
  close(to_child_);
  close(from_child_);
  int status = 0;
  waitpid(pid_, &status, 0);
}

void StdioChild::Write(std::string_view bytes) {
  for (std::size_t written = 0; written < bytes.size();) {
    const ssize_t n = write(to_child_, bytes.data() + written, bytes.size() - written);
    if (n <= 0) throw std::runtime_error("the server stopped reading");
    written += static_cast<std::size_t>(n);
  }
}

bool StdioChild::ReadSome(std::string& into, std::chrono::milliseconds timeout) {
  pollfd readable{from_child_, POLLIN, 0};
  if (poll(&readable, 1, static_cast<int>(timeout.count())) <= 0) return false;
  char chunk[65536];
  const ssize_t n = read(from_child_, chunk, sizeof chunk);
  if (n <= 0) throw std::runtime_error("the server closed stdout");
  into.append(chunk, static_cast<std::size_t>(n));
  return true;
}

}  // namespace mcpfuzz::bench
