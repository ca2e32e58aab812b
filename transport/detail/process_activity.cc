#include "transport/detail/process_activity.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <vector>

namespace mcpfuzz::transport_detail {
namespace {

// The fields of /proc/PID/stat after the command name, which may itself hold spaces and
// parentheses: everything past its last ')'. Field 3 of stat(5), the state, comes first.
std::optional<std::vector<std::string>> StatFields(const std::filesystem::path& path) {
  // A stat line fits in one read; /proc makes it whole at the open.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::array<char, 1024> buffer{};
  const ssize_t count = ::read(fd, buffer.data(), buffer.size());
  ::close(fd);
  if (count <= 0) return std::nullopt;
  const std::string_view text(buffer.data(), static_cast<std::size_t>(count));
  const std::size_t close = text.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  std::vector<std::string> fields;
  std::size_t at = close + 1;
  while (at < text.size()) {
    const std::size_t start = text.find_first_not_of(" \n", at);
    if (start == std::string_view::npos) break;
    const std::size_t end = std::min(text.find_first_of(" \n", start), text.size());
    fields.emplace_back(text.substr(start, end - start));
    at = end;
  }
  return fields;
}

// stat(5) numbers fields from 1; StatFields starts at field 3.
constexpr std::size_t kState = 0;
constexpr std::size_t kProcessGroup = 2;
constexpr std::size_t kUserTime = 11;
constexpr std::size_t kSystemTime = 12;

bool Working(const std::string& state) { return state == "R" || state == "D"; }

std::uint64_t Ticks(const std::string& field) { return std::strtoull(field.c_str(), nullptr, 10); }

}  // namespace

std::optional<GroupActivity> SampleGroup(pid_t group) {
  std::error_code error;
  std::filesystem::directory_iterator processes("/proc", error);
  if (error) return std::nullopt;
  GroupActivity activity;
  bool found = false;
  const std::string wanted = std::to_string(group);
  for (const auto& entry : processes) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto fields = StatFields(entry.path() / "stat");
    // A process that ended between the listing and the read is no longer working.
    if (!fields || fields->size() <= kSystemTime || (*fields)[kProcessGroup] != wanted) continue;
    found = true;
    activity.cpu_ticks += Ticks((*fields)[kUserTime]) + Ticks((*fields)[kSystemTime]);
    // The process's own state is its main thread's; a worker thread may be the one parsing.
    std::filesystem::directory_iterator threads(entry.path() / "task", error);
    if (error) return std::nullopt;
    for (const auto& thread : threads) {
      const auto thread_fields = StatFields(thread.path() / "stat");
      if (thread_fields && !thread_fields->empty() && Working((*thread_fields)[kState])) {
        activity.working = true;
      }
    }
  }
  if (!found) return std::nullopt;
  return activity;
}

bool AllowanceWatch::Spent(Clock::time_point now, Clock::time_point deadline, bool written_whole) {
  if (spent_) return true;
  if (allowance_.count() <= 0 || !written_whole || now < deadline - allowance_) return false;
  const std::optional<GroupActivity> activity = SampleGroup(group_);
  if (!activity || activity->working || (idle_since_ && activity->cpu_ticks != idle_ticks_)) {
    idle_since_.reset();
    if (!activity || activity->working) return false;
  }
  if (!idle_since_) {
    idle_since_ = now;
    idle_ticks_ = activity->cpu_ticks;
    return false;
  }
  spent_ = now - *idle_since_ >= kIdleConfirmation;
  return spent_;
}

std::string AllowanceWatch::Detail() const {
  if (!spent_) return "";
  return "; the server had read the request and sat idle (no thread running, no CPU time), so "
         "the rest of its " +
         std::to_string(allowance_.count()) +
         " ms read allowance, which pays for reading and parsing, was not waited out";
}

}  // namespace mcpfuzz::transport_detail
