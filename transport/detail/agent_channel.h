#pragma once
// The coverage agent's side of a server process mcpfuzz starts, over stdio or HTTP alike: the
// environment that makes the server load it, and its lines on the side channel
// (ChildProcess::side_fd), which never mix with what the server itself writes.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/result.h"
#include "transport/detail/line_splitter.h"

namespace mcpfuzz::transport_detail {

using Environment = std::vector<std::pair<std::string, std::string>>;

/// `env` plus what makes the server load the agents in `folder` (StdioTarget::coverage_agent):
/// NODE_OPTIONS gains a --require of the Node agent, PYTHONPATH begins with the folder, and the
/// channel's descriptor is named. Values the server would have had (its own in `env`, else
/// mcpfuzz's when `inherit_env`) are extended, not replaced.
Environment WithAgent(Environment env, bool inherit_env, const std::string& folder);

/// The agent greets once as it loads, before the server's own code runs; then it writes one line
/// per question (and a last one unasked as its process exits).
class AgentLines {
 public:
  /// The greeting, read once: why coverage cannot be had when it is not the first line. Without
  /// one, `started` says whether the server has shown it runs (it answered, or it listens): then
  /// it never loaded the agent, and no wait would change that.
  std::optional<Error> NotGreeted(LineSplitter& lines, bool started);
  /// The agent's next line, if it wrote one.
  static std::optional<Result<std::string>> Next(LineSplitter& lines);

 private:
  bool greeted_ = false;
};

/// Reads what the side channel `fd` holds now into `lines`; false once the channel has ended.
bool ReadAgentLines(int fd, LineSplitter& lines);
/// Asks the agent on `fd` for a take (`all`: every block that ran since, not only new ones).
std::optional<Error> AskForTake(int fd, bool all);

/// What a side channel's lines are capped at: a take of a large server is megabytes.
inline constexpr std::size_t kAgentLineBytes = std::size_t{64} << 20U;

}  // namespace mcpfuzz::transport_detail
