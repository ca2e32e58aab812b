#include "transport/detail/child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <optional>
#include <string_view>
#include <system_error>

#include "transport/detail/child_registry.h"
#include "transport/detail/pipe_io.h"

extern char** environ;  // NOLINT: <unistd.h> declares it only with _GNU_SOURCE

namespace mcpfuzz::transport_detail {
namespace {

std::string ErrnoText(int error) { return std::generic_category().message(error); }

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

// Descriptors 0-2 must not be used for pipe ends: if this process runs with a standard stream
// closed, pipe2 could hand one out and the dup2 onto 0-2 in the child would clobber it.
bool MoveAboveStandardStreams(UniqueFd& fd) {
  if (fd.get() > STDERR_FILENO) return true;
  const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (moved < 0) return false;
  fd.Reset(moved);
  return true;
}

Result<Pipe> MakePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Error{"stdio: pipe2 failed: " + ErrnoText(errno)};
  Pipe pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
  if (!MoveAboveStandardStreams(pipe.read_end) || !MoveAboveStandardStreams(pipe.write_end)) {
    return Error{"stdio: fcntl(F_DUPFD_CLOEXEC) failed: " + ErrnoText(errno)};
  }
  return pipe;
}

// A socket pair in Pipe's shape: read_end is ours, write_end the child's (both ways, really).
Result<Pipe> MakeSocketPair() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    return Error{"stdio: socketpair failed: " + ErrnoText(errno)};
  }
  Pipe pair{UniqueFd(fds[0]), UniqueFd(fds[1])};
  // Kept apart from the descriptor the child's end is moved to, as well as from 0-2.
  auto above = [](UniqueFd& fd) {
    if (fd.get() > ChildProcess::kSideChannelFd) return true;
    const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, ChildProcess::kSideChannelFd + 1);
    if (moved < 0) return false;
    fd.Reset(moved);
    return true;
  };
  if (!above(pair.read_end) || !above(pair.write_end)) {
    return Error{"stdio: fcntl(F_DUPFD_CLOEXEC) failed: " + ErrnoText(errno)};
  }
  return pair;
}

std::string_view VariableName(std::string_view entry) { return entry.substr(0, entry.find('=')); }

std::vector<std::string> BuildEnvironment(
    const std::vector<std::pair<std::string, std::string>>& overrides, bool inherit) {
  auto overridden = [&](std::string_view name) {
    return std::any_of(overrides.begin(), overrides.end(),
                       [&](const auto& entry) { return entry.first == name; });
  };
  std::vector<std::string> environment;
  for (char** entry = inherit ? environ : nullptr; entry != nullptr && *entry != nullptr; ++entry) {
    if (!overridden(VariableName(*entry))) environment.emplace_back(*entry);
  }
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    // When a name is given twice, the last value wins, as repeated assignments would.
    const bool given_again_later =
        std::any_of(overrides.begin() + static_cast<std::ptrdiff_t>(i) + 1, overrides.end(),
                    [&](const auto& entry) { return entry.first == overrides[i].first; });
    if (!given_again_later) environment.push_back(overrides[i].first + "=" + overrides[i].second);
  }
  return environment;
}

std::vector<char*> PointerArray(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (std::string& text : strings) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

class SpawnFileActions {
 public:
  SpawnFileActions() { ok_ = ::posix_spawn_file_actions_init(&actions_) == 0; }
  ~SpawnFileActions() {
    if (ok_) ::posix_spawn_file_actions_destroy(&actions_);
  }
  SpawnFileActions(const SpawnFileActions&) = delete;
  SpawnFileActions& operator=(const SpawnFileActions&) = delete;
  bool ok() const { return ok_; }
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_{};
  bool ok_ = false;
};

class SpawnAttributes {
 public:
  SpawnAttributes() { ok_ = ::posix_spawnattr_init(&attributes_) == 0; }
  ~SpawnAttributes() {
    if (ok_) ::posix_spawnattr_destroy(&attributes_);
  }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  bool ok() const { return ok_; }
  posix_spawnattr_t* get() { return &attributes_; }

 private:
  posix_spawnattr_t attributes_{};
  bool ok_ = false;
};

ExitStatus FromWaitStatus(int status) {
  ExitStatus exit;
  if (WIFEXITED(status)) exit.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) exit.signal = WTERMSIG(status);
  return exit;
}

ExitStatus FromSiginfo(const siginfo_t& info) {
  ExitStatus exit;
  if (info.si_code == CLD_EXITED) {
    exit.code = info.si_status;
  } else {
    exit.signal = info.si_status;
  }
  return exit;
}

}  // namespace

Result<ChildProcess> ChildProcess::Spawn(
    const std::vector<std::string>& argv,
    const std::vector<std::pair<std::string, std::string>>& env, bool inherit_env,
    bool side_channel) {
  if (argv.empty() || argv.front().empty()) {
    return Error{"stdio: no program to start (argv is empty)"};
  }
  auto stdin_pipe = MakePipe();
  if (!stdin_pipe) return stdin_pipe.error();
  auto stdout_pipe = MakePipe();
  if (!stdout_pipe) return stdout_pipe.error();
  auto stderr_pipe = MakePipe();
  if (!stderr_pipe) return stderr_pipe.error();
  std::optional<Pipe> side;
  if (side_channel) {
    auto pair = MakeSocketPair();
    if (!pair) return pair.error();
    side = std::move(*pair);
  }

  SpawnFileActions actions;
  SpawnAttributes attributes;
  if (!actions.ok() || !attributes.ok()) return Error{"stdio: posix_spawn setup failed"};
  // dup2 clears close-on-exec on the copies, so exactly fds 0-2 reach the program.
  int rc = ::posix_spawn_file_actions_adddup2(actions.get(), stdin_pipe->read_end.get(), 0);
  if (rc == 0)
    rc = ::posix_spawn_file_actions_adddup2(actions.get(), stdout_pipe->write_end.get(), 1);
  if (rc == 0)
    rc = ::posix_spawn_file_actions_adddup2(actions.get(), stderr_pipe->write_end.get(), 2);
  if (rc == 0 && side) {
    rc = ::posix_spawn_file_actions_adddup2(actions.get(), side->write_end.get(), kSideChannelFd);
  }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  // Descriptors other libraries opened without close-on-exec must not leak into the server.
  if (rc == 0) {
    rc = ::posix_spawn_file_actions_addclosefrom_np(actions.get(),
                                                    side ? kSideChannelFd + 1 : STDERR_FILENO + 1);
  }
#endif

  // Default dispositions and an empty mask: the server must not inherit an ignored SIGPIPE or
  // SIGTERM (which would defeat shutdown) or signals blocked by the thread that spawns it.
  sigset_t empty_mask;
  sigemptyset(&empty_mask);
  sigset_t all_signals;
  sigfillset(&all_signals);
  if (rc == 0) {
    rc = ::posix_spawnattr_setflags(
        attributes.get(), POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  }
  if (rc == 0) rc = ::posix_spawnattr_setpgroup(attributes.get(), 0);
  if (rc == 0) rc = ::posix_spawnattr_setsigmask(attributes.get(), &empty_mask);
  if (rc == 0) rc = ::posix_spawnattr_setsigdefault(attributes.get(), &all_signals);
  if (rc != 0) return Error{"stdio: posix_spawn setup failed: " + ErrnoText(rc)};

  std::vector<std::string> argument_strings = argv;
  std::vector<char*> arguments = PointerArray(argument_strings);
  std::vector<std::string> environment_strings = BuildEnvironment(env, inherit_env);
  std::vector<char*> environment = PointerArray(environment_strings);

  pid_t pid = -1;
  // glibc's posix_spawnp reports a failed exec (ENOENT, EACCES) as its return value.
  rc = ::posix_spawnp(&pid, argv.front().c_str(), actions.get(), attributes.get(), arguments.data(),
                      environment.data());
  if (rc != 0) return Error{"stdio: cannot start '" + argv.front() + "': " + ErrnoText(rc)};

  // The child leads its group from the start (POSIX_SPAWN_SETPGROUP), so its pid names it.
  RegisterChildGroup(pid);
  ChildProcess child(pid, std::move(stdin_pipe->write_end), std::move(stdout_pipe->read_end),
                     std::move(stderr_pipe->read_end));
  SetNonBlocking(child.stdin_fd());
  SetNonBlocking(child.stdout_fd());
  SetNonBlocking(child.stderr_fd());
  if (side) {
    child.side_ = std::move(side->read_end);
    SetNonBlocking(child.side_fd());
  }
  return child;
}

ChildProcess::ChildProcess(pid_t pid, UniqueFd stdin_fd, UniqueFd stdout_fd, UniqueFd stderr_fd)
    : pid_(pid),
      stdin_(std::move(stdin_fd)),
      stdout_(std::move(stdout_fd)),
      stderr_(std::move(stderr_fd)) {}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      reaped_(std::exchange(other.reaped_, true)),
      exit_(std::move(other.exit_)),
      stdin_(std::move(other.stdin_)),
      stdout_(std::move(other.stdout_)),
      stderr_(std::move(other.stderr_)),
      side_(std::move(other.side_)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    if (pid_ > 0 && !reaped_) Reap();
    pid_ = std::exchange(other.pid_, -1);
    reaped_ = std::exchange(other.reaped_, true);
    exit_ = std::move(other.exit_);
    stdin_ = std::move(other.stdin_);
    stdout_ = std::move(other.stdout_);
    stderr_ = std::move(other.stderr_);
    side_ = std::move(other.side_);
  }
  return *this;
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !reaped_) Reap();
}

std::optional<ExitStatus> ChildProcess::PollExit() {
  if (exit_ || pid_ <= 0) return exit_;
  siginfo_t info{};
  int rc = 0;
  do {
    rc = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
  } while (rc < 0 && errno == EINTR);
  if (rc < 0) {
    // ECHILD: someone else reaped it (SIGCHLD ignored by the host program); the status is lost.
    exit_ = ExitStatus{};
    return exit_;
  }
  if (info.si_pid == 0) return std::nullopt;
  exit_ = FromSiginfo(info);
  return exit_;
}

bool ChildProcess::SignalGroup(int signal) {
  if (pid_ <= 0 || reaped_) return false;
  return ::killpg(pid_, signal) == 0;
}

ExitStatus ChildProcess::Reap() {
  if (pid_ <= 0) return exit_.value_or(ExitStatus{});
  if (!reaped_) {
    // The leader is at worst a zombie here, so the group id still names our group only.
    ::killpg(pid_, SIGKILL);
    UnregisterChildGroup(pid_);
    int status = 0;
    pid_t waited = 0;
    do {
      waited = ::waitpid(pid_, &status, 0);
    } while (waited < 0 && errno == EINTR);
    if (!exit_) exit_ = waited == pid_ ? FromWaitStatus(status) : ExitStatus{};
    reaped_ = true;
  }
  return *exit_;
}

}  // namespace mcpfuzz::transport_detail
