// Runs a program to its end, keeping its output, its wall time and its peak RSS. The peak is
// VmHWM of the child's own /proc status, sampled while it runs: wait4's ru_maxrss would do,
// except that posix_spawn's vfork-style child counts the parent's resident pages (this
// benchmark holds every recorded request) until it execs.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include "benchmarks/e2e.h"

extern char** environ;

namespace mcpfuzz::bench {
namespace {

constexpr int kSampleEveryMs = 5;
// Between SIGTERM and SIGKILL at the deadline: time to end its own children.
constexpr std::chrono::seconds kKillGrace{3};

// "VmHWM:     15872 kB" of a running process; 0 once it has ended.
long HighWaterMarkKib(const std::string& status_path) {
  std::ifstream status(status_path);
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmHWM:")) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return 0;
}

}  // namespace

ChildRun RunChild(const std::vector<std::string>& argv, std::chrono::seconds deadline) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  ChildRun run;
  if (spawned != 0) {
    close(out[0]);
    throw std::runtime_error("cannot start " + argv[0]);
  }
  const std::string status_path = "/proc/" + std::to_string(pid) + "/status";
  char chunk[4096];
  while (true) {
    run.peak_rss_kib = std::max(run.peak_rss_kib, HighWaterMarkKib(status_path));
    if (deadline.count() > 0) {
      const auto overdue = std::chrono::steady_clock::now() - start - deadline;
      if (overdue >= std::chrono::seconds(0) && !run.killed) {
        run.killed = true;
        kill(pid, SIGTERM);
      } else if (overdue >= kKillGrace) {
        kill(pid, SIGKILL);
      }
    }
    pollfd readable{out[0], POLLIN, 0};
    if (poll(&readable, 1, kSampleEveryMs) == 0) continue;
    const ssize_t n = read(out[0], chunk, sizeof chunk);
    if (n <= 0) break;
    run.output.append(chunk, static_cast<std::size_t>(n));
  }
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

}  // namespace mcpfuzz::bench
