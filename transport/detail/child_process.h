#pragma once
// A child process in its own process group, with its stdin, stdout and stderr on pipes.

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/result.h"
#include "transport/detail/unique_fd.h"

namespace mcpfuzz::transport_detail {

/// How a process ended: an exit code or a terminating signal.
struct ExitStatus {
  std::optional<int> code;
  std::optional<int> signal;
};

/// Owns one spawned process. The process leads its own process group, so signals sent with
/// SignalGroup reach every descendant that did not leave the group (the node behind npx).
///
/// An ended process is not reaped until Reap(): the zombie keeps its pid, and with it the
/// process group id, from being reused, so signalling the group stays safe after the leader
/// exits. The destructor kills and reaps whatever is left.
class ChildProcess {
 public:
  /// Starts `argv[0]`, looked up in the PATH of this process like execvp, with this process's
  /// environment plus `env` (a name given there replaces the inherited variable), or with `env`
  /// alone when not `inherit_env`. The child
  /// starts with default signal dispositions and an empty signal mask. Our pipe ends are
  /// close-on-exec and non-blocking. Fails, without starting anything, when argv is empty or
  /// the program cannot be executed (not found, not executable).
  /// With `side_channel`, the child also gets one end of a socket pair as descriptor
  /// kSideChannelFd, and side_fd() is ours: a channel beside the MCP streams (the coverage
  /// agent's), which the server's own stdout never mixes with.
  static Result<ChildProcess> Spawn(const std::vector<std::string>& argv,
                                    const std::vector<std::pair<std::string, std::string>>& env,
                                    bool inherit_env = true, bool side_channel = false);
  static constexpr int kSideChannelFd = 3;

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  pid_t pid() const { return pid_; }
  /// Our end of the child's stdin, stdout and stderr; -1 once closed.
  int stdin_fd() const { return stdin_.get(); }
  int stdout_fd() const { return stdout_.get(); }
  int stderr_fd() const { return stderr_.get(); }
  /// Our end of the side channel (Spawn's `side_channel`), non-blocking; -1 without one.
  int side_fd() const { return side_.get(); }
  void CloseStdin() { stdin_.Reset(); }
  void CloseStdout() { stdout_.Reset(); }
  void CloseStderr() { stderr_.Reset(); }

  /// How the process ended, or nothing while it runs. Does not reap.
  std::optional<ExitStatus> PollExit();
  /// Sends `signal` to the whole process group; false if no member was left to receive it.
  bool SignalGroup(int signal);
  /// SIGKILLs whatever is left of the group (descendants that outlived the leader), then waits
  /// for the leader and reaps it. Blocks until the leader has ended; call it after the leader
  /// exited or was sent SIGKILL. Idempotent.
  ExitStatus Reap();

 private:
  ChildProcess(pid_t pid, UniqueFd stdin_fd, UniqueFd stdout_fd, UniqueFd stderr_fd);

  pid_t pid_ = -1;
  bool reaped_ = false;
  std::optional<ExitStatus> exit_;
  UniqueFd stdin_;
  UniqueFd stdout_;
  UniqueFd stderr_;
  UniqueFd side_;
};

}  // namespace mcpfuzz::transport_detail
