#pragma once
// What a server's coverage agent reported, merged over a run: the server's code blocks seen
// running, by script. Pure: the agent's reply lines come in as text (the transport reads them,
// StdioTransport::TakeCoverage), and nothing here does I/O.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "model/result.h"

namespace mcpfuzz::coverage {

/// Blocks that ran for the first time, as one reply added them.
struct CoverageGain {
  std::size_t blocks = 0;
  /// Of `blocks`, those in code under a node_modules folder (the SDK, for most servers).
  std::size_t in_node_modules = 0;
};

struct ScriptCoverage {
  std::string url;
  std::size_t blocks = 0;
  bool in_node_modules = false;
};

class CoverageMap {
 public:
  /// Merges one reply of agent `agent`'s ({"scripts":[[id,url],...],"blocks":[[id,start,end],
  /// ...]}, coverage/agent/mcpfuzz-coverage-agent.cjs): what is new to this map. Each agent (one
  /// server process) numbers its scripts itself, so `agent` says whose numbering a reply uses;
  /// a block is the same block whichever process ran it. A reply that is not the agent's
  /// shape changes nothing and is an error.
  Result<CoverageGain> Merge(std::string_view reply, std::size_t agent = 0);

  std::size_t blocks() const { return blocks_.size(); }
  std::size_t blocks_in_node_modules() const { return in_node_modules_; }
  /// Every script with a block seen, in URL order.
  std::vector<ScriptCoverage> Scripts() const;

 private:
  struct Script {
    std::size_t blocks = 0;
    bool in_node_modules = false;
  };
  // Per agent, its script ids to the URLs it named them with.
  std::map<std::size_t, std::map<std::int64_t, std::string>> script_ids_;
  std::map<std::string, Script> scripts_;
  // A block is its script's URL and its offsets, hashed: 64 bits keep collisions out of reach
  // for the few hundred thousand blocks of a large server.
  std::unordered_set<std::uint64_t> blocks_;
  std::size_t in_node_modules_ = 0;
};

}  // namespace mcpfuzz::coverage
