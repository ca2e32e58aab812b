#pragma once
// The coverage agents (agent/), compiled into mcpfuzz. A run writes both into one folder of its
// own, laid out as agent/ is, and the transport has every stdio server it starts load them
// from there (StdioTarget::coverage_agent): a Node server the first, a Python server the
// second, so the runtime need not be known.

#include <string_view>

namespace mcpfuzz::coverage {

/// The Node agent's source, written to kNodeAgentFileName: it finds itself in NODE_OPTIONS by
/// that name, to keep the server's children from loading it.
std::string_view NodeAgentSource();
inline constexpr std::string_view kNodeAgentFileName = "mcpfuzz-coverage-agent.cjs";

/// The Python agent's source, written to kPythonAgentFileName: Python imports a module of that
/// name as it starts, from the first folder on PYTHONPATH that holds one.
std::string_view PythonAgentSource();
inline constexpr std::string_view kPythonAgentFileName = "sitecustomize.py";

}  // namespace mcpfuzz::coverage
