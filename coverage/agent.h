#pragma once
// The Node coverage agent (agent/mcpfuzz-coverage-agent.cjs), compiled into mcpfuzz.

#include <string_view>

namespace mcpfuzz::coverage {

/// The agent's source. A run writes it to a file named kNodeAgentFileName (the agent finds
/// itself in NODE_OPTIONS by that name, to keep the server's children from loading it) and
/// gives its path as StdioTarget::coverage_agent.
std::string_view NodeAgentSource();
inline constexpr std::string_view kNodeAgentFileName = "mcpfuzz-coverage-agent.cjs";

}  // namespace mcpfuzz::coverage
