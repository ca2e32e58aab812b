#include "transport/detail/agent_channel.h"

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "transport/detail/child_process.h"
#include "transport/detail/pipe_io.h"
#include "transport/transport.h"

namespace mcpfuzz::transport_detail {
namespace {

// What the server would get for `name` without the agents: its own value, else the inherited one.
std::string ServerSees(const Environment& env, bool inherit_env, std::string_view name) {
  std::optional<std::string> own;
  for (const auto& [key, value] : env) {
    if (key == name) own = value;
  }
  if (own) return *own;
  const char* inherited = inherit_env ? std::getenv(std::string(name).c_str()) : nullptr;
  return inherited != nullptr ? inherited : "";
}

std::string Joined(const std::string& first, const std::string& second,
                   std::string_view separator) {
  if (first.empty()) return second;
  if (second.empty()) return first;
  return first + std::string(separator) + second;
}

}  // namespace

Environment WithAgent(Environment env, bool inherit_env, const std::string& folder) {
  const std::filesystem::path path(folder);
  // Quoted, as NODE_OPTIONS allows, so that a path with spaces stays one.
  const std::string require =
      "--require \"" + (path / std::string(kCoverageAgentNodeFile)).string() + "\"";
  std::string node_options = Joined(ServerSees(env, inherit_env, "NODE_OPTIONS"), require, " ");
  // First, so that Python imports this sitecustomize; the agent runs any later one.
  std::string python_path = Joined(folder, ServerSees(env, inherit_env, "PYTHONPATH"), ":");
  env.emplace_back("NODE_OPTIONS", std::move(node_options));
  env.emplace_back("PYTHONPATH", std::move(python_path));
  env.emplace_back("MCPFUZZ_COVERAGE_FD", std::to_string(ChildProcess::kSideChannelFd));
  return env;
}

bool ReadAgentLines(int fd, LineSplitter& lines) {
  std::string chunk;
  const ReadStatus status = ReadSome(fd, chunk, std::size_t{64} << 10U);
  if (status == ReadStatus::kData) lines.Feed(chunk);
  return status != ReadStatus::kEof;
}

std::optional<Error> AskForTake(int fd, bool all) {
  const std::string_view take = all ? "take all\n" : "take\n";
  if (WriteWithoutSigpipe(fd, take.data(), take.size()) != static_cast<ssize_t>(take.size())) {
    return Error{"the coverage channel is closed"};
  }
  return std::nullopt;
}

std::optional<Error> AgentLines::NotGreeted(LineSplitter& lines, bool started) {
  if (greeted_) return std::nullopt;
  std::optional<LinePiece> greeting = lines.Next();
  if (!greeting) {
    return Error{started ? "no coverage agent greeted: the server did not load it (neither a "
                           "Node nor a Python process, its NODE_OPTIONS or PYTHONPATH "
                           "replaced, or Python started with -E, -I or -S)"
                         : "no coverage agent greeted yet: ask after the server's first reply"};
  }
  if (!greeting->line.starts_with(kCoverageAgentGreeting)) {
    return Error{"the coverage channel began with something other than the agent's greeting"};
  }
  greeted_ = true;
  return std::nullopt;
}

std::optional<Result<std::string>> AgentLines::Next(LineSplitter& lines) {
  std::optional<LinePiece> reply = lines.Next();
  if (!reply) return std::nullopt;
  if (reply->kind == LinePiece::Kind::kTooLong) {
    return Error{"the coverage agent's reply was over " + std::to_string(kAgentLineBytes) +
                 " bytes"};
  }
  return std::move(reply->line);
}

}  // namespace mcpfuzz::transport_detail
